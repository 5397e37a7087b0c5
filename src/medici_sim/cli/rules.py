"""``medici-sim rules``: a game's rule parameters, their values under a rule set, and its presets."""
from __future__ import annotations

import json

import click

from .. import api
from .common import Command, echo_text, game_option, rules_option, wrap_option
from .tables import width

COLUMNS = ("name", "value", "default", "range", "point")  # then the meaning, wrapped under its start
MEANING_WIDTH = 30  # the narrowest column the meanings are wrapped in beside the others; narrower: below them


@click.command("rules", cls=Command)
@game_option
@click.option("--players", "-p", type=int, default=None, help="Players (the rulebook varies some values with them) "
                                                             "[default: the game's usual count].")
@rules_option()
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a table; json: the same as one JSON object.")
@wrap_option
def rules_command(game_name, players, rules, output_format, wide):
    """List a game's rule parameters: value, default, range, rule point and meaning (R*, C*)."""
    table = api.rules(game_name, players=players, rules=rules)
    if output_format == "json":
        click.echo(json.dumps({"game": game_name, "players": table.attrs["players"], "rules": table.attrs["rules"],
                               "parameters": table.to_dict("records"), "presets": table.attrs["presets"]}, indent=2))
        return
    echo_text(f"{table.attrs['title']}, {table.attrs['players']} players, rules: {table.attrs['rules']}", wide)
    widths = {column: max(len(column), *(len(str(v)) for v in table[column])) for column in COLUMNS}
    indent = sum(widths.values()) + 2 * len(COLUMNS)
    below = not wide and indent + MEANING_WIDTH > width()  # too narrow beside the columns: under them, as text
    if not wide and indent - 2 > width():  # narrower than the columns themselves: a parameter a block of text
        for row in table.to_dict("records"):
            echo_text(f"{row['name']} {row['value']} (default {row['default']}; range {row['range']}; "
                      f"{row['point']})", wide, hang=4)
            echo_text(f"    {row['meaning']}", wide, hang=0)
    else:
        _columns(table, widths, indent, below, wide)
    for name, meaning in table.attrs["presets"].items():
        echo_text(f"preset {name}: {meaning}", wide, hang=2)


def _columns(table, widths: dict[str, int], indent: int, below: bool, wide: bool) -> None:
    """The parameters as a table: the meanings beside the columns, or under each row (``below``)."""
    click.echo("  ".join(f"{column:{widths[column]}}" for column in COLUMNS).rstrip() + ("" if below else "  meaning"))
    for row in table.to_dict("records"):
        line = "  ".join(f"{row[column]:{widths[column]}}" for column in COLUMNS)
        if below:
            click.echo(line.rstrip())
            echo_text(f"    {row['meaning']}", wide, hang=0)
        else:
            echo_text(line + "  " + row["meaning"], wide, hang=indent)
