"""Strategy dispatch: how a game's kernel calls whichever strategy sits at a seat.

A game declares its decisions once, in its ``state.py``: ``reveal_nb = decision("reveal_nb")``.
The kernel then calls ``reveal_nb(table, strategy_id, state, seat)``. ``table`` is a record
(:func:`strategy_table`) of one type per game: the addresses of the run's strategies' compiled
decisions, ``[decision, strategy id]`` (or the code of a built-in compiled into the loop, below);
the call is an indirect call to that address. So:

- one compiled play loop serves every mix of strategies of a game, at any seats, whatever a
  run seats (built-ins, plug-ins, a rollout player), compiled once and cached by numba: a run's
  strategies are data (ids, parameters and addresses), never a type. The table's type name
  hashes the sources of the shared kernel code and of the game's package, so a cached kernel
  is never used with code it was not compiled from;
- each strategy's decision is compiled on its own (:func:`_decide`, a wrapper: a built-in's decision
  compiled into it, a plug-in's called by it as its author wrote it), once, and cached under a name
  hashing its sources: a run compiles only the strategies it
  uses (a run of the baseline alone compiles no heuristic), and a plug-in that is loaded but
  not used is never compiled, so it cannot break a run;
- a decision's exceptions reach the kernel as a direct call's would (numba's calling
  convention, :func:`_call_at_nb`), and nothing reference-counted is handed down: the state is a
  record, a seat's parameters a tuple of floats;
- a game's cheap built-ins (``Strategy(inline=True)``: a baseline, a one-line bidder) are compiled
  into the play loop itself: each call site tests the table's entry against their small codes
  (1, 2 ...: never an address) and calls the one it names directly, inlined, before falling back on
  the indirect call (:func:`_caller`). An indirect call costs what inlining saves: where the
  decision is a few instructions, about a tenth of a game's time (the classic game's ``value``).
  Their names and their files are hashed into the table's name, with the game's sources.

A *checked* table (``strategy_table(..., checked=True)``, or the names of the strategies to
check: ``medici-sim check-plugin`` checks a plug-in's) holds the addresses of checked wrappers
(core.checked): a byte-for-byte comparison of the state record before and after the
call (the deciding seat's ``scratch`` row and ``rng`` excepted) that raises an illegal
decision naming the first field changed. A *located* table (``located=True``) holds wrappers
telling Python which seat and strategy is deciding, and that the call returned: :func:`locate`
plays with it the one game in which a decision raised, to say whose decision that was (a jitted
kernel's exception says nothing of where it came from). Both play in the same kernel as a normal
table: only the addresses differ.

A rollout player's rollouts dispatch through a table of their own, read where they run
(:func:`runtime_table`: a getter of a table the process fills, never a constant compiled in),
and play the engine's own compiled play loop through an address the process fills likewise
(:func:`runtime_loop`, which the stepping functions call too): a rollout player's decision and a
stepping function are compiled without the engine's code linked in, so LLVM does not optimise
the whole engine again in each of them.
"""
from __future__ import annotations

import hashlib
import importlib
import inspect
import threading
from pathlib import Path

import numpy as np
from llvmlite import binding, ir
from numba import njit, objmode
from numba.core import cgutils, types
from numba.extending import intrinsic, overload
from numba.np.numpy_support import from_dtype

from .checked import checked_decide, checked_names
from .output import read_limited
from .registry import GAMES, MAX_PARAMS, StrategyRegistry
from .templates import defined, jitted_copy

MAX_SOURCE_BYTES = 64 << 20  # a strategy's source file (plug-ins are read within a far smaller bound first)
MAX_STRATEGIES = 64  # strategies one table holds (a run's, in registration order)
_TABLE_PREFIX = "strategy_table_"
PLAIN, CHECKED, LOCATED = range(3)  # a table's wrappers
_CODE_FLAGS = ("error_model", "fastmath", "boundscheck")  # a decision's options that change its code, not its use
_CORE = Path(__file__).parent
# core's files whose jitted code a kernel or a strategy's decision compiles in (numba's cache checks a function's own
# file only: a change to a callee's is seen through the table's name, which hashes these)
_KERNEL_CORE_FILES = ("rng.py", "seating.py", "ranking.py", "accounting.py", "arrays.py", "dispatch.py", "checked.py",
                      "registry.py", "rollout.py", "tree.py", "evaluation.py", "resumable.py", "replaying.py",
                      "kernel.py", "templates.py", "numba_setup.py")
_GAME_HASH: dict[tuple, str] = {}  # (game, package) -> its table name: a hash of the kernel's sources
_REGISTRY_OF: dict[str, StrategyRegistry] = {}  # table name -> the registry it was made of
_INLINED: dict[str, tuple] = {}  # table name -> the built-ins its play loops call inlined (code i + 1: the i-th)
_CALLERS: dict[tuple, object] = {}  # (table name, decision) -> its caller (:func:`_caller`)
_ADDRESSES: dict[tuple, int] = {}  # (game, strategy object id, decision, mode) -> its wrapper's address
_KEEP: list = []  # the compiled wrappers (their code stays loaded while the process runs)
_KEEP_STRATEGIES: dict[int, object] = {}  # the strategies whose addresses are known, by id
_RETURNS: dict[tuple, type] = {}  # (game, package, decision) -> what it returns: bool or int
_DECIDERS: dict[str, object] = {}  # name -> a table_decider (one per game and decision)
_RUNTIME: dict[str, list] = {}  # game -> its runtime tables: [policies, buffer, filled]
_LOOPS: dict[str, list] = {}  # game -> its runtime play loops: [play loop, its stand-in]
_SLOTS: dict[tuple, np.ndarray] = {}  # (loop number, table name) -> the loop's address for such tables (0: not yet)
_LOCK = threading.RLock()


def strategy_table(registry: StrategyRegistry, used=(), *, checked=False,
                   located: bool = False) -> tuple[np.void, tuple[str, ...]]:
    """A record holding the addresses of the compiled decisions of the strategies ``used``
    (registration order, their ids; the code of each built-in compiled into the play loop instead,
    in a plain table), and their names in id order.

    Every table of a game has one type, so every table plays in one compiled kernel; compiling
    a table compiles (or loads from numba's cache) only its strategies' decisions. ``checked``:
    their checked wrappers (no decision may write the state outside its own scratch, see the
    module doc): True for every strategy's, or the names of the strategies to check (the others'
    plain: check-plugin checks a plug-in's, not the built-ins it plays with, which it would compile
    again); ``located``: wrappers telling whose decision it is (:func:`locate`).
    """
    strategies = tuple(s for name, s in registry.items() if name in used)
    if len(strategies) > MAX_STRATEGIES:
        raise ValueError(f"a run may use at most {MAX_STRATEGIES} strategies, got {len(strategies)}")
    check = {s.name for s in strategies} if checked is True else set(checked or ())
    table = empty_table(registry)
    with _LOCK:
        for entry in _RUNTIME.get(registry.game, ()):  # their symbols known before a cached wrapper loads
            _runtime_buffer(registry, entry)
        _fill_loops(registry)  # the play loops' symbols too (a rollout player's wrapper names one)
        addresses = table[_table_name(registry)]
        for i, strategy in enumerate(strategies):
            mode = CHECKED if strategy.name in check else LOCATED if located else PLAIN
            for k, kind in enumerate(registry.decisions):
                addresses[k, i] = _entry(registry, strategy, kind, mode)
            _KEEP_STRATEGIES[id(strategy)] = strategy  # its id stays its own while the process runs
        if any(registry.origin.get(s.name) == "built-in" and s.name not in policies
               for policies, *_ in _RUNTIME.get(registry.game, ()) for s in strategies):
            _fill_runtime(registry)  # a rollout player: the heuristics its rollouts play
    return table, tuple(s.name for s in strategies)


def strategy_names(registry: StrategyRegistry, used=()) -> tuple[str, ...]:
    """The names of the strategies ``used``, in id order (a table's), compiling nothing."""
    return tuple(name for name, _ in registry.items() if name in used)


def empty_table(registry: StrategyRegistry) -> np.void:
    """A table of ``registry``'s game holding no strategy (its type: what a kernel is compiled for)."""
    name = _table_name(registry)
    return np.zeros(1, np.dtype([(name, np.uint64, (len(registry.decisions), MAX_STRATEGIES))]))[0]


def strategies_fingerprint(strategy) -> str:
    """A hash of the source files of a strategy's decision functions (checkpoints record it)."""
    digest = hashlib.sha256()
    for name, fn in strategy.decisions.items():
        digest.update(f"{name}={fn.py_func.__module__}.{fn.py_func.__qualname__}".encode())
        digest.update(Path(inspect.getsourcefile(fn.py_func)).read_bytes())
    return digest.hexdigest()[:16]


def _table_name(registry: StrategyRegistry) -> str:
    """The table type's name of a game: a hash of the kernel's sources (core's and the game's).
    Made first, it learns what each decision returns (:func:`_returns`)."""
    key = (registry.game, registry.package)  # a registry of the game's made later (a test's) shares its loop
    if key not in _GAME_HASH:
        inlined = tuple(s for name, s in registry.items() if s.inline and registry.origin[name] == "built-in")
        digest = hashlib.sha256(registry.game.encode())
        files = {_CORE / name for name in _KERNEL_CORE_FILES} | {f for d in registry.source_dirs
                                                                   for f in d.rglob("*.py")}
        # the inlined built-ins' own files too (compiled into the loop: their module's name alone proves nothing)
        files |= {Path(inspect.getsourcefile(fn.py_func)) for s in inlined for fn in s.decisions.values()}
        game = GAMES.get(registry.game)
        if game is not None and game.study is not None:  # its data compiled into kernels (tuned parameters, weights)
            files |= set(game.study.kernel_data)
        for path in sorted(files):
            digest.update(read_limited(path, MAX_SOURCE_BYTES, "a strategy's source"))
        digest.update(" ".join(s.name for s in inlined).encode())
        name = _TABLE_PREFIX + digest.hexdigest()[:24]
        for kind in registry.decisions:
            _returns(registry, kind)
        _INLINED[name] = inlined
        _REGISTRY_OF[name] = registry
        _GAME_HASH[key] = name
    return _GAME_HASH[key]


def _name_of(table_type) -> str:
    if not isinstance(table_type, types.Record):
        raise TypeError("the strategy table must come from strategy_table()")
    (name,) = table_type.fields
    return name


def _state_type(registry: StrategyRegistry):
    """The numba type of the game's state record (its ``STATE_DTYPE``, in its ``state`` or ``engine``)."""
    for module in (".state", ".engine", ""):
        try:
            found = getattr(importlib.import_module(registry.package + module), "STATE_DTYPE", None)
        except ModuleNotFoundError:
            continue
        if found is not None:
            return from_dtype(found)
    raise TypeError(f"the {registry.game} game's package defines no STATE_DTYPE")


def _signature(registry: StrategyRegistry) -> tuple:
    """A decision's argument types: (state record, seat, parameters)."""
    return _state_type(registry), types.int64, types.UniTuple(types.float64, MAX_PARAMS)


def _returns(registry: StrategyRegistry, kind: str) -> type:
    """What decision ``kind`` returns, bool or int: what the game's first strategy's returns
    (every strategy's answer is made that type, so the kernel's calls have one type)."""
    key = (registry.game, registry.package, kind)
    if key not in _RETURNS:
        first = next(iter(registry.strategies.values())).decisions[kind]
        signature = _signature(registry)
        first.compile(signature)
        returned = first.overloads[signature].signature.return_type
        _RETURNS[key] = bool if isinstance(returned, types.Boolean) else int
    return _RETURNS[key]


def _entry(registry: StrategyRegistry, strategy, kind: str, mode: int) -> int:
    """What a table holds for ``strategy``'s decision ``kind`` wrapped as ``mode`` asks: the code of
    a built-in the play loops call inlined (plain tables only: the others' wrappers do more), else
    the address of its wrapper."""
    if mode == PLAIN:
        for code, inlined in enumerate(_INLINED[_table_name(registry)], 1):
            if inlined is strategy:
                return code
    return _address(registry, strategy, kind, mode)


def _address(registry: StrategyRegistry, strategy, kind: str, mode: int) -> int:
    """The address of ``strategy``'s decision ``kind`` wrapped as ``mode`` asks (compiled once a process)."""
    key = (registry.game, registry.package, id(strategy), kind, mode)
    if key in _ADDRESSES:
        return _ADDRESSES[key]
    state = _signature(registry)[0]
    returns = _returns(registry, kind)
    fn = strategy.decisions[kind]
    digest = hashlib.sha256(f"{_table_name(registry)} {strategy.name} {kind} {mode} {returns.__name__}".encode())
    digest.update(f"{fn.py_func.__module__}.{fn.py_func.__qualname__}".encode())
    digest.update(read_limited(Path(inspect.getsourcefile(fn.py_func)), MAX_SOURCE_BYTES, "a strategy's source"))
    # A built-in's decision compiled into its wrapper (numba's inlining: one call less a decision, the strongest
    # heuristic of one game 2.8% faster, docs/performance.md), under the decision's own code flags (its error model).
    # A plug-in's is called as its author wrote it: numba inlines no objmode block, and its compile errors name it.
    flags = {}
    if registry.origin.get(strategy.name) == "built-in":
        flags = {k: v for k, v in fn.targetoptions.items() if k in _CODE_FLAGS}
        fn = jitted_copy(fn.py_func, fn.py_func.__globals__, inline="always")
    namespace = {**globals(), "decide_fn": fn, "answer": _as_bool_nb if returns is bool else _as_int_nb}
    template = _decide
    if mode == CHECKED:
        namespace.update(checked_names(state.dtype))
        template = checked_decide
    elif mode == LOCATED:
        namespace["note"] = _note_nb
        template = _located_decide
    # called only through its address: no wrapper for Python's calls (numba lowers and LLVM assembles one otherwise)
    wrapper = jitted_copy(template, namespace, f"decide_{digest.hexdigest()[:24]}", cache=True, nogil=True,
                          no_cpython_wrapper=True, **flags)
    signature = (state, types.int64, types.int64)
    result = compile_decision(wrapper, signature)
    address = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)
    if not address:
        raise RuntimeError(f"strategy {strategy.name}: no address for its compiled {kind}")
    _KEEP.append(wrapper)
    _ADDRESSES[key] = address
    return address


def compile_decision(wrapper, signature):
    """``wrapper`` compiled (or loaded from the cache) for ``signature``; what fails here is a failure
    to compile (driver.while_compiling knows this function by its name)."""
    wrapper.compile(signature)
    return wrapper.overloads[signature]


@njit(cache=True, inline="always")
def params_nb(state, seat):
    """The seat's parameters as a tuple of floats (read here, not handed down: fewer arguments a call)."""
    row = state.seat_params[seat]
    return (row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7])


assert MAX_PARAMS == 8, "params_nb reads MAX_PARAMS floats"


@njit(cache=True, inline="always")
def _as_bool_nb(answer):
    return answer != 0


@njit(cache=True, inline="always")
def _as_int_nb(answer):
    return np.int64(answer)


def _decide(state, seat, strategy):
    """A strategy's decision as the kernel calls it (its answer as the decision's one type)."""
    return answer(decide_fn(state, seat, params_nb(state, seat)))  # noqa: F821


def _located_decide(state, seat, strategy):
    """:func:`_decide` noting (:func:`locate`) the seat and strategy of each call, and its return."""
    note(seat, strategy)  # noqa: F821
    result = answer(decide_fn(state, seat, params_nb(state, seat)))  # noqa: F821
    note(-1, -1)  # noqa: F821
    return result


@intrinsic
def _entry_nb(typingctx, table, decision, strategy):
    """``table``'s entry ``[decision, strategy]``: an inlined built-in's code or a wrapper's address."""
    columns = table.dtype.fields[_name_of(table)][0].shape[1]

    def codegen(context, builder, signature, args):
        record, k, strategy_id = args
        words = builder.bitcast(record, ir.IntType(64).as_pointer())
        at = builder.add(builder.mul(k, context.get_constant(types.int64, columns)), strategy_id)
        return builder.load(builder.gep(words, [at]))
    return types.uint64(table, types.int64, types.int64), codegen


@intrinsic
def _call_at_nb(typingctx, address, strategy, state, seat, returns):
    """The compiled decision wrapper at ``address`` called with (state, seat, strategy), returning a
    ``returns``: an indirect call in numba's calling convention, so what the decision raises is
    raised here."""
    answer = returns.instance_type
    arguments = (state, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        address, strategy_id, state_value, seat_value, _ = args
        function = context.call_conv.get_function_type(answer, arguments)
        callee = builder.inttoptr(address, function.as_pointer())
        status, result = context.call_conv.call_function(builder, callee, answer, arguments,
                                                         (state_value, seat_value, strategy_id))
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return result
    return answer(types.uint64, types.int64, state, types.int64, returns), codegen


def _caller(registry: StrategyRegistry, kind: str):
    """The ``(table, strategy, state, seat) -> answer`` that asks decision ``kind`` of the table's
    strategy ``strategy``: the game's inlined built-ins (their codes, see the module doc) called
    directly, any other strategy through its wrapper's address. A Python function, which
    :func:`decision`'s overload compiles inlined where it is called (one level of numba's inlining:
    two, a jitted copy inlined inside the overload, cost The Castles of Tuscany's first run 5 CPU s)."""
    name = _table_name(registry)
    key = (name, kind)
    # No lock: numba's typing calls this holding its own lock, and strategy_table holds ours while it waits for
    # numba's. Nothing here compiles (what each decision returns is known since the table's name was made).
    if key not in _CALLERS:
        k = registry.decisions.index(kind)
        returns = types.boolean if _returns(registry, kind) is bool else types.int64
        namespace = {**globals(), "K": k, "RETURNS": returns,
                     "answer": _as_bool_nb if returns is types.boolean else _as_int_nb}
        lines = [f"def ask_{kind}(table, strategy, state, seat):",
                 "    at = _entry_nb(table, K, strategy)"]
        # one comparison a code (a guard `at <= codes` before them played the classic game 1-1.5% slower)
        for code, strategy in enumerate(_INLINED[name], 1):
            namespace[f"inlined_{code}"] = strategy.decisions[kind]
            lines += [f"    if at == {code}:",
                      f"        return answer(inlined_{code}(state, seat, params_nb(state, seat)))"]
        lines.append("    return _call_at_nb(at, strategy, state, seat, RETURNS)")
        _CALLERS.setdefault(key, defined(lines, namespace, f"ask_{kind}"))
    return _CALLERS[key]


def runtime_table(registry: StrategyRegistry, policies: tuple[str, ...]):
    """A jitted ``() -> table`` of the strategies ``policies`` (ids in this order): what a rollout
    player's rollouts dispatch through. The table lives in this process (its addresses are this
    process's), found by the compiled code through a symbol; it is filled when a run first uses
    a rollout player (a built-in that is not among ``policies``)."""
    symbol = f"medici_sim_rollout_table_{registry.game}_{len(_RUNTIME.get(registry.game, ()))}"
    entry = [policies, None, False, symbol]  # its buffer made when first needed (importing compiles nothing)
    _RUNTIME.setdefault(registry.game, []).append(entry)

    @intrinsic
    def read(typingctx):
        record = from_dtype(_runtime_buffer(registry, entry).dtype)

        def codegen(context, builder, signature, args):
            return builder.bitcast(_global(builder.module, symbol), context.get_value_type(record))
        return record(), codegen

    @njit(inline="always")
    def table_nb():
        return read()
    return table_nb


def runtime_loop(game: str, loop):
    """A jitted stand-in for ``game``'s play loop ``loop`` (``finish_game_nb(state, table, seat,
    phase, arg, until, record)``, ``record`` a bool: core.resumable) that calls the loop's
    compiled code through an address the process keeps under a symbol naming the table's type,
    filled when a strategy table of that type is made (:func:`strategy_table`,
    :func:`ready_rollouts`): code calling it (a rollout player's decisions, the stepping functions)
    is compiled without the loop's code linked in, so LLVM does not optimise the whole engine again
    in each of its functions (most of what they cost to compile), and runs the kernel's own compiled
    loop. One stand-in a loop."""
    for entry in _LOOPS.get(game, ()):
        if entry[0] is loop:
            return entry[1]
    number = len(_LOOPS.get(game, ()))
    arguments = (types.int64,) * 4 + (types.boolean,)

    @intrinsic
    def call(typingctx, state, table, seat, phase, arg, until, record):
        signature = (state, table, *arguments)
        symbol = _loop_symbol(number, _name_of(table))
        _loop_slot(number, _name_of(table))  # the symbol known before this code loads

        def codegen(context, builder, sig, args):
            address = builder.load(builder.bitcast(_global(builder.module, symbol), ir.IntType(64).as_pointer()))
            with cgutils.if_unlikely(builder, cgutils.is_null(builder, address)):
                context.call_conv.return_user_exc(builder, RuntimeError, (f"{symbol}: its table was not made",))
            function = context.call_conv.get_function_type(types.boolean, signature)
            callee = builder.inttoptr(address, function.as_pointer())
            values = [context.cast(builder, value, have, want) for value, have, want in
                      zip(args, sig.args, signature, strict=True)]
            status, result = context.call_conv.call_function(builder, callee, types.boolean, signature, values)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return result
        return types.boolean(state, table, seat, phase, arg, until, record), codegen

    @njit(inline="always")
    def loop_nb(state, table, seat, phase, arg, until, record):
        return call(state, table, seat, phase, arg, until, record)
    with _LOCK:
        _LOOPS.setdefault(game, []).append([loop, loop_nb])
        for registry in [r for r in _REGISTRY_OF.values() if r.game == game]:  # tables made before: filled now
            _fill_loops(registry)
    return loop_nb


def _loop_symbol(number: int, table_name: str) -> str:
    return f"medici_sim_play_loop_{number}_{table_name}"


def _loop_slot(number: int, table_name: str) -> np.ndarray:
    """The address of play loop ``number`` for tables ``table_name`` (0 until filled), under its symbol."""
    key = (number, table_name)
    if key not in _SLOTS:
        _SLOTS[key] = np.zeros(1, np.uint64)
        binding.add_symbol(_loop_symbol(number, table_name), _SLOTS[key].ctypes.data)
    return _SLOTS[key]


def _fill_loops(registry: StrategyRegistry) -> None:
    """The addresses of the game's play loops (:func:`runtime_loop`) for its table type, compiled (or
    loaded) now, under their symbols (known before any code naming them loads)."""
    name = _table_name(registry)
    for number, (loop, _) in enumerate(_LOOPS.get(registry.game, ())):
        slot = _loop_slot(number, name)
        if not slot[0]:
            signature = (_state_type(registry), from_dtype(empty_table(registry).dtype), *(types.int64,) * 4,
                         types.boolean)
            result = compile_decision(loop, signature)
            slot[0] = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)
            _KEEP.append(loop)


def _global(module, symbol: str):
    """The external byte ``symbol`` declared in ``module`` (once)."""
    try:
        return module.get_global(symbol)
    except KeyError:
        return ir.GlobalVariable(module, ir.IntType(8), symbol)


def _runtime_buffer(registry: StrategyRegistry, entry: list) -> np.ndarray:
    """A runtime table's buffer, made and given its symbol at the first call."""
    if entry[1] is None:
        entry[1] = np.zeros(1, empty_table(registry).dtype)
        binding.add_symbol(entry[3], entry[1].ctypes.data)
    return entry[1]


def ready_rollouts(registry: StrategyRegistry) -> None:
    """Fill the game's rollout tables now: for code that calls a rollout player's decisions outside a run whose
    table seats one (a learned player's training labels); an unfilled table would be called at address 0."""
    with _LOCK:
        _fill_loops(registry)
        _fill_runtime(registry)


def _fill_runtime(registry: StrategyRegistry) -> None:
    for entry in _RUNTIME.get(registry.game, ()):
        policies, _, filled, _ = entry
        if filled:
            continue
        addresses = _runtime_buffer(registry, entry)[0][_table_name(registry)]
        for i, name in enumerate(policies):
            for k, kind in enumerate(registry.decisions):
                addresses[k, i] = _entry(registry, registry[name], kind, PLAIN)
        entry[2] = True


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


def decision(kind: str):
    """A decision the kernel can ask of the strategy at a seat: ``kind(table, strategy, state, seat)``.

    Callable from jitted code only; the strategy's function for ``kind`` answers, inlined (a
    built-in compiled into the loop) or through the table's address of it (:func:`_caller`).
    """
    def stub(table, strategy, state, seat):
        raise NotImplementedError(f"{kind} is only callable from jitted code")

    def typer(table, strategy, state, seat):
        return _caller(_registry_of(_name_of(table)), kind)

    stub.__name__ = stub.__qualname__ = kind
    overload(stub, inline="always")(typer)
    return stub


def _decide_through(table, strategy, state, seat):
    """The decision of ``table``'s strategy ``strategy`` at ``seat``, called from Python."""
    return ask(table, strategy, state, seat)  # noqa: F821


def table_decider(registry: StrategyRegistry, kind: str):
    """A jitted ``(table, strategy, state, seat) -> answer`` that Python calls to have a table's strategy
    answer the decision ``kind`` on a state record, as a run asks it (:func:`_caller`): the same compiled
    wrappers, so a strategy whose run is cached answers at once (a framework's bot). One is compiled per game
    and decision, cached under the table's name (a hash of the sources, as the kernels' are)."""
    name = f"decide_through_{_table_name(registry)[len(_TABLE_PREFIX):]}_{kind}"
    with _LOCK:
        if name not in _DECIDERS:
            ask = njit(inline="always")(_caller(registry, kind))
            _DECIDERS[name] = jitted_copy(_decide_through, {**globals(), "ask": ask}, name, cache=True)
    return _DECIDERS[name]


def _registry_of(table_name: str) -> StrategyRegistry:
    """The registry whose tables are named ``table_name`` (made in this process)."""
    if table_name not in _REGISTRY_OF:
        raise TypeError(f"no strategy table named {table_name} was made in this process")
    return _REGISTRY_OF[table_name]
