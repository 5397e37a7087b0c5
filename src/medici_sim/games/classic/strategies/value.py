"""``value``: a value bidder. Its price for a lot is ``per_point`` florins per point of card
value plus ``per_card`` per card; it bids that price, or as auctioneer (last to speak) the
highest bid + 1 when the price beats it (C9). It draws (C8) while the lot is worth less
than ``draw_below`` points a card and its own ship could take the bigger lot.
"""
import math

from numba import njit

from ....core.registry import Param, Strategy
from ..state import LOT_LEN, LOT_VALUE
from .common import limit_bid_nb, room_for_more_nb

PER_POINT, PER_CARD, DRAW_BELOW = range(3)


@njit(cache=True)
def draw_nb(state, seat, params):
    """C8: another card while the lot is worth less than ``draw_below`` points a card."""
    return (room_for_more_nb(state, seat)
            and state.counts[LOT_VALUE] < params[DRAW_BELOW] * state.counts[LOT_LEN])


@njit(cache=True)
def bid_nb(state, seat, params):
    """C9: its limit is per_point * lot value + per_card * cards, rounded down."""
    limit = math.floor(params[PER_POINT] * state.counts[LOT_VALUE] + params[PER_CARD] * state.counts[LOT_LEN])
    return limit_bid_nb(state, seat, int(limit))


STRATEGY = Strategy(
    name="value",
    decisions={"draw_nb": draw_nb, "bid_nb": bid_nb},
    params={
        "per_point": Param(0.5, 0, 10, help="florins it pays per point of card value in the lot"),
        "per_card": Param(0, -10, 10, help="florins it pays per card in the lot"),
        "draw_below": Param(2, 0, 11, help="draws another card while the lot is worth less than this per card"),
    },
    summary="Pays a fixed price per point of card value and per card; draws while the lot is cheap per card.",
    inline=True,  # a few instructions a decision: compiled into the play loop (core.dispatch)
    reads=(),  # not the unseen-card sums (medici.chance.UNSEEN_PART)
)
