"""Both games as OpenSpiel games (medici_sim.openspiel, frameworks.stepper and .spiel): OpenSpiel's
own API test, the kernel's game replayed through the adapter, chance outcomes the engine obeys,
information that is only what a seat sees, MCTS playing, and the bot bridge both ways."""
from __future__ import annotations

import importlib
import pickle
import re
import sys

import numpy as np
import pyspiel
import pytest
from conftest import assert_same_record
from conftest import traced_game as kernel_game  # game index of a seed as the kernel plays it

import medici_sim.openspiel as medici_openspiel
from medici_sim.frameworks.stepper import SteppedGame

LINEUPS = {"card": ["greedy", "expert", "random", "gambler"], "classic": ["value", "expert", "random", "bargain"]}
PLAYER_COUNTS = {"card": (2, 3, 4, 5, 6), "classic": (3, 4, 5, 6)}


def load(game: str, players: int = 4, **params):
    return pyspiel.load_game(f"medici_{game}", {"players": players, **params})


def test_importing_registers_every_game():
    assert {"medici_card", "medici_classic", "medici_tuscany"} <= set(pyspiel.registered_names())
    assert medici_openspiel.GAMES == ["medici_card", "medici_classic", "medici_tuscany"]


# one pair quick; the other three (pyspiel's random simulations, 4-5 s each) in the whole suite
@pytest.mark.parametrize("game", ["card", pytest.param("classic", marks=pytest.mark.slow)])
@pytest.mark.parametrize("returns", [pytest.param("florins", marks=pytest.mark.slow), "wins"])
def test_pyspiels_own_checks_pass_for_both_returns(game, returns):
    """pyspiel's random_sim_test (its checks of returns against the declared utility, of every
    state's strings and tensors and serialisation) at the fewest players and at five; the win
    credit is constant-sum (it sums to 1), florins general-sum."""
    for players in (PLAYER_COUNTS[game][0], 5):
        spiel_game = load(game, players, returns=returns)
        utility = spiel_game.get_type().utility
        if returns == "wins":
            assert utility == pyspiel.GameType.Utility.CONSTANT_SUM and spiel_game.utility_sum() == 1.0
        else:
            assert utility == pyspiel.GameType.Utility.GENERAL_SUM
        pyspiel.random_sim_test(spiel_game, num_sims=1, serialize=players == 5, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["card", "classic"])
def test_random_sim_test_passes_for_every_player_count(game):
    """Every player count, the returns taken in turns (the quick test above has both at two counts)."""
    for players in PLAYER_COUNTS[game]:
        returns = ("florins", "wins")[players % 2]
        pyspiel.random_sim_test(load(game, players, rules="bonus20" if game == "card" else "standard",
                                     returns=returns), num_sims=2, serialize=players == 3, verbose=False)


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
    assert state.returns() == [float(m) for m in kernel[state.stepped.engine.view.SCORE][:4]]
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
                deck = stepped.engine.view.DECK
                n_cards = stepped.engine.chance_outcome_count - stepped.engine.players
                unseen = set(deck.unseen(stepped.state))
                s, day = stepped.state, stepped.engine.view.DAY
                day_before = int(s["counts"][day])
                state.apply_action(pick)
                s = stepped.state
                if pick >= n_cards:
                    ties += 1
                    assert s["day_starter"][int(s["counts"][day])] == pick - n_cards
                else:
                    assert pick in unseen
                    if int(s["counts"][day]) == day_before and not state.is_terminal():  # a new day deals anew
                        assert pick not in deck.unseen(stepped.state)
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
    deck = twin.stepped.engine.view.DECK
    for hidden in twin.stepped.engine.information.hidden:  # the deck's order (R7, R20, C5), dealt again
        hidden.redeal(twin.stepped.state, 0, rng)
    assert deck.unseen(twin.stepped.state).tolist() != deck.unseen(state.stepped.state).tolist()
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


def played(spiel_game, moves: int, seed: int = 0):
    """A state after ``moves`` uniformly drawn moves (chance outcomes and actions)."""
    rng = np.random.default_rng(seed)
    state = spiel_game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        options = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(int(rng.choice(options)))
    return state


@pytest.mark.parametrize("rules", ["standard", "days=2,ship_payouts=30/20/10/5"])
def test_serialisation_gives_back_the_state_under_any_rules(rules):
    """OpenSpiel's serialisation and game strings round-trip a game with rules: the game string
    writes the spec's = and , as : and ; (OpenSpiel's strings split parameters at them)."""
    game = load("classic", rules=rules)
    assert str(pyspiel.load_game(str(game))) == str(game)
    assert game.get_parameters()["rules"] == rules.replace("=", ":").replace(",", ";")
    state = played(game, 30)
    again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again_game) == str(game)
    assert again.history() == state.history() and str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    assert again.information_state_tensor(1) == state.information_state_tensor(1)


def test_a_state_as_plain_text_is_played_again_without_pickle():
    """state_to_text: the game string, the seed and game, and the moves; state_from_text plays them
    again (no pickle: safe for text from anywhere) and refuses a bad text in one line."""
    game = load("card", 3, rules="days=2")
    state = played(game, 60, seed=4)
    text = medici_openspiel.state_to_text(state)
    assert text.splitlines()[:2] == ["medici_card(information=perfect,players=3,returns=florins,rules=days:2)",
                                    "seed 0 game 0"]
    again = medici_openspiel.state_from_text(text)
    assert again.history() == state.history() and str(again) == str(state)
    assert again.information_state_string(2) == state.information_state_string(2)
    bad = {"": "not a medici-sim state", text.replace("seed", "sed"): "not a medici-sim state",
           text.replace("players=3", "players=9"): "players must be between 2 and 6",
           text.replace("medici_card", "kuhn_poker"): "not a medici-sim state",
           text.rstrip("\n") + " 999\n": "move 61 of the history (999) is not a legal move there"}
    for text_given, message in bad.items():
        with pytest.raises(ValueError, match=re.escape(message)):
            medici_openspiel.state_from_text(text_given)


def test_a_state_resumed_from_a_runs_record_knows_it_lacks_the_earlier_moves():
    """SteppedGame.resumed (a bot handed a copy of a run's record, frameworks.agents): the same
    decision, its history only what follows, and no text form (the earlier moves are unknown)."""
    game = load("card")
    state = played(game, 30)
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    stepped = state.stepped
    resumed = medici_openspiel.MediciState(game, SteppedGame.resumed(stepped.engine, stepped.buffer, stepped.event))
    assert resumed.legal_actions() == state.legal_actions() and str(resumed) == str(state)
    assert resumed.history() == [] and resumed.stepped.from_run
    with pytest.raises(ValueError, match="resumed from a run's record"):
        medici_openspiel.state_to_text(resumed)


def test_bad_inputs_to_the_game_are_one_clear_line():
    """A hand-edited serialisation, an action id out of range, bad parameters: a ValueError (or
    pyspiel's own error) with a message, never an obscure one."""
    game = load("card", 4)
    state = played(game, 20)
    text = pyspiel.serialize_game_and_state(game, state)
    edited = r"not one of medici_card\(information=perfect,players=3.*played with 4 players"
    with pytest.raises(ValueError, match=edited):
        pyspiel.deserialize_game_and_state(text.replace("players=4", "players=3"))
    first = text.split("history=")[1].split(",")[0]
    with pytest.raises(ValueError, match="history does not match"):
        pyspiel.deserialize_game_and_state(text.replace("history=" + first, "history=" + first[:-1] + "9", 1))
    for player, action, message in ((0, 999, "action 999 is not one of the game's (0-5)"),
                                    (-1, 999, "chance outcome 999 is not one of the game's"),
                                    (7, 2, "player 7 is not a seat")):
        with pytest.raises(ValueError, match=re.escape(message)):
            state.action_to_string(player, action)
    with pytest.raises(ValueError, match="not legal here"):
        state.apply_action(999)
    for params, message in (({"players": 9}, "medici_classic: players must be between 3 and 6"),
                            ({"rules": "nope"}, "medici_classic: rules: unknown rule 'nope'"),
                            ({"returns": "money"}, "returns must be one of florins, wins")):
        with pytest.raises(ValueError, match=re.escape(message)):
            load("classic", **params)


class MovingBot(medici_openspiel.BuiltinBot):
    def step(self, state):
        state.apply_action(state.legal_actions()[0])  # on the state it was handed, not a clone
        return state.legal_actions()[0]


def test_play_with_bot_refuses_a_bad_seat_and_a_bot_that_moves_on_the_live_state():
    play = medici_openspiel.play_with_bot
    with pytest.raises(ValueError, match="bot_seat must be a seat, 0 to 2, got 3"):
        play("classic", lambda g: medici_openspiel.BuiltinBot(g, 3, "expert"), bot_seat=3, strategies="expert",
             players=3, games=1)
    with pytest.raises(ValueError, match="the bot at seat 1 made a move on the state it was handed"):
        play("classic", lambda g: MovingBot(g, 1, "expert"), bot_seat=1, strategies="expert", players=3, games=1)


def test_games_and_states_pickle():
    game = load("classic", 3, rules="days=2", returns="wins")
    state = played(game, 25)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history() and str(again) == str(state)


@pytest.mark.parametrize("game", ["card", "classic"])
def test_max_game_length_is_a_true_bound_from_the_rules(game):
    """The most decisions (max_game_length) and chance nodes a game can have, from its rules
    (seat_view.most_moves): random games stay within them, and the bound is within a few times
    a real game's length (not thousands)."""
    for players in (PLAYER_COUNTS[game][0], 6):
        spiel_game = load(game, players)
        assert spiel_game.max_game_length() < 900
        for seed in range(2):
            state = played(spiel_game, 10**6, seed)
            chance = sum(1 for move in state.full_history() if move.player < 0)
            decisions = len(state.history()) - chance
            assert decisions <= spiel_game.max_game_length() < 12 * decisions
            assert chance <= spiel_game.max_chance_nodes_in_history()


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


def test_actions_and_utilities_follow_the_rules_in_force():
    """The most money (max_utility) and the classic game's bid ids come from the rules in force:
    with 200 florins to start (C4), a seat may bid all of them, and every legal id is an action
    of the game; the card game's bounds grow with its days and bonuses (R18, R19, R22)."""
    classic = load("classic", rules="starting_money=200")
    assert classic.max_utility() == load("classic").max_utility() + 160
    state = classic.new_initial_state()
    while state.is_chance_node() or state.legal_actions() == [0, 1]:
        state.apply_action(state.legal_actions()[0])
    assert max(state.legal_actions()) == 2 + 200 < classic.num_distinct_actions()
    assert state.action_to_string(202) == "bid 200"
    card = load("card", rules="days=5,big_bonus=100")
    assert card.max_utility() == 5 * (30 + 5 * (10 + 100)) and card.max_game_length() == 5 * 35 * 4
    pyspiel.random_sim_test(card, num_sims=1, serialize=False, verbose=False)


# every built-in strategy offered to bots (search and mcts in the slow test below: they compile for minutes)
BRIDGED = {"card": ["random", "greedy", "collector", "cautious", "gambler", "expert", "strong"],
           "classic": ["random", "value", "collector", "bargain", "expert", "strong"]}
SEARCHERS = ["search:rollouts=2", "mcts:iterations=4", "expert"]


class RecordingBot(medici_openspiel.BuiltinBot):
    """A built-in as an OpenSpiel bot that keeps what it was handed: the states, their move
    numbers and information states (seat's string and tensor)."""

    def __init__(self, game, seat, spec):
        super().__init__(game, seat, spec)
        self.state, self.seen = None, []

    def step(self, state):
        self.state = state
        self.seen.append((state.move_number(), state.information_state_string(self.player_id),
                          tuple(state.information_state_tensor(self.player_id)), tuple(state.history())))
        return super().step(state)


def bridged_games(game: str, strategies: list[str], cases, as_bots: tuple[str, ...] | None = None):
    """Each strategy (of ``as_bots``: None, every one) at every seat as a BuiltinBot in play_with_bot
    (the lineups rotate the strategies), one game each of the given seeds and player counts;
    yields (what the bot was handed, its game's final record, the kernel's record of the same game)."""
    for players, seed in cases:
        for shift in range(len(strategies)):
            lineup = [strategies[(shift + seat) % len(strategies)] for seat in range(players)]
            for seat in (s for s in range(players) if as_bots is None or lineup[s] in as_bots):
                bots = []

                def factory(spiel_game, seat=seat, lineup=lineup, bots=bots):
                    bots.append(RecordingBot(spiel_game, seat, lineup[seat]))
                    return bots[0]

                money = medici_openspiel.play_with_bot(game, factory, bot_seat=seat, strategies=lineup, games=1,
                                                       seed=seed)
                ours, kernel = bots[0].state.stepped.state, kernel_game(game, lineup, 0, seed)
                assert list(money[0]) == list(kernel[bots[0].state.stepped.engine.view.SCORE][:players])
                yield bots[0], ours, kernel, (players, seed, lineup, seat)


# the classic game's in the whole suite: it compiles the classic strong's decisions for the bridge (18 CPU s),
# which no other quick test needs; the card game's runs the same bridge (BuiltinBot, play_with_bot) quickly
@pytest.mark.parametrize("game", ["card", pytest.param("classic", marks=pytest.mark.slow)])
def test_a_bridged_builtin_plays_the_engines_exact_games_at_every_seat(game):
    """A built-in as an OpenSpiel bot (BuiltinBot) in a run (play_with_bot) decides on the game's
    own record, its scratch row kept through the game (the classic expert's model of the rivals'
    bids, card expert's caches) and its draws from the game's generator (random): every game is
    the kernel's, final money and the whole record (scratch rows and generator included), for
    every built-in at every seat, at two player counts and seeds. The card game: 3 players (seed
    11) and 6 (seed 2); the classic game: 3 (seed 11) and 5 (seed 2)."""
    bots = 0
    for _bot, ours, kernel, case in bridged_games(game, BRIDGED[game], ((3, 11), (6 if game == "card" else 5, 2))):
        assert_same_record(ours, kernel, case)
        bots += 1
    assert bots == len(BRIDGED[game]) * (3 + (6 if game == "card" else 5))


@pytest.mark.slow
@pytest.mark.parametrize("game", ["card", "classic"])
def test_search_and_mcts_bridged_play_the_engines_exact_games(game):
    """The searching built-ins at small budgets (search with 2 rollouts, mcts with 4 iterations),
    with expert, each searcher as the bot at every seat of a 3-player game (seed 7): the kernel's
    games exactly (expert as the bot: the quick test above)."""
    played = 0
    for _bot, ours, kernel, case in bridged_games(game, SEARCHERS, ((3, 7),), as_bots=tuple(SEARCHERS[:2])):
        assert_same_record(ours, kernel, case)
        played += 1
    assert played == 2 * 3


@pytest.mark.parametrize("game", ["card", "classic"])
def test_states_handed_to_bots_carry_their_history(game):
    """The state a bot gets has the game's whole history (chance outcomes and every seat's
    actions), a move number counting the moves, and information states (string and tensor)
    that differ at each of the seat's decisions."""
    bot, _, _, _ = next(bridged_games(game, ["expert"], ((4, 3),)))
    numbers, strings, tensors, histories = zip(*bot.seen, strict=True)
    assert len(numbers) > 20
    assert list(numbers) == sorted(set(numbers)) and numbers[0] > 0
    assert [len(h) for h in histories] == list(numbers)
    assert len(set(strings)) == len(strings) and len(set(tensors)) == len(tensors)
    assert strings[-1] == "seat 1: " + " ".join(map(str, histories[-1]))


@pytest.mark.parametrize("game", ["card", "classic"])
def test_information_states_are_the_history_and_tell_states_apart(game):
    """Two states with different histories give a seat different information states; the same
    history, the same (the information-state tensor: the table, then one number a move)."""
    spiel_game = load(game)
    a, b = played(spiel_game, 40, seed=1), played(spiel_game, 40, seed=2)
    assert a.history() != b.history()
    for player in range(4):
        assert a.information_state_string(player) != b.information_state_string(player)
        assert a.information_state_tensor(player) != b.information_state_tensor(player)
        assert a.information_state_tensor(player) == a.clone().information_state_tensor(player)
    tensor = a.information_state_tensor(0)
    moves = tensor[spiel_game.observation_tensor_size():]
    assert len(moves) == spiel_game.max_game_length() + spiel_game.max_chance_nodes_in_history()
    n = spiel_game.num_distinct_actions()
    assert moves[:len(a.history())] == [m.action + 1 + (n if m.player < 0 else 0) for m in a.full_history()]
    assert not any(moves[len(a.history()):])


def test_the_information_type_is_what_the_game_declares():
    """Perfect information is a game's own declaration (its framework facts' information): both
    of today's games hide only the deck's order, from every seat, and declare it. OpenSpiel's
    ISMCTS asserts imperfect information: it runs on a game loaded with information=imperfect
    (docs/frameworks.md)."""
    from open_spiel.python.algorithms import ismcts, mcts

    for game in ("card", "classic"):
        assert load(game).get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    spiel_game = load("card", returns="wins")
    state = played(spiel_game, 1)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(AssertionError):
        ismcts.ISMCTSBot(spiel_game, mcts.RandomRolloutEvaluator(1), 1.4, 4).step(state)
    assert state.resample_from_infostate(0, None).history() == state.history()
    imperfect = load("card", returns="wins", information="imperfect")
    assert imperfect.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(spiel_game, state).replace(
        "information=perfect", "information=imperfect"))[1]
    bot = ismcts.ISMCTSBot(imperfect, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 1.4, 8,
                           random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()
    with pytest.raises(ValueError, match="information must be one of perfect, imperfect"):
        load("card", information="none")


def test_a_game_that_hides_things_from_rivals_gives_each_seat_its_own_information_state(monkeypatch, request):
    """A game that declares something hidden from rivals (a hand: core.contract.RIVALS) is an
    imperfect-information game, and each seat's information state is the history as that seat
    saw it: a chance outcome only one seat saw (here the card game made so, each card turned up
    seen only by the seat turning it) is ``?`` to the others, in the string and the tensor; its
    observation is what the seat view shows it; resample_from_infostate deals again what the
    game hides from the seat's rivals (each Hidden.redeal)."""
    from dataclasses import replace

    from medici_sim.core.chance import Draws
    from medici_sim.core.contract import RIVALS, Hidden, Information
    from medici_sim.core.registry import GAMES
    from medici_sim.core.resumable import STEP_ACTOR
    from medici_sim.frameworks import spiel, stepper

    definition = GAMES["card"]
    facts = definition.framework
    dealt_again = []
    hand = Hidden("a hand (the test's)", RIVALS, lambda s, seat, generator: dealt_again.append(seat))
    hiding = replace(definition, framework=replace(facts, information=Information((*facts.information.hidden, hand))))
    assert spiel.game_type(hiding).information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    monkeypatch.setitem(GAMES, "card", hiding)
    stepper.engine.cache_clear()  # the engines made here are of the game declared here, and of no other test
    request.addfinalizer(stepper.engine.cache_clear)
    real = definition.seat_view.chance_event

    def seen_by_the_actor(before, after, event):
        drawn = real(before, after, event)
        if isinstance(drawn, Draws):
            drawn.seen_by = int(before["step"][STEP_ACTOR])
        return drawn

    monkeypatch.setattr(definition.seat_view, "chance_event", seen_by_the_actor)
    hiding_game = type("HidingCardGame", (spiel.MediciGame,), {"definition": hiding})
    spiel_game = hiding_game({"players": 3})
    assert spiel_game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    with pytest.raises(ValueError, match=re.escape("information must be imperfect: the game hides things from "
                                                   "rivals (a hand (the test's))")):
        hiding_game({"players": 3, "information": "perfect"})
    state = played(spiel_game, 60, seed=3)
    g = state.stepped
    hidden_marker = 1 + spiel_game.num_distinct_actions() + spiel_game.max_chance_outcomes()
    table = spiel_game.observation_tensor_size()
    private = [i for i, seen in enumerate(g.seen) if seen >= 0]
    assert private and len(set(g.seen[i] for i in private)) > 1  # several seats turned cards up
    for player in range(3):
        words = state.information_state_string(player).split(": ")[1].split()
        tensor = state.information_state_tensor(player)[table:]
        for i, move in enumerate(g.history):
            shown = g.seen[i] in (-1, player)
            assert words[i] == (str(move) if shown else "?")
            assert (tensor[i] == hidden_marker) == (not shown)
        assert state.observation_string(player) == definition.seat_view.observation_text(g.state, player, g.actor)
    assert len({state.information_state_string(p).split(": ")[1] for p in range(3)}) == 3
    twin = state.resample_from_infostate(1, None)
    assert dealt_again == [1] and twin.history() == state.history()


@pytest.mark.parametrize(("module", "extra", "missing"), [("medici_sim.openspiel", "openspiel", "pyspiel"),
                                                          ("medici_sim.pettingzoo", "rl", "pettingzoo")])
def test_a_missing_extra_is_named_in_one_line(monkeypatch, module, extra, missing):
    monkeypatch.setitem(sys.modules, missing, None)  # import fails as if not installed
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError) as failure:
        importlib.import_module(module)
    assert str(failure.value) == f"{module} needs the {extra} extra: pip install 'medici-sim[{extra}]'"


def test_a_plugin_bot_that_does_not_compile_is_one_line_naming_it_and_its_file(tmp_path):
    """A bot's strategy is compiled when the bot is made (through a strategy table, as a run's): a plug-in numba
    cannot compile is the run's StrategyCompileError, naming the strategy and its file, not numba's KeyError."""
    from medici_sim.core.driver import StrategyCompileError
    from medici_sim.core.plugins import load_plugin

    path = tmp_path / "typo_bot.py"
    path.write_text(
        "from numba import njit\n"
        "from medici_sim.games.card.strategies import Strategy, register\n\n"
        "@njit\n"
        "def reveal_nb(state, seat, params):\n"
        "    return state.no_such_field[seat] > 0\n\n"
        "@njit\n"
        "def take_nb(state, seat, params):\n"
        "    return 0\n\n"
        "register(Strategy(name='typo_bot', decisions={'reveal_nb': reveal_nb, 'take_nb': take_nb}))\n")
    load_plugin(path)
    named = rf"^strategy typo_bot \({re.escape(str(path))}\) does not compile: "
    with pytest.raises(StrategyCompileError, match=named):
        medici_openspiel.BuiltinBot(load("card"), 0, "typo_bot")
