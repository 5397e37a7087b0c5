"""Where a kernel's first compilation goes: each jitted function's own CPU seconds, numba's passes, LLVM.

    python benchmarks/profile_compile.py                          # the card game's `random` kernel
    python benchmarks/profile_compile.py --game classic --strategies expert
    python benchmarks/profile_compile.py --game tuscany           # The Castles of Tuscany's main run's kernel
    python benchmarks/profile_compile.py --tuscany --top 40       # its bare batch kernel (bench_tuscany.py's)
    python benchmarks/profile_compile.py --warm                   # the usual cache: only what is not cached compiles
    python benchmarks/profile_compile.py --command "trace --players 3 --seed 7"   # any medici-sim command

It compiles the kernel in a child process with an empty numba cache (``NUMBA_CACHE_DIR``, a fresh
temporary directory) and lists, from numba's compile events, each function's compilations and the
CPU seconds spent compiling it less those of the functions compiled within it; then the same time
by compiler pass (less the compilations nested in the pass) and the time LLVM spent optimising and
linking the functions' modules (``finalize``: a function's module holds the code of every function
it calls, optimised again), all the time spent in LLVM's C library (optimising, and making machine
code), and numba's inlining (``inline="always"``) by callee and caller: the variables it copied
(it deep-copies an inlined body block by block, each block with the body's whole scope: a cost in
the square of the body's size). A function compiled more than once is compiled for several argument
types (typically a string literal typed by its value). CPU seconds of this process, so a loaded
machine inflates them somewhat; compare runs taken in turn. This reads numba internals (its
compile events, ``PassManager._runPass``, ``CPUCodeLibrary.finalize``): a development tool, checked
with numba 0.68.

``--command`` profiles a whole ``medici-sim`` command instead (its words after ``medici-sim``, one
string), run in the child as the command line runs it (its output dropped; an exit is not an error).
With ``--cache DIR`` (a directory kept between runs) the commands of bench_compile.py's ``--readme``
table can be profiled in turn, each compiling only what the ones before did not.
"""
from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def profile(args) -> None:
    """Compile the kernel here (the child), timing each function, pass and LLVM's work."""
    from numba.core import codegen, event
    from numba.core import compiler_machinery as machinery

    own = collections.Counter()  # function -> CPU seconds less nested compilations
    times = collections.Counter()  # function -> compilations
    passes = collections.Counter()
    stack: list[list] = []  # [name, start, nested seconds]
    nested_total = [0.0]

    class Timer(event.Listener):
        def on_start(self, ev):
            dispatcher = ev.data.get("dispatcher")
            function = dispatcher.py_func if dispatcher is not None else None
            name = f"{function.__module__.rsplit('.', 1)[-1]}.{function.__qualname__}" if function else "?"
            stack.append([name, time.process_time(), 0.0])

        def on_end(self, ev):
            name, start, nested = stack.pop()
            spent = time.process_time() - start
            if stack:
                stack[-1][2] += spent
            else:
                nested_total[0] += spent
            own[name] += spent - nested
            times[name] += 1

    event.register("numba:compile", Timer())
    run_pass = machinery.PassManager._runPass

    def timed_pass(self, index, pss, state):
        depth, start = len(stack), time.process_time()
        before = sum(frame[2] for frame in stack[depth - 1:depth])
        result = run_pass(self, index, pss, state)
        after = sum(frame[2] for frame in stack[depth - 1:depth])
        passes[pss.name()] += time.process_time() - start - (after - before)
        return result

    machinery.PassManager._runPass = timed_pass
    llvm = [0.0]
    finalize = codegen.CPUCodeLibrary.finalize

    def timed_finalize(library):
        start = time.process_time()
        finalize(library)
        llvm[0] += time.process_time() - start

    codegen.CPUCodeLibrary.finalize = timed_finalize
    in_c, copies = _count_llvm_and_inlining()
    start = time.process_time()
    compile_kernel(args)
    total = time.process_time() - start
    kernel = repr(args.command) if args.command else "tuscany" if args.tuscany else args.game
    print(f"{kernel} {args.strategies}: {sum(times.values())} compilations, {total:.1f} CPU s "
          f"(compiling {nested_total[0]:.1f}; LLVM's optimising and linking, within it, {llvm[0]:.1f})")
    print(f"in LLVM's C library, in all: {sum(in_c.values()):.1f} CPU s ("
          + ", ".join(f"{name.removeprefix('LLVMPY_')} {seconds:.1f}" for name, seconds in in_c.most_common(3)) + ")")
    print(f"numba's inlining copied {sum(copies.values()):,} variables; the most, callee <- caller:")
    for (callee, caller), n in copies.most_common(min(args.top, 6)):
        print(f"{n:11,d}  {callee} <- {caller}")
    print("CPU s (own)  compilations  function")
    for name, seconds in own.most_common(args.top):
        print(f"{seconds:11.2f}  {times[name]:12d}  {name}")
    print("CPU s (own)  compiler pass")
    for name, seconds in passes.most_common(min(args.top, 8)):
        print(f"{seconds:11.2f}  {name}")


def _count_llvm_and_inlining() -> tuple[collections.Counter, collections.Counter]:
    """Counters filled while compiling: CPU seconds in each of llvmlite's C functions, and the
    variables numba's inlining copies (``ir.Var.__deepcopy__``) per (callee, caller)."""
    from llvmlite.binding import ffi
    from numba.core import inline_closurecall, ir

    in_c, copies, copied = collections.Counter(), collections.Counter(), [0]
    call = ffi._lib_fn_wrapper.__call__

    def timed_call(self, *args, **kwargs):
        start = time.process_time()
        try:
            return call(self, *args, **kwargs)
        finally:
            in_c[getattr(self._cfn, "__name__", "?")] += time.process_time() - start

    ffi._lib_fn_wrapper.__call__ = timed_call
    deepcopy = ir.Var.__deepcopy__

    def counted_deepcopy(self, memo):
        copied[0] += 1
        return deepcopy(self, memo)

    ir.Var.__deepcopy__ = counted_deepcopy
    inline_ir = inline_closurecall.InlineWorker.inline_ir

    def counted_inline_ir(self, caller_ir, block, i, callee_ir, *rest, **kwargs):
        before = copied[0]
        result = inline_ir(self, caller_ir, block, i, callee_ir, *rest, **kwargs)
        copies[callee_ir.func_id.func_qualname, caller_ir.func_id.func_qualname] += copied[0] - before
        return result

    inline_closurecall.InlineWorker.inline_ir = counted_inline_ir
    return in_c, copies


def compile_kernel(args) -> None:
    """One game through the kernel of ``args.strategies`` at every seat (4 players); or ``args.command``."""
    if args.command:
        import contextlib  # noqa: PLC0415
        import io  # noqa: PLC0415
        import shlex  # noqa: PLC0415

        from medici_sim.cli import main as cli_main  # noqa: PLC0415

        sys.argv = ["medici-sim", *shlex.split(args.command)]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            cli_main()
        return
    if args.tuscany:
        sys.path.insert(0, str(Path(__file__).parent))
        import bench_tuscany  # noqa: PLC0415

        from medici_sim.games.tuscany.components import components  # noqa: PLC0415
        from medici_sim.games.tuscany.rules import RULE_BOOK  # noqa: PLC0415

        bench_tuscany.run(components(None), RULE_BOOK.resolve(None, 4), 1)
        return
    import medici_sim.games  # noqa: F401, PLC0415  the games register themselves
    from medici_sim.cli.common import load_game_components, parse_strategies  # noqa: PLC0415
    from medici_sim.core.driver import PreparedRun, RunConfig  # noqa: PLC0415
    from medici_sim.core.registry import get_game  # noqa: PLC0415

    PreparedRun(RunConfig(components=load_game_components(get_game(args.game), None), players=4, games=1, threads=1,
                          game=args.game, strategies=parse_strategies(args.strategies, 4, args.game))).play(0, 1)


def main() -> None:
    from medici_sim.cli.script_options import Parser, count

    parser = Parser(__doc__)
    parser.add_argument("--game", choices=("card", "classic", "tuscany"), default="card")
    parser.add_argument("--strategies", default="random", help="the strategies, at 4 seats [random]")
    parser.add_argument("--tuscany", action="store_true",
                        help="The Castles of Tuscany's bare batch kernel (bench_tuscany.py's: random)")
    parser.add_argument("--top", type=count(), default=25)
    parser.add_argument("--warm", action="store_true",
                        help="numba's usual cache, not an empty one (what is cached is loaded, not compiled)")
    parser.add_argument("--command", help="a whole medici-sim command instead (its words after medici-sim, one string; "
                                          "play reads its person's answers from stdin)")
    parser.add_argument("--cache", help="numba's cache directory to use and keep [an empty temporary one]")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.tuscany and args.strategies != "random":
        parser.refuse("--strategies", "--tuscany is timed with `random` only")
    if args.child:
        profile(args)
        return
    if not args.tuscany and not args.command:
        import medici_sim.games  # noqa: F401  the games register themselves
        from medici_sim.cli.common import parse_strategies

        try:
            parse_strategies(args.strategies, 4, args.game)
        except ValueError as exc:
            parser.refuse("--strategies", str(exc))
    with tempfile.TemporaryDirectory(prefix="profile_compile_") as cache:
        env = os.environ if args.warm else {**os.environ, "NUMBA_CACHE_DIR": args.cache or cache}
        done = subprocess.run([sys.executable, __file__, *sys.argv[1:], "--child"], env=env, check=False)
    sys.exit(done.returncode)


if __name__ == "__main__":
    main()
