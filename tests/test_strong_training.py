"""What every game's ``strong`` player shares (study/strong_training.py, core/evaluation.py):

- training from a fixed seed writes the same file: a short training (seed 4, 2 rollouts, 3
  players) against its reference beside the tests, made by the same command
  (``python scripts/train_strong.py --game GAME --seed 4 --games N --rollouts 2 --players 3
  --out tests/REFERENCE``);
- bad arguments are refused in one line (exit 2 from the script) before any training, and
  nothing is written: the shipped file survives a bad ``--rollouts``;
- each game's beats the expert: 4 players, one strong seat against three experts, rotated, above the
  fair 1/4 by more than 3 standard errors (measured: card about 43%, classic about 56%, Tuscany about 33%).

Each game's own tests (tests/test_strong.py, tests/classic/test_classic_strong.py,
tests/tuscany/test_tuscany_strong.py) prove its
decisions, games and invariants.
"""
from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from medici_sim.cli.common import load_game_components, parse_strategies
from medici_sim.core.arguments import ConfigError
from medici_sim.core.driver import RunConfig, simulate
from medici_sim.core.output import OutputError
from medici_sim.core.registry import get_game
from medici_sim.core.stats import Z95, strategy_frame
from medici_sim.study import strong_training
from medici_sim.study.strong_training import learned_module, train_and_write

# game -> (short training games, its reference file)
SHORT_TRAINING = {"card": (20, "strong_short_training.json"), "classic": (10, "strong_short_training_classic.json"),
                  "tuscany": (2, "strong_short_training_tuscany.json")}
BEATS_EXPERT = ("card", "classic", "tuscany")


@pytest.mark.slow  # it compiles search's rollouts (the labels): a minute cold on 2 cores, as test_search's are
@pytest.mark.parametrize("game", sorted(set(SHORT_TRAINING) - {"tuscany"}))  # Tuscany's: the test after this one
def test_training_from_a_seed_is_reproducible(game, tmp_path):
    """The same games, rollouts and fit. The weights are compared to 1e-9 (they are rounded to
    6 decimals; a machine's linear algebra may differ in the last bits)."""
    games, reference_file = SHORT_TRAINING[game]
    strong = importlib.import_module(f"{get_game(game).registry.package}.strategies.strong")
    written = json.loads(train_and_write(game, 4, games, 2, tmp_path / "w.json", player_counts=(3,)).read_text())
    reference = json.loads((Path(__file__).parent / reference_file).read_text())
    assert {k: v for k, v in written.items() if k != "models"} == {k: v for k, v in reference.items() if k != "models"}
    assert [(m["players"], m["stage"]) for m in written["models"]] == [(3, 0), (3, 1), (3, 2)]
    assert np.allclose([m["weights"] for m in written["models"]], [m["weights"] for m in reference["models"]],
                       rtol=0, atol=1e-9)
    assert written["features"] == list(strong.COLUMNS)


@pytest.mark.slow
def test_training_from_a_seed_is_reproducible_in_processes_side_by_side(tmp_path):
    """Tuscany's short training at 2 and 3 players in two processes (jobs=2): the 3-player models are the
    reference's (written by one process), self-play rounds included (one seat strong, with the model so far)."""
    written = json.loads(train_and_write("tuscany", 4, 2, 2, tmp_path / "w.json", (2, 3), jobs=2).read_text())
    reference = json.loads((Path(__file__).parent / SHORT_TRAINING["tuscany"][1]).read_text())
    assert {k: v for k, v in written.items() if k != "models"} == {k: v for k, v in reference.items() if k != "models"}
    assert [(m["players"], m["stage"]) for m in written["models"]] == [(p, d) for p in (2, 3) for d in range(3)]
    assert np.allclose([m["weights"] for m in written["models"][3:]], [m["weights"] for m in reference["models"]],
                       rtol=0, atol=1e-9)


@pytest.mark.slow
def test_tuscany_s_rollout_value_from_a_seed_is_reproducible(tmp_path):
    """scripts/train_strong_value.py (Tuscany strong's truncated rollouts, data/strong/value.json) on 20 expert games
    a player count from seed 4: the reference's file (tests/strong_value_short_training.json, written by that command
    with ``--out``), its weights to 1e-9 as above."""
    script = Path(__file__).parent.parent / "scripts" / "train_strong_value.py"
    arguments = ["--seed", "4", "--games", "20", "--out", str(tmp_path / "v.json")]
    done = subprocess.run([sys.executable, str(script), *arguments], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    written = json.loads((tmp_path / "v.json").read_text())
    reference = json.loads((Path(__file__).parent / "strong_value_short_training.json").read_text())
    assert {k: v for k, v in written.items() if k != "weights"} == {k: v for k, v in reference.items()
                                                                     if k != "weights"}
    assert written["weights"].keys() == reference["weights"].keys() == {"2", "3", "4"}
    for players, weights in reference["weights"].items():
        assert np.allclose(written["weights"][players], weights, rtol=0, atol=1e-9)


@pytest.mark.slow
def test_training_in_a_fresh_process_fills_search_s_rollout_table(tmp_path):
    """Training calls search's rollouts directly, outside any run seating search: their strategy table must be
    filled first (it segfaulted at address 0 when only a run seating a rollout player filled it)."""
    code = ("import sys; import medici_sim.games; from medici_sim.study.strong_training import train_and_write; "
            "train_and_write('card', 4, 2, 2, sys.argv[1], player_counts=(3,))")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "w.json")], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads((tmp_path / "w.json").read_text())["models"]


@pytest.mark.slow
@pytest.mark.parametrize("game", BEATS_EXPERT)
def test_strong_beats_the_expert(game):
    definition = get_game(game)
    config = RunConfig(components=load_game_components(definition, None), game=game, players=4, games=2000, seed=5,
                       seating="rotate", threads=1, rules=definition.presets[0],
                       strategies=parse_strategies("strong,expert,expert,expert", 4, game))
    row = strategy_frame(simulate(config)).set_index("strategy").loc["strong"]
    assert row.win_rate - 0.25 > 3 * (row.win_rate_ci_high - row.win_rate) / Z95


@pytest.mark.parametrize("game,arguments,error,message", [
    ("card", dict(seed=0, games=300, rollouts=0), ConfigError, "--rollouts must be between 1 and 100000, got 0"),
    ("card", dict(seed=0, games=1, rollouts=8), ConfigError, "--games must be between 2"),  # a game per rule set
    ("classic", dict(seed=-1, games=600, rollouts=8), ConfigError, "--seed must be between 0"),
    # seeds seed, seed + 1, ... for each rule set of each round (the teacher's, then the learned player's)
    ("tuscany", dict(seed=2**63 + 1 - 2 * (learned_module("tuscany").SELF_PLAY_ROUNDS + 1), games=40, rollouts=8),
     ConfigError, "--seed must be between 0 and 2\\*\\*63 less"),
    ("card", dict(seed=0, games=300, rollouts=8, jobs=0), ConfigError, "--jobs must be between 1 and 1024, got 0"),
    ("tuscany", dict(seed=0, games=40, rollouts=8, player_counts=(5,)), ConfigError, "--players must be between 2"),
    ("tuscany", dict(seed=0, games=40, rollouts=8, player_counts=(3,)), ConfigError, "--players 3 trains only"),
    ("classic", dict(seed=0, games=600, rollouts=8, player_counts=(2,)), ConfigError, "--players must be between 3"),
    ("classic", dict(seed=0, games=600, rollouts=8, out=Path("no-such-folder") / "w.json"), OutputError,
     "cannot write in"),
    # the shipped file holds a model for every player count: training some would drop the others
    ("classic", dict(seed=0, games=600, rollouts=8, player_counts=(3,)), ConfigError, "--players 3 trains only"),
    ("card", dict(seed=0, games=300, rollouts=8, player_counts=(2, 4), out=learned_module("card").WEIGHTS_FILE),
     ConfigError, "--players 2, 4 trains only"),
])
def test_bad_training_arguments_are_refused_before_any_training(game, arguments, error, message, monkeypatch):
    shipped = learned_module(game).WEIGHTS_FILE
    before = shipped.read_bytes()

    def trained(*args):  # an argument let through fails here, before it can write the shipped file
        raise AssertionError("the training started")

    monkeypatch.setattr(strong_training, "train", trained)
    with pytest.raises(error, match=message):
        train_and_write(game, **arguments)
    assert shipped.read_bytes() == before


def test_the_training_script_refuses_in_one_line():
    done = subprocess.run([sys.executable, "scripts/train_strong.py", "--game", "classic", "--rollouts", "0"],
                          capture_output=True, text=True, timeout=300, cwd=Path(__file__).parents[1])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "train_strong.py: error: --rollouts must be between 1 and 100000, got 0\n"


@pytest.mark.slow
def test_ctrl_c_in_a_training_side_by_side_ends_every_process_and_writes_nothing(tmp_path):
    """Ctrl-C reaches the whole foreground group: the training processes ignore it, the script ends them and
    says so in one line (exit 130); the weights file is not written."""
    out = tmp_path / "w.json"
    done = subprocess.Popen([sys.executable, "scripts/train_strong.py", "--game", "tuscany", "--games", "2",
                             "--rollouts", "2", "--jobs", "2", "--out", str(out)], cwd=Path(__file__).parents[1],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as a terminal's
    time.sleep(8)  # the two training processes started
    os.killpg(done.pid, signal.SIGINT)
    stdout, stderr = done.communicate(timeout=120)
    assert (done.returncode, stdout, stderr) == (130, "", "train_strong.py: interrupted; nothing written\n")
    assert not out.exists()
    with pytest.raises(ProcessLookupError):  # no process of its group is left (the resource tracker ends last)
        for _ in range(50):
            os.killpg(done.pid, 0)
            time.sleep(0.1)
