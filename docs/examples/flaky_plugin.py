"""A card-game strategy whose decision raises an exception in a few games, for docs/plugins.md.

Run it:  medici-sim --plugin docs/examples/flaky_plugin.py --strategies random,flaky,flaky --players 3
"""
from numba import njit

from medici_sim.games.card.state import MARKET_LEN
from medici_sim.games.card.strategies import Strategy, register


@njit(cache=True)
def flaky_nb(state, seat, params):
    if state.florins[seat] == 95:  # in a few games only
        raise ValueError("unlucky florins at seat", seat)
    return state.counts[MARKET_LEN] == 0


@njit(cache=True)
def last_only_nb(state, seat, params):
    return 0


register(Strategy(name="flaky", decisions={"reveal_nb": flaky_nb, "take_nb": last_only_nb}))
