"""The Tuscany heuristics' shared evaluation: what a field, a tile, a bonus tile, a card and a payment are
worth to a seat, in red points, under a parameter vector (written once; every heuristic's decisions are
``heuristic.py``'s, its style only its parameters' defaults).

The parameters (a seat's ``params`` tuple, in this order; each heuristic declares all eight, :func:`params`):

* ``region``: weight of T21's region scores (a region completed now; a share of it for progress);
* ``colour``: weight of T22's colour bonuses (completed now; a share for progress);
* ``build``: weight of the castle's free placement (T24), the city's bonus tile (T25), the inn's hexagon (T26);
* ``trade``: weight of the village's worker (T28), the monastery's cards (T29), the wagon's yield card (T30),
  the quarry's marble (T31), and of the bonus tiles that multiply them;
* ``place_min``: the least net worth of a placement (worth minus payment) for which the seat places
  rather than takes or draws;
* ``horizon``: 0 values a green point as one red point; 1 as the phase scorings still to come (T34: green
  earned in phase 1 is banked three times), and values cards, workers and marble as the game nears its end;
* ``card``: the worth of one region card in hand (payment's cost, the monastery's gain);
* ``marble_min``: the least worth of the next action for which the seat spends a marble (T32).

What it reads (the seat's view, state.py): its own ``hand``, ``workers``, ``storage[:storage_len]``, ``bonus``;
its estate (``colour``, ``colour_mask``, ``colour_left``, ``frontier``, ``region_*``); ``colour_claims``,
``colour_bonus``, ``bonus_supply``, ``display``, ``tile_kind``, ``tile_types``, ``rules``, ``board_cells``,
``boards`` (its own), ``neighbour_mask`` and ``counts[PHASE]``. Never a deck, a
stack's tiles, the supply or a rival's hand or storage.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ....core.registry import Param
from ..engine import payable_colours_nb
from ..estates import ASSEMBLY_TURNED, ASSEMBLY_TYPE
from ..rules import (
    AGRICULTURE,
    BONUS_CARD,
    BONUS_MARBLE,
    BONUS_STORAGE,
    BONUS_WORKER,
    BONUS_YIELD,
    CASTLE,
    CITY,
    INN,
    MONASTERY,
    N_COLOURS,
    PHASES,
    QUARRY,
    STORAGE_SPACES,
    VILLAGE,
    WAGON,
)
from ..state import (
    EMPTY,
    HEX,
    N_BONUS,
    N_OPTIONS,
    PHASE,
    R_DISPLAY,
    R_FINAL_CARDS,
    R_MONASTERY_DRAW,
    R_REGION1,
    R_STORAGE_GREEN,
    bit_count,
    lowest_bit,
    payment_code,
)

REGION, COLOUR, BUILD, TRADE, PLACE_MIN, HORIZON, CARD, MARBLE_MIN = range(8)
NAMES = ("region", "colour", "build", "trade", "place_min", "horizon", "card", "marble_min")
PROGRESS = 0.4  # the share of a region's or colour's score credited to a field that does not complete it
FREE_TILE = 2.5  # T24: a castle's free placement, in red, before weights (a tile and its effect, unpaid)
HEXAGON = 1.5  # T26: a hexagon in storage (a tile for any field)
WORKER = 1.0  # T28: one unit of payment, or one red at the end (T35)
MARBLE = 1.2  # T31: one more action, or one red at the end
NO_FIELD = -1.0  # a tile with no empty field of its colour left: storage's one red at the end, less a space
NONE = -1e9
SHORT = 4.0  # cards' worth a take costs when the hand cannot pay for the tile's colour (a draw's and more)
GREEN, LATE, CARD_WORTH, END_CARD = range(4)  # context_nb's tuple


def params(region, colour, build, trade, place_min, horizon, card, marble_min) -> dict[str, Param]:
    """A heuristic's eight parameters (the module doc), with its style's defaults and the ranges ``tune`` searches."""
    defaults = (region, colour, build, trade, place_min, horizon, card, marble_min)
    ranges = ((0, 4), (0, 4), (0, 4), (0, 4), (-10, 10), (0, 1), (0, 2), (-5, 10))
    helps = ("weight of region scores (T21)", "weight of colour bonuses (T22)",
             "weight of castle, city and inn effects (T24-T26)",
             "weight of village, monastery, wagon and quarry effects (T28-T31)",
             "least net worth of a placement to place rather than take or draw (T13)",
             "0: a green point is one red; 1: one per phase scoring still to come (T34)",
             "worth of a region card in hand, in red", "least worth of the next action to spend a marble (T32)")
    rows = zip(NAMES, defaults, ranges, helps, strict=True)
    return {name: Param(float(d), lo, hi, help=h) for name, d, (lo, hi), h in rows}


@njit(cache=True, inline="always")
def scorings_left_nb(state):
    """T34: the phase scorings still to bank green earned now (3 in phase 1, 2 in phase 2, 1 in phase 3)."""
    return PHASES + 1 - min(state.counts[PHASE], PHASES)


@njit(cache=True, inline="always")
def bonus_worth_nb(state, seat, kind, params, ctx):
    """A bonus tile (T3, T25): what it adds over the fields left that use it."""
    green, late, card = ctx[GREEN], ctx[LATE], ctx[CARD_WORTH]
    if kind == BONUS_STORAGE:
        return state.rules[R_STORAGE_GREEN] * green + 0.5 * late * params[BUILD]
    if kind == BONUS_CARD:
        return 2.0 * late * card * params[TRADE] * scorings_left_nb(state)
    if kind == BONUS_WORKER:
        return state.colour_left[seat, VILLAGE] * WORKER * params[TRADE]
    if kind == BONUS_MARBLE:
        return state.colour_left[seat, QUARRY] * MARBLE * late * params[TRADE]
    return state.colour_left[seat, WAGON] * (1.0 + 0.5 * green) * params[TRADE]


@njit(cache=True)
def context_nb(state, seat, params):
    """What every worth of one decision shares, computed once: (a green point in red: 1 at horizon 0, the
    phase scorings left at horizon 1; how much an effect paying off over the rest of the game is worth now:
    1 early, less late at horizon 1; a region card in hand: ``card``, toward T35's end value late; T35's
    end value of a card)."""
    left = scorings_left_nb(state)
    green = 1.0 + params[HORIZON] * (left - 1)
    late = 1.0 - params[HORIZON] * (PHASES - left) / (PHASES + 1.0)
    end = 1.0 / state.rules[R_FINAL_CARDS] if state.rules[R_FINAL_CARDS] else 0.0
    return green, late, params[CARD] * late + end * (1.0 - late), end


@njit(cache=True)
def city_worth_nb(state, seat, params, ctx):
    """T25: the best bonus tile still in supply (0 with none)."""
    city = 0.0
    for kind in range(N_BONUS):
        if state.bonus_supply[kind] > 0:
            city = max(city, bonus_worth_nb(state, seat, kind, params, ctx))
    return city


@njit(cache=True, inline="always")
def effect_worth_nb(state, seat, colour, params, ctx):
    """T23-T31: the effect of a field's colour, in red."""
    if colour == CASTLE:
        return FREE_TILE * params[BUILD] * ctx[GREEN]
    if colour == CITY:
        return params[BUILD] * city_worth_nb(state, seat, params, ctx)
    if colour == INN:
        return HEXAGON * params[BUILD] * ctx[LATE]
    if colour == VILLAGE:
        return (1 + state.bonus[seat, BONUS_WORKER]) * WORKER * params[TRADE]
    if colour == MONASTERY:
        return state.rules[R_MONASTERY_DRAW] * ctx[CARD_WORTH] * params[TRADE]
    if colour == WAGON:
        return (1 + state.bonus[seat, BONUS_YIELD]) * (1.0 + 0.5 * ctx[GREEN]) * params[TRADE]
    if colour == QUARRY:
        return (1 + state.bonus[seat, BONUS_MARBLE]) * MARBLE * ctx[LATE] * params[TRADE]
    return 0.0


@njit(cache=True, inline="always")
def field_worth_nb(state, seat, field, types, params, ctx):
    """T20-T31: covering the empty ``field`` with a tile of its colour showing agriculture ``types``
    (-1: a hexagon), in red: the region (T21), the colour bonus (T22), agriculture (T27), the effect."""
    colour = state.colour[seat, field]
    region = state.region_of[seat, field]
    size, left = state.region_size[seat, region], state.region_left[seat, region]
    score = state.rules[R_REGION1 + size - 1]
    green = params[REGION] * (score if left == 1 else PROGRESS * score / left)
    claims = state.colour_claims[colour]
    if claims < 2:
        bonus, left = state.colour_bonus[colour, claims], state.colour_left[seat, colour]
        green += params[COLOUR] * (bonus if left == 1 else PROGRESS * bonus / left)
    if colour == AGRICULTURE:
        green += 1 if types < 0 else bit_count(types & ~state.region_types[seat, region])
    return green * ctx[GREEN] + effect_worth_nb(state, seat, colour, params, ctx)


@njit(cache=True, inline="always")
def item_worth_nb(state, seat, item, params, ctx):
    """A tile (id) or hexagon (HEX) to be placed: its best legal field now (T19); a tile with empty fields of
    its colour but none reachable, a share of the first of them; none left, NO_FIELD."""
    if item == HEX:
        fields, types, later = state.frontier[seat], -1, 0
    else:
        kind = state.tile_kind[item]
        fields = state.frontier[seat] & state.colour_mask[seat, kind]
        later = state.colour_mask[seat, kind] & ~fields & ~state.covered[seat]
        types = state.tile_types[item]
    best = NONE
    while fields:
        f = lowest_bit(fields)
        fields &= fields - 1
        best = max(best, field_worth_nb(state, seat, f, types, params, ctx))
    if best > NONE:
        return best
    if later:  # none reachable now: a share of the first field of its colour left
        return PROGRESS * field_worth_nb(state, seat, lowest_bit(later), types, params, ctx)
    return NO_FIELD


@njit(cache=True, inline="always")
def unit_cost_nb(state, seat, colour, field_colour, ctx):
    """One card of ``colour`` spent on a field of ``field_colour``: its worth if fields of its colour are left
    to pay for (this one aside), else T35's end value."""
    if state.colour_left[seat, colour] - (colour == field_colour) > 0:
        return ctx[CARD_WORTH]
    return ctx[END_CARD]


@njit(cache=True)
def payment_nb_(state, seat, colour, ctx):
    """T18: the cheapest two units for a field of ``colour`` (cards of it, workers, pairs of other colours,
    each costed by :func:`unit_cost_nb`; a worker one red), as (payment code, cost); (-1, NONE) if unpayable."""
    hand = state.hand[seat]
    cards = workers = 0
    pair1 = pair2 = -1
    cost = 0.0
    for _ in range(2):
        best, unit = -1, 1e9  # -1: a card of the colour, -2: a worker, c >= 0: a pair of colour c
        if hand[colour] > cards:
            best, unit = -1, unit_cost_nb(state, seat, colour, colour, ctx)
        if state.workers[seat] > workers and WORKER < unit:
            best, unit = -2, WORKER
        if unit > 2 * ctx[END_CARD]:  # a pair could be cheaper
            for c in range(N_COLOURS):
                if c != colour and hand[c] - 2 * (c == pair2) >= 2:
                    pair = 2 * unit_cost_nb(state, seat, c, colour, ctx)
                    if pair < unit:
                        best, unit = c, pair
        if unit >= 1e9:
            return -1, NONE
        cost += unit
        if best == -1:
            cards += 1
        elif best == -2:
            workers += 1
        elif pair2 < 0:
            pair2 = best
        else:
            pair1 = best
    if pair1 > pair2:
        pair1, pair2 = pair2, pair1
    return payment_code(cards, workers, pair1, pair2), cost


@njit(cache=True)
def best_placement_nb(state, seat, params, ctx):
    """T18-T19: the best (storage index, field) to place now, net of its payment: (index, field, worth);
    (-1, -1, NONE) with none payable."""
    colours = payable_colours_nb(state, seat)
    best_i, best_f, best = -1, -1, NONE
    for i in range(state.storage_len[seat]):
        item = state.storage[seat, i]
        fields = state.frontier[seat]
        types, cost = -1, 0.0
        if item != HEX:
            kind = state.tile_kind[item]
            if not colours >> kind & 1:
                continue
            fields &= state.colour_mask[seat, kind]
            types = state.tile_types[item]
            if fields:
                cost = payment_nb_(state, seat, kind, ctx)[1]
        while fields:
            f = lowest_bit(fields)
            fields &= fields - 1
            c = state.colour[seat, f]
            if colours >> c & 1:
                w = field_worth_nb(state, seat, f, types, params, ctx)
                w -= payment_nb_(state, seat, c, ctx)[1] if item == HEX else cost
                if w > best:
                    best_i, best_f, best = i, f, w
    return best_i, best_f, best


@njit(cache=True)
def storage_free_nb(state, seat):
    return state.storage_len[seat] < STORAGE_SPACES + state.bonus[seat, BONUS_STORAGE]


@njit(cache=True, inline="always")
def placeable_nb(state, seat, item):
    """T19: whether a stored item (a tile id or HEX) has a legal field now (payment aside)."""
    if item == HEX:
        return state.frontier[seat] != 0
    return state.colour_mask[seat, state.tile_kind[item]] & state.frontier[seat] != 0


@njit(cache=True)
def take_fits_nb(state, seat):
    """Whether to take (T14), by bit masks alone (no worths: it runs at every action): yes when no stored
    item has a legal field now (drawing would not help: the take discards one, and T17 clears a display
    that holds nothing to place); else when storage has room and a display tile could go on a field now."""
    stuck = True
    for i in range(state.storage_len[seat]):
        if placeable_nb(state, seat, state.storage[seat, i]):
            stuck = False
    if stuck:
        return True
    if not storage_free_nb(state, seat):
        return False
    fits = 0
    for kind in range(N_COLOURS):
        if state.shown[kind] > 0:
            fits |= state.colour_mask[seat, kind]
    return fits & state.frontier[seat] != 0


@njit(cache=True)
def worst_stored_nb(state, seat, params, ctx):
    """The stored item least worth keeping (one without a legal field now first): (storage index, worth)."""
    worst_i, worst = 0, -NONE
    for i in range(state.storage_len[seat]):
        item = state.storage[seat, i]
        w = item_worth_nb(state, seat, item, params, ctx)
        if not placeable_nb(state, seat, item):  # no legal field now: first to go
            w = min(w, 0.0) + NO_FIELD
        if w < worst:
            worst_i, worst = i, w
    return worst_i, worst


@njit(cache=True)
def best_take_nb(state, seat, params, ctx, priced):
    """T14: the display tile most worth taking now, as (place, gain): its worth (``priced``: less what paying
    for its colour would cost from the hand now, or SHORT, a draw's worth, if the hand cannot pay), less the
    worst stored item's with storage full; (-1, NONE) with an empty display."""
    best_p, best = -1, NONE
    colours = payable_colours_nb(state, seat) if priced else 0
    seen = 0  # kinds evaluated (every tile of a kind but agriculture is worth the same)
    for place in range(state.rules[R_DISPLAY]):
        tile = state.display[place]
        if tile == EMPTY:
            continue
        kind = state.tile_kind[tile]
        if kind != AGRICULTURE:
            if seen >> kind & 1:
                continue
            seen |= 1 << kind
        w = item_worth_nb(state, seat, tile, params, ctx)
        if priced:
            w -= payment_nb_(state, seat, kind, ctx)[1] if colours >> kind & 1 else SHORT * ctx[CARD_WORTH]
        if w > best:
            best_p, best = place, w
    if best_p >= 0 and not storage_free_nb(state, seat):
        best -= max(worst_stored_nb(state, seat, params, ctx)[1], 0.0)
    return best_p, best


@njit(cache=True)
def seam_worth_nb(state, seat, slot, upper, upper_turned, lower, lower_turned):
    """T9: same-coloured neighbour pairs across the seam below ``slot`` with board type ``upper`` there and
    ``lower`` in the next slot (each turned or not)."""
    worth = 0
    for c in range(5, 10):
        colour = state.board_cells[upper, state.boards[seat, upper], 9 - c if upper_turned else c]
        touching = state.neighbour_mask[10 * slot + c] >> (10 * slot + 10) & 0x3FF
        while touching:
            g = lowest_bit(touching)
            touching &= touching - 1
            worth += state.board_cells[lower, state.boards[seat, lower], 9 - g if lower_turned else g] == colour
    return worth


@njit(cache=True)
def best_assembly_nb(state, seat):
    """T9, T12: the option (an index) whose assembly makes most same-coloured neighbour pairs (larger regions
    score more, T21); ties: the first. Pairs within a board are the same in every assembly (a turn is a
    half-turn, a slot a shift), so only the seams count: each computed once, (slot, upper board and turn,
    lower board and turn) in a table."""
    seams = np.full((2, 6, 6), -1, np.int64)
    best, most = 0, -1
    for i in range(state.counts[N_OPTIONS]):
        assembly = state.options[i]
        worth = 0
        for k in range(2):
            upper = 2 * ASSEMBLY_TYPE[assembly, k] + ASSEMBLY_TURNED[assembly, k]
            lower = 2 * ASSEMBLY_TYPE[assembly, k + 1] + ASSEMBLY_TURNED[assembly, k + 1]
            if seams[k, upper, lower] < 0:
                seams[k, upper, lower] = seam_worth_nb(state, seat, k, upper // 2, upper % 2, lower // 2, lower % 2)
            worth += seams[k, upper, lower]
        if worth > most:
            best, most = i, worth
    return best
