"""``mcts`` for The Castles of Tuscany (games/tuscany/strategies/mcts.py; issue 33).

- it is a built-in after the others (their ids stay), with the tree search's parameters (core.tree), untunable;
- the turns it drives are the engine's: a game whose seat is stepped turn by turn to its next turn
  (game.play_to_turn_nb, T12-T15, T34-T37) is the kernel's game;
- with evidence it can never reach it plays its policy's games exactly (its iterations ran, on copies);
- its games, replayed in the reference engine with its decisions scripted, are the same record for record, the
  invariants checked after every turn; threads and batches change nothing (T38);
- what a seat cannot see never changes its answers: tests/conformance/test_what_a_seat_sees.py (slow);
- its strength against search at the same budget: docs/strategies.md (scripts/strength_table.py --pair).

Everything here but the registration plays the Tuscany kernel with mcts in its table (a minute of compile cold):
slow, as search's (tests/tuscany/test_tuscany_search.py).
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from test_tuscany_search import (
    SEARCH_KERNEL,
    check_equals_the_reference,
    check_plays_its_policys_games,
    check_threads_and_batches_change_nothing,
)

from medici_sim.core.registry import get_game
from medici_sim.core.tree import tree_untunable
from medici_sim.games.tuscany.components import components
from medici_sim.games.tuscany.engine import turn_nb
from medici_sim.games.tuscany.game import play_to_turn_nb, setup_nb, start_game_nb
from medici_sim.games.tuscany.recording import Games, record
from medici_sim.games.tuscany.rules import RULE_BOOK
from medici_sim.games.tuscany.state import ROUND

TUSCANY = get_game("tuscany")
PARAMS = ["iterations", "policy", "opponents", "margin_weight", "exploration", "widening", "confidence", "paired"]


def test_mcts_is_a_built_in_after_the_others_with_the_tree_parameters():
    names = list(TUSCANY.registry.strategies)
    built_in = [name for name in names if TUSCANY.registry.origin[name] == "built-in"]
    assert built_in[-1] == "mcts" and names[:len(TUSCANY.built_ins)] == list(TUSCANY.built_ins)
    assert "mcts" not in TUSCANY.built_ins
    mcts = TUSCANY.registry["mcts"]
    assert list(mcts.params) == PARAMS and mcts.untunable == tree_untunable("mcts")
    assert mcts.params["policy"].choices == TUSCANY.built_ins and "red-track" in mcts.params["margin_weight"].help
    search = TUSCANY.registry["search"]  # the decisions after the action are search's (the tile or placement kept)
    for kind in ("take_nb", "place_nb", "marble_nb", "payment_nb"):
        assert mcts.decisions[kind] is search.decisions[kind]
    assert mcts.decisions["action_nb"] is not search.decisions["action_nb"]


@njit
def driven_game_nb(state, table, seed, game_index, seating, slot_strategy, slot_params, seat):
    """A game in which ``seat``'s turns are played one by one, each followed by play_to_turn_nb to its next."""
    start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params)
    setup_nb(state, table)
    state.counts[ROUND] += 1
    for earlier in range(seat):
        turn_nb(state, table, earlier, 0)
    while True:
        turn_nb(state, table, seat, 0)
        if play_to_turn_nb(state, table, seat):
            return


@SEARCH_KERNEL
@pytest.mark.parametrize("players", [2, 4])
def test_a_game_stepped_from_turn_to_turn_of_one_seat_is_the_kernels_game(players):
    """T12-T15, T34-T37: the later seats' turns, the round's end (a phase scored after its round, the game's end,
    T37's limit) and the next round's earlier seats, then the seat's own turn: the kernel's rounds exactly."""
    for spec in (None, "round_limit=9"):
        games = Games(components(None), RULE_BOOK.resolve(spec, players), ["expert"] + ["random"] * (players - 1),
                      "rotate")
        for index in range(3):
            expected = record(games.play(1, index))
            for seat in range(players):
                driven_game_nb(games.buffer[0], games.table, 1, index, games.seating, games.slot_strategy,
                               games.slot_params, seat)
                assert record(games.buffer[0]) == expected, (spec, index, seat)


@SEARCH_KERNEL
def test_mcts_with_no_evidence_enough_plays_its_policys_games():
    """One iteration is never evidence enough (core.rollout.choose_nb, confidence above 0): every action is the
    policy's, so the games are expert's (the iterations ran, on copies, which never touch the real game)."""
    check_plays_its_policys_games("mcts")


@SEARCH_KERNEL
def test_mcts_games_equal_the_reference_engines_given_its_decisions():
    check_equals_the_reference("mcts:iterations=3,confidence=0", 1)  # paired=0's root: the threads test below


@SEARCH_KERNEL
def test_threads_and_batches_never_change_mcts_results():
    check_threads_and_batches_change_nothing("mcts:iterations=2,expert,mcts:iterations=3,paired=0,widening=3", 6,
                                             kernel="mcts")


def test_mcts_orders_its_candidates_the_policys_first():
    from medici_sim.games.tuscany.strategies.mcts import code_nb, own_first_nb

    kinds, subs = np.array([0, 1, 1, 2], np.int64), np.array([-1, 3, 5, 70], np.int64)
    out = np.zeros(4, np.int64)
    own_first_nb(kinds, subs, 4, 2, out)
    codes = [code_nb(k, s) for k, s in zip(kinds, subs, strict=True)]
    assert list(out) == [codes[2], codes[0], codes[1], codes[3]] and len(set(codes)) == 4
