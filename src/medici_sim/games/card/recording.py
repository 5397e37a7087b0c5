"""What a recorded card game logs (a stepped game, core.resumable; the trace, the table and the
tests read it): each turn in the day's turn log (packed as state.TURN_* describes) and, at
the end of the day's turns, where every card is. The engine's play loop calls these only
when ``record`` is not None.
"""
from __future__ import annotations

from numba import njit

from .rules import RULE_PLAYERS
from .state import (
    DAY,
    DECK_LEN,
    LOC_DECK,
    LOC_MARKET,
    LOC_OUT,
    LOC_SHIP,
    LOC_TWICE,
    LOC_UNSEEN,
    LOC_WAREHOUSE,
    MARKET_LEN,
    N_CARDS,
    OUT_LEN,
    REVEALED,
    TURN_CARD_AT,
    TURN_CARD_BITS,
    TURN_REVEALED_AT,
    TURN_TAKE_AT,
)


@njit(cache=True)
def record_turn_nb(state, seat, choice):
    """Append the turn being played to the day's turns (packed as state.TURN_* describes):
    the seat, the cards it revealed (the market's last REVEALED cards) and the take flags of
    its ``choice``. Called before ``take_cards_nb``, which refuses an illegal choice."""
    day = state.counts[DAY]
    n = state.counts[MARKET_LEN]
    revealed = state.counts[REVEALED]
    word = seat | (revealed << TURN_REVEALED_AT) | ((choice & 3) << TURN_TAKE_AT)
    for i in range(revealed):
        word |= state.market[n - revealed + i] << (TURN_CARD_AT + TURN_CARD_BITS * i)
    state.day_turns[day, state.day_turn_count[day]] = word
    state.day_turn_count[day] += 1


@njit(cache=True)
def _locate_nb(location, card, place):
    location[card] = place if location[card] == LOC_UNSEEN else LOC_TWICE


@njit(cache=True)
def record_card_locations_nb(state, day):
    """Where every card is at the end of the day's turns (for the invariant tests)."""
    location = state.day_card_location[day, :state.counts[N_CARDS]]
    location[:] = LOC_UNSEEN
    for i in range(state.counts[DECK_LEN]):
        _locate_nb(location, state.deck[i], LOC_DECK)
    for i in range(state.counts[MARKET_LEN]):
        _locate_nb(location, state.market[i], LOC_MARKET)
    for i in range(state.counts[OUT_LEN]):
        _locate_nb(location, state.out[i], LOC_OUT)
    for p in range(state.rules[RULE_PLAYERS]):
        for i in range(state.ship_len[p]):
            _locate_nb(location, state.ship[p, i], LOC_SHIP + p)
        for i in range(state.warehouse_len[p]):
            _locate_nb(location, state.warehouse[p, i], LOC_WAREHOUSE + p)
