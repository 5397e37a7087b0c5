"""High card's strategies: ``random`` (fair coins) and ``greedy`` (another card below a threshold)."""
from __future__ import annotations

from numba import njit

from medici_sim.core.registry import Param, Strategy, StrategyRegistry
from medici_sim.core.rng import below_nb, coin_nb

from .engine import DECISIONS, value_nb

REGISTRY = StrategyRegistry("toy", DECISIONS, __package__)


@njit(cache=True)
def random_again_nb(state, seat, params):
    return coin_nb(state.rng)


@njit(cache=True)
def random_keep_nb(state, seat, params):
    return below_nb(state.rng, 2)


@njit(cache=True)
def greedy_again_nb(state, seat, params):
    return value_nb(state.drawn[0]) < params[0]


@njit(cache=True)
def greedy_keep_nb(state, seat, params):
    return 1 if value_nb(state.drawn[1]) > value_nb(state.drawn[0]) else 0


REGISTRY.register(Strategy("random", {"again_nb": random_again_nb, "keep_nb": random_keep_nb},
                           summary="another card on a fair coin; keep either on a fair coin"))
REGISTRY.register(Strategy("greedy", {"again_nb": greedy_again_nb, "keep_nb": greedy_keep_nb},
                           {"threshold": Param(6, 1, 11, integer=True, help="another card below this value")},
                           summary="another card below the threshold; keep the higher"))
BUILT_INS = ("random", "greedy")
