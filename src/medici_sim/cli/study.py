"""``compare`` and ``balance``: tournaments that answer questions, with intervals and verdicts."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click
import pandas as pd

from ..core import checkpoint
from ..core.cluster import connect
from ..core.driver import ConfigError
from ..core.output import check_output_path, check_plot_path, check_writable, write_tables
from ..core.plugins import load_plugin
from ..core.registry import GAMES, get_game
from ..core.tournament import Tournament
from ..study.analysis import balance_tables, head_to_head_table, max_half_width, ratings_table, strategy_table, verdict
from .common import (
    GAME_HELP,
    INTERRUPTED,
    absolute,
    interruptible,
    load_game_deck,
    parse_player_counts,
    parse_strategy_list,
    print_table,
    progress_bar,
)


def study_options(command):
    """The options compare and balance share."""
    options = [
        click.option("--game", "-g", "game_name", type=click.Choice(sorted(GAMES)), default="card",
                     show_default=True, help=GAME_HELP),
        click.option("--games", "-n", type=int, default=100_000, show_default=True,
                     help="Games per configuration (player count and rules); with --precision, per batch."),
        click.option("--players", "-p", "players_spec", default="all", show_default=True,
                     help="Player counts: all (every count the game allows), one count, or a comma list such as 3,4,5."),
        click.option("--strategies", "-s", "strategies_spec", default=None,
                     help="The strategies to compare (parameters as name:param=value) [default: the game's "
                          "built-ins]. With more strategies than seats every combination plays; each lineup "
                          "rotates (R24)."),
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


def _study_setup(game_name, games, players_spec, strategies_spec, threads, deck_path, out_path, plot_path, precision,
                 plugins, checkpoint_path):
    for plugin in plugins:
        load_plugin(plugin)
    game = get_game(game_name)
    counts = parse_player_counts(players_spec, game.name)
    strategies = parse_strategy_list(strategies_spec or ",".join(game.built_ins), game.name)
    deck = load_game_deck(game, deck_path)
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
    return game, counts, strategies, deck, threads or (os.cpu_count() or 1)


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

    bar = progress_bar(games * sum(len(t.lineups) for t in tournaments), quiet)
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
        "game": tournaments[0].game,
        **({"deck": tournaments[0].deck.name} if tournaments[0].deck is not None else {}),
        "seed": seed,
        "threads": tournaments[0].threads,
        "elapsed_seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed) if elapsed > 0 else 0,
    }


def _report(tables: dict[str, pd.DataFrame], titles: dict[str, str], run: dict, out_path) -> None:
    if run["partial"]:
        click.echo(f"\nPARTIAL RESULTS: interrupted after {run['games']} games")
    for name, frame in tables.items():
        print_table(titles[name], frame)
    click.echo("\nRun")
    for key, value in run.items():
        click.echo(f"  {key:24} {value}")
    if out_path:
        for path in write_tables(out_path, tables, run):
            click.echo(f"  wrote {path}")


@click.command()
@study_options
@click.option("--variant", default=None, help="The rules to play (card: standard or bonus20, R19) [default: the game's standard rules].")
def compare(game_name, games, players_spec, strategies_spec, seed, threads, deck_path, out_path, plot_path,
            precision, plugins, checkpoint_path, resume_path, scheduler, cluster_spec, quiet, variant):
    """Which strategy is best, and by how much: a rotated tournament with ratings."""
    game, counts, strategies, deck, threads = _study_setup(game_name, games, players_spec, strategies_spec, threads,
                                                           deck_path, out_path, plot_path, precision, plugins,
                                                           checkpoint_path)
    variant = game.variants[0] if variant is None else variant
    if variant not in game.variants:
        raise ConfigError(f"--variant: the {game.name} game's rules are {', '.join(game.variants)}, got {variant!r}")
    tournaments = [Tournament(deck, players, strategies, variant, seed, threads, config_index=i, game=game.name)
                   for i, players in enumerate(counts)]
    with connect(scheduler, cluster_spec, absolute(plugins)) as runner:
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
        from ..study.plots import plot_compare

        plot_compare(tables["ratings"], tables["head_to_head"], plot_path)
        click.echo(f"  wrote {plot_path}")
    if not complete:
        sys.exit(INTERRUPTED)


@click.command()
@study_options
def balance(game_name, games, players_spec, strategies_spec, seed, threads, deck_path, out_path, plot_path,
            precision, plugins, checkpoint_path, resume_path, scheduler, cluster_spec, quiet):
    """Does the bonus20 variant (R19) change the balance? Standard against bonus20, side by side."""
    game, counts, strategies, deck, threads = _study_setup(game_name, games, players_spec, strategies_spec, threads,
                                                           deck_path, out_path, plot_path, precision, plugins,
                                                           checkpoint_path)
    if game.variants != ("standard", "bonus20"):
        raise ConfigError(f"balance compares the card game's standard rules with its bonus20 variant (R19); "
                          f"the {game.name} game has no variants to compare (use compare --game {game.name})")
    # both rules play the same game indices: the same shuffles wherever play coincides
    pairs = [(Tournament(deck, players, strategies, "standard", seed, threads, config_index=i),
              Tournament(deck, players, strategies, "bonus20", seed, threads, config_index=i))
             for i, players in enumerate(counts)]
    tournaments = [t for pair in pairs for t in pair]
    with connect(scheduler, cluster_spec, absolute(plugins)) as runner:
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
        from ..study.plots import plot_balance

        plot_balance(tables["strategies"], plot_path)
        click.echo(f"  wrote {plot_path}")
    if not complete:
        sys.exit(INTERRUPTED)
