"""Answers from tournaments: per-strategy tables, head-to-head, ratings, and the rules' balance.

All intervals are 95%. Win rates and mean scores (in the game's unit, ``Game.presentation.score_unit``)
use the normal interval from exact integer sums (``stats.mean_interval``). A difference
between the two rules is paired: both rules play the same games (``core.pairing``), so its
interval comes from each game's difference (``paired_change``), not from the two rules'
variances added, which would make it about twice too wide. Ratings are a Bradley–Terry
model fitted to the head-to-head results by maximum likelihood (numpy: what a binomial GLM
gives).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core import accounting as acc
from ..core.registry import Game
from ..core.stats import Z95, mean_interval, mean_margin, run_counters, score_columns, within
from .tournament import Tournament


def share_columns(game: Game) -> list[str]:
    """The share of the score from each of the game's sources (``Presentation.score_sources``): ``<source>_share``."""
    return [f"{source.name}_share" for source in game.presentation.score_sources]


def strategy_table_columns(game: Game) -> list[str]:
    """The per-strategy table's columns (compare, balance's rule sets): the mean score in the game's
    unit (``mean_score``, and ``mean_<unit>`` with its interval) and the shares of its sources."""
    mean = score_columns(game)["mean"]
    return ["players", "rules", "strategy", "games", "win_rate", "win_rate_ci_low", "win_rate_ci_high",
            "mean_score", *dict.fromkeys([mean, f"{mean}_ci_low", f"{mean}_ci_high"]), *share_columns(game)]


HEAD_TO_HEAD_COLUMNS = ["players", "strategy", "opponent", "meetings", "above_rate"]
RATING_COLUMNS = ["players", "strategy", "rating", "rating_ci_low", "rating_ci_high"]


def balance_columns(base: str, other: str) -> list[str]:
    """The per-strategy balance table's columns, comparing rules ``other`` with ``base``."""
    return ["players", "strategy", *(f"win_rate_{rules}{end}" for rules in (base, other)
                                     for end in ("", "_ci_low", "_ci_high")),
            "difference", "difference_ci_low", "difference_ci_high", "significant"]


def rule_names(per_strategy: pd.DataFrame) -> tuple[str, str]:
    """The two rules a per-strategy balance table compares (base, other), from its columns."""
    base, other = (name[len("win_rate_"):] for name in per_strategy.columns
                   if name.startswith("win_rate_") and not name.endswith(("_ci_low", "_ci_high")))
    return base, other



def rules_columns(game: Game) -> list[str]:
    """The per-rule-set balance table's columns: seat 1's advantage, the sources' shares, the margin."""
    return ["players", "rules", "games", "seat1_win_rate", "seat1_ci_low", "seat1_ci_high", "fair_win_rate",
            "seat_advantage", *share_columns(game), "margin", "variant_decided_rate", "seat1_change",
            "seat1_change_ci_low", "seat1_change_ci_high"]


class AnalysisDependencyError(ImportError):
    """An optional library the analysis needs is missing."""


def _win_rates(stats: np.ndarray):
    return mean_interval(stats[:, acc.STAT_WIN60], stats[:, acc.STAT_WIN60_SQ],
                         stats[:, acc.STAT_GAMES], acc.WIN_UNIT)


def _shares(stats: np.ndarray, game: Game) -> dict[str, np.ndarray]:
    """Each source's share of the score (``share_columns``)."""
    sources = len(game.presentation.score_sources)
    parts = stats[:, acc.STAT_SOURCE:acc.STAT_SOURCE + sources].astype(float)
    total = np.maximum(parts.sum(axis=1), 1)
    return {name: parts[:, k] / total for k, name in enumerate(share_columns(game))}


def strategy_table(tournament: Tournament) -> pd.DataFrame:
    """Per strategy: win rate and mean score with intervals, and where the score came from."""
    stats, game = tournament.strategy_stats, tournament.game_def
    win, win_low, win_high = _win_rates(stats)
    score, score_low, score_high = mean_interval(stats[:, acc.STAT_SCORE], stats[:, acc.STAT_SCORE_SQ],
                                                 stats[:, acc.STAT_GAMES])
    mean = score_columns(game)["mean"]
    return pd.DataFrame({
        "players": tournament.players, "rules": tournament.rules, "strategy": tournament.labels,
        "games": stats[:, acc.STAT_GAMES], "win_rate": win, "win_rate_ci_low": within(win_low, win, win_high, 0, 1)[0],
        "win_rate_ci_high": within(win_low, win, win_high, 0, 1)[1], "mean_score": score, mean: score,
        f"{mean}_ci_low": score_low, f"{mean}_ci_high": score_high, **_shares(stats, game),
    })[strategy_table_columns(game)]


def head_to_head_table(tournament: Tournament) -> pd.DataFrame:
    """For each pair that met: how often ``strategy`` finished above ``opponent`` (ties count half)."""
    rows = []
    pairs = tournament.pairs
    for a, strategy in enumerate(tournament.labels):
        for b, opponent in enumerate(tournament.labels):
            points = pairs[a, b] + pairs[b, a]
            if a != b and points > 0:
                rows.append((tournament.players, strategy, opponent, points // 2, pairs[a, b] / points))
    return pd.DataFrame(rows, columns=HEAD_TO_HEAD_COLUMNS)


FIT_STEPS = 100  # Newton steps at most; a fit takes about ten


def logistic_fit(design: np.ndarray, wins: np.ndarray, losses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The maximum-likelihood coefficients of a logistic model without intercept for
    ``wins`` out of ``wins + losses`` trials per row of ``design``, and their standard
    errors: a binomial GLM with the logit link, fitted by Newton's method (IRLS)."""
    trials = wins + losses
    beta = np.zeros(design.shape[1])
    for _ in range(FIT_STEPS):
        p = 1 / (1 + np.exp(-design @ beta))
        information = design.T @ (design * (trials * p * (1 - p))[:, None])
        step = np.linalg.pinv(information) @ (design.T @ (wins - trials * p))
        beta += step
        if np.max(np.abs(step)) < 1e-12 * (1 + np.max(np.abs(beta))):
            break
    p = 1 / (1 + np.exp(-design @ beta))
    covariance = np.linalg.pinv(design.T @ (design * (trials * p * (1 - p))[:, None]))
    return beta, np.sqrt(np.diag(covariance))


def ratings_table(tournament: Tournament) -> pd.DataFrame:
    """Bradley–Terry ratings (log-odds of finishing above) with 95% intervals.

    The first strategy is the reference at 0. Half a win is added to each side of every
    pairing so that a strategy that never lost (or never won) still gets a finite rating.
    """
    labels = tournament.labels
    n = len(labels)
    if n == 1:
        return pd.DataFrame([(tournament.players, labels[0], 0.0, 0.0, 0.0)], columns=RATING_COLUMNS)
    design, outcomes = [], []
    for a in range(n):
        for b in range(a + 1, n):
            if tournament.pairs[a, b] + tournament.pairs[b, a] == 0:
                continue
            row = np.zeros(n)
            row[a], row[b] = 1.0, -1.0
            design.append(row[1:])
            outcomes.append((tournament.pairs[a, b] / 2 + 0.5, tournament.pairs[b, a] / 2 + 0.5))
    outcomes = np.array(outcomes)
    beta, se = logistic_fit(np.array(design), outcomes[:, 0], outcomes[:, 1])
    rating = np.concatenate([[0.0], beta])
    low = np.concatenate([[0.0], beta - Z95 * se])
    high = np.concatenate([[0.0], beta + Z95 * se])
    return pd.DataFrame({"players": tournament.players, "strategy": labels, "rating": rating,
                         "rating_ci_low": low, "rating_ci_high": high})[RATING_COLUMNS]


def max_half_width(tournament: Tournament) -> float:
    """The widest 95% half-width among the tournament's win rates (for --precision)."""
    win, low, _ = _win_rates(tournament.strategy_stats)
    return float(np.max(win - low))


def rules_row(tournament: Tournament) -> dict:
    """One configuration's balance figures: seat advantage (R7), the score's sources, margins."""
    seat1 = tournament.seat_stats[:1]
    win, low, high = _win_rates(seat1)
    games = tournament.games
    fair = 1.0 / tournament.players
    shares = _shares(tournament.seat_stats.sum(axis=0, keepdims=True), tournament.game_def)
    return {
        "players": tournament.players, "rules": tournament.rules, "games": games,
        "seat1_win_rate": win[0],
        **dict(zip(("seat1_ci_low", "seat1_ci_high"), map(float, within(low[0], win[0], high[0], 0, 1)), strict=True)),
        "fair_win_rate": fair,
        "seat_advantage": win[0] - fair, **{k: v[0] for k, v in shares.items()},
        "margin": mean_margin(tournament.run),
        "variant_decided_rate": counted_rate(tournament, "variant_decided"),
    }


def counted_rate(tournament: Tournament, counter: str) -> float:
    """A run counter per game; NaN where the tournament's rules leave it nothing to count (the
    game's ``counted_under``: a counter that some rule sets switch off) or the game has none."""
    game = tournament.game_def
    if counter not in game.engine.run_columns:
        return math.nan
    applies = game.engine.counted_under.get(counter)
    if applies is not None and game.rule_book is not None and not applies(
            game.rule_book.resolve(tournament.rules, tournament.players).values):
        return math.nan
    return run_counters(tournament.run, game)[counter] / tournament.games


def decided_rate(rules: pd.DataFrame, base: str, other: str) -> tuple[float, str]:
    """The share of games the variant decided, from whichever side has the variant (``rules``: one
    player count's rows of the per-rules table, by ``rules``), and that side; (NaN, "") where
    neither has it."""
    for side in (other, base):
        rate = float(rules.loc[side, "variant_decided_rate"])
        if not math.isnan(rate):
            return rate, side
    return math.nan, ""


def decided_words(rules: pd.DataFrame, base: str, other: str) -> str:
    """The share of games the variant decided in words, measured on each side that has it ("":
    neither has it)."""
    rates = [(side, float(rules.loc[side, "variant_decided_rate"])) for side in (base, other)]
    rates = [(side, rate) for side, rate in rates if not math.isnan(rate)]
    if not rates:  # the table says n/a; the verdict says nothing of it
        return ""
    return "the variant decided " + " and ".join(f"{points(rate)}% of games under {side}" for side, rate in rates)


def paired_interval(total, total_sq, games, per):
    """A change between two rule sets played on the same games, and its 95% half-width: the
    per-game differences add up to ``total`` and their squares to ``total_sq`` over ``games``
    games, and the change is ``total / per``. The sum's variance is the sample variance of the
    per-game differences times the games (arrays or numbers; NaN without games)."""
    total, total_sq, games, per = (np.asarray(x, float) for x in (total, total_sq, games, per))
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = np.maximum(total_sq - total**2 / games, 0.0) * games / np.maximum(games - 1, 1)
        return total / per, Z95 * np.sqrt(variance) / per


def paired_change(total: np.ndarray, total_sq: np.ndarray, games: np.ndarray, per: np.ndarray):
    """A win rate's change between two rules played on the same games, and its 95% half-width
    (``paired_interval`` in win rates). Per row (a strategy or a seat): ``total`` and
    ``total_sq`` are the sums over ``games`` games of the per-game difference of win credits
    (second rules minus first, in WIN_UNITs; a strategy at several slots of a lineup: the sum
    over its slots), and ``per`` its games at a slot, as its win rate counts them."""
    change, half = paired_interval(total, total_sq, games, per)
    return change / acc.WIN_UNIT, half / acc.WIN_UNIT


def _rules_change(base: Tournament, other: Tournament):
    """``other``'s rules minus ``base``'s on the same games (``other`` follows ``base``): per
    strategy and for seat 1, (change, half-width)."""
    meetings = np.zeros(len(other.labels))
    for played, lineup in zip(other.done, other.lineups, strict=True):
        meetings[list({other.labels.index(s.label) for s in lineup})] += played
    win = acc.STAT_WIN60
    strategies = paired_change(other.strategy_stats[:, win] - base.strategy_stats[:, win], other.paired_sq,
                               meetings, other.strategy_stats[:, acc.STAT_GAMES])
    seat = paired_change(other.seat_stats[:1, win] - base.seat_stats[:1, win], other.paired_seat_sq[:1],
                         [other.games], [other.games])
    return strategies, (float(seat[0][0]), float(seat[1][0]))


def balance_tables(base: Tournament, other: Tournament) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A game's base rules against its other rules (the game's ``balance_rules``) for one
    player count (``other`` follows ``base``: the same
    games under both rules): (per strategy, per rules)."""
    a, b = strategy_table(base), strategy_table(other)
    (difference, half), (seat_change, seat_half) = _rules_change(base, other)
    per_strategy = pd.DataFrame({
        "players": base.players, "strategy": a["strategy"],
        **{f"win_rate_{t.rules}{end}": table[f"win_rate{end}"] for t, table in ((base, a), (other, b))
           for end in ("", "_ci_low", "_ci_high")},
        "difference": difference, "difference_ci_low": difference - half, "difference_ci_high": difference + half,
        "significant": (difference - half > 0) | (difference + half < 0),
    })[balance_columns(base.rules, other.rules)]
    seat = {"seat1_change": seat_change, "seat1_change_ci_low": seat_change - seat_half,
            "seat1_change_ci_high": seat_change + seat_half}
    per_rules = pd.DataFrame([{**rules_row(base), **seat}, {**rules_row(other), **seat}])[rules_columns(base.game_def)]
    return per_strategy, per_rules


def seat_words(rules: pd.DataFrame) -> str:
    """Seat 1's paired change in words (``rules``: one player count's rows of the per-rules table)."""
    row = rules.iloc[0]
    return change_words(row["seat1_change"], row["seat1_change_ci_high"] - row["seat1_change"])


def seat_changed(rules: pd.DataFrame) -> bool:
    """Whether the other rules changed seat 1's win rate significantly (its interval excludes 0);
    ``rules``: one player count's rows of the per-rules table."""
    row = rules.iloc[0]
    return bool(row["seat1_change_ci_low"] > 0 or row["seat1_change_ci_high"] < 0)


def points(rate: float) -> str:
    """A rate as percentage points with one decimal: the verdict's number format."""
    return f"{100 * rate:.1f}"


def change_numbers(change: float, half: float) -> str:
    """A paired change and its 95% half-width in points, as the verdict and the balance table
    write them: one decimal, more where the interval is narrower than a tenth of a point, as
    many as show its first digit (one decimal would show it as ± 0.0)."""
    digits = -math.floor(math.log10(100 * half)) if 0 < 100 * half < 0.1 else 1
    return f"{'-' if change < 0 else '+'}{100 * abs(change):.{digits}f} ± {100 * half:.{digits}f}"


def change_words(change: float, half: float) -> str:
    """:func:`change_numbers` in words."""
    return f"{change_numbers(change, half)} points"


def verdict(per_strategy: pd.DataFrame, per_rules: pd.DataFrame) -> str:
    """Plain words from the tables, one paragraph per player count; every number is the
    tables' (as percentage points with one decimal)."""
    base, other = rule_names(per_strategy)
    paragraphs = []
    for players, rows in per_strategy.groupby("players", sort=True):
        rules = per_rules[per_rules["players"] == players].set_index("rules")
        significant = rows[rows["significant"]]
        if len(significant):  # the largest significant change; a change within the noise is never named as one
            biggest = significant.loc[significant["difference"].abs().idxmax()]
            half = biggest["difference_ci_high"] - biggest["difference"]
            first = (f"With {players} players, {other} {'raises' if biggest['difference'] > 0 else 'lowers'} "
                     f"{biggest['strategy']}'s win rate from {points(biggest[f'win_rate_{base}'])}% to "
                     f"{points(biggest[f'win_rate_{other}'])}% "
                     f"({change_words(biggest['difference'], half)})")
        else:
            widest = rows["difference_ci_high"] - rows["difference"]
            first = (f"With {players} players, {other} changes no strategy's win rate significantly "
                     f"(every difference is within its 95% interval of zero, ± up to {points(widest.max())} points)")
        std, b20 = rules.loc[base], rules.loc[other]
        seat = (f"seat 1 wins {points(std['seat1_win_rate'])}% under the {base} rules and "
                f"{points(b20['seat1_win_rate'])}% under {other} (fair share {points(std['fair_win_rate'])}%), "
                f"so the seat advantage is "
                f"{f'changed ({seat_words(rules)} on the same games)' if seat_changed(rules) else 'unchanged'}")
        decided = decided_words(rules, base, other)
        paragraphs.append("; ".join(part for part in (first, seat, decided) if part) + ".")
    return "\n".join(paragraphs)
