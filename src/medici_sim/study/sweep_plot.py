"""The figure of ``sweep --plot``: each strategy's win rate along the swept rule, with its 95% band."""
from __future__ import annotations

import pandas as pd

from .plots import _pyplot, _writer


def plot_sweep(strategies: pd.DataFrame, points: pd.DataFrame, swept: list[str]):
    """One panel per player count (and value of a second swept rule): the strategies' win rates
    along the first rule with their bands, and the seat spread dashed with its band."""
    plt = _pyplot()
    x, rest = swept[0], swept[1:]
    panels = [tuple(row) for row in points[["players", *rest]].drop_duplicates().itertuples(index=False)]
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.5), squeeze=False)
    for ax, panel in zip(axes[0], panels, strict=True):
        keys = dict(zip(["players", *rest], panel, strict=True))
        rows = strategies.loc[(strategies[list(keys)] == pd.Series(keys)).all(axis=1)]
        for name, line in rows.groupby("strategy", sort=False):
            ax.plot(line[x], line["win_rate"], marker="o", ms=3, label=name)
            ax.fill_between(line[x], line["win_rate_ci_low"], line["win_rate_ci_high"], alpha=0.2)
        seats = points.loc[(points[list(keys)] == pd.Series(keys)).all(axis=1)]
        ax.plot(seats[x], seats["seat_spread"], "k--", lw=1, label="seat spread")
        ax.fill_between(seats[x], seats["seat_spread_ci_low"], seats["seat_spread_ci_high"], color="k", alpha=0.08)
        ax.set_title(", ".join(f"{k}={v}" if k != "players" else f"{v} players" for k, v in keys.items()))
        ax.set_xlabel(x)
        ax.set_ylabel("win rate (95% band)")
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    return _writer(fig)
