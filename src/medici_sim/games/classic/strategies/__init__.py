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
Built-ins are registered when this package is imported.
"""
from __future__ import annotations

from ....core.registry import Param, Strategy, StrategyRegistry
from ..state import DECISIONS

REGISTRY = StrategyRegistry("classic", DECISIONS, "medici_sim.games.classic")


def register(strategy: Strategy) -> Strategy:
    """Add a classic-game strategy to the registry under its name (a name already taken is refused:
    ``StrategyRegistry.register``)."""
    return REGISTRY.register(strategy)


__all__ = ["REGISTRY", "Param", "Strategy", "register", "BUILT_INS"]

BUILT_INS = ("random", "value", "collector", "bargain", "expert")
# Registers the built-ins, in this order (their ids). BUILT_INS are the heuristics; ``search``
# (registered last, a built-in too) plays them in its rollouts and is far slower, so default
# lineups and MEDICI_SIM_KERNEL=all leave it out.
from . import random, value, collector, bargain, expert, search  # noqa: E402,F401,I001  isort: skip
