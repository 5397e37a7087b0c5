"""Identities saved with a run's configuration: what a resumed run must find again.

A strategy slot is saved as [name, parameters, fingerprint, origin]: the fingerprint hashes
the source files of its decision functions, so a resumed run refuses strategies whose code
changed; a component set is saved by its contents (a moved component set file still resumes). The ``valid_*``
checks read them back from a saved file (``saved.Invalid`` on anything else).
"""
from __future__ import annotations

import csv
import re

from .arguments import named
from .dispatch import strategies_fingerprint
from .driver import ConfigError, SeatStrategy, canonical_rules, seat_strategy
from .registry import GAMES, Game
from .saved import Invalid, as_text, check_keys, show, whole_number

MAX_COMPONENTS_CARDS = 10**6  # far above any component set a game accepts (the game's own parser has the limit)
MAX_ORIGIN = 4096  # characters of a strategy's recorded origin (a plug-in file's path)
_FINGERPRINT = re.compile(r"[0-9a-f]{16}")


def strategies_identity(strategies) -> list:
    """Each strategy slot as [name, parameters, fingerprint, origin]: the fingerprint hashes
    the source files of the strategy's decision functions (None if they cannot be read), the
    origin is "built-in" or where the strategy came from (a plug-in file)."""
    out = []
    for s in strategies:
        registry = GAMES[s.game].registry
        out.append([s.name, dict(s.params), fingerprint_of(registry[s.name]), registry.origin.get(s.name, "built-in")])
    return out


def components_identity(components) -> dict | None:
    """The component set's contents (not its file name: a moved component set file still resumes); None for no
    component set."""
    if components is None:
        return None
    return {"cards": components.n_cards, "fingerprint": components.fingerprint(), "contents": components.to_csv()}


def fingerprint_of(strategy) -> str | None:
    """The strategy's fingerprint (``dispatch.strategies_fingerprint``), None if its source cannot be read."""
    try:
        return strategies_fingerprint(strategy)
    except (OSError, TypeError):  # no source file (defined interactively) or no longer readable
        return None


def saved_components(identity: dict | None, game: Game):
    """The component set a validated configuration's ``components`` entry holds (None for none)."""
    return None if identity is None else game.data.from_text(identity["contents"])


def saved_strategies(identity: list, game: str) -> tuple[SeatStrategy, ...]:
    """The strategy slots a validated configuration's ``strategies`` entry holds."""
    return tuple(seat_strategy(name, game, **params) for name, params, *_ in identity)


def valid_game(value, where: str) -> Game:
    if type(value) is not str or value not in GAMES:
        raise Invalid(f"{where} is {show(value)}, not a game medici-sim knows ({', '.join(GAMES)})")
    return GAMES[value]


def valid_players(value, where: str, game: Game) -> int:
    if type(value) is not int or not game.min_players <= value <= game.max_players:
        raise Invalid(f"{where} is {show(value)}, but the {game.name} game takes {game.min_players} to "
                      f"{game.max_players} players")
    return value


def valid_rules(value, where: str, game: Game, players: int) -> str:
    """A saved rule set: a rules spec naming one at ``players`` (a preset's name, as every
    checkpoint before rules were data saved), kept as saved."""
    try:
        canonical_rules(game, value, players)
    except ConfigError as exc:
        raise Invalid(f"{where} is {show(value)}, which names no rule set of the {game.name} game: "
                      f"{str(exc).partition(': ')[2] or exc}") from None
    return value


def valid_strategies(value, where: str, game: Game, count: int | None) -> tuple[SeatStrategy, ...]:
    if type(value) is not list or not value:
        raise Invalid(f"{where} is {show(value)}, not a list of strategies")
    if count is not None and len(value) != count:
        raise Invalid(f"{where} has {len(value)} strategies, but {count} players need {count}")
    return tuple(_strategy(entry, f"{where}[{i}]", game) for i, entry in enumerate(value))


def _strategy(entry, where: str, game: Game) -> SeatStrategy:
    if type(entry) is not list or len(entry) != 4:
        raise Invalid(f"{where} is {show(entry)}, not [name, parameters, fingerprint, origin]")
    name, params, fingerprint, origin = entry
    if type(origin) is not str or not origin or len(origin) > MAX_ORIGIN:
        raise Invalid(f"{where}[3] is {show(origin)}, not where the strategy came from")
    if fingerprint is not None and (type(fingerprint) is not str or not _FINGERPRINT.fullmatch(fingerprint)):
        raise Invalid(f"{where}[2] is {show(fingerprint)}, not a strategy fingerprint")
    if type(name) is not str or name not in game.registry:
        if type(name) is str and name.isidentifier() and origin != "built-in":
            raise Invalid(f"strategy {name} is not registered; the checkpoint's run had it from {as_text(origin)} "
                          f"(load it with {named('plugins')})")
        raise Invalid(f"{where}[0] is {show(name)}, not a strategy of the {game.name} game")
    declared = game.registry[name].params
    if type(params) is not dict:
        raise Invalid(f"{where}[1] is {show(params)}, not the parameters of {name}")
    for key in declared:
        if key not in params:
            raise Invalid(f"{where}[1] lacks parameter {key} of {name}")
    for key, value in params.items():
        if key not in declared:
            raise Invalid(f"{where}[1] has {show(key)}, not a parameter of {name}")
        if type(value) is not float:
            raise Invalid(f"{where}[1].{key} is {show(value)}, not a number with a decimal point")
    try:
        slot = seat_strategy(name, game.name, **params)
    except ConfigError as exc:
        raise Invalid(f"{where}: {exc}") from None
    if fingerprint != fingerprint_of(game.registry[name]):
        raise Invalid(f"the code of strategy {name} changed since the checkpoint was saved")
    return slot


def valid_components(value, where: str, game: Game):
    if game.data is None:
        if value is not None:
            raise Invalid(f"{where} is {show(value)}, but the {game.name} game takes no component set")
        return None
    check_keys(value, where, ("cards", "fingerprint", "contents"))
    cards = whole_number(value["cards"], f"{where}.cards", 1, MAX_COMPONENTS_CARDS)
    contents = value["contents"]
    if type(contents) is not str:
        raise Invalid(f"{where}.contents is {show(contents)}, not the {game.data.noun}'s text")
    try:
        components = game.data.from_text(contents)
    except (csv.Error, ValueError) as exc:
        raise Invalid(f"{where}.contents: {exc}") from None
    if components.n_cards != cards:
        raise Invalid(f"{where}.cards is {cards}, but its contents hold {components.n_cards} {game.data.unit}")
    if value["fingerprint"] != components.fingerprint():
        raise Invalid(f"{where}.fingerprint is {show(value['fingerprint'])}, but its contents have fingerprint "
                      f"{components.fingerprint()}")
    return components
