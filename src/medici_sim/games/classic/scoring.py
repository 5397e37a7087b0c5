"""The classic game's day scored (C13-C16): ships by rank, tracks rising, majorities, bonuses; the engine's
play loop calls it at each day's end (``engine.finish_game_nb``).

A good's majorities are ranked from one word holding how many seats reached each level, a level's count in
its nibble: a seat's tied count is its level's nibble, its place the sum of the nibbles above, summed by one
multiplication. No memory and no jump: ranked from the levels just stored, vector loads waited for the
stores, and a jump on a comparison of levels is mispredicted often.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.ranking import pay_places_nb
from .rules import MAX_PLAYERS, MAX_TRACK, N_GOODS, RULE_PLAYERS, RULE_TRACK_MAX

NIBBLE = np.uint64(4)
NIBBLE_MASK = np.uint64(15)
NIBBLE_SUM = np.uint64(0x1111111111111111)  # times a word: the sum of its nibbles (when under 16) in the top one
TOP_NIBBLE = np.uint64(60)
ONE = np.uint64(1)
assert NIBBLE * (MAX_TRACK + 1) <= 64 and MAX_PLAYERS < 16, "a level's count in a nibble, every level in a word"


@njit(cache=True)
def score_day_nb(state, day, record):
    """C13-C16, in this order: ships by rank, tracks rise (capped at the top, 7), majorities
    for each good in good order, bonuses. Payouts are added to money."""
    players = state.rules[RULE_PLAYERS]
    track_max = state.rules[RULE_TRACK_MAX]
    share = state.majority_share
    ship_pay = state.day_ship_pay[day]
    majority_pay = state.day_majority_pay[day]
    bonus_pay = state.day_bonus_pay[day]
    ship_pay[:] = 0
    majority_pay[:] = 0
    bonus_pay[:] = 0
    for p in range(players):
        state.day_ship_value[day, p] = state.ship_value[p]
    pay_places_nb(state.ship_value, players, state.ship_share, 0, ship_pay)  # C13: every ship ranks
    for good in range(N_GOODS):
        counts = np.uint64(0)  # nibble k: the seats at level k (the module doc)
        for p in range(players):
            level = min(track_max, state.track[p, good] + state.ship_goods[p, good])  # C14
            state.track[p, good] = level
            counts += ONE << (NIBBLE * np.uint64(level))
            bonus_pay[p] += state.track_bonus[np.uint64(level)]  # C16: never shared
        for p in range(players):  # C15: level 0 too
            from_level = counts >> (NIBBLE * np.uint64(state.track[p, good]))
            tied = from_level & NIBBLE_MASK
            place = ((from_level >> NIBBLE) * NIBBLE_SUM) >> TOP_NIBBLE
            majority_pay[p] += share[place, tied - ONE]
    for p in range(players):
        state.money[p] += ship_pay[p] + majority_pay[p] + bonus_pay[p]
        state.day_florins[day, p] = state.money[p]
    if record:
        for p in range(players):
            state.day_money[day, p] = state.money[p]
            for good in range(N_GOODS):
                state.day_track[day, p, good] = state.track[p, good]
