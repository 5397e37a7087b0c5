"""numba made ready for medici-sim's kernels, once, before the first of them compiles
(``games`` calls :func:`prepare` as it loads the engines).

- numba's debugging switch (``NUMBA_DISABLE_JIT``) is refused (ImportError :data:`JIT_OFF`):
  the kernels dispatch to strategies through code numba generates as it compiles.
- The compiled kernels are cached somewhere writable (``cache.configure_numba_cache``), and
  stay cached only while every source they may link is unchanged (``core.locators``).
- Calls between medici-sim's jitted functions compile once per type (``specialize``).
- Each compiled function's symbol is unique across processes (:func:`unique_symbols`).
- medici-sim's functions are compiled without numba's C-callable wrapper (:func:`no_cfunc_wrappers`).
- On x86-64, no jump crosses or ends on a 32-byte boundary of the machine code (:func:`pad_branches`).
"""
from __future__ import annotations

import platform
import secrets
from pathlib import Path

_PACKAGE = __name__.split(".")[0] + "."

JIT_OFF = ("NUMBA_DISABLE_JIT is set, and medici-sim cannot run without numba's compiler: its kernels "
           "dispatch to strategies through code numba generates as it compiles; unset it (to find a "
           "strategy's mistakes, run `medici-sim check-plugin FILE`)")


def prepare() -> None:
    """Make numba ready (idempotent); ImportError JIT_OFF if its compiler is switched off
    (NUMBA_DISABLE_JIT=1, or numba's config file)."""
    from numba.core import config

    if config.DISABLE_JIT:
        raise ImportError(JIT_OFF)
    from .cache import configure_numba_cache
    from .specialize import compile_by_type

    pad_branches()
    configure_numba_cache(Path(__file__).parents[1])
    from .locators import install  # numba's configuration read again first, where the cache must move

    install()
    compile_by_type()
    unique_symbols()
    no_cfunc_wrappers()


# LLVM's options for the code it emits: each jump padded off a 32-byte boundary, functions aligned on 32 bytes so that
# the padding holds wherever the code is loaded. Intel's cores from Skylake to Cascade Lake keep a jump that crosses
# or ends on such a boundary out of their decoded-instruction cache (the "JCC erratum" microcode): measured on one,
# every engine played 2.5-5% more games a second (docs/performance.md). This file's source is part of the cached
# code's stamp (core.locators), so code compiled under other options is compiled again.
X86_CODE_OPTIONS = ("-x86-branches-within-32B-boundaries", "-align-all-functions=5")


def pad_branches() -> None:
    """Have LLVM emit x86-64 code with its jumps padded off 32-byte boundaries
    (:data:`X86_CODE_OPTIONS`), for every function compiled in this process from now on. Nothing on other
    machines, nor for numba's generic CPU (``NUMBA_CPU_NAME=generic``: code for any machine, whose instructions
    ``benchmarks/count_instructions.py`` counts, nops not among them). Idempotent."""
    from numba.core import config

    if platform.machine().lower() not in ("x86_64", "amd64") or config.CPU_NAME == "generic":
        return
    from llvmlite import binding

    for option in X86_CODE_OPTIONS:
        binding.set_option("medici-sim", option)


def unique_symbols() -> None:
    """Give every function numba compiles a random uid instead of its per-process counter.

    numba names a compiled function's symbol by its qualified name, a per-process counter and
    its argument types, a record type by another per-process counter. Two processes that
    compile in the same order give two different kernels (e.g. two strategy tables' play
    loops) the same symbols; a third process loading both from the cache links the second
    to the first one's code, and plays the wrong strategies without a word (numba issue
    10486). A random 64-bit uid makes every symbol unique across processes.
    """
    from numba.core.bytecode import FunctionIdentity

    if not isinstance(FunctionIdentity._unique_ids, _RandomUids):
        FunctionIdentity._unique_ids = _RandomUids()


def no_cfunc_wrappers() -> None:
    """Compile medici-sim's jitted functions without numba's C-callable wrapper (``no_cfunc_wrapper``).

    numba lowers two wrappers around every function it compiles, one for Python's calls and one
    for C's (``cfunc``'s ``.address``), and LLVM optimises and assembles both. Nothing in medici-sim
    calls a function from C (the strategy table holds the addresses of the functions themselves,
    core.dispatch), so the second was a tenth of every first compilation for nothing. Other packages'
    functions (a plug-in's, numba's own) are compiled as numba makes them.
    """
    from numba.core.dispatcher import _FunctionCompiler

    original = _FunctionCompiler._customize_flags
    if getattr(original, "lean", False):
        return

    def customize_flags(self, flags):
        flags = original(self, flags)
        if (getattr(self.py_func, "__module__", None) or "").startswith(_PACKAGE):
            flags.no_cfunc_wrapper = True
        return flags

    customize_flags.lean = True
    _FunctionCompiler._customize_flags = customize_flags


class _RandomUids:
    """An endless iterator of random 64-bit uids (what numba takes ``next`` of)."""

    def __iter__(self):
        return self

    def __next__(self) -> int:
        return secrets.randbits(64)
