"""``gambler``: reveals as many cards as allowed (three), then takes the valuable ones."""
from numba import njit

from ....core.registry import Param, Strategy
from .common import take_valuable_nb

TAKE_MIN = 0


@njit(cache=True)
def reveal_nb(state, seat, params):
    return True  # the engine stops at three cards or an empty deck (R9)


@njit(cache=True)
def take_nb(state, seat, params):
    return take_valuable_nb(state, seat, params[TAKE_MIN])


STRATEGY = Strategy(
    name="gambler",
    decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
    params={"take_min": Param(3, 0, 20, help="take an earlier card worth at least this")},
    summary="Always reveals three cards, then takes the valuable ones.",
    reads=(),  # not the unseen-card sums (medici.chance.UNSEEN_PART)
)
