"""The ``medici-sim`` command group: the main command's options, the subcommands, and the
one place where every user error becomes one line and exit code 2."""
from __future__ import annotations

import contextlib
import os
import sys
import threading

import click

from .. import games  # noqa: F401  the games register themselves
from .._version import __version__
from ..core.arguments import naming
from ..core.registry import GAMES, default_game
from . import common, signals
from .check_plugin import check_plugin_command
from .common import (
    BASELINE,
    SEATINGS,
    USER_ERRORS,
    components_option,
    debug_option,
    fail,
    game_option,
    given_options,
    per_game,
    players_help,
    rules_option,
    usual_players,
    wide_option,
)
from .compile_ahead import compile_command
from .listing import list_strategies
from .play import play_command
from .rules import rules_command
from .run import run_main
from .study import balance, compare
from .sweep import design as design_command
from .sweep import sweep as sweep_command
from .tables import start_output
from .trace import trace_command
from .tune import tune_command


def _help() -> str:
    """The main command's help: what it does, and the games (their rules pages)."""
    listing = "; ".join(f"--game {g.name}: {g.title}" + (" (the default)" if g.name == default_game() else "")
                      + f", rules in {g.presentation.rules_page}" for g in GAMES.values())
    return ("Play Medici many times and print per-seat and per-strategy statistics.\n\n"
            f"The games: {listing}.\nStrategies: see `medici-sim strategies --game GAME`.")


@click.group(cls=common.Group, invoke_without_command=True, help=_help(),
             context_settings={"help_option_names": ["-h", "--help"]})
@game_option
@click.option("--games", "-n", type=int, default=100_000, show_default=True, help="Games to play.")
@click.option("--players", "-p", type=int, default=None,
              help=f"Players per game ({players_help()}) {usual_players()}.")
@click.option("--strategies", "-s", default=None,
              help="One strategy for every seat, or a comma list with one per seat; "
                   f"parameters as name:param=value (see `medici-sim strategies --game GAME`). {BASELINE}")
@rules_option()
@click.option("--seating", type=SEATINGS, default="fixed",
              show_default=True, help="fixed: the i-th strategy sits at seat i; rotate: each game rotates them one "
                                      f"seat; random: a random seating per game ({per_game('seating')}).")
@click.option("--seed", type=int, default=0, show_default=True, help=f"Master seed ({per_game('seed')}).")
@click.option("--threads", "-t", type=int, default=None, help="Threads [default: all cores].")
@components_option()
@click.option("--out", "out_path", type=str, default=None,
              help="Write the tables to FILE (.csv, .parquet or .json). CSV/Parquet: the per-seat "
                   "table at FILE, the per-strategy table, how the games went (the designer metrics) and the "
                   "summary beside it as FILE-strategies.EXT, FILE-metrics.EXT and FILE-summary.EXT; JSON: all "
                   "in one file." + common.NEEDS_PARQUET)
@click.option("--report", "report_path", default=None, metavar="FILE.html",
              help="Write one self-contained page answering the run: the answer in words, tables with "
                   "intervals, figures, and how to reproduce it." + common.NEEDS_ANALYSIS)
@click.option("--plugin", "plugins", multiple=True, metavar="FILE",
              help="Load strategies from a Python file that registers them (repeatable).")
@click.option("--checkpoint", "checkpoint_path", default=None, metavar="FILE",
              help="After every batch, save the configuration and the statistics so far to FILE.")
@click.option("--resume", "resume_path", default=None, metavar="FILE",
              help="Continue the run saved in FILE (same options as the run that saved it); "
                   "checkpoints go on to FILE unless --checkpoint names another.")
@click.option("--overwrite-checkpoint", is_flag=True,
              help="Start over even if --checkpoint FILE already holds a run (its progress is lost).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run on an existing Dask cluster (e.g. tcp://host:8786); needs medici-sim[distributed].")
@click.option("--cluster", "cluster_spec", default=None, metavar="local:N",
              help="Start a local Dask cluster of N worker processes for the run.")
@click.option("--quiet", "-q", is_flag=True, help="Print no progress bar.")
@wide_option
@debug_option
@click.version_option(__version__, prog_name="medici-sim")
@click.pass_context
def cli(ctx, **options):
    start_output()
    given = given_options(ctx)
    if ctx.invoked_subcommand is not None:
        if given:
            subcommand = ctx.invoked_subcommand
            option = next(p.opts[0] for p in ctx.command.params if p.name in given)
            if any(option in p.opts for p in ctx.command.get_command(ctx, subcommand).params):
                raise click.UsageError(f"{option} is an option of the main command; put it after the subcommand: "
                                       f"medici-sim {subcommand} {option} ...")
            raise click.UsageError(f"{option} is an option of the main command, and {subcommand} has no {option} "
                                   f"option (see medici-sim {subcommand} --help)")
        return
    run_main(options, given)


cli.add_command(compare)
cli.add_command(balance)
cli.add_command(list_strategies)
cli.add_command(check_plugin_command)
cli.add_command(trace_command)
cli.add_command(play_command)
cli.add_command(tune_command)
cli.add_command(rules_command)
cli.add_command(sweep_command)
cli.add_command(design_command)
cli.add_command(compile_command)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the command, turning every user error into one line and exit code 2.

    A reader that goes away (``medici-sim ... | head -1``) is click's to handle: it ends the
    output quietly; every file was written before anything was printed.
    """
    common.reset_debug()  # --debug holds for one command, not for the rest of the process
    common.route_notices()
    words = sys.argv[1:] if argv is None else list(argv)
    if sys.stdout is None and words[:1] == ["compile"]:  # it prints a report of its work, no results: none kept
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (the process's stdout, open while it runs)
    if sys.stdout is None:  # started with stdout closed (>&-): Python has nowhere to print the results
        fail("standard output is closed: the results would go nowhere (redirect it to a file, or to /dev/null "
             "to keep only --out files)")
    try:
        # SIGINT and SIGTERM alike (the start-up's quiet exit is over, see cli.main)
        # messages name the component option as the user wrote it (its older names too)
        with signals.answering(ignored_after=argv is None), common.warnings_on_stderr(), \
                naming(**common.older_names(words)):
            _run(argv)
    except KeyboardInterrupt:  # a signal as the handlers start or stop, outside the command's own answer (_run)
        _interrupted()
    finally:
        if argv is None:
            _leave()


def _leave() -> None:
    """The command's process, its command over (its work done and written, or abandoned):
    threads still inside the engine (an interrupted batch, a strategy's decision that never
    returns) would hold up Python's exit, which waits for them; then the process leaves at
    once, with the command's exit code."""
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.current_thread()):
        ending = sys.exception()  # the SystemExit (or error) the command is leaving with, if any
        code = ending.code if isinstance(ending, SystemExit) else int(ending is not None)
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code if isinstance(code, int) else int(code is not None))


def _interrupted() -> None:
    """The command stopped by a signal (cli.signals): one line, exit code 128 + its number."""
    with contextlib.suppress(OSError):  # a closed stderr: the exit code still says it
        click.echo(f"medici-sim: {signals.interrupted_word()}", err=True)
    sys.exit(signals.interrupted_code())


def _run(argv: list[str] | None) -> None:
    try:
        cli.main(args=argv, prog_name="medici-sim", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        _interrupted()
    except click.ClickException as exc:
        fail(exc.format_message().replace("\n", " "))
    except USER_ERRORS as exc:
        fail(str(exc), exc)
    except OSError as exc:
        fail(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc), exc)
