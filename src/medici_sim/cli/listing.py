"""``medici-sim strategies``: the strategies of a game and their parameters."""
from __future__ import annotations

import click

from ..core.registry import get_game
from .common import Command, echo_text, game_option, wrap_option

NAME_WIDTH = 10  # the names' column; a description wrapped to the terminal goes on under its start


@click.command("strategies", cls=Command)
@game_option
@wrap_option
def list_strategies(game_name, wide):
    """List a game's strategies and their parameters (a parameter that names a choice, such as search's
    policy, shows its default's name; a spec gives the name or its number)."""
    for name, strategy in get_game(game_name).registry.items():
        params = ", ".join(f"{k}={p.shown(p.default)}" for k, p in strategy.params.items()) or "no parameters"
        echo_text(f"{name:{NAME_WIDTH}} {strategy.summary} ({params})", wide, hang=NAME_WIDTH + 1)
