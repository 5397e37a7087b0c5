"""The jitted kernel and the pure-Python reference engine play the same games.

For every (seed, game index) both engines must produce identical day-by-day records:
ship values, each kind of payout, florins, warehouses, where every card is, seating
and starting players (R7-R25). The two share only the generator and the deck data.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from medici_sim import reference
from medici_sim.rules import BONUS20, STANDARD

from conftest import kernel_game, tiny_deck

SEEDS_PER_CASE = 40
CASES = list(itertools.product(range(2, 7), (STANDARD, BONUS20), ("fixed", "rotate", "random")))
# 5 player counts x 2 variants x 3 seatings x 40 games = 1,200 games on the default deck.


def assert_same_game(deck, players, variant, strategies, seed, game_index, seating):
    ours = kernel_game(deck, players, variant, strategies, seed, game_index, seating)
    theirs = reference.play_game(deck, players, variant, strategies, seed, game_index, seating)
    assert set(ours) == set(theirs)
    for key in theirs:
        assert np.array_equal(ours[key], theirs[key]), (
            f"{key} differs: players={players} variant={variant} seating={seating} "
            f"seed={seed} game={game_index}\nkernel:\n{ours[key]}\nreference:\n{theirs[key]}")


@pytest.mark.parametrize("players,variant,seating", CASES)
def test_default_deck_games_identical(deck, players, variant, seating):
    seed = 1000 * players + 10 * variant + len(seating)
    for game_index in range(SEEDS_PER_CASE):
        assert_same_game(deck, players, variant, ["random"] * players, seed, game_index, seating)


SMALL_DECK = """\
3,grain,1,3,no
3,spice,2,0,no
3,fur,1,5,no
2,dye,1,4,no
2,cloth,1,2,no
2,cloth,1,0,yes
2,none,0,2,yes
2,none,0,7,no
"""


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("variant", (STANDARD, BONUS20))
def test_small_deck_games_identical(players, variant):
    """A 19-card deck runs out (R12) in most days: both engines stop at the same turn."""
    deck = tiny_deck(SMALL_DECK, "small")
    ran_out = 0
    for game_index in range(80):
        assert_same_game(deck, players, variant, ["random"] * players, 77, game_index, "random")
        ran_out += kernel_game(deck, players, variant, ["random"] * players, 77, game_index, "random")["ran_out"].sum()
    assert ran_out > 0
