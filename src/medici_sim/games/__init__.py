"""The games medici-sim plays; each registers itself (``core.registry.register_game``) on import.

A new game is a new folder here (rules data, state, engine, reference engine, strategies and
a ``Game`` record) and one line below.
"""
from ..core.numba_setup import prepare

prepare()  # before any engine compiles

from . import (  # noqa: E402
    card,  # noqa: F401
    classic,  # noqa: F401
)
