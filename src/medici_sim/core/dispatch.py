"""Strategy dispatch: how a game's kernel calls whichever strategy sits at a seat.

A game declares its decisions once, in its ``state.py``: ``reveal_nb = decision("reveal_nb")``.
The kernel then calls ``reveal_nb(table, strategy_id, state, seat)``. ``table`` is a
one-byte numpy record whose dtype names a snapshot of the game's strategy registry
(:func:`strategy_table`); at compile time the overload turns that name into an ``if``
chain over the registered strategies' functions for that decision. So:

- one compiled kernel serves every mix of strategies at any seats (a mix is only data:
  strategy ids and parameter vectors);
- a new strategy (built-in or plug-in) is a new table, hence a new signature, compiled
  once and cached by numba; the table's name hashes the sources of the shared kernel code,
  of the game and of every registered strategy, so a cached kernel is never used with
  code it was not compiled from;
- nothing reference-counted is handed down to the decisions: the table is a record, not
  an array, and a seat's parameters reach its strategy as a tuple of floats (every array
  argument costs reference-count updates at each call; profiled: about 6% of an
  ``expert`` game).
"""
from __future__ import annotations

import hashlib
import inspect
from pathlib import Path

import numpy as np
from numba.core import types
from numba.extending import overload

from .registry import MAX_PARAMS, StrategyRegistry

_TABLE_PREFIX = "strategy_table_"
_TABLES: dict[str, tuple] = {}  # table name -> the registered Strategy objects, in id order
_NAMES: dict[tuple, str] = {}  # registry snapshot (object ids) -> table name: sources hashed once
_CORE = Path(__file__).parent
_KERNEL_CORE_FILES = ("rng.py", "seating.py", "ranking.py", "accounting.py", "dispatch.py", "registry.py")


def strategy_table(registry: StrategyRegistry, used=()) -> tuple[np.void, tuple[str, ...]]:
    """A one-byte record naming (by its dtype) the strategies a run's kernel dispatches to,
    and their names in id order.

    Those are the game's built-ins, then the plug-in strategies the run uses: every mix of
    built-ins shares one table (one compiled kernel), and a plug-in that is loaded but not
    used is never compiled, so it cannot break a run.
    """
    strategies = tuple(s for name, s in registry.items() if registry.origin[name] == "built-in" or name in used)
    key = (registry.game, *map(id, strategies))  # the objects stay alive in the registry and _TABLES
    if key not in _NAMES:  # sources hashed once per snapshot: every batch asks for the table
        _NAMES[key] = _table_name(registry, strategies)
    return np.zeros(1, np.dtype([(_NAMES[key], np.uint8)]))[0], tuple(s.name for s in strategies)


def strategies_fingerprint(strategy) -> str:
    """A hash of the source files of a strategy's decision functions (checkpoints record it)."""
    digest = hashlib.sha256()
    for name, fn in strategy.decisions.items():
        digest.update(f"{name}={fn.py_func.__module__}.{fn.py_func.__qualname__}".encode())
        digest.update(Path(inspect.getsourcefile(fn.py_func)).read_bytes())
    return digest.hexdigest()[:16]


def _table_name(registry: StrategyRegistry, strategies: tuple) -> str:
    """The table name of a registry snapshot: a hash of its names, functions and sources."""
    digest = hashlib.sha256(registry.game.encode())
    files = {_CORE / name for name in _KERNEL_CORE_FILES} | set(registry.package_dir.rglob("*.py"))
    for strategy in strategies:
        digest.update(strategy.name.encode())
        for name, fn in strategy.decisions.items():
            digest.update(f"{name}={fn.py_func.__module__}.{fn.py_func.__qualname__}".encode())
            files.add(Path(inspect.getsourcefile(fn.py_func)))
    for path in sorted(files):
        digest.update(path.read_bytes())
    name = _TABLE_PREFIX + digest.hexdigest()[:24]
    _TABLES[name] = strategies
    return name


def _strategies_of(table_type) -> tuple:
    if not isinstance(table_type, types.Record):
        raise TypeError("the strategy table must come from strategy_table()")
    (name,) = table_type.fields
    return _TABLES[name]


def _switch(functions):
    """A jitted ``decide(strategy_id, state, seat)`` calling ``functions[strategy_id]`` with
    the seat's parameters as a tuple.

    Written out as one flat ``if`` chain (one compare per strategy, no nested calls).
    """
    from numba import njit

    row = ", ".join(f"row[{k}]" for k in range(MAX_PARAMS))
    lines = ["def decide(strategy, state, seat):",
             "    row = state.seat_params[seat]",
             f"    params = ({row},)"]
    for i in range(len(functions)):
        lines += [f"    if strategy == {i}:", f"        return strategy_{i}(state, seat, params)"]
    lines.append("    raise ValueError('unknown strategy id')")
    namespace = {f"strategy_{i}": fn for i, fn in enumerate(functions)}
    exec("\n".join(lines), namespace)
    return njit(namespace["decide"])


def decision(kind: str):
    """A decision the kernel can ask of the strategy at a seat: ``kind(table, strategy, state, seat)``.

    Callable from jitted code only; the strategy's function for ``kind`` answers.
    """
    def stub(table, strategy, state, seat):
        raise NotImplementedError(f"{kind} is only callable from jitted code")

    def typer(table, strategy, state, seat):
        decide = _switch([s.decisions[kind] for s in _strategies_of(table)])

        def impl(table, strategy, state, seat):
            return decide(strategy, state, seat)
        return impl

    stub.__name__ = stub.__qualname__ = kind
    overload(stub)(typer)
    return stub
