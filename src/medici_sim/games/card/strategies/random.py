"""``random``: the canonical baseline (R23), every decision an independent fair coin."""
from numba import njit

from ....core.registry import Strategy
from ....core.rng import coin_nb
from ..state import MARKET_LEN, fits_nb, market_card_nb, takes_space_nb


@njit(cache=True, inline="always")
def reveal_nb(state, seat, params):
    return coin_nb(state.rng)


@njit(cache=True, inline="always")
def take_nb(state, seat, params):
    """Consider the 2nd-, then the 3rd-from-last card: a coin for each that fits."""
    choice = 0
    pending = takes_space_nb(state, market_card_nb(state, 1))
    for back in range(2, min(3, state.counts[MARKET_LEN]) + 1):
        card = market_card_nb(state, back)
        if fits_nb(state, seat, card, pending) and coin_nb(state.rng):
            choice |= 1 << (back - 2)
            pending += takes_space_nb(state, card)
    return choice


STRATEGY = Strategy(
    name="random",
    decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
    summary="R23 baseline: reveal another card on a fair coin; take each fitting earlier card on a fair coin.",
    inline=True,  # a few instructions a decision: compiled into the play loop (core.dispatch)
    reads=(),  # not the unseen-card sums (medici.chance.UNSEEN_PART)
)
