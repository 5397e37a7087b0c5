"""Statistics: turn the kernel's integer totals into pandas tables with 95% intervals.

Win rates count a shared win among k players as 1/k (R22). Each seat's win credit per
game is 0, 1/k or 1; its mean and variance come from exact integer sums, and the 95%
interval is the normal one, mean ± 1.96 standard errors, clipped to [0, 1].
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .accounting import (
    MARGIN_BINS,
    N_COMMON_RUN_STATS,
    RUN_GAMES,
    RUN_MARGIN,
    RUN_MARGIN_HISTOGRAM,
    RUN_WIN_MARGIN,
    STAT_GAMES,
    STAT_OUTRIGHT,
    STAT_SCORE,
    STAT_SCORE_SQ,
    STAT_SHARED,
    STAT_SOURCE,
    STAT_WIN60,
    STAT_WIN60_SQ,
    WIN_UNIT,
    StatLayout,
)
from .driver import RunResult, Totals
from .registry import Game, fitted_summary, get_game

Z95 = 1.959963984540054

SCORE = "score"  # every game's tables have mean_score; a game whose unit has another name has mean_<unit> beside it


def score_columns(game: Game) -> dict[str, str]:
    """The names of the score's columns in a game's own terms (``Game.presentation.score_unit``): ``mean``
    (``mean_<unit>`` beside ``mean_score``, the same values), ``std``, and one a score source
    (``Game.presentation.score_sources``) by its name: ``{"mean": "mean_points", "std": "std_points",
    "region": "mean_region_points", ...}``."""
    unit = game.presentation.score_unit
    return {"mean": f"mean_{unit}", "std": f"std_{unit}",
            **{source.name: f"mean_{source.name}_{unit}" for source in game.presentation.score_sources}}


def comeback_column(game: Game) -> str:
    """The per-seat comeback column, named after the game's first scoring moment
    (``comeback_when_trailing_phase1``); "" for a game scored at the end only (no comeback)."""
    return f"comeback_when_trailing_{game.engine.moment}1" if game.engine.moment else ""


def stat_columns(game: Game) -> list[str]:
    """The statistics columns of a game's per-seat and per-strategy tables."""
    names = score_columns(game)
    comeback = comeback_column(game)
    return (["games", "win_rate", "win_rate_ci_low", "win_rate_ci_high", "outright_wins", "shared_wins",
             "mean_score"] + ([names["mean"]] if names["mean"] != "mean_score" else []) + [names["std"]]
            + [names[source.name] for source in game.presentation.score_sources]
            + ([comeback, f"{comeback}_ci_low", f"{comeback}_ci_high"] if comeback else [])
            + [c.name for c in game.engine.stat_columns])


def seat_columns(game: Game) -> list[str]:
    return ["seat", "strategy"] + stat_columns(game)


def strategy_columns(game: Game) -> list[str]:
    return ["strategy"] + stat_columns(game)


def mean_interval(total: np.ndarray, total_sq: np.ndarray, n: np.ndarray, unit: float = 1.0):
    """Mean and 95% interval of a per-game quantity from its sum and sum of squares.

    ``total`` and ``total_sq`` are sums of ``x * unit`` and ``(x * unit) ** 2`` over ``n``
    games; with no games, NaN (a strategy an interrupted tournament never reached).
    """
    n = np.asarray(n, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.asarray(total, float) / unit / n
        second = np.asarray(total_sq, float) / unit**2 / n
        variance = np.maximum(second - mean**2, 0.0) * n / np.maximum(n - 1, 1)  # sample variance
        half = Z95 * np.sqrt(variance / n)
    return mean, mean - half, mean + half


def within(low, value, high, bottom: float, top: float):
    """An interval clipped to its domain [bottom, top] and made to hold its value: rounding can
    leave a bound a hair outside either (a Wilson bound of -1e-19 at a share of 0), and what reads
    the interval (a figure's error bars, "x below its low bound") must never see that."""
    value = np.asarray(value, float)
    low = np.minimum(np.clip(np.asarray(low, float), bottom, top), value)
    high = np.maximum(np.clip(np.asarray(high, float), bottom, top), value)
    nan = np.isnan(value)  # no value (no games): no interval
    return np.where(nan, np.nan, low)[()], np.where(nan, np.nan, high)[()]  # [()]: a number stays a number


def wilson_interval(successes, n):
    """The Wilson score 95% interval of a share ``successes / n`` (arrays or numbers; NaN with
    n = 0): unlike mean ± 1.96 standard errors it stays inside [0, 1] and is honest near 0 and
    1 (a share of 0 out of 50 still gets an upper bound); it always holds the share itself."""
    n = np.asarray(n, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.asarray(successes, float) / n
        centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
        half = Z95 * np.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return within(centre - half, p, centre + half, 0.0, 1.0)


def paired_difference(totals: Totals, first: Sequence[int], second: Sequence[int]) -> tuple[float, float, float]:
    """The win rate of the slots ``first`` minus that of the slots ``second`` (each the mean per
    slot, as the per-strategy table counts a strategy at several slots), with its 95% interval.

    Both play the same games, so their credits are not independent (one's win is another's
    loss): the interval comes from the per-game difference D = mean credit of ``first`` minus
    mean credit of ``second``, whose sum of squares is exact from the kernel's sums. With
    W, Q the slots' sums of credits and of squared credits and S the pairs' sums of squared
    differences, the sum of products of two slots' credits is (Q_a + Q_b - S_ab) / 2, and
    sum D**2 = w' C w for the weights w (1/|first| on ``first``, -1/|second| on ``second``).
    """
    weights = np.zeros(len(totals.slot))
    weights[list(first)] += 1 / len(first)
    weights[list(second)] -= 1 / len(second)
    wins = totals.slot[:, STAT_WIN60].astype(float)
    squares = totals.slot[:, STAT_WIN60_SQ].astype(float)
    products = (squares[:, None] + squares[None, :] - totals.pair_diff_sq) / 2  # the diagonal is the squares
    mean, low, high = mean_interval(weights @ wins, weights @ products @ weights, totals.games, WIN_UNIT)
    return float(mean), float(low), float(high)


def rule_moments(game: Game, rules: str, players: int) -> int:
    """The scoring moments a game has (``Engine.moment``) under the rule set ``rules`` (a canonical
    spec) at ``players``: its rule ``Engine.moment_rule`` where the rule book has it, else ``Engine.moments``."""
    if game.rule_book is not None and game.engine.moment_rule in game.rule_book.names:
        return int(game.rule_book.resolve(rules, players)[game.engine.moment_rule])
    return game.engine.moments


def stat_frame(rows: np.ndarray, game: Game, moments: int | None = None) -> pd.DataFrame:
    """The statistics columns of a (k, stats) integer totals array of ``game``, whose games had
    ``moments`` scoring moments (by default the game's; a game of one has no comeback after the
    first: n/a, not 0)."""
    moments = game.engine.moments if moments is None else moments
    names = score_columns(game)
    comeback = comeback_column(game)
    layout = StatLayout.of(game)
    games = rows[:, STAT_GAMES]
    win, low, high = mean_interval(rows[:, STAT_WIN60], rows[:, STAT_WIN60_SQ], games, WIN_UNIT)
    score, _, _ = mean_interval(rows[:, STAT_SCORE], rows[:, STAT_SCORE_SQ], games)
    with np.errstate(invalid="ignore", divide="ignore"):
        second = rows[:, STAT_SCORE_SQ] / games
        std = np.sqrt(np.maximum(second - score**2, 0.0) * games / np.maximum(games - 1, 1))
        frame = pd.DataFrame({
            "games": games,
            "win_rate": win,
            "win_rate_ci_low": within(low, win, high, 0.0, 1.0)[0],
            "win_rate_ci_high": within(low, win, high, 0.0, 1.0)[1],
            "outright_wins": rows[:, STAT_OUTRIGHT],
            "shared_wins": rows[:, STAT_SHARED],
            "mean_score": score,
            names["mean"]: score,
            names["std"]: std,
            **{names[source.name]: rows[:, STAT_SOURCE + k] / games
               for k, source in enumerate(game.presentation.score_sources)},
        })
        if comeback:
            frame[comeback] = rows[:, layout.trailed_first_won] / rows[:, layout.trailed_first]
            low, high = wilson_interval(rows[:, layout.trailed_first_won], rows[:, layout.trailed_first])
            frame[f"{comeback}_ci_low"] = low
            frame[f"{comeback}_ci_high"] = high
            if moments < 2:
                frame[[comeback, f"{comeback}_ci_low", f"{comeback}_ci_high"]] = np.nan
        names = [c.name for c in game.engine.stat_columns]
        for k, column in enumerate(game.engine.stat_columns):
            total = rows[:, layout.common + k]
            per = games if column.kind == "mean" else rows[:, layout.common + names.index(column.per)]
            frame[column.name] = total / per
    return frame


def run_counters(run: np.ndarray, game: Game) -> dict[str, int]:
    """The game's run-wide counters by name (with the common winning margin total)."""
    counters = {"win_margin_total": int(run[RUN_WIN_MARGIN])}
    for k, name in enumerate(game.engine.run_columns):
        counters[name] = int(run[N_COMMON_RUN_STATS + k])
    return counters


def mean_margin(run: np.ndarray) -> float:
    """The winning margin per game, as the designer metrics count it (accounting.record_metrics_nb):
    the winners' score minus the best non-winner's, 0 when all tie; NaN for a game whose kernel
    does not count the metrics. (The run also sums a margin that is 0 on every shared win,
    ``RUN_WIN_MARGIN``, which checkpoints check; it is not shown: one winning margin, one name.)"""
    games = int(run[RUN_GAMES])
    counted = int(run[RUN_MARGIN_HISTOGRAM:RUN_MARGIN_HISTOGRAM + MARGIN_BINS].sum()) == games
    return int(run[RUN_MARGIN]) / games if games and counted else float("nan")


def seat_frame(result: RunResult) -> pd.DataFrame:
    """Per seat (R7, C6: seat 1 plays first): who sat there and how the seat fared."""
    config = result.config
    labels = [s.label for s in config.strategies]
    if config.seating == "fixed" or len(set(labels)) == 1:
        seat_labels = labels
    else:
        seat_labels = ["(rotated)" if config.seating == "rotate" else "(random seating)"] * config.players
    game = get_game(config.game)
    frame = stat_frame(result.totals.seat, game, rule_moments(game, config.rules, config.players))
    frame.insert(0, "strategy", seat_labels)
    frame.insert(0, "seat", np.arange(1, config.players + 1))
    return frame


def strategy_frame(result: RunResult) -> pd.DataFrame:
    """Per strategy (a strategy listed at several slots is one row), best win rate first."""
    labels = [s.label for s in result.config.strategies]
    order = list(dict.fromkeys(labels))
    merged = np.zeros((len(order), result.totals.slot.shape[1]), np.int64)
    for slot, label in enumerate(labels):
        merged[order.index(label)] += result.totals.slot[slot]
    game, config = get_game(result.config.game), result.config
    frame = stat_frame(merged, game, rule_moments(game, config.rules, config.players))
    frame.insert(0, "strategy", order)
    return frame.sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)


def summary(result: RunResult) -> dict:
    config = result.config
    totals: Totals = result.totals
    game = get_game(config.game)
    counters = run_counters(totals.run, game)
    return {
        "partial": not result.complete,
        "game": game.name,
        "games": totals.games,
        "games_requested": config.games,
        "players": config.players,
        "rules": config.rules,
        "seating": config.seating,
        **({game.data.noun: config.components.name, f"{game.data.noun}_{game.data.unit}": config.components.n_cards}
           if config.components is not None else {}),
        "seed": config.seed,
        "threads": config.threads,
        "elapsed_seconds": round(result.elapsed, 3),
        "games_per_second": None if result.games_per_second is None else round(result.games_per_second),
        **{k: v for k, v in counters.items() if k not in ("win_margin_total", "variant_decided")},
        **fitted_summary(game, [s.name for s in config.strategies], [config.rules]),
    }
