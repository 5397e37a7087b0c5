"""The Python API: the command line's runs as functions, with the same numbers and errors."""
from __future__ import annotations

import html
import inspect
import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import run

import medici_sim


def test_the_api_is_curated():
    for name in medici_sim.__all__:
        assert hasattr(medici_sim, name), name
    for name in ("simulate", "compare", "balance", "strategies", "list_games"):
        assert getattr(medici_sim, name).__doc__


def test_simulate_gives_the_command_lines_tables(capsys, tmp_path):
    options = dict(games=4000, players=4, strategies="expert,random,greedy,cautious", seating="rotate", seed=3)
    report = medici_sim.simulate(**options, threads=1)
    out = tmp_path / "r.json"
    code, _, err = run(capsys, "-n", "4000", "-p", "4", "-s", "expert,random,greedy,cautious", "--seating",
                       "rotate", "--seed", "3", "-q", "--out", str(out))
    assert code == 0, err
    document = json.loads(out.read_text())
    pd.testing.assert_frame_equal(report.seats, pd.DataFrame(document["seats"]), check_dtype=False)
    pd.testing.assert_frame_equal(report.strategies, pd.DataFrame(document["strategies"]), check_dtype=False)
    assert report.summary["games"] == 4000
    # the thread count never changes a result (R25)
    again = medici_sim.simulate(**options, threads=2)
    pd.testing.assert_frame_equal(report.seats, again.seats)


def test_a_run_without_strategies_plays_the_games_first_built_in(monkeypatch):
    """simulate, trace and the commands play the game's baseline (its first built-in) at every seat when no
    strategies are given, not a name written into the API: a game whose first built-in is another plays that."""
    from dataclasses import replace

    from medici_sim.core import registry
    from medici_sim.core.specs import run_config

    options = dict(players=3, games=1, seed=0, rules=None, seating="fixed", threads=1, components=None)
    assert [s.name for s in run_config(game="card", strategies=None, **options).strategies] == ["random"] * 3
    card = registry.GAMES["card"]
    monkeypatch.setitem(registry.GAMES, "card", replace(card, built_ins=("greedy", *card.built_ins)))
    assert [s.name for s in run_config(game="card", strategies=None, **options).strategies] == ["greedy"] * 3
    for function in (medici_sim.simulate, medici_sim.trace):
        assert inspect.signature(function).parameters["strategies"].default is None


def test_simulate_plays_the_classic_game():
    report = medici_sim.simulate(3000, game="classic", players=3, strategies=["random"] * 3, seating="rotate")
    assert report.summary["game"] == "classic" and report.summary["games"] == 3000
    assert {"mean_spent", "price_per_card"} <= set(report.seats.columns)


def test_compare_and_balance_return_their_tables():
    report = medici_sim.compare(1200, players=[2, 3], strategies=["random", "greedy", "expert"], seed=4)
    assert set(report.strategies["players"]) == {2, 3}
    assert list(report.ratings.columns)[:2] == ["players", "strategy"]
    assert report.summary["partial"] is False
    balance = medici_sim.balance(1200, players=3, strategies="random,expert", seed=4)
    assert set(balance.rules["rules"]) == {"standard", "bonus20"}
    assert balance.verdict.startswith("With 3 players") and balance.summary["verdict"] == balance.verdict


@pytest.mark.parametrize("call,message", [
    (lambda: medici_sim.simulate(10, players=9), "players= must be between 2 and 6"),
    (lambda: medici_sim.simulate(10, game="classic", players=2), "between 3 and 6"),
    (lambda: medici_sim.simulate(10, strategies="nobody"), "unknown strategy 'nobody'"),
    (lambda: medici_sim.simulate(0), "games= must be between"),
    (lambda: medici_sim.simulate(10, components="no/such/deck.csv"), "no such file, and no shipped deck"),
    (lambda: medici_sim.compare(100, strategies="random"), "at least two different strategies"),
    (lambda: medici_sim.balance(100, game="classic"), "no variants"),
    (lambda: medici_sim.simulate(10, game="chess"), "game= must be one of card, classic, tuscany, got 'chess'"),
    # the study's own checks name the API's arguments too, never the command line's options
    (lambda: medici_sim.compare(10**9, players=2, strategies="random,greedy", precision=1e-9),
     r"^precision= 1e-09: could need more games"),
    (lambda: medici_sim.balance(100, game="classic"), r"use compare game='classic'\)$"),
])
def test_errors_are_exceptions_not_exits(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_strategies_lists_each_games_strategies():
    card = medici_sim.strategies()
    assert "expert" in set(card["strategy"]) and card["summary"].str.len().min() > 0
    classic = medici_sim.strategies("classic")
    assert "random" in set(classic["strategy"])
    assert medici_sim.list_games() == ["card", "classic", "tuscany"]


# Every argument of every API function, with bad values of each kind: the wrong type (a str for
# a number, a float or bool for a whole number, a number for a name, one value for a list, a
# list of the wrong things), an empty value, and a value out of range. Each is refused before
# any game with the command line's check, naming the argument as the API does (``games=``).
WHOLE = ["10", 10.5, True, None, [10]]
NAMES = [5, [5], b"random", "", " "]
FILES = [5, [5], b"x.csv", ""]
BAD = {
    "games": WHOLE + [0, -1, 10**16],
    "index": WHOLE + [-1, 10**15],
    "seed": WHOLE + [-1, 2**63],
    "threads": ["2", 2.0, True, [2], 0, 1025],
    "evaluations": WHOLE + [0],
    "games_per_eval": WHOLE + [0],
    "fresh_games": WHOLE + [0],
    "popsize": ["8", 8.0, True, [8], 1, 1001],
    "game": [3, ["card"], "", "chess"],
    "players": [4.0, "4", True, 9, 1, [3, 4.0], []],  # None is every function's: the game's usual count
    "strategies": NAMES,
    "strategy": NAMES + [None],
    "against": NAMES + [None],
    "variant": [5, ["standard"], "", "bonus30"],  # keep: old name
    "rules": [5, ["standard"], "", "bonus30", "days=0"],
    "rule": [5, [5], "", "nonsense=1..2", "ship_payouts[9]=0..3", "big_bonus=0..40"],
    "target": [5, "", "nobody=0.5"],
    "trials": WHOLE + [0],
    "vs": [5, ["bonus20"], "", "bonus30"],
    "seating": [None, 5, "", "sideways"],
    "components": FILES,
    "plugins": FILES + [[""], [None]],
    "precision": ["0.1", True, [0.1], 0, 0.5, -0.1, math.nan],
    "tuned": FILES,
}
STUDY_PLAYERS = [3.5, [3, 4.0], [3, "4"], [], True, 9, "3,x"]  # compare, balance, tune: all, counts
API = {"simulate": {}, "compare": {}, "balance": {}, "tune": {"strategy": "expert"}, "trace": {}, "strategies": {},
       "sweep": {"rule": "bonus=10..20:10", "games": 10}, "design": {"rule": "bonus=10..20:10", "games": 10},
       "rules": {}}
WRONG_TYPES_ONLY = {"strategies": {"strategies": NAMES[:3]}}  # the listing's one argument is game


def _calls():
    for function, required in API.items():
        for name, parameter in inspect.signature(getattr(medici_sim, function)).parameters.items():
            values = BAD[name]
            if name == "players" and function in ("compare", "balance", "tune", "sweep", "design"):
                values = STUDY_PLAYERS
            for value in values:
                if function == "strategies" or name in required or parameter.kind is parameter.KEYWORD_ONLY \
                        or name in ("games", "index"):
                    yield pytest.param(function, {**required, name: value}, name, id=f"{function}-{name}={value!r}")


@pytest.mark.parametrize("function,arguments,name", list(_calls()))
def test_every_argument_is_checked_as_the_command_line_checks_it(function, arguments, name):
    with pytest.raises(ValueError) as error:
        getattr(medici_sim, function)(**arguments)
    message = str(error.value)
    assert f"{name}=" in message and "--" not in message, message


def test_every_argument_of_every_function_has_bad_values():
    for function in API:
        assert set(inspect.signature(getattr(medici_sim, function)).parameters) <= set(BAD), function


def test_a_lone_file_is_a_list_of_one_and_paths_are_file_names(tmp_path):
    """``plugins="x.py"`` is the file x.py (not x, ., p, y); pathlib paths are file names."""
    with pytest.raises(medici_sim.PluginError, match="plugins= x.py: cannot read"):
        medici_sim.simulate(10, plugins="x.py")
    with pytest.raises(medici_sim.ComponentsError, match="no/such/deck.csv"):
        medici_sim.simulate(10, components=Path("no/such/deck.csv"))
    with pytest.raises(medici_sim.OutputError, match="tuned= no/such.json: cannot read"):
        medici_sim.balance(10, tuned=Path("no/such.json"))


def test_deck_is_components_by_its_older_name():
    """components= was deck=: the older keyword still plays the same games, its messages name it as given, and
    giving both is refused; DeckError is ComponentsError."""
    old = medici_sim.simulate(50, players=3, seed=2, threads=1, deck="95-goods")  # keep: old name
    new = medici_sim.simulate(50, players=3, seed=2, threads=1, components="95-goods")
    pd.testing.assert_frame_equal(old.seats, new.seats)
    assert old.summary["deck"] == new.summary["deck"] and old.summary["deck"].startswith("95-goods")
    with pytest.raises(medici_sim.ConfigError, match="^deck= must be a file name"):
        medici_sim.simulate(10, deck=5)  # keep: old name
    with pytest.raises(medici_sim.ConfigError, match="^components= must be a file name"):
        medici_sim.simulate(10, components=5)
    with pytest.raises(medici_sim.ConfigError, match="components= and deck= are one argument"):
        medici_sim.simulate(10, components="default", deck="default")  # keep: old name
    assert medici_sim.DeckError is medici_sim.ComponentsError  # keep: old name


def test_trace_tells_the_command_lines_game(capsys):
    report = medici_sim.trace(7, strategies=["expert", "greedy", "random", "collector"], seed=1, seating="rotate")
    args = ["trace", "--index", "7", "-s", "expert,greedy,random,collector", "--seed", "1", "--seating", "rotate"]
    code, out, err = run(capsys, *args, "--wide")  # the command wraps lines to the terminal unless --wide
    assert code == 0, err
    assert report.text == str(report) == out
    code, out, err = run(capsys, *args, "--format", "json")
    assert code == 0, err
    assert json.loads(out) == json.loads(json.dumps(report.data))


def test_every_answer_shows_as_html_in_a_notebook():
    report = medici_sim.simulate(2000, strategies="expert,random,random,random", seating="rotate")
    page = report._repr_html_()
    assert page.startswith("<h3>medici_sim.RunReport</h3>")
    for part in ("<h4>seats</h4>", "<h4>strategies</h4>", "<h4>summary</h4>", "<h4>metrics</h4>", "games_per_second",
                 "expert"):
        assert part in page
    assert page.count("<table") == 4 and "totals" not in page and not hasattr(report, "totals")
    trace = medici_sim.trace(0, players=3)
    page = trace._repr_html_()
    assert "<pre>" in page and "<h4>data</h4>" not in page and html.escape(trace.text.splitlines()[0]) in page


def test_numpy_integers_are_whole_numbers_and_runs_keep_ints():
    """Whatever int type was given, a run holds ints (its summary is JSON as the command line's)."""
    report = medici_sim.simulate(np.int64(300), players=np.int32(3), seed=np.uint8(4), threads=np.int16(1))
    assert json.loads(json.dumps(report.summary))["games"] == 300
    assert all(type(report.summary[key]) is int for key in ("games_requested", "players", "seed", "threads"))


# ---------------------------------------------------------------- the API's own words, and resuming through it

def test_a_file_that_is_no_tune_file_is_named_as_the_api_names_it(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(medici_sim.ConfigError, match=r"^tuned= .*bad\.json: not a file written by medici-sim tune "
                                                     r"--out FILE\.json \(no tuned table\)$"):
        medici_sim.balance(100, tuned=bad)
    code, _, err = run(capsys, "balance", "-n", "100", "--tuned", str(bad))
    assert code == 2 and "--tuned " in err and ": not a file written by tune --out FILE.json (no tuned table)" in err


def test_a_plugin_that_fails_to_load_points_at_the_trace_as_the_caller_finds_it(capsys, tmp_path):
    broken = tmp_path / "broken_plugin_for_api.py"
    broken.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(medici_sim.PluginError, match=r"^plugins= .*: cannot load it: RuntimeError: boom "
                                                     r"\(its __cause__ holds the full trace\)$"):
        medici_sim.simulate(10, plugins=broken)
    code, _, err = run(capsys, "--games", "10", "--plugin", str(broken))
    assert code == 2 and "cannot load it: RuntimeError: boom (--debug shows the full trace)" in err


def test_requests_resume_a_checkpoint_and_name_the_apis_arguments(capsys, tmp_path):
    """The API builds a resumed run from its checkpoint (the command line only asks); the options
    given with it are checked against it, and a refusal names them as the API does."""
    from medici_sim.api import RunRequest, StudyRequest, TuneRequest
    from medici_sim.core.arguments import naming
    from medici_sim.core.checkpoint import CheckpointError

    saved = tmp_path / "run.json"
    code, _, err = run(capsys, "-n", "300", "-p", "3", "--seed", "3", "-q", "--checkpoint", str(saved))
    assert code == 0, err
    config, done = RunRequest(seed=5, resume=saved).start()  # seed not given: the checkpoint's
    assert (config.games, config.players, config.seed, done.games) == (300, 3, 3, 300)
    shown = re.escape(str(saved))
    with naming(api=True), pytest.raises(CheckpointError,
                                         match=rf"^resume= {shown}: seed= 5 disagrees with the checkpoint \(seed 3\)$"):
        RunRequest(seed=5, resume=saved, given=frozenset({"seed"})).start()
    with pytest.raises(CheckpointError, match=rf"^--resume {shown}: --seed 5 disagrees with the checkpoint"):
        RunRequest(seed=5, resume=saved, given=frozenset({"seed"})).start()
    broken = tmp_path / "broken.json"
    broken.write_text(saved.read_text()[:-20])
    with naming(api=True), pytest.raises(CheckpointError, match=r"^resume= .*broken\.json: "):
        RunRequest(resume=broken).start()

    study = tmp_path / "balance.json"
    code, _, err = run(capsys, "balance", "-n", "60", "-p", "3", "-s", "random,greedy", "-q", "--checkpoint",
                       str(study))
    assert code == 0, err
    resumed, tournaments = StudyRequest("balance", resume=study).start()
    assert resumed.counts == (3,) and sum(t.games for t in tournaments) == 120
    with naming(api=True), pytest.raises(CheckpointError, match=r"^resume= .*: its run played no tuned parameters; "
                                                                r"leave out tuned=$"):
        StudyRequest("balance", resume=study, tuned="shipped", given=frozenset({"tuned"})).start()

    tune = tmp_path / "tune.json"
    code, _, err = run(capsys, "tune", "greedy", "-p", "2", "-e", "4", "--popsize", "2", "-m", "60", "--fresh-games",
                       "60", "-q", "--checkpoint", str(tune))
    assert code == 0, err
    results = TuneRequest(None, resume=tune).start()
    assert [(r.task.strategy, r.task.players, r.complete) for r in results] == [("greedy", 2, True)]
    with naming(api=True), pytest.raises(CheckpointError, match=r"^resume= .*: the evaluations differs"):
        TuneRequest(None, evaluations=6, resume=tune, given=frozenset({"evaluations"})).start()
