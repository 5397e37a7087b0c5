"""``random``: the canonical baseline (C19), drawing exactly as docs/protocol-classic.md says."""
from numba import njit

from ....core.registry import Strategy
from ....core.rng import below_nb, coin_nb
from ..state import HIGHEST


@njit(cache=True)
def draw_nb(state, seat, params):
    """C19: another card on a fair coin (asked only when C8 allows one)."""
    return coin_nb(state.rng)


@njit(cache=True)
def bid_nb(state, seat, params):
    """C19: bid with probability 1/2, uniformly from highest + 1 to min(money, highest + 10)."""
    if not coin_nb(state.rng):
        return 0
    highest = state.counts[HIGHEST]
    top = min(state.money[seat], highest + 10)
    return highest + 1 + below_nb(state.rng, top - highest)


STRATEGY = Strategy(
    name="random",
    decisions={"draw_nb": draw_nb, "bid_nb": bid_nb},
    summary="C19 baseline: draw another card on a fair coin; bid on a fair coin, uniformly up to 10 above the highest.",
)
