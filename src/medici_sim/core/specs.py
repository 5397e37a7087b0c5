"""Runs described in words: strategy lists, player counts, threads and component sets, as the
command line and the Python API take them (``name:param=value,...``, ``all`` or ``3,4,5``;
the API also takes lists), checked by ``core.arguments``."""
from __future__ import annotations

from collections.abc import Sequence

from .arguments import ConfigError, comma_list, counts, file_name, named, text, warn
from .driver import MAX_THREADS, RunConfig, SeatStrategy, check_players, check_threads, seat_strategy, usable_cores
from .registry import GAMES, Game, UnknownGame, default_game, get_game, unfitted, unfitted_words


def parse_strategy_list(spec: str | Sequence[str], game: str | None = None, argument: str = "strategies",
                        option: str | None = None) -> tuple[SeatStrategy, ...]:
    """``name[:param=value]...`` separated by commas (or a list of them).

    A ``param=value`` token after a strategy adds another parameter to it, so
    ``first:a=1,b=2,second`` is two strategies. ``argument`` is the
    argument's name (``strategies``, ``against``, ...); ``option``, if given, the words that
    name it in messages instead.
    """
    spec = comma_list(spec, argument)
    option = option or named(argument)
    slots: list[tuple[str, dict[str, str]]] = []
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
            slots[-1][1][key] = value.strip()  # a number, or a name of the parameter's choices (Param.read)
    try:
        return tuple(seat_strategy(name, game, **params) for name, params in slots)
    except ConfigError as exc:  # an unknown strategy or parameter, or a value it refuses: said with the option's name
        if type(exc) is not ConfigError:  # an unknown game (UnknownGame) is the game option's
            raise
        raise ConfigError(f"{option}: {exc}") from None


def parse_strategies(spec: str | Sequence[str], players: int, game: str | None = None) -> tuple[SeatStrategy, ...]:
    """One strategy per seat; a single strategy fills every seat (``game`` None: the default game)."""
    check_players(game_named(game), players)
    slots = parse_strategy_list(spec, game)
    if len(slots) == 1:
        slots *= players
    if len(slots) != players:
        raise ConfigError(f"{named('strategies')}: {players} players need 1 or {players} strategies, "
                          f"got {len(slots)}")
    return slots


def parse_player_counts(spec: str | int | Sequence[int] | None, game: str | None = None) -> list[int]:
    """``all`` (every count the game allows), one count, or a comma list (or a list of counts);
    None: the game's usual count (``Game.default_players``)."""
    definition = game_named(game)
    spec = counts(definition.default_players if spec is None else spec, "players")
    if spec.strip().lower() == "all":
        return list(range(definition.min_players, definition.max_players + 1))
    try:
        numbers = sorted({int(part) for part in spec.split(",")})
    except ValueError:
        raise ConfigError(f"{named('players')} must be 'all' or numbers like 3,4,5, got {spec!r}") from None
    for count in numbers:
        check_players(definition, count)
    return numbers


def default_threads(threads: int | None) -> int:
    """``threads``, or every core this process may use (``driver.usable_cores``: its affinity and
    cgroup quota) when it was not given (0 is a value, and an error, not a default)."""
    return check_threads(threads) if threads is not None else min(usable_cores(), MAX_THREADS)


def load_game_components(game: Game, components_path: str | None):
    """The run's component set: the game's default, or ``components_path``: a shipped set's name or a file (the
    game's ``GameData.load`` reads both); a game without component sets takes none."""
    if game.data is None:
        if components_path is not None:
            raise ConfigError(f"{named('components')}: the {game.name} game has no component files")
        return None
    return game.data.load(None if components_path is None else file_name(components_path, "components"))


def game_named(name: str | None) -> Game:
    """The game called ``name`` (one registered in core.registry; None: the default game)."""
    if name is None:
        return get_game(default_game())
    if text(name, "game") not in GAMES:
        raise UnknownGame(f"{named('game')} must be one of {', '.join(GAMES)}, got {name!r}")
    return GAMES[name]


def run_config(*, game: str | None, players: int | None, strategies: str | Sequence[str] | None, games: int,
               seed: int, rules: str | None, seating: str, threads: int | None, components: str | None) -> RunConfig:
    """A run as the command line and the Python API describe it, every argument checked
    (``players`` None: the game's usual count; ``strategies`` None: the game's baseline, its first built-in,
    at every seat; ``rules`` None: the game's standard rules; ``components`` None: its default component set)."""
    definition = game_named(game)
    players = definition.default_players if players is None else players
    strategies = definition.built_ins[0] if strategies is None else strategies
    config = RunConfig(components=load_game_components(definition, components), players=check_players(definition,
                                                                                                      players),
                       strategies=parse_strategies(strategies, players, definition.name), games=games, seed=seed,
                       rules=definition.presets[0] if rules is None else rules, seating=seating,
                       threads=default_threads(threads), game=definition.name)
    warn_unfitted(definition, [s.name for s in config.strategies], [config.rules])
    return config


def warn_unfitted(game: Game, names: Sequence[str], rules: Sequence[str]) -> None:
    """Say, in one line, that a strategy plays rules other than those it was fitted to."""
    words = unfitted_words(unfitted(game, names, rules))
    if words:
        warn(words)
