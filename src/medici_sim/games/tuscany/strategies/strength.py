"""How strong and how fast the Tuscany strategies are, on the jitted batch kernel directly: :func:`play` runs a
lineup, :func:`per_game` the same games one by one (each slot's score and win credit in each game), :func:`versus`
one strategy against another (one seat against the rest, seats rotated, the margin's standard error that of the
per-game difference: both play the same games), :func:`speed` games per CPU second.

Used by the slow strength test (tests/tuscany/test_tuscany_strategies.py); the strength table of the docs is
scripts/strength_table.py's (docs/strength-tuscany.md).
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


def _runner(lineup, seed: int, seating: str, spec, component_set, params):
    """(first, games) -> the slot statistics of games first .. first + games - 1 of ``lineup`` (strategy names by
    slot, ``params``: name -> {param: value} over the defaults), on the jitted batch kernel."""
    from ..game import N_RUN_STATS, N_STATS, play_games_nb  # noqa: PLC0415  (compiles on first use)

    players = len(lineup)
    inputs = new_state(components(component_set), RULE_BOOK.resolve(spec, players))
    table, names = strategy_table(REGISTRY, set(BUILT_INS) | set(lineup))
    slot_params = np.zeros((players, MAX_PARAMS))
    for slot, name in enumerate(lineup):
        declared = REGISTRY[name].params
        values = {**{k: p.default for k, p in declared.items()}, **(params or {}).get(name, {})}
        slot_params[slot, :len(declared)] = [values[k] for k in declared]
    slots = np.array([names.index(s) for s in lineup], np.int64)

    def run(first: int, games: int) -> np.ndarray:
        seat_stats = np.zeros((players, N_STATS), np.int64)
        slot_stats = seat_stats.copy()
        play_games_nb(seed, first, games, inputs, SEATING_MODES.index(seating), slots, slot_params, seat_stats,
                      slot_stats, np.zeros((players, players, 2), np.int64), np.zeros(N_RUN_STATS, np.int64), table)
        return slot_stats

    return run


def play(lineup, games: int, seed: int = 1, seating: str = "rotate", spec=None, component_set=None, params=None):
    """Games 0 .. games - 1 of ``lineup`` (strategy names by slot, ``params``: name -> {param: value} over
    the defaults): (CPU seconds, a Seat per slot)."""
    run = _runner(lineup, seed, seating, spec, component_set, params)
    start = time.process_time()
    slot_stats = run(0, games)
    seconds = time.process_time() - start
    seats = []
    for slot, name in enumerate(lineup):
        n, row = int(slot_stats[slot, STAT_GAMES]), slot_stats[slot]
        mean = row[STAT_SCORE] / n
        win = row[STAT_WIN60] / n / WIN_UNIT
        seats.append(Seat(name, n, mean, math.sqrt(max(row[STAT_SCORE_SQ] / n - mean * mean, 0) / n), win,
                          math.sqrt(max(win * (1 - win), 1e-12) / n)))
    return seconds, seats


def per_game(lineup, games: int, seed: int = 1, seating: str = "rotate", spec=None, component_set=None,
             params=None) -> tuple[np.ndarray, np.ndarray]:
    """Games 0 .. games - 1 of ``lineup`` one by one (the same games :func:`play` plays): each slot's red score
    and win credit (1/k of a k-way tie, T36) in each game, two arrays of shape (games, slots)."""
    run = _runner(lineup, seed, seating, spec, component_set, params)
    score, credit = np.zeros((games, len(lineup))), np.zeros((games, len(lineup)))
    for index in range(games):
        stats = run(index, 1)
        score[index], credit[index] = stats[:, STAT_SCORE], stats[:, STAT_WIN60] / WIN_UNIT
    return score, credit


@dataclass(frozen=True)
class Margin:
    """``strategy``'s seat against its rivals' seats on the same games, paired game by game: the mean per-game
    difference of red scores (the strategy's less the rival seat's) and its standard error, for the rival seat
    whose difference has the lowest z (the weakest claim); the win credits' likewise."""

    strategy: Seat
    rivals: tuple[Seat, ...]
    score_diff: float
    score_se: float
    win_diff: float
    win_se: float

    @property
    def z(self) -> float:
        return self.score_diff / self.score_se if self.score_se > 0 else math.inf * np.sign(self.score_diff)


def _paired(first: np.ndarray, second: np.ndarray) -> tuple[float, float]:
    """The mean of the per-game differences and its standard error."""
    diff = first - second
    return float(diff.mean()), float(diff.std(ddof=1) / math.sqrt(len(diff)))


def _seat(name: str, score: np.ndarray, credit: np.ndarray) -> Seat:
    n = len(score)
    return Seat(name, n, float(score.mean()), float(score.std() / math.sqrt(n)), float(credit.mean()),
                float(credit.std() / math.sqrt(n)))


def versus(strategy: str, rival: str, players: int, games: int, seed: int = 1, **options) -> Margin:
    """``strategy`` at one seat against ``rival`` at the others, seats rotated, on the same games: the margin's
    standard error is that of the per-game difference (the seats share every game, so their scores are not
    independent), taken against each rival seat; the reported one is the rival seat with the lowest z."""
    score, credit = per_game([strategy] + [rival] * (players - 1), games, seed, **options)
    pairs = [(_paired(score[:, 0], score[:, k]), _paired(credit[:, 0], credit[:, k])) for k in range(1, players)]
    (score_diff, score_se), (win_diff, win_se) = min(pairs, key=lambda p: p[0][0] / max(p[0][1], 1e-12))
    seats = [_seat(strategy if k == 0 else rival, score[:, k], credit[:, k]) for k in range(players)]
    return Margin(seats[0], tuple(seats[1:]), score_diff, score_se, win_diff, win_se)


def speed(strategy: str, players: int = 4, games: int = 2000, repeat: int = 3) -> float:
    """Games per CPU second with ``strategy`` at every seat (the best of ``repeat``; compiled first)."""
    play([strategy] * players, 1)
    return max(games / play([strategy] * players, games, seating="fixed")[0] for _ in range(repeat))
