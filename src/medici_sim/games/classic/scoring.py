"""The classic game's day scored (C13-C16): ships by rank, tracks rising, majorities, bonuses; the engine's
play loop calls it at each day's end (``engine.finish_game_nb``)."""
from __future__ import annotations

from numba import njit

from ...core.ranking import pay_places_nb
from .rules import N_GOODS, RULE_PLAYERS, RULE_TRACK_MAX


@njit(cache=True)
def score_day_nb(state, day, record):
    """C13-C16, in this order: ships by rank, tracks rise (capped at the top, 7), majorities
    for each good in good order, bonuses. Payouts are added to money."""
    players = state.rules[RULE_PLAYERS]
    track_max = state.rules[RULE_TRACK_MAX]
    ship_pay = state.day_ship_pay[day]
    majority_pay = state.day_majority_pay[day]
    bonus_pay = state.day_bonus_pay[day]
    ship_pay[:] = 0
    majority_pay[:] = 0
    bonus_pay[:] = 0
    for p in range(players):
        state.day_ship_value[day, p] = state.ship_value[p]
    pay_places_nb(state.ship_value, players, state.ship_share, 0, ship_pay)  # C13: every ship ranks
    for p in range(players):
        for good in range(N_GOODS):
            state.track[p, good] = min(track_max, state.track[p, good] + state.ship_goods[p, good])  # C14
    levels = state.good_levels  # one good's column of `track`, contiguous: ranked ~2x faster than a strided view
    for good in range(N_GOODS):
        for p in range(players):
            level = state.track[p, good]
            levels[p] = level
            bonus_pay[p] += state.track_bonus[level]  # C16: never shared
        pay_places_nb(levels, players, state.majority_share, 0, majority_pay)  # C15: level 0 too
    for p in range(players):
        state.money[p] += ship_pay[p] + majority_pay[p] + bonus_pay[p]
        state.day_florins[day, p] = state.money[p]
    if record:
        for p in range(players):
            state.day_money[day, p] = state.money[p]
            for good in range(N_GOODS):
                state.day_track[day, p, good] = state.track[p, good]
