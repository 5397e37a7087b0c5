"""What every command shares: parsing, user errors, progress, printing and Ctrl-C.

Bad input never shows a traceback: every user error is one of :data:`USER_ERRORS`, turned
into one line on stderr and exit code 2 by ``main``; it is raised before any game is
played, so no output file is ever half-written.
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

from ..core.checkpoint import CheckpointError
from ..core.driver import ConfigError, IllegalDecision, SeatStrategy, seat_strategy
from ..core.output import OutputError
from ..core.plugins import PluginError
from ..core.registry import GAMES, Game, UnknownGame, get_game
from ..games.card.deck import DeckError
from ..study.analysis import AnalysisDependencyError

USER_ERRORS = (ConfigError, DeckError, OutputError, PluginError, AnalysisDependencyError, CheckpointError,
               UnknownGame, IllegalDecision)
INTERRUPTED = 130  # exit code after Ctrl-C (128 + SIGINT)
PROGRESS_DELAY_S = 2.0  # no bar for runs shorter than this
GAME_HELP = "The game: card (Medici: The Card Game, rules R1-R25) or classic (the 1995 auction game, C1-C21)."


def game_option(command):
    return click.option("--game", "-g", "game_name", type=click.Choice(sorted(GAMES)), default="card",
                        show_default=True, help=GAME_HELP)(command)


def parse_strategy_list(spec: str, game: str = "card") -> tuple[SeatStrategy, ...]:
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
            key = key.strip()
            if key in slots[-1][1]:
                raise ConfigError(f"--strategies: parameter {key} of {slots[-1][0]} given twice")
            try:
                slots[-1][1][key] = float(value)
            except ValueError:
                raise ConfigError(f"--strategies: parameter {key} of {slots[-1][0]} must be a "
                                  f"number, got {value.strip()!r}") from None
    return tuple(seat_strategy(name, game, **params) for name, params in slots)


def check_players(game: Game, players: int) -> int:
    if not game.min_players <= players <= game.max_players:
        raise ConfigError(f"players must be between {game.min_players} and {game.max_players} in the "
                          f"{game.name} game, got {players}")
    return players


def parse_strategies(spec: str, players: int, game: str = "card") -> tuple[SeatStrategy, ...]:
    """One strategy per seat; a single strategy fills every seat."""
    check_players(get_game(game), players)
    slots = parse_strategy_list(spec, game)
    if len(slots) == 1:
        slots *= players
    if len(slots) != players:
        raise ConfigError(f"--strategies: {players} players need 1 or {players} strategies, got {len(slots)}")
    return slots


def parse_player_counts(spec: str, game: str = "card") -> list[int]:
    """``all`` (every count the game allows), one count, or a comma list."""
    definition = get_game(game)
    if spec.strip().lower() == "all":
        return list(range(definition.min_players, definition.max_players + 1))
    try:
        counts = sorted({int(part) for part in spec.split(",")})
    except ValueError:
        raise ConfigError(f"--players must be 'all' or numbers like 3,4,5, got {spec!r}") from None
    for count in counts:
        check_players(definition, count)
    return counts


def load_game_deck(game: Game, deck_path: str | None):
    """The run's deck: the card game's default or ``--deck``; a game without decks takes none."""
    from ..games.card.deck import default_deck, load_deck

    if not game.uses_deck:
        if deck_path is not None:
            raise ConfigError(f"--deck: the {game.name} game has no deck files")
        return None
    return load_deck(deck_path) if deck_path is not None else default_deck()


def progress_bar(total: int, quiet: bool):
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=" games", unit_scale=True, delay=PROGRESS_DELAY_S,
                file=sys.stderr, leave=False)


def print_table(title: str, frame: pd.DataFrame) -> None:
    click.echo(f"\n{title}")
    click.echo(frame.to_string(index=False, float_format=lambda x: f"{x:.4f}"))


def fail(message: str) -> None:
    one_line = " ".join(message.split("\n"))  # user input quoted in a message may hold newlines
    click.echo(f"medici-sim: error: {one_line}", err=True)
    sys.exit(2)


def absolute(plugins) -> tuple[str, ...]:
    """Plug-in paths as workers of a cluster can open them."""
    return tuple(str(Path(p).resolve()) for p in plugins)


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
