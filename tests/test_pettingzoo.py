"""Both games as PettingZoo AEC environments and one seat as a Gymnasium environment
(medici_sim.pettingzoo, frameworks.aec_env and .gym_env): the frameworks' own API checks,
action masks, what a seat sees, rendering, the one-seat environment's rewards, illegal and
late steps, pickling, Gymnasium's registry."""
from __future__ import annotations

import copy
import pickle

import gymnasium
import numpy as np
import pytest
from conftest import assert_same_record, traced_game
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from medici_sim.frameworks.builtins import BuiltinPlayer
from medici_sim.pettingzoo import GYMNASIUM_IDS, env, raw_env, seat_env


@pytest.mark.filterwarnings("ignore:Observation")  # a dict of observation and mask: PettingZoo's own convention
@pytest.mark.parametrize("game", ["card", "classic"])
def test_the_aec_environment_passes_pettingzoos_api_test(game):
    api_test(env(game=game, players=4), num_cycles=100, verbose_progress=False)


@pytest.mark.parametrize("game", ["card", "classic"])
def test_the_one_seat_environment_passes_gymnasiums_checker(game):
    check_env(seat_env(game=game, players=4, opponents="expert"), skip_render_check=True)


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("game", ["card", "classic"])
def test_the_aec_environment_passes_pettingzoos_seed_test(game):
    seed_test(lambda: env(game=game, players=3), num_cycles=50)


@pytest.mark.parametrize("game", ["card", "classic"])
def test_the_registered_environment_has_a_spec_and_passes_the_checker_with_every_render_mode(game, capsys):
    made = gymnasium.make(f"medici_sim/Medici{game.title()}-v0", players=3, opponents="greedy" if game == "card"
                          else "value")
    assert made.spec.id in GYMNASIUM_IDS and made.spec.kwargs["game"] == game
    check_env(made.unwrapped)  # with its spec: the render modes declared (ansi, human) are made and rendered too
    single = seat_env(game=game, players=3, seat=1)
    again = gymnasium.make(single.spec)  # seat_env's own spec makes the same environment
    assert again.unwrapped.seat == 1 and again.unwrapped.engine is single.engine


def test_render_modes_are_declared_human_prints_and_others_are_refused(capsys):
    single = seat_env(game="card", players=3, render_mode="human")
    single.reset(seed=0)
    assert single.render() is None and "you are seat 1" in capsys.readouterr().out
    aec = raw_env(game="card", players=3, render_mode="human")
    aec.reset(seed=0)
    aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    assert "seat_1:" in capsys.readouterr().out
    for make in (seat_env, raw_env):
        with pytest.raises(ValueError, match="render_mode must be one of ansi, human"):
            make(game="card", players=3, render_mode="rgb_array")


def test_a_step_after_the_end_or_before_reset_asks_for_reset():
    single = seat_env(game="card", players=3, opponents="greedy")
    with pytest.raises(ResetNeeded, match="call reset"):
        single.step(0)
    single.reset(seed=2)
    done = False
    while not done:
        _, _, done, _, _ = single.step(int(np.flatnonzero(single.action_masks())[0]))
    assert not single.action_masks().any()
    with pytest.raises(ResetNeeded, match="the game is over: call reset"):
        single.step(0)


def test_an_action_outside_the_space_is_refused_and_an_illegal_one_replaced_or_refused():
    single = seat_env(game="card", players=3, opponents="greedy")
    single.reset(seed=0)
    for wrong in (999, -1):
        with pytest.raises(ValueError, match=f"action {wrong} is not an action id of the card game \\(0 to 5\\)"):
            single.step(wrong)
    strict = seat_env(game="card", players=3, opponents="greedy", illegal="refuse")
    strict.reset(seed=0)
    illegal = int(np.flatnonzero(~strict.action_masks())[0])
    with pytest.raises(ValueError, match=f"action {illegal} is not legal here \\(legal: 0, 1"):
        strict.step(illegal)
    *_, info = single.step(illegal)
    assert info["replaced"]
    aec = raw_env(game="card", players=3)
    aec.reset(seed=0)
    with pytest.raises(ValueError, match="seat_1: action 5 is not legal here"):
        aec.step(5)


def test_action_masks_are_the_legal_actions_for_maskable_ppo():
    single = seat_env(game="classic", players=4)
    _, info = single.reset(seed=4)
    mask = single.action_masks()
    assert mask.dtype == bool and (mask == info["action_mask"].astype(bool)).all()
    assert sorted(np.flatnonzero(mask)) == single.game.legal_actions()


def _finish(environment, aec: bool) -> list:
    """Play to the end with the first legal action; what was seen."""
    seen = []
    if aec:
        for _agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            seen.append((observation["observation"].tolist(), reward))
            environment.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
        return seen
    done = False
    while not done:
        observation, reward, done, _, _ = environment.step(int(np.flatnonzero(environment.action_masks())[0]))
        seen.append((observation.tolist(), reward))
    return seen


@pytest.mark.parametrize("game", ["card", "classic"])
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_an_environment_in_play_pickles_and_copies_and_plays_on_the_same(game, how):
    twin = (lambda e: pickle.loads(pickle.dumps(e))) if how == "pickle" else copy.deepcopy
    for aec in (True, False):
        environment = env(game=game, players=3) if aec else seat_env(game=game, players=3, opponents="random")
        environment.reset(seed=5)
        for _ in range(3):  # a few moves in, chance nodes and the generator's state included
            if aec:
                environment.step(int(np.flatnonzero(environment.observe(environment.agent_selection)
                                                    ["action_mask"])[0]))
            else:
                environment.step(int(np.flatnonzero(environment.action_masks())[0]))
        copied = twin(environment)
        assert _finish(copied, aec) == _finish(environment, aec)


def test_returns_is_one_name_with_one_default_and_reward_still_works_with_a_warning():
    single = seat_env(game="card", players=3, opponents="greedy")
    single.reset(seed=1)
    florins = _finish(single, False)[-1][1]
    assert single.returns_kind == raw_env(game="card", players=3).returns_kind == "florins"
    assert florins == float(single.game.scores()[0])
    with pytest.warns(DeprecationWarning, match="reward= is now returns="):
        old = seat_env(game="card", players=3, opponents="greedy", reward="wins")
    assert old.returns_kind == "wins"
    with pytest.raises(ValueError, match="give returns= alone"):
        seat_env(game="card", players=3, returns="wins", reward="florins")


@pytest.mark.parametrize("game", ["card", "classic"])
def test_each_agent_observes_only_what_its_seat_sees(game):
    """An agent's observation is the game's seat view for its seat (framework facts): dealing
    again what the game declares hidden from that seat (the deck's order, R7, R20, C5:
    Hidden.redeal) changes neither its observation nor its mask."""
    aec = raw_env(game=game, players=4)
    aec.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    hidden = aec.engine.information.hidden
    assert hidden
    for seat, agent in enumerate(aec.agents):
        before = aec.observe(agent)
        for thing in hidden:
            thing.redeal(aec.game.state, seat, rng)
        after = aec.observe(agent)
        np.testing.assert_array_equal(after["observation"], before["observation"])
        np.testing.assert_array_equal(after["action_mask"], before["action_mask"])


@pytest.mark.parametrize("game", ["card", "classic"])
def test_a_whole_game_with_masks_rewards_and_the_told_game(game):
    aec = raw_env(game=game, players=3, returns="wins")
    aec.reset(seed=3)
    rng = np.random.default_rng(0)
    paid = 0.0
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            paid += reward
            aec.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.sum() >= 1 and observation["observation"].dtype == np.float32
        others = [aec.observe(a)["action_mask"].sum() for a in aec.agents if a != agent]
        assert others == [0] * 2  # only the seat to decide has legal actions
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    told = aec.render()
    assert "turn up card" in told and "seat_1:" in told
    assert paid == pytest.approx(1.0)  # R22, C18: one win, shared when tied


def test_the_one_seat_environment_replaces_an_illegal_action_and_pays_at_the_end():
    single = seat_env(game="classic", players=4, seat=2, opponents=["value", "expert", "bargain"], returns="florins")
    observation, info = single.reset(seed=0)
    assert single.observation_space.contains(observation)
    done, reward, steps = False, 0.0, 0
    while not done:
        observation, reward, done, _, info = single.step(single.action_space.n - 1)  # bids all it can (C9)
        assert info["replaced"] or steps > 0
        steps += 1
    assert reward == float(single.game.scores()[2]) and steps > 5


def test_the_same_seed_plays_the_same_game():
    def play(seed):
        aec = raw_env(game="card", players=4)
        aec.reset(seed=seed)
        for _agent in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            aec.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
        return aec.render()

    assert play(7) == play(7) != play(8)


# rules under which the rulebook's bounds are wrong: 200 florins to bid (C4, C9), more days and bonuses (R18, R22)
OTHER_RULES = {"card": "days=5,big_bonus_min=6,big_bonus=100,ship_capacity=12", "classic": "starting_money=200,days=4"}


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("game", ["card", "classic"])
def test_spaces_follow_the_rules_in_force_and_both_checkers_pass_under_them(game):
    """The action ids and the observation's bound come from the rules in force, as OpenSpiel's
    game reads them (seat_view.action_count, most_score): with 200 florins a classic bid of 200
    has an action id; every observation of whole games lies in the space."""
    import pyspiel

    import medici_sim.openspiel  # noqa: F401

    rules = OTHER_RULES[game]
    spiel_game = pyspiel.load_game(f"medici_{game}", {"players": 3, "rules": rules.replace("=", ":").replace(",", ";")})
    single = seat_env(game=game, players=3, rules=rules, opponents="random")
    aec = raw_env(game=game, players=3, rules=rules)
    assert single.action_space.n == aec.action_space("seat_1").n == spiel_game.num_distinct_actions()
    assert single.observation_space.high.max() >= spiel_game.max_utility()
    api_test(env(game=game, players=3, rules=rules), num_cycles=100, verbose_progress=False)
    check_env(seat_env(game=game, players=3, rules=rules, opponents="expert"), skip_render_check=True)
    for seed in range(3):
        observation, _ = single.reset(seed=seed)
        done = False
        while not done:
            assert single.observation_space.contains(observation)
            legal = np.flatnonzero(single.action_masks())
            observation, _, done, _, _ = single.step(int(legal[-1]))  # the highest: bids all it holds (C9)
        assert single.observation_space.contains(observation)


def test_a_classic_bid_above_the_rulebooks_bound_is_an_action_under_richer_rules():
    """With 500 florins to start and majorities paying 60/30 (C4, C15), a seat comes to hold more
    than the rulebook's most money (the old fixed action ids ended at a bid of 580) and may bid it
    all (C9): the id is in the action space and the mask, and the bid is played, refused nowhere."""
    old_last_bid = 580
    single = seat_env(game="classic", players=3, rules="starting_money=500,majority_payouts=60/30", opponents="value",
                      illegal="refuse")
    single.reset(seed=1)
    while np.flatnonzero(single.action_masks()).max() <= 2 + old_last_bid:
        single.step(int(np.flatnonzero(single.action_masks())[0]))
    bid = int(np.flatnonzero(single.action_masks()).max())
    assert single.action_space.contains(bid) and bid - 2 == single.game.scores()[0]
    *_, info = single.step(bid)
    assert not info["replaced"] and bid in single.game.history


REPLAYED = {"card": ["expert", "random", "greedy"], "classic": ["expert", "random", "value"]}


@pytest.mark.parametrize("game", ["card", "classic"])
def test_a_runs_game_is_the_kernels_game_with_built_ins_and_an_agent_playing_as_one(game):
    """reset(options={"run_seed", "game_index"}) plays one of a run's games: with the engine's
    own draws at the chance nodes, the seat_env's other seats deciding on the game's own record
    (expert's scratch kept, random drawing from the game's generator) and the agent playing as a
    built-in would (on the same record), every game is trace's game for that seed, game and
    lineup, record for record: each of expert, random and a heuristic at every seat of 3-player
    games; the AEC environment with every agent playing so too."""
    strategies = REPLAYED[game]
    for shift in range(3):
        lineup = strategies[shift:] + strategies[:shift]
        seed, index = 11 + shift, shift
        kernel = traced_game(game, lineup, index, seed)
        for seat in range(3):
            single = seat_env(game=game, players=3, seat=seat, opponents=lineup[:seat] + lineup[seat + 1:])
            me = BuiltinPlayer(single.engine, lineup[seat])
            single.reset(seed=99, options={"run_seed": seed, "game_index": index})
            done, reward = False, 0.0
            while not done:
                _, reward, done, _, _ = single.step(me.action(single.game))
            assert_same_record(single.game.state, kernel, (lineup, seat))
            assert reward == float(kernel[single.engine.view.SCORE][seat])
        aec = raw_env(game=game, players=3)
        players = [BuiltinPlayer(aec.engine, name) for name in lineup]
        aec.reset(options={"run_seed": seed, "game_index": index})
        for _agent in aec.agent_iter():
            _, _, terminated, truncated, _ = aec.last()
            aec.step(None if terminated or truncated else players[aec.game.actor].action(aec.game))
        assert_same_record(aec.game.state, kernel, (lineup, "aec"))
    with pytest.raises(ValueError, match="reset: option game_index must be a whole number"):
        single.reset(options={"game_index": -1})


@pytest.mark.parametrize("make", [env, seat_env])
def test_bad_arguments_are_refused_naming_the_environments_arguments(make):
    # players=0 was 4 players, silently; messages named the command line's --players and --rules
    for kwargs, message in [({"players": 0}, "players= must be between 2 and 6"),
                            ({"players": 4.5}, "players= must be a whole number"),
                            ({"rules": ""}, "rules=: an empty value"),
                            ({"rules": "days=0"}, "rules=: days=0 is out of range"),
                            ({"game": "chess"}, "game= must be one of")]:
        with pytest.raises(ValueError, match=f"^{message}"):  # ConfigError, UnknownGame
            make(game=kwargs.pop("game", "card"), **kwargs)


def test_the_opponents_and_the_seat_are_checked_and_named():
    """A comma list of opponents was refused as '--strategies: 4 players need 1 or 4 strategies,
    got 3', None was a TypeError (now: the game's strongest heuristic, its last built-in), and seat=1.5 or True
    was taken."""
    single = seat_env(game="card", players=4, opponents="expert,random,greedy:take_min=3")
    assert single.opponents == ["expert", "random", "greedy:take_min=3"]
    assert seat_env(game="card", players=4, opponents=["greedy"]).opponents == ["greedy"] * 3
    assert seat_env(game="card", players=4, opponents=None).opponents == ["expert"] * 3
    for opponents, message in [(5, "opponents= must be"), ([1, 2, 3], "opponents=: each name must be a str"),
                               (["expert", "random"], "opponents=: 4 players need 1 or 3 opponents, got 2")]:
        with pytest.raises(ValueError, match=f"^{message}"):
            seat_env(game="card", players=4, opponents=opponents)
    for seat in (1.5, True, "1", 4):
        with pytest.raises(ValueError, match="^seat must be a whole number from 0 to 3"):
            seat_env(game="card", players=4, seat=seat)
