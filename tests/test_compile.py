"""What a run compiles: each game's first run, from an empty numba cache, in a process of its own.

numba reports every compilation (``numba.core.event``); the child process lists medici-sim's,
as (function, argument types), and the tests read the list. Slow: a cold compile of each game.
"""
from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import COMPILE_LOCKS, compile_lock_key

CHILD = """
import json, sys
from numba.core import event
import medici_sim.games  # the games register themselves, numba made ready for them
from medici_sim.core.driver import RunConfig, simulate
from medici_sim.cli.common import load_game_components, parse_strategies
from medici_sim.core.registry import get_game

compiled = []

class Listener(event.Listener):
    def on_start(self, ev):
        fn = ev.data["dispatcher"].py_func
        if (fn.__module__ or "").startswith("medici_sim."):
            compiled.append((f"{fn.__module__}.{fn.__qualname__}", [str(a) for a in ev.data["args"]]))

    def on_end(self, ev):
        pass

event.register("numba:compile", Listener())
game = get_game(sys.argv[1])
config = RunConfig(components=load_game_components(game, None), players=4, games=10, threads=1, game=game.name,
                   strategies=parse_strategies("random", 4, game.name))
simulate(config)
run = list(compiled)
from medici_sim.core.driver import PreparedRun
PreparedRun(config).trace(3)  # a stepped game of the run's strategies, after the run
print(json.dumps({"run": run, "trace": compiled[len(run):]}))
"""


@pytest.fixture(scope="module", params=["card", "classic"])
def first_run(request, tmp_path_factory):
    """(game, [(function, argument types)]) of a game's first run of ``random`` (the default), and of a
    trace of one of its games just after."""
    env = {k: v for k, v in os.environ.items() if k != "MEDICI_SIM_KERNEL"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path_factory.mktemp("numba-cache"))
    done = subprocess.run([sys.executable, "-c", CHILD, request.param], env=env, capture_output=True, text=True,
                          check=True)
    found = json.loads(done.stdout)
    return request.param, [tuple(entry) for entry in found["run"]], [tuple(entry) for entry in found["trace"]]


@pytest.mark.slow
def test_no_function_is_compiled_for_a_constant(first_run):
    """core.specialize: a constant argument is its type's, so no function compiles twice for it."""
    game, compiled, _ = first_run
    assert compiled, "nothing compiled: the cache was not empty"
    for name, args in compiled:
        assert not any(arg.startswith("Literal") for arg in args), f"{game}: {name} compiled for {args}"


@pytest.mark.slow
def test_a_stepped_game_plays_the_runs_compiled_loop(first_run):
    """One play loop serves the kernel and a stepped game (core.resumable: ``record`` a bool in both), and
    the stepping functions reach it through its address (core.dispatch.runtime_loop): a trace after a run
    compiles only the stepping functions, none of the engine's (trace and play each compiled the whole
    engine again, for ``record`` True)."""
    game, compiled, traced = first_run
    assert any(name.endswith("finish_game_nb") for name, _ in compiled), f"{game}: the run compiled no play loop"
    assert traced, f"{game}: the trace compiled no stepping function"
    again = sorted({name for name, _ in traced if name.startswith("medici_sim.games.")
                    and not name.endswith(("play_on_nb", "begin_play_nb", "legal_choices_nb"))})
    assert not again, f"{game}: the trace compiled the engine's {again} again"


SYMBOL_CHILD = """
import numpy as np
from numba import njit
import medici_sim.games  # numba made ready for medici-sim (core.numba_setup)

@njit
def decide(table):
    return 1

table = np.zeros(1, np.dtype([("strategy_table_" + "{name}", np.uint8)]))[0]
decide(table)
print(next(iter(decide.overloads.values())).fndesc.mangled_name)
"""


@pytest.mark.slow  # processes compiling from cold caches (4 s)
def test_two_processes_never_give_two_kernels_one_symbol(tmp_path):
    """Two processes compiling in the same order gave two strategy tables' functions the same
    symbol (numba's per-process counters), so a third process loading both kernels from the
    cache ran the first one's strategies for the second run without a word (numba issue 10486;
    seen: classic `collector` after `random` played `random`'s games). Symbols are random now."""
    names = [subprocess.run([sys.executable, "-c", SYMBOL_CHILD.format(name=name)], capture_output=True, text=True,
                            check=True, env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}).stdout.strip()
             for name in ("a", "b")]
    assert all(names) and names[0] != names[1]


TWICE = """
from numba import njit


@njit(cache=True)
def twice(x):
    return 2 * x
"""


@pytest.mark.skipif(COMPILE_LOCKS is None, reason="no compile locks on this platform")
def test_a_worker_waits_for_another_compiling_the_same_function_and_loads_its_result(tmp_path, monkeypatch):
    """conftest's compile lock (xdist's workers compiled each game's kernel both at once): while
    another process holds a function's lock for some types, compiling it for them waits; the
    other process's result, cached, is then loaded instead of compiled again."""
    import fcntl
    import importlib
    import threading

    from numba import types

    (tmp_path / "twice_module.py").write_text(TWICE)
    monkeypatch.syspath_prepend(str(tmp_path))
    twice = importlib.import_module("twice_module").twice
    signature = (types.int64,)
    with open(COMPILE_LOCKS / compile_lock_key(twice, signature), "w") as other:
        fcntl.flock(other, fcntl.LOCK_EX)  # the other worker starts compiling it
        compiled = threading.Thread(target=twice.compile, args=(signature,), daemon=True)
        compiled.start()
        compiled.join(1.0)
        assert compiled.is_alive(), "compiled without waiting for the other worker"
        subprocess.run([sys.executable, "-c", "import twice_module; twice_module.twice(1)"], cwd=tmp_path,
                       check=True, env={**os.environ, "PYTHONPATH": str(tmp_path)})  # ... and caches it
    compiled.join(60)
    assert not compiled.is_alive() and twice(21) == 42
    assert sum(twice.stats.cache_hits.values()) == 1 and not sum(twice.stats.cache_misses.values())


# ---------------------------------------------------------------- what a first compile does not repeat (issue 34)

def test_the_medici_engines_inline_their_game_end_writers():
    """The Medici games' game-end writers (each engine's accumulate_game_nb and accounting's) are inlined into the
    one-game step: called instead, they compiled about 4.5 CPU s less, but the card game's random games ran about
    5% slower (benchmarks/bench_versus_c.py, interleaved; docs/performance.md): speed first."""
    import importlib

    from medici_sim.core import accounting

    writers = [accounting.record_outcome_nb, accounting.record_outcome_ranked_nb, accounting.record_metrics_nb]
    writers += [importlib.import_module(f"medici_sim.games.{game}.engine").accumulate_game_nb
                for game in ("card", "classic")]
    for fn in writers:
        assert fn.targetoptions.get("inline") == "always", fn.py_func.__qualname__


LONGEST_INLINED = 30  # lines of source a built-in strategy's inline="always" function may have
# ... but these, whose calls cost more than their compile: classic expert's worth, called, played 7% more
# instructions a game than the code before the redesign (issue 31 allows 3%), inlined 3% (4 CPU s more compile)
LONG_INLINED_FOR_SPEED = {"medici_sim.games.classic.strategies.expert.worth_nb"}


def test_no_strategy_inlines_a_long_body():
    """numba copies an inlined body into each caller (with its whole scope: a cost in its size squared), and every
    strategy's decision is compiled apart: classic expert's worth_nb, inlined into lot_worth_nb and that into both
    its decisions, once cost 12.9 CPU s of inlining alone. A long helper is compiled once and called, unless its
    calls are what makes the strategy slow (LONG_INLINED_FOR_SPEED, each measured)."""
    import importlib
    import inspect
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import medici_sim.games

    long = []
    for game in ("card", "classic"):
        package = importlib.import_module(f"medici_sim.games.{game}.strategies")
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            for name, fn in vars(module).items():
                if (isinstance(fn, CPUDispatcher) and fn.py_func.__module__ == info.name
                        and fn.targetoptions.get("inline") == "always"
                        and len(inspect.getsource(fn.py_func).splitlines()) > LONGEST_INLINED):
                    long.append(f"{info.name}.{name}")
    assert medici_sim.games and sorted(long) == sorted(LONG_INLINED_FOR_SPEED), long


def test_medici_sims_functions_compile_without_a_c_callable_wrapper():
    """core.numba_setup.no_cfunc_wrappers: nothing calls medici-sim's functions from C, so numba lowers no cfunc
    wrapper for them (lowered and optimised for each function, about a tenth of a first compile)."""
    import types as pytypes

    from numba import njit
    from numba import types as nbtypes

    import medici_sim.games  # numba made ready for medici-sim

    def twice(x):
        return 2 * x

    ours = njit(pytypes.FunctionType(twice.__code__, {"__name__": "medici_sim.probe"}, "twice"))
    theirs = njit(pytypes.FunctionType(twice.__code__, {"__name__": "probe"}, "twice"))
    wrappers = []
    for fn in (ours, theirs):
        fn.compile((nbtypes.int64,))
        result = fn.overloads[(nbtypes.int64,)]
        wrappers.append(result.fndesc.llvm_cfunc_wrapper_name in result.library.get_llvm_str())
    assert medici_sim.games and wrappers == [False, True]


PADDING_CHILD = """
import sys
if sys.argv[1] == "padded":
    from medici_sim.core.numba_setup import pad_branches
    pad_branches()
import numpy as np
from numba import njit

@njit
def branchy(a):
    total = 0
    for i in range(a.size):
        if a[i] > 3:
            total += i
        elif a[i] < -2:
            total -= 2 * i
        elif a[i] == 0:
            total ^= i
        else:
            total += 1
    return total

branchy(np.arange(5))
print(branchy.overloads[branchy.signatures[0]].library._get_compiled_object().hex())
"""


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"), reason="x86-64 code only")
def test_x86_code_is_emitted_with_jumps_padded_off_32_byte_boundaries():
    """core.numba_setup.pad_branches: the same function compiles to other, longer machine code once LLVM pads its
    jumps (the JCC erratum's mitigation); each process compiles it (a function typed in at ``-c`` is never cached)."""
    plain, padded = (bytes.fromhex(subprocess.run([sys.executable, "-c", PADDING_CHILD, how], check=True,
                                                  capture_output=True, text=True).stdout)
                     for how in ("plain", "padded"))
    assert len(padded) > len(plain)


STALE_CHILD = """
import numpy as np
import medici_sim.games  # numba made ready: the package's cache locator
from medici_sim.games.card.state import STATE_DTYPE
from medici_sim.games.card.strategies import greedy
print(greedy.take_nb(np.zeros(1, STATE_DTYPE)[0], 0, (2.0,) * 8))
"""


@pytest.mark.slow  # processes compiling from cold caches (6 s)
def test_an_edit_of_a_callees_file_is_never_met_by_older_cached_code(tmp_path):
    """numba keys a cached function by its own file, but its machine code links its callees' from other files:
    greedy's take (strategies/greedy.py) kept playing an edited helper's old code (strategies/common.py) from the
    cache, silently. Every source of the package's jitted code stamps its cache now (core.cache)."""
    package = copy_of_the_package(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "src"), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def take() -> str:
        return subprocess.run([sys.executable, "-c", STALE_CHILD], capture_output=True, text=True, check=True,
                              env=env, cwd=tmp_path).stdout.strip()

    assert take() == "0"  # an empty market: nothing but the last card (R10)
    edit_take_valuable(package)
    assert take() == "3"  # the edited helper, through the cached decision that calls it


def copy_of_the_package(tmp_path) -> Path:
    """The package's sources copied under ``tmp_path/src`` (nothing cached)."""
    import medici_sim

    return Path(shutil.copytree(os.path.dirname(medici_sim.__file__), tmp_path / "src" / "medici_sim",
                                ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")))


def edit_take_valuable(package: Path) -> None:
    """The card game's helper ``take_valuable_nb`` made to answer 3 (take both earlier cards), whatever the market."""
    common = package / "games" / "card" / "strategies" / "common.py"
    source = common.read_text()
    header = "def take_valuable_nb(state, seat, min_value):\n"
    assert header in source
    common.write_text(source.replace(header, header + "    return 3\n", 1))


PLUGIN_CHILD = """
import sys
import numpy as np
import medici_sim.games
from medici_sim.core.plugins import load_plugin
from medici_sim.games.card.state import STATE_DTYPE
from medici_sim.games.card.strategies import REGISTRY
load_plugin(sys.argv[1])
print(REGISTRY["valuable"].decisions["take_nb"](np.zeros(1, STATE_DTYPE)[0], 0, (2.0,) * 8))
"""

PLUGIN = """
from numba import njit

from medici_sim.games.card.strategies import Strategy, register
from medici_sim.games.card.strategies.common import take_valuable_nb


@njit(cache=True)
def take_nb(state, seat, params):
    return take_valuable_nb(state, seat, params[0])


@njit(cache=True)
def reveal_nb(state, seat, params):
    return False


register(Strategy(name="valuable", decisions={"reveal_nb": reveal_nb, "take_nb": take_nb}))
"""


@pytest.mark.slow  # processes compiling from cold caches (4 s)
def test_an_edit_of_the_package_is_never_met_by_a_plugins_older_cached_code(tmp_path):
    """A plug-in's cached decision links the package's helpers it calls: an edited helper is what it plays next
    (core.locators.PluginLocator stamps it with the package's sources too)."""
    package = copy_of_the_package(tmp_path)
    plugin = tmp_path / "valuable.py"
    plugin.write_text(PLUGIN)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "src"), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def take() -> str:
        return subprocess.run([sys.executable, "-c", PLUGIN_CHILD, str(plugin)], capture_output=True, text=True,
                              check=True, env=env, cwd=tmp_path).stdout.strip()

    assert take() == "0"
    edit_take_valuable(package)
    assert take() == "3"
