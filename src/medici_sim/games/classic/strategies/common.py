"""Building blocks the classic built-in strategies share (jitted, read-only on the state).

The reference engine's ``value``, ``collector`` and ``bargain`` (``reference.py``) compute the
same quantities again from the reference game's own state; the differential tests compare
their games with these, decision for decision, so where floats are involved both combine
them in the same order.
"""
from __future__ import annotations

from numba import njit

from ..rules import RULE_DAYS, RULE_HOLDS, RULE_PLAYERS, RULE_TRACK_MAX
from ..state import AUCTIONEER, DAY, LOT_LEN, lowest_bid_nb


@njit(cache=True, inline="always")
def majority_pay_nb(first, second, rank):
    """C15 at the fractional place ``rank`` (0: the highest level): ``first``, falling in a line
    to ``second`` at the next place and to nothing at the third; lower places nothing (the
    rulebook's 10/5 falls by 5 a place all the way)."""
    if rank >= 2.0:
        return 0.0
    drop = first - second
    return first - drop * rank - (second - drop) * max(rank - 1.0, 0.0)


@njit(cache=True, inline="always")
def later_days_nb(state):
    """Days still to be played after this one (2 on day 1, 0 on day 3 of the rulebook's; C18)."""
    return state.rules[RULE_DAYS] - 1 - state.counts[DAY]


@njit(cache=True, inline="always")
def end_level_nb(state, seat, good):
    """C14: the seat's level in ``good`` at this day's end with what is aboard now (capped at the top, 7)."""
    return min(state.rules[RULE_TRACK_MAX], state.track[seat, good] + state.ship_goods[seat, good])


@njit(cache=True)
def track_gain_nb(state, seat, good, extra):
    """C15, C16: florins this day's scoring would pay ``seat`` for ``good`` with ``extra``
    more such cards aboard, less what it pays without them (majority and bonus), every other
    seat ending the day with what it holds now (ties shared). One pass over the rivals counts
    those above and tied at both levels."""
    before = end_level_nb(state, seat, good)
    after = min(state.rules[RULE_TRACK_MAX], before + extra)
    above_before = tied_before = above_after = tied_after = 0
    for other in range(state.rules[RULE_PLAYERS]):
        if other != seat:
            theirs = end_level_nb(state, other, good)
            above_before += theirs > before
            tied_before += theirs == before
            above_after += theirs > after
            tied_after += theirs == after
    return (state.majority_share[above_after, tied_after] + state.track_bonus[after]
            - state.majority_share[above_before, tied_before] - state.track_bonus[before])


@njit(cache=True, inline="always")
def limit_bid_nb(state, seat, limit):
    """C9 for a bidder with a price limit: pass unless the limit (capped by its money)
    reaches the lowest bid (the highest bid + 1); then the auctioneer, who speaks last,
    takes the lot at the lowest bid, and anyone else bids its limit."""
    limit = min(limit, state.money[seat])
    lowest = lowest_bid_nb(state)
    if limit < lowest:
        return 0
    if seat == state.counts[AUCTIONEER]:
        return lowest
    return limit


@njit(cache=True, inline="always")
def room_for_more_nb(state, seat):
    """The seat's own ship could take the lot with one more card (C3, C8)."""
    return state.counts[LOT_LEN] < state.rules[RULE_HOLDS] - state.ship_len[seat]


__all__ = ["end_level_nb", "later_days_nb", "limit_bid_nb",
           "room_for_more_nb", "track_gain_nb"]
