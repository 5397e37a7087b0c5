"""The Castles of Tuscany stepped decision by decision (stepped.STEPPING, core.replaying): a game
stops at every decision of T12-T32, lists what the rules allow there, takes an answer and plays on;
stepped to its end with the answers the seated strategies give, it is the kernel's game, record for
record, at 2, 3 and 4 players."""
from __future__ import annotations

import numpy as np
import pytest

from medici_sim.core.resumable import DECISION, EXTERNAL, GAME_OVER, STEP_ACTOR, STEP_EVENT
from medici_sim.games.tuscany.components import components
from medici_sim.games.tuscany.recording import Games, record
from medici_sim.games.tuscany.rules import RULE_BOOK
from medici_sim.games.tuscany.state import DECISIONS, N_OPTIONS, payment_parts
from medici_sim.games.tuscany.stepped import MARBLE, PAYMENT, STEPPING
from medici_sim.games.tuscany.strategies import REGISTRY


def games(players: int) -> Games:
    return Games(components(), RULE_BOOK.resolve(None, players), ["random"] * players)


def step_game(g: Games, seed: int, index: int, external: np.ndarray, answer):
    """Step one game to its end, ``answer(state, seat, k, legal)`` deciding each EXTERNAL decision;
    the decisions asked, by kind."""
    buffer = g.buffer.copy()
    STEPPING.new_game_nb(buffer, seed, index, g.seating, external, g.slot_params, g.table)
    state, asked = buffer[0], {}
    event = STEPPING.advance_nb(buffer, g.table)
    while event != GAME_OVER:
        if event < DECISION:
            event = STEPPING.advance_nb(buffer, g.table)
            continue
        seat, k = int(state["step"][STEP_ACTOR]), event - DECISION
        legal = STEPPING.legal_choices_nb(buffer, g.table)
        assert len(legal), DECISIONS[k]
        asked[DECISIONS[k]] = asked.get(DECISIONS[k], 0) + 1
        event = STEPPING.apply_choice_nb(buffer, g.table, answer(state, seat, k, legal))
    return buffer[0], asked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_stepping_with_the_strategies_answers_is_the_kernels_game(players):
    g = games(players)
    strategy = REGISTRY["random"]

    def answer(state, seat, k, legal):
        return int(strategy.decisions[DECISIONS[k]](state, seat, tuple(g.slot_params[0])))

    for index in range(2):
        state, asked = step_game(g, 7, index, np.full(players, EXTERNAL, np.int64), answer)
        assert record(state) == record(g.play(7, index))
        assert {"assembly_nb", "castle_field_nb", "bonus_nb", "action_nb", "take_nb", "place_nb", "payment_nb",
                "marble_nb"} <= set(asked)
        # the trace (every seat a strategy) is the same game
        traced = STEPPING.trace_game_nb(7, index, g.buffer, g.seating, g.slot_strategy, g.slot_params, g.table)
        assert record(traced[0]) == record(g.play(7, index))


def test_one_external_seat_among_strategies_is_the_kernels_game():
    g = games(3)
    external = g.slot_strategy.copy()
    external[1] = EXTERNAL
    strategy = REGISTRY["random"]

    def answer(state, seat, k, legal):
        assert seat == 1
        return int(strategy.decisions[DECISIONS[k]](state, seat, tuple(g.slot_params[0])))

    state, _ = step_game(g, 3, 0, external, answer)
    assert record(state) == record(g.play(3, 0))


def test_legal_choices_are_every_option_every_payment_and_the_marble():
    """Every choice the rules allow is offered (T18's payments all, T32 yes and no), and each plays on."""
    g = games(2)
    seen = set()

    def answer(state, seat, k, legal):
        if k == MARBLE:
            assert list(legal) == [0, 1]
        elif k == PAYMENT:
            for code in legal:
                cards, workers, pair1, pair2 = payment_parts(code)
                assert cards + workers + (pair1 >= 0) + (pair2 >= 0) == 2
            assert len(set(legal)) == len(legal)
        else:
            assert list(legal) == list(range(int(state["counts"][N_OPTIONS])))
        seen.add(k)
        return int(legal[-1])  # the last choice: paths a random player rarely takes

    state, asked = step_game(g, 1, 0, np.full(2, EXTERNAL, np.int64), answer)
    assert state["counts"][N_OPTIONS] >= 0 and asked["action_nb"] > 10


def test_a_choice_the_rules_forbid_is_refused_and_an_unanswered_decision_is_not_passed():
    g = games(2)
    buffer = g.buffer.copy()
    STEPPING.new_game_nb(buffer, 0, 0, g.seating, np.full(2, EXTERNAL, np.int64), g.slot_params, g.table)
    event = STEPPING.advance_nb(buffer, g.table)
    assert event == DECISION + DECISIONS.index("assembly_nb")
    legal = STEPPING.legal_choices_nb(buffer, g.table)
    with pytest.raises(ValueError, match="not a legal choice"):
        STEPPING.apply_choice_nb(buffer, g.table, int(legal.max()) + 1)
    with pytest.raises(ValueError, match="not answered"):
        STEPPING.advance_nb(buffer, g.table)
    assert STEPPING.apply_choice_nb(buffer, g.table, int(legal[0])) == DECISION + DECISIONS.index("castle_field_nb")
    assert buffer[0]["step"][STEP_EVENT] == DECISION + 1
