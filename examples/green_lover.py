"""A complete medici-sim plug-in strategy: ``green_lover``.

Idea: green cards take no ship space (R10), so grab them whenever they are on offer;
otherwise take earlier cards worth at least ``min_value``. Reveal while nothing green
is on offer, up to ``max_reveals`` cards a turn.

Use it:  medici-sim --plugin examples/green_lover.py --strategies green_lover,expert,random,random
"""
from numba import njit

from medici_sim.games import Param, Strategy, load
from medici_sim.games.card.state import MARKET_LEN, REVEALED, fits_nb, market_card_nb, takes_space_nb

MIN_VALUE, MAX_REVEALS = range(2)  # positions in the params vector, in the order declared below


@njit(cache=True)
def reveal_nb(state, seat, params):
    """Asked before each optional reveal (R9): True to reveal one more card."""
    if state.counts[REVEALED] >= params[MAX_REVEALS]:
        return False
    for back in range(1, min(3, state.counts[MARKET_LEN]) + 1):
        if state.card_green[market_card_nb(state, back)] == 1:
            return False  # something green is on offer already
    return True


@njit(cache=True)
def take_nb(state, seat, params):
    """Besides the last card (always taken), choose the 2nd-from-last (bit 0) and the
    3rd-from-last (bit 1); each must fit on the ship (R10)."""
    choice = 0
    pending = takes_space_nb(state, market_card_nb(state, 1))
    for back in range(2, min(3, state.counts[MARKET_LEN]) + 1):
        card = market_card_nb(state, back)
        wanted = state.card_green[card] == 1 or state.card_value[card] >= params[MIN_VALUE]
        if wanted and fits_nb(state, seat, card, pending):
            choice |= 1 << (back - 2)
            pending += takes_space_nb(state, card)
    return choice


load("card").register(Strategy(
    name="green_lover",
    decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
    params={
        "min_value": Param(4, 0, 100, help="take a non-green earlier card worth at least this"),
        "max_reveals": Param(2, 0, 3, integer=True, help="most cards revealed in a turn"),
    },
    summary="Grabs green cards (free space), else valuable ones.",
))
