"""``collector``: a track collector. A lot is worth to it what its goods bring on the tracks:
``track_weight`` florins per florin of change in this day's majority (C15) and bonus (C16)
payouts against its rivals' levels (what they hold and have aboard), weighted up by
``future_weight`` for each day left, plus ``level_worth`` per level climbed (C14, to 7);
goods outside its focus (the ``focus`` goods it is highest on) count ``other_weight`` as
much. Card values (C13) count ``value_weight`` a point. It bids that worth (the auctioneer:
the highest bid + 1, C9) and draws (C8) until a card of a focus good is in the lot.
"""
import math

from numba import njit

from ....core.registry import Param, Strategy
from ..rules import N_GOODS, RULE_TRACK_MAX
from ..state import LOT_LEN, LOT_VALUE
from .common import (
    end_level_nb,
    later_days_nb,
    limit_bid_nb,
    room_for_more_nb,
    track_gain_nb,
)

FOCUS, TRACK_WEIGHT, LEVEL_WORTH, FUTURE_WEIGHT, VALUE_WEIGHT, OTHER_WEIGHT = range(6)


assert N_GOODS == 5, "goods_and_levels_nb counts five goods"


# goods_and_levels_nb, focus_rank_nb and worth_nb are inlined into the decisions: called, collector played 5% more
# instructions a game than when its decisions were inlined into the play loop (the parameters handed down a call)
@njit(cache=True, inline="always")
def goods_and_levels_nb(state, seat):
    """The lot's cards of each good (C8) and the seat's level in each at the day's end (C14),
    goods 0..4: counted once a decision, for every good's worth and rank."""
    n0 = n1 = n2 = n3 = n4 = 0
    for i in range(state.counts[LOT_LEN]):
        good = state.card_good[state.lot[i]]
        n0 += good == 0
        n1 += good == 1
        n2 += good == 2
        n3 += good == 3
        n4 += good == 4
    levels = (end_level_nb(state, seat, 0), end_level_nb(state, seat, 1), end_level_nb(state, seat, 2),
              end_level_nb(state, seat, 3), end_level_nb(state, seat, 4))
    return (n0, n1, n2, n3, n4), levels


@njit(cache=True, inline="always")
def focus_rank_nb(offered, levels, good):
    """How many goods rank above ``good`` for this seat (0: its strongest): the higher level
    at the day's end (C14, with what is aboard), then more cards of it in the lot, then the
    lower good number."""
    mine = levels[good]
    rank = 0
    for other in range(N_GOODS):
        if other != good:
            theirs = levels[other]
            if theirs > mine:
                rank += 1
            elif theirs == mine:
                if offered[other] > offered[good] or (offered[other] == offered[good] and other < good):
                    rank += 1
    return rank


@njit(cache=True, inline="always")
def worth_nb(state, seat, params):
    """Florins the current lot is worth to it (module doc), goods in order 0..4."""
    offered, levels = goods_and_levels_nb(state, seat)
    day_weight = params[TRACK_WEIGHT] * (1.0 + params[FUTURE_WEIGHT] * later_days_nb(state))
    worth = params[VALUE_WEIGHT] * state.counts[LOT_VALUE]
    for good in range(N_GOODS):
        extra = offered[good]
        if extra == 0:
            continue
        level = levels[good]
        climbed = min(state.rules[RULE_TRACK_MAX], level + extra) - level
        gain = track_gain_nb(state, seat, good, extra) * day_weight + params[LEVEL_WORTH] * climbed
        if focus_rank_nb(offered, levels, good) >= params[FOCUS]:
            gain = gain * params[OTHER_WEIGHT]
        worth = worth + gain
    return worth


@njit(cache=True)
def draw_nb(state, seat, params):
    """C8: another card while none in the lot is of a focus good (and its ship has room)."""
    if not room_for_more_nb(state, seat):
        return False
    offered, levels = goods_and_levels_nb(state, seat)
    for good in range(N_GOODS):
        if offered[good] > 0 and focus_rank_nb(offered, levels, good) < params[FOCUS]:
            return False
    return True


@njit(cache=True)
def bid_nb(state, seat, params):
    """C9: its limit is the lot's worth rounded down."""
    return limit_bid_nb(state, seat, int(math.floor(worth_nb(state, seat, params))))


STRATEGY = Strategy(
    name="collector",
    decisions={"draw_nb": draw_nb, "bid_nb": bid_nb},
    params={
        "focus": Param(2, 1, 5, integer=True, help="how many goods it concentrates on (its highest levels)"),
        "track_weight": Param(0.15, 0, 5, help="florins it pays per florin of majority and bonus a lot brings"),
        "level_worth": Param(0.5, 0, 20, help="florins per level climbed on a goods track"),
        "future_weight": Param(0.5, 0, 2, help="weight of each later day's majority and bonus"),
        "value_weight": Param(0.2, 0, 5, help="florins per point of card value"),
        "other_weight": Param(0.3, 0, 1, help="weight of goods outside its focus"),
    },
    summary="Values lots by the track majorities and bonuses they bring, mostly in its strongest goods.",
    reads=(),  # not the unseen-card sums (medici.chance.UNSEEN_PART)
)
