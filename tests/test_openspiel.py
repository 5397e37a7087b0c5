"""Both games as OpenSpiel games (medici_sim.openspiel, frameworks.stepper and .spiel): OpenSpiel's
own API test, the kernel's game replayed through the adapter, chance outcomes the engine obeys,
information that is only what a seat sees, MCTS playing, and the bot bridge both ways."""
from __future__ import annotations

import importlib
import sys

import numpy as np
import pyspiel
import pytest

import medici_sim.openspiel as medici_openspiel
from medici_sim.core.driver import Kernel
from medici_sim.core.specs import run_config

LINEUPS = {"card": ["greedy", "expert", "random", "gambler"], "classic": ["value", "expert", "random", "bargain"]}
PLAYER_COUNTS = {"card": (2, 3, 4, 5, 6), "classic": (3, 4, 5, 6)}


def load(game: str, players: int = 4, **params):
    return pyspiel.load_game(f"medici_{game}", {"players": players, **params})


def test_importing_registers_both_games():
    assert {"medici_card", "medici_classic"} <= set(pyspiel.registered_names())
    assert medici_openspiel.GAMES == ["medici_card", "medici_classic"]


@pytest.mark.parametrize("game", ["card", "classic"])
def test_random_sim_test_passes_at_four_players(game):
    pyspiel.random_sim_test(load(game), num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["card", "classic"])
def test_random_sim_test_passes_for_every_player_count(game):
    for players in PLAYER_COUNTS[game]:
        pyspiel.random_sim_test(load(game, players, rules="bonus20" if game == "card" else "standard"), num_sims=1,
                                serialize=players == 3, verbose=False)


def kernel_game(game: str, lineup: list[str], index: int):
    """Game ``index`` of seed 0 as the kernel plays it (the trace's stepped loop, every seat a strategy)."""
    config = run_config(game=game, players=len(lineup), strategies=lineup, games=index + 1, seed=0, variant=None,
                        seating="fixed", threads=1, deck=None)
    kernel = Kernel(config)
    stepped = importlib.import_module(f"medici_sim.games.{game}.stepped")
    return stepped.trace_game_nb(0, index, kernel.inputs, kernel.seating, kernel.slot_strategy, kernel.slot_params,
                                 kernel.table)[0]


@pytest.mark.parametrize("game", ["card", "classic"])
def test_a_game_through_openspiel_is_the_kernels_game(game):
    """R25, C20: with the engine's own draws at the chance nodes and our strategies as bots
    (random among them, drawing from the game's generator), the adapter plays seed 0's game 0."""
    lineup = LINEUPS[game]
    spiel_game = load(game)
    bots = [medici_openspiel.BuiltinBot(spiel_game, seat, name) for seat, name in enumerate(lineup)]
    state = spiel_game.new_initial_state()
    chance_nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_nodes += 1
            state.apply_action(state.stepped.natural_outcome())
        else:
            state.apply_action(bots[state.current_player()].step(state))
    kernel = kernel_game(game, lineup, 0)
    ours = state.stepped.state
    assert chance_nodes > 20
    assert state.returns() == [float(m) for m in kernel[state.stepped.engine.view.MONEY][:4]]
    for field in ("day_starter", "day_ship_pay", "day_majority_pay", "day_bonus_pay", "day_ship_value"):
        np.testing.assert_array_equal(ours[field], kernel[field])


@pytest.mark.parametrize("game", ["card", "classic"])
def test_the_engine_deals_the_chance_outcomes_chosen(game):
    """Each chance outcome, not the engine's own draw, is the card turned up (R9, C8, C11) or the
    next day's starter among the poorest (R21, C6); the stepper also checks every call."""
    rng = np.random.default_rng(5)
    ties = 0
    for _ in range(40):
        state = load(game, 6).new_initial_state()
        stepped = state.stepped
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [o for o, _ in state.chance_outcomes()]
                natural = stepped.natural_outcome()
                pick = int(rng.choice([o for o in outcomes if o != natural] or outcomes))
                unseen = set(stepped._unseen())
                s, day = stepped.state, stepped.engine.view.DAY
                day_before = int(s["counts"][day])
                state.apply_action(pick)
                s = stepped.state
                if pick >= stepped.engine.n_cards:
                    ties += 1
                    assert s["day_starter"][int(s["counts"][day])] == pick - stepped.engine.n_cards
                else:
                    assert pick in unseen
                    if int(s["counts"][day]) == day_before and not state.is_terminal():  # a new day deals anew
                        assert pick not in stepped._unseen()
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        if ties >= 2:
            break
    assert ties >= 2  # ties for the least money were met and obeyed


@pytest.mark.parametrize("game", ["card", "classic"])
def test_what_a_seat_sees_never_holds_the_decks_order(game):
    """R7, R20, C5: two states differing only in the order of the unseen cards (and, in the
    classic game, which of them lie face down) give every seat the same strings and tensors."""
    state = load(game).new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(25):
        if state.is_chance_node():
            state.apply_action(int(rng.choice([o for o, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    twin = state.clone()
    s = twin.stepped.state
    unseen = np.array(twin.stepped._unseen())
    shuffled = rng.permutation(unseen)
    n = int(s["counts"][twin.stepped.engine.view.PILE_LEN])
    s["deck"][:n] = shuffled[:n]
    if twin.stepped.engine.view.HIDDEN:
        s["removed"][:len(unseen) - n] = shuffled[n:]
    assert twin.stepped._unseen().tolist() != state.stepped._unseen().tolist()
    for player in range(4):
        assert twin.information_state_string(player) == state.information_state_string(player)
        assert twin.observation_string(player) == state.observation_string(player)
        assert twin.observation_tensor(player) == state.observation_tensor(player)
        assert twin.information_state_tensor(player) == state.information_state_tensor(player)
    assert state.observation_string(0) != state.observation_string(1)  # it says whose view it is


def test_actions_have_stable_ids_and_readable_names():
    card = load("card").new_initial_state()
    card.apply_action(card.chance_outcomes()[0][0])
    assert card.legal_actions() in ([0, 1], [2])
    assert [card.action_to_string(a) for a in card.legal_actions()][:2] in (["stop revealing", "reveal a card"],
                                                                           ["take the last card (grain 0)"])
    classic = load("classic").new_initial_state()
    classic.apply_action(classic.chance_outcomes()[0][0])
    while classic.legal_actions() == [0, 1]:
        classic.apply_action(0)  # offer the lot: the bidding begins (C9)
    assert classic.legal_actions() == [2, *range(3, 2 + 40 + 1)]  # pass, or bid 1 to 40 florins (C4)
    assert classic.action_to_string(2) == "pass" and classic.action_to_string(9) == "bid 7"


def test_serialisation_gives_back_the_state():
    game = load("classic")
    state = game.new_initial_state()
    for _ in range(30):
        state.apply_action(state.chance_outcomes()[-1][0] if state.is_chance_node() else state.legal_actions()[-1])
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.history() == state.history() and str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("game", ["card", "classic"])
def test_openspiels_mcts_plays_whole_games(game):
    from open_spiel.python.algorithms import mcts

    spiel_game = load(game, returns="wins")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(spiel_game, 1.4, 2, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = spiel_game.new_initial_state()
    while not state.is_terminal():  # MCTS at seat 1, a uniform choice elsewhere
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(bot.step(state) if state.current_player() == 0 else rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("game", ["card", "classic"])
def test_a_bot_at_a_seat_of_a_run_plays_that_runs_games(game):
    """An OpenSpiel bot at seat 1 of a medici-sim run (core.stepping's EXTERNAL seat): our own
    strategy as that bot plays exactly the run's games."""
    lineup = LINEUPS[game][:1] + ["expert"] * 3
    money = medici_openspiel.play_with_bot(game, lambda g: medici_openspiel.BuiltinBot(g, 0, lineup[0]), bot_seat=0,
                                           strategies=lineup, games=2)
    field = "florins" if game == "card" else "money"
    for index in range(2):
        assert list(money[index]) == list(kernel_game(game, lineup, index)[field][:4])


@pytest.mark.parametrize(("module", "extra", "missing"), [("medici_sim.openspiel", "openspiel", "pyspiel"),
                                                          ("medici_sim.pettingzoo", "rl", "pettingzoo")])
def test_a_missing_extra_is_named_in_one_line(monkeypatch, module, extra, missing):
    monkeypatch.setitem(sys.modules, missing, None)  # import fails as if not installed
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError) as failure:
        importlib.import_module(module)
    assert str(failure.value) == f"{module} needs the {extra} extra: pip install 'medici-sim[{extra}]'"
