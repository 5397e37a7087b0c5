"""``tune``: the best parameters of a play style, found by self-play and checked on fresh games.

The options make one :class:`~medici_sim.api.TuneRequest` (with --resume, the API makes the
tasks the checkpoint holds, and checks the options given with them); the API tunes them
(``api.play_tuning``, which makes the report) with this command's Ctrl-C, saving its checkpoint after
every round and starting its cluster (``api.Watch``); this module checks every file before the first
game, shows progress, and writes and prints the answer.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from ..api import TuneReport, TuneRequest, play_tuning
from ..core.driver import ConfigError
from ..core.output import atomic_write_all, table_writes
from ..study import tuning
from ..study.metrics import METRIC_CHANGES_TABLE, METRICS_TABLE
from ..study.optimize import ReplayMismatch
from ..study.plots import MAX_TUNE_PANELS
from ..watch import CheckpointError
from .common import (
    NEEDS_ANALYSIS,
    NEEDS_PARQUET,
    Command,
    CompileNotice,
    RunFiles,
    components_file,
    components_option,
    debug_option,
    default_threads,
    game_option,
    given_fields,
    given_options,
    nothing_played,
    per_game,
    progress_bar,
    rules_option,
    shorter_hint,
    usual_players,
    wide_option,
)
from .signals import interrupted_code, interruptible
from .tables import print_summary, print_table, section, warn_ran_out

TABLES = ["tuned", "history", "rounds", "cross_check", METRICS_TABLE, METRIC_CHANGES_TABLE]


def tune_request(options: dict, given: set[str] = frozenset()) -> TuneRequest:
    """The tuning the options ask for (``given``: those given, checked against a --resume file)."""
    if options["strategy_spec"] is None and options.get("resume_path") is None:
        raise click.UsageError("tune needs STRATEGY (a name, a comma list, or all), or --resume FILE")
    return TuneRequest(options["strategy_spec"], options["game_name"], options["players_spec"], options["variant_spec"],
                       options["against"], options["evaluations"], options["games_per_eval"], options["fresh_games"],
                       options["popsize"], options["seed"], options["components_path"], options.get("resume_path"),
                       given_fields(given, TuneRequest), options["plugins"])


def _print_answer(report: TuneReport, files: RunFiles, wide: bool) -> None:
    """Write the files (all or none), then print."""
    tables, run, rules = {name: getattr(report, name) for name in TABLES}, report.summary, report.cross_check
    writes = table_writes(files.out, tables, run) if files.out else []
    if files.plot:
        from ..study.plots import plot_tuning

        writes.append(("--plot", Path(files.plot), plot_tuning(report.history, report.tuned)))
    atomic_write_all(writes)
    if run["partial"]:
        section(f"PARTIAL RESULTS: interrupted after {run['evaluations']:,} evaluations")
    if run["tasks"] == 1 and len(tables["rounds"]):
        print_table("Rounds (win rate of the tuned seat; every candidate of a round plays the same games)",
                    tables["rounds"], "rounds", wide)
    if len(tables["tuned"]):
        print_table("Tuned against default on fresh games (win rate of the tuned seat, 95% intervals)",
                    tables["tuned"], "tuned", wide)
        section("Best parameters (paste into --strategies)")
        for row in tables["tuned"].itertuples(index=False):
            where = f"{row.strategy}, {row.players} players, {row.rules}"
            if row.significant:
                click.echo(f"  {where}: {row.best}")
            else:
                click.echo(f"  {where}: no significant improvement on fresh games; keep the defaults "
                           f"({row.best}) [tuning's pick: {row.tuned}]")
    if len(rules):
        print_table("Each rule's best parameters against another rule's, under that rule (one seat against the "
                    "others, fresh games, 95% intervals)", rules, "cross_check", wide)
    warn_ran_out(tables.get(METRICS_TABLE), run["game"])
    print_summary("Run", run)
    for path in dict.fromkeys(target for _, target, _ in writes):
        click.echo(f"  wrote {path}")


@click.command("tune", cls=Command)
@click.argument("strategy_spec", metavar="STRATEGY", required=False)
@game_option
@click.option("--players", "-p", "players_spec", default=None,
              help=f"Player counts: one, a comma list such as 3,4,5, or all {usual_players()}.")
@rules_option("variant_spec", ", or all (each preset tuned on its own)")
@click.option("--against", default="self", show_default=True,
              help="The other seats: self (copies of the current best, round after round) or a lineup: one "
                   "strategy (it fills every other seat) or a comma list, one per other seat.")
@click.option("--evaluations", "-e", type=int, default=200, show_default=True,
              help="Candidates evaluated per task, rounded up to whole rounds of --popsize (CMA-ES ranks a "
                   "whole round): 16 with a popsize of 7 plays 3 rounds, 21 candidates.")
@click.option("--games-per-eval", "-m", type=int, default=8000, show_default=True,
              help="Games per candidate (rounded up to whole rotations of the seats).")
@click.option("--fresh-games", type=int, default=100_000, show_default=True,
              help="Games of the final check, for the tuned and for the default parameters each, on game "
                   "indices tuning never used.")
@click.option("--popsize", type=int, default=None,
              help="Candidates per round [default: CMA-ES's 4 + 3 ln(parameters)].")
@click.option("--seed", type=int, default=0, show_default=True, help=f"Master seed ({per_game('seed')}).")
@click.option("--threads", "-t", type=int, default=None, help="Threads [default: all cores].")
@components_option()
@click.option("--out", "out_path", default=None,
              help="Write the tables (tuned, history: every evaluation, rounds, cross_check, metrics and "
                   "metric_changes: how the fresh games went): FILE.json holds them all and the summary (and is "
                   "what balance --tuned reads); FILE.csv or FILE.parquet the first, the others beside it."
                   + NEEDS_PARQUET)
@click.option("--plot", "plot_path", default=None, help="Draw the convergence as a PNG figure." + NEEDS_ANALYSIS)
@click.option("--plugin", "plugins", multiple=True, metavar="FILE", help="Load plug-in strategies.")
@click.option("--checkpoint", "checkpoint_path", default=None, metavar="FILE",
              help="After every round, save the tuning so far to FILE.")
@click.option("--resume", "resume_path", default=None, metavar="FILE",
              help="Continue the tuning saved in FILE (options given as well must agree with it).")
@click.option("--overwrite-checkpoint", is_flag=True,
              help="Start over even if --checkpoint FILE already holds a tuning (its progress is lost).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play on an existing Dask cluster; needs medici-sim[distributed].")
@click.option("--cluster", "cluster_spec", default=None, metavar="local:N",
              help="Start a local Dask cluster of N worker processes.")
@click.option("--quiet", "-q", is_flag=True, help="Print no progress bar.")
@wide_option
@debug_option
@click.pass_context
def tune_command(ctx, **options):
    """Tune STRATEGY's parameters (CMA-ES over the ranges it declares) for the highest win rate
    of its seat, with rotated seats, then check the result on fresh games.

    STRATEGY: a strategy name, a comma list of names, or all (every built-in with parameters);
    left out with --resume FILE (the saved tuning's).
    Example: medici-sim tune expert --players 4 --evaluations 200 --out tuned.json
    """
    given = given_options(ctx)
    files = RunFiles(out=options["out_path"], plot=options["plot_path"], checkpoint=options["checkpoint_path"],
                     resume=options["resume_path"], overwrite_checkpoint=options["overwrite_checkpoint"],
                     components=components_file(options["components_path"]), plugins=options["plugins"])
    results = tune_request(options, given).start()
    tasks = [r.task for r in results]
    if files.plot and len(tasks) > MAX_TUNE_PANELS:
        raise ConfigError(f"--plot draws at most {MAX_TUNE_PANELS} tasks, this tuning has {len(tasks)} (leave out "
                          "--plot, or tune fewer)")
    files.check(TABLES)
    threads = default_threads(options["threads"])

    def on_round(result: tuning.TaskResult) -> None:  # after the API saved the checkpoint
        if bar is not None and result.rounds and not result.complete:
            bar(result.task.popsize)
            bar.postfix(f"{result.task.label}: best {100 * max(result.rounds[-1].scores):.1f}%")

    notice, bar = CompileNotice(options["quiet"]), None
    try:
        with files.locked(), interruptible() as stop:  # the API saves the checkpoints, starts the cluster
            watch = files.watch(options, stop=stop, on_batch=on_round, compiling=notice)
            for task in tasks:  # said once every option is known good (a refusal is the only line)
                if task.rounds * task.popsize != task.evaluations:
                    click.echo(f"medici-sim: {task.label}: --evaluations {task.evaluations} plays "
                               f"{task.rounds * task.popsize}, {task.rounds} whole rounds of {task.popsize} "
                               "candidates (--popsize)", err=True)
            bar = progress_bar(sum(t.rounds * t.popsize for t in tasks), options["quiet"],
                               sum(len(r.rounds) * r.task.popsize for r in results), " evals",
                               shorter_hint("fewer --evaluations or --games-per-eval, strategies, player counts "
                                            "or rules"))
            try:
                report = play_tuning(results, threads, watch)
            except ReplayMismatch as exc:
                raise CheckpointError(f"--resume {files.resume}: {exc}") from None
    finally:
        notice.close()
        if bar is not None:
            bar.close()
    if not any(r.rounds for r in results):
        nothing_played()
    _print_answer(report, files, options["wide"])
    if report.summary["partial"]:
        sys.exit(interrupted_code())
