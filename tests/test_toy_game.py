"""A third game registered only here (tests/toygame: high card, rules H1-H7) is played,
traced and compared through the command line and the Python API like the games medici-sim
ships, with no line of core/, study/ or cli/ naming it; and no line there names any game."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import toygame
from conftest import run

import medici_sim
from medici_sim.core.registry import GAMES, GAMES_ENV

TESTS = Path(__file__).parent
SOURCE = Path(medici_sim.__file__).parent


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    monkeypatch.setitem(GAMES, toygame.GAME.name, toygame.GAME)
    return toygame.GAME


def test_the_main_command_plays_the_toy_game(capsys, tmp_path):
    out_file = tmp_path / "toy.json"
    code, out, err = run(capsys, "--game", "toy", "-n", "3000", "-p", "3", "-s", "greedy,random,greedy:threshold=9",
                         "--seating", "rotate", "--out", str(out_file), "-q")
    assert code == 0, err
    assert "Per strategy" in out and "greedy:threshold=9" in out
    summary = json.loads(out_file.read_text())["summary"]
    assert summary["game"] == "toy" and summary["games"] == 3000


def test_trace_tells_a_toy_game_as_the_api_does(capsys):
    lineup = "greedy,random,greedy:threshold=3,random"
    code, out, err = run(capsys, "trace", "--game", "toy", "-p", "4", "-s", lineup, "--seating", "random",
                         "--seed", "5", "--index", "7", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    report = medici_sim.trace(7, game="toy", players=4, strategies=lineup, seating="random", seed=5)
    assert data == report.data and data["game"] == "toy" and len(data["rounds"]) == 3
    code, text, err = run(capsys, "trace", "--game", "toy", "-p", "4", "-s", lineup, "--seating", "random",
                          "--seed", "5", "--index", "7")
    assert code == 0 and text == report.text


def test_compare_ranks_the_toy_games_strategies(capsys):
    code, out, err = run(capsys, "compare", "--game", "toy", "-n", "2000", "-p", "2,3", "-q")
    assert code == 0, err
    assert "Bradley-Terry ratings" in out and "greedy" in out and "random" in out
    report = medici_sim.compare(2000, game="toy", players="2,3")
    assert set(report.strategies["strategy"]) == {"greedy", "random"}
    assert list(report.strategies["players"].unique()) == [2, 3]


def test_the_api_plays_the_toy_game_as_the_command_line_does(capsys, tmp_path):
    out_file = tmp_path / "toy.json"
    code, _, err = run(capsys, "--game", "toy", "-n", "500", "-p", "2", "-s", "greedy,random", "--seed", "3",
                       "--out", str(out_file), "-q")
    assert code == 0, err
    report = medici_sim.simulate(500, game="toy", players=2, strategies="greedy,random", seed=3)
    counted = ["seat", "strategy", "games", "outright_wins", "shared_wins", "mean_score"]
    assert pd.DataFrame(json.loads(out_file.read_text())["seats"])[counted].equals(report.seats[counted])
    assert list(medici_sim.strategies("toy")["strategy"]) == ["random", "greedy"]


def test_bad_input_names_the_toy_games_own_limits(capsys):
    code, _, err = run(capsys, "--game", "toy", "-p", "5", "-n", "10")
    assert code == 2 and "between 2 and 4 in the toy game" in err
    code, _, err = run(capsys, "balance", "--game", "toy", "-n", "10")
    assert code == 2 and "the toy game has no variants to compare" in err and "use compare --game toy" in err
    with pytest.raises(ValueError, match="game='toy'"):
        medici_sim.balance(10, game="toy")


def test_a_game_without_a_table_is_not_offered_to_play(capsys):
    code, _, err = run(capsys, "play", "--game", "toy", "--seed", "1")
    assert code == 2 and "the toy game has no table to play at" in err and err.count("\n") == 1


@pytest.mark.slow  # a process of its own, compiling the toy game's kernels (8 s)
def test_a_process_registers_the_toy_game_from_the_environment():
    env = {**os.environ, GAMES_ENV: "toygame",
           "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "medici_sim", "--game", "toy", "-n", "200", "-q"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "Per seat" in done.stdout
    env[GAMES_ENV] = "no_such_game_module"
    done = subprocess.run([sys.executable, "-c", "import medici_sim.games"], capture_output=True, text=True, env=env)
    assert done.returncode != 0 and f"{GAMES_ENV} names 'no_such_game_module'" in done.stderr
    done = subprocess.run([sys.executable, "-m", "medici_sim", "-n", "10"], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.startswith(f"medici-sim: error: {GAMES_ENV} names 'no_such_game_module'")
    assert done.stderr.count("\n") == 1


def test_no_code_outside_games_names_a_game():
    """core/, study/, cli/ and the API know the games by their registrations only; the
    commands and studies do not even name a game's rules (balance compares a game's
    ``balance_rules``)."""
    names = re.compile(r"""["'](card|classic)["']|games\.(card|classic)\b""")
    rules = re.compile(r"\bbonus20\b")
    front = [*(SOURCE / "cli").glob("*.py"), *(SOURCE / "study").glob("*.py")]
    owners = [(path, names) for path in [SOURCE / "api.py", *(SOURCE / "core").glob("*.py")]]
    owners += [(path, re.compile(f"{names.pattern}|{rules.pattern}")) for path in front]
    found = [f"{path.relative_to(SOURCE)}:{n}: {line.strip()}" for path, pattern in owners
             for n, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert not found, "\n".join(found)


def test_a_game_without_a_seat_view_says_so_where_one_is_needed():
    """The toy game declares no framework facts (Game.no_framework): Python agents are refused with its
    reason, in one line, and the frameworks leave it out by its declaration, not by a missing file."""
    from medici_sim.frameworks.stepper import offered

    assert not offered(toygame.GAME)
    assert all(offered(g) == (g.framework is not None) for name, g in GAMES.items() if name != "toy")
    with pytest.raises(ValueError, match="the toy game cannot seat Python agents: high card declares no seat view"):
        medici_sim.tournament([lambda decision: decision.legal_actions[0], "greedy"], 10, game="toy", players=2)


def test_balance_names_why_a_game_has_no_rule_sets_to_compare(capsys):
    code, _, err = run(capsys, "balance", "--game", "toy", "-n", "10")
    assert code == 2 and "(high card has one rule set (H1-H7))" in err and err.count("\n") == 1


def test_every_command_and_function_plays_the_games_usual_player_count(capsys, tmp_path):
    """Without a player count, every command and API function plays the game's own usual
    count (the toy game's is 3), not a number written into the front doors."""
    assert toygame.GAME.default_players == 3
    code, _, err = run(capsys, "--game", "toy", "-n", "200", "-q", "--out", str(tmp_path / "run.json"))
    assert code == 0 and json.loads((tmp_path / "run.json").read_text())["summary"]["players"] == 3, err
    assert medici_sim.simulate(200, game="toy").summary["players"] == 3
    assert medici_sim.trace(1, game="toy").data["players"] == 3
    code, out, err = run(capsys, "trace", "--game", "toy", "--format", "json")
    assert code == 0 and json.loads(out)["players"] == 3, err
    assert set(medici_sim.tournament(["random", "greedy"], 60, game="toy").strategies["players"]) == {3}
