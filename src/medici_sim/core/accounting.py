"""The statistics every game counts, accumulated by its kernel game by game.

A game's per-seat and per-slot statistics are integer rows: the common columns below (the
game's kernel fills its score's sources, ``Game.presentation.score_sources``), then the game's own
(``Game.engine.stat_columns``).
Integers only, so totals are exact and equal in any order of addition (any threads,
batches or machines, R25).

A finished game first writes its per-seat values into ``rows`` (a row a seat, zero on entry:
:func:`record_outcome_nb`, :func:`record_metrics_nb`, the game's own columns), then
:func:`add_seat_rows_nb` adds each row to its seat's and its strategy slot's totals in one
contiguous pass. Adding each value to two scattered totals as it is found took a tenth of a
fast heuristic's game (measured in the classic game); the pass vectorizes.
"""
from __future__ import annotations

from dataclasses import dataclass

from numba import njit

# Common columns of the per-seat and per-slot statistics.
(STAT_GAMES, STAT_WIN60, STAT_WIN60_SQ, STAT_OUTRIGHT, STAT_SHARED, STAT_SCORE, STAT_SCORE_SQ) = range(7)
# Then the score's sources, as many as the game declares (Presentation.score_sources): the game's kernel adds each
# seat's points from its k-th source to column STAT_SOURCE + k. Then the designer metrics' per-seat part
# (record_metrics_nb): games the seat trailed after the game's first scoring moment (Game.engine.moment: not among
# the leaders), and of those the games it won (alone or shared). Then the game's own columns (Engine.stat_columns).
# The layout is the game's (StatLayout): the Medici games' three sources put the metrics at 10 and 11, as ever.
STAT_SOURCE = 7


def trailed_column(sources: int) -> int:
    """The column of the games a seat trailed after the first scoring moment, for a game of ``sources`` score
    sources (the games it then won: the next column); what a kernel hands record_metrics_nb."""
    return STAT_SOURCE + sources


def n_common_stats(sources: int) -> int:
    """How many common columns a game of ``sources`` score sources has: its own columns start there."""
    return STAT_SOURCE + sources + 2


@dataclass(frozen=True)
class StatLayout:
    """One game's per-seat statistics columns (``StatLayout.of(game)``): the common ones, its score sources,
    the metrics' two, then its own (``width`` in all)."""

    sources: int  # how many score sources the game declares
    own: int = 0  # how many columns of its own (Engine.stat_columns)

    @classmethod
    def of(cls, game) -> StatLayout:
        return cls(len(game.presentation.score_sources), len(game.engine.stat_columns))

    def source(self, k: int) -> int:
        return STAT_SOURCE + k

    @property
    def trailed_first(self) -> int:
        return trailed_column(self.sources)

    @property
    def trailed_first_won(self) -> int:
        return trailed_column(self.sources) + 1

    @property
    def common(self) -> int:
        return n_common_stats(self.sources)

    @property
    def width(self) -> int:
        return self.common + self.own


# Common run-wide counters: games and the winning margin (0 on a shared win), then the designer
# metrics (record_metrics_nb), over the game's scoring moments: games with joint winners; games none
# of whose winners led after the first / the second moment; moments whose leaders differ from the
# moment before's (and its square); the margin (the winners' score minus the best non-winner's, 0
# when all tie) and its square; the game's length (the game's unit: turns, lots) and its square;
# then a histogram of the margin, RUN_MARGIN_HISTOGRAM + m counting the games of margin m (the last
# bin: MARGIN_BINS - 1 or more).
(RUN_GAMES, RUN_WIN_MARGIN, RUN_SHARED_WIN_GAMES, RUN_COMEBACK_FIRST, RUN_COMEBACK_SECOND, RUN_LEAD_CHANGES,
 RUN_LEAD_CHANGES_SQ, RUN_MARGIN, RUN_MARGIN_SQ, RUN_LENGTH, RUN_LENGTH_SQ, RUN_MARGIN_HISTOGRAM) = range(12)
MARGIN_BINS = 400
N_COMMON_RUN_STATS = RUN_MARGIN_HISTOGRAM + MARGIN_BINS
# pair_stats[a, b, k] for strategy slots a, b in the same game: PAIR_ABOVE adds 2 when a finished
# above b, 1 each when they tied (half-points keep it an integer); PAIR_DIFF_SQ adds d * d, d being
# a's win credit minus b's in this game (in WIN_UNITs). With the slots' sums of credits (sum d is
# their difference) and of squared credits, these give the variance of any difference between
# slots' win rates from the same games, paired game by game (core.stats.paired_difference).
PAIR_ABOVE, PAIR_DIFF_SQ = range(2)
N_PAIR_STATS = 2
WIN_UNIT = 60  # a shared win among k players credits 60 // k: exact for k = 1..6 (R22, C18)


def moment_label(moment: str, k: int) -> str:
    """A game's ``k``-th scoring moment in words (``Game.engine.moment``): "phase 1", "round 2"; "moment 1"
    for a game scored at the end only."""
    return f"{moment or 'moment'} {k}"


def comeback_names(moment: str) -> tuple[str, str]:
    """The designer metrics' names of the comebacks counted after a game's first and second
    scoring moments (``Game.engine.moment``: "phase" -> comeback_after_phase1, comeback_after_phase2; a game
    scored at the end only: comeback_after_moment1, ..., which never apply to it)."""
    word = moment or "moment"
    return f"comeback_after_{word}1", f"comeback_after_{word}2"


class InconsistentTotals(ValueError):
    """Totals no honest run of the game can produce (a game's ``totals_identities`` raise it)."""


@njit(cache=True, inline="always")
def add_seat_rows_nb(rows, seat_slot, seat_stats, slot_stats):
    """Add one game's per-seat ``rows`` to the seats' totals and their slots' (``seat_slot``),
    and zero them for the next game."""
    for seat in range(rows.shape[0]):
        slot = seat_slot[seat]
        for k in range(rows.shape[1]):
            seat_stats[seat, k] += rows[seat, k]
            slot_stats[slot, k] += rows[seat, k]
            rows[seat, k] = 0


# The game-end writers below are inlined into each game's one-game step: called, they cost about 4.5 CPU s less
# to compile, but the card game's random games ran about 5% slower (docs/performance.md, 2026-11-27).
@njit(cache=True, inline="always")
def record_outcome_nb(score, players, seat_slot, rows, pair_stats, run_stats):
    """Write a finished game's final scores into the common statistics: the seats' ``rows``
    (zero on entry), the pairs of slots and the run. The highest score wins; k tied winners are
    each credited 1/k (R22, C18). Returns the winners as a bit mask of seats."""
    return record_outcome_ranked_nb(score, score, players, seat_slot, rows, pair_stats, run_stats)


@njit(cache=True, inline="always")
def record_outcome_ranked_nb(score, rank, players, seat_slot, rows, pair_stats, run_stats):
    """:func:`record_outcome_nb` for a game whose order is not its score alone (tie-breaks: Engine.tie_breaks):
    ``rank[seat]`` orders the seats (the highest wins, k seats of equal highest rank share the win, each credited
    1/k; a pair finishes in rank order), ``score[seat]`` is what the score columns count, and the winning margin
    is the winner's score minus the best score of the others (0 on a shared win, and on a tie-break's win over
    an equal score). Returns the winners as a bit mask of seats."""
    best = rank[0]
    for p in range(players):
        best = max(best, rank[p])
    winners = 0
    mask = 0
    top = score[0]
    runner_up = -(1 << 62)
    for p in range(players):
        won = rank[p] == best
        winners += won
        mask |= won << p
        if won:
            top = score[p]
        else:
            runner_up = max(runner_up, score[p])
    run_stats[RUN_GAMES] += 1
    run_stats[RUN_WIN_MARGIN] += top - runner_up if winners == 1 else 0
    credit = WIN_UNIT // winners  # one division a game: in the pairs' loop it was one a pair, on the path of each
    for a in range(players):
        share_a = credit if rank[a] == best else 0
        for b in range(players):
            if a != b:
                share_b = credit if rank[b] == best else 0
                slot_a, slot_b = seat_slot[a], seat_slot[b]
                above = 2 if rank[a] > rank[b] else (1 if rank[a] == rank[b] else 0)
                pair_stats[slot_a, slot_b, PAIR_ABOVE] += above
                pair_stats[slot_a, slot_b, PAIR_DIFF_SQ] += (share_a - share_b) * (share_a - share_b)
    for seat in range(players):
        won = rank[seat] == best
        share = credit if won else 0
        rows[seat, STAT_GAMES] = 1
        rows[seat, STAT_WIN60] = share
        rows[seat, STAT_WIN60_SQ] = share * share
        rows[seat, STAT_OUTRIGHT] = won and winners == 1
        rows[seat, STAT_SHARED] = won and winners > 1
        rows[seat, STAT_SCORE] = score[seat]
        rows[seat, STAT_SCORE_SQ] = score[seat] * score[seat]
    return mask


@njit(cache=True, inline="always")
def record_metrics_nb(moment_score, players, rows, run_stats, length, trailed, winners):
    """Write a finished game's designer metrics into the seats' ``rows`` and the run:
    ``moment_score[moment, seat]`` holds the scores after each of the game's scoring moments
    (``Game.engine.moment``; the last row the final scores: a game scored at the end only has that row
    alone), ``length`` the game's length in its unit, ``trailed`` the game's first metrics column
    (:func:`trailed_column`), ``winners`` the winners as a bit mask (record_outcome_ranked_nb's; -1: the seats
    with the highest final score). The leaders after a moment are a bit mask of the seats with the highest
    score (all of them when tied)."""
    moments = moment_score.shape[0]
    changes = after_first = after_second = leaders = best = 0
    for moment in range(moments):
        best = moment_score[moment, 0]
        for p in range(1, players):
            best = max(best, moment_score[moment, p])
        mask = 0
        for p in range(players):
            mask |= (moment_score[moment, p] == best) << p
        changes += moment > 0 and mask != leaders
        after_first = mask if moment == 0 else after_first
        after_second = mask if moment <= 1 else after_second
        leaders = mask
    if winners < 0:
        winners = leaders
    margin = -1  # the best non-winner's distance from the winners' score (0 after a tie-break), 0 when all tie
    for p in range(players):
        if (winners >> p) & 1 == 0:
            margin = (best - moment_score[moments - 1, p] if margin < 0
                      else min(margin, best - moment_score[moments - 1, p]))
    margin = max(margin, 0)
    run_stats[RUN_SHARED_WIN_GAMES] += (winners & (winners - 1)) != 0
    run_stats[RUN_COMEBACK_FIRST] += (winners & after_first) == 0
    run_stats[RUN_COMEBACK_SECOND] += (winners & after_second) == 0
    run_stats[RUN_LEAD_CHANGES] += changes
    run_stats[RUN_LEAD_CHANGES_SQ] += changes * changes
    run_stats[RUN_MARGIN] += margin
    run_stats[RUN_MARGIN_SQ] += margin * margin
    run_stats[RUN_LENGTH] += length
    run_stats[RUN_LENGTH_SQ] += length * length
    run_stats[RUN_MARGIN_HISTOGRAM + min(margin, MARGIN_BINS - 1)] += 1
    for seat in range(players):
        behind = (after_first >> seat) & 1 == 0
        won = behind and (winners >> seat) & 1 == 1
        rows[seat, trailed] = behind
        rows[seat, trailed + 1] = won
