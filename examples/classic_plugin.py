"""A complete medici-sim plug-in strategy for the classic game (Medici, 1995): ``majority_hunter``.

Idea: a lot is worth a fixed price per point of card value (the ship, C13), plus a bonus
for every card that would lift the seat to at least the highest level any rival has on
that good's track by the day's end (the majority, C15). The auctioneer speaks last (C9),
so it takes a lot worth more than the highest bid at the highest bid + 1; anyone else bids
a share of the lot's worth. As auctioneer it draws (C8) while the lot is worth little per
card and its own ship could take one more.

Use it:  medici-sim --game classic --plugin examples/classic_plugin.py --players 3 --seating rotate \
             --strategies majority_hunter,expert,value
Check it: medici-sim check-plugin examples/classic_plugin.py

A classic strategy is two jitted functions of (state, seat, params); ``state`` is the game's
record (its fields are listed in medici_sim/games/classic/state.py; read them, never write
them: only your own row of ``state.scratch`` is yours), ``seat`` the deciding seat and
``params`` the seat's parameters as a read-only tuple of floats, in the order declared
below. Decisions must not allocate arrays: they run millions of times.
"""
import math

from numba import njit

from medici_sim.games import Param, Strategy, load
from medici_sim.games.classic.rules import N_GOODS
from medici_sim.games.classic.state import (
    AUCTIONEER,
    HIGHEST,
    LOT_LEN,
    LOT_VALUE,
    free_holds_nb,
    lot_goods_nb,
    players_nb,
    track_after_nb,
)

PER_POINT, MAJORITY_BONUS, SHARE, DRAW_BELOW = range(4)  # positions in params, as declared below


@njit(cache=True)
def worth_nb(state, seat, params):
    """Florins the current lot is worth to this seat."""
    worth = params[PER_POINT] * state.counts[LOT_VALUE]  # the lot's total card value
    for good in range(N_GOODS):
        extra = lot_goods_nb(state, good)  # cards of this good in the lot (gold has none)
        if extra == 0:
            continue
        mine = track_after_nb(state, seat, good, extra)  # C14: its level at the day's end, capped at 7
        best_rival = 0
        for other in range(players_nb(state)):
            if other != seat:
                best_rival = max(best_rival, track_after_nb(state, other, good, 0))
        if mine >= best_rival:
            worth += params[MAJORITY_BONUS] * extra
    return worth


@njit(cache=True)
def draw_nb(state, seat, params):
    """C8: asked only when another card is allowed. True draws it."""
    cards = state.counts[LOT_LEN]
    if free_holds_nb(state, seat) <= cards:  # its own ship could not take the bigger lot
        return False
    return state.counts[LOT_VALUE] < params[DRAW_BELOW] * cards


@njit(cache=True)
def bid_nb(state, seat, params):
    """C9: asked only when the seat may bid. 0 passes; a bid is a whole number from the
    highest bid + 1 to the seat's money (anything else stops the run with an error)."""
    highest = state.counts[HIGHEST]
    worth = min(worth_nb(state, seat, params), state.money[seat])
    if worth < highest + 1:
        return 0
    if seat == state.counts[AUCTIONEER]:  # the auctioneer speaks last: nobody can outbid it
        return highest + 1
    return max(highest + 1, int(math.floor(params[SHARE] * worth)))


load("classic").register(Strategy(
    name="majority_hunter",
    decisions={"draw_nb": draw_nb, "bid_nb": bid_nb},
    params={
        "per_point": Param(0.5, 0, 10, help="florins per point of card value in the lot"),
        "majority_bonus": Param(3, 0, 50, help="florins per card that reaches the highest level on its track"),
        "share": Param(0.8, 0, 1, help="share of the lot's worth it bids when others speak after it"),
        "draw_below": Param(2, 0, 11, help="draws while the lot is worth less than this per card"),
    },
    summary="Pays per point of value and for cards that take a track majority; the auctioneer bids highest + 1.",
))
