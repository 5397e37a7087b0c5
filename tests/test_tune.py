"""``medici-sim tune``: the optimiser finds planted optima, tuning is deterministic and
resumable, the fresh-games check refuses noise, and bad input is one line and exit code 2."""
from __future__ import annotations

import json
import math
import re
import shlex
import signal
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import run
from test_interrupts import medici

from medici_sim.core import checkpoint
from medici_sim.core.driver import ConfigError, chunks
from medici_sim.core.registry import GAMES
from medici_sim.study import tuning
from medici_sim.study.optimize import Box, ReplayMismatch, Round, maximise

QUICK = ["--players", "2", "--evaluations", "12", "--popsize", "4", "--games-per-eval", "400",
         "--fresh-games", "2000", "--seed", "3", "--quiet"]

# A strategy whose parameter changes which games are played but not how well: its decisions are
# fair coins drawn from a stream salted by the parameter. Any "improvement" tuning finds is noise.
SALTED = """\
from numba import njit
from medici_sim.core.rng import mix64_nb, next_u64_nb
from medici_sim.games.card.strategies import Param, Strategy, register


@njit
def coin_nb(state, params):
    return mix64_nb(next_u64_nb(state.rng) ^ np.uint64(int(params[0] * 10))) & np.uint64(1) == np.uint64(1)


@njit
def reveal_nb(state, seat, params):
    return coin_nb(state, params)


@njit
def take_nb(state, seat, params):
    return 0


register(Strategy(name="salted", decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
                  params={"salt": Param(0, 0, 1000, help="which random stream; no effect on strength")}))
"""


# ---------------------------------------------------------------- the optimiser

def planted(point: tuple[float, ...], round_index: int) -> float:
    """A smooth objective with its maximum at (13.3, 0.42, 4) and noise: a common offset per
    round (like a round's shared deals) and a little noise per candidate."""
    rng = np.random.default_rng([round_index, *(int(v * 1000) for v in point)])
    a, b, n = point
    value = -((a - 13.3) / 20) ** 2 - ((b - 0.42) / 1) ** 2 - 0.02 * (n - 4) ** 2
    return value + 0.3 * math.sin(round_index) + 0.002 * rng.standard_normal()


BOX = Box(("a", "b", "n"), (0.0, 0.0, 1.0), (20.0, 1.0, 6.0), (False, False, True))


def test_optimiser_finds_a_planted_optimum_through_noise():
    rounds, best = maximise(lambda r, cands, inc: [planted(c, r) for c in cands], BOX, (2.0, 0.9, 1.0),
                            evaluations=240, popsize=8, seed=11)
    assert len(rounds) == 30 and all(len(r.candidates) == 8 for r in rounds)
    assert abs(best[0] - 13.3) < 1.0 and abs(best[1] - 0.42) < 0.05 and best[2] == 4.0


def test_optimiser_finds_an_optimum_on_a_face_and_in_one_dimension():
    one = Box(("x",), (0.0,), (20.0,), (False,))
    _, best = maximise(lambda r, cands, inc: [-(c[0] - 19.9) ** 2 for c in cands], one, (3.0,),
                       evaluations=90, popsize=6, seed=1)
    assert abs(best[0] - 19.9) < 0.2


def test_optimiser_is_deterministic_and_replays_its_history_without_scoring_it():
    def score(r, cands, inc):
        return [planted(c, r) for c in cands]

    rounds, best = maximise(score, BOX, (2.0, 0.9, 1.0), evaluations=80, popsize=8, seed=5)
    again, best_again = maximise(score, BOX, (2.0, 0.9, 1.0), evaluations=80, popsize=8, seed=5)
    assert rounds == again and best == best_again
    other, _ = maximise(score, BOX, (2.0, 0.9, 1.0), evaluations=80, popsize=8, seed=6)
    assert other != rounds

    asked = []

    def only_new(r, cands, inc):
        asked.append(r)
        return score(r, cands, inc)

    replayed, best_replayed = maximise(only_new, BOX, (2.0, 0.9, 1.0), evaluations=80, popsize=8, seed=5,
                                       history=rounds[:6])
    assert asked == [6, 7, 8, 9] and replayed == rounds and best_replayed == best
    forged = [*rounds[:2], Round(rounds[2].candidates, rounds[2].scores, (1.0, 0.5, 2.0))]
    with pytest.raises(ReplayMismatch, match="round 3"):
        maximise(score, BOX, (2.0, 0.9, 1.0), evaluations=80, popsize=8, seed=5, history=forged)


def test_box_maps_every_built_in_default_to_itself_and_keeps_whole_numbers_whole():
    for game in GAMES.values():
        for name in game.built_ins:
            params = game.registry[name].params
            if not params:
                continue
            box = tuning.tunable_box(game.name, name)
            defaults = tuple(p.default for p in params.values())
            assert box.values(box.point(defaults)) == defaults, name
    assert BOX.values((0.5, 1.25, 0.49)) == (10.0, 0.75, 3.0)  # folded at a face, rounded to whole
    assert BOX.values((-0.25, 2.0, 1.0)) == (5.0, 0.0, 6.0)


def test_a_range_too_wide_to_measure_is_refused():
    with pytest.raises(ValueError, match="finite range"):
        Box(("x",), (-1e308,), (1e308,), (False,))


def test_a_strategy_without_parameters_or_finite_ranges_cannot_be_tuned(capsys, tmp_path):
    with pytest.raises(ConfigError, match="random has no parameters"):
        tuning.tunable_box("card", "random")
    plugin = tmp_path / "open.py"
    plugin.write_text("import numpy as np\n" + SALTED.replace('Param(0, 0, 1000,', 'Param(0, 0,')
                      .replace('name="salted"', 'name="open_ended"'))
    code, _, err = run(capsys, "tune", "open_ended", "--plugin", str(plugin), "--quiet")
    assert code == 2 and err.count("\n") == 1
    assert "strategy open_ended: parameter salt: the search needs a finite range, got 0 to inf" in err


def test_game_ranges_are_split_exactly_far_out():
    first = tuning.FRESH_FIRST
    parts = chunks(first, 100_003, 7)
    assert parts[0][0] == first and sum(n for _, n in parts) == 100_003
    assert all(a + n == b for (a, n), (b, _) in zip(parts, parts[1:], strict=False))


# ---------------------------------------------------------------- the command

def _tables(path: Path) -> dict:
    data = json.loads(path.read_text())
    return {name: data[name] for name in ("tuned", "history", "rounds", "metrics", "metric_changes")}


def test_tune_is_deterministic_for_a_seed_and_any_thread_count(capsys, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    code, out, err = run(capsys, "tune", "greedy", *QUICK, "--threads", "1", "--out", str(a))
    assert code == 0, err
    assert "Best parameters (paste into --strategies)" in out and "evaluations_per_minute" in out
    code, _, err = run(capsys, "tune", "greedy", *QUICK, "--threads", "2", "--out", str(b))
    assert code == 0, err
    assert _tables(a) == _tables(b)
    tables = _tables(a)
    assert len(tables["history"]) == 12 and len(tables["rounds"]) == 3
    row = tables["tuned"][0]
    assert row["strategy"] == "greedy" and row["players"] == 2 and row["against"] == "self"
    assert row["deck"] == json.loads(a.read_text())["summary"]["deck"] == "default (R4 reconstruction)"
    assert row["games_per_eval"] == 400 and row["fresh_games"] == 2000
    assert row["tuned"].startswith("greedy:reveal_below=") and ",take_min=" in row["tuned"]
    assert row["improvement_ci_low"] < row["improvement"] < row["improvement_ci_high"]
    # how the fresh games went under the defaults and the tuned parameters, and the paired change
    metrics = tables["metrics"]
    assert [(m["strategy"], m["parameters"], m["players"], m["rules"], m["games"]) for m in metrics] == [
        ("greedy", which, 2, "standard", 2000) for which in ("default", "tuned")]
    assert metrics[0]["spec"] == "greedy:reveal_below=4,take_min=2" and metrics[1]["spec"] == row["tuned"]
    assert all(m[f"{name}_ci_low"] <= m[name] <= m[f"{name}_ci_high"] for m in metrics
               for name in ("comeback_after_day1", "margin", "turns_per_game", "ran_out_day_share"))
    changes = {c["metric"]: c for c in tables["metric_changes"]}
    assert set(changes) == {"comeback_after_day1", "comeback_after_day2", "lead_changes", "margin",
                            "shared_win_games", "turns_per_game", "ran_out_day_share"}
    for name, change in changes.items():
        assert (change["first"], change["second"], change["games"], change["paired"]) == ("default", "tuned", 2000,
                                                                                           True)
        assert (change["first_value"], change["second_value"]) == pytest.approx((metrics[0][name], metrics[1][name]))
        assert change["difference"] == pytest.approx(change["second_value"] - change["first_value"])
        assert change["difference_ci_low"] <= change["difference"] <= change["difference_ci_high"]


def test_tune_against_a_lineup_and_each_rule(capsys, tmp_path):
    out_path = tmp_path / "t.csv"
    code, out, err = run(capsys, "tune", "cautious", *QUICK[2:], "--players", "3", "--against", "greedy,random",
                         "--variant", "all", "--out", str(out_path))
    assert code == 0, err
    import pandas as pd

    tuned = pd.read_csv(out_path)
    assert list(tuned["rules"]) == ["standard", "bonus20"] and set(tuned["against"]) == {"greedy,random"}
    assert (tmp_path / "t-history.csv").exists() and (tmp_path / "t-rounds.csv").exists()
    metrics, changes = pd.read_csv(tmp_path / "t-metrics.csv"), pd.read_csv(tmp_path / "t-metric_changes.csv")
    assert list(zip(metrics["rules"], metrics["parameters"], strict=True)) == [
        (rules, which) for rules in ("standard", "bonus20") for which in ("default", "tuned")]
    assert set(changes["rules"]) == {"standard", "bonus20"} and set(changes["second"]) == {"tuned"}
    assert "cautious, 3 players, bonus20:" in out


def test_noise_only_improvement_is_reported_as_none(capsys, tmp_path):
    plugin = tmp_path / "salted.py"
    plugin.write_text("import numpy as np\n" + SALTED)
    out_path = tmp_path / "t.json"
    code, out, err = run(capsys, "tune", "salted", "--plugin", str(plugin), "--players", "3", "--evaluations", "24",
                         "--popsize", "6", "--games-per-eval", "600", "--fresh-games", "30000", "--seed", "1",
                         "--quiet", "--out", str(out_path))
    assert code == 0, err
    tables = _tables(out_path)
    row = tables["tuned"][0]
    best_in_tuning = max(h["win_rate"] for h in tables["history"])
    assert best_in_tuning > 1 / 3 + 0.02  # tuning saw "improvements": the luck of single evaluations
    assert row["tuned"] != "salted:salt=0"  # and picked something other than the default
    assert not row["significant"] and row["best"] == "salted:salt=0"
    assert row["improvement_ci_low"] < 0 < row["improvement_ci_high"]
    assert "no significant improvement on fresh games; keep the defaults (salted:salt=0)" in out


def test_plot_and_table_files(capsys, tmp_path):
    code, out, err = run(capsys, "tune", "greedy", *QUICK, "--out", str(tmp_path / "t.json"),
                         "--plot", str(tmp_path / "t.png"))
    assert code == 0, err
    assert (tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("args", "message"), [
    (["random"], "random has no parameters to tune"),
    (["nosuch"], "unknown strategy 'nosuch'"),
    (["greedy:take_min=3"], "tune takes strategy names"),
    (["greedy,greedy"], "names a strategy twice"),
    (["greedy", "--evaluations", "0"], "--evaluations must be between 1 and"),
    (["greedy", "--games-per-eval", "-4"], "--games-per-eval must be between 1 and"),
    (["greedy", "--fresh-games", "0"], "--fresh-games must be between 1 and"),
    (["greedy", "--popsize", "1"], "--popsize must be between 2 and 1000"),
    (["greedy", "--variant", "bonus30"], "--rules: unknown rule 'bonus30' in the card game"),
    (["greedy", "--players", "7"], "players must be between 2 and 6"),
    (["greedy", "--players", "3", "--against", "greedy,random,cautious"], "3 players need 1 or 2 opponents"),
    (["greedy", "--against", "nosuch"], "unknown strategy 'nosuch'"),
    (["greedy", "--seed", "-1"], "--seed must be between 0"),
    (["greedy", "--threads", "0"], "threads must be between 1 and 1024"),
    (["greedy", "--plot", "x.pdf"], "must end in .png"),
    (["value", "--game", "classic", "--players", "2"], "players must be between 3 and 6"),
    (["greedy", "--resume", "nosuch.ckpt"], "no such file"),
    (["greedy", "--players", "3,x"], "--players must be 'all' or numbers"),
    (["greedy", "--players", ""], "'--players' / '-p': an empty value"),
    (["greedy", "--out", ""], "'--out': an empty value"),
    (["greedy", "--plot", " "], "'--plot': an empty value"),
    (["greedy", "--deck", ""], "'--deck': an empty value"),
    (["greedy", "--deck", "all"], "--deck: a tuning plays one deck, 'all' is 5 decks; tune on each deck apart"),
    (["--evaluations", "4"], "tune needs STRATEGY (a name, a comma list, or all), or --resume FILE"),
    (["greedy", "--overwrite-checkpoint"], "--overwrite-checkpoint needs --checkpoint FILE"),
    (["greedy", "--against", ","], "--against ',': empty strategy name"),
    (["greedy", "--players", "2", "--against", "greedy,random"], "2 players need 1 opponent, got 2"),
    (["search"], "strategy search cannot be tuned: each of its decisions plays every choice out"),
    (["search", "--game", "classic"], "strategy search cannot be tuned"),
    (["greedy,search"], "strategy search cannot be tuned"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "tune", *args, "--quiet")
    assert code == 2, (out, err)
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("command", ["compare", "balance"])
def test_tuned_play_never_advises_tuning_what_tune_refuses(capsys, command):
    """search has parameters but no tuning will ever give them: --tuned says so, not "tune it"."""
    code, out, err = run(capsys, command, "--tuned", "shipped", "-s", "search,expert", "-p", "3", "-n", "100")
    assert code == 2 and err.count("\n") == 1, err
    assert "strategy search cannot be tuned" in err and "leave out --tuned" in err and "tune it" not in err


def test_a_stop_request_is_answered_within_a_block_however_slow_the_games(monkeypatch):
    """Tuning looks at a stop request between blocks of games; a block lasts about STOP_SECONDS
    whatever a game costs (sized by the measured speed), never STOP_BLOCK slow games."""
    from medici_sim.core.driver import PreparedRun, ThreadRunner, Totals

    asked = []

    def play(kernel, first_game, n_games):  # a strategy whose games take 20 ms
        asked.append(n_games)
        time.sleep(0.02 if n_games == 1 else 0.0)  # the warm-up's timed game; the rest are not played
        return Totals.zeros(kernel.config.players, kernel.game)

    monkeypatch.setattr(PreparedRun, "play", play)
    task = tuning.plan_tasks("card", "greedy", "2", None, "self", 8, 4000, 4000, 3, 4, None)[0]
    with ThreadRunner(2) as runner:
        tuning.Evaluator(runner, 2).first_slot(task, [(task.default, task.default)] * 4, 0, 4000)
    blocks = asked[2:]  # after the warm-up's two games: 4 lineups, each block's games in 2 chunks
    assert sum(blocks) == 4 * 4000
    assert sum(blocks[:4 * 2]) <= 100, blocks[:8]  # the first block: at most a second's games on 2 threads


def test_outputs_never_collide_with_the_checkpoint(capsys, tmp_path):
    same = str(tmp_path / "x.json")
    code, _, err = run(capsys, "tune", "greedy", *QUICK, "--out", same, "--checkpoint", same)
    assert code == 2 and err.count("\n") == 1


def _checkpointed(capsys, tmp_path) -> Path:
    saved = tmp_path / "t.ckpt"
    code, _, err = run(capsys, "tune", "greedy", *QUICK, "--checkpoint", str(saved))
    assert code == 0, err
    return saved


def test_a_finished_checkpoint_resumes_to_the_same_answer_and_refuses_other_options(capsys, tmp_path):
    saved = _checkpointed(capsys, tmp_path)
    whole = tmp_path / "whole.json"
    run(capsys, "tune", "greedy", *QUICK, "--out", str(whole))
    again = tmp_path / "again.json"
    code, _, err = run(capsys, "tune", "greedy", "--resume", str(saved), "--quiet", "--out", str(again))
    assert code == 0, err
    assert _tables(again) == _tables(whole)
    code, _, err = run(capsys, "tune", "--resume", str(saved), "--quiet", "--out", str(again))  # no STRATEGY
    assert code == 0, err
    assert _tables(again) == _tables(whole)
    assert json.loads(again.read_text())["summary"]["evaluations_per_minute"] is None  # none evaluated: no speed
    code, _, err = run(capsys, "tune", "--resume", str(saved), "--checkpoint", str(saved), "--quiet")
    assert code == 0, err  # the resumed file named twice: checkpoints go on to it, as with --resume alone
    code, _, err = run(capsys, "tune", "greedy", "--resume", str(saved), "--evaluations", "16", "--quiet")
    assert code == 2 and "the evaluations differs" in err
    code, _, err = run(capsys, "tune", "--resume", str(saved), "--evaluations", "16", "--quiet")
    assert code == 2 and "the evaluations differs" in err and "leave the option out" in err
    code, _, err = run(capsys, "tune", "greedy", *QUICK, "--checkpoint", str(saved))
    assert code == 2 and "already holds a run" in err and "--resume" in err


def _resum(document: dict, _edit=None) -> None:
    """An edit whose author also recomputed the checksum: the rules must catch it."""
    document["checksum"] = checkpoint._checksum(document)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d["progress"]["tasks"][0]["rounds"][0]["win60"].__setitem__(0, 10**9), "outside"),
    (lambda d: d["progress"]["tasks"][0]["rounds"][0]["candidates"][0].__setitem__(0, 99.0),
     "must be between 0 and 20"),
    (lambda d: d["progress"]["tasks"][0]["fresh"]["tuned"].__setitem__(1, 7), None),
    (lambda d: d["configuration"]["tasks"][0].__setitem__("popsize", 1), "outside 2..1000"),
    (lambda d: d["progress"]["tasks"][0]["rounds"].pop(), "only 2 of its 3 rounds"),
    (lambda d: (w := d["progress"]["tasks"][0]["rounds"][1]["win60"]).__setitem__(1, w[1] + 30), "checksum"),
    (lambda d: d.__setitem__("command", "run"), "saved by `run`, not `tune`"),
    # a 2-player win credit is 60 or 30 per game
    (lambda d: _resum(d, d["progress"]["tasks"][0]["rounds"][0]["win60"].__setitem__(0, 6421)), "multiples of 30"),
    # the squared per-game differences cannot exceed both sides' squares, nor miss their sums' difference
    (lambda d: _resum(d, (f := d["progress"]["tasks"][0]["fresh"]).__setitem__(
        "difference_sq", f["tuned"][2] + f["default"][2] + 3600)), "difference_sq is"),
    (lambda d: _resum(d, (f := d["progress"]["tasks"][0]["fresh"]).__setitem__(
        "difference_sq", 0 if f["tuned"][1] != f["default"][1] else -1)), "difference_sq"),
    (lambda d: _resum(d, d["progress"]["tasks"][0]["fresh"].pop("difference_sq")), "difference_sq"),
    # the fresh games' metric counters obey a run's rules, and their paired squares the pairing's
    (lambda d: _resum(d, d["progress"]["tasks"][0]["fresh"]["tuned_run"].__setitem__(7, 0)),
     "fresh.tuned_run[7] is 0 (squares"),
    (lambda d: _resum(d, (f := d["progress"]["tasks"][0]["fresh"]["metric_sq"]).__setitem__(3, f[3] + 1)),
     "fresh.metric_sq[3] is"),
    # as a checkpoint saved before the fresh check kept its metrics: refused in one line
    (lambda d: _resum(d, d["progress"]["tasks"][0]["fresh"].pop("metric_sq")), 'fresh lacks "metric_sq"'),
    (lambda d: _resum(d, d["configuration"]["tasks"].append(d["configuration"]["tasks"][0])
                      or d["progress"]["tasks"].append({"rounds": [], "tuned": None, "fresh": None})),
     "tunes greedy, 2 players, standard a second time"),
])
def test_a_tampered_checkpoint_is_refused_in_one_line(capsys, tmp_path, edit, message):
    saved = _checkpointed(capsys, tmp_path)
    document = json.loads(saved.read_text())
    edit(document)
    saved.write_text(json.dumps(document))
    code, out, err = run(capsys, "tune", "greedy", "--resume", str(saved), "--quiet")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert message is None or message in err, err


def test_a_checkpoint_the_optimiser_does_not_reproduce_is_refused(capsys, tmp_path):
    saved = _checkpointed(capsys, tmp_path)
    document = json.loads(saved.read_text())
    document["progress"]["tasks"][0]["rounds"][1]["incumbent"][0] = 5.0
    document["checksum"] = checkpoint._checksum(document)  # a forger who recomputes the checksum
    saved.write_text(json.dumps(document))
    code, _, err = run(capsys, "tune", "greedy", "--resume", str(saved), "--quiet")
    assert code == 2 and "round 2 of the saved history is not what the optimiser proposes" in err


SLOW_RUN = ["tune", "expert", "--players", "4", "--evaluations", "64", "--popsize", "8", "--games-per-eval", "8000",
            "--fresh-games", "8000", "--seed", "2", "--quiet"]


def _rounds_saved(path: Path) -> int:
    return len(json.loads(path.read_text())["progress"]["tasks"][0]["rounds"]) if path.exists() else 0


@pytest.fixture(scope="module")
def uninterrupted_tuning(tmp_path_factory) -> dict:
    """SLOW_RUN's tables, played through once for every way of stopping it below."""
    whole = tmp_path_factory.mktemp("whole") / "whole.json"
    assert medici(*SLOW_RUN, "--out", str(whole)).wait(timeout=600) == 0
    return _tables(whole)


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
def test_tuning_stopped_and_resumed_ends_like_an_uninterrupted_one(tmp_path, uninterrupted_tuning, how):
    resumed, saved = tmp_path / "resumed.json", tmp_path / "t.ckpt"
    proc = medici(*SLOW_RUN, "--checkpoint", str(saved))
    deadline = time.monotonic() + 300
    while _rounds_saved(saved) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(how)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == (-signal.SIGKILL if how == signal.SIGKILL else 128 + how), err
    if how != signal.SIGKILL:
        assert "PARTIAL RESULTS" in out
    assert 2 <= _rounds_saved(saved) < 8
    done = medici("tune", "expert", "--resume", str(saved), "--quiet", "--out", str(resumed))
    _, err = done.communicate(timeout=600)
    assert done.returncode == 0, err
    assert _tables(resumed) == uninterrupted_tuning


@pytest.mark.slow
def test_tuning_on_a_dask_cluster_equals_tuning_on_threads(capsys, tmp_path):
    pytest.importorskip("distributed")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run(capsys, "tune", "greedy", *QUICK, "--out", str(a))[0] == 0
    code, _, err = run(capsys, "tune", "greedy", *QUICK, "--cluster", "local:2", "--out", str(b))
    assert code == 0, err
    assert _tables(a) == _tables(b)


# ---------------------------------------------------------------- balance under tuned play

def _tuned_file(tmp_path: Path) -> Path:
    """greedy tuned differently under each rule at 2 players (as tune --out FILE.json writes it)."""
    rows = [{"game": "card", "strategy": "greedy", "players": 2, "rules": variant, "best": best}
            for variant, best in (("standard", "greedy:reveal_below=4,take_min=1"),
                                  ("bonus20", "greedy:reveal_below=6,take_min=5"))]
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps({"summary": {}, "tuned": rows}))
    return path


def test_balance_tuned_plays_each_rule_with_its_own_parameters(capsys, tmp_path):
    tuned = _tuned_file(tmp_path)
    out_path = tmp_path / "b.json"
    code, out, err = run(capsys, "balance", "--tuned", str(tuned), "-s", "greedy,random", "-p", "2", "-n", "4000",
                         "--quiet", "--out", str(out_path))
    assert code == 0, err
    answer = json.loads(out_path.read_text())
    assert [r["strategy"] for r in answer["strategies"]] == ["greedy", "random"]
    assert answer["parameters"][0] == {"players": 2, "strategy": "greedy", "standard": "greedy:reveal_below=4,"
                                       "take_min=1", "bonus20": "greedy:reveal_below=6,take_min=5", "same": False,
                                       "cross_check": "not measured"}
    assert "the tuned parameters differ between the rules for greedy" in out
    # the standard tournament is exactly compare's with those parameters (the same games, R25)
    compared = tmp_path / "c.json"
    code, _, err = run(capsys, "compare", "-s", "greedy:take_min=1,random", "-p", "2", "-n", "4000", "--quiet",
                       "--out", str(compared))
    assert code == 0, err
    rate = {r["strategy"]: r["win_rate"] for r in json.loads(compared.read_text())["strategies"]}
    assert answer["strategies"][0]["win_rate_standard"] == rate["greedy:take_min=1"]


def test_balance_tuned_resumes_and_refuses_what_it_cannot_play(capsys, tmp_path):
    tuned = _tuned_file(tmp_path)
    saved = tmp_path / "b.ckpt"
    args = ["balance", "-s", "greedy,random", "-n", "2000", "--quiet"]
    code, first, err = run(capsys, *args, "-p", "2", "--tuned", str(tuned), "--checkpoint", str(saved))
    assert code == 0, err
    code, again, err = run(capsys, "balance", "--resume", str(saved), "--quiet")
    assert code == 0, err
    assert again.split("\nRun")[0] == first.split("\nRun")[0]
    code, _, err = run(capsys, *args, "-p", "3", "--tuned", str(tuned))
    assert code == 2 and "has no parameters for greedy at 3 players under the standard rules" in err
    code, _, err = run(capsys, "balance", "-s", "greedy:take_min=3,random", "-p", "2", "--tuned", str(tuned))
    assert code == 2 and "greedy:take_min=3 gives parameters" in err
    code, out, err = run(capsys, "compare", "-s", "greedy,random", "-p", "2", "-n", "2000", "--variant", "bonus20",
                         "--tuned", str(tuned), "--quiet")
    assert code == 0 and "greedy:reveal_below=6,take_min=5" in out, err  # compare plays its rule's parameters
    code, _, err = run(capsys, *args, "-p", "2", "--tuned", str(tuned), "--out", str(tuned))
    assert code == 2 and "is the run's --tuned file" in err
    other = tmp_path / "other.json"
    other.write_text(tuned.read_text().replace("take_min=5", "take_min=6"))
    code, _, err = run(capsys, "balance", "--resume", str(saved), "--tuned", str(other), "--quiet")
    assert code == 2 and "disagrees with the checkpoint's parameters at 2 players under bonus20" in err
    code, again_tuned, err = run(capsys, "balance", "--resume", str(saved), "--tuned", str(tuned), "--quiet")
    assert code == 0 and again_tuned.split("\nRun")[0] == first.split("\nRun")[0], err
    document = json.loads(saved.read_text())
    document["configuration"]["tournaments"][1]["strategies"].reverse()
    saved.write_text(json.dumps(document))
    code, _, err = run(capsys, "balance", "--resume", str(saved), "--quiet")
    assert code == 2 and "but tournaments[0] has" in err


def test_the_advice_for_a_tuned_file_without_some_parameters_writes_one_with_all_of_them(capsys, tmp_path):
    """Once the advice tuned one strategy at one count and rules into a new file, which then lacked all the others."""
    from medici_sim.cli.tune import tune_command, tune_request

    tuned = _tuned_file(tmp_path)  # greedy at 2 players, under each rule
    code, _, err = run(capsys, "balance", "-s", "greedy,cautious,random", "-p", "2,3", "--tuned", str(tuned))
    assert code == 2 and "has no parameters for cautious at 2 players under the standard rules" in err, err
    advice = err.split("into one file: ")[1].split(", then --tuned FILE.json")[0]
    assert advice == "medici-sim tune greedy,cautious --game card --players 2,3 --rules all --out FILE.json"
    tasks = tune_request(tune_command.make_context("tune", shlex.split(advice)[2:]).params).tasks()
    assert {(t.strategy, t.players, t.rules) for t in tasks} == {
        (s, p, v) for s in ("greedy", "cautious") for p in (2, 3) for v in ("standard", "bonus20")}
    plugin = Path(__file__).parents[1] / "examples" / "green_lover.py"  # a plug-in's strategy: tune loads it too
    code, _, err = run(capsys, "balance", "--plugin", str(plugin), "-s", "green_lover,random", "-p", "2",
                       "--tuned", str(tuned))
    assert code == 2 and (f"medici-sim tune green_lover --game card --players 2 --rules all --plugin {plugin} "
                          "--out FILE.json") in err, err


def test_a_tune_report_is_tuned_parameters_for_the_api(tmp_path):
    import medici_sim

    report = medici_sim.tune("greedy", players=2, rules="all", evaluations=8, popsize=4, games_per_eval=200,
                             fresh_games=400, seed=1, threads=1)
    assert set(report.cross_check["rules"]) == {"standard", "bonus20"}  # as tune --out FILE.json holds it
    assert list(report.metrics["parameters"]) == ["default", "tuned"] * 2 and set(report.metrics["games"]) == {400}
    assert set(report.metric_changes["rules"]) == {"standard", "bonus20"}
    balance = medici_sim.balance(1000, players=2, strategies="greedy,random", tuned=report, threads=1)
    best = report.tuned.set_index("rules")["best"]
    assert list(balance.parameters.iloc[0][["standard", "bonus20"]]) == [best["standard"], best["bonus20"]]
    with pytest.raises(ConfigError, match=r"tuned= a tune report has no parameters for greedy at 3 players .* "
                                          r"report = medici_sim.tune\('greedy', game='card', players='2,3', "
                                          r"rules='all'\), then tuned=report"):
        medici_sim.balance(1000, players=[2, 3], strategies="greedy,random", tuned=report)


@pytest.mark.parametrize(("entry", "message"), [
    ({"players": 99}, "players 99 or rules 'standard' are not the card game's"),
    ({"game": ["x"]}, "game ['x'] is not a game medici-sim knows"),
    ({"best": "greedy,random"}, "names 2 strategies, not one"),
    ({"best": ""}, "best is '', not a strategy with its parameters"),
    ({"best": "greedy:take_min=99"}, "parameter take_min of greedy must be between 0 and 20"),
])
def test_a_bad_tuned_file_entry_is_named(tmp_path, entry, message):
    path = _tuned_file(tmp_path)
    document = json.loads(path.read_text())
    document["tuned"][0].update(entry)
    path.write_text(json.dumps(document))
    with pytest.raises(ConfigError, match="entry 1") as error:
        tuning.load_tuned(str(path), "card")
    assert message in str(error.value)


def test_balance_api_under_tuned_play(tmp_path):
    import medici_sim

    report = medici_sim.balance(2000, players=2, strategies="greedy,random", tuned=str(_tuned_file(tmp_path)))
    assert list(report.parameters["same"]) == [False, True]
    assert "differ between the rules for greedy" in report.verdict


NO_METRICS = (np.zeros(0, np.int64),) * 3  # a Fresh's run counters and metric squares, where a test needs none


def _finished(variant: str, tuned: tuple[float, ...], players: int = 2) -> tuning.TaskResult:
    """A finished greedy task whose tuned parameters clearly beat the defaults."""
    task = tuning.TuneTask("card", "greedy", players, variant, None, 4, 600, 2400, 0, 4)
    fresh = tuning.Fresh(np.array([2400, 2400 * 45, 2400 * 45 * 45]), np.array([2400, 2400 * 20, 2400 * 20 * 20]),
                         2400 * 25 * 25, *NO_METRICS)
    return tuning.TaskResult(task, [], tuned, fresh)


def test_the_fresh_check_plays_both_parameter_sets_on_each_game_and_sums_their_differences():
    """The improvement's interval rests on each fresh game's difference of win credits
    (tuned minus default), the metrics' changes on each game's difference of the metric
    counters: the paired sums equal the two lineups played apart, and the squared
    differences equal a game-by-game brute force."""
    from medici_sim.core import accounting as acc
    from medici_sim.core.driver import PreparedRun, ThreadRunner
    from medici_sim.core.pairing import metric_counters

    task = tuning.TuneTask("card", "greedy", 3, "standard", None, 4, 600, 300, 0, 4)
    tuned = task.slot((9.0, 1.0))
    default, challenger = (task.default, task.default, task.default), (tuned, task.default, task.default)
    first, games = tuning.FRESH_FIRST, 300
    with ThreadRunner(2) as runner:
        evaluator = tuning.Evaluator(runner, 2)
        apart = [PreparedRun(evaluator._config(task, lineup, games)).play(first, games)
                 for lineup in (default, challenger)]
        fresh = tuning.Fresh.of(evaluator.paired(task, default, challenger, first, games))
    assert (fresh.default == tuning._fresh_row(apart[0].slot[0])).all()
    assert (fresh.tuned == tuning._fresh_row(apart[1].slot[0])).all()
    assert (fresh.default_run == apart[0].run).all() and (fresh.tuned_run == apart[1].run).all()
    kernels = [PreparedRun(evaluator._config(task, lineup, games)) for lineup in (default, challenger)]
    each = [[k.play(i, 1) for i in range(first, first + games)] for k in kernels]
    credits = np.array([[t.slot[0][acc.STAT_WIN60] for t in played] for played in each])
    assert fresh.difference_sq == int(((credits[1] - credits[0]) ** 2).sum())
    assert 0 < fresh.difference_sq < int((credits**2).sum())  # the two agree on some games, differ on others
    counters = np.array([[t.run[metric_counters(GAMES["card"])] for t in played] for played in each])
    assert (fresh.metric_sq == ((counters[1] - counters[0]) ** 2).sum(axis=0)).all()
    assert (fresh.metric_sq > 0).any()


def test_the_improvement_interval_is_that_of_the_per_game_difference():
    """Two parameter sets that win and lose mostly together: their difference's interval is
    the paired one (mean +- 1.96 sd / sqrt(n) of the per-game differences), far narrower than
    the two rates' intervals combined as if they were independent."""
    rng = np.random.default_rng(5)
    default = rng.random(4000) < 0.3
    tuned = np.where(rng.random(4000) < 0.9, default, rng.random(4000) < 0.5)  # mostly the same games won
    unit = 60
    x, y = tuned * unit, default * unit
    moments = [np.array([len(v), v.sum(), (v * v).sum()]) for v in (x, y)]
    result = tuning.TaskResult(tuning.TuneTask("card", "greedy", 2, "standard", None, 4, 600, 4000, 0, 4), [],
                               (4.0, 2.0), tuning.Fresh(*moments, int(((x - y) ** 2).sum()), *NO_METRICS))
    _, low, high, difference, half, _ = result.check()
    d = (tuned.astype(float) - default.astype(float))
    assert difference == pytest.approx(d.mean())
    assert half == pytest.approx(1.959964 * d.std(ddof=1) / np.sqrt(len(d)), rel=1e-4)
    assert half < 0.6 * float(np.hypot(high[0] - low[0], high[1] - low[1])) / 2


def test_cross_check_plays_each_rules_parameters_against_the_others(capsys):
    from medici_sim.core.driver import ThreadRunner

    results = [_finished("standard", (4.0, 1.0)), _finished("bonus20", (12.0, 9.0)),
               _finished("standard", (5.0, 2.0), players=3), _finished("bonus20", (5.0, 2.0), players=3)]
    with ThreadRunner(2) as runner:
        table = tuning.cross_check(results, tuning.Evaluator(runner, 2))
    assert list(table["rules"]) == ["standard", "bonus20", "standard", "bonus20"]
    first = table.iloc[0]
    assert first["own"] == "greedy:reveal_below=4,take_min=1" and first["other"] == "greedy:reveal_below=12,take_min=9"
    assert first["games"] == 2400 and first["own_ci_low"] <= first["own_win_rate"] <= first["own_ci_high"]
    # greedy taking every card worth 1 or more beats greedy waiting for 9s, under either rule
    assert first["own_better"] and not first["other_better"]
    assert table.iloc[1]["other_better"] and not table.iloc[1]["own_better"]
    assert list(table["games"][2:]) == [0, 0]  # the same parameters under both rules: nothing to play


def test_balance_verdict_cites_tunes_cross_check(tmp_path):
    import medici_sim

    path = _tuned_file(tmp_path)
    document = json.loads(path.read_text())
    document["cross_check"] = [{"game": "card", "strategy": "greedy", "players": 2, "rules": rules,
                                "own": "x", "other": "y", "games": 2000, "own_win_rate": 0.6, "own_ci_low": 0.57,
                                "own_ci_high": 0.63, "fair_share": 0.5, "own_better": True, "other_better": False}
                               for rules in ("standard", "bonus20")]
    path.write_text(json.dumps(document))
    report = medici_sim.balance(2000, players=2, strategies="greedy,random", tuned=str(path))
    assert report.parameters["cross_check"][0] == "each rule's own are better"
    assert "each rule's own parameters win for greedy: bonus20 changes their best parameters" in report.verdict
    document["cross_check"][0]["own_better"] = False  # under standard neither set is better
    path.write_text(json.dumps(document))
    report = medici_sim.balance(2000, players=2, strategies="greedy,random", tuned=str(path))
    assert report.parameters["cross_check"][0] == "bonus20's better under bonus20 only"
    assert "bonus20 changes no strategy's best parameters measurably" in report.verdict


def test_balance_plays_another_rules_parameters_where_the_cross_check_found_them_better(tmp_path):
    from medici_sim.core.driver import seat_strategy

    path = _tuned_file(tmp_path)
    document = json.loads(path.read_text())
    bonus20_best = "greedy:reveal_below=6,take_min=5"
    document["cross_check"] = [
        {"game": "card", "strategy": "greedy", "players": 2, "rules": "standard", "own": "x", "other": bonus20_best,
         "games": 2000, "own_win_rate": 0.4, "own_ci_low": 0.37, "own_ci_high": 0.43, "fair_share": 0.5,
         "own_better": False, "other_better": True},
        {"game": "card", "strategy": "greedy", "players": 2, "rules": "bonus20", "own": bonus20_best, "other": "x",
         "games": 2000, "own_win_rate": 0.6, "own_ci_low": 0.57, "own_ci_high": 0.63, "fair_share": 0.5,
         "own_better": True, "other_better": False}]
    path.write_text(json.dumps(document))
    tuned = tuning.load_tuned(str(path), "card")
    best = seat_strategy("greedy", reveal_below=6, take_min=5)
    assert tuned.lineup([seat_strategy("greedy")], 2, "standard") == (best,)
    assert tuned.lineup([seat_strategy("greedy")], 2, "bonus20") == (best,)
    document["cross_check"][0]["strategy"] = "expert"  # a check of nothing the file tuned
    path.write_text(json.dumps(document))
    with pytest.raises(ConfigError, match="cross_check entry 1 is not tune's check of a tuned strategy"):
        tuning.load_tuned(str(path), "card")
    document["cross_check"][0].update(strategy="greedy", other="greedy:take_min=99")  # a value out of its range
    path.write_text(json.dumps(document))
    with pytest.raises(ConfigError) as error:
        tuning.load_tuned(str(path), "card")
    assert str(error.value) == (f"--tuned {path}: cross_check entry 1: other: parameter take_min of greedy must be "
                                "between 0 and 20, got 99")


@pytest.mark.slow
def test_ctrl_c_during_the_fresh_check_stops_and_resume_redoes_it(tmp_path):
    args = ["tune", "greedy", "--players", "2", "--evaluations", "8", "--popsize", "4", "--games-per-eval", "2000",
            "--fresh-games", "400000", "--seed", "3", "--quiet", "--threads", "2"]
    whole, resumed, saved = tmp_path / "whole.json", tmp_path / "resumed.json", tmp_path / "t.ckpt"
    assert medici(*args, "--out", str(whole)).wait(timeout=600) == 0
    proc = medici(*args, "--checkpoint", str(saved))
    deadline = time.monotonic() + 300
    while _rounds_saved(saved) < 2:  # every round saved: the fresh check is under way
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "PARTIAL RESULTS" in out, (out, err)
    assert json.loads(saved.read_text())["progress"]["tasks"][0]["fresh"] is None
    done = medici("tune", "greedy", "--resume", str(saved), "--quiet", "--out", str(resumed))
    _, err = done.communicate(timeout=600)
    assert done.returncode == 0, err
    assert _tables(whole) == _tables(resumed)


@pytest.mark.parametrize("game", ["card", "classic"])
def test_the_shipped_tuned_parameters_cover_every_built_in_rule_and_player_count(game):
    """Installed with the package (package data), every built-in with parameters at every
    player count under every rule, each entry checked (as balance --tuned shipped reads it)."""
    from medici_sim.core.registry import get_game

    definition = get_game(game)
    tuned = tuning.load_tuned(tuning.SHIPPED, game)
    expected = {(name, players, variant) for name in definition.built_ins if definition.registry[name].params
                for players in range(definition.min_players, definition.max_players + 1)
                for variant in definition.presets}
    assert set(tuned.best) == expected
    assert tuning.shipped_path(game).is_relative_to(Path(tuning.__file__).parents[1])


def test_evaluations_are_rounded_up_to_whole_rounds_and_said_so(capsys):
    """--evaluations 8 with a popsize of 3 plays 3 whole rounds: 9 candidates, said on stderr
    and in the summary (CMA-ES ranks a whole round)."""
    code, out, err = run(capsys, "tune", "greedy", "-p", "3", "-e", "8", "--popsize", "3", "-m", "60",
                         "--fresh-games", "60", "-q")
    assert code == 0, err
    assert "--evaluations 8 plays 9, 3 whole rounds of 3 candidates (--popsize)" in err
    assert re.search(r"evaluations\s+9\b", out)
