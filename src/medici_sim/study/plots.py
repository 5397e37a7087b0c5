"""Figures for ``compare``, ``balance`` and ``tune`` (matplotlib, optional: pip install 'medici-sim[analysis]')."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.arguments import named
from .analysis import AnalysisDependencyError, rule_names


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise AnalysisDependencyError(f"{named('plot')} needs matplotlib: pip install 'medici-sim[analysis]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _writer(fig):
    """The figure's PNG writer, ``write(path)``: the caller writes it with the run's other files."""
    def write(path: str) -> None:
        fig.savefig(path, format="png", dpi=120, bbox_inches="tight")
        _pyplot().close(fig)
    return write


def error_bars(value, low, high) -> list[np.ndarray]:
    """matplotlib's error bars (``xerr``/``yerr``) of values with 95% intervals [low, high]: the
    distances, never negative (a bound clipped to its domain may lie a rounding error past its value)."""
    value, low, high = (np.asarray(x, float) for x in (value, low, high))
    return [np.maximum(value - low, 0.0), np.maximum(high - value, 0.0)]


def plot_compare(ratings: pd.DataFrame, head_to_head: pd.DataFrame):
    """Left: each strategy's rating with its interval, per player count. Right: how often the
    row strategy finished above the column strategy, over all player counts."""
    plt = _pyplot()
    strategies = list(dict.fromkeys(ratings["strategy"]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 0.6 * len(strategies) + 3))
    counts = sorted(ratings["players"].unique())
    offsets = np.linspace(-0.25, 0.25, len(counts)) if len(counts) > 1 else [0.0]
    for offset, players in zip(offsets, counts, strict=True):
        rows = ratings[ratings["players"] == players].set_index("strategy").reindex(strategies)
        y = np.arange(len(strategies)) + offset
        left.errorbar(rows["rating"], y, xerr=error_bars(rows["rating"], rows["rating_ci_low"],
                                                           rows["rating_ci_high"]),
                      fmt="o", capsize=3, label=f"{players} players")
    left.set_yticks(range(len(strategies)), strategies)
    left.invert_yaxis()
    left.axvline(0, color="grey", lw=0.8)
    left.set_xlabel(f"Bradley–Terry rating, log-odds of finishing above {strategies[0]} (95% interval)")
    left.set_title("Strength")
    left.legend(loc="best", fontsize="small")

    points = head_to_head.assign(above=head_to_head["above_rate"] * head_to_head["meetings"])
    pooled = points.groupby(["strategy", "opponent"])[["above", "meetings"]].sum()
    matrix = (pooled["above"] / pooled["meetings"]).unstack().reindex(index=strategies, columns=strategies)
    image = right.imshow(matrix.to_numpy(dtype=float), cmap="RdBu", vmin=0, vmax=1)
    right.set_xticks(range(len(strategies)), strategies, rotation=45, ha="right")
    right.set_yticks(range(len(strategies)), strategies)
    for i in range(len(strategies)):
        for j in range(len(strategies)):
            value = matrix.iat[i, j]
            if not np.isnan(value):
                right.text(j, i, f"{100 * value:.0f}%", ha="center", va="center", fontsize=8)
    right.set_title("Head to head: row finishes above column")
    fig.colorbar(image, ax=right, fraction=0.046, pad=0.04)
    return _writer(fig)


def plot_balance(per_strategy: pd.DataFrame):
    """One panel per player count: each strategy's win rate under both rules, with intervals."""
    plt = _pyplot()
    counts = sorted(per_strategy["players"].unique())
    fig, axes = plt.subplots(1, len(counts), figsize=(4.2 * len(counts), 4.5), sharey=True, squeeze=False)
    for ax, players in zip(axes[0], counts, strict=True):
        rows = per_strategy[per_strategy["players"] == players]
        x = np.arange(len(rows))
        for shift, rules, color in zip((-0.2, 0.2), rule_names(per_strategy), ("tab:blue", "tab:orange"), strict=True):
            rate = rows[f"win_rate_{rules}"]
            ax.bar(x + shift, rate, width=0.4, color=color, label=rules,
                   yerr=error_bars(rate, rows[f"win_rate_{rules}_ci_low"], rows[f"win_rate_{rules}_ci_high"]),
                   capsize=2)
        ax.axhline(1 / players, color="grey", lw=0.8, ls="--")
        ax.set_xticks(x, rows["strategy"], rotation=45, ha="right")
        ax.set_title(f"{players} players")
    axes[0][0].set_ylabel("win rate (95% interval); dashed: 1 / players")
    axes[0][0].legend(fontsize="small")
    base, other = rule_names(per_strategy)
    fig.suptitle(f"Win rate by strategy: {base} rules against {other}")
    return _writer(fig)


MAX_TUNE_PANELS = 12  # plot_tuning's panels: tune --plot refuses a tuning of more tasks


def plot_tuning(history: pd.DataFrame, result: pd.DataFrame):
    """Convergence, one panel per tuned task: every evaluation's win rate, each round's mean,
    and the fresh-games check of the default and the tuned parameters (95% intervals)."""
    plt = _pyplot()
    keys = list(dict.fromkeys(zip(history["strategy"], history["players"], history["rules"], strict=True)))
    columns = min(3, len(keys))
    rows_n = -(-len(keys) // columns)
    fig, axes = plt.subplots(rows_n, columns, figsize=(5.2 * columns, 3.8 * rows_n), squeeze=False)
    for ax in axes.flat[len(keys):]:
        ax.set_visible(False)
    for ax, (strategy, players, rules) in zip(axes.flat, keys, strict=False):
        mine = history[(history["strategy"] == strategy) & (history["players"] == players)
                       & (history["rules"] == rules)]
        ax.scatter(mine["evaluation"], mine["win_rate"], s=6, alpha=0.4, color="tab:blue", label="evaluation")
        means = mine.groupby("round").agg(evaluation=("evaluation", "max"), win_rate=("win_rate", "mean"))
        ax.plot(means["evaluation"], means["win_rate"], color="tab:blue", label="round mean")
        end = mine["evaluation"].max()
        check = result[(result["strategy"] == strategy) & (result["players"] == players)
                       & (result["rules"] == rules)] if len(result) else result
        for row in check.itertuples(index=False):
            for kind, color, shift in (("default", "grey", 0.02), ("tuned", "tab:red", 0.05)):
                rate = getattr(row, f"{kind}_win_rate")
                ax.errorbar([end * (1 + shift)], [rate], yerr=error_bars([rate], [getattr(row, f"{kind}_ci_low")],
                                                                          [getattr(row, f"{kind}_ci_high")]),
                            fmt="o", color=color, capsize=3, label=f"{kind}, fresh games")
        ax.axhline(1 / players, color="grey", lw=0.8, ls="--")
        ax.set_title(f"{strategy}, {players} players, {rules}", fontsize="medium")
        ax.set_xlabel("evaluation")
        ax.set_ylabel("win rate")
    axes.flat[0].legend(fontsize="x-small", loc="best")
    fig.suptitle("Tuning: win rate of the tuned seat (dashed: 1 / players)")
    fig.tight_layout()
    return _writer(fig)
