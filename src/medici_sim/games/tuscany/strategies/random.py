"""``random``: the canonical random player of T38-T39, drawing exactly as the reference's RandomPlayer.

Each uniform choice among k > 1 options is one ``below(k)`` draw of the game's generator (none
among one option); the marble's 1/2 is one ``coin()``; it never uses T17; it pays by T39's rule
(matching cards, then workers, then pairs from the colour holding most cards).
"""
from numba import njit

from ....core.registry import Strategy
from ....core.rng import below_nb, coin_nb
from ..rules import N_COLOURS
from ..state import N_OPTIONS, PAY_COLOUR, payment_code


@njit(cache=True)
def uniform_nb(state, seat, params):
    """T38-T39: one option uniformly."""
    n = state.counts[N_OPTIONS]
    return below_nb(state.rng, n) if n > 1 else 0


@njit(cache=True)
def refresh_nb(state, seat, params):
    """T39: never uses T17 (option 0: take as usual)."""
    return 0


@njit(cache=True)
def richest_pair_nb(hand, colour, taken):
    """The other colour holding most cards (at least two), ``taken`` (-1: none) already holding
    two fewer; ties: the first in COLOURS order."""
    best, most = -1, 1
    for c in range(N_COLOURS):
        left = hand[c] - 2 * (c == taken)
        if c != colour and left > most:
            best, most = c, left
    return best


@njit(cache=True)
def payment_nb(state, seat, params):
    """T39: matching cards first, then workers, then pairs, each from the richest other colour."""
    colour, hand = state.counts[PAY_COLOUR], state.hand[seat]
    cards = min(hand[colour], 2)
    workers = min(state.workers[seat], 2 - cards)
    pair1 = pair2 = -1
    if cards + workers < 2:
        pair1 = richest_pair_nb(hand, colour, -1)
    if cards + workers == 0:
        pair2 = richest_pair_nb(hand, colour, pair1)
        pair1, pair2 = min(pair1, pair2), max(pair1, pair2)
    else:
        pair1, pair2 = -1, pair1
    return payment_code(cards, workers, pair1, pair2)


@njit(cache=True)
def marble_nb(state, seat, params):
    """T39: spend a marble with probability 1/2."""
    return coin_nb(state.rng)


STRATEGY = Strategy(
    name="random",
    decisions={"assembly_nb": uniform_nb, "castle_field_nb": uniform_nb, "bonus_nb": uniform_nb,
               "action_nb": uniform_nb, "refresh_nb": refresh_nb, "take_nb": uniform_nb, "discard_nb": uniform_nb,
               "place_nb": uniform_nb, "payment_nb": payment_nb, "castle_nb": uniform_nb, "marble_nb": marble_nb},
    summary="T38-T39's canonical random player: uniform over the legal options, a marble on a fair coin.",
    inline=True,  # a few instructions a decision: compiled into the play loop (core.dispatch)
)
