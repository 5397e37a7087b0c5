"""A complete medici-sim plug-in strategy for The Castles of Tuscany: ``mason``.

Idea: points come from covered fields (regions T21, colours T22, effects T23-T31), so place a
stored item whenever a rule allows it (T18-T19); otherwise take a display tile while storage has
room to spare, else draw region cards (T13). It spends a marble (T32) whenever it holds at least
``marble_reserve`` + 1. Every other decision is the canonical random player's (T38-T39).

Use it:  medici-sim --game tuscany --plugin examples/tuscany_mason.py --strategies mason,random,random,random
"""
from numba import njit

from medici_sim.games import Param, Strategy, load
from medici_sim.games.tuscany.rules import DRAW, PLACE, TAKE
from medici_sim.games.tuscany.state import N_OPTIONS
from medici_sim.games.tuscany.strategies.random import STRATEGY as RANDOM

MARBLE_RESERVE, TAKE_BELOW = range(2)  # positions in the params vector, in the order declared below


@njit(cache=True)
def action_nb(state, seat, params):
    """T13: place if it can; take while storage holds fewer than ``take_below`` items; else draw."""
    n = state.counts[N_OPTIONS]
    choice = -1
    for i in range(n):
        if state.options[i] == PLACE:
            return i
        if state.options[i] == TAKE and state.storage_len[seat] < params[TAKE_BELOW]:
            choice = i
    if choice >= 0:
        return choice
    for i in range(n):
        if state.options[i] == DRAW:
            return i
    return 0


@njit(cache=True)
def marble_nb(state, seat, params):
    """T32: one more action while the seat holds more marble than its reserve."""
    return state.marble[seat] > params[MARBLE_RESERVE]


load("tuscany").register(Strategy(
    name="mason",
    decisions={**RANDOM.decisions, "action_nb": action_nb, "marble_nb": marble_nb},
    params={
        "marble_reserve": Param(0, 0, 5, integer=True, help="marble kept for the final scoring (T35)"),
        "take_below": Param(1, 0, 8, integer=True, help="take display tiles while storage holds fewer items"),
    },
    summary="Places whenever it can, takes tiles while storage has room, spends marble above a reserve.",
))
