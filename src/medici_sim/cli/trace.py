"""``medici-sim trace``: one game of a run, told turn by turn with its scoring explained
(the API tells it: ``api.tell``, as ``medici_sim.trace`` does)."""
from __future__ import annotations

import json

import click

from ..api import TraceRequest, tell
from ..core.registry import GAMES
from .common import (
    BASELINE,
    SEATINGS,
    Command,
    components_option,
    debug_option,
    echo_text,
    game_option,
    per_game,
    players_help,
    rules_option,
    usual_players,
    wrap_option,
)


def _help() -> str:
    """The command's help: what it tells of each registered game (``Presentation.narration_help``)."""
    games = "\n\n".join(f"{g.title}: {g.presentation.narration_help}" for g in GAMES.values()
                        if g.presentation.narration_help)
    return ("Tell one game of a run turn by turn: game G (--index) of the run with seed S (--seed), exactly as "
            f"the simulation plays it ({per_game('seed')}), with any strategies, plug-ins included.\n\n{games}\n\n"
            f"Seats are numbered from 1, seat 1 starting the game ({per_game('seats')}).")


@click.command("trace", cls=Command, help=_help())
@game_option
@click.option("--players", "-p", type=int, default=None, help=f"Players ({players_help()}) {usual_players()}.")
@click.option("--strategies", "-s", default=None,
              help="One strategy for every seat, or a comma list with one per strategy slot; parameters as "
                   f"name:param=value (see `medici-sim strategies --game GAME`). {BASELINE}")
@click.option("--seed", type=int, default=0, show_default=True,
              help=f"Master seed of the run ({per_game('seed')}).")
@click.option("--index", "-i", "index", type=int, default=0, show_default=True,
              help="Which game of the run: 0 <= G < 10**15. Game G of seed S is the same game in every run "
                   f"with that seed, whatever its size, threads or batches ({per_game('seed')}).")
@click.option("--seating", type=SEATINGS, default="fixed", show_default=True,
              help="As in the run: fixed, rotate (game G rotates the strategies G seats) or random "
                   f"({per_game('seating')}).")
@rules_option()
@components_option()
@click.option("--plugin", "plugins", multiple=True, metavar="FILE",
              help="Load strategies from a Python file that registers them (repeatable).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: the narration; json: the same content as data (keys documented in each game's "
                   "narrate module, medici_sim.games.GAME.presentation.narrate).")
@wrap_option
@debug_option
def trace_command(game_name, players, strategies, seed, index, seating, rules, components_path, plugins,
                  output_format,
                  wide):
    report = tell(TraceRequest(index=index, game=game_name, players=players, strategies=strategies, seed=seed,
                               seating=seating, rules=rules, components=components_path, plugins=plugins))
    if output_format == "json":
        click.echo(json.dumps(report.data, indent=1))
    else:
        echo_text(report.text, wide, nl=False)
