"""The Castles of Tuscany's jitted engine: the game on a ``GameState`` record (T10-T37).

A game is a ``GameState`` (``state.py``), prepared by ``tables.new_state`` and driven by
:func:`play_game_nb` after :func:`start_game_nb`. The engine never names a strategy: every
decision goes through the dispatchers declared in ``state.py`` with the strategy table it is
handed, the options written into ``state.options`` first. It consumes the game's generator
exactly as the reference engine (``reference.py``; its docstring and docs/rules-tuscany.md,
"Randomness", give the order), so the same (seed, game index) plays the same game in both;
tests/tuscany/test_tuscany_engine.py compares them record by record.

This module holds a turn (T13, T32) and placing (T18-T31): an estate is bit masks of fields
(covered, the frontier of T19, each colour's fields), storage a list closed up on removal, and
a castle's chain (T24) a loop whose gaps are refilled innermost first. The cards, hexagons and
bonus tiles are ``pieces.py``'s, the display (T14-T17) ``display.py``'s, setup and the rounds,
phases and the end (the play loop) ``game.py``'s.

Speed: LLVM leaves most jitted functions of this size as calls (numba's calling convention, an
absolute address each); what runs at every action is inlined: the payable check and the refill by
numba (``inline="always"``), the take and placing by LLVM (``state.forced``: compiled once each and
inlined as machine code, not copied as numba IR into ``act_nb``, which numba does block by block,
each block with the body's whole scope, a cost in the square of its size at the first compile;
docs/performance.md). The action is ``act_nb``, called by ``turn_nb`` for the first action and the
marble's second (one copy of the code). Indices the hot paths read at every action are unsigned
(``np.uint64``): numba wraps a signed index that could be negative, at every index. ``pay_nb`` stays
a call: inlined by numba (0.68) the games differed, its payments not applied (caught by
tests/tuscany/test_tuscany_engine.py; the cause not pinned down).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.registry import ILLEGAL
from .display import refill_nb, show_nb, take_nb_
from .geometry import ESTATE_FIELDS
from .pieces import chosen_nb, draw_region_nb, draw_yield_nb, gain_hexagon_nb, offer_bonus_nb, score_nb
from .rules import (
    AGRICULTURE,
    BONUS_CARD,
    BONUS_MARBLE,
    BONUS_WORKER,
    BONUS_YIELD,
    CASTLE,
    CITY,
    DRAW,
    INN,
    MONASTERY,
    N_COLOURS,
    PLACE,
    QUARRY,
    TAKE,
    VILLAGE,
    WAGON,
)
from .state import (
    DISCARD_LEN,
    EMPTY,
    FIELD_CODE,
    HEX,
    N_OPTIONS,
    OCCUPIED,
    P_AGRICULTURE,
    P_COLOUR_BONUS,
    P_REGIONS,
    PAY_COLOUR,
    R_DISPLAY,
    R_DRAW,
    R_MONASTERY_DRAW,
    R_REGION1,
    T_HEXAGONS,
    T_MARBLE_GAINED,
    T_MARBLE_USED,
    T_TILES,
    T_WORKERS_GAINED,
    T_WORKERS_USED,
    action_nb,
    bit_count,
    castle_nb,
    forced,
    inner,
    lowest_bit,
    marble_nb,
    payment_nb,
    payment_parts,
    place_nb,
)

ALL_FIELDS = (1 << ESTATE_FIELDS) - 1
ALL_COLOURS = (1 << N_COLOURS) - 1

# ---------------------------------------------------------------- placing (T18-T31)

@njit(cache=True, inline="always")
def payable_colours_nb(state, seat):
    """T18: bit c set when the seat can pay two units of colour c (cards, workers, pairs)."""
    if 2 * state.workers[seat] + state.hand_total[seat] >= N_COLOURS + 3:
        return ALL_COLOURS  # at least two units (workers and pairs) for any colour, however the hand is split
    pairs = 0
    for c in range(N_COLOURS):
        pairs += state.hand[seat, c] // 2
    if state.workers[seat] + pairs >= 2:  # two units for any colour (the usual case)
        return ALL_COLOURS
    mask = 0
    for c in range(N_COLOURS):
        hand = state.hand[seat, c]
        if hand + state.workers[seat] + pairs - hand // 2 >= 2:
            mask |= 1 << c
    return mask


@njit(cache=True, inline="always")
def payable_fields_nb(state, seat):
    """The fields whose colour the seat can pay for (T18), as a bit mask."""
    colours = payable_colours_nb(state, seat)
    if colours == ALL_COLOURS:
        return ALL_FIELDS
    fields = 0
    for c in range(N_COLOURS):
        if colours >> c & 1:
            fields |= state.colour_mask[seat, c]
    return fields


@inner
def item_fields_nb(state, seat, item):
    """T19: the empty fields a stored item (a tile id or HEX) may go on, as a bit mask."""
    if item == HEX:
        return state.frontier[seat]
    return state.frontier[seat] & state.colour_mask[seat, np.uint64(state.tile_kind[np.uint64(item)])]


@njit(cache=True, inline="always")
def can_place_nb(state, seat):
    """Whether some stored item has a legal field the seat can pay for (T39's place is legal)."""
    if state.storage_len[seat] == 0:
        return False
    payable = payable_fields_nb(state, seat)
    for i in range(state.storage_len[seat]):
        if item_fields_nb(state, seat, state.storage[seat, np.uint64(i)]) & payable:
            return True
    return False


@inner
def payment_ok_nb(state, seat, colour, code):
    """T18: whether payment ``code`` is two units for a field of ``colour`` from what the seat holds
    (the engine's check, and the legal payments of a stepped game, stepped.py)."""
    cards, workers, pair1, pair2 = payment_parts(code)
    hand = state.hand[seat]
    units = cards + workers + (pair1 >= 0) + (pair2 >= 0)
    ok = (units == 2 and code >= 0 and pair2 < N_COLOURS and cards <= hand[colour] and workers <= state.workers[seat]
          and pair1 != colour and pair2 != colour and (pair1 < 0 or pair1 <= pair2))
    if ok and pair1 >= 0:
        ok = hand[pair1] >= (4 if pair1 == pair2 else 2)
    if ok and pair2 >= 0 and pair2 != pair1:
        ok = hand[pair2] >= 2
    return ok


@inner
def pay_nb(state, seat, colour, code):
    """T18: check the strategy's payment (two units, from what the seat holds) and pay it; paid
    cards go to the discards (the colour's cards, then each pair's)."""
    if not payment_ok_nb(state, seat, colour, code):
        raise ValueError(ILLEGAL, seat, state.seat_strategy[seat], "payment")
    cards, workers, pair1, pair2 = payment_parts(code)
    hand = state.hand[seat]
    counts = state.counts
    for _ in range(cards):
        state.discards[counts[DISCARD_LEN]] = colour
        counts[DISCARD_LEN] += 1
    hand[colour] -= cards
    for pair in (pair1, pair2):
        if pair >= 0:
            hand[pair] -= 2
            state.discards[counts[DISCARD_LEN]] = pair
            state.discards[counts[DISCARD_LEN] + 1] = pair
            counts[DISCARD_LEN] += 2
    state.hand_total[seat] -= cards + 2 * (pair1 >= 0) + 2 * (pair2 >= 0)
    state.workers[seat] -= workers
    state.tally[seat, T_WORKERS_USED] += workers


@inner
def cover_nb(state, seat, item, field):
    """Put ``item`` on ``field``: the estate's masks and counts follow (T19-T22 read them)."""
    state.field_item[seat, field] = item
    covered = state.covered[seat] | (1 << field)
    state.covered[seat] = covered
    state.frontier[seat] = (state.frontier[seat] | state.neighbour_mask[field]) & ~covered & ALL_FIELDS
    state.region_left[seat, state.region_of[seat, field]] -= 1
    state.colour_left[seat, state.colour[seat, field]] -= 1


@inner
def score_placement_nb(state, seat, item, field):
    """T20-T22: the item on the field, then region completion and the colour bonus."""
    cover_nb(state, seat, item, field)
    state.tally[seat, T_HEXAGONS if item == HEX else T_TILES] += 1
    region = state.region_of[seat, field]
    if state.region_left[seat, region] == 0:  # T21
        score_nb(state, seat, state.rules[R_REGION1 + state.region_size[seat, region] - 1], P_REGIONS)
    colour = state.colour[seat, field]
    if state.colour_left[seat, colour] == 0:  # T22
        claims = state.colour_claims[colour]
        if claims < 2:
            score_nb(state, seat, state.colour_bonus[colour, claims], P_COLOUR_BONUS)
        state.colour_claims[colour] = claims + 1


@inner
def effect_nb(state, table, seat, colour, item, field):
    """T25-T31: the effect of the field's colour (a hexagon's too); the castle's is put_nb's."""
    if colour == CITY:
        offer_bonus_nb(state, table, seat)
    elif colour == INN:
        gain_hexagon_nb(state, seat)
    elif colour == AGRICULTURE:
        region = state.region_of[seat, field]
        if item == HEX:
            score_nb(state, seat, 1, P_AGRICULTURE)  # T27: a hexagon always scores 1
        else:
            score_nb(state, seat, bit_count(state.tile_types[item] & ~state.region_types[seat, region]), P_AGRICULTURE)
            state.region_types[seat, region] |= state.tile_types[item]
    elif colour == VILLAGE:
        amount = 1 + state.bonus[seat, BONUS_WORKER]
        state.workers[seat] += amount
        state.tally[seat, T_WORKERS_GAINED] += amount
    elif colour == MONASTERY:
        draw_region_nb(state, seat, state.rules[R_MONASTERY_DRAW])
    elif colour == WAGON:
        for _ in range(1 + state.bonus[seat, BONUS_YIELD]):
            draw_yield_nb(state, seat)
    elif colour == QUARRY:
        amount = 1 + state.bonus[seat, BONUS_MARBLE]
        state.marble[seat] += amount
        state.tally[seat, T_MARBLE_GAINED] += amount


@inner
def put_nb(state, table, seat, item, field):
    """T20-T31 for an item placed, and T24's chain: a castle places a display tile for free,
    which scores and acts in turn; the gaps are refilled after the chain, innermost first."""
    strategy = state.seat_strategy[seat]
    depth = 0  # the chain's gaps: state.chain[:depth]
    while True:
        score_placement_nb(state, seat, item, field)
        colour = state.colour[seat, field]
        if colour != CASTLE:
            effect_nb(state, table, seat, colour, item, field)
            break
        n = 0  # T24: (display place, field) pairs
        for place in range(state.rules[R_DISPLAY]):
            tile = state.display[place]
            if tile != EMPTY:
                fields = item_fields_nb(state, seat, tile)
                while fields:
                    f = lowest_bit(fields)
                    fields &= fields - 1
                    state.options[n] = place * FIELD_CODE + f
                    n += 1
        if n == 0:
            break  # the effect is lost
        state.counts[N_OPTIONS] = n
        option = state.options[chosen_nb(state, seat, castle_nb(table, strategy, state, seat), "castle")]
        place, field = option // FIELD_CODE, option % FIELD_CODE
        item = state.display[place]
        show_nb(state, place, EMPTY)
        state.chain[depth] = place
        depth += 1
    for d in range(depth - 1, -1, -1):
        refill_nb(state, seat, state.chain[d])


@forced
def place_item_nb(state, table, seat):
    """T18-T19: a stored item on a payable legal field, paid; then T20 on."""
    strategy = state.seat_strategy[seat]
    payable = payable_fields_nb(state, seat)
    n = 0
    for i in range(state.storage_len[seat]):
        fields = item_fields_nb(state, seat, state.storage[seat, np.uint64(i)]) & payable
        while fields:
            f = lowest_bit(fields)
            fields &= fields - 1
            state.options[np.uint64(n)] = i * FIELD_CODE + f
            n += 1
    state.counts[N_OPTIONS] = n
    option = state.options[chosen_nb(state, seat, place_nb(table, strategy, state, seat), "place")]
    index, field = option // FIELD_CODE, option % FIELD_CODE
    colour = state.colour[seat, field]
    state.counts[PAY_COLOUR] = colour
    pay_nb(state, seat, colour, payment_nb(table, strategy, state, seat))
    item = state.storage[seat, index]
    stored = state.storage_len[seat]
    for i in range(index, stored - 1):
        state.storage[seat, i] = state.storage[seat, i + 1]
    state.storage_len[seat] = stored - 1
    put_nb(state, table, seat, item, field)


# ---------------------------------------------------------------- a turn (T13, T32)

@njit(cache=True, inline="always")
def action_options_nb(state, seat):
    """T13, T39: the legal actions written as the action's options (draw always; take while the display holds a
    tile; place while something stored can be paid for on a legal field)."""
    n = 1
    state.options[0] = DRAW
    if state.counts[OCCUPIED]:
        state.options[n] = TAKE
        n += 1
    if can_place_nb(state, seat):
        state.options[n] = PLACE
        n += 1
    state.counts[N_OPTIONS] = n


@inner
def act_nb(state, table, seat):
    """T13: one action among the legal ones (T39): draw; take with a display tile; place."""
    action_options_nb(state, seat)
    answer = action_nb(table, state.seat_strategy[seat], state, seat)
    choice = state.options[chosen_nb(state, seat, answer, "action")]
    if choice == DRAW:
        draw_region_nb(state, seat, state.rules[R_DRAW] + state.bonus[seat, BONUS_CARD])
    elif choice == TAKE:
        take_nb_(state, table, seat)
    else:
        place_item_nb(state, table, seat)


@inner
def turn_nb(state, table, seat, first):
    """T13: an action (:func:`act_nb`); T32: then a marble may buy one more. ``first`` is 0 for a whole turn, 1 for
    its second action only (a search's rollout resumes there). The action is a call at both places, not a loop
    around it: in a loop, LLVM computed every address the action might use before the first (once a turn, most
    of them unused), and numba's inlining would copy its IR, block by block with the whole scope, and type it
    again."""
    if first == 0:
        act_nb(state, table, seat)
        if state.marble[seat] == 0 or not marble_nb(table, state.seat_strategy[seat], state, seat):
            return
        state.marble[seat] -= 1
        state.tally[seat, T_MARBLE_USED] += 1
    act_nb(state, table, seat)
