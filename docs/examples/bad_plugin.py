"""Two card-game strategies that break the rules of the road, for docs/plugins.md and
docs/guide/check-plugin.md: ``cheat`` adds a florin to its own purse and asks for cards that
are not there, and ``typo`` reads a field the state does not have (it does not compile).

Run it:  medici-sim --plugin docs/examples/bad_plugin.py --strategies cheat,random --players 2
"""
from numba import njit

from medici_sim.games.card.strategies import Strategy, register


@njit(cache=True)
def never_nb(state, seat, params):
    return False


@njit(cache=True)
def cheat_take_nb(state, seat, params):
    state.florins[seat] += 1  # writes the game state: never allowed
    return 3  # the 2nd- and 3rd-from-last, even when the market has no such cards (R10)


@njit(cache=True)
def typo_nb(state, seat, params):
    return state.no_such_field[seat] > 0


@njit(cache=True)
def last_only_nb(state, seat, params):
    return 0


register(Strategy(name="cheat", decisions={"reveal_nb": never_nb, "take_nb": cheat_take_nb}))
register(Strategy(name="typo", decisions={"reveal_nb": typo_nb, "take_nb": last_only_nb}))
