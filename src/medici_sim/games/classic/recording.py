"""What a recorded classic game logs (a stepped game, core.resumable; the trace, the table and
the tests read it): each auction in the day's turn log, in the reference engine's format, and
at the end of the day's turns the removed cards, the ships' cards and where every card is.
The engine's play loop calls these only when ``record`` is not None.
"""
from __future__ import annotations

from numba import njit

from .rules import RULE_PLAYERS, RULE_REMOVED
from .state import (
    DAY,
    DECK_LEN,
    DISCARD_LEN,
    HIGH_BIDDER,
    HIGHEST,
    LOC_DECK,
    LOC_DISCARDED,
    LOC_REMOVED,
    LOC_SHIP,
    LOC_TWICE,
    LOC_UNSEEN,
    LOT_LEN,
)


@njit(cache=True)
def record_turn_nb(state, auctioneer, free_seat, free_from):
    """Append the turn just played to the day's log, in the reference engine's format:
    auctioneer, L, lot..., A, (seat, bid) x A, winner, price, free_seat, F, free..."""
    day = state.counts[DAY]
    log = state.day_log[day]
    n = state.day_log_len[day]
    players = state.rules[RULE_PLAYERS]
    lot_len = state.counts[LOT_LEN]
    log[n] = auctioneer
    log[n + 1] = lot_len
    n += 2
    for i in range(lot_len):
        log[n] = state.lot[i]
        n += 1
    asked_at = n
    n += 1
    asked = 0
    for step in range(1, players + 1):
        seat = (auctioneer + step) % players
        if state.turn_bid[seat] >= 0:
            log[n] = seat
            log[n + 1] = state.turn_bid[seat]
            n += 2
            asked += 1
    log[asked_at] = asked
    winner = state.counts[HIGH_BIDDER]
    log[n] = winner
    log[n + 1] = state.counts[HIGHEST] if winner >= 0 else 0
    log[n + 2] = free_seat
    n += 3
    if free_seat >= 0:
        log[n] = state.ship_len[free_seat] - free_from
        n += 1
        for i in range(free_from, state.ship_len[free_seat]):
            log[n] = state.ship[free_seat, i]
            n += 1
    else:
        log[n] = 0
        n += 1
    state.day_log_len[day] = n


@njit(cache=True)
def _locate_nb(location, card, place):
    location[card] = place if location[card] == LOC_UNSEEN else LOC_TWICE


@njit(cache=True)
def record_day_nb(state, day):
    """At the end of the day's turns: the removed cards, the ships' cards and where every
    card is (LOC_*; LOC_UNSEEN or LOC_TWICE would be a bug)."""
    players = state.rules[RULE_PLAYERS]
    for i in range(state.rules[RULE_REMOVED]):
        state.day_removed[day, i] = state.removed[i]
    state.day_ship_cards[day, :, :] = -1
    location = state.day_card_location[day]
    location[:] = LOC_UNSEEN
    for i in range(state.counts[DECK_LEN]):
        _locate_nb(location, state.deck[i], LOC_DECK)
    for i in range(state.rules[RULE_REMOVED]):
        _locate_nb(location, state.removed[i], LOC_REMOVED)
    for i in range(state.counts[DISCARD_LEN]):
        _locate_nb(location, state.discard[i], LOC_DISCARDED)
    for p in range(players):
        for i in range(state.ship_len[p]):
            state.day_ship_cards[day, p, i] = state.ship[p, i]
            _locate_nb(location, state.ship[p, i], LOC_SHIP + p)
