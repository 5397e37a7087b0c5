"""The simulation driver: configuration, batching, seeding and threads.

A run is a :class:`RunConfig` naming its game (``core.registry``). :func:`simulate` cuts its
games into batches, each batch into one contiguous chunk per thread, and runs the chunks on
a thread pool (the kernel releases the GIL). Every game's randomness depends only on (seed, game index) (R25) and
the statistics are integer sums, so the totals are bit-identical for any thread count,
batch size or machine. Memory is fixed: a GameState per thread and the stats arrays.
"""
from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
from numba.core.errors import NumbaError

from .accounting import N_COMMON_RUN_STATS, N_COMMON_STATS, N_PAIR_STATS, PAIR_ABOVE, PAIR_DIFF_SQ, RUN_GAMES
from .dispatch import strategy_table
from .registry import ILLEGAL, MAX_PARAMS, Game, UnknownGame, format_number, get_game
from .seating import SEATING_MODES

FIRST_BATCH = 1 << 14  # games in the first batch; later ones are sized by the measured speed
BATCH_SECONDS = 0.25  # a batch's target duration: progress updates, checkpoints and Ctrl-C
MAX_BATCH = 1 << 21
MIN_CHUNK = 1 << 12  # below this, one more thread costs more than it saves
SLOW_GAME = 1e-3  # seconds: a kernel whose game takes longer (a search player's) gets batches and chunks
#                   sized by its speed from the first batch on, down to a game a chunk
MAX_GAMES = 10**15  # game indices stay far inside int64
MAX_THREADS = 1024
COMPILE_TICK = 0.5  # seconds: how often a slow start (compiling) is reported
# MEDICI_SIM_KERNEL=all compiles every built-in strategy of a game into each kernel of built-ins:
# one (longer) compilation then serves every mix of built-ins, for whoever tries many mixes (and the
# test suite). A run with a plug-in still compiles only what it uses. By default a kernel holds only
# the strategies its run uses.
KERNEL_ENV = "MEDICI_SIM_KERNEL"


class ConfigError(ValueError):
    """A run that cannot be set up; the message says what is wrong, in one line."""


class StrategyCompileError(ValueError):
    """A strategy whose code numba cannot compile; the message names it and its file."""


class IllegalDecision(ValueError):
    """A strategy made a decision the rules do not allow (the message names it and the seat)."""


@dataclass(frozen=True)
class SeatStrategy:
    """One strategy slot: a registered strategy's name and its parameter values."""

    name: str
    params: tuple[tuple[str, float], ...] = ()
    game: str = "card"

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


def _game(name: str) -> Game:
    try:
        return get_game(name)
    except UnknownGame as exc:
        raise ConfigError(str(exc)) from None


def seat_strategy(name: str, game: str = "card", **overrides: float) -> SeatStrategy:
    """A slot for strategy ``name`` of ``game`` with its defaults, some of them overridden."""
    registry = _game(game).registry
    if name not in registry:
        raise ConfigError(f"unknown strategy {name!r} (known: {', '.join(registry)}) in the {game} game")
    params = registry[name].params
    unknown = set(overrides) - set(params)
    if unknown:
        known = ", ".join(params) or "none"
        raise ConfigError(f"strategy {name} has no parameter {sorted(unknown)[0]!r} (its parameters: {known})")
    try:
        values = tuple((k, p.check(name, k, float(overrides.get(k, p.default)))) for k, p in params.items())
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return SeatStrategy(name, values, game)


@dataclass(frozen=True)
class RunConfig:
    deck: object  # the game's component data (the card game's Deck); None: the game's default
    players: int
    strategies: tuple[SeatStrategy, ...]  # one slot per player
    games: int
    seed: int = 0
    variant: str = "standard"
    seating: str = "fixed"
    threads: int = field(default_factory=lambda: os.cpu_count() or 1)
    game: str = "card"
    # the strategies the kernel is compiled for (default: this run's); a tournament names all of
    # its strategies, so that every lineup shares one kernel
    kernel_strategies: tuple[str, ...] = ()

    def __post_init__(self):
        game = _game(self.game)
        if not game.min_players <= self.players <= game.max_players:
            raise ConfigError(f"players must be between {game.min_players} and {game.max_players} in the "
                              f"{game.name} game, got {self.players}")
        if len(self.strategies) != self.players:
            raise ConfigError(f"{self.players} players need {self.players} strategies "
                              f"(or one for all seats), got {len(self.strategies)}")
        if not 0 < self.games <= MAX_GAMES:
            raise ConfigError(f"games must be between 1 and {MAX_GAMES:.0e}, got {self.games}")
        if not 0 <= self.seed < 2**63:
            raise ConfigError(f"seed must be between 0 and 2**63-1, got {self.seed}")
        if self.variant not in game.variants:
            raise ConfigError(f"variant must be one of {', '.join(game.variants)} in the {game.name} game, "
                              f"got {self.variant!r}")
        if self.seating not in SEATING_MODES:
            raise ConfigError(f"seating must be one of {', '.join(SEATING_MODES)}, got {self.seating!r}")
        for slot in self.strategies:
            if slot.game != self.game:
                raise ConfigError(f"strategy {slot.name} is a {slot.game} strategy, not a {self.game} one")
        if game.check_config is not None:
            try:
                game.check_config(self)
            except ValueError as exc:
                raise ConfigError(str(exc)) from None
        if not 1 <= self.threads <= MAX_THREADS:
            raise ConfigError(f"threads must be between 1 and {MAX_THREADS}, got {self.threads}")


@dataclass
class Totals:
    """The additive statistics of a set of games (fixed size, whatever the game count)."""

    seat: np.ndarray  # (players, stats): by seat (seat 1 starts day 1)
    slot: np.ndarray  # (players, stats): by strategy slot
    pair_stats: np.ndarray  # (players, players, pair stats): accounting's pair_stats, by strategy slot
    run: np.ndarray  # (run stats,)

    @classmethod
    def zeros(cls, players: int, game: Game) -> Totals:
        n_stats = N_COMMON_STATS + len(game.stat_columns)
        return cls(np.zeros((players, n_stats), np.int64),
                   np.zeros((players, n_stats), np.int64),
                   np.zeros((players, players, N_PAIR_STATS), np.int64),
                   np.zeros(N_COMMON_RUN_STATS + len(game.run_columns), np.int64))

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
    def games_per_second(self) -> float:
        return self.played / self.elapsed if self.elapsed > 0 else float("inf")

    @property
    def complete(self) -> bool:
        """False when the run was stopped before all its games were played."""
        return self.totals.games == self.config.games


class Kernel:
    """The prepared, read-only inputs of a run's kernel calls."""

    def __init__(self, config: RunConfig):
        self.config = config
        self.game = get_game(config.game)
        self.inputs = self.game.kernel_inputs(config)
        self.seating = SEATING_MODES.index(config.seating)
        used = {s.name for s in config.strategies} | set(config.kernel_strategies)
        # the heuristics (game.built_ins): a search player, built in too, plays them again in its
        # rollouts (a second table, compiled with it), so it joins a kernel only when a run uses it
        built_ins = {name for name in self.game.built_ins if self.game.registry.origin.get(name) == "built-in"}
        if os.environ.get(KERNEL_ENV) == "all" and used <= built_ins:  # one kernel for every mix of built-ins
            used = built_ins
        self.table, self.table_names = strategy_table(self.game.registry, used)
        self.seconds_per_game = 0.0  # measured by warm_up
        self.slot_strategy = np.array([self.table_names.index(s.name) for s in config.strategies], np.int64)
        self.slot_params = np.stack([s.vector() for s in config.strategies])

    def zeros(self) -> Totals:
        """Empty totals of this kernel's games."""
        return Totals.zeros(self.config.players, self.game)

    def play(self, first_game: int, n_games: int) -> Totals:
        totals = self.zeros()
        with self.naming_illegal_decisions():
            self.game.play_games_nb(self.config.seed, first_game, n_games, self.inputs, self.seating,
                                    self.slot_strategy, self.slot_params,
                                    totals.seat, totals.slot, totals.pair_stats, totals.run, self.table)
        return totals

    def warm_up(self, stop: threading.Event | None = None,
                compiling: Callable[[Kernel, float], None] | None = None) -> bool:
        """Compile the kernel (or load it from numba's cache) by playing one game, on a
        thread of its own so that a stop request (Ctrl-C) is answered at once, even while a
        strategy's decision runs; False if stopped first.

        ``compiling(kernel, seconds)`` is called every ``COMPILE_TICK`` seconds while this takes
        longer than that (a first run compiles; later runs load the kernel in a fraction of a
        second). A strategy that does not compile is a StrategyCompileError naming it (and its file).
        """
        outcome: list[BaseException | None] = []

        def compile_kernel() -> None:
            try:
                self.play(0, 1)
                began = time.perf_counter()
                self.play(0, 1)  # once more, compiled: how long a game takes (sizes the batches of slow kernels)
                self.seconds_per_game = time.perf_counter() - began
                outcome.append(None)
            except BaseException as exc:  # handed to the calling thread below
                outcome.append(exc)

        worker = threading.Thread(target=compile_kernel, name="medici-sim-compile", daemon=True)
        began = time.perf_counter()
        worker.start()
        ticks = 0
        while worker.is_alive():
            worker.join(0.05)
            if stop is not None and stop.is_set():
                return False
            elapsed = time.perf_counter() - began
            if compiling is not None and elapsed >= (ticks + 1) * COMPILE_TICK:
                ticks += 1
                compiling(self, elapsed)
        failure = outcome[0]
        plugins_in_use = any(self.game.registry.origin[name] != "built-in" for name in self.table_names)
        if isinstance(failure, NumbaError) or (plugins_in_use and failure is not None
                                               and not isinstance(failure, IllegalDecision)):
            # numba's compiler can fail on a plug-in's code with any exception (a KeyError for an
            # unknown state field); built-ins compile, so the plug-in is the one to name
            raise StrategyCompileError(self._compile_failure(failure)) from failure
        if outcome[0] is not None:
            raise outcome[0]
        return True

    def _compile_failure(self, error: Exception) -> str:
        """One line naming the strategy (and plug-in file) whose code failed to compile."""
        registry = self.game.registry
        suspects = [name for name in self.table_names if registry.origin[name] != "built-in"]
        text = error_text(error)
        named = [name for name in suspects if any(fn.py_func.__module__ in text or fn.py_func.__name__ in text
                                                   for fn in registry[name].decisions.values())]
        culprit = (named or suspects or list(self.table_names))[0]
        first = next((line.strip() for line in text.splitlines() if line.strip()), type(error).__name__)
        return (f"strategy {culprit} ({registry.origin[culprit]}) does not compile: {first} "
                "(--debug shows numba's full report)")

    def trace(self, game_index: int):
        """Play one game and return the game's day-by-day record of it."""
        with self.naming_illegal_decisions():
            return self.game.trace(self, game_index)

    @contextmanager
    def naming_illegal_decisions(self):
        """Turn a kernel's illegal-decision error into an IllegalDecision naming strategy and seat."""
        try:
            yield
        except ValueError as exc:
            if len(exc.args) != 4 or exc.args[0] != ILLEGAL:
                raise
            _, seat, strategy, what = exc.args
            raise IllegalDecision(f"strategy {self.table_names[strategy]} at seat {seat + 1} {what}") from None


_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


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

    def __exit__(self, *exc) -> None:
        self._pool.shutdown()

    def play(self, kernel: Kernel, ranges: list[tuple[int, int]]) -> list[Totals]:
        return self.play_tasks([(kernel, first, n) for first, n in ranges])

    def play_tasks(self, tasks: list[tuple[Kernel, int, int]]) -> list[Totals]:
        """Play (kernel, first game, games) tasks, several kernels at once (tuning plays a
        round's candidates side by side); the totals in the tasks' order."""
        return list(self._pool.map(lambda task: task[0].play(task[1], task[2]), tasks))


def simulate(config: RunConfig, progress: Callable[[int], None] | None = None,
             batch_size: int | None = None, first_game: int = 0, *, stop: threading.Event | None = None,
             done: Totals | None = None, on_batch: Callable[[Totals], None] | None = None,
             runner=None, compiling: Callable[[Kernel, float], None] | None = None, kernel=None) -> RunResult:
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
    - ``compiling(kernel, seconds)``: told while the kernel compiles (see ``Kernel.warm_up``).
    - ``kernel``: what plays the games, if not ``Kernel(config)``: one with the same interface
      (``pairing.PairedKernel`` plays them under two rules; its totals are paired).
    """
    kernel = kernel or Kernel(config)
    totals = kernel.zeros()
    if done is not None:
        totals.add(done)
    if not kernel.warm_up(stop, compiling):
        return RunResult(config, totals, 0.0, 0)
    if progress is not None:
        progress(0)  # the games begin: a progress bar times them, not the compilation
    batch = batch_size or FIRST_BATCH
    slow = kernel.seconds_per_game > SLOW_GAME  # a search player: milliseconds or more a game
    min_chunk = 1 if slow else MIN_CHUNK  # slow games keep every thread busy in any batch
    start = time.perf_counter()
    with runner or ThreadRunner(config.threads) as active:
        if slow and batch_size is None:  # a stop request answered within about a batch from the first one on
            batch = max(active.parts, int(active.parts * BATCH_SECONDS / kernel.seconds_per_game))
        while totals.games < config.games and not (stop is not None and stop.is_set()):
            n = min(batch, config.games - totals.games)
            began = time.perf_counter()
            batch_totals = kernel.zeros()
            for part in active.play(kernel, chunks(first_game + totals.games, n, active.parts, min_chunk)):
                batch_totals.add(part)
            totals.add(batch_totals)
            if batch_size is None:  # aim for batches of about BATCH_SECONDS
                rate = n / max(time.perf_counter() - began, 1e-6)
                batch = int(min(max(rate * BATCH_SECONDS, active.parts if slow else MIN_CHUNK), MAX_BATCH))
            if on_batch is not None:
                on_batch(batch_totals)
            if progress is not None:
                progress(n)
    played = totals.games - (done.games if done is not None else 0)
    return RunResult(config, totals, time.perf_counter() - start, played)
