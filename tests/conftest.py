"""Shared helpers: play one game in the jitted kernel and record it like the reference engine."""
from __future__ import annotations

import os
import sys
import time
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from medici_sim.cli import main
from medici_sim.core.cluster import machine_workers
from medici_sim.core.driver import PreparedRun, RunConfig, seat_strategy
from medici_sim.core.registry import GAMES
from medici_sim.games.card.deck import Deck, default_deck, parse_deck
from medici_sim.games.card.rules import RULE_BOOK, VARIANTS
from medici_sim.games.classic.rules import RULE_BOOK as CLASSIC_RULE_BOOK

# One kernel per game for every mix of built-ins (core.driver.KERNEL_ENV): the suite plays many
# mixes, and compiling each set of strategies apart would cost minutes. Subprocesses inherit it;
# tests of the default (a kernel holds only what its run uses) clear it with monkeypatch.
os.environ["MEDICI_SIM_KERNEL"] = "all"


def compile_lock_key(dispatcher, sig) -> str | None:
    """The name of the lock file of a jitted function's compilation for ``sig``: its numba cache
    index and the types (None: a function numba does not cache on disk)."""
    import hashlib

    index = getattr(getattr(dispatcher._cache, "_cache_file", None), "_index_path", None)
    return None if index is None else hashlib.sha1(f"{index}|{sig}".encode()).hexdigest()


def compile_one_at_a_time(lock_dir: Path) -> None:
    """Two xdist workers never compile the same function for the same types at once: the second
    waits for the first (a file lock per function and signature) and then loads what the first
    wrote to numba's on-disk cache, instead of compiling it again. Each worker's first test file
    wants each game's kernel, so without it both workers compiled every kernel at the same time.
    Taken inside numba's compiler lock, so a process waits on one lock at a time, and in call
    order (a caller's before its callees'): no two workers wait on each other. After 10 minutes
    a worker stops waiting and compiles (it can only cost time, never change a result)."""
    import fcntl

    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.dispatcher import Dispatcher

    original = Dispatcher.compile
    if getattr(original, "one_at_a_time", False):
        return
    held: set[str] = set()  # this process's locks: a function compiling itself again waits for no one

    def compile(self, sig):
        key = compile_lock_key(self, sig)
        if key is None:  # not cached on disk: nothing to share
            return original(self, sig)
        with global_compiler_lock:
            if key in held:
                return original(self, sig)
            with open(lock_dir / key, "w") as lock:
                deadline = time.monotonic() + 600
                while True:
                    try:
                        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() > deadline:
                            break
                        time.sleep(0.05)
                held.add(key)
                try:
                    return original(self, sig)  # loads the other worker's result from the cache, if it wrote one
                finally:
                    held.discard(key)

    compile.one_at_a_time = True
    Dispatcher.compile = compile


def _compile_lock_dir() -> Path | None:
    """Where the workers of this checkout's test runs keep their compile locks (None: no such place)."""
    import tempfile

    try:
        path = Path(tempfile.gettempdir()) / f"medici-sim-compile-locks-{os.getuid()}"
        path.mkdir(exist_ok=True)
        return path
    except OSError:
        return None


COMPILE_LOCKS = _compile_lock_dir() if sys.platform != "win32" else None
if COMPILE_LOCKS is not None:
    compile_one_at_a_time(COMPILE_LOCKS)


def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto``: one worker per core this process may use (its affinity and cgroup quota,
    not the host's count), and no more than one per 2 GiB of memory (a worker compiling
    kernels holds about 1 GiB)."""
    return machine_workers(1 << 31)


HEADER = "count,good,icons,value,green\n"
# 19 cards: days run out (R12) in most games with 3 or more players
SMALL_DECK = """\
3,grain,1,3,no
3,spice,2,0,no
3,fur,1,5,no
2,dye,1,4,no
2,cloth,1,2,no
2,cloth,1,0,yes
2,none,0,2,yes
2,none,0,7,no
"""


def tiny_deck(rows: str, name: str = "tiny") -> Deck:
    return parse_deck(HEADER + rows, name)


def card_rules(players: int, variant: int | str = 0):
    """The card game's rule set at ``players``: a rules spec, or a preset by its index in VARIANTS."""
    return RULE_BOOK.resolve(variant if isinstance(variant, str) else VARIANTS[variant], players)


def classic_rules(players: int, spec: str = ""):
    """The classic game's rule set at ``players`` (a rules spec; "": the rulebook's)."""
    return CLASSIC_RULE_BOOK.resolve(spec or "standard", players)


@cache
def _kernel(deck: Deck, players: int, variant: int | str, strategies: tuple, seating: str, seed: int,
            params: tuple) -> PreparedRun:
    slots = tuple(seat_strategy(s, **dict(p)) for s, p in zip(strategies, params, strict=True))
    config = RunConfig(components=deck, players=players, games=1, seed=seed, rules=card_rules(players, variant).spec,
                       seating=seating, strategies=slots)
    return PreparedRun(config)


def kernel_game(deck: Deck, players: int, variant: int | str, strategies: list[str], seed: int,
                game_index: int, seating: str = "fixed",
                params: list[dict | None] | None = None) -> dict[str, np.ndarray]:
    """One game played by the jitted kernel, as the reference engine's record dict.

    ``params`` is per strategy slot, as in ``reference.play_game``: ``params[slot]`` maps
    parameter names to values (None, or a name left out: the strategy's default).
    """
    if params is None:
        params = [None] * len(strategies)
    if len(params) != len(strategies):
        raise ValueError(f"expected {len(strategies)} parameter dicts, got {len(params)}")
    frozen = tuple(tuple(sorted((p or {}).items())) for p in params)  # hashable, for the cache
    return _kernel(deck, players, variant, tuple(strategies), seating, seed, frozen).trace(game_index).record()


def traced_game(game: str, lineup: list[str], index: int, seed: int = 0, rules: str | None = None):
    """Game ``index`` of ``seed`` as the kernel plays it, fixed seating (the trace's stepped loop,
    every seat a strategy): its final state record."""
    import importlib

    from medici_sim.core.specs import run_config

    config = run_config(game=game, players=len(lineup), strategies=lineup, games=index + 1, seed=seed, rules=rules,
                        seating="fixed", threads=1, components=None)
    kernel = PreparedRun(config, every_part=True)  # as the games of seats answered from outside it is compared with
    stepped = importlib.import_module(f"medici_sim.games.{game}.stepped")
    return stepped.trace_game_nb(seed, index, kernel.inputs, kernel.seating, kernel.slot_strategy,
                                 kernel.slot_params, kernel.table)[0]


def assert_same_record(ours, kernel, case) -> None:
    """Two games' final records are the same game's: every field but where the stepped loop
    stopped (``step``) and the EXTERNAL seats (``seat_strategy``)."""
    for field in ours.dtype.names:
        if field not in ("step", "seat_strategy"):
            assert np.array_equal(ours[field], kernel[field]), (field, case)


def finished_within(seconds: float, function, *args):
    """What ``function(*args)`` returns or raises, run in a thread: one that blocks (a FIFO
    opened for reading) fails the test after ``seconds`` instead of hanging the suite."""
    import threading

    found = []

    def call():
        try:
            found.append(function(*args))
        except BaseException as exc:  # noqa: BLE001  handed to the test as its answer
            found.append(exc)

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(seconds)
    assert found, f"{getattr(function, '__name__', function)}{args} did not finish in {seconds} s"
    return found[0]


def without_compile_notice(err: str) -> str:
    """stderr less the compile notice (said in a pipe too: a command that compiles a new kernel,
    a plug-in's or a cold cache's, says so before anything else it says)."""
    return "".join(line for line in err.splitlines(keepends=True) if not line.startswith("medici-sim: compiling the "))


def run_script_here(script: Path, args: list[str], monkeypatch) -> int:
    """``python SCRIPT ARGS`` run in this process, as its own ``__main__``, from the repository's root: its
    exit code (a new process costs more than a CPU second of imports before the script does anything)."""
    import runpy

    monkeypatch.chdir(Path(__file__).parents[1])
    monkeypatch.setattr(sys, "argv", [str(script), *args])
    with pytest.raises(SystemExit) as stopped:
        runpy.run_path(str(script), run_name="__main__")
    return stopped.value.code


def run(capsys, *args):
    """Run the medici-sim command in-process: (exit code, stdout, stderr)."""
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="session")
def deck() -> Deck:
    return default_deck()


@pytest.fixture(autouse=True)
def registries_as_a_fresh_process_has_them():
    """Strategies a test registers (plug-ins, `human`) leave with it, and so do the plug-in
    modules: the next test in this worker process sees what a new process would."""
    saved = {game: (dict(game.registry.strategies), dict(game.registry.origin)) for game in GAMES.values()}
    plugins = {name for name in sys.modules if name.startswith("medici_plugin_")}
    yield
    for game, (strategies, origin) in saved.items():
        game.registry.strategies.clear()
        game.registry.strategies.update(strategies)
        game.registry.origin.clear()
        game.registry.origin.update(origin)
    for name in [name for name in sys.modules if name.startswith("medici_plugin_") and name not in plugins]:
        del sys.modules[name]


def spinner_plugin(spin_after: int = -1, once_exists: str | None = None) -> str:
    """A plug-in's source whose strategy ``spinner`` never returns from its decision once its
    thread has played more than ``spin_after`` turns, game after game (-1: at its first
    decision); it first creates FILE.spinning beside its FILE (see :func:`wait_until_spinning`).
    ``once_exists``: instead, once that file exists, looked for every 10,000 turns (a turn count
    restarts with each batch's chunk, whose size follows the machine's speed: under load a batch
    may never reach a count that a quiet machine's does)."""
    spin = ("state.counts[TURN_ID] % 10_000 == 0 and exists_nb()" if once_exists is not None
            else f"state.counts[TURN_ID] > {spin_after}")
    return f"""
import os

from numba import njit, objmode
from medici_sim.games.card.state import TURN_ID
from medici_sim.games.card.strategies import Strategy, register


def started():
    open(__file__ + ".spinning", "w").close()


@njit
def exists_nb():
    with objmode(found="boolean"):
        found = os.path.exists({once_exists!r})
    return found


@njit
def reveal_nb(state, seat, params):
    if {spin}:
        with objmode():
            started()
        while state.rng[0] != 0:  # think forever
            pass
    return False


@njit
def take_nb(state, seat, params):
    return 0


register(Strategy(name="spinner", decisions={{"reveal_nb": reveal_nb, "take_nb": take_nb}}))
"""


def wait_until_spinning(plugin: str, proc, timeout: float = 240) -> None:
    """Wait until :func:`spinner_plugin`'s strategy, in ``proc``, is inside its endless decision."""
    deadline = time.monotonic() + timeout
    while not Path(plugin + ".spinning").exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()  # past the deadline it is still running: what it said comes only once it ends
            raise AssertionError(f"not spinning after {timeout} s: {proc.communicate()}")
        time.sleep(0.1)
    time.sleep(0.5)
