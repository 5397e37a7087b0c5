"""The Castles of Tuscany's jitted engine: the game on a ``GameState`` record (T10-T37).

A game is a ``GameState`` (``state.py``), prepared by ``tables.new_state`` and driven by
:func:`play_game_nb` after :func:`start_game_nb`. The engine never names a strategy: every
decision goes through the dispatchers declared in ``state.py`` with the strategy table it is
handed, the options written into ``state.options`` first. It consumes the game's generator
exactly as the reference engine (``reference.py``; its docstring and docs/rules-tuscany.md,
"Randomness", give the order), so the same (seed, game index) plays the same game in both;
tests/tuscany/test_tuscany_engine.py compares them record by record.

The pieces: piles with a top (``deck[DECK_TOP:DECK_LEN]``; the reference's ``pop(0)``), an
estate as bit masks of fields (covered, the frontier of T19, each colour's fields), a
storage list closed up on removal. A castle's chain (T24) is a loop, its gaps refilled
innermost first. The rounds, phases and the end are ``game.py``'s (the play loop).
"""
from __future__ import annotations

from numba import njit

from ...core.registry import ILLEGAL
from ...core.rng import below_nb
from .geometry import ESTATE_FIELDS
from .rules import (
    AGRICULTURE,
    BONUS_CARD,
    BONUS_MARBLE,
    BONUS_STORAGE,
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
    STORAGE_SPACES,
    TAKE,
    VILLAGE,
    WAGON,
)
from .state import (
    DECK_LEN,
    DECK_TOP,
    DISCARD_LEN,
    EMPTY,
    FIELD_CODE,
    HEX,
    N_BONUS,
    N_OPTIONS,
    OUT_LEN,
    P_AGRICULTURE,
    P_COLOUR_BONUS,
    P_NO_ROOM,
    P_REGIONS,
    P_STORAGE_BONUS,
    P_YIELD_GREEN,
    P_YIELD_RED,
    PAY_COLOUR,
    PHASE,
    PHASE_PENDING,
    R_DISPLAY,
    R_DRAW,
    R_MONASTERY_DRAW,
    R_NO_ROOM_RED,
    R_REGION1,
    R_STACK_SIZE,
    R_STORAGE_GREEN,
    REFRESHES,
    SUPPLY_LEN,
    SUPPLY_TOP,
    T17_REFRESHES,
    T_CARDS_DRAWN,
    T_HEXAGONS,
    T_MARBLE_GAINED,
    T_MARBLE_USED,
    T_TILES,
    T_WORKERS_GAINED,
    T_WORKERS_USED,
    T_YIELD_DRAWN,
    YIELD_DISCARD_LEN,
    YIELD_LEN,
    YIELD_TOP,
    action_nb,
    bonus_nb,
    castle_nb,
    discard_nb,
    marble_nb,
    payment_nb,
    lowest_bit,
    payment_parts,
    place_nb,
    refresh_nb,
    take_nb,
)

YIELD_GREEN, YIELD_RED, YIELD_CARDS, YIELD_MARBLE, YIELD_WORKER, YIELD_HEXAGON = range(6)  # components.YIELD_KINDS
ALL_FIELDS = (1 << ESTATE_FIELDS) - 1
FIVES = sum(0xF8 << (8 * k) for k in range(N_COLOURS)) - (1 << 64)  # bits 3-7 of every byte (as an int64)
THREES = sum(3 << (8 * k) for k in range(N_COLOURS))  # 3 in every byte: a byte of 5 or more then reaches 8


@njit(cache=True)
def shuffle_nb(items, n, rng):
    """Fisher-Yates from the back over ``items[:n]`` (the reference's shuffle)."""
    for j in range(n - 1, 0, -1):
        r = below_nb(rng, j + 1)
        items[j], items[r] = items[r], items[j]


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

@njit(cache=True)
def draw_region_nb(state, seat, count):
    """T13: draw from the top; an empty deck is the discards shuffled; with both empty the rest is lost."""
    counts = state.counts
    for _ in range(count):
        if counts[DECK_TOP] == counts[DECK_LEN]:
            n = counts[DISCARD_LEN]
            if n == 0:
                return
            for i in range(n):
                state.deck[i] = state.discards[i]
            counts[DECK_TOP], counts[DECK_LEN], counts[DISCARD_LEN] = 0, n, 0
            shuffle_nb(state.deck, n, state.rng)
        state.hand[seat, state.deck[counts[DECK_TOP]]] += 1
        counts[DECK_TOP] += 1
        state.hand_total[seat] += 1
        state.tally[seat, T_CARDS_DRAWN] += 1


@njit(cache=True)
def gain_hexagon_nb(state, seat):
    """T26: a hexagon goes into a free storage space; with none, it scores red instead."""
    if state.storage_len[seat] < STORAGE_SPACES + state.bonus[seat, BONUS_STORAGE]:
        state.storage[seat, state.storage_len[seat]] = HEX
        state.storage_len[seat] += 1
    else:
        score_nb(state, seat, state.rules[R_NO_ROOM_RED], P_NO_ROOM)


@njit(cache=True)
def draw_yield_nb(state, seat):
    """T6, T30: draw a yield card (an empty deck is its discards shuffled), discard it, take its reward."""
    counts = state.counts
    if counts[YIELD_TOP] == counts[YIELD_LEN]:
        n = counts[YIELD_DISCARD_LEN]
        if n == 0:
            return
        for i in range(n):
            state.yield_deck[i] = state.yield_discards[i]
        counts[YIELD_TOP], counts[YIELD_LEN], counts[YIELD_DISCARD_LEN] = 0, n, 0
        shuffle_nb(state.yield_deck, n, state.rng)
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


@njit(cache=True)
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


# ---------------------------------------------------------------- the display (T14-T17)

@njit(cache=True)
def next_neutral_nb(state):
    """The neutral supply's top tile, or EMPTY when it is out."""
    counts = state.counts
    if counts[SUPPLY_TOP] == counts[SUPPLY_LEN]:
        return EMPTY
    counts[SUPPLY_TOP] += 1
    return state.supply[counts[SUPPLY_TOP] - 1]


@njit(cache=True)
def replace_kind_nb(state, kind):
    """Every display tile of ``kind`` leaves the game; neutral tiles fill those places, ascending."""
    for place in range(state.rules[R_DISPLAY]):
        tile = state.display[place]
        if tile != EMPTY and state.tile_kind[tile] == kind:
            state.out[state.counts[OUT_LEN]] = tile
            state.counts[OUT_LEN] += 1
            state.display[place] = next_neutral_nb(state)


@njit(cache=True)
def five_of_a_colour_nb(state):
    """T16: while five or more display tiles share a colour, replace them all; each time one refresh."""
    while True:
        shown = 0  # tiles of kind k in byte k
        for place in range(state.rules[R_DISPLAY]):
            if state.display[place] != EMPTY:
                shown += 1 << (8 * state.tile_kind[state.display[place]])
        if (shown + THREES) & FIVES == 0:
            return
        five = 0
        while shown >> (8 * five) & 255 < 5:
            five += 1
        replace_kind_nb(state, five)
        state.counts[REFRESHES] += 1


@njit(cache=True)
def refill_nb(state, seat, place):
    """T14: the gap from the seat's leftmost non-empty stack, else the neutral supply;
    T15: the last tile of stack n in phase n ends the phase after this round; then T16."""
    size = state.rules[R_STACK_SIZE]
    for n in range(3):
        top = state.stack_top[seat, n]
        if top < size:
            state.display[place] = state.tiles[seat, n * size + top]
            state.stack_top[seat, n] = top + 1
            if top + 1 == size and n + 1 == state.counts[PHASE]:
                state.counts[PHASE_PENDING] = 1
            break
    else:
        state.display[place] = next_neutral_nb(state)
    five_of_a_colour_nb(state)


@njit(cache=True)
def placeable_nb(state, seat, place):
    """Whether the display tile at ``place`` could go into the estate by T19 (payment aside)."""
    tile = state.display[place]
    return tile != EMPTY and state.frontier[seat] & state.colour_mask[seat, state.tile_kind[tile]] != 0


@njit(cache=True)
def display_options_nb(state, seat, only_placeable):
    """The display places holding a tile (those the seat could place, if ``only_placeable``), as options."""
    n = 0
    for place in range(state.rules[R_DISPLAY]):
        if state.display[place] != EMPTY and (not only_placeable or placeable_nb(state, seat, place)):
            state.options[n] = place
            n += 1
    state.counts[N_OPTIONS] = n
    return n


@njit(cache=True)
def t17_nb(state, table, seat):
    """T17 (asked only when no display tile fits the estate): the seat may clear a kind from the
    display, again and again while none fits; then the take's options: the places whose tile
    fits, or (none fitting) every place holding a tile. Returns how many."""
    strategy = state.seat_strategy[seat]
    while display_options_nb(state, seat, True) == 0 and display_options_nb(state, seat, False) > 0:
        n = 1
        state.options[0] = -1  # take as usual
        for kind in range(N_COLOURS):
            for place in range(state.rules[R_DISPLAY]):
                tile = state.display[place]
                if tile != EMPTY and state.tile_kind[tile] == kind:
                    state.options[n] = kind
                    n += 1
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


@njit(cache=True)
def take_nb_(state, table, seat):
    """T14 (with T17 first when no display tile fits the estate)."""
    strategy = state.seat_strategy[seat]
    any_fits = False
    for place in range(state.rules[R_DISPLAY]):
        if placeable_nb(state, seat, place):
            any_fits = True
            break
    n = display_options_nb(state, seat, False) if any_fits else t17_nb(state, table, seat)
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
    state.display[place] = EMPTY
    refill_nb(state, seat, place)


# ---------------------------------------------------------------- placing (T18-T31)

@njit(cache=True)
def payable_colours_nb(state, seat):
    """T18: bit c set when the seat can pay two units of colour c (cards, workers, pairs)."""
    pairs = 0
    for c in range(N_COLOURS):
        pairs += state.hand[seat, c] // 2
    mask = 0
    for c in range(N_COLOURS):
        hand = state.hand[seat, c]
        if hand + state.workers[seat] + pairs - hand // 2 >= 2:
            mask |= 1 << c
    return mask


@njit(cache=True)
def payable_fields_nb(state, seat):
    """The fields whose colour the seat can pay for (T18), as a bit mask."""
    colours = payable_colours_nb(state, seat)
    fields = 0
    for c in range(N_COLOURS):
        if colours >> c & 1:
            fields |= state.colour_mask[seat, c]
    return fields


@njit(cache=True)
def item_fields_nb(state, seat, item):
    """T19: the empty fields a stored item (a tile id or HEX) may go on, as a bit mask."""
    if item == HEX:
        return state.frontier[seat]
    return state.frontier[seat] & state.colour_mask[seat, state.tile_kind[item]]


@njit(cache=True)
def can_place_nb(state, seat):
    """Whether some stored item has a legal field the seat can pay for (T39's place is legal)."""
    if state.storage_len[seat] == 0:
        return False
    payable = payable_fields_nb(state, seat)
    for i in range(state.storage_len[seat]):
        if item_fields_nb(state, seat, state.storage[seat, i]) & payable:
            return True
    return False


@njit(cache=True)
def pay_nb(state, seat, colour, code):
    """T18: check the strategy's payment (two units, from what the seat holds) and pay it; paid
    cards go to the discards (the colour's cards, then each pair's)."""
    cards, workers, pair1, pair2 = payment_parts(code)
    hand = state.hand[seat]
    units = cards + workers + (pair1 >= 0) + (pair2 >= 0)
    ok = (units == 2 and code >= 0 and cards <= hand[colour] and workers <= state.workers[seat]
          and pair1 != colour and pair2 != colour and (pair1 < 0 or pair1 <= pair2))
    if ok and pair1 >= 0:
        ok = hand[pair1] >= (4 if pair1 == pair2 else 2)
    if ok and pair2 >= 0 and pair2 != pair1:
        ok = hand[pair2] >= 2
    if not ok:
        raise ValueError(ILLEGAL, seat, state.seat_strategy[seat], "payment")
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


@njit(cache=True)
def cover_nb(state, seat, item, field):
    """Put ``item`` on ``field``: the estate's masks and counts follow (T19-T22 read them)."""
    state.field_item[seat, field] = item
    covered = state.covered[seat] | (1 << field)
    state.covered[seat] = covered
    state.frontier[seat] = (state.frontier[seat] | state.neighbour_mask[field]) & ~covered & ALL_FIELDS
    state.region_left[seat, state.region_of[seat, field]] -= 1
    state.colour_left[seat, state.colour[seat, field]] -= 1


@njit(cache=True)
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


@njit(cache=True)
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
            new = state.tile_types[item] & ~state.region_types[seat, region]
            points = 0
            while new:
                points += new & 1
                new >>= 1
            score_nb(state, seat, points, P_AGRICULTURE)
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


@njit(cache=True)
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
        state.display[place] = EMPTY
        state.chain[depth] = place
        depth += 1
    for d in range(depth - 1, -1, -1):
        refill_nb(state, seat, state.chain[d])


@njit(cache=True)
def place_item_nb(state, table, seat):
    """T18-T19: a stored item on a payable legal field, paid; then T20 on."""
    strategy = state.seat_strategy[seat]
    payable = payable_fields_nb(state, seat)
    n = 0
    for i in range(state.storage_len[seat]):
        fields = item_fields_nb(state, seat, state.storage[seat, i]) & payable
        while fields:
            f = lowest_bit(fields)
            fields &= fields - 1
            state.options[n] = i * FIELD_CODE + f
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

@njit(cache=True)
def action_nb_(state, table, seat):
    """T13: one action among the legal ones (T39): draw; take with a display tile; place."""
    n = 1
    state.options[0] = DRAW
    for place in range(state.rules[R_DISPLAY]):
        if state.display[place] != EMPTY:
            state.options[n] = TAKE
            n += 1
            break
    if can_place_nb(state, seat):
        state.options[n] = PLACE
        n += 1
    state.counts[N_OPTIONS] = n
    choice = state.options[chosen_nb(state, seat, action_nb(table, state.seat_strategy[seat], state, seat), "action")]
    if choice == DRAW:
        draw_region_nb(state, seat, state.rules[R_DRAW] + state.bonus[seat, BONUS_CARD])
    elif choice == TAKE:
        take_nb_(state, table, seat)
    else:
        place_item_nb(state, table, seat)


@njit(cache=True)
def turn_nb(state, table, seat):
    """T13: one action; T32: then a marble may buy one more."""
    action_nb_(state, table, seat)
    if state.marble[seat] > 0 and marble_nb(table, state.seat_strategy[seat], state, seat):
        state.marble[seat] -= 1
        state.tally[seat, T_MARBLE_USED] += 1
        action_nb_(state, table, seat)

