"""The card game's strategy registry: where built-ins and plug-ins register (``register``)."""
from __future__ import annotations

from ....core.registry import Strategy, StrategyRegistry
from ...medici.chance import UNSEEN_PART
from ..state import DECISIONS

REGISTRY = StrategyRegistry("card", DECISIONS, "medici_sim.games.card", shared=("medici_sim.games.medici",),
                            optional_parts=(UNSEEN_PART,))
# the heuristics, registered in this order (their ids) by ``heuristics``
BUILT_INS = ("random", "greedy", "collector", "cautious", "gambler", "expert")


def register(strategy: Strategy) -> Strategy:
    """Add a card-game strategy to the registry under its name (a name already taken is refused:
    ``StrategyRegistry.register``)."""
    return REGISTRY.register(strategy)
