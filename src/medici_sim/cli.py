"""The ``medici-sim`` command line.

Bad input never shows a traceback: every user error is one line on stderr and exit code 2,
checked before any game is played, so no output file is ever half-written.
"""
from __future__ import annotations

import os
import sys

import click
import pandas as pd

from . import __version__
from .deck import DeckError, default_deck, load_deck
from .output import OutputError, check_output_path, write_tables
from .plugins import PluginError, load_plugin
from .rules import MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from .simulate import ConfigError, RunConfig, SeatStrategy, seat_strategy, simulate
from .stats import seat_frame, strategy_frame, summary
from .strategies import REGISTRY

USER_ERRORS = (ConfigError, DeckError, OutputError, PluginError)
PROGRESS_DELAY_S = 2.0  # no bar for runs shorter than this


def parse_strategies(spec: str, players: int) -> tuple[SeatStrategy, ...]:
    """``name[:param=value]...`` slots separated by commas; one slot means every seat.

    A ``param=value`` token after a slot adds another parameter to that slot, so
    ``collector:focus=1,aim=8,greedy`` is two slots.
    """
    slots: list[tuple[str, dict[str, float]]] = []
    for token in (t.strip() for t in spec.split(",")):
        if not token:
            raise ConfigError(f"--strategies {spec!r}: empty strategy name")
        name, sep, rest = token.partition(":")
        if not sep and "=" in token:
            if not slots:
                raise ConfigError(f"--strategies {spec!r}: parameter {token!r} before any strategy")
            assignments = [token]
        else:
            slots.append((name.strip(), {}))
            assignments = [a for a in rest.split(":") if a.strip()] if sep else []
        for assignment in assignments:
            key, eq, value = assignment.partition("=")
            if not eq:
                raise ConfigError(f"--strategies: expected param=value, got {assignment!r}")
            try:
                slots[-1][1][key.strip()] = float(value)
            except ValueError:
                raise ConfigError(f"--strategies: parameter {key.strip()} of {slots[-1][0]} must be a "
                                  f"number, got {value.strip()!r}") from None
    if len(slots) == 1:
        slots *= players
    if len(slots) != players:
        raise ConfigError(f"--strategies: {players} players need 1 or {players} strategies, got {len(slots)}")
    return tuple(seat_strategy(name, **params) for name, params in slots)


def _progress_bar(total: int, quiet: bool):
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=" games", unit_scale=True, delay=PROGRESS_DELAY_S,
                file=sys.stderr, leave=False)


def _print_table(title: str, frame: pd.DataFrame) -> None:
    click.echo(f"\n{title}")
    click.echo(frame.to_string(index=False, float_format=lambda x: f"{x:.4f}"))


def _fail(message: str) -> None:
    click.echo(f"medici-sim: error: {message}", err=True)
    sys.exit(2)


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--games", "-n", type=int, default=100_000, show_default=True, help="Games to play.")
@click.option("--players", "-p", type=int, default=4, show_default=True,
              help=f"Players per game ({MIN_PLAYERS}-{MAX_PLAYERS}).")
@click.option("--strategies", "-s", default="random", show_default=True,
              help="One strategy for every seat, or a comma list with one per seat; "
                   "parameters as name:param=value.")
@click.option("--variant", type=click.Choice(VARIANTS), default="standard", show_default=True,
              help="standard rules, or bonus20: 20 florins for 8+ icons of a good (10+ with 2 players), R19.")
@click.option("--seating", type=click.Choice(["fixed", "rotate", "random"]), default="fixed",
              show_default=True, help="fixed: the i-th strategy sits at seat i; rotate: each game "
                                      "rotates them one seat; random: a random seating per game (R24).")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed (R25).")
@click.option("--threads", "-t", type=int, default=None, help="Threads [default: all cores].")
@click.option("--deck", "deck_path", type=str, default=None,
              help="Deck CSV (count,good,icons,value,green). Default: the built-in reconstruction "
                   "of the 110-card deck (R3-R4), not the publisher's exact breakdown.")
@click.option("--out", "out_path", type=str, default=None,
              help="Write the tables to FILE (.csv, .parquet or .json). CSV/Parquet: the per-seat "
                   "table at FILE, the per-strategy table and the summary beside it as "
                   "FILE-strategies.EXT and FILE-summary.EXT; JSON: all in one file.")
@click.option("--plugin", "plugins", multiple=True, metavar="FILE",
              help="Load strategies from a Python file that registers them (repeatable).")
@click.option("--quiet", "-q", is_flag=True, help="Print no progress bar.")
@click.version_option(__version__, prog_name="medici-sim")
@click.pass_context
def cli(ctx, games, players, strategies, variant, seating, seed, threads, deck_path, out_path, plugins, quiet):
    """Play Medici: The Card Game many times and print per-seat and per-strategy statistics.

    Known strategies: see `medici-sim strategies`.
    """
    for plugin in plugins:
        load_plugin(plugin)
    if ctx.invoked_subcommand is not None:
        return
    deck = load_deck(deck_path) if deck_path else default_deck()
    config = RunConfig(deck=deck, players=players, strategies=parse_strategies(strategies, players),
                       games=games, seed=seed, variant=variant, seating=seating,
                       threads=threads if threads is not None else (os.cpu_count() or 1))
    if out_path:
        check_output_path(out_path)
    warning = deck.shortage_warning(players)
    if warning:
        click.echo(f"medici-sim: warning: {warning}", err=True)
    bar = _progress_bar(games, quiet)
    try:
        result = simulate(config, progress=bar.update if bar else None)
    finally:
        if bar:
            bar.close()
    seats, by_strategy, run = seat_frame(result), strategy_frame(result), summary(result)
    _print_table("Per seat (seat 1 starts day 1, R7; win_rate counts a k-way shared win as 1/k, R22)", seats)
    if config.seating != "fixed" or len(by_strategy) > 1:
        _print_table("Per strategy", by_strategy)
    click.echo("\nRun")
    for key, value in run.items():
        click.echo(f"  {key:18} {value}")
    if out_path:
        for path in write_tables(out_path, {"seats": seats, "strategies": by_strategy}, run):
            click.echo(f"  wrote {path}")


@cli.command("strategies")
def list_strategies():
    """List the strategies and their parameters."""
    for name, strategy in REGISTRY.items():
        params = ", ".join(f"{k}={p.default:g}" for k, p in strategy.params.items()) or "no parameters"
        click.echo(f"{name:10} {strategy.summary} ({params})")


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the command, turning every user error into one line and exit code 2."""
    try:
        cli.main(args=argv, prog_name="medici-sim", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("medici-sim: aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        _fail(exc.format_message().replace("\n", " "))
    except USER_ERRORS as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc))
