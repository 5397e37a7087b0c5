"""The main command: play one configuration many times; per-seat and per-strategy tables."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..core import checkpoint
from ..core.cluster import connect
from ..core.driver import RunConfig, Totals, simulate
from ..core.output import check_output_path, check_writable, write_tables
from ..core.registry import get_game
from ..core.stats import seat_frame, strategy_frame, summary
from .common import INTERRUPTED, absolute, interruptible, load_game_deck, parse_strategies, print_table, progress_bar


def run_configuration(config: RunConfig) -> dict:
    """What a checkpoint of the main command must match to be resumed."""
    return {"game": config.game, "players": config.players, "games": config.games, "seed": config.seed,
            "variant": config.variant, "seating": config.seating,
            "strategies": checkpoint.strategies_identity(config.strategies),
            "deck": checkpoint.deck_identity(config.deck)}


def run_main(game_name, games, players, strategies, variant, seating, seed, threads, deck_path, out_path,
             plugins, checkpoint_path, resume_path, scheduler, cluster_spec, quiet) -> None:
    game = get_game(game_name)
    deck = load_game_deck(game, deck_path)
    config = RunConfig(deck=deck, players=players, strategies=parse_strategies(strategies, players, game.name),
                       games=games, seed=seed, variant=game.variants[0] if variant is None else variant, seating=seating,
                       threads=threads if threads is not None else (os.cpu_count() or 1), game=game.name)
    if out_path:
        check_output_path(out_path)
    checkpoint_path = checkpoint_path or resume_path
    if checkpoint_path:
        check_writable("--checkpoint", Path(checkpoint_path))
    configuration = run_configuration(config)
    done = None
    if resume_path:
        done = Totals.from_dict(checkpoint.load(resume_path, "run", configuration)["totals"])
    running = Totals.zeros(players, game)
    if done is not None:
        running.add(done)
    warning = deck.shortage_warning(players) if deck is not None else None
    if warning:
        click.echo(f"medici-sim: warning: {warning}", err=True)

    def save(batch: Totals) -> None:
        running.add(batch)
        checkpoint.save(checkpoint_path, "run", configuration, {"totals": running.to_dict()})

    bar = progress_bar(games, quiet)
    if bar and done is not None:
        bar.update(done.games)
    with connect(scheduler, cluster_spec, absolute(plugins)) as runner, interruptible() as stop:
        try:
            result = simulate(config, progress=bar.update if bar else None, stop=stop, done=done,
                              on_batch=save if checkpoint_path else None, runner=runner)
        finally:
            if bar:
                bar.close()
    seats, by_strategy, run = seat_frame(result), strategy_frame(result), summary(result)
    if not result.complete:
        click.echo(f"\nPARTIAL RESULTS: interrupted after {result.totals.games} of {games} games")
    start, shared = ("R7", "R22") if game.name == "card" else ("C6", "C18")
    print_table(f"Per seat (seat 1 starts day 1, {start}; win_rate counts a k-way shared win as 1/k, {shared})", seats)
    if config.seating != "fixed" or len(by_strategy) > 1:
        print_table("Per strategy", by_strategy)
    click.echo("\nRun")
    for key, value in run.items():
        click.echo(f"  {key:18} {value}")
    if out_path:
        for path in write_tables(out_path, {"seats": seats, "strategies": by_strategy}, run):
            click.echo(f"  wrote {path}")
    if not result.complete:
        sys.exit(INTERRUPTED)
