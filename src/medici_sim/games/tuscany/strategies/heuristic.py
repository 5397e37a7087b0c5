"""The Tuscany heuristics' decisions, written once: every decision of state.DECISIONS answered from
``evaluate.py``'s worths under the seat's eight parameters. ``builder``, ``colour_racer``,
``castle_chainer``, ``trader`` and ``expert`` are these decisions with their own parameter defaults
(one file each); none draws from the generator, so a seat's answers depend only on what it sees.

What they read: ``counts[N_OPTIONS]``, ``options``, ``counts[PAY_COLOUR]``, the neutral supply's size
(``counts[SUPPLY_LEN] - counts[SUPPLY_TOP]``), ``shown``, and what ``evaluate.py`` reads (its module
doc): the seat's own hand, workers, storage and bonus tiles, every estate's public parts, the display,
``colour_claims``, ``bonus_supply``, the rules and the phase.
"""
from __future__ import annotations

from numba import njit

from ..rules import DRAW, PLACE, TAKE
from ..state import FIELD_CODE, N_OPTIONS, PAY_COLOUR, SUPPLY_LEN, SUPPLY_TOP, bit_count
from .evaluate import (
    MARBLE_MIN,
    NONE,
    PLACE_MIN,
    best_assembly_nb,
    best_placement_nb,
    best_take_nb,
    bonus_worth_nb,
    context_nb,
    field_worth_nb,
    payment_nb_,
    take_fits_nb,
    worst_stored_nb,
)

CASTLE_FIELD, BONUS, CASTLE_TILE = range(3)  # the decisions best_option_nb answers


@njit(cache=True)
def option_of_nb(state, value):
    """The index of ``value`` among the options (-1: not there)."""
    for i in range(state.counts[N_OPTIONS]):
        if state.options[i] == value:
            return i
    return -1


@njit(cache=True)
def assembly_nb(state, seat, params):
    """T12: the assembly joining most same-coloured neighbours (larger regions, T21; evaluate.best_assembly_nb)."""
    return best_assembly_nb(state, seat)


@njit(cache=True, inline="always")
def option_worth_nb(state, seat, what, option, params, ctx):
    """The worth of one option of a decision answered by :func:`best_option_nb`."""
    if what == BONUS:
        return bonus_worth_nb(state, seat, option, params, ctx)
    if what == CASTLE_TILE:
        tile = state.display[option // FIELD_CODE]
        return field_worth_nb(state, seat, option % FIELD_CODE, state.tile_types[tile], params, ctx)
    return float(bit_count(state.neighbour_mask[option]))  # CASTLE_FIELD: the fields it touches


@njit(cache=True)
def best_option_nb(state, seat, params, what):
    """The option worth most (the first of equals) of decision ``what``: CASTLE_FIELD (T12: the D field
    touching most fields, the widest start for T19), BONUS (T12, T25: evaluate.bonus_worth_nb), CASTLE_TILE
    (T24: the free display tile and field, evaluate.field_worth_nb)."""
    ctx = context_nb(state, seat, params)
    best, worth = 0, NONE
    for i in range(state.counts[N_OPTIONS]):
        w = option_worth_nb(state, seat, what, state.options[i], params, ctx)
        if w > worth:
            best, worth = i, w
    return best


@njit(cache=True)
def castle_field_nb(state, seat, params):
    """T12: the D field touching most fields."""
    return best_option_nb(state, seat, params, CASTLE_FIELD)


@njit(cache=True)
def bonus_nb(state, seat, params):
    """T12, T25: the bonus kind worth most."""
    return best_option_nb(state, seat, params, BONUS)


@njit(cache=True)
def action_nb(state, seat, params):
    """T13: take when a take is useful (evaluate.take_fits_nb) unless the best placement is worth
    ``place_min`` net of its payment; place when nothing is worth taking (drawing forever would not place
    it); else draw."""
    place, take = option_of_nb(state, PLACE), option_of_nb(state, TAKE)
    useful = take >= 0 and take_fits_nb(state, seat)
    if place >= 0 and (not useful or best_placement_nb(state, seat, params, context_nb(state, seat, params))[2]
                       >= params[PLACE_MIN]):
        return place
    return take if useful else option_of_nb(state, DRAW)


@njit(cache=True)
def refresh_nb(state, seat, params):
    """T17: no display tile fits: clear the kind shown most that the neutral supply can replace tile for tile
    (a display emptied for good would stall every seat's stacks, T15); none such: take as usual (option 0)."""
    best, most = 0, 0
    supply = state.counts[SUPPLY_LEN] - state.counts[SUPPLY_TOP]
    for i in range(1, state.counts[N_OPTIONS]):
        n = state.shown[state.options[i]]
        if most < n <= supply:
            best, most = i, n
    return best


@njit(cache=True)
def take_nb(state, seat, params):
    """T14: the display tile worth most (evaluate.best_take_nb's; the first option if it is not one)."""
    place = best_take_nb(state, seat, params, context_nb(state, seat, params), False)[0]
    found = option_of_nb(state, place)
    return found if found >= 0 else 0


@njit(cache=True)
def discard_nb(state, seat, params):
    """T14: the stored item least worth keeping."""
    ctx = context_nb(state, seat, params)
    return worst_stored_nb(state, seat, params, ctx)[0]


@njit(cache=True)
def place_nb(state, seat, params):
    """T18-T19: the (item, field) worth most net of its payment."""
    ctx = context_nb(state, seat, params)
    i, f, _ = best_placement_nb(state, seat, params, ctx)
    found = option_of_nb(state, i * FIELD_CODE + f)
    return found if found >= 0 else 0


@njit(cache=True)
def payment_nb(state, seat, params):
    """T18: the cheapest two units (evaluate.payment_nb_)."""
    return payment_nb_(state, seat, state.counts[PAY_COLOUR], context_nb(state, seat, params))[0]


@njit(cache=True)
def castle_nb(state, seat, params):
    """T24: the free (display tile, field) worth most."""
    return best_option_nb(state, seat, params, CASTLE_TILE)


@njit(cache=True)
def marble_nb(state, seat, params):
    """T32: spend a marble when a placement is worth ``marble_min``, or a display tile fits storage and estate."""
    ctx = context_nb(state, seat, params)
    return best_placement_nb(state, seat, params, ctx)[2] >= params[MARBLE_MIN] or take_fits_nb(state, seat)


DECISIONS = {"assembly_nb": assembly_nb, "castle_field_nb": castle_field_nb, "bonus_nb": bonus_nb,
             "action_nb": action_nb, "refresh_nb": refresh_nb, "take_nb": take_nb, "discard_nb": discard_nb,
             "place_nb": place_nb, "payment_nb": payment_nb, "castle_nb": castle_nb, "marble_nb": marble_nb}


@njit(cache=True)
def priced_take_nb(state, seat, params):
    """T14: the display tile worth most less what paying for it would cost from the hand now (``expert``)."""
    place = best_take_nb(state, seat, params, context_nb(state, seat, params), True)[0]
    found = option_of_nb(state, place)
    return found if found >= 0 else 0
