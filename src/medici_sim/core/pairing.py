"""Two rule sets on the same games: each game played under both, the differences streamed.

``balance`` compares a game's two rule sets (its standard rules and a variant, say) on the same
game indices, so wherever play coincides the two rules deal the same cards (R25). A seat's
outcomes under the two rules are then strongly correlated (about 0.8 for the card game's
heuristics at 4 players), and the standard error of a difference must come from each
game's pair of outcomes: with the two rules' variances added, it is about twice too large.

:func:`play_paired_nb` plays each game of a range under the first rules and then under the
second, one game at a time through the game's own one-game step (``Game.engine.play_game_in_nb``,
the batch kernel's own, chosen at compile time from a tag naming the game), adds each game
to both runs' usual totals, and sums, from each game's win credits (second rules minus
first, in WIN_UNITs):

- ``cross[a, b]``: the products of slot a's and slot b's differences (the diagonal, the
  squares): the difference of any strategy, at one slot or several, follows exactly;
- ``seat_sq[s]``: the squares of seat s's differences;
- ``metric_sq[m]``: the squares of the differences of the designer metric counter
  ``counters[m]`` (:func:`metric_counters`: the run counters a game adds to once per game),
  so that a metric's change between the rules is paired too.

Integers only, exact in any order; fixed size whatever the games. :class:`PreparedPair`
is what the driver plays (``driver.simulate(..., kernel=PreparedPair(...))``).

Speed: each rule set's games are played in a state buffer copied from its inputs once per
call and used again game after game, as the batch kernel does (a game starts afresh in it);
the earlier loop called the batch kernel for one game at a time, which copied the whole
inputs (the card game's 240 kB) and allocated twice per game and rule set: paired play ran
at 0.3-0.5 (card) and 0.6-0.85 (classic) of a plain run's games/s, now at about a plain
run's (``benchmarks/bench_paired.py``, docs/performance.md). A game without ``play_game_in_nb``
(a game of one's own that writes its own ``play_games_nb``) is played the earlier way.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numba.extending import overload

from .accounting import (
    N_COMMON_RUN_STATS,
    RUN_COMEBACK_FIRST,
    RUN_COMEBACK_SECOND,
    RUN_LEAD_CHANGES,
    RUN_LENGTH,
    RUN_MARGIN,
    RUN_SHARED_WIN_GAMES,
    STAT_WIN60,
    comeback_names,
)
from .driver import PreparedRun, RunConfig, Totals
from .registry import GAMES, Game

_TAG_PREFIX = "medici_game_"


# The designer metrics' per-game counters whose change between two rule sets is paired, by the
# name of the metric each gives (study.metrics), the comebacks named after the game's scoring moments
# (accounting.comeback_names); a game counting the scoring moments that ran out (its run column
# ran_out_<moment>s, study.metrics.Moments.ran_out_column) adds them.
PAIRED_METRICS = (("lead_changes", RUN_LEAD_CHANGES), ("margin", RUN_MARGIN),
                  ("shared_win_games", RUN_SHARED_WIN_GAMES), ("length", RUN_LENGTH))


def paired_metrics(game: Game) -> list[tuple[str, int]]:
    """(metric, run counter) of each metric paired for ``game`` (its moments that ran out last)."""
    moment = game.engine.moment
    first, second = comeback_names(moment)
    column = f"ran_out_{moment}s"
    ran_out = ([(f"ran_out_{moment}_share", N_COMMON_RUN_STATS + game.engine.run_columns.index(column))]
               if moment and column in game.engine.run_columns else [])
    return [(first, RUN_COMEBACK_FIRST), (second, RUN_COMEBACK_SECOND), *PAIRED_METRICS, *ran_out]


def metric_counters(game: Game) -> np.ndarray:
    """The run counters of :func:`paired_metrics`, as the paired loop reads them."""
    return np.array([counter for _, counter in paired_metrics(game)], np.int64)


def game_tag(game: str) -> np.void:
    """A one-byte record whose dtype names the game (what ``_play_one`` dispatches on)."""
    return np.zeros(1, np.dtype([(_TAG_PREFIX + game, np.uint8)]))[0]


def _play_one(tag, buffer, seed, game_index, inputs, seating, slot_strategy, slot_params, rows, seat, slot, pairs,
              run, table):
    raise NotImplementedError("callable from jitted code only")


@overload(_play_one, inline="always")
def _play_one_typer(tag, buffer, seed, game_index, inputs, seating, slot_strategy, slot_params, rows, seat, slot,
                    pairs, run, table):
    (name,) = tag.fields
    game = GAMES[name[len(_TAG_PREFIX):]]  # the strategy table in the signature pins its sources
    one, play = game.engine.play_game_in_nb, game.engine.play_games_nb
    if one is not None:  # the game in the buffer kept for its rules: no copy of the inputs, no allocation
        def impl(tag, buffer, seed, game_index, inputs, seating, slot_strategy, slot_params, rows, seat, slot, pairs,
                 run, table):
            one(buffer, seed, game_index, seating, slot_strategy, slot_params, rows, seat, slot, pairs, run, table)
        return impl

    def batch_of_one(tag, buffer, seed, game_index, inputs, seating, slot_strategy, slot_params, rows, seat, slot,
                     pairs, run, table):
        play(seed, game_index, 1, inputs, seating, slot_strategy, slot_params, seat, slot, pairs, run, table)
    return batch_of_one


@njit(cache=True, nogil=True)
def play_paired_nb(tag, seed, first_game, n_games, inputs_a, inputs_b, seating, slot_strategy, params_a, params_b,
                   seat_a, slot_a, pairs_a, run_a, seat_b, slot_b, pairs_b, run_b, cross, seat_sq, counters, metric_sq,
                   table):
    """Play games ``first_game ..`` under rules a and b (``inputs_a``, ``inputs_b``; each slot
    with its parameters under each), adding them to both runs' totals and to the paired sums
    (``metric_sq[m]``: of the run counter ``counters[m]``).
    Each game adds to the totals directly; its win credits are what the totals' win column
    gained (cheaper than a game's own totals zeroed and added: short games are most of it)."""
    players = slot_strategy.shape[0]
    slot_before_a, slot_before_b = np.empty(players, np.int64), np.empty(players, np.int64)
    seat_before_a, seat_before_b = np.empty(players, np.int64), np.empty(players, np.int64)
    slot_difference = np.empty(players, np.int64)
    metric_before = np.empty(counters.shape[0], np.int64)
    buffer_a, buffer_b = inputs_a.copy(), inputs_b.copy()  # each rules' games played in its own, game after game
    rows = np.zeros_like(seat_a)  # a game's per-seat statistics, zero between games
    for game_index in range(first_game, first_game + n_games):
        for p in range(players):
            slot_before_a[p], slot_before_b[p] = slot_a[p, STAT_WIN60], slot_b[p, STAT_WIN60]
            seat_before_a[p], seat_before_b[p] = seat_a[p, STAT_WIN60], seat_b[p, STAT_WIN60]
        for m in range(counters.shape[0]):
            metric_before[m] = run_b[counters[m]] - run_a[counters[m]]
        _play_one(tag, buffer_a, seed, game_index, inputs_a, seating, slot_strategy, params_a, rows, seat_a, slot_a,
                  pairs_a, run_a, table)
        _play_one(tag, buffer_b, seed, game_index, inputs_b, seating, slot_strategy, params_b, rows, seat_b, slot_b,
                  pairs_b, run_b, table)
        for p in range(players):
            slot_difference[p] = ((slot_b[p, STAT_WIN60] - slot_before_b[p])
                                  - (slot_a[p, STAT_WIN60] - slot_before_a[p]))
        for a in range(players):
            for b in range(players):
                cross[a, b] += slot_difference[a] * slot_difference[b]
            d_seat = (seat_b[a, STAT_WIN60] - seat_before_b[a]) - (seat_a[a, STAT_WIN60] - seat_before_a[a])
            seat_sq[a] += d_seat * d_seat
        for m in range(counters.shape[0]):
            d_metric = run_b[counters[m]] - run_a[counters[m]] - metric_before[m]
            metric_sq[m] += d_metric * d_metric


@dataclass
class PairedTotals:
    """Two runs of the same games (rules a, then b) and their paired sums (module doc)."""

    a: Totals
    b: Totals
    cross: np.ndarray  # (players, players)
    seat_sq: np.ndarray  # (players,)
    metric_sq: np.ndarray  # (paired metrics,): paired_metrics' order

    def add(self, other: PairedTotals) -> None:
        self.a.add(other.a)
        self.b.add(other.b)
        self.cross += other.cross
        self.seat_sq += other.seat_sq
        self.metric_sq += other.metric_sq

    @property
    def games(self) -> int:
        return self.a.games


class PreparedPair:
    """The kernel of two runs that differ only in their rules (and the parameters each slot
    plays under them): the same game, players, strategies, seating, seed and games."""

    def __init__(self, config_a: RunConfig, config_b: RunConfig):
        self.a, self.b = PreparedRun(config_a), PreparedRun(config_b)
        if (config_a.game, config_a.players, config_a.seating, config_a.seed, self.a.table_names,
                tuple(self.a.slot_strategy)) != (config_b.game, config_b.players, config_b.seating, config_b.seed,
                                                 self.b.table_names, tuple(self.b.slot_strategy)):
            raise ValueError("paired runs differ in more than their rules")
        self.config = (config_a, config_b)  # what a Dask worker rebuilds the kernel from
        self.game, self.table_names = self.a.game, self.a.table_names
        self.tag = game_tag(self.game.name)
        self.counters = metric_counters(self.game)

    def zeros(self) -> PairedTotals:
        players = self.a.config.players
        return PairedTotals(self.a.zeros(), self.b.zeros(), np.zeros((players, players), np.int64),
                            np.zeros(players, np.int64), np.zeros(len(self.counters), np.int64))

    def play(self, first_game: int, n_games: int) -> PairedTotals:
        totals = self.zeros()
        a, b = totals.a, totals.b
        with self.a.naming_failures(first_game, n_games):  # a failure is found again under the first rules
            play_paired_nb(self.tag, self.a.config.seed, first_game, n_games, self.a.inputs, self.b.inputs,
                           self.a.seating, self.a.slot_strategy, self.a.slot_params, self.b.slot_params,
                           a.seat, a.slot, a.pair_stats, a.run, b.seat, b.slot, b.pair_stats, b.run,
                           totals.cross, totals.seat_sq, self.counters, totals.metric_sq, self.a.table)
        return totals

    def warm_up(self, stop=None, compiling=None) -> bool:
        """Compile the paired loop and the game's kernel in it as ``PreparedRun.warm_up`` does (on a
        thread, telling ``compiling``, answering a stop request, naming a strategy that does not
        compile)."""
        return PreparedRun.warm_up(self, stop, compiling)
