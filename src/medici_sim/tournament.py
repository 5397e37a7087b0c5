"""Tournaments: many strategies at one player count, every lineup rotated through the seats.

With more strategies than seats, every combination of ``players`` distinct strategies is
a lineup; with fewer, the list is repeated to fill the seats. Each lineup plays with
rotated seating (R24) in its own block of game indices, so the whole tournament is a
function of the master seed alone (R25), and it can be extended batch by batch (for
``--precision``) with exactly the games a longer run would have played.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from . import engine
from .deck import Deck
from .simulate import RunConfig, SeatStrategy, Totals, simulate

LINEUP_BLOCK = 1 << 36  # game indices reserved for one lineup of one configuration
CONFIG_BLOCK = 1 << 48  # ... and for one configuration (player count, rules)


def lineups(strategies: tuple[SeatStrategy, ...], players: int) -> list[tuple[SeatStrategy, ...]]:
    """The lineups a tournament plays: all combinations, or the list repeated to fill the seats."""
    if len(strategies) >= players:
        return list(itertools.combinations(strategies, players))
    return [tuple(strategies[i % len(strategies)] for i in range(players))]


@dataclass
class Tournament:
    """The running totals of one configuration: player count, rules and strategies."""

    deck: Deck
    players: int
    strategies: tuple[SeatStrategy, ...]
    variant: str = "standard"
    seed: int = 0
    threads: int = 1
    config_index: int = 0  # which block of game indices this configuration owns
    played: int = 0  # games per lineup so far
    labels: list[str] = field(init=False)
    strategy_stats: np.ndarray = field(init=False)  # (strategies, N_STATS)
    pairs: np.ndarray = field(init=False)  # (strategies, strategies) engine.pair_stats
    seat_stats: np.ndarray = field(init=False)  # (players, N_STATS)
    run: np.ndarray = field(init=False)
    elapsed: float = 0.0

    def __post_init__(self):
        self.labels = list(dict.fromkeys(s.label for s in self.strategies))
        n = len(self.labels)
        self.strategy_stats = np.zeros((n, engine.N_STATS), np.int64)
        self.pairs = np.zeros((n, n), np.int64)
        self.seat_stats = np.zeros((self.players, engine.N_STATS), np.int64)
        self.run = np.zeros(engine.N_RUN_STATS, np.int64)

    @property
    def lineups(self) -> list[tuple[SeatStrategy, ...]]:
        return lineups(self.strategies, self.players)

    @property
    def games(self) -> int:
        return int(self.run[engine.RUN_GAMES])

    def play(self, games: int, progress=None) -> None:
        """Play about ``games`` more games, split evenly over the lineups (a whole number of
        rotations each, so every strategy of a lineup sits in every seat equally often)."""
        per_lineup = -(-games // len(self.lineups))
        per_lineup = -(-per_lineup // self.players) * self.players
        for k, lineup in enumerate(self.lineups):
            config = RunConfig(deck=self.deck, players=self.players, strategies=lineup, games=per_lineup,
                               seed=self.seed, variant=self.variant, seating="rotate", threads=self.threads)
            first = self.config_index * CONFIG_BLOCK + k * LINEUP_BLOCK + self.played
            result = simulate(config, progress=progress, first_game=first)
            self._add(lineup, result.totals)
            self.elapsed += result.elapsed
        self.played += per_lineup

    def _add(self, lineup: tuple[SeatStrategy, ...], totals: Totals) -> None:
        rows = [self.labels.index(s.label) for s in lineup]
        for slot, row in enumerate(rows):
            self.strategy_stats[row] += totals.slot[slot]
            for other, other_row in enumerate(rows):
                if other_row != row:
                    self.pairs[row, other_row] += totals.pairs[slot, other]
        self.seat_stats += totals.seat
        self.run += totals.run
