"""``medici-sim trace``: one game of a run, told turn by turn with its scoring explained
(``core.tracing``; the Python API's ``medici_sim.trace`` tells the same)."""
from __future__ import annotations

import json

import click

from ..core.plugins import load_plugin
from ..core.registry import GAMES
from ..core.tracing import narrate_game, trace_config
from .common import GAME_HELP, Command, debug_option, deck_option, echo_text, wrap_option


@click.command("trace", cls=Command)
@click.option("--game", "-g", "game_name", type=click.Choice(sorted(GAMES)), default="card", show_default=True,
              help=GAME_HELP)
@click.option("--players", "-p", type=int, default=4, show_default=True,
              help="Players (card: 2-6, R6; classic: 3-6, C1).")
@click.option("--strategies", "-s", default="random", show_default=True,
              help="One strategy for every seat, or a comma list with one per strategy slot; parameters as "
                   "name:param=value (see `medici-sim strategies --game GAME`).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Master seed of the run (R25, C20).")
@click.option("--index", "-i", "index", type=int, default=0, show_default=True,
              help="Which game of the run: 0 <= G < 10**15. Game G of seed S is the same game in every run "
                   "with that seed, whatever its size, threads or batches (R25, C20).")
@click.option("--seating", type=click.Choice(["fixed", "rotate", "random"]), default="fixed", show_default=True,
              help="As in the run: fixed, rotate (game G rotates the strategies G seats) or random (R24, C20).")
@click.option("--variant", default=None,
              help="card: standard [default] or bonus20 (R19); classic: standard only.")
@deck_option()
@click.option("--plugin", "plugins", multiple=True, metavar="FILE",
              help="Load strategies from a Python file that registers them (repeatable).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: the narration; json: the same content as data (keys documented in "
                   "medici_sim.games.card.narrate / medici_sim.games.classic.narrate).")
@wrap_option
@debug_option
def trace_command(game_name, players, strategies, seed, index, seating, variant, deck_path, plugins, output_format,
                  wide):
    """Tell one game of a run turn by turn: game G (--index) of the run with seed S (--seed),
    exactly as the simulation plays it (R25, C20), with any strategies, plug-ins included.

    Card game: each turn's reveals (R9) and takes (R10) and what was left, the end of each
    day (R11, R12), the ships (R13) and each day's scoring with its reasons: the ship
    ranking with ties and shares rounded down to 5 (R14, R15), each good's majority ranking
    (R17), bonuses (R18; R19 under bonus20), the next starting player (R21), and the final
    standings and winners (R22).

    Classic game: each auction's lot (C8), bids and passes (C9), sale or discard (C10), the
    last ship's free cards (C11), the ships (C13), the tracks (C14), majorities with shares
    rounded down to a florin (C15), bonuses (C16), the next starting player (C6) and the
    winners (C18).

    Seats are numbered from 1, seat 1 starting day 1 (R7, C6).
    """
    for plugin in plugins:
        load_plugin(plugin)
    config = trace_config(game=game_name, players=players, strategies=strategies, seed=seed, index=index,
                          seating=seating, variant=variant, deck=deck_path)
    data, text = narrate_game(config, index)
    if output_format == "json":
        click.echo(json.dumps(data, indent=1))
    else:
        echo_text(text, wide, nl=False)
