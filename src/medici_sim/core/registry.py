"""Games and strategies, registered by name (plain Python; imports no game).

- A :class:`Game` describes one game to the rest of the package: its player counts,
  rule variants, the decisions its strategies make, its jitted entry point, the inputs
  that entry point takes and the extra statistics it counts. Each game's package builds
  one and calls :func:`register_game`; nothing in ``core`` names a game.
- A :class:`Strategy` is a name, one ``@njit`` function per decision of its game, its
  parameters (:class:`Param`) and a one-line summary. Each game owns a
  :class:`StrategyRegistry`; ``register`` adds a strategy (built-in or plug-in) to it.

Every game's state record has the fields the shared code relies on: ``rng`` (uint64[1]),
``seat_slot``, ``seat_strategy`` (int64[MAX_PLAYERS]), ``seat_params``
(float64[MAX_PLAYERS, MAX_PARAMS]) and ``scratch`` (float64[MAX_PLAYERS, SCRATCH_WIDTH]).
"""
from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

MAX_PARAMS = 8  # floats of strategy parameters per seat
SCRATCH_WIDTH = 64  # floats of working memory per seat, cleared before every game (the engine never reads it)
# A kernel that meets a decision the rules forbid raises ValueError(ILLEGAL, seat, strategy id, what it did);
# the driver turns that into a message naming the strategy and the seat.
ILLEGAL = "illegal decision"


@dataclass(frozen=True)
class Param:
    """A strategy parameter: its default, the values it accepts, and what it means."""

    default: float
    low: float = -math.inf
    high: float = math.inf
    integer: bool = False
    help: str = ""

    def check(self, strategy: str, name: str, value: float) -> float:
        """The value, or ValueError saying why it is not acceptable."""
        if not math.isfinite(value) or not self.low <= value <= self.high:
            raise ValueError(f"parameter {name} of {strategy} must be between {self.low:g} and "
                             f"{self.high:g}, got {value!r}")
        if self.integer and value != int(value):
            raise ValueError(f"parameter {name} of {strategy} must be a whole number, got {value!r}")
        return float(value)


@dataclass(frozen=True)
class Strategy:
    """A named strategy: one jitted function per decision of its game, ``fn(state, seat, params)``."""

    name: str
    decisions: dict[str, Callable]  # decision name -> @njit function
    params: dict[str, Param] = field(default_factory=dict)  # in the order of the params tuple
    summary: str = ""

    def __hash__(self) -> int:
        return hash(self.name)


class StrategyRegistry:
    """The strategies of one game, in registration order.

    A strategy whose decision functions live in the game's own package is a built-in; any
    other (a plug-in, or one registered from a notebook) is dispatched to only by the runs
    that use it (``dispatch.strategy_table``).
    """

    def __init__(self, game: str, decisions: tuple[str, ...], package: str):
        self.game = game
        self.decisions = decisions  # the decision functions every strategy of this game defines
        self.package = package  # the game's package, e.g. "medici_sim.games.card"
        self.package_dir = Path(sys.modules[package].__file__).parent  # its sources: hashed into table names
        self.strategies: dict[str, Strategy] = {}
        self.origin: dict[str, str] = {}  # strategy name -> "built-in", or where it came from

    def register(self, strategy: Strategy, origin: str | None = None) -> Strategy:
        """Add a strategy under its name (replacing one of the same name)."""
        if not isinstance(strategy, Strategy):
            raise TypeError(f"register() takes a Strategy, got {type(strategy).__name__}")
        if not strategy.name.isidentifier():
            raise ValueError(f"strategy name must be an identifier, got {strategy.name!r}")
        if len(strategy.params) > MAX_PARAMS:
            raise ValueError(f"strategy {strategy.name} has more than {MAX_PARAMS} parameters")
        if not isinstance(strategy.decisions, dict) or set(strategy.decisions) != set(self.decisions):
            raise ValueError(f"strategy {strategy.name}: a {self.game} strategy defines exactly the decisions "
                             f"{', '.join(self.decisions)}")
        for fn in strategy.decisions.values():
            if not hasattr(fn, "py_func"):
                raise TypeError(f"strategy {strategy.name}: {fn!r} is not a numba @njit function")
        for name, param in strategy.params.items():
            if not isinstance(param, Param):
                raise TypeError(f"strategy {strategy.name}: parameter {name} is not a Param")
        modules = {fn.py_func.__module__ for fn in strategy.decisions.values()}
        built_in = all(m.startswith(self.package + ".") for m in modules)
        self.strategies[strategy.name] = strategy
        self.origin[strategy.name] = origin or ("built-in" if built_in else ", ".join(sorted(modules)))
        return strategy

    def __getitem__(self, name: str) -> Strategy:
        return self.strategies[name]

    def __contains__(self, name: object) -> bool:
        return name in self.strategies

    def __iter__(self):
        return iter(self.strategies)

    def __len__(self) -> int:
        return len(self.strategies)

    def values(self):
        return self.strategies.values()

    def items(self):
        return self.strategies.items()


@dataclass(frozen=True)
class StatColumn:
    """A per-seat statistic a game adds to the common ones: ``mean`` (total / games) or
    ``ratio`` (total / the total of column ``per``)."""

    name: str
    kind: str = "mean"
    per: str = ""


@dataclass(frozen=True)
class Game:
    """One game as the shared code sees it."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    variants: tuple[str, ...]  # the first is the default
    registry: StrategyRegistry
    built_ins: tuple[str, ...]
    play_games_nb: Callable  # (seed, first_game, n_games, inputs, seating, slot_strategy, slot_params,
    #                           seat_stats, slot_stats, pair_stats, run_stats, table) -> None
    kernel_inputs: Callable  # (RunConfig) -> the one-element state buffer every game of the run starts from (read-only)
    stat_columns: tuple[StatColumn, ...]  # per seat / slot, after the common columns
    run_columns: tuple[str, ...]  # run-wide counters, after the common ones
    rules_page: str  # the docs page holding the game's rules
    uses_deck: bool = False  # True if the game takes a deck file (--deck)
    load_deck: Callable | None = None  # (path or None) -> the deck of that file, or the game's default deck
    deck_from_text: Callable | None = None  # (a deck's file contents) -> the deck (checkpoints hold decks as text)
    check_config: Callable | None = None  # (RunConfig) -> None, raises ValueError for an unplayable run
    trace: Callable | None = None  # (Kernel, game_index) -> a trace whose .record() is the reference's record
    reference_game: Callable | None = None  # (RunConfig, game_index) -> the reference engine's record of that game
    reference_strategies: Callable | None = None  # () -> the strategy names the reference engine plays
    invariants: Callable | None = None  # (record, RunConfig) -> None; AssertionError names a broken invariant
    # what the game adds to the consistency rules of saved totals (core.checkpoint): an object with
    # row(row, where, games, players, variant) and run(run, where, games, players, variant), raising
    # accounting.InconsistentTotals
    totals_rules: object | None = None
    narrate: Callable | None = None  # (Kernel, game_index) -> (data, text): the kernel's game told turn by turn
    #                                   with its scoring explained (JSON-serialisable dict, text; `medici-sim trace`)

    def variant_id(self, variant: str) -> int:
        return self.variants.index(variant)


GAMES: dict[str, Game] = {}


def register_game(game: Game) -> Game:
    GAMES[game.name] = game
    return game


class UnknownGame(ValueError):
    pass


def get_game(name: str) -> Game:
    if name not in GAMES:  # the games register themselves when medici_sim is imported
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return GAMES[name]
