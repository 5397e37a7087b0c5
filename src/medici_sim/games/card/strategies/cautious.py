"""``cautious``: takes what the market already offers whenever it is acceptable; rarely reveals."""
from numba import njit

from ....core.registry import Param, Strategy
from ..state import REVEALED, market_card_nb
from .common import take_by_score_nb

ACCEPT_MIN, MAX_REVEALS = range(2)


@njit(cache=True)
def acceptable_nb(state, card, params):
    """Worth taking: valuable enough, or two icons, or green (free space)."""
    return (card >= 0 and (state.card_value[card] >= params[ACCEPT_MIN]
                           or state.card_icons[card] == 2 or state.card_green[card] == 1))


@njit(cache=True)
def reveal_nb(state, seat, params):
    """Only when the card it would have to take is unacceptable, and at most max_reveals a turn."""
    return (state.counts[REVEALED] < params[MAX_REVEALS]
            and not acceptable_nb(state, market_card_nb(state, 1), params))


@njit(cache=True)
def take_nb(state, seat, params):
    return take_by_score_nb(state, seat, acceptable_nb(state, market_card_nb(state, 2), params),
                            acceptable_nb(state, market_card_nb(state, 3), params), 1)


STRATEGY = Strategy(
    name="cautious",
    decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
    params={
        "accept_min": Param(3, 0, 20, help="a card worth this much (or two icons, or green) is acceptable"),
        "max_reveals": Param(1, 0, 3, integer=True,
                             help="most cards revealed in a turn, an obligatory first one included"),
    },
    summary="Takes acceptable cards already on offer; reveals only when the last card is not acceptable.",
    reads=(),  # not the unseen-card sums (medici.chance.UNSEEN_PART)
)
