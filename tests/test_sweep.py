"""sweep and design: rule values along a range (R18-R19 bonuses, R14 payouts) and a search for the best.

A sweep's points are the very runs a single run at those rules plays (the same seed and game
indices, R25); neighbouring points' changes are paired; bad ranges are refused in one line.
design finds an optimum planted in a plug-in that plays well only at one bonus (R18), and
says "no better value" where the target cannot move (the big bonus's value while it is off, R19).
"""
from __future__ import annotations

import json
import sys
import textwrap

import numpy as np
import pytest
from conftest import run
from test_rules_data import as_older

import medici_sim
from medici_sim.core.arguments import ConfigError

LINEUP = dict(players=3, strategies="random,greedy")
PLANTED = textwrap.dedent('''
    """bonus_lover: greedy when the bonus (R18) is 20 florins, else it takes one card a turn."""
    from numba import njit

    from medici_sim.games.card.rules import RULE_BONUS
    from medici_sim.games.card.strategies import Param, Strategy, register
    from medici_sim.games.card.strategies.greedy import reveal_nb as greedy_reveal_nb
    from medici_sim.games.card.strategies.greedy import take_nb as greedy_take_nb


    @njit(cache=True)
    def reveal_nb(state, seat, params):
        return state.rules[RULE_BONUS] == 20 and greedy_reveal_nb(state, seat, params)


    @njit(cache=True)
    def take_nb(state, seat, params):
        return greedy_take_nb(state, seat, params) if state.rules[RULE_BONUS] == 20 else 0


    register(Strategy(name="bonus_lover", decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
                      params={"reveal_below": Param(4, 0, 20), "take_min": Param(2, 0, 20)},
                      summary="Plays well only when the bonus is 20."))
''')


@pytest.fixture(scope="module")
def swept():
    return medici_sim.sweep("big_bonus=0..40:20", 1200, rules="bonus20", **LINEUP)


def test_sweep_points_are_the_single_runs_at_their_values(swept):
    """R25: each point's win rates are those of one run of its rules on the same seed and games."""
    table = swept.strategies
    assert list(table["big_bonus"].unique()) == [0, 20, 40] and swept.summary["games_per_point"] == 1200
    for value in (0, 20, 40):
        single = medici_sim.simulate(1200, players=3, strategies="random,greedy,random", seating="rotate",
                                     rules=f"bonus20,big_bonus={value}").strategies.set_index("strategy")
        point = table[table["big_bonus"] == value].set_index("strategy")
        for name in ("random", "greedy"):
            assert point.loc[name, "win_rate"] == pytest.approx(single.loc[name, "win_rate"], abs=1e-12)
    # the paired change is the difference of the win rates, and its interval is the paired one
    greedy = table[table["strategy"] == "greedy"].reset_index()
    assert np.isnan(greedy.loc[0, "change"])
    assert greedy.loc[1, "change"] == pytest.approx(greedy.loc[1, "win_rate"] - greedy.loc[0, "win_rate"])
    paired = greedy.loc[2, "change_ci_high"] - greedy.loc[2, "change"]
    unpaired = (greedy.loc[2, "win_rate_ci_high"] - greedy.loc[2, "win_rate"]) * np.sqrt(2)
    assert 0 < paired < unpaired / 2  # the same games: far narrower than two independent runs'
    assert (swept.points["seat_spread_ci_low"] <= swept.points["seat_spread"]).all()


def test_sweep_metrics_are_the_single_runs_and_their_steps_are_paired(swept):
    """Each point's designer metrics are those of one run of its rules (R25), and each metric's
    change from the previous point is the difference of the two points' values, with an interval
    from each game's difference: narrower than the two points' intervals taken as independent."""
    metrics = swept.metrics.set_index("big_bonus")
    assert list(metrics.index) == [0, 20, 40] and (metrics["games"] == 1200).all()
    for value in (0, 40):
        single = medici_sim.simulate(1200, players=3, strategies="random,greedy,random", seating="rotate",
                                     rules=f"bonus20,big_bonus={value}").metrics.iloc[0]
        for name in ("comeback_after_day1", "lead_changes_ci_high", "margin", "margin_p90", "turns_per_game"):
            assert metrics.loc[value, name] == pytest.approx(single[name], abs=1e-12), name
    changes = swept.metric_changes
    assert list(changes["big_bonus"].unique()) == [20, 40] and changes["paired"].all()
    margin = changes[changes["metric"] == "margin"].set_index("big_bonus").loc[40]
    assert margin["difference"] == pytest.approx(metrics.loc[40, "margin"] - metrics.loc[20, "margin"])
    paired = margin["difference_ci_high"] - margin["difference"]
    independent = np.hypot(*(metrics.loc[v, "margin_ci_high"] - metrics.loc[v, "margin"] for v in (20, 40)))
    assert 0 < paired < independent / 2


def test_two_rules_and_a_list_element():
    """Two ranges make a grid; a list's element (R14's first place) keeps the base's other places."""
    report = medici_sim.sweep(["ship_payouts[0]=20..30:10", "bonus=5..10:5"], 300, **LINEUP)
    assert len(report.points) == 4
    assert set(report.points["rules"]) >= {"ship_payouts=20/15/0", "ship_payouts=20/15/0,bonus=5"}
    assert report.strategies["change"].notna().sum() == 4  # along the first rule, at each bonus


@pytest.mark.parametrize("spec, fragment", [
    ("bonnus=0..40", "no rule 'bonnus'"),
    ("big_bonus=0..900", "ranges over 0-500"),
    ("big_bonus=0-40", "write NAME=LO..HI or NAME=LO..HI:STEP (a list's element: NAME[I]=LO..HI), e.g. days=1..5"),
    ("big_bonus=0..40:0", "step must be a positive"),
    ("big_bonus=40..0", "LO must not exceed HI"),
    ("ship_payouts=0..40", "sweep one element"),
    ("bonus[0]=0..40", "bonus is one number"),
    ("big_bonus_min=2..9", "is no rule set"),
    ("bonus=5..10 --deck all", "a sweep plays one deck"),
])
def test_bad_rule_ranges_are_refused_in_one_line(capsys, spec, fragment):
    code, out, err = run(capsys, "sweep", "--rule", *spec.split(), "-p", "3", "-s", "random,greedy", "-n", "100", "-q")
    assert code == 2 and err.count("\n") == 1 and fragment in err and "Traceback" not in err, (code, err)


@pytest.mark.parametrize("args, fragment", [
    (["--target", "nobody=0.5"], "not one of the strategies"),
    (["--target", "greedy=1.5"], "from 0 to 1"),
    (["--target", "fairness"], "strategies, seats or STRATEGY=RATE (e.g. greedy=0.25)"),  # one of those played
    (["--trials", "0"], "--trials"),
    (["-p", "3,4"], "one player count"),
])
def test_bad_design_questions_are_refused_in_one_line(capsys, args, fragment):
    code, _, err = run(capsys, "design", "--rule", "bonus=0..20", "-s", "random,greedy", "-n", "100", "-q",
                       *(["--target", "seats"] if "--target" not in args else []), *args)
    assert code == 2 and err.count("\n") == 1 and fragment in err and "Traceback" not in err, (code, err)


def test_missing_options_and_optuna_are_one_line(capsys, monkeypatch):
    code, _, err = run(capsys, "sweep", "-p", "3")
    assert code == 2 and "give one or two --rule ranges" in err and err.count("\n") == 1
    code, _, err = run(capsys, "design", "--rule", "bonus=0..20", "-p", "3")
    assert code == 2 and "--target is needed" in err and err.count("\n") == 1
    monkeypatch.setitem(sys.modules, "optuna", None)  # as if not installed
    code, _, err = run(capsys, "design", "--rule", "bonus=0..20", "--target", "seats", "-p", "2", "-n", "100", "-q")
    assert code == 2 and err == "medici-sim: error: design needs optuna: pip install 'medici-sim[design]'\n"


def test_design_finds_a_planted_optimum(tmp_path):
    plugin = tmp_path / "bonus_lover.py"
    plugin.write_text(PLANTED)
    report = medici_sim.design("bonus=0..40:10", "bonus_lover=1", trials=8, games=600, fresh_games=2000, players=2,
                               strategies="bonus_lover,random", plugins=[plugin])
    assert report.summary["best_rules"] == "bonus=20"
    assert report.trials["rules"].iloc[0] == "standard"  # the base rules' value first
    assert "brings bonus_lover's distance" in report.verdict and "closer to the target" in report.verdict
    best = report.remeasured[(report.remeasured["rules"] == "best") & (report.remeasured["strategy"] == "bonus_lover")]
    assert best["change_ci_low"].iloc[0] > 0 and best["games"].iloc[0] == 2000
    assert list(report.metrics["rules"]) == ["standard", "bonus=20"]  # how the fresh games went under each
    changes = report.metric_changes
    assert changes["paired"].all() and (changes["games"] == 2000).all() and changes["significant"].any()


def test_design_says_no_better_value_when_the_target_is_flat(capsys, tmp_path):
    """R19: with the big bonus off its value changes no game (a warning says so: the other rule, days, held at
    the rulebook's 3, is all the box could change); the CLI writes its --out files."""
    out, page = tmp_path / "design.json", tmp_path / "design.html"
    code, text, err = run(capsys, "design", "--rule", "big_bonus=0..40:10", "--rule", "days=3..3", "--target",
                          "strategies", "-p", "2", "-s", "random,greedy", "-n", "300", "--trials", "4",
                          "--fresh-games", "600", "-q", "--out", str(out), "--report", str(page))
    assert code == 0 and err.count("warning: --rule: big_bonus changes nothing") == 1, err
    assert "No better value" in text and "How the games went (95% intervals)" in text
    document = json.loads(out.read_text())
    assert {"summary", "remeasured", "scores", "trials", "metrics", "metric_changes"} <= set(document)
    assert len(document["metrics"]) == 1 and document["metric_changes"] == []  # the base rules are the best
    html = page.read_text()
    order = ["Question:", "Answer:</strong><ul><li>No better value", "Fresh games", "How the games went", "The search",
             "How to reproduce it", "--fresh-games 600"]
    assert [html.index(part) for part in order] == sorted(html.index(part) for part in order)
    assert len({round(row["score"], 12) for row in document["trials"]}) == 1


def test_sweep_cli_writes_its_tables(capsys, tmp_path):
    out = tmp_path / "sweep.csv"
    code, text, err = run(capsys, "sweep", "--rule", "bonus=10..20:10", "-p", "2", "-s", "random,greedy", "-n",
                          "200", "-q", "--out", str(out), "--plot", str(tmp_path / "sweep.png"))
    assert code == 0, err
    assert "bonus" in out.read_text().splitlines()[0] and (tmp_path / "sweep-points.csv").exists()
    assert "comeback_after_day1_ci_low" in (tmp_path / "sweep-metrics.csv").read_text().splitlines()[0]
    assert "paired" in (tmp_path / "sweep-metric_changes.csv").read_text().splitlines()[0]
    assert "How the games went at each point" in text
    assert (tmp_path / "sweep.png").read_bytes().startswith(b"\x89PNG")
    assert "change from the previous point" in text


def test_an_interrupted_sweep_resumes_to_the_same_tables(tmp_path, capsys):
    """Stopped after its first batch and checkpointed, then resumed: the tables of one whole run."""
    import threading

    from medici_sim.api import SweepRequest, Watch, play_sweep
    from medici_sim.core import checkpoint

    request = SweepRequest("bonus=10..20:5", 300, **LINEUP)
    whole = play_sweep(request.sweep())
    path, stop = tmp_path / "sweep.ckpt", threading.Event()

    def save_and_stop(configuration, progress):
        checkpoint.save(path, "sweep", configuration, progress)
        stop.set()

    partial = play_sweep(request.sweep(), Watch(stop=stop, on_batch=save_and_stop))
    assert partial.summary["partial"] and partial.summary["games_played"] < whole.summary["games_played"]
    resumed = play_sweep(request.sweep(), resume=path)
    assert resumed.strategies.equals(whole.strategies) and resumed.points.equals(whole.points)
    code, _, err = run(capsys, "sweep", "--rule", "bonus=10..20:5", "-p", "3", "-s", "random,greedy", "-n", "300",
                       "--seed", "4", "-q", "--resume", str(path))
    assert code == 2 and err.startswith(f"medici-sim: error: --resume {path}: the ") and err.count("\n") == 1
    path.write_text(path.read_text().replace('"done": [', '"done": [1'))
    code, _, err = run(capsys, "sweep", "--rule", "bonus=10..20:5", "-p", "3", "-s", "random,greedy", "-n", "300",
                       "-q", "--resume", str(path))
    assert code == 2 and f"--resume {path}:" in err and err.count("\n") == 1


def test_an_interrupted_design_resumes_to_the_same_trials(tmp_path):
    """Each trial's sampler is seeded by its number: a resumed search asks for the trials of one whole run."""
    import threading

    from medici_sim.api import DesignRequest, Watch, play_design
    from medici_sim.core import checkpoint

    request = DesignRequest("bonus=5..25:5", 200, players=2, strategies="random,greedy", target="greedy=0.5",
                            trials=5, fresh_games=400)
    whole = play_design(request.design())
    path, older, stop = tmp_path / "design.ckpt", tmp_path / "older.ckpt", threading.Event()

    def save_and_stop(configuration, progress):
        checkpoint.save(path, "design", configuration, progress)
        checkpoint.save(older, "design", as_older(configuration), progress)  # as versions before wrote it
        if len(progress["trials"]) == 3:
            stop.set()

    assert play_design(request.design(), Watch(stop=stop, on_batch=save_and_stop)) is None
    for saved in (path, older):
        resumed = play_design(request.design(), resume=saved)
        assert resumed.trials.equals(whole.trials) and resumed.verdict == whole.verdict


def test_a_stopped_sweep_leaves_its_unfinished_points_out(capsys):
    """A sweep stopped inside a point shows only the points that played all their games: the
    unfinished one (part of its lineups: not the point's win rates) is in no table and no paired
    change, and the summary and the printout say how many were left out."""
    import threading

    from medici_sim.api import SweepRequest, Watch, play_sweep

    request = SweepRequest("bonus=10..20:5", 300, players=2, strategies="random,greedy,gambler")  # 3 lineups
    whole = play_sweep(request.sweep())
    stop = threading.Event()

    def stop_inside_the_second_pair(configuration, progress):
        second = progress["tournaments"][2]  # the pair of 15 and 20: one lineup of its three played
        if any(second["done"]):
            stop.set()

    partial = play_sweep(request.sweep(), Watch(stop=stop, on_batch=stop_inside_the_second_pair))
    assert partial.summary["partial"] and partial.summary["unfinished_points"] == 1  # 20: beside 15, unfinished
    for name in ("strategies", "points", "metrics", "metric_changes"):
        assert set(getattr(partial, name)["bonus"]) == {10, 15} - ({10} if name == "metric_changes" else set()), name
        kept = getattr(whole, name)
        kept = kept[kept["bonus"] < 20].reset_index(drop=True)
        assert getattr(partial, name).reset_index(drop=True).equals(kept), name  # the whole run's figures


def test_precision_plays_every_point_the_same_games():
    report = medici_sim.sweep("bonus=10..20:10", 150, precision=0.06, **LINEUP)
    games = report.points["games"]
    assert games.nunique() == 1 and games.iloc[0] > 150
    assert (report.strategies["win_rate_ci_high"] - report.strategies["win_rate"]).max() < 0.06


@pytest.mark.parametrize("args", [["--rule", "big_bonus=0..40"], ["--rule", "big_bonus=0..40:10", "--rules", "days=2"]])
def test_a_rule_its_switch_leaves_inert_everywhere_is_refused(capsys, args):
    """sweep --rule big_bonus=0..40 played 41 identical points (1.6 M games of +0.0 ± 0.0)."""
    for command in (["sweep"], ["design", "--target", "strategies"]):
        code, out, err = run(capsys, *command, *args, "-n", "100", "-s", "greedy,random")
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "big_bonus changes nothing" in err and "big_bonus_min" in err and "nothing would be measured" in err
    with pytest.raises(ConfigError, match="rule=: big_bonus changes nothing"):
        medici_sim.sweep("big_bonus=0..40", 100, strategies="greedy,random")


def test_a_rule_switched_on_somewhere_is_swept_and_one_inert_of_two_is_said(capsys):
    code, out, err = run(capsys, "sweep", "--rule", "big_bonus=10..30:20", "--rule", "big_bonus_min=0..8:8", "-n",
                         "100", "-p", "3", "-s", "greedy,random", "-q")
    assert code == 0 and "warning" not in err, err
    code, out, err = run(capsys, "sweep", "--rule", "big_bonus=10..30:20", "--rule", "days=1..2", "-n", "100",
                         "-p", "3", "-s", "greedy,random", "-q")
    assert code == 0 and err.count("medici-sim: warning: --rule: big_bonus changes nothing") == 1, err


@pytest.mark.parametrize("rule,players,count", [("ship_payouts[9]=0..3", "4", 4), ("ship_payouts[3]=0..3", "3,4", 3),
                                                ("majority_payouts[2]=0..3", "4", 2)])
def test_a_list_element_past_its_end_is_refused_at_every_player_count(capsys, rule, players, count):
    """IndexError tracebacks in sweep, design and the API's sweep()."""
    for command in (["sweep"], ["design", "--target", "strategies"]):
        if command[0] == "design" and "," in players:
            continue  # design answers for one player count
        code, out, err = run(capsys, *command, "--rule", rule, "-p", players, "-n", "100", "-s", "greedy,random")
        assert code == 2 and "Traceback" not in err and err.count("\n") == 1, err
        assert f"has {count} values at {count if ',' in players else 4} players" in err and "--rule" in err, err
    with pytest.raises(ConfigError, match="^rule= .* no element"):
        medici_sim.sweep(rule, 100, players=[int(p) for p in players.split(",")], strategies="greedy,random")


def test_a_bad_rule_range_is_shown_by_an_example_of_the_games_own():
    """The syntax's example is a rule of the game swept, over its values (it was the card game's big_bonus for
    every game)."""
    from medici_sim.core.arguments import ConfigError
    from medici_sim.core.registry import get_game
    from medici_sim.study.sweep import parse_rule

    with pytest.raises(ConfigError, match=r"e\.g\. draw=0\.\.20$"):
        parse_rule("draw=0-4", get_game("tuscany"))
