"""Building blocks the built-in strategies share (all jitted, all read-only on the state)."""
from __future__ import annotations

from numba import njit

from ..rules import RULE_BIG_BONUS_MIN, RULE_BONUS_MIN
from ..state import MARKET_LEN, fits_nb, market_card_nb, takes_space_nb


@njit(cache=True)
def big_bonus_active_nb(state):
    """True under bonus20 (R19); standard rules set its threshold out of reach."""
    return state.rules[RULE_BIG_BONUS_MIN] < 1 << 32


@njit(cache=True)
def bonus_target_nb(state):
    """Icons of one good worth collecting for the bonus under the active rules (R18, R19)."""
    return state.rules[RULE_BIG_BONUS_MIN] if big_bonus_active_nb(state) else state.rules[RULE_BONUS_MIN]


@njit(cache=True)
def held_icons_nb(state, seat, good):
    """Icons of ``good`` a seat holds: its warehouse and this day's cargo (R17 counts both)."""
    return state.warehouse_icons[seat, good] + state.ship_icons[seat, good]


@njit(cache=True)
def take_by_score_nb(state, seat, score2, score3, min_score):
    """R10 choice bits: take the 2nd-/3rd-from-last cards scoring at least ``min_score``.

    Both are taken if both fit; if only one more fits, the better one (the 2nd on a tie).
    """
    n = state.counts[MARKET_LEN]
    pending = takes_space_nb(state, market_card_nb(state, 1))
    second = market_card_nb(state, 2)
    third = market_card_nb(state, 3)
    want2 = n >= 2 and score2 >= min_score and fits_nb(state, seat, second, pending)
    want3 = n >= 3 and score3 >= min_score and fits_nb(state, seat, third, pending)
    if want2 and want3:
        if fits_nb(state, seat, third, pending + takes_space_nb(state, second)):
            return 3
        return 1 if score2 >= score3 else 2
    return (1 if want2 else 0) | (2 if want3 else 0)


@njit(cache=True)
def best_window_value_nb(state, seat):
    """The highest value among the cards this seat could take now (the last three that fit)."""
    best = state.card_value[market_card_nb(state, 1)]
    pending = takes_space_nb(state, market_card_nb(state, 1))
    for back in range(2, min(3, state.counts[MARKET_LEN]) + 1):
        card = market_card_nb(state, back)
        if fits_nb(state, seat, card, pending):
            best = max(best, state.card_value[card])
    return best


@njit(cache=True)
def take_valuable_nb(state, seat, min_value):
    """Take the earlier cards worth at least ``min_value`` (the more valuable if only one fits)."""
    second = market_card_nb(state, 2)
    third = market_card_nb(state, 3)
    return take_by_score_nb(state, seat, state.card_value[second] if second >= 0 else 0,
                            state.card_value[third] if third >= 0 else 0, min_value)
