"""Conformance, for every game that declares what each seat sees (its framework facts'
information, core.contract.Information): a seat's view and every built-in strategy's decision
depend only on what that seat can see.

The game is stepped decision by decision (frameworks.stepper, chance nodes taking the engine's
own draws), a built-in strategy at every seat. At each decision a copy of the game has every
thing the game declares hidden from the seat to decide (``Hidden``: from everyone, the deck's
order; from rivals, their hands) dealt again as it could lie (``Hidden.redeal``); the seat's
observation (vector and text) and the strategy's decision on the copy must be the ones on the
game. A strategy that peeks (reads the deck's order, a rival's hand) decides otherwise on some
deal and fails here.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest
import toygame

from medici_sim.core.registry import GAMES, get_game
from medici_sim.frameworks.builtins import BuiltinPlayer
from medici_sim.frameworks.stepper import NotInFrameworks, SteppedGame, engine

GAME_NAMES = sorted({*GAMES, toygame.GAME.name})  # the games medici-sim ships, and the tests' toy game
# the built-ins that search the game's future by simulation: each compiles its decisions for minutes on first use
SEARCHING = {"search", "mcts", "strong"}
SMALL_BUDGET = {"rollouts": 4, "iterations": 4}  # what the searching built-ins' decisions may cost here
# the observation's text at every few decisions (it is drawn from the same view as the vector, checked at every one):
# Tuscany's text draws four estates, two fifths of the check's time at every decision
TEXT_EVERY = 4
# Flat search's rollouts draw the unseen cards from where they lie (card: the copy's deck drawn by the rollout's own
# generator; classic: deal_unseen_nb's canonical False): each deal is as random as any other, so it learns nothing
# hidden, but which deal a rollout stream gives reads the hidden order, and with a few rollouts the decision follows.
# mcts deals from the unseen cards sorted and passes. Dealing flat search's rollouts from the sorted cards too
# changes its games (and every figure measured with it): left to the strategies' owner, and marked here.


@pytest.fixture(autouse=True)
def the_toy_game_is_registered(monkeypatch):
    """The toy game (tests/toygame) is registered for each test here, and for no other test."""
    monkeypatch.setitem(GAMES, toygame.GAME.name, toygame.GAME)


def declared(name: str):
    game = get_game(name)
    if game.framework is None:
        pytest.skip(f"the {name} game declares no framework facts (what each seat sees)")
    return game


def spec(game, strategy: str) -> str:
    """The strategy, with a small budget where it has one."""
    params = [f"{key}={value}" for key, value in SMALL_BUDGET.items() if key in game.registry[strategy].params]
    return strategy + (":" + ",".join(params) if params else "")


def the_engine(game):
    return engine(game.name, game.default_players, game.presets[0])


def decides_on_what_it_sees(game, player: BuiltinPlayer, games: int, most_decisions: int | None = None) -> int:
    """Play ``games`` games with ``player`` (a built-in) at every seat, checking at each decision
    (up to ``most_decisions`` a game) that dealing again what the seat cannot see changes neither
    its view nor the decision; how many of the copies' deals differed from the game's."""
    e = player.engine
    view, hidden = e.view, e.information.hidden
    strategy = player.name
    generator = np.random.default_rng(7)
    redealt = 0
    for index in range(games):
        g = SteppedGame(e, seed=5, index=index)
        decisions = 0
        while not g.over and (most_decisions is None or decisions < most_decisions):
            if g.chance:
                g.apply_action(g.natural_outcome())
                continue
            seat = g.actor
            twin = copy.deepcopy(g)
            for thing in hidden:
                thing.redeal(twin.state, seat, generator)
            redealt += twin.buffer.tobytes() != g.buffer.tobytes()  # bytes: array_equal compares a record by field
            size = view.observation_size(g.state)
            seen, seen_twin = np.zeros(size, np.float32), np.zeros(size, np.float32)
            view.observe(g.state, seat, seat, seen)
            view.observe(twin.state, seat, seat, seen_twin)
            where = f"{game.name}, {strategy}, game {index}, decision {decisions}, seat {seat + 1}"
            assert np.array_equal(seen, seen_twin), f"{where}: the seat's observation shows what it cannot see"
            if decisions % TEXT_EVERY == 0:
                text = view.observation_text(g.state, seat, seat)
                assert text == view.observation_text(twin.state, seat, seat), where
            action = player.action(g)
            assert player.action(twin) == action, f"{where}: the decision depends on what the seat cannot see"
            g.apply_action(action)
            decisions += 1
    return redealt


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_heuristic_decides_only_on_what_its_seat_sees(name):
    game = declared(name)
    for strategy in game.built_ins:
        if strategy in SEARCHING:
            continue
        redealt = decides_on_what_it_sees(game, BuiltinPlayer(the_engine(game), strategy), games=1)
        assert redealt > 0 or not game.framework.information.hidden, f"{name}: no deal was ever changed"


@pytest.mark.slow
@pytest.mark.parametrize("strategy", sorted(SEARCHING))
@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_searching_built_in_decides_only_on_what_its_seat_sees(name, strategy):
    """The built-ins that simulate the rest of the game, at the first decisions of a game."""
    game = declared(name)
    if strategy not in game.registry or game.registry.origin[strategy] != "built-in":
        pytest.skip(f"the {name} game has no built-in {strategy}")
    decides_on_what_it_sees(game, BuiltinPlayer(the_engine(game), spec(game, strategy)), games=1, most_decisions=12)


def test_a_strategy_that_peeks_is_caught():
    """The check sees a strategy that reads what its seat cannot see: the card game's greedy made
    to reveal another card whenever the deck's next card has an even id (R9, R20)."""
    from numba import njit

    from medici_sim.games.card.state import DECK_LEN
    from medici_sim.games.card.strategies import Strategy, register

    @njit
    def peeking_reveal_nb(state, seat, params):
        return state.deck[state.counts[DECK_LEN] - 1] % 2 == 0

    game = get_game("card")
    register(Strategy(name="peeking", decisions={**game.registry["greedy"].decisions, "reveal_nb": peeking_reveal_nb}))
    player = BuiltinPlayer(the_engine(game), "peeking")
    with pytest.raises(AssertionError, match="the decision depends on what the seat cannot see"):
        decides_on_what_it_sees(game, player, games=1)


def test_a_game_without_framework_facts_is_in_no_framework_and_says_so_in_one_line():
    """The toy game declares no framework facts: the adapters refuse it in one line with the reason
    it declares (a game is never found, nor dropped, by a file's name)."""
    toy = toygame.GAME
    assert toy.framework is None
    with pytest.raises(NotInFrameworks) as refused:
        engine(toy.name, toy.default_players, toy.presets[0])
    assert str(refused.value) == f"the toy game is in no game-AI framework: {toy.no_framework}"
