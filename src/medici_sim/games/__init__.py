"""The games medici-sim plays; each registers itself (``core.registry.register_game``) on import.

A new game is a new folder here (rules data, state, engine, reference engine, strategies and
a ``Game`` record holding every fact the commands need of it) and one line below. A game kept
elsewhere (a game of one's own, the test suite's toy game) is named in the environment
variable ``MEDICI_SIM_GAMES`` (``core.registry.register_games_from``), read after these.

:func:`load` (``games.playing``) is the small public game API: a game by name, new games of it,
their legal choices, moves, returns and a text view.
"""
import os

from ..core.numba_setup import prepare

prepare()  # before any engine compiles

from ..core.registry import GAMES_ENV, Param, Strategy, register_games_from  # noqa: E402
from . import (  # noqa: E402
    card,  # noqa: F401
    classic,  # noqa: F401
    tuscany,  # noqa: F401
)
from .playing import load  # noqa: E402

__all__ = ["Param", "Strategy", "load"]  # what a plug-in registers, and the small public game API

register_games_from(os.environ.get(GAMES_ENV, ""))
