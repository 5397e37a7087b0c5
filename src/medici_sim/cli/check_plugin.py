"""``medici-sim check-plugin FILE``: is a plug-in's strategy safe to run? (``core.plugin_check``)"""
from __future__ import annotations

import sys

import click

from ..core.arguments import integer, naming
from ..core.driver import MAX_GAMES, check_seed
from ..core.plugin_check import DEFAULT_GAMES, check_plugin
from . import common
from .common import debug_option

PROBLEMS_FOUND = 1  # exit code when the plug-in has problems (bad input is 2, as everywhere)


@click.command("check-plugin", cls=common.Command)
@click.argument("path", metavar="FILE")
@click.option("--games", "-n", type=int, default=DEFAULT_GAMES, show_default=True,
              help="Games per strategy, shared among its configurations (every player count, the strategy at "
                   "every seat and rotated among built-ins); each is played four ways.")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed (R25, C20).")
@debug_option
def check_plugin_command(path, games, seed):
    """Play a plug-in's strategies a few thousand times and report, in plain words, every decision
    that was illegal, that changed the game state outside the strategy's own scratch, or that made
    results depend on threads or batches (exit code 1 if there is any, 0 if none)."""
    integer(games, "games", 1, MAX_GAMES, "10**15")
    check_seed(seed)
    show = sys.stderr.isatty()

    def progress(text: str) -> None:
        if show:
            click.echo(f"checking {text} ...", err=True)

    with naming(plugins="check-plugin"):  # the file is this command's argument, not a --plugin option
        report = check_plugin(path, games, seed, progress)
    for strategy in report.strategies:
        if common._DEBUG:  # numba's full report of a strategy that does not compile
            for trace in strategy.tracebacks:
                click.echo(trace, err=True)
        for finding in strategy.findings:
            click.echo(finding.line())
    click.echo(report.summary())
    if report.findings:
        sys.exit(PROBLEMS_FOUND)
