"""Compare and balance as computations: what to play, playing it, and the answer as tables.

A :class:`Study` says what a tournament study plays (game, player counts, strategies, rules,
seed, games or a precision). :func:`plan` makes its tournaments (every lineup rotated, each
in its own block of game indices, R24, R25); :func:`play` plays them (fixed games, or
batches until every win rate is as precise as asked); :func:`compare_answer` and
:func:`balance_answer` turn them into tables. The command line and the Python API
(``medici_sim.compare``, ``medici_sim.balance``) share all of it.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from ..core.driver import ConfigError, SeatStrategy
from ..core.registry import Game
from ..core.tournament import CONFIG_BLOCK, LINEUP_BLOCK, Tournament, lineups
from .analysis import (
    balance_tables,
    head_to_head_table,
    max_half_width,
    ratings_table,
    require_statsmodels,
    strategy_table,
    verdict,
)

MAX_PRECISION_GAMES = 10**10  # --precision refuses a request that could need more games per configuration
Z95 = 1.959963984540054
COMPARE_TABLES = ["strategies", "ratings", "head_to_head"]
BALANCE_TABLES = ["strategies", "rules"]
BALANCED_VARIANTS = ("standard", "bonus20")  # balance compares these rules (R19)


@dataclass(frozen=True)
class Study:
    """What a compare or balance run plays."""

    game: Game
    counts: tuple[int, ...]
    strategies: tuple[SeatStrategy, ...]
    variant: str | None  # compare: the rules to play (None: the game's standard rules); balance: None
    seed: int
    deck: object
    games: int
    precision: float | None
    threads: int

    def check(self, command: str) -> None:
        """Refuse, before any game, what cannot be played or cannot finish."""
        if command == "balance" and self.game.variants != BALANCED_VARIANTS:
            raise ConfigError(f"balance compares the card game's standard rules with its bonus20 variant (R19); "
                              f"the {self.game.name} game has no variants to compare (use compare --game "
                              f"{self.game.name})")
        if self.variant is not None and self.variant not in self.game.variants:
            raise ConfigError(f"--variant: the {self.game.name} game's rules are {', '.join(self.game.variants)}, "
                              f"got {self.variant!r}")
        if self.games <= 0:
            raise ConfigError(f"games must be a positive integer, got {self.games}")
        if self.precision is not None and not 0 < self.precision < 0.5:
            raise ConfigError(f"--precision must be between 0 and 0.5 (a win-rate half-width), got {self.precision}")
        if self.threads < 1:
            raise ConfigError(f"threads must be at least 1, got {self.threads}")
        distinct = list(dict.fromkeys(s.label for s in self.strategies))
        if command == "compare" and len(distinct) < 2:
            raise ConfigError(f"compare needs at least two different strategies, got {', '.join(distinct)}")
        self._check_blocks()
        if command == "compare":
            require_statsmodels()

    def _check_blocks(self) -> None:
        """More lineups or games than a configuration's block of game indices holds (blocks
        never overlap, R25), or a precision that could need more than MAX_PRECISION_GAMES."""
        for players in self.counts:
            n_lineups = len(lineups(self.strategies, players))
            if n_lineups > CONFIG_BLOCK // LINEUP_BLOCK:
                raise ConfigError(f"{len(self.strategies)} strategies make {n_lineups:,} lineups of {players} "
                                  f"players; at most {CONFIG_BLOCK // LINEUP_BLOCK:,} fit in one configuration's "
                                  "game indices")
            per_lineup = -(-self.games // n_lineups)
            if per_lineup > LINEUP_BLOCK:
                raise ConfigError(f"--games {self.games}: {per_lineup:,} games per lineup exceed a lineup's block "
                                  f"of {LINEUP_BLOCK:,} game indices")
            if self.precision is not None:
                # the worst case: a win credit's variance is at most 1/4
                needed = (Z95 * 0.5 / self.precision) ** 2 * max(1.0, len(self.strategies) / players)
                if needed > MAX_PRECISION_GAMES:
                    raise ConfigError(f"--precision {self.precision}: could need about {needed:.1e} games per "
                                      f"configuration, more than the ceiling of {MAX_PRECISION_GAMES:.0e}")


def plan(study: Study, command: str) -> list[Tournament]:
    """The study's tournaments: one per player count (compare), or a standard and a bonus20
    one per player count on the same game indices (balance: the same shuffles wherever play
    coincides)."""
    variants = BALANCED_VARIANTS if command == "balance" else (study.variant or study.game.variants[0],)
    return [Tournament(study.deck, players, study.strategies, variant, study.seed, study.threads, config_index=i,
                       game=study.game.name)
            for i, players in enumerate(study.counts) for variant in variants]


def configuration(study: Study, tournaments: list[Tournament]) -> dict:
    """What a checkpoint of the study records, and a resumed study must match."""
    return {"games": study.games, "precision": study.precision,
            "tournaments": [t.configuration() for t in tournaments]}


def play(tournaments: list[Tournament], study: Study, progress: Callable[[int], None] | None = None,
         stop: threading.Event | None = None, on_batch: Callable[[], None] | None = None,
         on_more: Callable[[int], None] | None = None) -> bool:
    """Play each tournament's games, or batches until every win rate's half-width is below
    the precision; a resumed tournament first finishes what was asked of it. True if complete.

    ``progress(n)`` after each batch, ``on_batch()`` when the totals are consistent (to
    checkpoint), ``on_more(games)`` when --precision asks for another round.
    """
    stopped = stop.is_set if stop is not None else (lambda: False)
    for t in tournaments:
        if t.target == 0:
            t.play(study.games, progress, stop, on_batch)
        else:
            t.catch_up(progress, stop, on_batch)
    while study.precision is not None and not stopped():
        wide = [t for t in tournaments if max_half_width(t) >= study.precision]
        if not wide:
            break
        if any(t.games >= MAX_PRECISION_GAMES for t in wide):
            raise ConfigError(f"--precision {study.precision}: not reached after {MAX_PRECISION_GAMES:.0e} games")
        if on_more is not None:
            on_more(study.games * sum(len(t.lineups) for t in wide))
        for t in wide:
            t.play(study.games, progress, stop, on_batch)
    return not stopped()


def summary(tournaments: list[Tournament], study: Study, complete: bool) -> dict:
    elapsed = sum(t.elapsed for t in tournaments)
    games = sum(t.games for t in tournaments)
    return {
        "partial": not complete,
        "configurations": len(tournaments),
        "games_per_configuration": ",".join(str(t.games) for t in tournaments),
        "games": games,
        "precision": study.precision if study.precision is not None else "",
        "widest_half_width": round(max(max_half_width(t) for t in tournaments), 5),
        "game": study.game.name,
        **({"deck": study.deck.name} if study.deck is not None else {}),
        "seed": study.seed,
        "threads": study.threads,
        "elapsed_seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed) if elapsed > 0 else 0,
    }


def compare_answer(tournaments: list[Tournament]) -> dict[str, pd.DataFrame]:
    """Per strategy, ratings and head to head, over the tournaments that played games."""
    played = [t for t in tournaments if t.games > 0]
    return {
        "strategies": pd.concat([strategy_table(t) for t in played], ignore_index=True),
        "ratings": pd.concat([ratings_table(t) for t in played], ignore_index=True),
        "head_to_head": pd.concat([head_to_head_table(t) for t in played], ignore_index=True),
    }


def balance_answer(tournaments: list[Tournament]) -> tuple[dict[str, pd.DataFrame], str]:
    """Standard against bonus20 for each player count both rules have played: tables and verdict."""
    pairs = [(std, b20) for std, b20 in zip(tournaments[::2], tournaments[1::2], strict=True)
             if std.games > 0 and b20.games > 0]
    per_strategy, per_rules = zip(*(balance_tables(std, b20) for std, b20 in pairs), strict=True)
    tables = {"strategies": pd.concat(per_strategy, ignore_index=True),
              "rules": pd.concat(per_rules, ignore_index=True)}
    return tables, verdict(tables["strategies"], tables["rules"])


def played_any(tournaments: list[Tournament], command: str) -> bool:
    """Whether there is anything to report (Ctrl-C may stop a study before any game)."""
    if command == "balance":
        pairs = zip(tournaments[::2], tournaments[1::2], strict=True)
        return any(std.games > 0 and b20.games > 0 for std, b20 in pairs)
    return any(t.games > 0 for t in tournaments)
