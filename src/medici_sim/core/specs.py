"""Runs described in words: strategy lists, player counts, threads and decks, as the
command line and the Python API take them (``name:param=value,...``, ``all`` or ``3,4,5``)."""
from __future__ import annotations

import os

from .driver import ConfigError, SeatStrategy, seat_strategy
from .registry import Game, get_game


def parse_strategy_list(spec: str, game: str = "card", option: str = "--strategies") -> tuple[SeatStrategy, ...]:
    """``name[:param=value]...`` separated by commas.

    A ``param=value`` token after a strategy adds another parameter to it, so
    ``collector:focus=1,value_weight=2,greedy`` is two strategies. ``option`` names the
    option in messages.
    """
    slots: list[tuple[str, dict[str, float]]] = []
    for token in (t.strip() for t in spec.split(",")):
        if not token:
            raise ConfigError(f"{option} {spec!r}: empty strategy name")
        name, sep, rest = token.partition(":")
        if not sep and "=" in token:
            if not slots:
                raise ConfigError(f"{option} {spec!r}: parameter {token!r} before any strategy")
            assignments = [token]
        else:
            slots.append((name.strip(), {}))
            assignments = [a for a in rest.split(":") if a.strip()] if sep else []
        for assignment in assignments:
            key, eq, value = assignment.partition("=")
            if not eq:
                raise ConfigError(f"{option}: expected param=value, got {assignment!r}")
            key = key.strip()
            if key in slots[-1][1]:
                raise ConfigError(f"{option}: parameter {key} of {slots[-1][0]} given twice")
            try:
                slots[-1][1][key] = float(value)
            except ValueError:
                raise ConfigError(f"{option}: parameter {key} of {slots[-1][0]} must be a "
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


def default_threads(threads: int | None) -> int:
    """--threads, or every core when it was not given (0 is a value, and an error, not a default)."""
    return threads if threads is not None else (os.cpu_count() or 1)


def load_game_deck(game: Game, deck_path: str | None):
    """The run's deck: the game's default, or ``deck_path``: a shipped deck's name or a deck
    file (the game's ``load_deck`` reads both); a game without decks takes none."""
    if not game.uses_deck:
        if deck_path is not None:
            raise ConfigError(f"--deck: the {game.name} game has no deck files")
        return None
    if deck_path is not None and not deck_path.strip():
        raise ConfigError("--deck: an empty file name")
    return game.load_deck(deck_path)
