"""``greedy``: fills the ship with the highest values; reveals while the offer is poor."""
from numba import njit

from ....core.registry import Param, Strategy
from .common import best_window_value_nb, take_valuable_nb

REVEAL_BELOW, TAKE_MIN = range(2)


@njit(cache=True)
def reveal_nb(state, seat, params):
    return best_window_value_nb(state, seat) < params[REVEAL_BELOW]


@njit(cache=True)
def take_nb(state, seat, params):
    return take_valuable_nb(state, seat, params[TAKE_MIN])


STRATEGY = Strategy(
    name="greedy",
    decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
    params={
        "reveal_below": Param(4, 0, 20, help="reveal another card while no takeable card is worth this much"),
        "take_min": Param(2, 0, 20, help="take an earlier card (2nd/3rd from last) worth at least this"),
    },
    summary="Ship value first: takes the most valuable cards, reveals while the offer is poor.",
    reads=(),  # not the unseen-card sums (medici.chance.UNSEEN_PART)
)
