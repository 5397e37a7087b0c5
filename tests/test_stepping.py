"""The stepped engine (core.resumable): the batch kernel's games, decision by decision.

Each game's engine has one play loop. These tests check that stepping it (new_game_nb,
advance_nb, legal_choices_nb, apply_choice_nb: what the play table, the trace and an
adapter use) plays exactly the games the batch kernel plays, for both games and every
player count, that a caller answering every decision itself plays the game its answers
make, and that the legal choices at a decision are what the rules allow (checked against
the reference engine's own rules where it has them, else against the rule text).
"""
from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

from medici_sim.core import accounting, resumable, seating
from medici_sim.core.driver import PreparedRun, RunConfig, seat_strategy
from medici_sim.core.registry import GAMES
from medici_sim.games.card import engine as card_engine
from medici_sim.games.card import reference as card_reference
from medici_sim.games.card import stepped as card_stepped
from medici_sim.games.card.deck import default_deck
from medici_sim.games.card.rules import RULE_CAPACITY
from medici_sim.games.card.state import DECK_LEN, MARKET_LEN, REVEALED
from medici_sim.games.classic import engine as classic_engine
from medici_sim.games.classic import stepped as classic_stepped
from medici_sim.games.classic.rules import HOLDS, MAX_LOT
from medici_sim.games.classic.state import DECK_LEN as CLASSIC_DECK_LEN
from medici_sim.games.classic.state import HIGHEST, LOT_LEN, MAX_FREE
from medici_sim.games.medici import days

STEPPED = {"card": card_stepped, "classic": classic_stepped}
ENGINES = {"card": card_engine, "classic": classic_engine}
LINEUPS = {"card": ["expert", "greedy", "random", "collector", "cautious", "gambler"],
           "classic": ["expert", "value", "random", "collector", "bargain", "value"]}
COUNTS = [(game, players) for game in ("card", "classic")
          for players in range(GAMES[game].min_players, GAMES[game].max_players + 1)]
GAMES_EACH = 4


def kernel(game: str, players: int, seed: int, names=None, seating: str = "rotate") -> PreparedRun:
    names = names or LINEUPS[game][:players]
    return PreparedRun(RunConfig(components=None, players=players, strategies=tuple(seat_strategy(n,
                                                                                                  game) for n in names),
                            games=1, seed=seed, rules="standard", seating=seating, threads=1, game=game))


def stepped(k: PreparedRun, game_index: int, slot_strategy=None, answer=None):
    """Step game ``game_index`` to its end (``answer(buffer, event, actor)`` answers the
    decisions of EXTERNAL seats); the buffer and the events met."""
    engine = STEPPED[k.config.game]
    buffer = k.inputs.copy()
    engine.new_game_nb(buffer, k.config.seed, game_index, k.seating,
                       k.slot_strategy if slot_strategy is None else slot_strategy, k.slot_params, k.table)
    events = []
    event = engine.advance_nb(buffer, k.table)
    while event != resumable.GAME_OVER:
        actor = int(buffer[0]["step"][resumable.STEP_ACTOR])
        events.append((int(event), actor))
        if event >= resumable.DECISION:
            event = engine.apply_choice_nb(buffer, k.table, answer(buffer, int(event) - resumable.DECISION, actor))
        else:
            event = engine.advance_nb(buffer, k.table)
    return buffer, events


@pytest.mark.parametrize("game,players", COUNTS)
def test_stepping_plays_the_batch_kernels_games(game, players):
    """Game i stepped adds to the totals exactly what the kernel's game i adds, and its events
    come in the order a day has them."""
    k = kernel(game, players, seed=17)
    engine = ENGINES[game]
    for index in range(GAMES_EACH):
        batch = k.play(index, 1)
        buffer, events = stepped(k, index)
        mine = k.zeros()
        rows = np.zeros_like(mine.seat)
        engine.accumulate_game_nb(buffer[0], rows, mine.pair_stats, mine.run)
        accounting.add_seat_rows_nb(rows, buffer[0]["seat_slot"], mine.seat, mine.slot)
        for name in ("seat", "slot", "pair_stats", "run"):
            assert np.array_equal(getattr(mine, name), getattr(batch, name)), (name, index)
        kinds = [kind for kind, _ in events]
        assert kinds.count(days.DAY_START) == kinds.count(days.DAY_SCORED) == 3
        assert kinds.count(resumable.TURN_START) == kinds.count(resumable.TURN_END) > 0
        assert not any(kind >= resumable.DECISION for kind in kinds)  # no EXTERNAL seat: nothing asked
        assert events[-1] == (days.DAY_SCORED, -1)


def strategy_answer(k: PreparedRun):
    """Answer an EXTERNAL seat's decision with what its strategy decides, called from Python on
    the stopped state: the game must be the one the engine plays with that strategy seated."""
    registry = k.game.registry

    def answer(buffer, decision, seat):
        state = buffer[0]
        slot = int(state["seat_slot"][seat])
        fn = registry[k.config.strategies[slot].name].decisions[registry.decisions[decision]]
        choice = int(fn(state, seat, tuple(float(x) for x in state["seat_params"][seat])))
        assert choice in STEPPED[k.config.game].legal_choices_nb(buffer, k.table)
        return choice
    return answer


@pytest.mark.parametrize("game,names", [("card", ["greedy", "random", "cautious"]),
                                        ("classic", ["value", "random", "value"])])
def test_a_caller_answering_every_decision_plays_the_game_its_answers_make(game, names):
    k = kernel(game, len(names), seed=5, names=names, seating="random")
    outside = np.full(len(names), resumable.EXTERNAL)
    for index in range(GAMES_EACH):
        asked, asked_events = stepped(k, index, outside, strategy_answer(k))
        traced = STEPPED[game].trace_game_nb(k.config.seed, index, k.inputs, k.seating, k.slot_strategy,
                                            k.slot_params, k.table)
        assert any(kind >= resumable.DECISION for kind, _ in asked_events)
        for field in traced.dtype.names:
            if field not in ("step", "seat_strategy"):  # where it stopped, and who answered
                assert np.array_equal(asked[0][field], traced[0][field]), (field, index)


def card_legal_takes(state, seat: int) -> set[int]:
    """R10 by the reference engine's own rule (reference.card_fits): the last card, and any of
    the 2nd- and 3rd-from-last that fit after the cards chosen before them."""
    cards = card_reference.cards_of(default_deck())
    market = [cards[c] for c in state["market"][:int(state["counts"][MARKET_LEN])]]
    ship = [cards[c] for c in state["ship"][seat, :int(state["ship_len"][seat])]]
    aboard = sum(not c.green for c in ship)
    capacity = int(state["rules"][RULE_CAPACITY])
    legal = set()
    for choice in range(4):
        backs = [b for b, bit in ((2, 1), (3, 2)) if choice & bit]
        if any(b > len(market) for b in backs):
            continue
        chosen = [market[-1]]
        fits = True
        for b in backs:
            fits &= card_reference.card_fits(aboard, chosen, market[-b], capacity)
            chosen.append(market[-b])
        if fits:
            legal.add(choice)
    return legal


def classic_legal(state, decision: int, seat: int) -> list[int]:
    """C8: draw (1) or not (0), asked only while the lot may grow; C9: 0 (pass) or a bid from
    the highest + 1 to the seat's money, asked only of a seat with room and money."""
    counts = state["counts"]
    if decision == classic_engine.DRAW_DECISION:
        assert counts[LOT_LEN] < MAX_LOT and counts[CLASSIC_DECK_LEN] > 0 and counts[MAX_FREE] > counts[LOT_LEN]
        return [0, 1]
    highest, money = int(counts[HIGHEST]), int(state["money"][seat])
    assert HOLDS - state["ship_len"][seat] >= counts[LOT_LEN] and money > highest
    return [0, *range(highest + 1, money + 1)]


@pytest.mark.parametrize("game,players", [("card", 2), ("card", 4), ("card", 6), ("classic", 3), ("classic", 6)])
def test_the_legal_choices_are_what_the_rules_allow_at_random_states(game, players):
    """Every seat answered at random among the legal choices: at each decision, they are the
    rules' choices, and an answer outside them is refused with the game left as it was."""
    k = kernel(game, players, seed=players)
    engine = STEPPED[game]
    rng = random.Random(players)
    checked = [0]

    def answer(buffer, decision, seat):
        state = buffer[0]
        legal = [int(c) for c in engine.legal_choices_nb(buffer, k.table)]
        if game == "card" and decision == card_engine.REVEAL_DECISION:
            counts = state["counts"]  # R9: asked only with a market, a deck and fewer than 3 reveals
            assert counts[MARKET_LEN] > 0 and counts[DECK_LEN] > 0 and counts[REVEALED] < 3
            assert legal == [0, 1]
        elif game == "card":
            assert set(legal) == card_legal_takes(state, seat) and legal == sorted(legal)
        else:
            assert legal == classic_legal(state, decision, seat)
        illegal = next(c for c in range(-1, 1000) if c not in legal)
        before = buffer.copy()
        with pytest.raises(ValueError, match="not a legal choice"):
            engine.apply_choice_nb(buffer, k.table, illegal)
        assert buffer.tobytes() == before.tobytes()
        checked[0] += 1
        return rng.choice(legal)

    outside = np.full(players, resumable.EXTERNAL)
    for index in range(2):
        buffer, _ = stepped(k, index, outside, answer)
        assert buffer[0]["day_starter"][2] >= 0
    assert checked[0] > 20


# ---------------------------------------------------------------- core's stepping knows no days (issue 31)

# A game of no days at all: two seats take turns adding 1 or 2 to a total (seat 0 first); the game
# ends when the total reaches 5. Core's stepping functions, written once, step it as they step the
# Medici games, whose day loop is theirs (games/medici/days.py).
COUNT_STATE = np.dtype([("step", *resumable.STEP_DTYPE), ("total", np.int64), ("seat_strategy", np.int64, 2)])
ADD_DECISION = 1  # the phase of a turn asking how much to add


@njit(cache=True)
def _count_start(state, seed, game_index, seating, slot_strategy, slot_params):
    state.total = 0
    for seat in range(2):
        state.seat_strategy[seat] = slot_strategy[seat]


@njit(cache=True)
def _count_begin(state):
    resumable.begin_stepping_nb(state, 0, resumable.FIRST_TURN)


@njit(cache=True)
def _count_play_on(state, table):
    step = state.step
    seat, phase = step[resumable.STEP_SEAT], step[resumable.STEP_PHASE]
    while state.total < 5:
        if phase == resumable.FIRST_TURN:
            if resumable.stop_nb(state, resumable.TURN_START, seat, 0, seat, phase, 0):
                return True
            phase = ADD_DECISION
        add = 1
        if state.seat_strategy[seat] == resumable.EXTERNAL:
            if resumable.stop_nb(state, resumable.DECISION, seat, 0, seat, ADD_DECISION, 0):
                return True
            add = state.step[resumable.STEP_CHOICE]
        state.total += add
        seat, phase = 1 - seat, resumable.FIRST_TURN
    return False


@njit(cache=True)
def _count_legal(buffer, table):
    if buffer[0].step[resumable.STEP_EVENT] == resumable.DECISION:
        return np.arange(1, 3)
    return np.arange(0)


def test_core_steps_a_game_without_days():
    """Core keeps only a generic loop: new game, advance, legal choices, apply, the trace; the day
    loop, its events and the poorest starting the next day live in the Medici games' toolkit."""
    for name in ("DAY_START", "DAY_OVER", "DAY_SCORED", "PHASE_DAY_START", "STEP_DAY", "play_loop"):
        assert not hasattr(resumable, name) and (name == "STEP_DAY" or hasattr(days, name)), name
    assert not hasattr(seating, "poorest_seat_nb") and hasattr(days, "poorest_seat_nb")
    new_game, advance, apply_choice, trace_game = resumable.entry_points(_count_start, _count_begin, _count_play_on,
                                                                        _count_legal)
    inputs = np.zeros(1, COUNT_STATE)
    no_params = np.zeros((2, 1))
    buffer = inputs.copy()
    new_game(buffer, 0, 0, 0, np.array([resumable.EXTERNAL, 0]), no_params, 0)
    events = [int(advance(buffer, 0))]
    while events[-1] != resumable.GAME_OVER:
        if events[-1] == resumable.DECISION:
            assert list(_count_legal(buffer, 0)) == [1, 2]
            with pytest.raises(ValueError, match="not a legal choice"):
                apply_choice(buffer, 0, 3)
            events.append(int(apply_choice(buffer, 0, 2)))
        else:
            events.append(int(advance(buffer, 0)))
    # seat 0 adds 2, seat 1 adds 1, seat 0 adds 2: 5
    assert events == [resumable.TURN_START, resumable.DECISION, resumable.TURN_START, resumable.TURN_START,
                      resumable.DECISION, resumable.GAME_OVER]
    assert buffer[0]["total"] == 5
    traced = trace_game(0, 0, inputs, 0, np.array([0, 0]), no_params, 0)  # every seat a strategy: adds 1
    assert traced[0]["total"] == 5
