"""What the main command, ``compare`` and ``balance`` put on their ``--report`` page (study.report).

Each function takes a command's answer (its tables, verdict, metrics) and gives the
:class:`~medici_sim.study.report.Report`: the question and the answer in words at the top,
then win rates, seat advantage, the designer metrics and their figures (and the ladder,
study.ladder, when one was played).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .metrics import configuration_label, differences_text, how_the_games_went
from .plots import _pyplot, _writer
from .report import Report, Section


def win_rate_figure(frame: pd.DataFrame, label: str = "strategy"):
    """Each row's win rate with its 95% interval, as horizontal bars (a PNG writer)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(frame) + 1.4))
    y = np.arange(len(frame))
    rate = frame["win_rate"].to_numpy()
    errors = [rate - frame["win_rate_ci_low"].to_numpy(), frame["win_rate_ci_high"].to_numpy() - rate]
    ax.barh(y, rate, xerr=errors, color="#4c78a8", capsize=3)
    ax.set_yticks(y, [str(v) for v in frame[label]])
    ax.invert_yaxis()
    ax.set_xlabel("win rate (a win shared by k players counts 1/k; 95% intervals)")
    fig.tight_layout()
    return _writer(fig)


def metrics_figure(metrics: pd.DataFrame):
    """Per configuration: how often the leader after day 1 and after day 2 did not win, and
    the share of joint wins, with 95% intervals (a PNG writer)."""
    plt = _pyplot()
    rows = metrics[metrics["comeback_after_day1"].notna()] if "comeback_after_day1" in metrics else metrics.iloc[:0]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) * 3 + 1.4))
    names = (("comeback_after_day1", "comeback after day 1"), ("comeback_after_day2", "comeback after day 2"),
             ("shared_win_games", "joint winners"))
    labels, values, low, high = [], [], [], []
    for _, row in rows.iterrows():
        for column, words in names:
            labels.append(f"{words}\n{configuration_label(row)}" if len(rows) > 1 else words)
            values.append(row[column])
            low.append(row[column] - row[f"{column}_ci_low"])
            high.append(row[f"{column}_ci_high"] - row[column])
    y = np.arange(len(labels))
    ax.barh(y, values, xerr=[low, high], color="#f58518", capsize=3)
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("share of games (95% intervals)")
    fig.tight_layout()
    return _writer(fig)


def _metrics_section(metrics: pd.DataFrame | None, changes: pd.DataFrame | None = None) -> Section | None:
    """The designer metrics, and (``changes``: study.metrics' METRIC_CHANGES_TABLE) their changes
    between two rule sets."""
    if metrics is None or "comeback_after_day1" not in metrics:
        return None
    text = "\n\n".join(part for part in (how_the_games_went(metrics), differences_text(changes)) if part)
    tables = [("Designer metrics (95% intervals)", metrics)]
    if changes is not None and not changes.empty:
        tables.append(("Their changes between the rules (95% intervals; paired: the same games under both)",
                       changes))
    return Section("How the games went", text, tables, [metrics_figure(metrics)])


def _best_words(strategies: pd.DataFrame) -> str:
    best = strategies.iloc[0]
    return (f"{best['strategy']} wins most often: {100 * best['win_rate']:.1f}% of games "
            f"({100 * best['win_rate_ci_low']:.1f}-{100 * best['win_rate_ci_high']:.1f}%, 95% interval, "
            f"{int(best['games']):,} games)")


def _comeback_words(metrics: pd.DataFrame | None) -> str:
    if metrics is None or "comeback_after_day1" not in metrics or metrics["comeback_after_day1"].isna().all():
        return ""
    row = metrics.iloc[0]
    return (f" The leader after day 1 went on to win in {100 * (1 - row['comeback_after_day1']):.0f}% of games; "
            f"the lead changed {row['lead_changes']:.2f} times a game, and the median winning margin was "
            f"{row['margin_p50']:.0f} florins.")


def run_page(game_title: str, summary: dict, seats: pd.DataFrame, strategies: pd.DataFrame,
             metrics: pd.DataFrame | None) -> Report:
    """The main command's page."""
    players, rules = summary["players"], summary["variant"]
    sections = [Section("Win rates", tables=[("Per strategy (95% intervals)", strategies)],
                        figures=[win_rate_figure(strategies)]),
                Section("Seat advantage", tables=[("Per seat (seat 1 starts day 1)", seats)],
                        figures=[win_rate_figure(seats.assign(seat=[f"seat {s}" for s in seats["seat"]]), "seat")])]
    metrics_section = _metrics_section(metrics)
    if metrics_section is not None:
        sections.append(metrics_section)
    return Report(
        title=f"{game_title}: {players} players, {rules} rules",
        question=f"How do these strategies fare at {players} players under the {rules} rules, and how do the "
                 "games go?",
        answer=_best_words(strategies) + "." + _comeback_words(metrics),
        sections=sections,
        reproduce={k: summary[k] for k in ("game", "seed", "variant", "players", "seating", "deck", "games")
                   if k in summary})


def compare_page(game_title: str, summary: dict, strategies: pd.DataFrame, ratings: pd.DataFrame,
                 head_to_head: pd.DataFrame, metrics: pd.DataFrame | None, figure=None, ladder=None) -> Report:
    """compare's page (``figure``: its --plot figure; ``ladder``: a ladder's section)."""
    best = ", ".join(f"{players} players: {group.iloc[0]['strategy']}" for players, group in
                     strategies.groupby("players", sort=True)) if "players" in strategies else ""
    sections = [Section("Win rates", tables=[("Per strategy (95% intervals)", strategies)]),
                Section("Ratings and head to head", tables=[("Bradley-Terry ratings", ratings),
                                                             ("Head to head", head_to_head)],
                        figures=[figure] if figure is not None else [])]
    sections += [s for s in (_metrics_section(metrics), ladder) if s is not None]
    return Report(title=f"{game_title}: which strategy is best?",
                  question="Which strategy is best, and by how much?",
                  answer=f"Best win rate by player count: {best}." if best else _best_words(strategies),
                  sections=sections, reproduce=_study_reproduce(summary))


def balance_page(game_title: str, summary: dict, verdict: str, strategies: pd.DataFrame, rules: pd.DataFrame,
                 metrics: pd.DataFrame | None, variants: tuple[str, str], figure=None, ladder=None,
                 changes: pd.DataFrame | None = None) -> Report:
    """balance's page: the verdict is the answer (``changes``: the metrics' paired changes)."""
    base, other = variants
    sections = [Section("Win rates under both rules", tables=[(f"Difference: {other} minus {base}", strategies)],
                        figures=[figure] if figure is not None else []),
                Section("Seat advantage and florin sources", tables=[("Per rules", rules)])]
    sections += [s for s in (_metrics_section(metrics, changes), ladder) if s is not None]
    return Report(title=f"{game_title}: does {other} change the balance?",
                  question=f"Does the {other} variant change the balance against the {base} rules?",
                  answer=verdict, sections=sections, reproduce=_study_reproduce(summary))


def _study_reproduce(summary: dict) -> dict:
    return {k: summary[k] for k in ("game", "seed", "deck", "games_per_configuration", "configurations")
            if k in summary}
