"""The simulation driver: configuration, batching, seeding and threads.

A run is a :class:`RunConfig` naming its game (``core.registry``). :func:`simulate` cuts its games into batches,
each batch into one contiguous chunk per thread, and runs the chunks on a thread pool (the kernel releases the GIL).
Every game's randomness depends only on (seed, game index) (R25) and the statistics are integer sums, so the totals
are bit-identical for any thread count, batch size or machine. Memory is fixed: a GameState per thread and the stats.
"""
from __future__ import annotations

import os
import re
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba.core.errors import NumbaError

from . import compiling as compiling_
from .accounting import N_COMMON_RUN_STATS, N_PAIR_STATS, PAIR_ABOVE, PAIR_DIFF_SQ, RUN_GAMES, StatLayout
from .arguments import ConfigError, in_api, integer, named, text, whole
from .dispatch import locate, strategy_names, strategy_table
from .registry import GAMES, ILLEGAL, MAX_PARAMS, Game, UnknownGame, default_game, format_number, get_game, medici_sims
from .rules import RulesError, RuleSet
from .seating import SEATING_MODES

FIRST_BATCH = 1 << 14  # games in the first batch; later ones are sized by the measured speed
BATCH_SECONDS = 0.25  # a batch's target duration: progress updates, checkpoints and Ctrl-C
MAX_BATCH = 1 << 21
MIN_CHUNK = 1 << 12  # below this, one more thread costs more than it saves
SLOW_GAME = 1e-3  # seconds: a kernel whose game takes longer (a searcher's) gets batches and chunks
#                   sized by its speed from the first batch on, down to a game a chunk
MAX_GAMES = 10**15  # game indices stay far inside int64
MAX_THREADS = 1024
# MEDICI_SIM_KERNEL=all puts every built-in heuristic in each table of built-ins (one compiled play loop serves
# every table: core.dispatch; this compiles the heuristics' decisions once for any mix). Default: what a run uses.
KERNEL_ENV = "MEDICI_SIM_KERNEL"


class StrategyCompileError(ValueError):
    """A strategy whose code numba cannot compile; the message names it and its file."""


class IllegalDecision(ValueError):
    """A strategy made a decision the rules do not allow (the message names it and the seat)."""


class StrategyError(ValueError):
    """A strategy's decision raised an exception during a game; the message names the
    strategy, the seat, the game and what it raised (``raised``: the exception's type and
    first line; ``seat`` from 1 and ``game``: None where they could not be found)."""

    def __init__(self, message: str, raised: str = "", seat: int | None = None, game: int | None = None):
        super().__init__(message)
        self.raised, self.seat, self.game = raised, seat, game


@dataclass(frozen=True)
class SeatStrategy:
    """One strategy slot: a registered strategy's name and its parameter values."""

    name: str
    params: tuple[tuple[str, float], ...] = ()
    game: str = ""  # "": the default game (core.registry.default_game)

    def __post_init__(self):
        if not self.game:
            object.__setattr__(self, "game", default_game())

    @property
    def label(self) -> str:
        """The name, with any parameters that differ from the defaults (in full precision:
        two strategies that differ in a parameter never share a label)."""
        defaults = get_game(self.game).registry[self.name].params
        changed = [f"{k}={format_number(v)}" for k, v in self.params if defaults[k].default != v]
        return self.name + (":" + ",".join(changed) if changed else "")

    def vector(self) -> np.ndarray:
        out = np.zeros(MAX_PARAMS)
        out[: len(self.params)] = [v for _, v in self.params]
        return out


def check_games(games, name: str = "games") -> int:  # name: the argument that gave it, e.g. fresh_games
    return integer(games, name, 1, MAX_GAMES, "10**15")


def check_seed(seed) -> int:
    """A master seed (R25, C20): every game's draws derive from it and the game's index."""
    return integer(seed, "seed", 0, 2**63 - 1, "2**63-1")


def check_threads(threads) -> int:
    return integer(threads, "threads", 1, MAX_THREADS)


def check_players(game: Game, players) -> int:
    if not game.min_players <= whole(players, "players") <= game.max_players:
        raise ConfigError(f"{named('players')} must be between {game.min_players} and {game.max_players} in the "
                          f"{game.name} game, got {players}")
    return int(players)


def _game(name: str) -> Game:
    try:
        return get_game(name)
    except UnknownGame as exc:
        raise ConfigError(str(exc)) from None


def seat_strategy(name: str, game: str | None = None, **overrides: float | str) -> SeatStrategy:
    """A slot for strategy ``name`` of ``game`` (None: the default game) with its defaults, some of them overridden
    (a number, or a name of the parameter's choices: ``Param.read``)."""
    game = default_game() if game is None else game
    registry = _game(game).registry
    if name not in registry:
        raise ConfigError(f"unknown strategy {name!r} (known: {', '.join(registry)}) in the {game} game")
    params = registry[name].params
    unknown = set(overrides) - set(params)
    if unknown:
        known = ", ".join(params) or "none"
        raise ConfigError(f"strategy {name} has no parameter {sorted(unknown)[0]!r} (its parameters: {known})")
    try:
        values = tuple((k, p.read(name, k, overrides.get(k, p.default))) for k, p in params.items())
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return SeatStrategy(name, values, game)


def usable_cores() -> int:
    """The cores this process may use: its affinity and cgroup quota, not the host's count (a
    container given 2 of 64 cores runs best on 2 threads or workers)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if quota != "max":
            cores = min(cores, max(1, int(quota) // int(period)))
    except (OSError, ValueError):
        pass
    return cores


@dataclass(frozen=True)
class RunConfig:
    components: object  # the game's component data (the card game's Component set); None: the game's default
    players: int
    strategies: tuple[SeatStrategy, ...]  # one slot per player
    games: int
    seed: int = 0
    # the rule set (core.rules): a spec of presets and name=value items, made canonical (a preset's
    # name when it is one, such as "standard"); None: the game's first (standard) rules
    rules: str | None = None
    seating: str = "fixed"
    threads: int = field(default_factory=usable_cores)
    game: str = ""  # "": the default game (core.registry.default_game)
    # the strategies the kernel is compiled for (default: this run's); a tournament names all of
    # its strategies, so that every lineup shares one kernel
    kernel_strategies: tuple[str, ...] = ()

    def __post_init__(self):
        if not self.game:
            object.__setattr__(self, "game", default_game())
        game = _game(self.game)
        if self.rules is None:
            object.__setattr__(self, "rules", game.presets[0])
        object.__setattr__(self, "players", check_players(game, self.players))  # checked, as an int
        if len(self.strategies) != self.players:
            raise ConfigError(f"{self.players} players need {self.players} strategies "
                              f"(or one for all seats), got {len(self.strategies)}")
        object.__setattr__(self, "games", check_games(self.games))
        object.__setattr__(self, "seed", check_seed(self.seed))
        object.__setattr__(self, "rules", canonical_rules(game, self.rules, self.players))
        if text(self.seating, "seating") not in SEATING_MODES:
            raise ConfigError(f"{named('seating')} must be one of {', '.join(SEATING_MODES)}, got {self.seating!r}")
        for slot in self.strategies:
            if slot.game != self.game:
                raise ConfigError(f"strategy {slot.name} is a {slot.game} strategy, not a {self.game} one")
        if game.engine.check_config is not None:
            try:
                game.engine.check_config(self)
            except ValueError as exc:
                raise ConfigError(str(exc)) from None
        object.__setattr__(self, "threads", check_threads(self.threads))

    @property
    def rule_set(self) -> RuleSet:
        """The rule set in force (for a game with a rule book)."""
        return rule_set(_game(self.game), self.rules, self.players)


def canonical_rules(game: Game, spec: str, players: int, argument: str = "rules") -> str:
    """``spec``'s rule set at ``players`` in canonical form (core.rules); ConfigError, in one line,
    for a spec that names none (naming ``argument``). A game without a rule book knows only its
    presets' names."""
    spec = text(spec, argument)
    if game.rule_book is None:
        if spec not in game.presets:
            raise ConfigError(f"{named(argument)} must be one of {', '.join(game.presets)} in the {game.name} "
                              f"game, got {spec!r}")
        return spec
    try:
        return rule_set(game, spec, players).spec
    except RulesError as exc:
        raise ConfigError(f"{named(argument)}: {exc}") from None


def rule_set(game: Game, spec: str, players: int) -> RuleSet:
    """The rule set ``spec`` names in ``game`` at ``players`` (RulesError if none)."""
    others = tuple(g.rule_book for g in GAMES.values() if g.rule_book is not None and g is not game)
    return game.rule_book.resolve(spec, players, others)


@dataclass
class Totals:
    """The additive statistics of a set of games (fixed size, whatever the game count)."""

    seat: np.ndarray  # (players, stats): by seat (seat 1 plays first)
    slot: np.ndarray  # (players, stats): by strategy slot
    pair_stats: np.ndarray  # (players, players, pair stats): accounting's pair_stats, by strategy slot
    run: np.ndarray  # (run stats,)

    @classmethod
    def zeros(cls, players: int, game: Game) -> Totals:
        n_stats = StatLayout.of(game).width
        return cls(np.zeros((players, n_stats), np.int64),
                   np.zeros((players, n_stats), np.int64),
                   np.zeros((players, players, N_PAIR_STATS), np.int64),
                   np.zeros(N_COMMON_RUN_STATS + len(game.engine.run_columns), np.int64))

    @property
    def pairs(self) -> np.ndarray:
        """(players, players): how often slot a finished above slot b, in half-points (ties 1 each)."""
        return self.pair_stats[:, :, PAIR_ABOVE]

    @property
    def pair_diff_sq(self) -> np.ndarray:
        """(players, players): the sum over games of (a's win credit - b's)**2, in WIN_UNITs squared."""
        return self.pair_stats[:, :, PAIR_DIFF_SQ]

    def to_dict(self) -> dict:
        return {"seat": self.seat.tolist(), "slot": self.slot.tolist(), "pairs": self.pairs.tolist(),
                "pair_diff_sq": self.pair_diff_sq.tolist(), "run": self.run.tolist()}

    @classmethod
    def from_dict(cls, data: dict) -> Totals:
        pair_stats = np.stack([np.array(data[name], np.int64) for name in ("pairs", "pair_diff_sq")], axis=-1)
        return cls(np.array(data["seat"], np.int64), np.array(data["slot"], np.int64), pair_stats,
                   np.array(data["run"], np.int64))

    def add(self, other: Totals) -> None:
        self.seat += other.seat
        self.slot += other.slot
        self.pair_stats += other.pair_stats
        self.run += other.run

    @property
    def games(self) -> int:
        return int(self.run[RUN_GAMES])


@dataclass
class RunResult:
    config: RunConfig
    totals: Totals
    elapsed: float  # seconds this call played for
    played: int  # games this call played (a resumed run's earlier games not included)

    @property
    def games_per_second(self) -> float | None:
        """This call's speed; None when it played no game (a resumed run that was complete)."""
        return self.played / self.elapsed if self.played and self.elapsed > 0 else None

    @property
    def complete(self) -> bool:
        """False when the run was stopped before all its games were played."""
        return self.totals.games == self.config.games


# Sets of strategies (game, names) one table each serves while :func:`shared_kernels` holds them
_SHARED_KERNELS: list[tuple[str, frozenset[str]]] = []


@contextmanager
def shared_kernels(game: str, *sets):
    """While held, a run of ``game`` whose strategies are all in one of ``sets`` plays with the table of that
    whole set (the ladder's levels: one table for many; the same results, a table only adds strategies)."""
    added = [(game, frozenset(names)) for names in sets]
    _SHARED_KERNELS.extend(added)
    try:
        yield
    finally:
        for entry in added:
            _SHARED_KERNELS.remove(entry)


def kernel_of_all_built_ins() -> bool:
    """Whether ``MEDICI_SIM_KERNEL=all`` asks for kernels of every built-in; unset or empty is
    the default, and any other value a mistake (a typo would silently cost its speed-up)."""
    value = os.environ.get(KERNEL_ENV, "")
    if value not in ("", "all"):
        raise ConfigError(f"the environment variable {KERNEL_ENV} must be all (or unset), got {value!r}")
    return value == "all"


class PreparedRun:
    """The prepared, read-only inputs of a run's kernel calls; ``every_part``: its games keep every optional part
    of the state up to date (seats answered from outside may read any), not only what its strategies read."""

    def __init__(self, config: RunConfig, every_part: bool = False):
        self.config = config
        self.game = get_game(config.game)
        self.kept_parts = self.game.registry.kept_parts(None if every_part else [s.name for s in config.strategies])
        self.inputs = self.game.engine.kernel_inputs(config, self.kept_parts)
        self.seating = SEATING_MODES.index(config.seating)
        used = {s.name for s in config.strategies} | set(config.kernel_strategies)
        heuristics = {name for name in self.game.built_ins if self.game.registry.origin.get(name) == "built-in"}
        if kernel_of_all_built_ins() and all(self.game.registry.origin.get(name) == "built-in" for name in used):
            used = used | heuristics
        used = next((set(names) for game, names in _SHARED_KERNELS if game == config.game and used <= names), used)
        self.used = used
        self.table_names = strategy_names(self.game.registry, used)
        self._table, self.checked, self._table_lock = None, False, threading.Lock()  # see .table; check-plugin's
        self.slot_strategy = np.array([self.table_names.index(s.name) for s in config.strategies], np.int64)
        self.slot_params = np.stack([s.vector() for s in config.strategies])

    @property
    def table(self):
        """The run's strategy table (core.dispatch): made (its decisions compiled) at its first use, where
        a failure to compile is named; ``checked``: of checked decisions (check-plugin)."""
        with self._table_lock:
            if self._table is None:
                self._table = strategy_table(self.game.registry, self.used, checked=self.checked)[0]
            return self._table

    def zeros(self) -> Totals:
        """Empty totals of this kernel's games."""
        return Totals.zeros(self.config.players, self.game)

    def play(self, first_game: int, n_games: int) -> Totals:
        with self.naming_failures(first_game, n_games):
            return self._play(first_game, n_games, self.table)

    def _play(self, first_game: int, n_games: int, table) -> Totals:
        totals = self.zeros()
        self.game.engine.play_games_nb(self.config.seed, first_game, n_games, self.inputs, self.seating,
                                       self.slot_strategy, self.slot_params,
                                       totals.seat, totals.slot, totals.pair_stats, totals.run, table)
        return totals

    def warm_up(self, stop: threading.Event | None = None,
                compiling: Callable[[PreparedRun, float], None] | None = None) -> bool:
        """Compile the kernel (or load it from numba's cache) by calling it for no game, telling
        ``compiling(kernel, seconds)`` while that lasts (None: the Python API's notice), with a
        stop request answered at once (``core.compiling.timed``); False if stopped first. A
        failure is what ``play`` raises (a strategy that does not compile: a StrategyCompileError
        naming it and its file)."""
        return compiling_.timed(lambda: self.play(0, 0), self, stop, compiling)[0]

    def trace(self, game_index: int, compiling: Callable[[PreparedRun, float], None] | None = None):
        """Play one game and return the game's record of it, turn by turn (its first call compiles the
        recording loop: ``compiling`` as ``warm_up``'s)."""
        with self.naming_failures(game_index, 1):
            return compiling_.timed(lambda: self.game.engine.trace(self, game_index), self, None, compiling)[1]

    @contextmanager
    def naming_failures(self, first_game: int | None = None, n_games: int = 1, passing: tuple = ()):
        """Turn what the kernel raises while it plays ``first_game .. first_game + n_games - 1``
        into one line naming the strategy at fault:

        - an illegal decision (``ValueError(ILLEGAL, ...)``): IllegalDecision, naming the seat;
        - code numba cannot compile: StrategyCompileError, naming the plug-in's file;
        - an exception a decision raised: StrategyError, naming the seat, the game and the
          exception. The kernel's exception says none of them: the games are played again to
          find the first that fails, and that game once more in a located kernel (``dispatch``)
          to find whose decision it was. ``first_game`` None: the games cannot be played again
          (a person played them); the plug-ins in use are named.

        Anything else (an error of medici-sim's own code, or one of the types ``passing``) is
        raised as it is.
        """
        try:
            yield
        except (IllegalDecision, StrategyCompileError, StrategyError, *passing):
            raise
        except Exception as exc:  # noqa: BLE001  told apart below
            failure = self._explain(exc, first_game, n_games)
            if failure is exc:
                raise
            raise failure from exc

    def _explain(self, error: Exception, first_game: int | None, n_games: int) -> Exception:
        if isinstance(error, ValueError) and len(error.args) == 4 and error.args[0] == ILLEGAL:
            _, seat, strategy, what = error.args
            return IllegalDecision(f"strategy {self.table_names[strategy]} at seat {seat + 1} {what}")
        registry = self.game.registry
        if while_compiling(error):
            return compile_error(registry, self.table_names, error)
        plugins = plugins_among(registry, self.table_names)
        game_index, failed, where = None, False, None
        if first_game is not None:
            game_index = self.first_failing_game(first_game, n_games)
            if game_index is not None:
                failed, where = self._locate(game_index)
        seat = None
        if where is not None:
            seat, name = where[0] + 1, where[1]
            who = f"strategy {name} ({registry.origin[name]}) at seat {seat}"
        elif plugins and not failed:  # not found again: whose it was, the plug-ins are the suspects
            who = "strategy " + " or ".join(f"{name} ({registry.origin[name]})" for name in plugins)
        else:
            return error  # outside every decision (or no plug-in to suspect): medici-sim's own error
        text = next((line.strip() for line in error_text(error).splitlines() if line.strip()), "")
        raised = type(error).__name__ + (f": {text}" if text else "")
        when = ("" if first_game is None else f" in game {game_index}" if game_index is not None
                else f" in one of games {first_game} to {first_game + n_games - 1}")
        return StrategyError(f"{who} raised {raised}{when}", raised, seat, game_index)

    def first_failing_game(self, first_game: int, n_games: int) -> int | None:
        """The first of games ``first_game .. first_game + n_games - 1`` that fails when played
        on its own, found by halving the range (a game depends only on (seed, game index), R25);
        None if none does (a strategy that fails only after other games)."""

        def fails(first: int, n: int) -> bool:
            try:
                self._play(first, n, self.table)
            except Exception:  # noqa: BLE001  any failure
                return True
            return False

        while n_games > 1:
            half = n_games // 2
            if fails(first_game, half):
                n_games = half
            else:
                first_game, n_games = first_game + half, n_games - half
        return first_game if fails(first_game, 1) else None

    def _locate(self, game_index: int) -> tuple[bool, tuple[int, str] | None]:
        """Play game ``game_index`` again in the located kernel: whether it failed again, and in
        whose decision it was then, (seat, strategy name), if in one."""
        return locate(self.game.registry, set(self.table_names), lambda table: self._play(game_index, 1, table))


_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def plugins_among(registry, names) -> list[str]:
    """The strategies ``names`` that are not medici-sim's own code (plug-ins)."""
    return [name for name in names if not medici_sims(registry[name])]


def compile_error(registry, names, error: Exception) -> Exception:
    """What numba failing to compile ``names`` (``while_compiling``) is told as: one line naming the strategy (a
    plug-in first, and its file), or ``error`` itself if no plug-in is among them and numba did not raise it (its
    compiler can fail on a plug-in's code with any exception, a KeyError for an unknown field; built-ins compile)."""
    suspects, text = plugins_among(registry, names), error_text(error)
    if not (isinstance(error, NumbaError) or suspects):
        return error
    culprit = [name for name in suspects if any(fn.py_func.__module__ in text or fn.py_func.__name__ in text
                                                for fn in registry[name].decisions.values())] or suspects or list(names)
    first = next((line.strip() for line in text.splitlines() if line.strip()), type(error).__name__)
    report = "the exception's cause holds" if in_api() else f"{named('debug')} shows"
    return StrategyCompileError(f"strategy {culprit[0]} ({registry.origin[culprit[0]]}) does not compile: {first} "
                                f"({report} numba's full report)")


def while_compiling(error: BaseException | None) -> bool:
    """Whether an exception came out of numba compiling the kernel (not out of a game played):
    numba's own errors, and the KeyError or AttributeError some typing failures surface as."""
    while error is not None:
        if isinstance(error, NumbaError) or any(frame.f_code.co_name in ("_compile_for_args", "compile_decision")
                                                for frame, _ in traceback.walk_tb(error.__traceback__)):
            return True
        error = error.__cause__
    return False


def error_text(error: BaseException) -> str:
    """An exception's text without terminal colour codes (numba colours its reports when
    colorama is installed)."""
    return _ANSI_ESCAPE.sub("", str(error))


def chunks(first_game: int, n_games: int, parts: int, min_chunk: int = MIN_CHUNK) -> list[tuple[int, int]]:
    """Split a range of games into at most ``parts`` contiguous (first, count) chunks."""
    parts = max(1, min(parts, n_games // min_chunk))
    bounds = [first_game + n_games * i // parts for i in range(parts + 1)]  # integers: exact up to 2**63
    return [(a, b - a) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]


class ThreadRunner:
    """Plays a batch's chunks on threads of this process (the kernel releases the GIL)."""

    def __init__(self, threads: int):
        self.parts = threads
        self._pool: ThreadPoolExecutor | None = None

    def __enter__(self) -> ThreadRunner:
        self._pool = ThreadPoolExecutor(max_workers=self.parts)
        return self

    def __exit__(self, exc_type, *exc) -> None:
        # after an error or an interrupt, threads still inside the engine are not waited for: a
        # strategy's decision may never return (the command then leaves without them)
        self._pool.shutdown(wait=exc_type is None, cancel_futures=True)

    def play(self, kernel: PreparedRun, ranges: list[tuple[int, int]]) -> list[Totals]:
        return self.play_tasks([(kernel, first, n) for first, n in ranges])

    def play_tasks(self, tasks: list[tuple[PreparedRun, int, int]]) -> list[Totals]:
        """Play (kernel, first game, games) tasks, several kernels at once (tuning plays a
        round's candidates side by side); the totals in the tasks' order."""
        return list(self._pool.map(lambda task: task[0].play(task[1], task[2]), tasks))


def simulate(config: RunConfig, progress: Callable[[int], None] | None = None,
             batch_size: int | None = None, first_game: int = 0, *, stop: threading.Event | None = None,
             done: Totals | None = None, on_batch: Callable[[Totals], None] | None = None,
             runner=None, compiling: Callable[[PreparedRun, float], None] | None = None, kernel=None) -> RunResult:
    """Play games ``first_game .. first_game + config.games - 1`` and return their totals.

    - ``done``: totals of the first games of this range, already played (a resumed run);
      play continues after them.
    - ``stop``: checked between batches; once set, the run returns early with what it
      has (``RunResult.complete`` is then False).
    - ``progress(n)`` after each batch with its number of games, and ``progress(0)`` when the
      kernel is ready and the games begin; ``on_batch(totals)`` with the batch's totals (to
      keep and checkpoint running totals).
    - ``batch_size``: games per batch; by default batches last about BATCH_SECONDS, so a
      stop request is answered promptly. Batches never change the results (R25).
    - ``runner``: what plays a batch's chunks: threads here (``ThreadRunner``, the
      default) or a Dask cluster (``cluster.DaskRunner``); the totals are the same.
    - ``compiling(kernel, seconds)``: told while the kernel compiles (see ``PreparedRun.warm_up``).
    - ``kernel``: what plays the games, if not ``PreparedRun(config)``: one with the same interface
      (``pairing.PreparedPair`` plays them under two rules; its totals are paired).
    """
    kernel = kernel or PreparedRun(config)
    totals = kernel.zeros()
    if done is not None:
        totals.add(done)
    if totals.games >= config.games:  # a resumed run that was complete: nothing to compile or play
        return RunResult(config, totals, 0.0, 0)
    if not kernel.warm_up(stop, compiling):
        return RunResult(config, totals, 0.0, 0)
    if progress is not None:
        progress(0)  # the games begin: a progress bar times them, not the compilation
    start = time.perf_counter()

    def stopped() -> bool:
        return stop is not None and stop.is_set()

    batch = batch_size or FIRST_BATCH
    played_to = totals.games  # games before this one are played (in totals, or the timed first game's)
    timed = None  # the run's first game, timed: its totals join the first batch's (one batch, one report)
    slow = False
    if batch_size is None:
        began = time.perf_counter()
        timed = kernel.play(first_game + played_to, 1)
        seconds_per_game = time.perf_counter() - began
        played_to += 1
        slow = seconds_per_game > SLOW_GAME  # a searcher: milliseconds or more a game
    min_chunk = 1 if slow else MIN_CHUNK  # slow games keep every thread busy in any batch
    with runner or ThreadRunner(config.threads) as active:
        if slow:  # a stop request answered within about a batch from the first one on
            batch = max(active.parts, int(active.parts * BATCH_SECONDS / seconds_per_game))
        while timed is not None or (played_to < config.games and not stopped()):
            n = 0 if stopped() else min(batch, config.games - played_to)  # 0: only the timed game to report
            batch_totals = kernel.zeros()
            if n:
                began = time.perf_counter()
                for part in active.play(kernel, chunks(first_game + played_to, n, active.parts, min_chunk)):
                    batch_totals.add(part)
                if batch_size is None:  # aim for batches of about BATCH_SECONDS
                    rate = n / max(time.perf_counter() - began, 1e-6)
                    batch = int(min(max(rate * BATCH_SECONDS, active.parts if slow else MIN_CHUNK), MAX_BATCH))
                played_to += n
            if timed is not None:
                batch_totals.add(timed)
                n, timed = n + 1, None
            totals.add(batch_totals)
            if on_batch is not None:
                on_batch(batch_totals)
            if progress is not None:
                progress(n)
    played = totals.games - (done.games if done is not None else 0)
    return RunResult(config, totals, time.perf_counter() - start, played)
