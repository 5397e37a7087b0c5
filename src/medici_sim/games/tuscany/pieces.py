"""The Castles of Tuscany's jitted engine, its pieces: the generator's shuffle, a decision's
checked answer, scoring by source, the region and yield cards (T13, T30), hexagons (T26) and
bonus tiles (T12, T25). Piles are arrays with a top (``deck[DECK_TOP:DECK_LEN]``: the
reference engine's ``pop(0)``); an empty one is its discards shuffled, as the reference does.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.registry import ILLEGAL
from ...core.rng import below_held_nb
from .components import YIELD_CARDS, YIELD_GREEN, YIELD_MARBLE, YIELD_RED, YIELD_WORKER
from .rules import (
    BONUS_STORAGE,
    STORAGE_SPACES,
)
from .state import (
    DECK_LEN,
    DECK_TOP,
    DISCARD_LEN,
    HEX,
    N_BONUS,
    N_OPTIONS,
    P_NO_ROOM,
    P_REGIONS,
    P_STORAGE_BONUS,
    P_YIELD_GREEN,
    P_YIELD_RED,
    R_NO_ROOM_RED,
    R_STORAGE_GREEN,
    T_CARDS_DRAWN,
    T_MARBLE_GAINED,
    T_WORKERS_GAINED,
    T_YIELD_DRAWN,
    YIELD_DISCARD_LEN,
    YIELD_LEN,
    YIELD_TOP,
    bonus_nb,
    forced,
    inner,
)


@njit(cache=True, inline="always")
def shuffle_nb(items, n, rng):
    """Fisher-Yates from the back over ``items[:n]`` (the reference's shuffle; inlined: each
    array field is a type of its own). The generator's state is held in a variable meanwhile: kept
    in ``rng``, each draw waited on the store before it (and on the swap's, which may alias it)."""
    z = rng[0]
    for j in range(n - 1, 0, -1):
        r, z = below_held_nb(z, j + 1)
        items[j], items[r] = items[r], items[j]
    rng[0] = z


@njit(cache=True, inline="always")
def chosen_nb(state, seat, answer, what):
    """A strategy's answer to an option decision, checked: an index into the options."""
    if answer < 0 or answer >= state.counts[N_OPTIONS]:
        raise ValueError(ILLEGAL, seat, state.seat_strategy[seat], what)
    return answer


@njit(cache=True, inline="always")
def score_nb(state, seat, points, source):
    """Points from a source (state.P_*): green for the first five, red for the rest."""
    state.points[seat, source] += points
    if source < P_REGIONS + 5:
        state.green[seat] += points
    else:
        state.red[seat] += points


# ---------------------------------------------------------------- cards (T13, T30)

@njit(cache=True, inline="always")
def reshuffle_nb(pile, discards, counts, top, length, discarded, rng):
    """An empty pile becomes its discards, in the order discarded, shuffled (T13, T30): counts[top],
    counts[length] and counts[discarded] follow; False when there are no discards."""
    n = counts[discarded]
    if n == 0:
        return False
    for i in range(n):
        pile[i] = discards[i]
    counts[top], counts[length], counts[discarded] = 0, n, 0
    shuffle_nb(pile, n, rng)
    return True


@forced
def draw_region_nb(state, seat, count):
    """T13: draw from the top; an empty deck is the discards shuffled; with both empty the rest is lost. The two
    usual cases, inlined where a draw is made: the deck holds them all (a card's hand index unsigned: numba wraps
    a signed index that could be negative, at every index), or deck and discards are both empty (two draws in five
    over a game); a reshuffle, or a deck that runs out, is :func:`draw_through_nb`'s."""
    counts = state.counts
    top = counts[DECK_TOP]
    end = top + count
    if end <= counts[DECK_LEN]:
        for i in range(top, end):
            state.hand[seat, np.uint64(state.deck[i])] += 1
        counts[DECK_TOP] = end
        state.hand_total[seat] += count
        state.tally[seat, T_CARDS_DRAWN] += count
    elif top < counts[DECK_LEN] or counts[DISCARD_LEN]:
        draw_through_nb(state, seat, count)


@inner
def draw_through_nb(state, seat, count):
    """:func:`draw_region_nb` when the deck runs out: what it holds, then the discards shuffled, and so on."""
    counts = state.counts
    drawn = 0
    while drawn < count:
        if counts[DECK_TOP] == counts[DECK_LEN] and not reshuffle_nb(state.deck, state.discards, counts, DECK_TOP,
                                                                    DECK_LEN, DISCARD_LEN, state.rng):
            break
        top = counts[DECK_TOP]
        end = min(top + count - drawn, counts[DECK_LEN])
        for i in range(top, end):
            state.hand[seat, state.deck[i]] += 1
        counts[DECK_TOP] = end
        drawn += end - top
    state.hand_total[seat] += drawn
    state.tally[seat, T_CARDS_DRAWN] += drawn


@inner
def gain_hexagon_nb(state, seat):
    """T26: a hexagon goes into a free storage space; with none, it scores red instead."""
    if state.storage_len[seat] < STORAGE_SPACES + state.bonus[seat, BONUS_STORAGE]:
        state.storage[seat, state.storage_len[seat]] = HEX
        state.storage_len[seat] += 1
    else:
        score_nb(state, seat, state.rules[R_NO_ROOM_RED], P_NO_ROOM)


@inner
def draw_yield_nb(state, seat):
    """T6, T30: draw a yield card (an empty deck is its discards shuffled), discard it, take its reward."""
    counts = state.counts
    if counts[YIELD_TOP] == counts[YIELD_LEN] and not reshuffle_nb(
            state.yield_deck, state.yield_discards, counts, YIELD_TOP, YIELD_LEN, YIELD_DISCARD_LEN, state.rng):
        return
    card = state.yield_deck[counts[YIELD_TOP]]
    counts[YIELD_TOP] += 1
    state.yield_discards[counts[YIELD_DISCARD_LEN]] = card
    counts[YIELD_DISCARD_LEN] += 1
    state.tally[seat, T_YIELD_DRAWN] += 1
    kind, amount = state.yield_kind[card], state.yield_amount[card]
    if kind == YIELD_GREEN:
        score_nb(state, seat, amount, P_YIELD_GREEN)
    elif kind == YIELD_RED:
        score_nb(state, seat, amount, P_YIELD_RED)
    elif kind == YIELD_CARDS:
        draw_region_nb(state, seat, amount)
    elif kind == YIELD_MARBLE:
        state.marble[seat] += amount
        state.tally[seat, T_MARBLE_GAINED] += amount
    elif kind == YIELD_WORKER:
        state.workers[seat] += amount
        state.tally[seat, T_WORKERS_GAINED] += amount
    else:
        for _ in range(amount):
            gain_hexagon_nb(state, seat)


@inner
def offer_bonus_nb(state, table, seat):
    """T12, T25: take a bonus tile of a kind still in supply; +1 storage scores green at once."""
    n = 0
    for kind in range(N_BONUS):
        if state.bonus_supply[kind] > 0:
            state.options[n] = kind
            n += 1
    if n == 0:
        return
    state.counts[N_OPTIONS] = n
    kind = state.options[chosen_nb(state, seat, bonus_nb(table, state.seat_strategy[seat], state, seat), "bonus")]
    state.bonus_supply[kind] -= 1
    state.bonus[seat, kind] += 1
    if kind == BONUS_STORAGE:
        score_nb(state, seat, state.rules[R_STORAGE_GREEN], P_STORAGE_BONUS)
