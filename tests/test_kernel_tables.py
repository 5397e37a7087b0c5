"""A compiled kernel serves exactly the strategy table it was compiled for.

Each set of strategies a run uses is a table, and each table gets a kernel of its own, cached
by numba (core.dispatch). A kernel compiled in one process and loaded from the cache in
another must never call the decisions of a different table, whatever the order in which the
tables were compiled, loaded and cached.

numba links compiled functions by a symbol made of the module, the qualified name, a
per-process counter and the argument types, and every table's generated ``decide`` has the
same argument types. In the field, a kernel loaded from the cache met a decide compiled in
the process whose counter happened to equal its own, and called it (``unknown strategy id``).
The runs here give every decide the same counter (``SAME_COUNTER``), so the kernels can only be
kept apart by construction. They unset MEDICI_SIM_KERNEL (the suite sets it to "all", one
table for every built-in) so that each lineup is a table of its own.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import medici_sim
from medici_sim.core.driver import KERNEL_ENV

# (game, players, strategies): three tables of the classic game, whose tables collided in the
# field, with cheap strategies so that a cold compile takes seconds
LINEUPS = (("classic", 3, "value,random,random"),
           ("classic", 3, "bargain,value,random"),
           ("classic", 4, "random,value,value,bargain"))

PLAY = """
import json, sys
import medici_sim
import medici_sim.api  # the games defined before the stand-in below
exec(sys.argv[2])
out = []
for game, players, strategies in json.loads(sys.argv[1]):
    report = medici_sim.simulate(games=300, game=game, players=players, strategies=strategies, seed=11, threads=1)
    out.append(report.seats.select_dtypes("number").round(12).values.tolist())
print(json.dumps(out))
"""

SAME_COUNTER = """
import itertools
import numba
from numba.core.bytecode import FunctionIdentity
from medici_sim.core import dispatch

jit = numba.njit
def same_counter_njit(fn=None, **options):
    if fn is None:  # njit(inline=...)(fn)
        return lambda fn: same_counter_njit(fn, **options)
    compiled = jit(fn, **options)
    compile_first = compiled.compile
    def compile(signature):  # every generated decide is compiled under numba's counter 1,000,000
        FunctionIdentity._unique_ids = itertools.count(10**6)
        return compile_first(signature)
    compiled.compile = compile
    return compiled
dispatch.njit = numba.njit = same_counter_njit
"""


def _play(lineups, cache_dir) -> list:
    """The lineups' tables, played one after another in a new process whose numba cache is
    ``cache_dir``: each table's seat table as a list of rows."""
    env = {k: v for k, v in os.environ.items() if k != KERNEL_ENV}
    env["NUMBA_CACHE_DIR"] = str(cache_dir)
    done = subprocess.run([sys.executable, "-c", PLAY, json.dumps(lineups), SAME_COUNTER],
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def _in_this_process(lineup) -> list:
    """A table's games played here, by the suite's kernel of every built-in (another table)."""
    game, players, strategies = lineup
    report = medici_sim.simulate(games=300, game=game, players=players, strategies=strategies, seed=11, threads=1)
    return report.seats.select_dtypes("number").round(12).values.tolist()


@pytest.fixture(scope="module")
def warmed(tmp_path_factory) -> Path:
    """A cache holding the classic game's play loop and the rest a table shares, compiled once for the
    tests below, and the decide of a table none of them plays (``random`` alone)."""
    cache = tmp_path_factory.mktemp("warmed")
    _play([("classic", 3, "random,random,random")], cache)
    return cache


def _cache_from(warmed: Path, tmp_path: Path) -> Path:
    """A test's own copy of the warmed cache: its tables' decides compiled and cached there only."""
    return Path(shutil.copytree(warmed, tmp_path / "cache"))


@pytest.mark.slow
def test_a_cached_kernel_beside_a_new_one_plays_its_own_tables_games(tmp_path, warmed):
    """The field's case: one process compiles and caches table 2; another compiles table 1,
    then loads table 2 from the cache. Slow: a new table must be compiled, not found."""
    cache = _cache_from(warmed, tmp_path)
    _play([LINEUPS[1]], cache)
    assert _play([LINEUPS[0], LINEUPS[1]], cache) == [_in_this_process(lineup) for lineup in LINEUPS[:2]]


@pytest.fixture(scope="module")
def alone() -> list:
    """Each table's games as the suite's kernel of every built-in plays them (the test above: the
    same games as a table's own kernel)."""
    return [_in_this_process(lineup) for lineup in LINEUPS]


@pytest.mark.slow
@pytest.mark.parametrize("first", range(len(LINEUPS)))
def test_tables_compiled_and_cached_in_any_order_play_their_own_games(tmp_path, warmed, alone, first):
    """Each table in turn is compiled and cached by one process; a second loads it and
    compiles the two others beside it (in one process, two new decides and a loaded one)."""
    cache = _cache_from(warmed, tmp_path)
    order = [(first + k) % len(LINEUPS) for k in range(len(LINEUPS))]
    _play([LINEUPS[order[0]]], cache)
    assert _play([LINEUPS[i] for i in order], cache) == [alone[i] for i in order]
