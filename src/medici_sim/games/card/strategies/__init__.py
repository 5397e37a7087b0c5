"""The card game's strategies: named sets of jitted decision functions, registered by name.

A card strategy is two ``@njit`` functions with these signatures (``state`` is the game's
``GameState``, documented in ``state.py``; ``seat`` the deciding seat; ``params`` its
parameters: a tuple of ``MAX_PARAMS`` floats in the order they are declared, indexed like
an array, read-only):

- ``reveal_nb(state, seat, params) -> bool``: reveal another card? (R9; only asked when
  the market is not empty, fewer than 3 cards were revealed this turn and the deck is not empty)
- ``take_nb(state, seat, params) -> int``: besides the last card, which of the
  2nd-from-last (bit 0) and 3rd-from-last (bit 1) cards to take (R10; must fit)

Register one with ``register(Strategy(name, decisions={"reveal_nb": ..., "take_nb": ...}, ...))``;
the engine dispatches on strategy ids through a table built from :data:`REGISTRY`
(``core/dispatch.py``), so neither the engine loop nor any other strategy changes.
Built-ins are registered when this package is imported: the heuristics (``heuristics``,
in the order of ``BUILT_INS``: their ids), then ``search``, which plays them in its rollouts.
"""
from __future__ import annotations

from ....core.registry import Param, Strategy
from .base import BUILT_INS, REGISTRY, register
from .search import MCTS, SEARCH
from .strong import STRATEGY as STRONG

__all__ = ["REGISTRY", "Param", "Strategy", "register", "BUILT_INS"]

# ``search`` (registered after the heuristics, a built-in too) plays the heuristics in its rollouts and is
# far slower, so default lineups and MEDICI_SIM_KERNEL=all leave it out.
register(SEARCH)
# ``strong`` (after search: the ids before it stay) reads its learned weights (data/strong) when compiled.
register(STRONG)
# ``mcts`` (after strong: the ids before it stay), the tree search, as slow as search and left out likewise.
register(MCTS)
