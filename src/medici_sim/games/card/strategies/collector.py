"""``collector``: concentrates on one or two goods to win majorities and reach the bonus.

Its focus goods are those it holds most icons of (warehouse and ship), ties broken by
the icons on offer in the market's last three cards. It aims for the active variant's
bonus threshold (R18, R19): 5 icons (7 with 2 players), or 8 (10) under bonus20.
"""
from numba import njit

from ....core.registry import Param, Strategy
from ..rules import N_GOODS
from ..state import MARKET_LEN, market_card_nb
from .common import bonus_target_nb, held_icons_nb, take_by_score_nb

FOCUS, VALUE_WEIGHT = range(2)
FOCUS_WEIGHT, DONE_WEIGHT, OTHER_WEIGHT = 4.0, 1.0, 0.5  # score per icon

@njit(cache=True)
def focus_rank_nb(state, seat, good):
    """How many goods rank above ``good`` for this seat (0 = its best good)."""
    n = state.counts[MARKET_LEN]
    rank = 0
    for other in range(N_GOODS):
        if other == good:
            continue
        mine = held_icons_nb(state, seat, good)
        theirs = held_icons_nb(state, seat, other)
        if theirs == mine:  # tie: the good with more icons on offer, then the lower index
            on_offer_mine = on_offer_theirs = 0
            for back in range(1, min(3, n) + 1):
                card = market_card_nb(state, back)
                if state.card_good[card] == good:
                    on_offer_mine += state.card_icons[card]
                elif state.card_good[card] == other:
                    on_offer_theirs += state.card_icons[card]
            if on_offer_theirs > on_offer_mine or (on_offer_theirs == on_offer_mine and other < good):
                rank += 1
        elif theirs > mine:
            rank += 1
    return rank

@njit(cache=True)
def card_score_nb(state, seat, card, params):
    if card < 0:
        return -1.0
    score = params[VALUE_WEIGHT] * state.card_value[card]
    good = state.card_good[card]
    if good >= 0:
        icons = state.card_icons[card]
        if focus_rank_nb(state, seat, good) < params[FOCUS]:
            held = held_icons_nb(state, seat, good)
            score += icons * (FOCUS_WEIGHT if held < bonus_target_nb(state) else DONE_WEIGHT)
        else:
            score += icons * OTHER_WEIGHT
    return score

@njit(cache=True)
def reveal_nb(state, seat, params):
    """Reveal while none of the cards on offer is of a focus good."""
    for back in range(1, min(3, state.counts[MARKET_LEN]) + 1):
        good = state.card_good[market_card_nb(state, back)]
        if good >= 0 and focus_rank_nb(state, seat, good) < params[FOCUS]:
            return False
    return True

@njit(cache=True)
def take_nb(state, seat, params):
    return take_by_score_nb(state, seat, card_score_nb(state, seat, market_card_nb(state, 2), params),
                            card_score_nb(state, seat, market_card_nb(state, 3), params), FOCUS_WEIGHT)

STRATEGY = Strategy(
    name="collector",
    decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
    params={
        "focus": Param(2, 1, 2, integer=True, help="how many goods to concentrate on"),
        "value_weight": Param(0.25, 0, 10, help="score per point of card value (per icon: 4 in focus)"),
    },
    summary="Collects one or two goods for majorities and the bonus (aims for 8 under bonus20).",
    reads=(),  # not the unseen-card sums (medici.chance.UNSEEN_PART)
)
