"""The jitted kernel and the pure-Python reference engine play the same games.

For every (seed, game index) both engines must produce identical day-by-day records:
ship values, each kind of payout, florins, warehouses, where every card is, seating
and starting players (R7-R25). The two share only the generator and the deck data (and, for
the heuristic strategies, the registry's parameter declarations: defaults and ranges).
"""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from conftest import SMALL_DECK, card_rules, kernel_game, tiny_deck

from medici_sim.core.driver import seat_strategy
from medici_sim.games.card import reference
from medici_sim.games.card.rules import BONUS20, STANDARD
from medici_sim.games.card.strategies import REGISTRY

SEEDS_PER_CASE = 40
CASES = list(itertools.product(range(2, 7), (STANDARD, BONUS20), ("fixed", "rotate", "random")))
# 5 player counts x 2 variants x 3 seatings x 40 games = 1,200 games on the default deck.


def assert_same_game(deck, players, variant, strategies, seed, game_index, seating, params=None):
    """Both engines play the game; ``params`` (per slot, None = defaults) goes to both."""
    ours = kernel_game(deck, players, variant, strategies, seed, game_index, seating, params)
    theirs = reference.play_game(deck, card_rules(players, variant), strategies, seed, game_index, seating, params)
    assert set(ours) == set(theirs)
    for key in theirs:
        assert np.array_equal(ours[key], theirs[key]), (
            f"{key} differs: players={players} variant={variant} seating={seating} "
            f"seed={seed} game={game_index} strategies={strategies} params={params}"
            f"\nkernel:\n{ours[key]}\nreference:\n{theirs[key]}")


@pytest.mark.parametrize("players,variant,seating", CASES)
def test_default_deck_games_identical(deck, players, variant, seating):
    seed = 1000 * players + 10 * variant + len(seating)
    for game_index in range(SEEDS_PER_CASE):
        assert_same_game(deck, players, variant, ["random"] * players, seed, game_index, seating)




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


# -- the heuristic strategies -------------------------------------------------------------------

# Strategy slots for mixed games: (name, parameters; None = the registry's defaults).
SLOTS = (
    ("random", None),
    ("greedy", None),
    ("greedy", {"reveal_below": 5}),
    ("greedy", {"reveal_below": 2, "take_min": 4}),
    ("cautious", None),  # on the default deck every card is acceptable to it: it never reveals
    ("cautious", {"accept_min": 4}),
    ("cautious", {"accept_min": 5, "max_reveals": 2}),
    ("cautious", {"accept_min": 7, "max_reveals": 3}),
    ("gambler", None),
    ("gambler", {"take_min": 5}),
    ("collector", None),
    ("collector", {"focus": 1}),
    ("collector", {"focus": 1, "value_weight": 2}),
)
LINEUPS_PER_CASE, GAMES_PER_LINEUP = 5, 6
# 30 cases x 5 lineups x 6 games = 900 games on the default deck (+ 200 on the small deck).


def lineups(players, case_number, count):
    """One lineup with every seat the same heuristic slot (cycling through them by case),
    then ``count - 1`` mixes drawn from all the slots; each a (names, params) pair."""
    draw = random.Random(case_number)
    same = SLOTS[1 + case_number % (len(SLOTS) - 1)]
    chosen = [[same] * players] + [[draw.choice(SLOTS) for _ in range(players)] for _ in range(count - 1)]
    return [([name for name, _ in slots], [params for _, params in slots]) for slots in chosen]


@pytest.mark.parametrize("case_number,players,variant,seating",
                         [(i, *case) for i, case in enumerate(CASES)])
def test_heuristic_strategies_play_identical_games(deck, case_number, players, variant, seating):
    """greedy, cautious, gambler and collector (reference.py's own re-implementations),
    mixed with random and with non-default parameters, decide exactly as the kernel's."""
    seed = 5000 + case_number
    for k, (strategies, params) in enumerate(lineups(players, case_number, LINEUPS_PER_CASE)):
        for game_index in range(k * GAMES_PER_LINEUP, (k + 1) * GAMES_PER_LINEUP):
            assert_same_game(deck, players, variant, strategies, seed, game_index, seating, params)


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("variant", (STANDARD, BONUS20))
def test_heuristic_strategies_small_deck_games_identical(players, variant):
    """The same on a deck that runs out (R12): short markets and empty decks mid-turn."""
    deck = tiny_deck(SMALL_DECK, "small")
    case_number = 100 + 10 * players + variant
    for k, (strategies, params) in enumerate(lineups(players, case_number, 4)):
        for game_index in range(5 * k, 5 * k + 5):
            assert_same_game(deck, players, variant, strategies, 78, game_index, "random", params)


@pytest.mark.parametrize("name", [name for name in reference.REFERENCE_STRATEGIES if name != "random"])
def test_heuristic_strategy_parameters_handled_alike(name):
    """Defaults, overrides and refusals of the reference strategies follow the kernel's registry."""
    spec = REGISTRY[name].params
    assert reference.REFERENCE_STRATEGIES[name](None).params == dict(seat_strategy(name).params)
    assert reference.REFERENCE_STRATEGIES[name]({}).params == {k: p.default for k, p in spec.items()}
    first = next(iter(spec))
    override = {first: spec[first].low if spec[first].low != spec[first].default else spec[first].high}
    assert reference.REFERENCE_STRATEGIES[name](override).params == dict(seat_strategy(name, **override).params)
    for bad in ({"nonesuch": 1.0}, {first: spec[first].low - 1}):
        with pytest.raises(ValueError):
            seat_strategy(name, **bad)
        with pytest.raises(ValueError):
            reference.REFERENCE_STRATEGIES[name](bad)
