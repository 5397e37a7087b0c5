"""Strategy dispatch: how the engine loop calls whichever strategy sits at a seat.

The engine calls ``reveal_nb(table, strategy_id, state, seat)`` and ``take_nb(...)``.
``table`` is a one-byte numpy record whose dtype names a snapshot of the strategy
registry (:func:`strategy_table`); at compile time the overloads below turn that name
into an ``if`` chain over the registered strategies' functions. So:

- one compiled kernel serves every mix of strategies at any seats (a mix is only data:
  strategy ids and parameter vectors);
- a new strategy (built-in or plug-in) is a new table, hence a new signature, compiled
  once and cached by numba; the table's name hashes the sources of the package and of
  every registered strategy, so a cached kernel is never used with code it was not
  compiled from;
- nothing reference-counted is handed down to the decisions: the table is a record, not
  an array, and a seat's parameters reach its strategy as a tuple of floats. Numba
  passes both without touching a reference count, while every array argument costs
  reference-count updates at each call (profiled: about 6% of an ``expert`` game).
"""
from __future__ import annotations

import hashlib
import inspect
from pathlib import Path

import numpy as np
from numba import njit
from numba.core import types
from numba.extending import overload

_TABLE_PREFIX = "strategy_table_"
_TABLES: dict[str, tuple] = {}  # table name -> the registered Strategy objects, in id order
_NAMES: dict[tuple, str] = {}  # registry snapshot (object ids) -> table name: sources hashed once
_PACKAGE = Path(__file__).parent
# Modules without jitted code: editing them must not make a new table (a recompilation).
_NOT_KERNEL = {"cli.py", "stats.py", "output.py", "simulate.py", "reference.py", "plugins.py", "__main__.py"}


def strategy_table() -> np.void:
    """A one-byte record naming (by its dtype) the strategies registered now."""
    from .strategies import REGISTRY

    strategies = tuple(REGISTRY.values())
    key = tuple(map(id, strategies))  # the registered objects stay alive in REGISTRY and _TABLES
    if key not in _NAMES:  # sources hashed once per registry: every batch asks for the table
        _NAMES[key] = _table_name(strategies)
    return np.zeros(1, np.dtype([(_NAMES[key], np.uint8)]))[0]


def _table_name(strategies: tuple) -> str:
    """The table name of a registry snapshot: a hash of its names, functions and sources."""
    digest = hashlib.sha256()
    files = {path for path in _PACKAGE.rglob("*.py") if path.name not in _NOT_KERNEL}
    for strategy in strategies:
        digest.update(strategy.name.encode())
        for fn in (strategy.reveal_nb, strategy.take_nb):
            digest.update(f"{fn.py_func.__module__}.{fn.py_func.__qualname__}".encode())
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
    from .engine import MAX_PARAMS  # engine imports this module

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


def reveal_nb(table, strategy, state, seat):
    """Ask the strategy at ``seat`` whether to reveal another card (R9). Jitted code only."""
    raise NotImplementedError("reveal_nb is only callable from jitted code")


def take_nb(table, strategy, state, seat):
    """Ask the strategy at ``seat`` which earlier cards to take (R10). Jitted code only."""
    raise NotImplementedError("take_nb is only callable from jitted code")


def _dispatch_overload(attribute):
    def typer(table, strategy, state, seat):
        decide = _switch([getattr(s, attribute) for s in _strategies_of(table)])

        def impl(table, strategy, state, seat):
            return decide(strategy, state, seat)
        return impl
    return typer


overload(reveal_nb)(_dispatch_overload("reveal_nb"))
overload(take_nb)(_dispatch_overload("take_nb"))
