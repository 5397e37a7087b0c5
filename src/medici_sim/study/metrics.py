"""How the games went: the designer metrics, from the kernel's integer run counters.

The kernel counts them game by game (core.accounting.record_metrics_nb): comebacks after
day 1 and day 2, lead changes, the margin of victory (its sum, square and a histogram), joint
wins and the game's length. Here they become one row per configuration (rules x players x
deck) with 95% intervals: normal ones for means (from exact sums of squares), Wilson ones
for shares (core.stats.wilson_interval); the margin's quantiles are read off its histogram.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..core.accounting import (
    MARGIN_BINS,
    N_COMMON_RUN_STATS,
    RUN_COMEBACK_DAY1,
    RUN_COMEBACK_DAY2,
    RUN_GAMES,
    RUN_LEAD_CHANGES,
    RUN_LEAD_CHANGES_SQ,
    RUN_LENGTH,
    RUN_LENGTH_SQ,
    RUN_MARGIN,
    RUN_MARGIN_HISTOGRAM,
    RUN_MARGIN_SQ,
    RUN_SHARED_WIN_GAMES,
)
from ..core.registry import Game
from ..core.stats import mean_interval, wilson_interval

MARGIN_QUANTILES = {"margin_p25": 0.25, "margin_p50": 0.5, "margin_p75": 0.75, "margin_p90": 0.9}
METRICS_TABLE = "metrics"  # the table's name in --out files and reports


def histogram_quantile(histogram: np.ndarray, q: float) -> float:
    """The ``q`` quantile of the values a histogram counts (bin m: value m): the smallest value
    with at least q of the counts at or below it (numpy's ``inverted_cdf``). The last bin holds
    every value from MARGIN_BINS - 1 up: a quantile falling there is NaN (not known exactly)."""
    total = int(histogram.sum())
    if total == 0:
        return float("nan")
    value = int(np.searchsorted(np.cumsum(histogram), q * total))
    return float("nan") if value >= len(histogram) - 1 else float(value)


def _mean(run: np.ndarray, total: int, square: int, name: str) -> dict:
    mean, low, high = mean_interval(run[total], run[square], run[RUN_GAMES])
    return {name: float(mean), f"{name}_ci_low": float(low), f"{name}_ci_high": float(high)}


def _share(successes: int, n: int, name: str) -> dict:
    low, high = wilson_interval(successes, n)
    return {name: successes / n if n else float("nan"), f"{name}_ci_low": low, f"{name}_ci_high": high}


def _with_interval(name: str) -> list[str]:
    return [name, f"{name}_ci_low", f"{name}_ci_high"]


def metric_columns(game: Game) -> list[str]:
    """The metrics table's columns for ``game``, in order."""
    return (["rules", "players", "deck", "games"] + _with_interval("comeback_after_day1")
            + _with_interval("comeback_after_day2") + _with_interval("lead_changes") + _with_interval("margin")
            + list(MARGIN_QUANTILES) + _with_interval("shared_win_games")
            + _with_interval(f"{game.length_unit}_per_game")
            + (_with_interval("ran_out_day_share") if "ran_out_days" in game.run_columns else []))


def metric_row(run: np.ndarray, game: Game) -> dict:
    """The designer metrics of one configuration's run counters (``Totals.run``): each mean and
    share with its 95% interval; empty when the game's kernel does not count them."""
    games = int(run[RUN_GAMES])
    histogram = np.asarray(run[RUN_MARGIN_HISTOGRAM:RUN_MARGIN_HISTOGRAM + MARGIN_BINS])
    if games == 0 or int(histogram.sum()) != games:
        return {"games": games}
    row = {"games": games,
           **_share(int(run[RUN_COMEBACK_DAY1]), games, "comeback_after_day1"),
           **_share(int(run[RUN_COMEBACK_DAY2]), games, "comeback_after_day2"),
           **_mean(run, RUN_LEAD_CHANGES, RUN_LEAD_CHANGES_SQ, "lead_changes"),
           **_mean(run, RUN_MARGIN, RUN_MARGIN_SQ, "margin"),
           **{name: histogram_quantile(histogram, q) for name, q in MARGIN_QUANTILES.items()},
           **_share(int(run[RUN_SHARED_WIN_GAMES]), games, "shared_win_games"),
           **_mean(run, RUN_LENGTH, RUN_LENGTH_SQ, f"{game.length_unit}_per_game")}
    if "ran_out_days" in game.run_columns:
        ran_out = int(run[N_COMMON_RUN_STATS + game.run_columns.index("ran_out_days")])
        row.update(_share(ran_out, game.days * games, "ran_out_day_share"))
    return row


def metrics_frame(rows: Sequence[dict]) -> pd.DataFrame:
    """One row per configuration: its identity (rules, players, deck) then its metrics."""
    return pd.DataFrame(list(rows))


def run_metrics(run: np.ndarray, game: Game, rules: str, players: int, deck: str) -> pd.DataFrame:
    """The main command's table: its one configuration."""
    return metrics_frame([{"rules": rules, "players": players, "deck": deck, **metric_row(run, game)}])


def study_metrics(tournaments: Sequence, deck_labels: Sequence[str]) -> pd.DataFrame:
    """compare's and balance's table: one row per tournament that played games (``deck_labels``:
    each tournament's deck)."""
    return metrics_frame([{"rules": t.variant, "players": t.players, "deck": label, **metric_row(t.run, t.game_def)}
                          for t, label in zip(tournaments, deck_labels, strict=True) if t.games > 0])


# ---------------------------------------------------------------- in words

def _percent(row: pd.Series, name: str) -> str:
    return f"{100 * row[name]:.1f}% ({100 * row[name + '_ci_low']:.1f}-{100 * row[name + '_ci_high']:.1f})"


def _number(row: pd.Series, name: str, digits: int = 2) -> str:
    return f"{row[name]:.{digits}f} ({row[name + '_ci_low']:.{digits}f}-{row[name + '_ci_high']:.{digits}f})"


def _length_column(frame: pd.DataFrame) -> str:
    return next(c for c in frame.columns if c.endswith("_per_game") and not c.endswith(("_ci_low", "_ci_high")))


def configuration_label(row: pd.Series) -> str:
    deck = f", deck {row['deck']}" if row.get("deck") else ""
    return f"{row['players']} players, {row['rules']} rules{deck}"


def how_the_games_went(frame: pd.DataFrame) -> str:
    """The block "How the games went": per configuration, the few figures a designer reads first."""
    if "comeback_after_day1" not in frame:
        return ""
    frame = frame[frame["comeback_after_day1"].notna()]
    if frame.empty:
        return ""
    length = _length_column(frame)
    unit = length.removesuffix("_per_game")
    lines = ["How the games went (95% intervals)"]
    for _, row in frame.iterrows():
        if len(frame) > 1:
            lines.append(f"  {configuration_label(row)}, {row['games']:,} games")
        ran_out = f"; days run out {_percent(row, 'ran_out_day_share')}" if "ran_out_day_share" in row else ""
        figures = [
            ("leader after day 1 did not win (comeback)", _percent(row, "comeback_after_day1")),
            ("leader after day 2 did not win (comeback)", _percent(row, "comeback_after_day2")),
            ("lead changes per game (days 2 and 3)", _number(row, "lead_changes")),
            ("winning margin in florins", f"mean {_number(row, 'margin', 1)}; median {row['margin_p50']:.0f}; "
                                          f"90% at most {row['margin_p90']:.0f}"),
            ("share of games with joint winners", _percent(row, "shared_win_games")),
            (f"{unit} per game", _number(row, length, 1) + ran_out),
        ]
        lines += [f"    {label:42} {value}" for label, value in figures]
    return "\n".join(lines)


DIFFERENCE_METRICS = (("comeback_after_day1", "comebacks after day 1", 100, "points"),
                      ("lead_changes", "lead changes per game", 1, ""),
                      ("margin", "winning margin", 1, "florins"),
                      ("shared_win_games", "share with joint winners", 100, "points"))


def metric_difference(first: pd.Series, second: pd.Series, name: str) -> tuple[float, float, float]:
    """``second``'s metric minus ``first``'s with a 95% interval from the two intervals'
    half-widths as if independent: wider than the paired interval when both played the same
    games (their outcomes are positively correlated), so a difference it calls clear is clear."""
    difference = second[name] - first[name]
    half_first = (first[f"{name}_ci_high"] - first[f"{name}_ci_low"]) / 2
    half_second = (second[f"{name}_ci_high"] - second[f"{name}_ci_low"]) / 2
    half = float(np.hypot(half_first, half_second))
    return float(difference), float(difference - half), float(difference + half)


def differences_text(frame: pd.DataFrame, by: str = "rules") -> str:
    """How the metrics differ between the rows of each configuration that differ only in ``by``
    (balance: the rules), each difference with a conservative 95% interval (metric_difference)."""
    if "comeback_after_day1" not in frame or frame.empty:
        return ""
    keys = [c for c in ("players", "deck", "rules") if c != by and c in frame]
    lines = []
    for _, group in frame.groupby(keys, sort=False):
        if len(group) < 2:
            continue
        base, other = group.iloc[0], group.iloc[-1]
        head = ", ".join(f"{key} {base[key]}" for key in keys if base[key] != "")
        lines.append(f"  {head}: {other[by]} minus {base[by]}")
        for name, words, scale, unit in DIFFERENCE_METRICS:
            d, low, high = (scale * v for v in metric_difference(base, other, name))
            clear = "clear" if low > 0 or high < 0 else "not clear"
            lines.append(f"    {words:26} {d:+.2f} {unit} ({low:+.2f} to {high:+.2f}; {clear})".replace("  (", " ("))
    if not lines:
        return ""
    return "How the games went, compared (95% intervals as if independent: wider on the same games)\n" + \
        "\n".join(lines)
