"""How strong and how fast the Tuscany strategies are, on the jitted batch kernel directly (the game is not yet
registered with the driver, issue 32): :func:`play` runs a lineup, :func:`versus` one strategy against
another (one seat against the rest, seats rotated), :func:`speed` games per CPU second.

Used by benchmarks/bench_tuscany_strategies.py (the strength table of issue 33) and the slow strength test
(tests/tuscany/test_tuscany_strategies.py).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ....core.accounting import STAT_GAMES, STAT_SCORE, STAT_SCORE_SQ, STAT_WIN60, WIN_UNIT
from ....core.dispatch import strategy_table
from ....core.registry import MAX_PARAMS
from ....core.seating import SEATING_MODES
from ..components import components
from ..rules import RULE_BOOK
from ..tables import new_state
from .base import BUILT_INS, REGISTRY


@dataclass(frozen=True)
class Seat:
    """One strategy slot's results over a run: mean red score and win rate, each with its standard error."""

    name: str
    games: int
    mean: float
    mean_se: float
    win: float
    win_se: float


def play(lineup, games: int, seed: int = 1, seating: str = "rotate", spec=None, component_set=None, params=None):
    """Games 0 .. games - 1 of ``lineup`` (strategy names by slot, ``params``: name -> {param: value} over
    the defaults): (CPU seconds, a Seat per slot)."""
    from ..game import N_RUN_STATS, N_STATS, play_games_nb  # noqa: PLC0415  (compiles on first use)

    players = len(lineup)
    inputs = new_state(components(component_set), RULE_BOOK.resolve(spec, players))
    table, names = strategy_table(REGISTRY, set(BUILT_INS) | set(lineup))
    slot_params = np.zeros((players, MAX_PARAMS))
    for slot, name in enumerate(lineup):
        declared = REGISTRY[name].params
        values = {**{k: p.default for k, p in declared.items()}, **(params or {}).get(name, {})}
        slot_params[slot, :len(declared)] = [values[k] for k in declared]
    seat_stats = np.zeros((players, N_STATS), np.int64)
    slot_stats, run_stats = seat_stats.copy(), np.zeros(N_RUN_STATS, np.int64)
    start = time.process_time()
    play_games_nb(seed, 0, games, inputs, SEATING_MODES.index(seating),
                  np.array([names.index(s) for s in lineup], np.int64), slot_params, seat_stats, slot_stats,
                  np.zeros((players, players, 2), np.int64), run_stats, table)
    seconds = time.process_time() - start
    seats = []
    for slot, name in enumerate(lineup):
        n, row = int(slot_stats[slot, STAT_GAMES]), slot_stats[slot]
        mean = row[STAT_SCORE] / n
        win = row[STAT_WIN60] / n / WIN_UNIT
        seats.append(Seat(name, n, mean, math.sqrt(max(row[STAT_SCORE_SQ] / n - mean * mean, 0) / n), win,
                          math.sqrt(max(win * (1 - win), 1e-12) / n)))
    return seconds, seats


def versus(strategy: str, rival: str, players: int, games: int, seed: int = 1, **options):
    """``strategy`` at one seat against ``rival`` at the others, seats rotated: (the strategy's Seat, the
    rivals' seats, and the margin's z: the strategy's mean red less the best rival seat's, over the standard
    error of that difference, the seats taken as independent: conservative, as they share games)."""
    _, seats = play([strategy] + [rival] * (players - 1), games, seed, **options)
    best = max(seats[1:], key=lambda s: s.mean)
    z = (seats[0].mean - best.mean) / math.hypot(seats[0].mean_se, best.mean_se)
    return seats[0], seats[1:], z


def speed(strategy: str, players: int = 4, games: int = 2000, repeat: int = 3) -> float:
    """Games per CPU second with ``strategy`` at every seat (the best of ``repeat``; compiled first)."""
    play([strategy] * players, 1)
    return max(games / play([strategy] * players, games, seating="fixed")[0] for _ in range(repeat))
