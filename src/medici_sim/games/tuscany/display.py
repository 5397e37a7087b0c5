"""The Castles of Tuscany's jitted engine, the display (T14-T17): taking a tile, refilling the gap
from the seat's stacks (which ends phases, T15), five of a colour (T16) and T17's refreshes."""
from __future__ import annotations

import numpy as np
from numba import njit

from .pieces import chosen_nb
from .rules import (
    BONUS_STORAGE,
    N_COLOURS,
    STORAGE_SPACES,
)
from .state import (
    EMPTY,
    HEX,
    N_OPTIONS,
    OCCUPIED,
    OUT_LEN,
    PHASE,
    PHASE_PENDING,
    R_DISPLAY,
    R_STACK_SIZE,
    REFRESHES,
    SUPPLY_LEN,
    SUPPLY_TOP,
    T17_REFRESHES,
    discard_nb,
    forced,
    inner,
    lowest_bit,
    refresh_nb,
    take_nb,
)

# ---------------------------------------------------------------- the display (T14-T17)

@inner
def next_neutral_nb(state):
    """The neutral supply's top tile, or EMPTY when it is out."""
    counts = state.counts
    if counts[SUPPLY_TOP] == counts[SUPPLY_LEN]:
        return EMPTY
    counts[SUPPLY_TOP] += 1
    return state.supply[counts[SUPPLY_TOP] - 1]

@inner
def show_nb(state, place, tile):
    """Put ``tile`` (or EMPTY) at display ``place``; ``shown`` and ``counts[OCCUPIED]`` follow."""
    old = state.display[place]
    if old != EMPTY:
        state.shown[np.uint64(state.tile_kind[np.uint64(old)])] -= 1
        state.counts[OCCUPIED] &= ~(1 << place)
    state.display[place] = tile
    if tile != EMPTY:
        state.shown[np.uint64(state.tile_kind[np.uint64(tile)])] += 1
        state.counts[OCCUPIED] |= 1 << place


@inner
def replace_kind_nb(state, kind):
    """Every display tile of ``kind`` leaves the game; neutral tiles fill those places, ascending."""
    for place in range(state.rules[R_DISPLAY]):
        tile = state.display[place]
        if tile != EMPTY and state.tile_kind[tile] == kind:
            state.out[state.counts[OUT_LEN]] = tile
            state.counts[OUT_LEN] += 1
            show_nb(state, place, next_neutral_nb(state))


@inner
def five_of_a_colour_nb(state):
    """T16: while five or more display tiles share a colour, replace them all; each time one refresh."""
    while True:
        five = 0
        while five < N_COLOURS and state.shown[five] < 5:
            five += 1
        if five == N_COLOURS:
            return
        replace_kind_nb(state, five)
        state.counts[REFRESHES] += 1


@njit(cache=True, inline="always")
def refill_nb(state, seat, place):
    """T14: the gap from the seat's leftmost non-empty stack, else the neutral supply;
    T15: the last tile of stack n in phase n ends the phase after this round; then T16."""
    size = state.rules[R_STACK_SIZE]
    tile = EMPTY
    for n in range(3):
        top = state.stack_top[seat, n]
        if top < size:
            tile = state.tiles[seat, np.uint64(n * size + top)]
            state.stack_top[seat, n] = top + 1
            if top + 1 == size and n + 1 == state.counts[PHASE]:
                state.counts[PHASE_PENDING] = 1
            break
    else:
        tile = next_neutral_nb(state)
    show_nb(state, place, tile)
    if tile != EMPTY and state.shown[state.tile_kind[tile]] >= 5:  # none showed five before: only this kind can
        five_of_a_colour_nb(state)


@inner
def display_options_nb(state, seat, only_placeable):
    """The display places holding a tile (those whose tile could go into the estate by T19, payment
    aside, if ``only_placeable``), as options, ascending."""
    n = 0
    occupied = state.counts[OCCUPIED]
    frontier = state.frontier[seat]
    while occupied:
        place = lowest_bit(occupied)
        occupied &= occupied - 1
        if not only_placeable or frontier & state.colour_mask[seat, state.tile_kind[state.display[place]]]:
            state.options[n] = place
            n += 1
    state.counts[N_OPTIONS] = n
    return n


@inner
def t17_nb(state, table, seat):
    """T17 (asked only when no display tile fits the estate): the seat may clear a kind from the
    display, again and again while none fits; then the take's options: the places whose tile
    fits, or (none fitting) every place holding a tile. Returns how many."""
    strategy = state.seat_strategy[seat]
    while state.counts[OCCUPIED]:
        n, fits = 1, 0
        state.options[0] = -1  # take as usual; then the kinds shown, ascending
        for kind in range(N_COLOURS):
            if state.shown[kind] > 0:
                fits |= state.colour_mask[seat, kind]
                state.options[n] = kind
                n += 1
        if fits & state.frontier[seat]:
            break
        state.counts[N_OPTIONS] = n
        kind = state.options[chosen_nb(state, seat, refresh_nb(table, strategy, state, seat), "refresh")]
        if kind < 0:
            break
        replace_kind_nb(state, kind)
        state.counts[T17_REFRESHES] += 1
        five_of_a_colour_nb(state)
    n = display_options_nb(state, seat, True)
    return n if n > 0 else display_options_nb(state, seat, False)


@forced
def take_nb_(state, table, seat):
    """T14 (with T17 first when no display tile fits the estate)."""
    strategy = state.seat_strategy[seat]
    n = 0  # the places holding a tile, as options
    occupied = state.counts[OCCUPIED]
    while occupied:
        state.options[n] = lowest_bit(occupied)
        occupied &= occupied - 1
        n += 1
    state.counts[N_OPTIONS] = n
    fits = 0  # the fields the display's tiles fit (T17 when none), from the kinds shown: no tile's kind looked up,
    for kind in range(N_COLOURS):  # and no jump on a kind (an all-ones or zero mask; shown is never negative)
        fits |= state.colour_mask[seat, kind] & -min(state.shown[kind], 1)
    fits &= state.frontier[seat]
    if fits == 0:
        n = t17_nb(state, table, seat)
    if n == 0:
        return
    place = state.options[chosen_nb(state, seat, take_nb(table, strategy, state, seat), "take")]
    stored = state.storage_len[seat]
    if stored >= STORAGE_SPACES + state.bonus[seat, BONUS_STORAGE]:
        for i in range(stored):
            state.options[i] = i
        state.counts[N_OPTIONS] = stored
        index = chosen_nb(state, seat, discard_nb(table, strategy, state, seat), "discard")
        removed = state.storage[seat, index]
        for i in range(index, stored - 1):
            state.storage[seat, i] = state.storage[seat, i + 1]
        stored -= 1
        if removed != HEX:  # a hexagon goes back to the pieces (T4)
            state.out[state.counts[OUT_LEN]] = removed
            state.counts[OUT_LEN] += 1
    state.storage[seat, stored] = state.display[place]
    state.storage_len[seat] = stored + 1
    show_nb(state, place, EMPTY)
    refill_nb(state, seat, place)
