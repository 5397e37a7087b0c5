"""``random``: the canonical baseline (C19), drawing exactly as docs/protocol-classic.md says."""
from numba import njit

from ....core.registry import Strategy
from ....core.rng import below_nb, coin_nb
from ..state import lowest_bid_nb


@njit(cache=True)
def draw_nb(state, seat, params):
    """C19: another card on a fair coin (asked only when C8 allows one)."""
    return coin_nb(state.rng)


@njit(cache=True)
def bid_nb(state, seat, params):
    """C19: bid with probability 1/2, uniformly from the lowest bid (highest + 1) to
    min(money, lowest + 9)."""
    if not coin_nb(state.rng):
        return 0
    lowest = lowest_bid_nb(state)
    top = min(state.money[seat], lowest + 9)
    return lowest + below_nb(state.rng, top - lowest + 1)


STRATEGY = Strategy(
    name="random",
    decisions={"draw_nb": draw_nb, "bid_nb": bid_nb},
    summary="C19 baseline: draw another card on a fair coin; bid on a fair coin, uniformly up to 10 above the highest.",
    inline=True,  # a few instructions a decision: compiled into the play loop (core.dispatch)
    reads=(),  # not the unseen-card sums (medici.chance.UNSEEN_PART)
)
