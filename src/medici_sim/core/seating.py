"""Who sits where (R24, C20), shared by every game's kernel.

Seat k plays strategy slot ``seat_slot[k]``: ``fixed`` slot k, ``rotate`` slot
(k + game index) % players, ``random`` a Fisher-Yates permutation drawn first thing in
the game (docs/protocol.md). The seat's strategy id and parameters are copied from its
slot, and its strategy working memory (``scratch``) is cleared, so no strategy carries
anything from one game into the next.
"""
from __future__ import annotations

from numba import njit

from .registry import MAX_PARAMS
from .rng import below_nb

SEATING_MODES = ("fixed", "rotate", "random")
SEATING_FIXED, SEATING_ROTATE, SEATING_RANDOM = 0, 1, 2


@njit(cache=True)
def seat_players_nb(state, players, game_index, seating, slot_strategy, slot_params):
    """Seat the strategy slots for game ``game_index`` (the game's generator already seeded)."""
    for seat in range(players):
        state.seat_slot[seat] = (seat + game_index) % players if seating == SEATING_ROTATE else seat
    if seating == SEATING_RANDOM:
        for j in range(players - 1, 0, -1):
            r = below_nb(state.rng, j + 1)
            state.seat_slot[j], state.seat_slot[r] = state.seat_slot[r], state.seat_slot[j]
    for seat in range(players):
        slot = state.seat_slot[seat]
        state.seat_strategy[seat] = slot_strategy[slot]
        for k in range(MAX_PARAMS):
            state.seat_params[seat, k] = slot_params[slot, k]
    state.scratch[:players, :] = 0.0  # the seats': no strategy sits, nor writes, past them

