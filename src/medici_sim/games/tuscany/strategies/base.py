"""The Castles of Tuscany's strategy registry: where built-ins and plug-ins register (``register``)."""
from __future__ import annotations

from ....core.registry import Strategy, StrategyRegistry
from ..state import DECISIONS

REGISTRY = StrategyRegistry("tuscany", DECISIONS, "medici_sim.games.tuscany")
# registered in this order (their ids)
BUILT_INS = ("random", "builder", "colour_racer", "castle_chainer", "trader", "expert")


def register(strategy: Strategy) -> Strategy:
    """Add a Tuscany strategy to the registry under its name (a name already taken is refused)."""
    return REGISTRY.register(strategy)
