"""Both games as PettingZoo AEC environments and one seat as a Gymnasium environment
(medici_sim.pettingzoo, frameworks.aec_env and .gym_env): the frameworks' own API checks,
action masks, what a seat sees, rendering, and the one-seat environment's rewards."""
from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from medici_sim.pettingzoo import env, raw_env, seat_env


@pytest.mark.filterwarnings("ignore:Observation")  # a dict of observation and mask: PettingZoo's own convention
@pytest.mark.parametrize("game", ["card", "classic"])
def test_the_aec_environment_passes_pettingzoos_api_test(game):
    api_test(env(game=game, players=4), num_cycles=100, verbose_progress=False)


@pytest.mark.parametrize("game", ["card", "classic"])
def test_the_one_seat_environment_passes_gymnasiums_checker(game):
    check_env(seat_env(game=game, players=4, opponents="expert"), skip_render_check=True)


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
    single = seat_env(game="classic", players=4, seat=2, opponents=["value", "expert", "bargain"], reward="florins")
    observation, info = single.reset(seed=0)
    assert single.observation_space.contains(observation)
    done, reward, steps = False, 0.0, 0
    while not done:
        observation, reward, done, _, info = single.step(single.action_space.n - 1)  # bids all it can (C9)
        assert info["replaced"] or steps > 0
        steps += 1
    assert reward == float(single.game.money()[2]) and steps > 5


def test_the_same_seed_plays_the_same_game():
    def play(seed):
        aec = raw_env(game="card", players=4)
        aec.reset(seed=seed)
        for _agent in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            aec.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
        return aec.render()

    assert play(7) == play(7) != play(8)
