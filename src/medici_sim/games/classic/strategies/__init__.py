"""The classic game's strategies: named sets of jitted decision functions, registered by name.

A classic strategy is two ``@njit`` functions with these signatures (``state`` is the game's
``GameState``, documented in ``state.py``; ``seat`` the deciding seat; ``params`` its
parameters: a tuple of ``MAX_PARAMS`` floats in the order they are declared, indexed like
an array, read-only):

- ``draw_nb(state, seat, params) -> bool``: draw another card into the lot? (C8; asked of
  the auctioneer only when ``may_draw_nb(state)``: fewer than 3 cards in the lot, the deck
  not empty and some open ship with room for the bigger lot)
- ``bid_nb(state, seat, params) -> int``: 0 to pass, or a whole number of florins from
  ``counts[HIGHEST] + 1`` to ``money[seat]`` (C9; asked only when ``may_bid_nb(state, seat)``;
  anything else stops the run with a ValueError)

Register one with ``register(Strategy(name, decisions={"draw_nb": ..., "bid_nb": ...}, ...))``;
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
