"""Answers from tournaments: per-strategy tables, head-to-head, ratings, and the rules' balance.

All intervals are 95%. Win rates and mean florins use the normal interval from exact
integer sums (``stats.mean_interval``); differences between the two rules add the two
variances (their games are played separately). Ratings are a Bradley–Terry model fitted
to the head-to-head results with statsmodels.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ..core import accounting as acc
from ..core.stats import mean_interval, mean_win_margin, run_counters
from ..core.tournament import Tournament

STRATEGY_TABLE_COLUMNS = ["players", "variant", "strategy", "games", "win_rate", "win_rate_ci_low",
                          "win_rate_ci_high", "mean_florins", "mean_florins_ci_low", "mean_florins_ci_high",
                          "ship_share", "majority_share", "bonus_share"]
HEAD_TO_HEAD_COLUMNS = ["players", "strategy", "opponent", "meetings", "above_rate"]
RATING_COLUMNS = ["players", "strategy", "rating", "rating_ci_low", "rating_ci_high"]
BALANCE_COLUMNS = ["players", "strategy", "win_rate_standard", "win_rate_standard_ci_low",
                   "win_rate_standard_ci_high", "win_rate_bonus20", "win_rate_bonus20_ci_low",
                   "win_rate_bonus20_ci_high", "difference", "difference_ci_low", "difference_ci_high",
                   "significant"]
RULES_COLUMNS = ["players", "variant", "games", "seat1_win_rate", "seat1_ci_low", "seat1_ci_high",
                 "fair_win_rate", "seat_advantage", "ship_share", "majority_share", "bonus_share",
                 "mean_win_margin", "variant_decided_rate"]


class AnalysisDependencyError(ImportError):
    """An optional library the analysis needs is missing."""


def _win_rates(stats: np.ndarray):
    return mean_interval(stats[:, acc.STAT_WIN60], stats[:, acc.STAT_WIN60_SQ],
                         stats[:, acc.STAT_GAMES], acc.WIN_UNIT)


def _shares(stats: np.ndarray) -> dict[str, np.ndarray]:
    parts = stats[:, [acc.STAT_SHIP, acc.STAT_MAJORITY, acc.STAT_BONUS]].astype(float)
    total = np.maximum(parts.sum(axis=1), 1)
    return {"ship_share": parts[:, 0] / total, "majority_share": parts[:, 1] / total,
            "bonus_share": parts[:, 2] / total}


def strategy_table(tournament: Tournament) -> pd.DataFrame:
    """Per strategy: win rate and mean florins with intervals, and where the florins came from."""
    stats = tournament.strategy_stats
    win, win_low, win_high = _win_rates(stats)
    florins, florins_low, florins_high = mean_interval(stats[:, acc.STAT_SCORE],
                                                       stats[:, acc.STAT_SCORE_SQ], stats[:, acc.STAT_GAMES])
    return pd.DataFrame({
        "players": tournament.players, "variant": tournament.variant, "strategy": tournament.labels,
        "games": stats[:, acc.STAT_GAMES], "win_rate": win, "win_rate_ci_low": np.clip(win_low, 0, 1),
        "win_rate_ci_high": np.clip(win_high, 0, 1), "mean_florins": florins,
        "mean_florins_ci_low": florins_low, "mean_florins_ci_high": florins_high, **_shares(stats),
    })[STRATEGY_TABLE_COLUMNS]


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


def require_statsmodels():
    """statsmodels (for the ratings), or AnalysisDependencyError: checked before any game."""
    try:
        import statsmodels.api as sm
    except ImportError:
        raise AnalysisDependencyError("ratings need statsmodels: pip install 'medici-sim[analysis]'") from None
    return sm


def ratings_table(tournament: Tournament) -> pd.DataFrame:
    """Bradley–Terry ratings (log-odds of finishing above) with 95% intervals.

    The first strategy is the reference at 0. Half a win is added to each side of every
    pairing so that a strategy that never lost (or never won) still gets a finite rating.
    """
    sm = require_statsmodels()
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
    with warnings.catch_warnings():  # one pairing leaves no residual degrees of freedom: harmless here
        warnings.simplefilter("ignore", RuntimeWarning)
        fit = sm.GLM(np.array(outcomes), np.array(design), family=sm.families.Binomial()).fit()
    intervals = np.asarray(fit.conf_int(alpha=0.05))
    rating = np.concatenate([[0.0], fit.params])
    low = np.concatenate([[0.0], intervals[:, 0]])
    high = np.concatenate([[0.0], intervals[:, 1]])
    return pd.DataFrame({"players": tournament.players, "strategy": labels, "rating": rating,
                         "rating_ci_low": low, "rating_ci_high": high})[RATING_COLUMNS]


def max_half_width(tournament: Tournament) -> float:
    """The widest 95% half-width among the tournament's win rates (for --precision)."""
    win, low, _ = _win_rates(tournament.strategy_stats)
    return float(np.max(win - low))


def rules_row(tournament: Tournament) -> dict:
    """One configuration's balance figures: seat advantage (R7), florin sources, margins."""
    seat1 = tournament.seat_stats[:1]
    win, low, high = _win_rates(seat1)
    games = tournament.games
    fair = 1.0 / tournament.players
    shares = _shares(tournament.seat_stats.sum(axis=0, keepdims=True))
    return {
        "players": tournament.players, "variant": tournament.variant, "games": games,
        "seat1_win_rate": win[0], "seat1_ci_low": max(low[0], 0.0), "seat1_ci_high": min(high[0], 1.0),
        "fair_win_rate": fair,
        "seat_advantage": win[0] - fair, **{k: v[0] for k, v in shares.items()},
        "mean_win_margin": mean_win_margin(tournament.run),
        "variant_decided_rate": run_counters(tournament.run, tournament.game_def).get("variant_decided", 0) / games,
    }


def balance_tables(standard: Tournament, bonus20: Tournament) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Standard against bonus20 for one player count: (per strategy, per rules)."""
    a, b = strategy_table(standard), strategy_table(bonus20)
    # half-widths from the unclipped intervals: a clipped one would understate the variance
    rate_a, low_a, _ = _win_rates(standard.strategy_stats)
    rate_b, low_b, _ = _win_rates(bonus20.strategy_stats)
    difference = b["win_rate"] - a["win_rate"]
    half = np.hypot(rate_a - low_a, rate_b - low_b)
    per_strategy = pd.DataFrame({
        "players": standard.players, "strategy": a["strategy"],
        "win_rate_standard": a["win_rate"], "win_rate_standard_ci_low": a["win_rate_ci_low"],
        "win_rate_standard_ci_high": a["win_rate_ci_high"],
        "win_rate_bonus20": b["win_rate"], "win_rate_bonus20_ci_low": b["win_rate_ci_low"],
        "win_rate_bonus20_ci_high": b["win_rate_ci_high"],
        "difference": difference, "difference_ci_low": difference - half, "difference_ci_high": difference + half,
        "significant": (difference - half > 0) | (difference + half < 0),
    })[BALANCE_COLUMNS]
    per_rules = pd.DataFrame([rules_row(standard), rules_row(bonus20)])[RULES_COLUMNS]
    return per_strategy, per_rules


def points(rate: float) -> str:
    """A rate as percentage points with one decimal: the verdict's number format."""
    return f"{100 * rate:.1f}"


def verdict(per_strategy: pd.DataFrame, per_rules: pd.DataFrame) -> str:
    """Plain words from the tables, one paragraph per player count; every number is the
    tables' (as percentage points with one decimal)."""
    paragraphs = []
    for players, rows in per_strategy.groupby("players", sort=True):
        rules = per_rules[per_rules["players"] == players].set_index("variant")
        significant = rows[rows["significant"]]
        if len(significant):  # the largest significant change; a change within the noise is never named as one
            biggest = significant.loc[significant["difference"].abs().idxmax()]
            half = biggest["difference_ci_high"] - biggest["difference"]
            first = (f"With {players} players, bonus20 {'raises' if biggest['difference'] > 0 else 'lowers'} "
                     f"{biggest['strategy']}'s win rate from {points(biggest['win_rate_standard'])}% to "
                     f"{points(biggest['win_rate_bonus20'])}% "
                     f"({'+' if biggest['difference'] >= 0 else '-'}{points(abs(biggest['difference']))} "
                     f"± {points(half)} points)")
        else:
            widest = rows["difference_ci_high"] - rows["difference"]
            first = (f"With {players} players, bonus20 changes no strategy's win rate significantly "
                     f"(every difference is within its 95% interval of zero, ± up to {points(widest.max())} points)")
        std, b20 = rules.loc["standard"], rules.loc["bonus20"]
        seat_half = np.hypot(std["seat1_ci_high"] - std["seat1_win_rate"],
                             b20["seat1_ci_high"] - b20["seat1_win_rate"])
        seat_changed = abs(b20["seat1_win_rate"] - std["seat1_win_rate"]) > seat_half
        seat = (f"seat 1 wins {points(std['seat1_win_rate'])}% under the standard rules and "
                f"{points(b20['seat1_win_rate'])}% under bonus20 (fair share {points(std['fair_win_rate'])}%), "
                f"so the seat advantage is {'changed' if seat_changed else 'unchanged'}")
        decided = f"the variant decided {points(b20['variant_decided_rate'])}% of games"
        paragraphs.append(f"{first}; {seat}; {decided}.")
    return "\n".join(paragraphs)
