"""What an honest engine's statistics satisfy, exactly: the proofs a saved run's totals must pass.

``core.accounting`` counts them; ``N`` is a row's games, ``G`` the games of the run:

- games: every seat row counts ``G`` games; a strategy row counts the games its slots sat
  in; a row (and the run counters) of no games is all zeros;
- wins: a k-way shared win credits 60 // k (k = 2..players), so per row
  outright + shared <= N, and with W = win60 - 60 outright, Q = win60_sq - 3600 outright,
  s the smallest share: s shared <= W <= 30 shared, W**2 <= Q shared (Cauchy),
  Q <= (30 + s) W - 30 s shared (every share between s and 30), W, Q divisible by the gcd
  of the possible shares and of their squares, and up to 4 players (at most 3 shares) the
  exact numbers of 2-, 3- and 4-way wins they imply are whole and >= 0; over all rows,
  win60 adds up to 60 G, outright wins to at most G and shared wins to between 2 and
  ``players`` per game that no one won outright;
- scores (non-negative per game): score**2 <= score_sq N, score <= score_sq <= score**2;
- the columns of the seat rows add up to those of the slot (strategy) rows;
- pairs: diagonal 0, pairs[a][b] + pairs[b][a] == 2 x the games a and b played together;
- pair_diff_sq (a run's sums of squared differences of two slots' win credits): diagonal 0,
  symmetric, and with W, Q the slots' win60 and win60_sq: (W_a - W_b)**2 <= pair_diff_sq G
  (Cauchy), pair_diff_sq <= Q_a + Q_b and of its parity (their difference is twice a sum of
  products of credits, never negative);
- run: outright games <= win margin <= the scores' total (no margin without an outright win);
- the designer metrics (``accounting.record_metrics_nb``; all zero for a game that does not
  count them): the margin histogram adds up to G; the joint-win games are exactly the games
  no one won outright, and at least the games of margin 0; comebacks after the first and the
  second scoring moment (``Game.engine.moment``) at most G each, those after the first at most the
  trailing seats' wins; the margin's,
  the length's and the lead changes' sums against their squares, S <= S2 (whole numbers) and
  S**2 <= S2 G (Cauchy); the margin's sums what its histogram gives (exactly below its last
  bin, at least that bin's floor in it) and at least the outright wins' margin; per row, the
  games trailed after the first moment at most N and those then won at most these and the row's wins;
  over the seat rows, at most players - 1 seats trailing per game; run counters saved without
  their seat rows (``TotalsCheck.run_alone``) count the run's games and pass the same rules
  with the joint-win games they count;
- paired metric sums (``check_paired_metric_sq``: two rules on the same games, the squares of
  each game's difference of a metric counter): D**2 <= sq G (Cauchy), sq of D's parity, and
  no more than the two runs' squares allow;
- the few identities a game adds (``Game.engine.totals_identities``, in the game's ``game.py``).
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import reduce

from .accounting import (
    MARGIN_BINS,
    RUN_COMEBACK_FIRST,
    RUN_COMEBACK_SECOND,
    RUN_GAMES,
    RUN_LEAD_CHANGES,
    RUN_LEAD_CHANGES_SQ,
    RUN_LENGTH,
    RUN_LENGTH_SQ,
    RUN_MARGIN,
    RUN_MARGIN_HISTOGRAM,
    RUN_MARGIN_SQ,
    RUN_SHARED_WIN_GAMES,
    RUN_WIN_MARGIN,
    STAT_GAMES,
    STAT_OUTRIGHT,
    STAT_SCORE,
    STAT_SCORE_SQ,
    STAT_SHARED,
    STAT_WIN60,
    STAT_WIN60_SQ,
    WIN_UNIT,
    InconsistentTotals,
    StatLayout,
    moment_label,
)
from .pairing import paired_metrics
from .registry import Game
from .saved import Invalid

# A metric counter's sum of squares, where the run counts one (check_paired_metric_sq bounds the
# others by what a game adds at most: 1 to a yes-or-no counter, its moments to a count of moments).
_SQUARES = {RUN_LEAD_CHANGES: RUN_LEAD_CHANGES_SQ, RUN_MARGIN: RUN_MARGIN_SQ, RUN_LENGTH: RUN_LENGTH_SQ}


class TotalsCheck:
    """The consistency rules of one game at one player count (module doc)."""

    def __init__(self, game: Game, players: int, rules: str):
        self.game, self.players, self.rules = game, players, rules
        shares = [WIN_UNIT // k for k in range(2, players + 1)]  # a k-way shared win
        self.smallest = min(shares)
        self.largest = max(shares)
        self.shares = sorted(set(shares))
        self.share_gcd = reduce(math.gcd, shares)
        self.square_gcd = reduce(math.gcd, [s * s for s in shares])
        self.extra = game.engine.totals_identities
        self.first = moment_label(game.engine.moment, 1)  # the game's first scoring moment, in words
        layout = StatLayout.of(game)
        self.trailed, self.trailed_won = layout.trailed_first, layout.trailed_first_won

    def table(self, rows: list[list[int]], where: str, row_games: list[int], games: int) -> None:
        """Rows of statistics, row r over ``row_games[r]`` games; ``games`` games in all."""
        for r, (row, n) in enumerate(zip(rows, row_games, strict=True)):
            self.row(row, f"{where}[{r}]", n)
        wins = sum(row[STAT_WIN60] for row in rows)
        if wins != WIN_UNIT * games:
            raise Invalid(f"{where}: the win60 column adds up to {wins}, but {games} games share out "
                          f"{WIN_UNIT * games} ({WIN_UNIT} each)")
        outright = sum(row[STAT_OUTRIGHT] for row in rows)
        shared = sum(row[STAT_SHARED] for row in rows)
        if outright > games:
            raise Invalid(f"{where}: {outright} outright wins in {games} games")
        undecided = games - outright
        if not 2 * undecided <= shared <= self.players * undecided:
            raise Invalid(f"{where}: {shared} shared wins, but the {undecided} games no one won outright "
                          f"share between {2 * undecided} and {self.players * undecided}")
        trailed = sum(row[self.trailed] for row in rows)
        if trailed > (self.players - 1) * games:
            raise Invalid(f"{where}[{self.trailed}] adds up to {trailed}, but at least one of the "
                          f"{self.players} seats leads after {self.first} in each of {games} games")

    def row(self, row: list[int], where: str, n: int) -> None:
        if row[STAT_GAMES] != n:
            raise Invalid(f"{where}[{STAT_GAMES}] is {row[STAT_GAMES]}, but the checkpoint counts {n} games")
        if n == 0:
            for j, value in enumerate(row):
                if value:
                    raise Invalid(f"{where}[{j}] is {value}, but the row counts no games")
            return
        outright, shared = row[STAT_OUTRIGHT], row[STAT_SHARED]
        if outright + shared > n:
            raise Invalid(f"{where}: {outright} outright and {shared} shared wins in {n} games")
        win, square = row[STAT_WIN60] - WIN_UNIT * outright, row[STAT_WIN60_SQ] - WIN_UNIT**2 * outright
        low, high = self.smallest, self.largest
        if not low * shared <= win <= high * shared or win % self.share_gcd:
            raise Invalid(f"{where}[{STAT_WIN60}] is {row[STAT_WIN60]}, impossible with {outright} outright and "
                          f"{shared} shared wins among {self.players} players")
        if (square < 0 or win * win > square * shared or square > (high + low) * win - high * low * shared
                or square % self.square_gcd or _share_counts(self.shares, (shared, win, square)) is False):
            raise Invalid(f"{where}[{STAT_WIN60_SQ}] is {row[STAT_WIN60_SQ]}, impossible with win60 "
                          f"{row[STAT_WIN60]} from {outright} outright and {shared} shared wins")
        score, score_sq = row[STAT_SCORE], row[STAT_SCORE_SQ]
        if not (score * score <= score_sq * n and score <= score_sq <= score * score):
            raise Invalid(f"{where}[{STAT_SCORE_SQ}] is {score_sq}, impossible for {n} scores adding up to {score}")
        trailed, won = row[self.trailed], row[self.trailed_won]
        if trailed > n:
            raise Invalid(f"{where}[{self.trailed}] is {trailed}, but the row counts {n} games")
        if won > min(trailed, outright + shared):
            raise Invalid(f"{where}[{self.trailed_won}] is {won}, impossible with {trailed} games trailing "
                          f"after {self.first} and {outright + shared} wins")
        if self.extra is not None:
            try:
                self.extra.row(row, where, n, self.players, self.rules)
            except InconsistentTotals as exc:
                raise Invalid(str(exc)) from None

    def run(self, run: list[int], where: str, games: int, seat: list[list[int]]) -> None:
        if games == 0:
            for j, value in enumerate(run):
                if value:
                    raise Invalid(f"{where}[{j}] is {value}, but the checkpoint counts no games")
            return
        outright = sum(row[STAT_OUTRIGHT] for row in seat)
        scores = sum(row[STAT_SCORE] for row in seat)
        margin = run[RUN_WIN_MARGIN]
        least = 0 if self.game.engine.tie_breaks else outright  # a tie-break's win may be by 0 points
        if not least <= margin <= scores or (margin and not outright):
            raise Invalid(f"{where}[{RUN_WIN_MARGIN}] is {margin}, impossible with {outright} outright wins "
                          f"and scores adding up to {scores}")
        check_run_metrics(run, where, games, games - outright, sum(row[self.trailed_won] for row in seat),
                          self.first, bool(self.game.engine.tie_breaks))
        self._game_run(run, where, games)

    def run_alone(self, run: list[int], where: str, games: int) -> None:
        """Run counters saved without the seat rows they go with (tune's fresh check): their
        games, the metrics' rules with the joint-win games the run counts and with any winner
        possibly one that trailed after the first scoring moment, and the game's own rules."""
        if run[RUN_GAMES] != games:
            raise Invalid(f"{where}[{RUN_GAMES}] is {run[RUN_GAMES]}, but the check played {games} games")
        joint = run[RUN_SHARED_WIN_GAMES]
        if joint > games:
            raise Invalid(f"{where}[{RUN_SHARED_WIN_GAMES}] is {joint} games with joint winners in {games} games")
        check_run_metrics(run, where, games, joint, games, self.first, bool(self.game.engine.tie_breaks))
        self._game_run(run, where, games)

    def _game_run(self, run: list[int], where: str, games: int) -> None:
        if self.extra is not None:
            try:
                self.extra.run(run, where, games, self.players, self.rules)
            except InconsistentTotals as exc:
                raise Invalid(str(exc)) from None


def check_run_metrics(run: list[int], where: str, games: int, joint: int, trailing_won: int,
                      first: str = "the first scoring moment", tie_breaks: bool = False) -> None:
    """The designer metrics' run counters of ``games`` games, ``joint`` of them with joint winners,
    in which seats that trailed after the game's first scoring moment (``first``, in words: "phase
    1") won ``trailing_won`` times (module doc); ``tie_breaks``: the game's tie-breaks (Engine.tie_breaks)
    may decide a game of margin 0."""
    histogram = run[RUN_MARGIN_HISTOGRAM:RUN_MARGIN_HISTOGRAM + MARGIN_BINS]
    counters = [run[c] for c in (RUN_SHARED_WIN_GAMES, RUN_COMEBACK_FIRST, RUN_COMEBACK_SECOND, RUN_LEAD_CHANGES,
                                 RUN_LEAD_CHANGES_SQ, RUN_MARGIN, RUN_MARGIN_SQ, RUN_LENGTH, RUN_LENGTH_SQ)]
    if not any(histogram) and not any(counters):
        return  # a game whose kernel does not count the metrics
    if sum(histogram) != games:  # (every count is a whole number >= 0: saved.int_vector)
        raise Invalid(f"{where}[{RUN_MARGIN_HISTOGRAM}..]: the margin histogram counts {sum(histogram)} games, but "
                      f"the run played {games}")
    if run[RUN_SHARED_WIN_GAMES] != joint:
        raise Invalid(f"{where}[{RUN_SHARED_WIN_GAMES}] is {run[RUN_SHARED_WIN_GAMES]} games with joint winners, "
                      f"but no one won outright in {joint} games")
    if histogram[0] > joint and not tie_breaks:
        raise Invalid(f"{where}[{RUN_MARGIN_HISTOGRAM}] is {histogram[0]} games of margin 0, but only {joint} "
                      "games had joint winners")
    for counter in (RUN_COMEBACK_FIRST, RUN_COMEBACK_SECOND):
        if run[counter] > games:
            raise Invalid(f"{where}[{counter}] is {run[counter]} comebacks in {games} games")
    if run[RUN_COMEBACK_FIRST] > trailing_won:
        raise Invalid(f"{where}[{RUN_COMEBACK_FIRST}] is {run[RUN_COMEBACK_FIRST]} comebacks after {first}, but seats "
                      f"that trailed after {first} won {trailing_won} times")
    for total, square in ((RUN_LEAD_CHANGES, RUN_LEAD_CHANGES_SQ), (RUN_MARGIN, RUN_MARGIN_SQ),
                          (RUN_LENGTH, RUN_LENGTH_SQ)):
        s, s2 = run[total], run[square]
        if not (s <= s2 and s * s <= s2 * games):
            raise Invalid(f"{where}[{square}] is {s2}, impossible for {games} games adding up to {s} "
                          f"(counter {total})")
    last = MARGIN_BINS - 1
    exact = sum(m * histogram[m] for m in range(last))  # the last bin holds margins of `last` or more
    exact_sq = sum(m * m * histogram[m] for m in range(last))
    margin, margin_sq = run[RUN_MARGIN], run[RUN_MARGIN_SQ]
    if (margin - exact < last * histogram[last] or margin_sq - exact_sq < last * last * histogram[last]
            or (histogram[last] == 0 and (margin, margin_sq) != (exact, exact_sq))):
        raise Invalid(f"{where}[{RUN_MARGIN}] is {margin} (squares {margin_sq}), but the margin histogram "
                      f"adds up to {exact} (squares {exact_sq}) below {last}, with {histogram[last]} games of "
                      f"{last} or more")
    if margin < run[RUN_WIN_MARGIN]:
        raise Invalid(f"{where}[{RUN_MARGIN}] is {margin}, less than the outright wins' margin "
                      f"{run[RUN_WIN_MARGIN]}")


def check_paired_metric_sq(sq: list[int], where: str, run_a: list[int], run_b: list[int], games: int,
                           game: Game, moments: int) -> None:
    """The paired metric sums (``pairing.paired_metrics``' order) of ``games`` games played under
    two rule sets, whose run counters are ``run_a`` and ``run_b`` (module doc); ``moments``: the
    most a game adds to a counter without squares that is no yes-or-no (a count of its scoring
    moments, e.g. those that ran out)."""
    for m, (name, counter) in enumerate(paired_metrics(game)):
        square, a, b = sq[m], run_a[counter], run_b[counter]
        if counter in _SQUARES:
            most = run_a[_SQUARES[counter]] + run_b[_SQUARES[counter]]  # d**2 = a**2 + b**2 - 2ab <= a**2 + b**2
        else:
            most = (moments if counter >= RUN_MARGIN_HISTOGRAM else 1) * (a + b)  # d**2 <= cap |d| <= cap (a + b)
        if not ((b - a) ** 2 <= square * games and square <= most and (square - a - b) % 2 == 0):
            raise Invalid(f"{where}[{m}] is {square}, which {name}'s totals {a} and {b} in the same {games} games "
                          "cannot give")


def _share_counts(shares: list[int], moments: tuple[int, int, int]) -> bool | None:
    """Whether whole numbers n_s >= 0 exist, one per share s, with sum(n_s s**k) == moments[k]
    (k = 0, 1, 2: the shared wins, their win60 and their win60_sq). Decided when there are
    at most 3 shares (up to 4 players): the equations then fix the n_s. None: not decided."""
    m = len(shares)
    if m > len(moments):
        return None
    a = [[Fraction(share**k) for share in shares] for k in range(m)]
    b = [Fraction(moments[k]) for k in range(m)]
    for col in range(m):  # Gauss-Jordan on a Vandermonde system (distinct shares: never singular)
        for r in range(m):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    counts = [b[i] / a[i][i] for i in range(m)]
    if any(n < 0 or n.denominator != 1 for n in counts):
        return False
    return all(sum(n * share**k for n, share in zip(counts, shares, strict=True)) == moments[k]
               for k in range(m, len(moments)))


def check_pairs(pairs: list[list[int]], where: str, together) -> None:
    for a, row in enumerate(pairs):
        if row[a]:
            raise Invalid(f"{where}[{a}][{a}] is {row[a]}, but a strategy never plays itself")
        for b in range(a + 1, len(pairs)):
            expected = 2 * together(a, b)
            if row[b] + pairs[b][a] != expected:
                raise Invalid(f"{where}[{a}][{b}] + {where}[{b}][{a}] is {row[b] + pairs[b][a]}, but "
                              f"{together(a, b)} games together make {expected} (2 per game)")


def check_pair_diff_sq(diff_sq: list[list[int]], where: str, slot: list[list[int]], games: int) -> None:
    for a, row in enumerate(diff_sq):
        if row[a]:
            raise Invalid(f"{where}[{a}][{a}] is {row[a]}, but a slot never plays itself")
        for b in range(a + 1, len(diff_sq)):
            if row[b] != diff_sq[b][a]:
                raise Invalid(f"{where}[{a}][{b}] is {row[b]}, but {where}[{b}][{a}] is {diff_sq[b][a]} (the same "
                              "squared differences)")
            spread = slot[a][STAT_WIN60] - slot[b][STAT_WIN60]
            squares = slot[a][STAT_WIN60_SQ] + slot[b][STAT_WIN60_SQ]
            if not (spread * spread <= row[b] * games and row[b] <= squares and (squares - row[b]) % 2 == 0):
                raise Invalid(f"{where}[{a}][{b}] is {row[b]}, which slots {a + 1} and {b + 1}'s win credits "
                              f"(sums {slot[a][STAT_WIN60]}, {slot[b][STAT_WIN60]}; squares {squares}) cannot give")


def check_same_sums(rows: list[list[int]], where: str, others: list[list[int]], others_where: str) -> None:
    for j in range(len(rows[0])):
        a, b = sum(row[j] for row in rows), sum(row[j] for row in others)
        if a != b:
            raise Invalid(f"column {j} of {others_where} adds up to {b}, but the same column of {where} to {a}")
