"""``tune``: the best parameters of a play style, found by self-play and checked on fresh games.

The options make one :class:`~medici_sim.api.TuneRequest` (or, with --resume, the checkpoint
makes the tasks); the API tunes them (``api.play_tuning``) with this command's Ctrl-C,
checkpoints after every round and cluster (``api.Watch``); this module checks every file
before the first game, shows progress, and writes and prints the answer.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click
import pandas as pd

from ..api import TuneRequest, Watch, play_tuning
from ..core import checkpoint
from ..core.cluster import connect
from ..core.driver import ConfigError, ThreadRunner
from ..core.output import atomic_write_all, table_writes
from ..core.plugins import load_plugin
from ..study import tune_saved, tuning
from ..study.optimize import ReplayMismatch
from ..study.tune_saved import TUNE
from .common import (
    Command,
    CompileNotice,
    RunFiles,
    absolute,
    debug_option,
    deck_file,
    deck_option,
    default_threads,
    game_option,
    given_options,
    nothing_played,
    per_game,
    variant_help,
    wide_option,
)
from .signals import interrupted_code, interruptible
from .tables import print_table

TABLES = ["tuned", "history", "rounds", "cross_check"]


def tasks_from_options(options: dict) -> list[tuning.TuneTask]:
    if options["strategy_spec"] is None:
        raise click.UsageError("tune needs STRATEGY (a name, a comma list, or all), or --resume FILE")
    return TuneRequest(options["strategy_spec"], options["game_name"], options["players_spec"], options["variant_spec"],
                       options["against"], options["evaluations"], options["games_per_eval"], options["fresh_games"],
                       options["popsize"], options["seed"], options["deck_path"]).tasks()


OPTION_KEYS = {"strategy_spec": "strategy", "game_name": "game", "players_spec": "players", "variant_spec": "variant",
               "against": "against", "evaluations": "evaluations", "games_per_eval": "games_per_eval",
               "fresh_games": "fresh_games", "seed": "seed", "popsize": "popsize", "deck_path": "deck"}


def _from_checkpoint(saved: checkpoint.Saved, options: dict, given: set[str]) -> list[tuning.TuneTask]:
    """The checkpoint's tasks; task options given as well must agree with them."""
    tasks = [tune_saved.task_from_configuration(entry) for entry in saved.configuration["tasks"]]
    if given & set(OPTION_KEYS):
        variants = list(dict.fromkeys(t.variant for t in tasks))
        from_saved = {"game_name": tasks[0].game, "strategy_spec": ",".join(dict.fromkeys(t.strategy for t in tasks)),
                      "players_spec": ",".join(str(p) for p in dict.fromkeys(t.players for t in tasks)),
                      "variant_spec": tuning.ALL if len(variants) > 1 else variants[0]}
        mine = tasks_from_options({**options, **{k: v for k, v in from_saved.items() if k not in given}})
        for option in sorted(given & set(OPTION_KEYS)):
            key = OPTION_KEYS[option]
            ours = {json.dumps(tune_saved.task_configuration(t)[key], sort_keys=True) for t in mine}
            theirs = {json.dumps(entry[key], sort_keys=True) for entry in saved.configuration["tasks"]}
            if ours != theirs:
                raise checkpoint.CheckpointError(
                    f"--resume {options['resume_path']}: the {key} differs from the checkpoint's; leave the option "
                    "out to continue the saved tuning")
    return tasks


def _print_answer(results, rules, run: dict, files: RunFiles, wide: bool, figure) -> None:
    """Write the files (all or none), then print."""
    tables = {"tuned": tuning.result_table(results), "history": tuning.history_table(results),
              "rounds": tuning.round_table(results), "cross_check": rules}
    writes = table_writes(files.out, tables, run) if files.out else []
    if figure is not None:
        writes.append(("--plot", Path(files.plot), figure(tables)))
    atomic_write_all(writes)
    if run["partial"]:
        click.echo(f"\nPARTIAL RESULTS: interrupted after {run['evaluations']} evaluations")
    if len(results) == 1 and len(tables["rounds"]):
        print_table("Rounds (win rate of the tuned seat; every candidate of a round plays the same games)",
                    tables["rounds"], "rounds", wide)
    if len(tables["tuned"]):
        print_table("Tuned against default on fresh games (win rate of the tuned seat, 95% intervals)",
                    tables["tuned"], "tuned", wide)
        click.echo("\nBest parameters (paste into --strategies)")
        for row in tables["tuned"].itertuples(index=False):
            where = f"{row.strategy}, {row.players} players, {row.variant}"
            if row.significant:
                click.echo(f"  {where}: {row.best}")
            else:
                click.echo(f"  {where}: no significant improvement on fresh games; keep the defaults "
                           f"({row.best}) [tuning's pick: {row.tuned}]")
    if len(rules):
        print_table("Each rule's best parameters against another rule's, under that rule (one seat against the "
                    "others, fresh games, 95% intervals)", rules, "cross_check", wide)
    click.echo("\nRun")
    for key, value in run.items():
        click.echo(f"  {key:24} {value}")
    for path in dict.fromkeys(target for _, target, _ in writes):
        click.echo(f"  wrote {path}")


@click.command("tune", cls=Command)
@click.argument("strategy_spec", metavar="STRATEGY", required=False)
@game_option
@click.option("--players", "-p", "players_spec", default=None,
              help="Player counts: one, a comma list such as 3,4,5, or all [default: the game's usual 4].")
@click.option("--variant", "variant_spec", default=None,
              help=f"The rules, or all (each tuned on its own) [default: the game's standard rules]: {variant_help()}")
@click.option("--against", default="self", show_default=True,
              help="The other seats: self (copies of the current best, round after round) or a lineup such as "
                   "greedy or greedy,collector,cautious (one strategy fills every other seat).")
@click.option("--evaluations", "-e", type=int, default=200, show_default=True,
              help="Candidates evaluated per task (whole rounds of --popsize).")
@click.option("--games-per-eval", "-m", type=int, default=8000, show_default=True,
              help="Games per candidate (rounded up to whole rotations of the seats).")
@click.option("--fresh-games", type=int, default=100_000, show_default=True,
              help="Games of the final check, for the tuned and for the default parameters each, on game "
                   "indices tuning never used.")
@click.option("--popsize", type=int, default=None,
              help="Candidates per round [default: CMA-ES's 4 + 3 ln(parameters)].")
@click.option("--seed", type=int, default=0, show_default=True, help=f"Master seed ({per_game('seed')}).")
@click.option("--threads", "-t", type=int, default=None, help="Threads [default: all cores].")
@deck_option()
@click.option("--out", "out_path", default=None,
              help="Write the tables (tuned, history: every evaluation, rounds): FILE.json holds them all and the "
                   "summary (and is what balance --tuned reads); FILE.csv or FILE.parquet the first, the others "
                   "beside it.")
@click.option("--plot", "plot_path", default=None, help="Draw the convergence as a PNG figure.")
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
    Example: medici-sim tune expert --players 4 --evaluations 200 --out expert.json
    """
    given = given_options(ctx)
    for plugin in options["plugins"]:
        load_plugin(plugin)
    files = RunFiles(out=options["out_path"], plot=options["plot_path"], checkpoint=options["checkpoint_path"],
                     resume=options["resume_path"], overwrite_checkpoint=options["overwrite_checkpoint"],
                     deck=deck_file(options["deck_path"]), plugins=options["plugins"])
    saved = checkpoint.read(files.resume, TUNE) if files.resume else None
    tasks = _from_checkpoint(saved, options, given) if saved else tasks_from_options(options)
    if files.plot and len(tasks) > 12:
        raise ConfigError(f"--plot draws at most 12 tasks, this tuning has {len(tasks)} (leave out --plot, or tune "
                          "fewer)")
    files.check(TABLES)
    results = ([tune_saved.task_result(t, entry) for t, entry in zip(tasks, saved.progress["tasks"], strict=True)]
               if saved else [tuning.TaskResult(t, []) for t in tasks])
    configuration = {"tasks": [tune_saved.task_configuration(t) for t in tasks]}
    threads = default_threads(options["threads"])

    def save(_result=None) -> None:
        if files.checkpoint_target:
            checkpoint.save(files.checkpoint_target, "tune", configuration,
                            {"tasks": [tune_saved.task_progress(r) for r in results]})

    total = sum(t.rounds * t.popsize for t in tasks)
    done_before = sum(len(r.rounds) * r.task.popsize for r in results)
    bar = None
    if not options["quiet"] and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=total, initial=done_before, unit=" evals", file=sys.stderr, leave=False, delay=1.0)

    def on_round(result: tuning.TaskResult) -> None:
        save()
        if bar is not None and result.rounds and not result.complete:
            bar.update(result.task.popsize)
            bar.set_postfix_str(f"{result.task.label}: best {100 * max(result.rounds[-1].scores):.1f}%")

    notice = CompileNotice(options["quiet"])
    began = time.perf_counter()
    try:
        with files.locked(), connect(options["scheduler"], options["cluster_spec"],
                                     absolute(files.plugins)) as dask_runner, interruptible() as stop:
            with dask_runner or ThreadRunner(threads) as runner:
                try:
                    complete, rules = play_tuning(results, runner, threads,
                                                  Watch(stop=stop, on_batch=on_round, compiling=notice))
                except ReplayMismatch as exc:
                    raise checkpoint.CheckpointError(f"--resume {files.resume}: {exc}") from None
    finally:
        notice.close()
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - began
    played = sum(len(r.rounds) * r.task.popsize for r in results) - done_before
    if not any(r.rounds for r in results):
        nothing_played()
    evaluations = sum(len(r.rounds) * r.task.popsize for r in results)
    run = {"partial": not complete, "game": tasks[0].game, "tasks": len(tasks),
           "tasks_done": sum(r.complete for r in results), "evaluations": evaluations,
           "games": sum(len(r.rounds) * r.task.popsize * r.task.games_per_eval
                        + (2 * r.task.fresh_games if r.complete else 0) for r in results),
           **({"deck": tasks[0].deck.name} if tasks[0].deck is not None else {}),
           "optimiser": "CMA-ES (cma)", "seed": tasks[0].seed, "threads": threads,
           "elapsed_seconds": round(elapsed, 2),
           "evaluations_per_minute": round(60 * played / elapsed, 1) if played and elapsed > 0 else None}

    def figure(tables):
        from ..study.plots import plot_tuning

        return plot_tuning(tables["history"], tables["tuned"])

    _print_answer(results, rules if rules is not None else pd.DataFrame(columns=tuning.CROSS_COLUMNS), run, files,
                  options["wide"], figure if files.plot else None)
    if not complete:
        sys.exit(interrupted_code())
