"""The Castles of Tuscany's strategy registry: where built-ins and plug-ins register (``register``)."""
from __future__ import annotations

from ....core.registry import Strategy, StrategyRegistry
from ..state import DECISIONS

REGISTRY = StrategyRegistry("tuscany", DECISIONS, "medici_sim.games.tuscany")
BUILT_INS = ("random",)  # registered in this order (their ids)


def register(strategy: Strategy) -> Strategy:
    """Add a Tuscany strategy to the registry under its name (a name already taken is refused)."""
    return REGISTRY.register(strategy)
