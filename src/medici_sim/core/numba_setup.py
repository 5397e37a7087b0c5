"""numba made ready for medici-sim's kernels, once, before the first of them compiles
(``games`` calls :func:`prepare` as it loads the engines).

- numba's debugging switch (``NUMBA_DISABLE_JIT``) is refused (ImportError :data:`JIT_OFF`):
  the kernels dispatch to strategies through code numba generates as it compiles.
- The compiled kernels are cached somewhere writable (``cache.configure_numba_cache``).
- Calls between medici-sim's jitted functions compile once per type (``specialize``).
"""
from __future__ import annotations

from pathlib import Path

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

    configure_numba_cache(Path(__file__).parents[1])
    compile_by_type()
