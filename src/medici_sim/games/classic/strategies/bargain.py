"""``bargain``: a bargain hunter. It bids only the lowest legal bid, and only when that is at
most ``discount`` of its estimate of the lot (florins per point and per card) and leaves it
``reserve`` florins (C9). When few ships are open and its own has the most free holds, it
expects to be the last open ship and waits for the free cards (C11): it passes, and as
auctioneer draws while another open ship could still take the lot, to fill the others
faster. Otherwise it draws (C8) while the lot is worth little per card.
"""
from numba import njit

from ....core.registry import Param, Strategy
from ..rules import RULE_HOLDS, RULE_PLAYERS
from ..state import LOT_LEN, LOT_VALUE, OPEN_SHIPS, lowest_bid_nb
from .common import room_for_more_nb

PER_POINT, PER_CARD, DISCOUNT, RESERVE, WAIT_SHIPS, DRAW_BELOW = range(6)


@njit(cache=True)
def waiting_nb(state, seat, params):
    """C11: at most ``wait_ships`` ships open and its own strictly the emptiest."""
    if state.counts[OPEN_SHIPS] > params[WAIT_SHIPS]:
        return False
    holds = state.rules[RULE_HOLDS]
    mine = holds - state.ship_len[seat]
    for other in range(state.rules[RULE_PLAYERS]):
        if other != seat and holds - state.ship_len[other] >= mine:
            return False
    return True


@njit(cache=True)
def draw_nb(state, seat, params):
    lot_len = state.counts[LOT_LEN]
    if waiting_nb(state, seat, params):
        # fill the other ships faster, as long as another open ship could take the lot
        for other in range(state.rules[RULE_PLAYERS]):
            if other != seat and state.rules[RULE_HOLDS] - state.ship_len[other] > lot_len:
                return True
        return False
    return room_for_more_nb(state, seat) and state.counts[LOT_VALUE] < params[DRAW_BELOW] * lot_len


@njit(cache=True)
def bid_nb(state, seat, params):
    if waiting_nb(state, seat, params):
        return 0
    price = lowest_bid_nb(state)
    estimate = params[PER_POINT] * state.counts[LOT_VALUE] + params[PER_CARD] * state.counts[LOT_LEN]
    if price <= params[DISCOUNT] * estimate and state.money[seat] - price >= params[RESERVE]:
        return price
    return 0


STRATEGY = Strategy(
    name="bargain",
    decisions={"draw_nb": draw_nb, "bid_nb": bid_nb},
    params={
        "per_point": Param(2, 0, 10, help="florins per point of card value in its estimate of a lot"),
        "per_card": Param(1, -10, 10, help="florins per card in its estimate of a lot"),
        "discount": Param(0.6, 0, 1, help="bids only when the lowest bid is at most this share of its estimate"),
        "reserve": Param(10, 0, 100, help="florins it always keeps"),
        "wait_ships": Param(2, 0, 6, integer=True,
                            help="with this many ships open or fewer, waits for the last-ship free cards "
                                 "if its ship is the emptiest"),
        "draw_below": Param(2.5, 0, 11, help="draws another card while the lot is worth less than this per card"),
    },
    summary="Bids the minimum only on cheap lots, keeps a reserve, and waits to be the last ship (free cards).",
    inline=True,  # a few instructions a decision: compiled into the play loop (core.dispatch)
    reads=(),  # not the unseen-card sums (medici.chance.UNSEEN_PART)
)
