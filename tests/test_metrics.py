"""The designer metrics (issue 20): their intervals, their quantiles, their table and text.

That the kernel counts every metric exactly is proved game by game against the reference
engines in tests/test_kernel_statistics.py and tests/classic/test_differential.py (their
reference totals include the metrics, tests/metrics_reference.py). Here: the interval code on
known distributions, the margin's quantiles, the table computed from reference games in plain
Python, identity for any threads and batches, and what --out and the text show.
"""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from conftest import card_rules, run
from statsmodels.stats.proportion import proportion_confint

import medici_sim
from medici_sim.core import accounting as acc
from medici_sim.core import pairing, stats
from medici_sim.core.driver import RunConfig, seat_strategy, simulate
from medici_sim.core.registry import get_game
from medici_sim.core.stats import mean_interval, wilson_interval
from medici_sim.games.card import reference
from medici_sim.games.card.deck import default_deck
from medici_sim.study import metrics
from medici_sim.study.metrics import histogram_quantile, how_the_games_went, metric_row

METRIC_COLUMNS = ["comeback_after_day1", "comeback_after_day2", "lead_changes", "margin", "margin_p25", "margin_p50",
                  "margin_p75", "margin_p90", "shared_win_games"]


@pytest.mark.parametrize(("successes", "n"), [(0, 50), (1, 10), (37, 100), (499, 1000), (999, 1000), (20, 20)])
def test_the_wilson_interval_is_statsmodels(successes, n):
    low, high = wilson_interval(successes, n)
    want = proportion_confint(successes, n, alpha=0.05, method="wilson")
    assert (low, high) == pytest.approx(want, abs=1e-12)


def test_the_intervals_cover_95_percent_of_known_distributions():
    """2,000 samples each: a share p = 0.03 of 200 (Wilson) and a mean of 200 Poisson(2.5)
    draws (normal, from sums of squares) hold the true value about 95% of the time."""
    rng = np.random.default_rng(20)
    hits = rng.binomial(200, 0.03, size=2000)
    low, high = wilson_interval(hits, 200)
    assert 0.93 <= np.mean((low <= 0.03) & (0.03 <= high)) <= 0.975
    draws = rng.poisson(2.5, size=(2000, 200))
    _, low, high = mean_interval(draws.sum(axis=1), (draws**2).sum(axis=1), 200)
    assert 0.93 <= np.mean((low <= 2.5) & (2.5 <= high)) <= 0.97


def test_the_quantiles_of_a_histogram_are_numpys():
    values = np.random.default_rng(3).geometric(0.05, size=999) - 1
    histogram = np.bincount(values, minlength=400)[:400]
    for q in (0.25, 0.5, 0.75, 0.9):
        assert histogram_quantile(histogram, q) == np.quantile(values, q, method="inverted_cdf")
    assert np.isnan(histogram_quantile(np.array([0, 0, 1]), 0.5))  # in the open-ended last bin: not known


def _leaders(scores) -> set:
    return set(np.flatnonzero(scores == scores.max()))


def test_the_table_equals_the_reference_games_counted_in_python():
    """300 card games, counted from the reference engine's records in plain Python."""
    names = ["greedy", "random", "collector", "cautious"]
    config = RunConfig(components=default_deck(), players=4, strategies=tuple(seat_strategy(n) for n in names),
                       games=300, seed=5, seating="rotate", threads=2)
    row = metric_row(simulate(config, batch_size=70).totals.run, medici_sim.core.registry.get_game("card"), 3)
    comeback1 = comeback2 = changes = shared = 0
    margins, turns = [], []
    for index in range(300):
        game = reference.run_game(default_deck(), card_rules(4), names, 5, index, "rotate")
        florins = game.record["florins"]
        winners = _leaders(florins[-1])
        comeback1 += not winners & _leaders(florins[0])
        comeback2 += not winners & _leaders(florins[1])
        changes += sum(_leaders(florins[d]) != _leaders(florins[d - 1]) for d in (1, 2))
        shared += len(winners) > 1
        others = florins[-1][florins[-1] < florins[-1].max()]
        margins.append(florins[-1].max() - others.max() if len(others) else 0)
        turns.append(len(game.turn_log))
    assert row["games"] == 300
    assert row["comeback_after_day1"] == comeback1 / 300 and row["comeback_after_day2"] == comeback2 / 300
    assert row["lead_changes"] == pytest.approx(changes / 300) and row["shared_win_games"] == shared / 300
    assert row["margin"] == pytest.approx(np.mean(margins)) and row["turns_per_game"] == pytest.approx(np.mean(turns))
    for name, q in (("margin_p25", 0.25), ("margin_p50", 0.5), ("margin_p75", 0.75), ("margin_p90", 0.9)):
        assert row[name] == np.quantile(margins, q, method="inverted_cdf")
    assert row["margin_ci_low"] < row["margin"] < row["margin_ci_high"]
    assert row["ran_out_day_share"] == 0 and row["ran_out_day_share_ci_high"] > 0


@pytest.mark.parametrize("game", ["card", "classic"])
def test_the_metrics_are_the_same_for_any_threads_and_batches(game):
    strategies = ("random", "random", "random") if game == "classic" else ("greedy", "random", "collector")
    config = RunConfig(components=default_deck() if game == "card" else None, players=3, game=game, games=900, seed=9,
                       strategies=tuple(seat_strategy(s, game=game) for s in strategies), seating="random",
                       threads=1)
    one = simulate(config, batch_size=900).totals
    many = simulate(RunConfig(**{**config.__dict__, "threads": 2}), batch_size=97).totals
    assert np.array_equal(one.run, many.run) and np.array_equal(one.slot, many.slot)
    assert np.array_equal(one.seat, many.seat)


def test_out_holds_the_metrics_table_and_the_text_tells_how_the_games_went(capsys, tmp_path):
    out = tmp_path / "run.json"
    code, stdout, _ = run(capsys, "-g", "classic", "--games", "3000", "-q", "--out", str(out))
    assert code == 0
    [row] = json.loads(out.read_text())["metrics"]
    assert {"rules", "players", "components", "games", "lots_per_game", "ran_out_day_share"} <= set(row)
    for name in METRIC_COLUMNS:
        assert name in row
    for name in ("comeback_after_day1", "lead_changes", "margin", "shared_win_games", "lots_per_game"):
        assert row[f"{name}_ci_low"] <= row[name] <= row[f"{name}_ci_high"]
    assert "How the games went" in stdout and "leader after day 1 did not win" in stdout
    strategies = json.loads(out.read_text())["strategies"][0]
    assert {"comeback_when_trailing_day1", "cards_per_lot", "bids_per_lot", "price_per_face_value"} <= set(strategies)
    csv = tmp_path / "run.csv"
    assert run(capsys, "-g", "classic", "--games", "300", "-q", "--out", str(csv))[0] == 0
    assert (tmp_path / "run-metrics.csv").exists()


def test_the_share_of_days_run_out_counts_the_rule_sets_days(capsys, tmp_path):
    """C12, C18: under days=2 a game has two days that may run out, not the rulebook's three."""
    out = tmp_path / "run.json"
    assert run(capsys, "-g", "classic", "--games", "600", "-q", "--rules", "days=2", "--out", str(out))[0] == 0
    saved = json.loads(out.read_text())
    [row] = saved["metrics"]
    assert row["ran_out_day_share"] == pytest.approx(saved["summary"]["ran_out_days"] / (2 * 600), abs=1e-12)


def test_compare_tells_how_each_strategy_played(capsys, tmp_path):
    """compare's strategy_metrics: per strategy, the games it trailed after day 1 and how often it
    then won (its own Wilson interval: different games for each strategy, so labelled independent),
    and its decision statistics."""
    out = tmp_path / "compare.json"
    code, stdout, err = run(capsys, "compare", "-p", "3", "-s", "random,greedy,expert", "-n", "600", "-q",
                            "--out", str(out))
    assert code == 0, err
    document = json.loads(out.read_text())
    rows = {row["strategy"]: row for row in document["strategy_metrics"]}
    assert set(rows) == {"random", "greedy", "expert"}
    for row in rows.values():
        assert 0 < row["trailed_day1"] < row["games"] == 600
        low, high = wilson_interval(round(row["comeback_when_trailing_day1"] * row["trailed_day1"]),
                                    row["trailed_day1"])
        assert (row["comeback_when_trailing_day1_ci_low"], row["comeback_when_trailing_day1_ci_high"]) == \
            pytest.approx((low, high))
        assert {"reveals_per_turn", "cards_taken_per_turn", "free_take_share"} <= set(row)
    assert "How each strategy played" in stdout and "independent" in stdout


def test_the_text_skips_a_game_that_counts_no_metrics():
    assert how_the_games_went(medici_sim.study.metrics.metrics_frame([{"games": 10}])) == ""


def test_the_metrics_page_shows_the_saved_measurement():
    """docs/metrics.md's closing tables are printed from docs/metrics-measured.json by
    scripts/metrics_tables.py (docs/generate_outputs.py's blocks): both games at every player
    count under random and expert play, and the card game's bonus20 ladder at 4 players with
    every level, strong included."""
    import importlib.util
    import sys
    from pathlib import Path

    root = Path(__file__).parents[1]
    saved = json.loads((root / "docs" / "metrics-measured.json").read_text())
    rows = {(row["game"], row["play"], row["players"]) for row in saved["metrics"]}
    assert rows == {(game, play, n) for game, counts in (("card", range(2, 7)), ("classic", range(3, 7)))
                    for play in ("random", "expert") for n in counts}
    levels = list(dict.fromkeys(row["level"] for row in saved["ladder"]))
    assert levels == ["random", "heuristics", "tuned", "search-4", "search-16", "strong"]
    spec = importlib.util.spec_from_file_location("generate_outputs", root / "docs" / "generate_outputs.py")
    docs = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, docs)
    spec.loader.exec_module(docs)
    page = root / "docs" / "metrics.md"
    blocks = [b for b in docs.parse(page) if "metrics_tables.py" in b.argument]
    assert len(blocks) == 2
    for block in blocks:
        assert docs.body(page.read_text(), block) == docs.produce(block), block.name


@pytest.mark.parametrize("game", ["card", "classic"])
def test_metrics_follow_the_days_in_force(capsys, tmp_path, game):
    """Issue 30: a comeback after a day the game does not play past, or a lead change in a 1-day
    game, does not apply: n/a in the text, null in --out files, never 0; the labels name the days
    in force (days 2 to 5, not "days 2 and 3")."""
    out = tmp_path / "run.json"
    code, stdout, err = run(capsys, "-g", game, "-p", "3", "--games", "60", "-q", "--rules", "days=1",
                            "--out", str(out))
    assert code == 0, err
    saved = json.loads(out.read_text())
    [row] = saved["metrics"]
    for name in ("comeback_after_day1", "comeback_after_day2", "lead_changes"):
        assert row[name] is None and row[f"{name}_ci_low"] is None, name
    assert row["days"] == 1 and row["margin"] > 0
    assert all(seat["comeback_when_trailing_day1"] is None for seat in saved["seats"])
    assert "(comeback)  n/a (1-day games)" in stdout and "0.0% (0.0-" not in stdout.split("winning margin")[0]
    row = medici_sim.simulate(60, game=game, players=3, rules="days=2").metrics.iloc[0]
    assert np.isnan(row["comeback_after_day2"]) and 0 <= row["comeback_after_day1"] <= 1
    assert "lead changes per game (day 2)" in how_the_games_went(medici_sim.simulate(60, game=game, players=3,
                                                                                      rules="days=2").metrics)
    five = medici_sim.simulate(60, game=game, players=3, rules="days=5").metrics
    assert "lead changes per game (days 2 to 5)" in how_the_games_went(five)


def test_changes_leave_out_what_one_side_cannot_have(capsys, tmp_path):
    """balance --rules days=1 --vs standard: no comeback or lead-change change (it called "comebacks
    after day 2 +22.94 points" a clear change), and the text says the rule sets differ in days."""
    out = tmp_path / "balance.json"
    code, stdout, err = run(capsys, "balance", "-p", "3", "-s", "random,greedy", "-n", "120", "-q", "--rules",
                            "days=1", "--vs", "standard", "--out", str(out))
    assert code == 0, err
    changes = json.loads(out.read_text())["metric_changes"]
    assert {row["metric"] for row in changes} == {"margin", "shared_win_games", "turns_per_game"}
    assert {(row["first_days"], row["second_days"]) for row in changes} == {(1, 3)}
    assert "comebacks after day" not in stdout and "plays 3 days, days=1 1 day" in stdout


def test_a_margin_past_the_histogram_is_written_as_a_bound():
    """The last bin of the margin's histogram holds every margin from 399 up: a quantile there is
    "399 or more", not "nan"."""
    run_counters = np.zeros(acc.N_COMMON_RUN_STATS + len(get_game("classic").engine.run_columns), np.int64)
    run_counters[acc.RUN_GAMES] = 10
    run_counters[acc.RUN_MARGIN] = 10 * 450
    run_counters[acc.RUN_MARGIN_SQ] = 10 * 450**2
    run_counters[acc.RUN_MARGIN_HISTOGRAM + acc.MARGIN_BINS - 1] = 10
    row = {"rules": "standard", "players": 3, "deck": "", **metric_row(run_counters, get_game("classic"), 3)}
    text = how_the_games_went(medici_sim.study.metrics.metrics_frame([row]))
    assert "median 399 or more; 90% at most 399 or more" in text and "nan" not in text


def test_days_that_run_out_are_warned_of_and_shown(capsys):
    """Rules that make the deck run out (ship_capacity=20, days=5: most days end with no cards)
    get one warning line on stderr, and the text shows the share on a line of its own."""
    code, stdout, err = run(capsys, "-p", "4", "--games", "100", "-q", "--rules", "ship_capacity=20,days=5")
    assert code == 0, err
    [warning] = [line for line in err.splitlines() if "ran out of cards" in line]
    assert warning.startswith("medici-sim: warning: ") and "days=5,ship_capacity=20" in warning
    assert "days that ran out of cards" in stdout
    code, stdout, err = run(capsys, "-p", "4", "--games", "100", "-q")
    assert code == 0 and "ran out" not in err


def test_the_classic_games_exhausted_decks_are_shown_not_warned_of(capsys, tmp_path):
    """In the classic game a day ended by an empty deck is ordinary play (C12: lots put aside):
    every classic run warned 'the deck is too short for these rules' under the rulebook's own
    rules (31% of days at 3 players). The share is shown; no warning, in the text or the report."""
    page = tmp_path / "run.html"
    code, stdout, err = run(capsys, "--game", "classic", "-p", "3", "--games", "100", "-q", "--report", str(page))
    assert code == 0, err
    assert "days that ran out of cards" in stdout and "ran out" not in err
    assert "too short" not in page.read_text()


def test_intervals_stay_in_their_domain_and_hold_their_value():
    """A share of 0 or 1 gets a bound of exactly 0 or 1 (rounding made one -1e-19, and --report's
    error bars failed on it); every interval holds its value."""
    n = np.arange(1, 5000)
    for successes in (np.zeros_like(n), n, n // 3):
        low, high = wilson_interval(successes, n)
        share = successes / n
        assert ((0 <= low) & (low <= share) & (share <= high) & (high <= 1)).all()
    assert (wilson_interval(np.zeros_like(n), n)[0] == 0).all() and (wilson_interval(n, n)[1] == 1).all()


def test_a_report_with_a_share_at_zero_is_written(capsys, tmp_path):
    """--report at --games 3 --rules days=1: shares of 0 with intervals touching 0 (matplotlib refused
    the negative error bar)."""
    page = tmp_path / "run.html"
    code, _, err = run(capsys, "--games", "3", "-q", "--rules", "days=1", "--report", str(page))
    assert code == 0, err
    assert page.read_text().startswith("<!DOCTYPE html>")


# ---------------------------------------------------------------- over the game's own scoring moments (issue 31)

def _as(game: str, **terms):
    """A registered game declared in other terms (its kernel, rules and totals unchanged): each
    term goes to the contract's part that declares it (Engine or Presentation)."""
    definition = get_game(game)
    parts = {}
    for part in ("engine", "presentation"):
        declared = {f.name for f in dataclasses.fields(getattr(definition, part))}
        parts[part] = dataclasses.replace(getattr(definition, part),
                                          **{k: v for k, v in terms.items() if k in declared})
    return dataclasses.replace(definition, **parts)


def test_the_metrics_are_named_after_the_games_own_scoring_moments():
    """A game scored at phases has comeback_after_phase1 and phases where a Medici game has
    comeback_after_day1 and days, "leader after phase 1" in the text, its margin in its own unit,
    and its per-strategy comeback named after its first phase; the counts are the same numbers."""
    config = RunConfig(components=default_deck(), games=300, players=3, seed=4,
                       strategies=tuple(seat_strategy(s) for s in ("greedy", "collector", "random")))
    run = simulate(config).totals.run
    card = get_game("card")
    phased = _as("card", moment="phase", moment_rule="", moments=3, score_unit="points",
                 run_columns=())  # without the card game's own counters (its days that ran out)
    days, phases = metric_row(run, card, 3), metric_row(run, phased, 3)
    assert phases["phases"] == days["days"] == 3
    assert phases["comeback_after_phase1"] == days["comeback_after_day1"]
    assert phases["comeback_after_phase2"] == days["comeback_after_day2"]
    assert "comeback_after_day1" not in phases and "days" not in phases
    assert list(phases) == [c for c in metrics.metric_columns(phased) if c in phases]
    text = how_the_games_went(metrics.metrics_frame([phases]), phased)
    assert "leader after phase 1 did not win" in text and "lead changes per game (phases 2 and 3)" in text
    assert "winning margin in points" in text and "day" not in text and "florin" not in text
    medici = how_the_games_went(metrics.metrics_frame([days]), card)
    assert "leader after day 1 did not win" in medici and "winning margin in florins" in medici
    assert "leader after day 1 did not win" in how_the_games_went(metrics.metrics_frame([days]))  # read off the
    #                                                                       table's columns without the game too
    assert [name for name, _ in pairing.paired_metrics(phased)][:2] == ["comeback_after_phase1",
                                                                         "comeback_after_phase2"]
    assert "comeback_when_trailing_phase1" in metrics.strategy_metric_columns(phased)
    assert "trailed_phase1" in metrics.strategy_metric_columns(phased)
    # a game of one phase: no leader after phase 1 but its winner, no lead to change
    one = how_the_games_went(metrics.metrics_frame([metric_row(run, phased, 1)]), phased)
    assert "n/a (1-phase games)" in one


def test_a_game_scored_at_the_end_only_has_no_comebacks():
    """moment "": its tables have no comeback column (nothing trails after a first scoring moment)
    and its metrics never apply."""
    config = RunConfig(components=default_deck(), games=200, players=3, seed=4,
                       strategies=tuple(seat_strategy(s) for s in ("greedy", "collector", "random")))
    totals = simulate(config).totals
    ended = _as("card", moment="", moment_rule="", moments=1)
    frame = stats.stat_frame(totals.seat, ended)
    assert not [c for c in frame.columns if "comeback" in c or "day" in c]
    assert metrics.strategy_metric_columns(ended)[:4] == ["players", "deck", "strategy", "games"]
    row = metric_row(totals.run, ended, 1)
    assert np.isnan(row["comeback_after_moment1"]) and np.isnan(row["lead_changes"])
    assert not metrics.applies("comeback_after_moment1", 1) and metrics.applies("comeback_after_moment1", 2)
