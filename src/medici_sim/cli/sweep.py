"""``sweep`` and ``design``: how the balance moves along a rule, and which values balance it.

The options make an :class:`~medici_sim.api.SweepRequest` or a
:class:`~medici_sim.api.DesignRequest`; the API plays it with this command's progress bar,
Ctrl-C, saving its checkpoints and starting its cluster (``api.Watch``); the files are written (all or
none), then the tables printed.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click
import pandas as pd

from ..api import DesignRequest, SweepRequest, play_design, play_sweep
from ..core.output import atomic_write_all, table_writes
from ..core.registry import default_game, get_game
from ..study import sweep as sweeps
from ..study.analysis import change_numbers
from ..study.metrics import METRIC_CHANGES_TABLE, METRICS_TABLE, Moments, differences_text, how_the_games_went
from ..study.sweep import RANGE_SYNTAX
from .common import (
    NEEDS_ANALYSIS,
    NEEDS_PARQUET,
    Command,
    CompileNotice,
    GameChoice,
    RunFiles,
    components_option,
    debug_option,
    echo_text,
    game_help,
    nothing_played,
    progress_bar,
    rules_option,
    shorter_hint,
    usual_players,
    wide_option,
)
from .signals import interrupted_code, interrupted_word, interruptible
from .tables import print_summary, print_table, print_text, section, warn_ran_out

SWEEP_TABLES = ["strategies", "points", METRICS_TABLE, METRIC_CHANGES_TABLE]
DESIGN_TABLES = ["remeasured", "scores", "trials", METRICS_TABLE, METRIC_CHANGES_TABLE]


def _options(command: str):
    """The options sweep and design share (design: --target, --trials, --fresh-games; sweep: --precision)."""
    many = "one count or a comma list such as 3,4,5" if command == "sweep" else "one count"
    options = [
        click.option("--rule", "rule_specs", multiple=True, metavar="NAME=LO..HI[:STEP]",
                     help=f"A rule parameter and its range (required): {RANGE_SYNTAX}; give one or two. "
                          "`medici-sim rules --game GAME` lists the parameters and their ranges."),
        click.option("--game", "-g", "game_name", type=GameChoice(), default=default_game(), show_default=True,
                     help=game_help()),
        click.option("--games", "-n", type=int, default=20_000, show_default=True,
                     help="Games per point" + (" (with --precision, per batch)." if command == "sweep" else
                                               " (per trial of the search).")),
        click.option("--players", "-p", "players_spec", default=None, help=f"Players: {many} {usual_players()}."),
        click.option("--strategies", "-s", "strategies_spec", default=None,
                     help="The strategies (parameters as name:param=value) [default: the game's built-ins]; "
                          "every lineup rotates through the seats."),
        rules_option(also=" (the base the --rule values change)"),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Master seed: every point plays the same games."),
        click.option("--threads", "-t", type=int, default=None, help="Threads [default: all cores]."),
        components_option(),
        click.option("--out", "out_path", default=None,
                     help="Write the tables: FILE.json holds every table and the summary; FILE.csv or FILE.parquet "
                          "holds the first table, the others go beside it as FILE-<table>.EXT." + NEEDS_PARQUET),
        click.option("--report", "report_path", default=None, metavar="FILE.html",
                     help="Write one self-contained HTML page: the question and the answer, the tables with "
                          "their intervals and the figures, and what reproduces it." + NEEDS_ANALYSIS),
        click.option("--plugin", "plugins", multiple=True, metavar="FILE", help="Load plug-in strategies."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Run on an existing Dask cluster; needs medici-sim[distributed]."),
        click.option("--cluster", "cluster_spec", default=None, metavar="local:N",
                     help="Start a local Dask cluster of N worker processes for the run."),
        click.option("--checkpoint", "checkpoint_path", default=None, metavar="FILE",
                     help="Save the progress to FILE after every " + ("batch." if command == "sweep" else "trial.")),
        click.option("--resume", "resume_path", default=None, metavar="FILE",
                     help=f"Continue the {command} saved in FILE: give the options it was started with (they are "
                          "checked against it)."),
        click.option("--overwrite-checkpoint", is_flag=True,
                     help="Start over even if --checkpoint FILE already holds a run (its progress is lost)."),
        click.option("--quiet", "-q", is_flag=True, help="Print no progress bar."),
        wide_option,
        debug_option,
    ]
    if command == "sweep":
        options += [
            click.option("--precision", type=float, default=None,
                         help="Play batches of --games at every point until every win rate's 95% half-width is "
                              "below this (every point keeps the same games)."),
            click.option("--plot", "plot_path", default=None,
                         help="Draw the win rates along the first rule, with their bands, as a PNG figure."
                              + NEEDS_ANALYSIS),
        ]
    else:
        options += [
            click.option("--target", default=None, metavar="strategies|seats|STRATEGY=RATE",
                         help="(Required) strategies: the smallest spread of the strategies' win rates; seats: the "
                              "smallest seat spread; STRATEGY=RATE: that strategy's win rate nearest RATE "
                              "(0.25: a quarter of the games)."),
            click.option("--trials", type=int, default=40, show_default=True,
                         help="Rule sets the search plays (optuna's TPE; the base rules first, when in the box)."),
            click.option("--fresh-games", type=int, default=100_000, show_default=True,
                         help="Fresh games on which the best values and the base rules are measured again."),
        ]

    def decorate(function):
        for option in reversed(options):
            function = option(function)
        return function

    return decorate


def _play(options: dict, request, table_names: list[str], play):
    """Check every file, then play with progress, Ctrl-C and cluster; (files, report or None)."""
    files = RunFiles(out=options["out_path"], plot=options.get("plot_path"), components=options["components_path"],
                     plugins=options["plugins"], checkpoint=options["checkpoint_path"], resume=options["resume_path"],
                     overwrite_checkpoint=options["overwrite_checkpoint"], report=options["report_path"])
    command = "design" if isinstance(request, DesignRequest) else "sweep"
    question = request.design() if command == "design" else request.sweep()
    files.check(table_names)
    total = (question.planned_games() if isinstance(request, DesignRequest)
             else sweeps.planned_games(sweeps.plan(question)[1], question.study.games))
    hint = ("fewer --trials or --games" if command == "design" else
            "fewer --games, fewer points (a larger :STEP) or player counts")
    study = question.sweep.study if command == "design" else question.study
    bar = progress_bar(total, options["quiet"], shorter=shorter_hint(hint, [s.name for s in study.strategies]))
    notice = CompileNotice(options["quiet"])
    kept: list[dict] = []  # the progress last saved (or that would have been)
    with files.locked():  # the API saves the checkpoints and starts the cluster (files.watch)
        try:
            with interruptible() as stop:
                watch = files.watch(options, progress=bar, stop=stop, on_more=bar.grow if bar else None,
                                    compiling=notice, on_batch=kept_progress(kept) if command == "design" else None)
                report = play(question, watch, **({"resume": files.resume} if files.resume else {}))
        finally:
            notice.close()
            if bar:
                bar.close()
    if report is None:
        if command == "design" and kept:
            design_stopped(question, len(kept[-1]["trials"]), files.checkpoint_target)
        nothing_played()
    return files, report


def design_stopped(question, trials: int, path: str | None) -> None:
    """A design stopped after some trials (no answer yet: the answer comes from fresh games after
    the search): one line saying what is kept, and the signal's exit code."""
    where = (f"saved in {path}; --resume {path} continues" if path else
             "not saved (--checkpoint FILE keeps them)")
    click.echo(f"medici-sim: {interrupted_word()} after {trials} of {question.trials} trials, before the answer; "
               f"the trials are {where}", err=True)
    sys.exit(interrupted_code())


def kept_progress(kept: list[dict]):
    """``on_batch(configuration, progress)`` (after the API saved the checkpoint): design's progress kept in
    ``kept`` (the trials an interruption leaves)."""
    def on_batch(_configuration: dict, progress: dict) -> None:
        kept[:] = [progress]

    return on_batch


def _request(options: dict, kind: type, **more):
    return kind(tuple(options["rule_specs"]), games=options["games"], game=options["game_name"],
                players=options["players_spec"], strategies=options["strategies_spec"], rules=options["rules"],
                seed=options["seed"], threads=options["threads"], components=options["components_path"],
                plugins=options["plugins"],
                **more)


def _interval(mean, low, high, missing: str = "") -> list[str]:
    return [missing if pd.isna(m) else f"{100 * m:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
            for m, lo, hi in zip(mean, low, high, strict=True)]


def _count(values) -> list[str]:
    """Counts as every table writes them: 1,000."""
    return [f"{int(v):,}" for v in values]


def _change(change, low) -> list[str]:
    return ["" if pd.isna(d) else change_numbers(d, d - lo) for d, lo in zip(change, low, strict=True)]


def _number(mean, low, high, missing: str = "") -> list[str]:
    return [missing if pd.isna(m) else f"{m:.2f} [{lo:.2f}, {hi:.2f}]"
            for m, lo, hi in zip(mean, low, high, strict=True)]


def _went_at_points(metrics: pd.DataFrame, changes: pd.DataFrame, keys: list[str], moments: Moments) -> pd.DataFrame:
    """The sweep's designer metrics, point by point, with the paired change of the comebacks after
    the game's first scoring moment from the previous point (percentage points); n/a where a point's
    moments leave a metric without meaning (a comeback in games of one), and the moments that ran out
    of cards where any did."""
    first = moments.comebacks[0]
    if first not in metrics:
        return metrics[keys]
    comeback = changes[changes["metric"] == first]
    step = metrics[keys].merge(comeback[[*keys, "difference", "difference_ci_low"]], on=keys, how="left")
    m = metrics
    ran_out = {}
    if moments.ran_out in m and (m[moments.ran_out] > 0).any():
        ran_out = {f"{moments.count} run out": _interval(m[moments.ran_out], m[f"{moments.ran_out}_ci_low"],
                                                         m[f"{moments.ran_out}_ci_high"])}
    return pd.DataFrame({**{c: m[c] for c in keys}, "games": _count(m["games"]),
                         f"comeback after {moments.label(1)}": _interval(m[first], m[f"{first}_ci_low"],
                                                                         m[f"{first}_ci_high"], "n/a"),
                         "change": _change(step["difference"], step["difference_ci_low"]),
                         "lead changes": _number(m["lead_changes"], m["lead_changes_ci_low"],
                                                 m["lead_changes_ci_high"], "n/a"),
                         "margin": _number(m["margin"], m["margin_ci_low"], m["margin_ci_high"]),
                         "joint winners": _interval(m["shared_win_games"], m["shared_win_games_ci_low"],
                                                    m["shared_win_games_ci_high"]), **ran_out})


def _write_and_print(files: RunFiles, tables: dict, shown: dict, summary: dict, wide: bool, figure=None,
                     went: str = "", page=None) -> None:
    """Write the files first (all or none), then print the tables (``shown``: title -> (name, compact
    frame)) and ``went`` (how the games went); ``page``: the --report page (study.report)."""
    writes = table_writes(files.out, tables, summary) if files.out else []
    if figure is not None:
        writes.append(("--plot", Path(files.plot), figure))
    if page is not None:
        from ..study.report import report_writer

        writes.append(("--report", Path(files.report), report_writer(page)))
    atomic_write_all(writes)
    if summary.get("partial"):
        unfinished = summary.get("unfinished_points", 0)
        section("PARTIAL RESULTS: interrupted" + (f"; {unfinished} of {summary['points']} points unfinished, left "
                                                  "out of the tables and files (--resume finishes them)"
                                                  if unfinished else ""))
    for title, (name, frame) in shown.items():
        print_table(title, tables[name] if wide else frame, f"{name} (formatted here)", wide, summary=summary)
    if went:
        print_text(went, wide)
    warn_ran_out(tables.get(METRICS_TABLE), summary["game"])
    print_summary("Run", summary, skip=("verdict",))
    if "verdict" in summary:
        section("Answer")
        echo_text(summary["verdict"], wide)
    for path in dict.fromkeys(target for _, target, _ in writes):
        click.echo(f"  wrote {path}")


@click.command(cls=Command)
@_options("sweep")
def sweep(**options):
    """How the balance moves along a rule: a tournament at every value of one or two rule
    parameters, every point on the same games, with 95% intervals and paired changes."""
    request = _request(options, SweepRequest, precision=options["precision"])
    files, report = _play(options, request, SWEEP_TABLES, play_sweep)
    swept = list(report.points.columns[1:report.points.columns.get_loc("rules")])  # between players and rules
    tables = {"strategies": report.strategies, "points": report.points, METRICS_TABLE: report.metrics,
              METRIC_CHANGES_TABLE: report.metric_changes}
    s, p = report.strategies, report.points
    keys = {c: s[c] for c in ["players", *swept]}
    moments = Moments.of(get_game(options["game_name"]))
    shown = {
        "Win rate at each point (95% CI) and change from the previous point (paired, the same games; 95%)":
            ("strategies", pd.DataFrame({**keys, "strategy": s["strategy"], "games": _count(s["games"]),
                                         "win rate [95% CI]": _interval(s["win_rate"], s["win_rate_ci_low"],
                                                                        s["win_rate_ci_high"]),
                                         "change": _change(s["change"], s["change_ci_low"])})),
        "Seats and spreads at each point (spreads: largest minus smallest win rate; conservative 95% CI)":
            ("points", pd.DataFrame({**{c: p[c] for c in ["players", *swept]}, "games": _count(p["games"]),
                                     "seat 1 [95% CI]": _interval(p["seat1_win_rate"], p["seat1_ci_low"],
                                                                  p["seat1_ci_high"]),
                                     "seat spread": _interval(p["seat_spread"], p["seat_spread_ci_low"],
                                                              p["seat_spread_ci_high"]),
                                     "strategy spread": _interval(p["strategy_spread"], p["strategy_spread_ci_low"],
                                                                  p["strategy_spread_ci_high"])})),
        f"How the games went at each point (95% CI; change: comebacks after {moments.label(1)} from the previous "
        "point, paired)":
            (METRICS_TABLE, _went_at_points(report.metrics, report.metric_changes, ["players", *swept], moments)),
    }
    figure = page = None
    if files.plot or files.report:
        from ..study.sweep_plot import plot_sweep

        figure = plot_sweep(report.strategies, report.points, swept)
    if files.report:
        from ..study.report_pages import sweep_page

        page = sweep_page(get_game(options["game_name"]).title, report.summary, report.strategies, report.points,
                          report.metrics, report.metric_changes, swept, figure)
    _write_and_print(files, tables, shown, report.summary, options["wide"], figure if files.plot else None,
                     page=page)
    if report.summary["partial"]:
        sys.exit(interrupted_code())


@click.command(cls=Command)
@_options("design")
def design(**options):
    """Which rule values best meet a target: optuna's search over the --rule ranges, then the
    best values and the base rules measured again on fresh games, with paired 95% intervals.
    Needs optuna: pip install "medici-sim[design]"."""
    request = _request(options, DesignRequest, target=options["target"], trials=options["trials"],
                       fresh_games=options["fresh_games"])
    files, report = _play(options, request, DESIGN_TABLES, play_design)
    r, s = report.remeasured, report.scores
    shown = {
        "Fresh games: each strategy under the base rules and the best values (change: paired, 95%)":
            ("remeasured", pd.DataFrame({"rules": r["rules"], "strategy": r["strategy"], "games": _count(r["games"]),
                                         "win rate [95% CI]": _interval(r["win_rate"], r["win_rate_ci_low"],
                                                                        r["win_rate_ci_high"]),
                                         "change": _change(r["change"], r["change_ci_low"])})),
        f"Fresh games: {report.summary['target']} (0 meets the target; 95% CI)":
            ("scores", pd.DataFrame({"rules": s["rules"], "spec": s["spec"], "games": _count(s["games"]),
                                     "score [95% CI]": _interval(s["score"], s["score_ci_low"], s["score_ci_high"])})),
    }
    page = None
    if files.report:
        from ..study.report_pages import design_page

        page = design_page(get_game(options["game_name"]).title, report.summary, report.verdict, r, s, report.trials,
                           report.metrics, report.metric_changes)
    game = get_game(options["game_name"])
    went = "\n\n".join(part for part in (how_the_games_went(report.metrics, game),
                                          differences_text(report.metric_changes, game)) if part)
    _write_and_print(files, {"remeasured": r, "scores": s, "trials": report.trials, METRICS_TABLE: report.metrics,
                             METRIC_CHANGES_TABLE: report.metric_changes}, shown, report.summary, options["wide"],
                     went=went, page=page)
