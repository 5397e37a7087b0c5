"""The Castles of Tuscany in the game-AI frameworks and through the commands (its framework facts, stepping,
trace and table, registered): OpenSpiel sees an imperfect-information game with a per-player information
state, PettingZoo passes its API test, and the conformance checks a seat's view and ``random`` on it."""
from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

import medici_sim.openspiel  # noqa: F401  (registers the games with OpenSpiel)
from medici_sim.core.registry import get_game
from medici_sim.frameworks.builtins import BuiltinPlayer
from medici_sim.frameworks.stepper import engine
from medici_sim.pettingzoo import env


def test_openspiel_sees_imperfect_information_and_a_per_player_information_state():
    game = pyspiel.load_game("medici_tuscany", {"players": 2})
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state, generator = game.new_initial_state(), np.random.default_rng(1)
    differ = False
    while not state.is_terminal():
        assert not state.is_chance_node()  # the engine's draws stay its own
        state.apply_action(int(generator.choice(state.legal_actions())))
        differ |= state.information_state_string(0) != state.information_state_string(1)
        if len(state.history()) > 150:
            break
    assert differ
    observation = state.observation_string(0)
    assert "seat 1's estate (yours)" in observation and max(map(len, observation.splitlines())) <= 100


def test_openspiels_random_sim_test_passes():
    pyspiel.random_sim_test(pyspiel.load_game("medici_tuscany", {"players": 2}), num_sims=1, serialize=False,
                            verbose=False)


@pytest.mark.filterwarnings("ignore:Observation")
def test_the_aec_environment_passes_pettingzoos_api_test():
    api_test(env(game="tuscany", players=3), num_cycles=60, verbose_progress=False)


def test_random_decides_only_on_what_its_seat_sees():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "conformance"))
    from test_what_a_seat_sees import decides_on_what_it_sees

    game = get_game("tuscany")
    player = BuiltinPlayer(engine("tuscany", 3, game.presets[0]), "random")
    assert decides_on_what_it_sees(game, player, games=1, most_decisions=150) > 0
