"""What a seat of The Castles of Tuscany sees (seat_view.py, its framework facts): its own hand, the
display, every estate, the tracks, bonus tiles and supply counts, how many cards each rival holds; not
the rivals' hands (hidden from rivals: imperfect information), the orders of the decks and the neutral
tiles, or the tiles left in any stack (hidden from everyone). Dealing those again as they could lie
changes neither the seat's observation (vector, text) nor what ``random`` decides for it."""
from __future__ import annotations

import copy

import numpy as np

from medici_sim.core.contract import EVERYONE, RIVALS
from medici_sim.core.resumable import DECISION, EXTERNAL, GAME_OVER, STEP_ACTOR
from medici_sim.games.tuscany import seat_view
from medici_sim.games.tuscany.components import components
from medici_sim.games.tuscany.recording import Games
from medici_sim.games.tuscany.rules import RULE_BOOK
from medici_sim.games.tuscany.state import DECISIONS
from medici_sim.games.tuscany.stepped import STEPPING
from medici_sim.games.tuscany.strategies import REGISTRY


def test_the_declaration_is_imperfect_information_with_hands_hidden_from_rivals():
    info = seat_view.FRAMEWORK.information
    assert not info.perfect
    assert [h.what for h in info.hidden_from(RIVALS)] == ["the rivals' hands of region cards (T12; how many each "
                                                         "holds is seen)"]
    assert len(info.hidden_from(EVERYONE)) == 2
    assert seat_view.FRAMEWORK.seat_view() is seat_view


def test_actions_round_trip_and_name_the_choice():
    for k in range(len(DECISIONS)):
        for choice in (0, seat_view.SIZES[k] - 1):
            action = seat_view.action_of(k, choice)
            assert 0 <= action < seat_view.N_ACTIONS
            assert seat_view.choice_of(action) == (k, choice)


def test_redealing_what_a_seat_cannot_see_changes_neither_its_view_nor_randoms_decision():
    players = 3
    g = Games(components(), RULE_BOOK.resolve(None, players), ["random"] * players)
    decide = REGISTRY["random"].decisions
    generator = np.random.default_rng(3)
    buffer = g.buffer.copy()
    STEPPING.new_game_nb(buffer, 5, 0, g.seating, np.full(players, EXTERNAL, np.int64), g.slot_params, g.table)
    state = buffer[0]
    size = seat_view.observation_size(state)
    event, checked, changed = STEPPING.advance_nb(buffer, g.table), 0, 0
    while event != GAME_OVER:
        if event < DECISION:
            event = STEPPING.advance_nb(buffer, g.table)
            continue
        seat, k = int(state["step"][STEP_ACTOR]), event - DECISION
        if checked % 7 == 0:  # every 7th decision: a few hundred in all
            twin = copy.deepcopy(buffer)
            for thing in seat_view.INFORMATION.hidden:
                thing.redeal(twin[0], seat, generator)
            changed += not np.array_equal(twin, buffer)
            seen, seen_twin = np.zeros(size, np.float32), np.zeros(size, np.float32)
            seat_view.observe(state, seat, seat, seen)
            seat_view.observe(twin[0], seat, seat, seen_twin)
            assert np.array_equal(seen, seen_twin), (checked, DECISIONS[k])
            assert seat_view.observation_text(state, seat, seat) == seat_view.observation_text(twin[0], seat, seat)
            assert int(decide[DECISIONS[k]](twin[0], seat, tuple(g.slot_params[0]))) == int(
                decide[DECISIONS[k]](copy.deepcopy(buffer)[0], seat, tuple(g.slot_params[0])))
            assert sorted(np.repeat(np.arange(8), twin[0]["hand"][seat])) == sorted(
                np.repeat(np.arange(8), state["hand"][seat]))  # the seat's own hand stays
            assert list(twin[0]["hand_total"]) == list(state["hand_total"])
        choice = int(decide[DECISIONS[k]](state, seat, tuple(g.slot_params[0])))
        assert choice in STEPPING.legal_choices_nb(buffer, g.table)
        event = STEPPING.apply_choice_nb(buffer, g.table, choice)
        checked += 1
    assert changed > 10


def test_observation_fills_its_size_and_text_fits_100_columns():
    g = Games(components(), RULE_BOOK.resolve(None, 4), ["random"] * 4)
    traced = STEPPING.trace_game_nb(2, 0, g.buffer, g.seating, g.slot_strategy, g.slot_params, g.table)[0]
    out = np.full(seat_view.observation_size(traced) + 1, -7, np.float32)
    seat_view.observe(traced, 1, -1, out[:-1])
    assert out[-1] == -7
    text = seat_view.observation_text(traced, 1, -1)
    assert max(map(len, text.splitlines())) <= 100
    assert "seat 2's estate (yours)" in text and "[@]" in text
    hand = "".join(f"{c}{n}" for c, n in zip("DRULOYWG", traced["hand"][0], strict=True) if n)
    assert hand[:2] not in text.split("seat 1:")[1].split("\n")[0] or "cards" in text.split("seat 1:")[1]
