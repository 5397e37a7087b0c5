"""What the main command, ``compare`` and ``balance`` put on their ``--report`` page (study.report).

Each function takes a command's answer (its tables, verdict, metrics) and gives the
:class:`~medici_sim.study.report.Report`: the question and the answer in words at the top,
then win rates, seat advantage, the designer metrics and their figures (and the ladder,
study.ladder, when one was played).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.registry import FITTED_KEY, Game, get_game
from ..core.stats import score_columns
from .metrics import (
    Moments,
    changes_in_words,
    configuration_label,
    margin_quantile,
    metrics_in_words,
    ran_out_warning,
    strategies_text,
)
from .plots import _pyplot, _writer, error_bars
from .report import Report, Section

AT_POINTS = ("lead_changes", "margin", "shared_win_games")  # the metrics sweep's page shows
#                                                   at each point, after the comebacks


def details(game: Game) -> list[str]:
    """The per-seat and per-strategy columns in --out files that the page leaves out (it keeps to what
    it answers): wins by kind, the score's spread, and ``mean_score`` where ``mean_<unit>`` repeats it."""
    names = score_columns(game)
    return ["outright_wins", "shared_wins", names["std"], *(["mean_score"] if names["mean"] != "mean_score" else [])]


def _in_terms_of(summary: dict) -> Game | None:
    """The game a page's summary names (its words: moments, unit), or None."""
    return get_game(summary["game"]) if "game" in summary else None


def _moments(game: Game | None, metrics: pd.DataFrame) -> Moments:
    return Moments.of(game) if game is not None else Moments.in_columns(metrics.columns)


def win_rate_figure(frame: pd.DataFrame, label: str = "strategy"):
    """Each row's win rate with its 95% interval, as horizontal bars (a PNG writer)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(frame) + 1.4))
    y = np.arange(len(frame))
    rate = frame["win_rate"].to_numpy()
    ax.barh(y, rate, xerr=error_bars(rate, frame["win_rate_ci_low"], frame["win_rate_ci_high"]), color="#4c78a8",
            capsize=3)
    ax.set_yticks(y, [str(v) for v in frame[label]])
    ax.invert_yaxis()
    ax.set_xlabel("win rate (a win shared by k players counts 1/k; 95% intervals)")
    fig.tight_layout()
    return _writer(fig)


def metrics_figure(metrics: pd.DataFrame, moments: Moments | None = None):
    """Per configuration: how often the leader after the first and after the second scoring moment
    (``moments``: the game's) did not win, and the share of joint wins, with 95%
    intervals (a PNG writer)."""
    plt = _pyplot()
    moments = moments or Moments.in_columns(metrics.columns)
    first, second = moments.comebacks
    rows = metrics[metrics["margin"].notna()] if first in metrics else metrics.iloc[:0]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) * 3 + 1.4))
    names = ((first, f"comeback after {moments.label(1)}"), (second, f"comeback after {moments.label(2)}"),
             ("shared_win_games", "joint winners"))
    labels, values, low, high = [], [], [], []
    for _, row in rows.iterrows():
        for column, words in names:
            if pd.isna(row[column]):
                continue  # a comeback the games' moments leave without meaning
            labels.append(f"{words}\n{configuration_label(row)}" if len(rows) > 1 else words)
            values.append(row[column])
            low.append(row[f"{column}_ci_low"])
            high.append(row[f"{column}_ci_high"])
    y = np.arange(len(labels))
    ax.barh(y, values, xerr=error_bars(values, low, high), color="#f58518", capsize=3)
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("share of games (95% intervals)")
    fig.tight_layout()
    return _writer(fig)


def _metrics_section(metrics: pd.DataFrame | None, changes: pd.DataFrame | None = None,
                     game: Game | None = None) -> Section | None:
    """The designer metrics, and (``changes``: study.metrics' METRIC_CHANGES_TABLE) their changes
    between two rule sets, in ``game``'s terms."""
    if metrics is None:
        return None
    moments = _moments(game, metrics)
    if moments.comebacks[0] not in metrics:
        return None
    tables = [(f"Designer metrics (95% intervals; n/a: the games' {moments.count} leave it without meaning)",
               metrics_in_words(metrics, game))]
    if changes is not None and not changes.empty:
        tables.append(("Their changes between the rules (95% intervals; paired: the same games under both)",
                       changes_in_words(changes, game)))
    return Section("How the games went", "", tables, [metrics_figure(metrics, moments)])


def _best_words(strategies: pd.DataFrame) -> str:
    best = strategies.iloc[0]
    return (f"{best['strategy']} wins most often: {100 * best['win_rate']:.1f}% of games "
            f"({100 * best['win_rate_ci_low']:.1f}-{100 * best['win_rate_ci_high']:.1f}%, 95% interval, "
            f"{int(best['games']):,} games)")


def _seat_words(seats: pd.DataFrame) -> str:
    first, fair = seats.iloc[0], 1 / len(seats)
    return (f"Seat 1 wins {100 * first['win_rate']:.1f}% ({100 * first['win_rate_ci_low']:.1f}-"
            f"{100 * first['win_rate_ci_high']:.1f}%); the fair share is {100 * fair:.1f}%")


def _comeback_words(metrics: pd.DataFrame | None, game: str) -> list[str]:
    """How the games went, in two short points (what the games' scoring moments give meaning to)."""
    if metrics is None or "margin" not in metrics or metrics["margin"].isna().all():
        return []
    row = metrics.iloc[0]
    points = []
    moments = Moments.of(get_game(game))
    first = moments.comebacks[0]
    if first in row and not pd.isna(row[first]):
        points.append(f"The leader after {moments.label(1)} went on to win {100 * (1 - row[first]):.0f}% of games"
                      + (f"; the lead changed {row['lead_changes']:.2f} times a game" if not pd.isna(
                          row["lead_changes"]) else ""))
    unit = get_game(game).presentation.score_unit
    points.append(f"The median winning margin was {margin_quantile(row['margin_p50'])} {unit}")
    warning = ran_out_warning(metrics, game)
    if warning:
        points.append(warning.split(" (")[0] + f": the {get_game(game).data_noun} is too short for these rules")
    return points


def run_page(game_title: str, summary: dict, seats: pd.DataFrame, strategies: pd.DataFrame,
             metrics: pd.DataFrame | None) -> Report:
    """The main command's page."""
    players, rules = summary["players"], summary["rules"]
    game = get_game(summary["game"])
    hidden = details(game)
    first = f"seat 1 starts {game.engine.moment} 1" if game.engine.moment else "seat 1 plays first"
    sections = [Section("Win rates", tables=[("Per strategy (95% intervals)", strategies.drop(columns=hidden))],
                        figures=[win_rate_figure(strategies)]),
                Section("Seat advantage", tables=[(f"Per seat ({first})", seats.drop(columns=hidden))],
                        figures=[win_rate_figure(seats.assign(seat=[f"seat {s}" for s in seats["seat"]]), "seat")])]
    metrics_section = _metrics_section(metrics, game=game)
    if metrics_section is not None:
        sections.append(metrics_section)
    return Report(note=summary.get(FITTED_KEY, ""),
        title=f"{game_title}: {players} players, {rules} rules",
        question=f"How do these strategies fare at {players} players under the {rules} rules, and how do the "
                 "games go?",
        answer=[_best_words(strategies), _seat_words(seats), *_comeback_words(metrics, summary["game"])],
        sections=sections,
        reproduce={k: summary[k] for k in ("game", "seed", "rules", "players", "seating", game.data_noun, "games")
                   if k in summary})


def compare_page(game_title: str, summary: dict, strategies: pd.DataFrame, ratings: pd.DataFrame,
                 head_to_head: pd.DataFrame, metrics: pd.DataFrame | None, figure=None, ladder=None,
                 strategy_metrics: pd.DataFrame | None = None, game_name: str = "") -> Report:
    """compare's page (``figure``: its --plot figure; ``ladder``: a ladder's section;
    ``strategy_metrics``: how each strategy played, study.metrics)."""
    best = [f"{players} players: {_best_words(group.sort_values('win_rate', ascending=False))}"
            for players, group in strategies.groupby("players", sort=True)] if "players" in strategies else []
    game = _in_terms_of(summary)
    if game is not None:
        strategies = strategies.drop(columns=[c for c in details(game) if c in strategies])
    sections = [Section("Win rates", tables=[("Per strategy (95% intervals)", strategies)]),
                Section("Ratings and head to head", tables=[("Bradley-Terry ratings", ratings),
                                                             ("Head to head", head_to_head)],
                        figures=[figure] if figure is not None else [])]
    if strategy_metrics is not None and not strategy_metrics.empty:
        first = _moments(game, strategy_metrics).label(1)
        sections.append(Section("How each strategy played", strategies_text(strategy_metrics, game_name),
                                [(f"Comebacks when trailing after {first} and decisions (95% intervals)",
                                  strategy_metrics)]))
    sections += [s for s in (_metrics_section(metrics, game=game), ladder) if s is not None]
    return Report(note=summary.get(FITTED_KEY, ""), title=f"{game_title}: which strategy is best?",
                  question="Which strategy is best, and by how much?",
                  answer=best or [_best_words(strategies)],
                  sections=sections, reproduce=_study_reproduce(summary))


def balance_page(game_title: str, summary: dict, verdict: str, strategies: pd.DataFrame, rules: pd.DataFrame,
                 metrics: pd.DataFrame | None, rules_played: tuple[str, str], figure=None, ladder=None,
                 changes: pd.DataFrame | None = None) -> Report:
    """balance's page: the verdict is the answer (``changes``: the metrics' paired changes)."""
    base, other = rules_played
    game = _in_terms_of(summary)
    sources = f"{game.presentation.score_unit.removesuffix('s')} sources" if game is not None else "score sources"
    sections = [Section("Win rates under both rules", tables=[(f"Difference: {other} minus {base}", strategies)],
                        figures=[figure] if figure is not None else []),
                Section(f"Seat advantage and {sources}", tables=[("Per rules", rules)])]
    sections += [s for s in (_metrics_section(metrics, changes, game), ladder) if s is not None]
    sections.append(Section("The verdict in full", verdict))
    return Report(note=summary.get(FITTED_KEY, ""), title=f"{game_title}: does {other} change the balance?",
                  question=f"Does the {other} variant change the balance against the {base} rules?",
                  answer=balance_points(strategies, rules, other), sections=sections,
                  reproduce=_study_reproduce(summary))


def _change(value: float, low: float, high: float) -> str:
    return f"{100 * value:+.1f} points ({100 * low:+.1f} to {100 * high:+.1f})"


def balance_points(strategies: pd.DataFrame, rules: pd.DataFrame, other: str) -> list[str]:
    """balance's answer in a few points, per player count: the clear changes of the strategies' win
    rates (or none), and seat 1's change, in percentage points with 95% intervals."""
    points = []
    for players, rows in strategies.groupby("players", sort=True):
        clear = rows[rows["significant"]]
        if clear.empty:
            widest = 100 * (rows["difference_ci_high"] - rows["difference"]).max()
            points.append(f"{players} players: {other} changes no strategy's win rate clearly (every change within "
                          f"its interval of 0, up to \u00b1{widest:.1f} points)")
        else:
            changed = "; ".join(f"{r.strategy} {_change(r.difference, r.difference_ci_low, r.difference_ci_high)}"
                                for r in clear.itertuples(index=False))
            points.append(f"{players} players: {other} changes {changed}")
        seat = rules[rules["players"] == players].iloc[-1]
        if not pd.isna(seat.get("seat1_change", np.nan)):
            clear_seat = seat["seat1_change_ci_low"] > 0 or seat["seat1_change_ci_high"] < 0
            points.append(f"{players} players: seat 1 "
                          f"{_change(seat['seat1_change'], seat['seat1_change_ci_low'], seat['seat1_change_ci_high'])}"
                          f" ({'clear' if clear_seat else 'not clear'})")
    return points


def _study_reproduce(summary: dict) -> dict:
    noun = get_game(summary["game"]).data_noun
    return {k: summary[k] for k in ("game", "seed", noun, "games_per_configuration", "configurations")
            if k in summary}


# ---------------------------------------------------------------- sweep and design

def _curves(frame: pd.DataFrame, swept: list[str]) -> list[tuple[dict, pd.DataFrame]]:
    """Each curve along the first swept rule: (its player count and other rules' values, its
    rows in order along the first rule)."""
    keys = ["players", *swept[1:]]
    return [(dict(zip(keys, group if isinstance(group, tuple) else (group,), strict=True)),
             rows.sort_values(swept[0])) for group, rows in frame.groupby(keys, sort=False)]


def _on_curve(frame: pd.DataFrame, where: dict) -> pd.DataFrame:
    return frame[(frame[list(where)] == pd.Series(where)).all(axis=1)]


def sweep_words(strategies: pd.DataFrame, points: pd.DataFrame, metrics: pd.DataFrame | None,
                swept: list[str], moments: Moments | None = None) -> list[str]:
    """The sweep's answer: along each curve, the strategy whose win rate moves most from the first
    point to the last (its intervals, and how many of its paired steps are clear), seat 1's win
    rate, and how often the leader after the first scoring moment (``moments``: the game's) went on to win."""
    moments = moments or Moments.in_columns(metrics.columns if metrics is not None else ())
    comeback = moments.comebacks[0]
    x = swept[0]
    sentences = []
    for where, rows in _curves(strategies, swept):
        at = ", ".join([f"{where['players']} players", *(f"{k}={v}" for k, v in where.items() if k != "players")])
        first_x, last_x = rows[x].iloc[0], rows[x].iloc[-1]
        ends = rows[rows[x].isin([first_x, last_x])].pivot(index="strategy", columns=x, values="win_rate")
        mover = (ends[last_x] - ends[first_x]).abs().idxmax()
        line = rows[rows["strategy"] == mover]
        clear = int(((line["change_ci_low"] > 0) | (line["change_ci_high"] < 0)).sum())
        seats = _on_curve(points, where).sort_values(x)
        moved = 100 * (line["win_rate"].iloc[-1] - line["win_rate"].iloc[0])
        sentence = (f"At {at}, as {x} goes from {first_x} to {last_x}: {mover} moves most, "
                    f"{100 * line['win_rate'].iloc[0]:.1f}% to {100 * line['win_rate'].iloc[-1]:.1f}% "
                    f"({moved:+.1f} points; {clear} of {len(line) - 1} paired steps clear); "
                    f"seat 1 wins {100 * seats['seat1_win_rate'].iloc[0]:.1f}% then "
                    f"{100 * seats['seat1_win_rate'].iloc[-1]:.1f}%")
        if metrics is not None and comeback in metrics:
            held = 1 - _on_curve(metrics, where).sort_values(x)[comeback]
            if held.notna().iloc[[0, -1]].all():
                sentence += (f"; the leader after {moments.label(1)} keeps the win {100 * held.iloc[0]:.0f}% then "
                             f"{100 * held.iloc[-1]:.0f}%")
        sentences.append(sentence)
    return sentences


def metrics_along_figure(metrics: pd.DataFrame, swept: list[str], moments: Moments | None = None):
    """Per curve: the shares of comebacks after the first and the second scoring moment
    (``moments``: the game's) and of joint wins along the first rule, with their 95% bands
    (a PNG writer)."""
    plt = _pyplot()
    moments = moments or Moments.in_columns(metrics.columns)
    first, second = moments.comebacks
    x = swept[0]
    curves = _curves(metrics, swept)
    fig, axes = plt.subplots(1, len(curves), figsize=(6 * len(curves), 4), squeeze=False)
    for ax, (where, rows) in zip(axes[0], curves, strict=True):
        for column, words in ((first, f"comeback after {moments.label(1)}"),
                              (second, f"comeback after {moments.label(2)}"), ("shared_win_games", "joint winners")):
            ax.plot(rows[x], rows[column], marker="o", ms=3, label=words)
            ax.fill_between(rows[x], rows[f"{column}_ci_low"], rows[f"{column}_ci_high"], alpha=0.2)
        ax.set_title(", ".join(f"{v} players" if k == "players" else f"{k}={v}" for k, v in where.items()))
        ax.set_xlabel(x)
        ax.set_ylabel("share of games (95% band)")
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    return _writer(fig)


def sweep_page(game_title: str, summary: dict, strategies: pd.DataFrame, points: pd.DataFrame,
               metrics: pd.DataFrame | None, changes: pd.DataFrame | None, swept: list[str], figure) -> Report:
    """sweep's page (``figure``: the curves, study.sweep_plot)."""
    sections = [Section("Win rates along the rule", tables=[
                    ("Per point and strategy, with the paired change from the previous point (95% intervals)",
                     strategies)], figures=[figure]),
                Section("Seats and spreads", tables=[("Per point (spreads: conservative 95% intervals)", points)])]
    game = _in_terms_of(summary)
    moments = _moments(game, metrics) if metrics is not None else Moments()
    if metrics is not None and moments.comebacks[0] in metrics:
        at_points = (*moments.comebacks, *AT_POINTS, moments.ran_out)
        shown = [c for c in dict.fromkeys(["players", *swept, "games", moments.count,  # once: a sweep of their count
                                           *(f"{m}{end}" for m in at_points for end in ("", "_ci_low", "_ci_high"))])
                 if c in metrics]
        sections.append(Section(
            "How the games went along the rule", "",
            [(f"Designer metrics at each point (95% intervals; n/a: the games' {moments.count} leave it without "
              "meaning)", metrics[shown]),
             ("Their changes from the previous point (95% intervals; paired: the same games)",
              changes_in_words(changes, game))],
            [metrics_along_figure(metrics, swept, moments)]))
    return Report(note=summary.get(FITTED_KEY, ""), title=f"{game_title}: the balance along {summary['swept']}",
                  question=f"How do the win rates, the seats and the games change as {summary['swept']} varies "
                           f"(base rules {summary['base_rules']}, {summary['players']} players)?",
                  answer=sweep_words(strategies, points, metrics, swept, moments),  # one point a curve
                  sections=sections,
                  reproduce={k: summary[k] for k in ("game", "seed", "base_rules", "swept", "players",
                                                     get_game(summary["game"]).data_noun, "games_per_point",
                                                     "precision") if k in summary})


def design_page(game_title: str, summary: dict, verdict: str, remeasured: pd.DataFrame, scores: pd.DataFrame,
                trials: pd.DataFrame, metrics: pd.DataFrame | None, changes: pd.DataFrame | None) -> Report:
    """design's page: the verdict on fresh games is the answer."""
    rows = remeasured.assign(label=[f"{r} rules: {s}" for r, s in zip(remeasured["rules"], remeasured["strategy"],
                                                                      strict=True)])
    sections = [Section("Fresh games: the base and the best rules", tables=[
                    ("Per strategy, with the paired change (best minus base; 95% intervals)", remeasured),
                    (f"The target's score: {summary['target']} (0 meets it; 95% intervals)", scores)],
                    figures=[win_rate_figure(rows, "label")])]
    metrics_section = _metrics_section(metrics, changes, _in_terms_of(summary))
    if metrics_section is not None:
        sections.append(metrics_section)
    sections.append(Section("The search", tables=[("Every trial (its score on the search's games)", trials)]))
    return Report(note=summary.get(FITTED_KEY, ""), title=f"{game_title}: which rule values meet the target?",
                  question=f"Which values of the rules searched best achieve {summary['target']} at "
                           f"{summary['players']} players (base rules {summary['base_rules']})?",
                  answer=[line.strip() for line in verdict.splitlines() if line.strip()], sections=sections,
                  reproduce={k: summary[k] for k in ("game", "seed", "players", "base_rules", "best_rules", "trials",
                                                     "games_per_trial", "fresh_games") if k in summary})
