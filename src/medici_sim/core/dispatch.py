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

A *checked* table (``strategy_table(..., checked=True)``, used by ``medici-sim check-plugin``)
names the same strategies under another name, so it compiles a kernel of its own: its
``decide`` wraps every decision in a byte-for-byte comparison of the state record before
and after the call (the deciding seat's ``scratch`` row and ``rng`` excepted) and raises an
illegal decision naming the first field changed. Normal tables never pay for it.

A *located* table (``strategy_table(..., located=True)``) names them under a third name: its
``decide`` tells Python which seat and strategy it is calling, and that the call returned.
:func:`locate` plays with it the one game in which a decision raised, to say whose decision
that was (a jitted kernel's exception says nothing of where it came from).
"""
from __future__ import annotations

import hashlib
import inspect
import threading
from pathlib import Path

import numpy as np
from numba import carray, njit, objmode
from numba.core import types
from numba.extending import intrinsic, overload

from .output import read_limited
from .registry import GAMES, ILLEGAL, MAX_PARAMS, StrategyRegistry
from .templates import generated

MAX_SOURCE_BYTES = 64 << 20  # a strategy's source file (plug-ins are read within a far smaller bound first)
_TABLE_PREFIX = "strategy_table_"
_CHECKED_SUFFIX = "_checked"
_LOCATED_SUFFIX = "_located"
STATE_CHANGED = "changed the game state outside its scratch"  # what a checked decide reports
_TABLES: dict[str, tuple] = {}  # table name -> the registered Strategy objects, in id order
_NAMES: dict[tuple, str] = {}  # registry snapshot (object ids) -> table name: sources hashed once
_CORE = Path(__file__).parent
_KERNEL_CORE_FILES = ("rng.py", "seating.py", "ranking.py", "accounting.py", "arrays.py", "dispatch.py", "registry.py",
                      "rollout.py", "tree_search.py", "resumable.py", "replaying.py", "kernel.py", "templates.py",
                      "numba_setup.py", "evaluation.py")


def strategy_table(registry: StrategyRegistry, used=(), *, checked: bool = False,
                   located: bool = False) -> tuple[np.void, tuple[str, ...]]:
    """A one-byte record naming (by its dtype) the strategies a run's kernel dispatches to,
    and their names in id order.

    Those are the strategies the run uses, in registration order: only what a run uses is
    compiled (a run of ``random`` alone compiles no ``expert``), every mix of the same
    strategies (any seats, any parameters) shares one table and one compiled kernel, cached
    by numba for later runs, and a plug-in that is loaded but not used is never compiled, so
    it cannot break a run. ``checked``: the same strategies in a
    table whose kernel checks that no decision writes the state outside its own scratch
    (a separate, slower kernel; see the module doc); ``located``: in a table whose kernel tells
    whose decision it is in (another kernel, for :func:`locate`).
    """
    strategies = tuple(s for name, s in registry.items() if name in used)
    key = (registry.game, *map(id, strategies))  # the objects stay alive in the registry and _TABLES
    if key not in _NAMES:  # sources hashed once per snapshot: every batch asks for the table
        _NAMES[key] = _table_name(registry, strategies)
    name = _NAMES[key]
    if checked or located:
        name += _CHECKED_SUFFIX if checked else _LOCATED_SUFFIX
        _TABLES[name] = strategies
    return np.zeros(1, np.dtype([(name, np.uint8)]))[0], tuple(s.name for s in strategies)


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
    game = GAMES.get(registry.game)
    if game is not None and game.study is not None:  # its data compiled into kernels (tuned parameters, weights)
        files |= set(game.study.kernel_data)
    for strategy in strategies:
        digest.update(strategy.name.encode())
        for name, fn in strategy.decisions.items():
            digest.update(f"{name}={fn.py_func.__module__}.{fn.py_func.__qualname__}".encode())
            files.add(Path(inspect.getsourcefile(fn.py_func)))
    for path in sorted(files):
        digest.update(read_limited(path, MAX_SOURCE_BYTES, "a strategy's source"))
    name = _TABLE_PREFIX + digest.hexdigest()[:24]
    _TABLES[name] = strategies
    return name


def _strategies_of(table_type) -> tuple:
    return _TABLES[_name_of(table_type)]


def _name_of(table_type) -> str:
    if not isinstance(table_type, types.Record):
        raise TypeError("the strategy table must come from strategy_table()")
    (name,) = table_type.fields
    return name


def _generated(lines: list[str], namespace: dict, name: str, **options):
    """``njit(**options)`` of the function ``name`` that ``lines`` define (core.templates.generated).

    numba links compiled functions by a symbol made of the module, the qualified name, a
    per-process counter and the argument types. A generated decide's behaviour comes from its
    globals (which strategies it calls), not from its types, so two tables' decides would share
    a symbol whenever their counters matched: a kernel loaded from the cache could then call
    another table's decide. ``name`` holds the table's name and the decision, so the symbols
    of different tables differ by construction.
    """
    return generated(lines, namespace, name, **options)


def _switch(functions, name: str):
    """A jitted ``decide(strategy_id, state, seat)`` calling ``functions[strategy_id]`` with
    the seat's parameters as a tuple; ``name`` names it (unique per table and decision).

    Written out as one flat ``if`` chain (one compare per strategy, no nested calls).
    """
    row = ", ".join(f"row[{k}]" for k in range(MAX_PARAMS))
    lines = [f"def {name}(strategy, state, seat):",
             "    row = state.seat_params[seat]",
             f"    params = ({row},)"]
    for i in range(len(functions)):
        lines += [f"    if strategy == {i}:", f"        return strategy_{i}(state, seat, params)"]
    lines.append("    raise ValueError('unknown strategy id')")
    return _generated(lines, {f"strategy_{i}": fn for i, fn in enumerate(functions)}, name, inline="always")


@intrinsic
def _record_pointer(typingctx, record, word):
    """A pointer to a state record's data as words of type ``word`` (np.uint8 or np.uint64):
    numba passes a record as a pointer to its data, so this is a cast."""
    if not isinstance(record, types.Record) or not isinstance(word, types.NumberClass):
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(signature.return_type))
    return types.CPointer(word.instance_type)(record, word), codegen


def _checked_switch(functions, state_type, name: str):
    """``_switch`` wrapped in a check that the decision wrote nothing in the state record
    but the deciding seat's ``scratch`` row and ``rng``: the record's bytes are copied before
    the call and compared after it (8 bytes at a time where the record's size allows).

    A change raises ``ValueError(ILLEGAL, seat, strategy, "... (field NAME)")``, NAME the
    first field changed (the field list is the record's, so any game's state works).
    """
    inner = _switch(functions, name + "_unchecked")
    dtype = state_type.dtype
    word = 8 if dtype.itemsize % 8 == 0 else 1
    scratch, scratch_at = dtype.fields["scratch"][:2]
    rng, rng_at = dtype.fields["rng"][:2]
    if scratch_at % word or rng_at % word or scratch.itemsize // scratch.shape[0] % word or rng.itemsize % word:
        word = 1
    row = scratch.itemsize // scratch.shape[0]  # bytes of one seat's scratch
    fields = sorted((offset, name) for name, (_, offset, *_) in dtype.fields.items())
    lines = [f"def {name}(strategy, state, seat):",
             f"    live = carray(record_pointer(state, WORD), {dtype.itemsize // word}, WORD)",
             "    before = live.copy()",
             "    result = inner(strategy, state, seat)",
             f"    mine = ({scratch_at} + seat * {row}) // {word}",
             f"    before[mine:mine + {row // word}] = live[mine:mine + {row // word}]",
             f"    before[{rng_at // word}:{(rng_at + rng.itemsize) // word}] = "
             f"live[{rng_at // word}:{(rng_at + rng.itemsize) // word}]",
             "    if differ(before, live):",
             f"        at = first_difference(before, live) * {word}"]
    ends = [offset for offset, _ in fields[1:]] + [dtype.itemsize]
    for (_, field), end in zip(fields, ends, strict=True):  # the field holding byte `at`
        what = STATE_CHANGED + (" (another seat's scratch)" if field == "scratch" else f" (field {field})")
        lines += [f"        if at < {end}:", f"            changed(seat, strategy, {what!r})"]
    lines += [f"        changed(seat, strategy, {STATE_CHANGED!r})", "    return result"]
    namespace = {"carray": carray, "record_pointer": _record_pointer, "WORD": np.uint64 if word == 8 else np.uint8,
                 "inner": inner, "differ": _differ_nb, "first_difference": _first_difference_nb, "changed": _changed_nb}
    return _generated(lines, namespace, name)


_deciding = threading.local()  # .where: (seat, strategy id) of the decision a located kernel is in


def locate(registry: StrategyRegistry, used, play) -> tuple[bool, tuple[int, str] | None]:
    """Call ``play(table)`` with the located table of strategies ``used``: whether it raised,
    and if it raised in a decision, whose: (seat, strategy name)."""
    table, names = strategy_table(registry, used, located=True)
    _note(-1, -1)
    try:
        play(table)
    except Exception:  # noqa: BLE001  any failure: where it happened is the answer
        where = _deciding.where
        return True, None if where is None else (where[0], names[where[1]])
    return False, None


def _note(seat, strategy):
    _deciding.where = (int(seat), int(strategy)) if seat >= 0 else None


@njit(cache=True)
def _note_nb(seat, strategy):
    with objmode():
        _note(seat, strategy)


def _located_switch(functions, name: str):
    """``_switch`` noting (:func:`deciding`) the seat and strategy of each call, and its return."""
    inner = _switch(functions, name + "_unlocated")
    lines = [f"def {name}(strategy, state, seat):",
             "    note(seat, strategy)",
             "    result = inner(strategy, state, seat)",
             "    note(-1, -1)",
             "    return result"]
    return _generated(lines, {"inner": inner, "note": _note_nb}, name)


@njit(cache=True)
def _changed_nb(seat, strategy, what):
    """Raise the illegal decision of a checked decide. It lives here, cached, not in the
    generated decide: numba cannot rebuild a generated function's exception values when it
    loads a kernel from its cache."""
    raise ValueError(ILLEGAL, seat, strategy, what)


@njit(cache=True)
def _differ_nb(a, b):
    """Whether two equal-length arrays differ (a branch-free loop the compiler vectorizes)."""
    acc = a[0] ^ a[0]
    for i in range(a.size):
        acc |= a[i] ^ b[i]
    return acc != 0


@njit(cache=True)
def _first_difference_nb(a, b):
    for i in range(a.size):
        if a[i] != b[i]:
            return i
    return a.size


def decision(kind: str):
    """A decision the kernel can ask of the strategy at a seat: ``kind(table, strategy, state, seat)``.

    Callable from jitted code only; the strategy's function for ``kind`` answers.
    """
    def stub(table, strategy, state, seat):
        raise NotImplementedError(f"{kind} is only callable from jitted code")

    def typer(table, strategy, state, seat):
        functions = [s.decisions[kind] for s in _strategies_of(table)]
        table_name = _name_of(table)
        name = f"decide_{kind}_{table_name}"
        if table_name.endswith(_CHECKED_SUFFIX):
            decide = _checked_switch(functions, state, name)
        elif table_name.endswith(_LOCATED_SUFFIX):
            decide = _located_switch(functions, name)
        else:
            decide = _switch(functions, name)

        def impl(table, strategy, state, seat):
            return decide(strategy, state, seat)
        return impl

    stub.__name__ = stub.__qualname__ = kind
    overload(stub, inline="always")(typer)
    return stub
