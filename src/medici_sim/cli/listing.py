"""``medici-sim strategies``: the strategies of a game and their parameters."""
from __future__ import annotations

import click

from ..core.registry import get_game
from .common import Command, game_option


@click.command("strategies", cls=Command)
@game_option
def list_strategies(game_name):
    """List a game's strategies and their parameters."""
    for name, strategy in get_game(game_name).registry.items():
        params = ", ".join(f"{k}={p.default:g}" for k, p in strategy.params.items()) or "no parameters"
        click.echo(f"{name:10} {strategy.summary} ({params})")
