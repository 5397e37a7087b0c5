"""The ``medici-sim`` command line.

Bad input never shows a traceback: every user error is one line on stderr and exit code 2,
checked before any game is played, so no output file is ever half-written.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import click
import pandas as pd

from . import __version__, checkpoint
from .analysis import (
    AnalysisDependencyError,
    balance_tables,
    head_to_head_table,
    max_half_width,
    ratings_table,
    strategy_table,
    verdict,
)
from .cluster import connect
from .deck import DeckError, default_deck, load_deck
from .output import OutputError, check_output_path, check_plot_path, check_writable, write_tables
from .plugins import PluginError, load_plugin
from .rules import MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from .simulate import ConfigError, RunConfig, SeatStrategy, Totals, seat_strategy, simulate
from .stats import seat_frame, strategy_frame, summary
from .strategies import BUILT_INS, REGISTRY
from .tournament import Tournament

USER_ERRORS = (ConfigError, DeckError, OutputError, PluginError, AnalysisDependencyError,
               checkpoint.CheckpointError)
INTERRUPTED = 130  # exit code after Ctrl-C (128 + SIGINT)
PROGRESS_DELAY_S = 2.0  # no bar for runs shorter than this


def parse_strategy_list(spec: str) -> tuple[SeatStrategy, ...]:
    """``name[:param=value]...`` separated by commas.

    A ``param=value`` token after a strategy adds another parameter to it, so
    ``collector:focus=1,value_weight=2,greedy`` is two strategies.
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
    return tuple(seat_strategy(name, **params) for name, params in slots)


def parse_strategies(spec: str, players: int) -> tuple[SeatStrategy, ...]:
    """One strategy per seat; a single strategy fills every seat."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ConfigError(f"players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, got {players}")
    slots = parse_strategy_list(spec)
    if len(slots) == 1:
        slots *= players
    if len(slots) != players:
        raise ConfigError(f"--strategies: {players} players need 1 or {players} strategies, got {len(slots)}")
    return slots


def parse_player_counts(spec: str) -> list[int]:
    """``all`` (2-6), one count, or a comma list."""
    if spec.strip().lower() == "all":
        return list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    try:
        counts = sorted({int(part) for part in spec.split(",")})
    except ValueError:
        raise ConfigError(f"--players must be 'all' or numbers like 3,4,5, got {spec!r}") from None
    for count in counts:
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise ConfigError(f"players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, got {count}")
    return counts


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
    one_line = " ".join(message.split("\n"))  # user input quoted in a message may hold newlines
    click.echo(f"medici-sim: error: {one_line}", err=True)
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
@click.option("--checkpoint", "checkpoint_path", default=None, metavar="FILE",
              help="After every batch, save the configuration and the statistics so far to FILE.")
@click.option("--resume", "resume_path", default=None, metavar="FILE",
              help="Continue the run saved in FILE (same options as the run that saved it); "
                   "checkpoints go on to FILE unless --checkpoint names another.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run on an existing Dask cluster (e.g. tcp://host:8786); needs medici-sim[distributed].")
@click.option("--cluster", "cluster_spec", default=None, metavar="local:N",
              help="Start a local Dask cluster of N worker processes for the run.")
@click.option("--quiet", "-q", is_flag=True, help="Print no progress bar.")
@click.version_option(__version__, prog_name="medici-sim")
@click.pass_context
def cli(ctx, games, players, strategies, variant, seating, seed, threads, deck_path, out_path, plugins,
        checkpoint_path, resume_path, scheduler, cluster_spec, quiet):
    """Play Medici: The Card Game many times and print per-seat and per-strategy statistics.

    Known strategies: see `medici-sim strategies`.
    """
    for plugin in plugins:
        load_plugin(plugin)
    if ctx.invoked_subcommand is not None:
        return
    deck = load_deck(deck_path) if deck_path is not None else default_deck()
    config = RunConfig(deck=deck, players=players, strategies=parse_strategies(strategies, players),
                       games=games, seed=seed, variant=variant, seating=seating,
                       threads=threads if threads is not None else (os.cpu_count() or 1))
    if out_path:
        check_output_path(out_path)
    checkpoint_path = checkpoint_path or resume_path
    if checkpoint_path:
        check_writable("--checkpoint", Path(checkpoint_path))
    configuration = run_configuration(config)
    done = Totals.from_dict(checkpoint.load(resume_path, "run", configuration)["totals"]) if resume_path else None
    running = Totals.zeros(players)
    if done is not None:
        running.add(done)
    warning = deck.shortage_warning(players)
    if warning:
        click.echo(f"medici-sim: warning: {warning}", err=True)

    def save(batch: Totals) -> None:
        running.add(batch)
        checkpoint.save(checkpoint_path, "run", configuration, {"totals": running.to_dict()})

    bar = _progress_bar(games, quiet)
    if bar and done is not None:
        bar.update(done.games)
    with connect(scheduler, cluster_spec, _absolute(plugins)) as runner, interruptible() as stop:
        try:
            result = simulate(config, progress=bar.update if bar else None, stop=stop, done=done,
                              on_batch=save if checkpoint_path else None, runner=runner)
        finally:
            if bar:
                bar.close()
    seats, by_strategy, run = seat_frame(result), strategy_frame(result), summary(result)
    if not result.complete:
        click.echo(f"\nPARTIAL RESULTS: interrupted after {result.totals.games} of {games} games")
    _print_table("Per seat (seat 1 starts day 1, R7; win_rate counts a k-way shared win as 1/k, R22)", seats)
    if config.seating != "fixed" or len(by_strategy) > 1:
        _print_table("Per strategy", by_strategy)
    click.echo("\nRun")
    for key, value in run.items():
        click.echo(f"  {key:18} {value}")
    if out_path:
        for path in write_tables(out_path, {"seats": seats, "strategies": by_strategy}, run):
            click.echo(f"  wrote {path}")
    if not result.complete:
        sys.exit(INTERRUPTED)


def _absolute(plugins) -> tuple[str, ...]:
    """Plug-in paths as workers of a cluster can open them."""
    return tuple(str(Path(p).resolve()) for p in plugins)


def run_configuration(config: RunConfig) -> dict:
    """What a checkpoint of the main command must match to be resumed."""
    return {"players": config.players, "games": config.games, "seed": config.seed,
            "variant": config.variant, "seating": config.seating,
            "strategies": checkpoint.strategies_identity(config.strategies),
            "deck": checkpoint.deck_identity(config.deck)}


@contextmanager
def interruptible():
    """A stop request for the run: the first Ctrl-C (SIGINT) asks it to stop after the
    current batch and report what it has; a second one quits at once."""
    stop = threading.Event()

    def handler(signum, frame):
        if stop.is_set():
            os._exit(INTERRUPTED)
        stop.set()
        click.echo("medici-sim: interrupted: stopping after this batch (Ctrl-C again quits at once)", err=True)

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


def study_options(command):
    """The options compare and balance share."""
    options = [
        click.option("--games", "-n", type=int, default=100_000, show_default=True,
                     help="Games per configuration (player count and rules); with --precision, per batch."),
        click.option("--players", "-p", "players_spec", default="all", show_default=True,
                     help="Player counts: all (2-6), one count, or a comma list such as 3,4,5."),
        click.option("--strategies", "-s", "strategies_spec", default=",".join(BUILT_INS), show_default=True,
                     help="The strategies to compare (parameters as name:param=value). With more "
                          "strategies than seats every combination plays; each lineup rotates (R24)."),
        click.option("--seed", type=int, default=0, show_default=True, help="Master seed (R25)."),
        click.option("--threads", "-t", type=int, default=None, help="Threads [default: all cores]."),
        click.option("--deck", "deck_path", default=None, help="Deck CSV (see the main command)."),
        click.option("--out", "out_path", default=None,
                     help="Write the tables: FILE.json holds every table and the summary; FILE.csv or "
                          "FILE.parquet holds the first table, the others go beside it as FILE-<table>.EXT."),
        click.option("--plot", "plot_path", default=None, help="Draw the answer as a PNG figure."),
        click.option("--precision", type=float, default=None,
                     help="Instead of a fixed number of games, play batches of --games until every "
                          "win rate's 95% interval half-width is below this (e.g. 0.005)."),
        click.option("--plugin", "plugins", multiple=True, metavar="FILE", help="Load plug-in strategies."),
        click.option("--checkpoint", "checkpoint_path", default=None, metavar="FILE",
                     help="After every batch, save the configuration and the statistics so far to FILE."),
        click.option("--resume", "resume_path", default=None, metavar="FILE",
                     help="Continue the run saved in FILE (same options as the run that saved it)."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Run on an existing Dask cluster; needs medici-sim[distributed]."),
        click.option("--cluster", "cluster_spec", default=None, metavar="local:N",
                     help="Start a local Dask cluster of N worker processes for the run."),
        click.option("--quiet", "-q", is_flag=True, help="Print no progress bar."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


MAX_PRECISION_GAMES = 10**10  # --precision gives up past this many games per configuration


def _study_setup(games, players_spec, strategies_spec, threads, deck_path, out_path, plot_path, precision, plugins,
                 checkpoint_path):
    for plugin in plugins:
        load_plugin(plugin)
    counts = parse_player_counts(players_spec)
    strategies = parse_strategy_list(strategies_spec)
    deck = load_deck(deck_path) if deck_path is not None else default_deck()
    if games <= 0:
        raise ConfigError(f"games must be a positive integer, got {games}")
    if precision is not None and not 0 < precision < 0.5:
        raise ConfigError(f"--precision must be between 0 and 0.5 (a win-rate half-width), got {precision}")
    if out_path:
        check_output_path(out_path)
    if plot_path:
        check_plot_path(plot_path)
    if checkpoint_path:
        check_writable("--checkpoint", Path(checkpoint_path))
    if threads is not None and threads < 1:
        raise ConfigError(f"threads must be at least 1, got {threads}")
    return counts, strategies, deck, threads or (os.cpu_count() or 1)


def _play(tournaments: list[Tournament], command: str, games: int, precision: float | None, quiet: bool,
          checkpoint_path: str | None, resume_path: str | None, runner) -> bool:
    """Fixed games for each configuration, or batches until the precision is reached; with
    checkpoints and resume, and Ctrl-C stopping after the current batch. True if complete."""
    configuration = {"games": games, "precision": precision, "tournaments": [t.configuration() for t in tournaments]}
    if resume_path:
        saved = checkpoint.load(resume_path, command, configuration)
        for t, progress in zip(tournaments, saved["tournaments"], strict=True):
            t.restore(progress)
    checkpoint_path = checkpoint_path or resume_path
    for t in tournaments:
        t.runner = runner

    def save() -> None:
        checkpoint.save(checkpoint_path, command, configuration, {"tournaments": [t.progress() for t in tournaments]})

    bar = _progress_bar(games * sum(len(t.lineups) for t in tournaments), quiet)
    update = bar.update if bar else None
    on_batch = save if checkpoint_path else None
    try:
        with interruptible() as stop:
            for t in tournaments:
                if t.target == 0:
                    t.play(games, update, stop, on_batch)
                else:  # resumed: finish what the saved run had asked for
                    t.catch_up(update, stop, on_batch)
            while precision is not None and not stop.is_set():
                wide = [t for t in tournaments if max_half_width(t) >= precision]
                if not wide:
                    break
                if any(t.games >= MAX_PRECISION_GAMES for t in wide):
                    raise ConfigError(f"--precision {precision}: not reached after {MAX_PRECISION_GAMES:.0e} games")
                if bar:
                    bar.total += games * sum(len(t.lineups) for t in wide)
                for t in wide:
                    t.play(games, update, stop, on_batch)
            return not stop.is_set()
    finally:
        if bar:
            bar.close()


def _nothing_played() -> None:
    click.echo("medici-sim: interrupted before there was anything to report", err=True)
    sys.exit(INTERRUPTED)


def _played(tournaments: list[Tournament]) -> list[Tournament]:
    """The tournaments with games to report (Ctrl-C may stop a run before some have any)."""
    played = [t for t in tournaments if t.games > 0]
    if not played:
        _nothing_played()
    return played


def _study_summary(tournaments, seed, precision, complete) -> dict:
    elapsed = sum(t.elapsed for t in tournaments)
    games = sum(t.games for t in tournaments)
    return {
        "partial": not complete,
        "configurations": len(tournaments),
        "games_per_configuration": ",".join(str(t.games) for t in tournaments),
        "games": games,
        "precision": precision if precision is not None else "",
        "widest_half_width": round(max(max_half_width(t) for t in tournaments), 5),
        "deck": tournaments[0].deck.name,
        "seed": seed,
        "threads": tournaments[0].threads,
        "elapsed_seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed) if elapsed > 0 else 0,
    }


def _report(tables: dict[str, pd.DataFrame], titles: dict[str, str], run: dict, out_path) -> None:
    if run["partial"]:
        click.echo(f"\nPARTIAL RESULTS: interrupted after {run['games']} games")
    for name, frame in tables.items():
        _print_table(titles[name], frame)
    click.echo("\nRun")
    for key, value in run.items():
        click.echo(f"  {key:24} {value}")
    if out_path:
        for path in write_tables(out_path, tables, run):
            click.echo(f"  wrote {path}")


@cli.command()
@study_options
@click.option("--variant", type=click.Choice(VARIANTS), default="standard", show_default=True,
              help="The rules to play (R19).")
def compare(games, players_spec, strategies_spec, seed, threads, deck_path, out_path, plot_path,
            precision, plugins, checkpoint_path, resume_path, scheduler, cluster_spec, quiet, variant):
    """Which strategy is best, and by how much: a rotated tournament with ratings."""
    counts, strategies, deck, threads = _study_setup(games, players_spec, strategies_spec, threads, deck_path,
                                                     out_path, plot_path, precision, plugins, checkpoint_path)
    tournaments = [Tournament(deck, players, strategies, variant, seed, threads, config_index=i)
                   for i, players in enumerate(counts)]
    with connect(scheduler, cluster_spec, _absolute(plugins)) as runner:
        complete = _play(tournaments, "compare", games, precision, quiet, checkpoint_path, resume_path, runner)
    tournaments = _played(tournaments)
    tables = {
        "strategies": pd.concat([strategy_table(t) for t in tournaments], ignore_index=True),
        "ratings": pd.concat([ratings_table(t) for t in tournaments], ignore_index=True),
        "head_to_head": pd.concat([head_to_head_table(t) for t in tournaments], ignore_index=True),
    }
    titles = {
        "strategies": "Per strategy (win rate counts a k-way shared win as 1/k, R22; 95% intervals)",
        "ratings": f"Bradley-Terry ratings (log-odds of finishing above {tables['ratings']['strategy'].iloc[0]}, "
                   "95% intervals)",
        "head_to_head": "Head to head (above_rate: how often strategy finished above opponent; ties half)",
    }
    _report(tables, titles, _study_summary(tournaments, seed, precision, complete), out_path)
    if plot_path:
        from .plots import plot_compare

        plot_compare(tables["ratings"], tables["head_to_head"], plot_path)
        click.echo(f"  wrote {plot_path}")
    if not complete:
        sys.exit(INTERRUPTED)


@cli.command()
@study_options
def balance(games, players_spec, strategies_spec, seed, threads, deck_path, out_path, plot_path,
            precision, plugins, checkpoint_path, resume_path, scheduler, cluster_spec, quiet):
    """Does the bonus20 variant (R19) change the balance? Standard against bonus20, side by side."""
    counts, strategies, deck, threads = _study_setup(games, players_spec, strategies_spec, threads, deck_path,
                                                     out_path, plot_path, precision, plugins, checkpoint_path)
    # both rules play the same game indices: the same shuffles wherever play coincides
    pairs = [(Tournament(deck, players, strategies, "standard", seed, threads, config_index=i),
              Tournament(deck, players, strategies, "bonus20", seed, threads, config_index=i))
             for i, players in enumerate(counts)]
    tournaments = [t for pair in pairs for t in pair]
    with connect(scheduler, cluster_spec, _absolute(plugins)) as runner:
        complete = _play(tournaments, "balance", games, precision, quiet, checkpoint_path, resume_path, runner)
    pairs = [(std, b20) for std, b20 in pairs if std.games > 0 and b20.games > 0]  # Ctrl-C: what both have
    if not pairs:
        _nothing_played()
    tournaments = [t for pair in pairs for t in pair]
    per_strategy, per_rules = zip(*(balance_tables(std, b20) for std, b20 in pairs), strict=True)
    tables = {"strategies": pd.concat(per_strategy, ignore_index=True),
              "rules": pd.concat(per_rules, ignore_index=True)}
    titles = {
        "strategies": "Win rate by rules (difference: bonus20 minus standard, 95% intervals)",
        "rules": "Seat advantage (seat 1 starts day 1, R7), florin sources, winning margin, "
                 "games the variant decided",
    }
    text = verdict(tables["strategies"], tables["rules"])
    run = {**_study_summary(tournaments, seed, precision, complete), "verdict": text}
    _report(tables, titles, {k: v for k, v in run.items() if k != "verdict"}, None)
    click.echo(f"\nVerdict\n{text}")
    if out_path:
        for path in write_tables(out_path, tables, run):
            click.echo(f"  wrote {path}")
    if plot_path:
        from .plots import plot_balance

        plot_balance(tables["strategies"], plot_path)
        click.echo(f"  wrote {plot_path}")
    if not complete:
        sys.exit(INTERRUPTED)


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
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("medici-sim: interrupted", err=True)
        sys.exit(INTERRUPTED)
    except click.ClickException as exc:
        _fail(exc.format_message().replace("\n", " "))
    except USER_ERRORS as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc))
