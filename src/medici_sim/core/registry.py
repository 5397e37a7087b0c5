"""Games and strategies, registered by name (plain Python; imports no game).

- A :class:`Game` (core.contract: the game contract, in declared parts) describes one game to
  the rest of the package. Each game's package builds one and calls :func:`register_game`;
  nothing in ``core`` names a game.
- A :class:`Strategy` is a name, one ``@njit`` function per decision of its game, its
  parameters (:class:`Param`) and a one-line summary. Each game owns a
  :class:`StrategyRegistry`; ``register`` adds a strategy (built-in or plug-in) to it.

Every game's state record has the fields the shared code relies on: ``rng`` (uint64[1]),
``seat_slot``, ``seat_strategy`` (int64[MAX_PLAYERS]), ``seat_params``
(float64[MAX_PLAYERS, MAX_PARAMS]) and ``scratch`` (float64[MAX_PLAYERS, SCRATCH_WIDTH]).
"""
from __future__ import annotations

import importlib
import math
import numbers
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .contract import Game

MAX_PARAMS = 8  # floats of strategy parameters per seat
SCRATCH_WIDTH = 64  # floats of working memory per seat, cleared before every game (the engine never reads it)
# A kernel that meets a decision the rules forbid raises ValueError(ILLEGAL, seat, strategy id, what it did);
# the driver turns that into a message naming the strategy and the seat.
ILLEGAL = "illegal decision"
# The name of the person at the table in `medici-sim play` (core.human registers it). Like the
# built-ins' names, only medici-sim's own code may register it: a plug-in that took it would
# take over the person's seat.
HUMAN = "human"
_PACKAGE = __name__.partition(".")[0]  # medici_sim


class RegistrationError(ValueError):
    """A strategy that cannot be registered (a name taken, a bad parameter); the message says why."""


@dataclass(frozen=True)
class Param:
    """A strategy parameter: its default, the values it accepts, and what it means.

    ``choices``: names of its whole numbers ``low``, ``low + 1`` ... ``high`` in order (a choice among
    named things, such as the built-in a rollout plays): a spec may give the name or the number."""

    default: float
    low: float = -math.inf
    high: float = math.inf
    integer: bool = False
    help: str = ""
    choices: tuple[str, ...] = ()

    def read(self, strategy: str, name: str, given: float | str) -> float:
        """The number ``given`` stands for (a number, its text, or one of the ``choices``), checked;
        ValueError saying why it is not acceptable (naming the choices, where there are any)."""
        if isinstance(given, str):
            word = given.strip()
            if word in self.choices:
                return self.check(strategy, name, self.low + self.choices.index(word))
            try:
                given = float(word)
            except ValueError:
                names = f" or one of {', '.join(self.choices)}" if self.choices else ""
                raise ValueError(f"parameter {name} of {strategy} must be a number{names}, got {word!r}") from None
        return self.check(strategy, name, float(given))

    def shown(self, value: float) -> str:
        """The value as a spec writes it: its choice's name, where it has one, else the number."""
        index = int(value - self.low) if self.choices and value == int(value) else -1
        return self.choices[index] if 0 <= index < len(self.choices) else f"{value:g}"

    def check(self, strategy: str, name: str, value: float) -> float:
        """The value, or ValueError saying why it is not acceptable."""
        if not math.isfinite(value) or not self.low <= value <= self.high:
            raise ValueError(f"parameter {name} of {strategy} must be between {self.low:g} and "
                             f"{self.high:g}, got {format_number(value)}")
        if self.integer and value != int(value):
            raise ValueError(f"parameter {name} of {strategy} must be a whole number, got {format_number(value)}")
        return float(value)

    def check_declaration(self, strategy: str, name: str) -> None:
        """RegistrationError (TypeError) unless this is a usable parameter: numbers, low <= high,
        and a default that ``check`` accepts."""
        values = {"default": self.default, "low": self.low, "high": self.high}
        for what, value in values.items():
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise TypeError(f"strategy {strategy}: the {what} of parameter {name} is {value!r}, not a number")
        if not self.low <= self.high:  # NaN too
            raise RegistrationError(f"strategy {strategy}: parameter {name} has low {self.low!r} above "
                                    f"high {self.high!r}")
        if self.choices and (not self.integer or len(self.choices) != self.high - self.low + 1
                             or len(set(self.choices)) != len(self.choices)
                             or not all(isinstance(c, str) and c.isidentifier() for c in self.choices)):
            raise RegistrationError(f"strategy {strategy}: parameter {name} names {len(self.choices)} choices, "
                                    f"not one distinct name (letters, digits, _) for each whole number "
                                    f"{self.low:g}..{self.high:g}")
        try:
            self.check(strategy, name, self.default)
        except ValueError as exc:
            raise RegistrationError(f"strategy {strategy}: the default of parameter {name} is not one of its "
                                    f"values: {exc}") from None


def format_number(value: float) -> str:
    """The shortest text that reads back as exactly ``value`` (2.0 -> "2", 0.1 -> "0.1")."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True)
class Strategy:
    """A named strategy: one jitted function per decision of its game, ``fn(state, seat, params)``."""

    name: str
    decisions: dict[str, Callable]  # decision name -> @njit function
    params: dict[str, Param] = field(default_factory=dict)  # in the order of the params tuple
    summary: str = ""
    untunable: str = ""  # why ``tune`` cannot tune it (a searcher: its games cost thousands), or ""
    # the rule sets (canonical specs, e.g. the game's presets) it was fitted to, if it was (a learned
    # evaluation, trained under them); () for a strategy that reads the rules and plays any of them
    fitted_to: tuple[str, ...] = ()
    # a built-in cheap enough to be compiled into its game's play loop, called there directly rather than
    # through its compiled wrapper's address (core.dispatch): a few instructions a decision, where the call
    # itself would cost as much; a game's own built-ins only (their sources are the loop's)
    inline: bool = False
    # the optional parts of its game's state it reads (the registry's ``optional_parts``: summaries a game keeps
    # for strategies, such as the Medici games' unseen-card sums): a part no seated strategy reads is not kept up
    # to date in a run's games (the cheap strategies' games ran 4% faster without the classic game's). None, the
    # default: every part, so that none is ever stale under a strategy that did not say what it reads
    reads: tuple[str, ...] | None = None

    def fits(self, rules: str) -> bool:
        """Whether it plays the rule set ``rules`` (a canonical spec) as it was made to."""
        return not self.fitted_to or rules in self.fitted_to

    def __hash__(self) -> int:
        return hash(self.name)


class StrategyRegistry:
    """The strategies of one game, in registration order.

    A strategy whose decision functions live in the game's own package is a built-in; any
    other (a plug-in, or one registered from a notebook) is dispatched to only by the runs
    that use it (``dispatch.strategy_table``).
    """

    def __init__(self, game: str, decisions: tuple[str, ...], package: str, shared: tuple[str, ...] = (),
                 optional_parts: tuple[str, ...] = ()):
        self.game = game
        self.decisions = decisions  # the decision functions every strategy of this game defines
        self.optional_parts = optional_parts  # the parts of the state kept only for strategies that read them
        self.package = package  # the game's package (medici_sim.games.GAME for a shipped game)
        self.package_dir = Path(sys.modules[package].__file__).parent  # its sources: hashed into table names
        # and those of the packages its kernels compile beside it (a family's toolkit: games/medici), hashed too
        self.source_dirs = (self.package_dir,
                            *(Path(importlib.import_module(name).__file__).parent for name in shared))
        self.strategies: dict[str, Strategy] = {}
        self.origin: dict[str, str] = {}  # strategy name -> "built-in", or where it came from

    def register(self, strategy: Strategy, origin: str | None = None) -> Strategy:
        """Add a strategy under its name.

        A name belongs to whoever registered it first: a built-in's name (and ``human``) is
        refused to any other code, and a name already registered from another module is
        refused naming both files (a plug-in would otherwise silently replace a strategy).
        The module that registered a name may register it again (a notebook cell run twice).
        """
        if not isinstance(strategy, Strategy):
            raise TypeError(f"register() takes a Strategy, got {type(strategy).__name__}")
        if not strategy.name.isidentifier():
            raise RegistrationError(f"strategy name must be an identifier, got {strategy.name!r}")
        if len(strategy.params) > MAX_PARAMS:
            raise RegistrationError(f"strategy {strategy.name} has more than {MAX_PARAMS} parameters")
        if not isinstance(strategy.decisions, dict) or set(strategy.decisions) != set(self.decisions):
            raise RegistrationError(f"strategy {strategy.name}: a {self.game} strategy defines exactly the "
                                    f"decisions {', '.join(self.decisions)}")
        for fn in strategy.decisions.values():
            if not hasattr(fn, "py_func"):
                raise TypeError(f"strategy {strategy.name}: {fn!r} is not a numba @njit function")
        for name, param in strategy.params.items():
            if not isinstance(param, Param):
                raise TypeError(f"strategy {strategy.name}: parameter {name} is not a Param")
            if not isinstance(name, str) or not name.isidentifier():
                raise RegistrationError(f"strategy {strategy.name}: parameter name must be an identifier, "
                                        f"got {name!r}")
            param.check_declaration(strategy.name, name)
        reads = strategy.reads
        if reads is not None and not (isinstance(reads, tuple)
                                      and all(isinstance(part, str) and part in self.optional_parts for part in reads)):
            parts = ", ".join(self.optional_parts) or "none"
            raise RegistrationError(f"strategy {strategy.name}: reads must be a tuple of the {self.game} game's "
                                    f"optional parts ({parts}) or None, got {strategy.reads!r}")
        modules = _modules(strategy)
        built_in = all(m.startswith(self.package + ".") for m in modules)
        if strategy.inline and not (built_in and origin is None):
            raise RegistrationError(f"strategy {strategy.name}: only the game's own built-ins are compiled into its "
                                    "play loop; register it without inline=True")
        self._check_name(strategy, modules)
        self.strategies[strategy.name] = strategy
        self.origin[strategy.name] = origin or ("built-in" if built_in else ", ".join(sorted(modules)))
        return strategy

    def _check_name(self, strategy: Strategy, modules: set[str]) -> None:
        name = strategy.name
        existing = self.strategies.get(name)
        if existing == strategy:
            return  # the very same strategy again: nothing changes
        # a built-in's or human's name is never registered again otherwise (not even with the
        # built-in's own functions and other parameters)
        if name == HUMAN and (existing is not None or not medici_sims(strategy)):
            raise RegistrationError(f"strategy name {HUMAN} is reserved for the person at the table in "
                                    "`medici-sim play`; give the strategy another name")
        if existing is None:
            return
        if self.origin[name] == "built-in":
            raise RegistrationError(f"strategy name {name} is a built-in strategy of the {self.game} game; "
                                    "give the strategy another name")
        if _modules(existing) != modules:
            raise RegistrationError(f"strategy {name} is registered twice in the {self.game} game: by "
                                    f"{_files(existing)} and by {_files(strategy)}; give one of them another name")

    def kept_parts(self, names) -> frozenset[str]:
        """The optional parts of the state that the strategies ``names`` (a run's seats) read: those a run of them
        keeps up to date; ``names`` None: every part."""
        if names is None:
            return frozenset(self.optional_parts)
        parts = set()
        for name in names:
            reads = self.strategies[name].reads
            parts.update(self.optional_parts if reads is None else reads)
        return frozenset(parts)

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


def medici_sims(strategy: Strategy) -> bool:
    """Whether a strategy is medici-sim's own code (a built-in, or ``human``), not a plug-in's."""
    return all(m.startswith(_PACKAGE + ".") for m in _modules(strategy))


def _modules(strategy: Strategy) -> set[str]:
    return {fn.py_func.__module__ for fn in strategy.decisions.values()}


def _files(strategy: Strategy) -> str:
    """The source files of a strategy's decision functions."""
    return ", ".join(sorted({fn.py_func.__code__.co_filename for fn in strategy.decisions.values()}))


class UnknownGame(ValueError):
    pass


GAMES: dict[str, Game] = {}
_DEFAULT: list[str] = []  # the default game's name, once one registers as the default
GAMES_ENV = "MEDICI_SIM_GAMES"  # modules holding further games (a comma list): see register_games_from


def register_game(game: Game, default: bool = False) -> Game:
    """Make ``game`` known by its name; ``default``: the game a run plays when it names none."""
    GAMES[game.name] = game
    if default:
        _DEFAULT[:] = [game.name]
    return game


def default_game() -> str:
    """The name of the game a run plays when it names none (the default registration, else
    the first game registered)."""
    if _DEFAULT:
        return _DEFAULT[0]
    if not GAMES:
        raise UnknownGame("no game is registered")
    return next(iter(GAMES))


class GameModuleError(ImportError):
    """``MEDICI_SIM_GAMES`` names a module that is not importable or holds no ``GAME``."""


def register_games_from(modules: str) -> None:
    """Register the ``GAME`` of each module of a comma list (``MEDICI_SIM_GAMES``).

    The games that come with medici-sim register themselves when ``medici_sim.games`` is imported; a game
    of one's own (or the test suite's toy game, ``tests/toygame``) is a module holding its
    :class:`Game` as ``GAME``, named in the environment variable ``MEDICI_SIM_GAMES``
    (``MEDICI_SIM_GAMES=toygame`` with the module on ``sys.path``/``PYTHONPATH``), which is read
    right after them. Nothing else needs to know the game: ``--game``, ``trace``, ``compare``
    and the Python API take it by its name. The variable reaches subprocesses and a local
    cluster's workers; a remote cluster's workers need it set as well.
    """
    for name in (part.strip() for part in modules.split(",")):
        if not name:
            continue
        try:
            game = importlib.import_module(name).GAME
        except (ImportError, AttributeError) as exc:
            raise GameModuleError(f"{GAMES_ENV} names {name!r}, not an importable module holding a GAME: "
                                  f"{exc}") from exc
        register_game(game)


def get_game(name: str) -> Game:
    if name not in GAMES:  # the games register themselves when medici_sim.games is imported
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return GAMES[name]


FITTED_KEY = "fitted_elsewhere"  # a summary's entry naming the strategies played under rules they were not fitted to


def fitted_summary(game: Game, names: Sequence[str], rules: Sequence[str]) -> dict[str, str]:
    """A summary's entry for ``unfitted``'s strategies ({} when every strategy fits the rules)."""
    words = unfitted_words(unfitted(game, names, rules))
    return {FITTED_KEY: words} if words else {}


def unfitted(game: Game, names: Sequence[str], rules: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The strategies of ``names`` fitted to rule sets other than some of ``rules`` (canonical
    specs), each with the rule sets it was fitted to (``Strategy.fitted_to``)."""
    registry = game.registry
    return {name: registry[name].fitted_to for name in dict.fromkeys(names)
            if name in registry and not all(registry[name].fits(spec) for spec in rules)}


def unfitted_names(words: str) -> set[str]:
    """The strategies ``unfitted_words`` names (each of its parts starts with one)."""
    return {part.split(" ", 1)[0] for part in words.split("; ") if part}


def unfitted_words(found: Mapping[str, tuple[str, ...]]) -> str:
    """``unfitted``'s strategies in words, for a warning or a table's footnote ("" for none)."""
    return "; ".join(f"{name} was fitted to the {' and '.join(fitted)} rules and plays other rules here: its "
                     "figures do not measure its strength" for name, fitted in found.items())
