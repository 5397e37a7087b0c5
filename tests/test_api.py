"""The Python API: the command line's runs as functions, with the same numbers and errors."""
from __future__ import annotations

import json

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
    assert report.summary["games"] == 4000 and report.totals.games == 4000
    # the thread count never changes a result (R25)
    again = medici_sim.simulate(**options, threads=2)
    pd.testing.assert_frame_equal(report.seats, again.seats)


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
    assert set(balance.rules["variant"]) == {"standard", "bonus20"}
    assert balance.verdict.startswith("With 3 players") and balance.summary["verdict"] == balance.verdict


@pytest.mark.parametrize("call,message", [
    (lambda: medici_sim.simulate(10, players=9), "players must be between 2 and 6"),
    (lambda: medici_sim.simulate(10, game="classic", players=2), "between 3 and 6"),
    (lambda: medici_sim.simulate(10, strategies="nobody"), "unknown strategy 'nobody'"),
    (lambda: medici_sim.simulate(0), "games must be between"),
    (lambda: medici_sim.simulate(10, deck="no/such/deck.csv"), "no such file, and no shipped deck"),
    (lambda: medici_sim.compare(100, strategies="random"), "at least two different strategies"),
    (lambda: medici_sim.balance(100, game="classic"), "no variants"),
    (lambda: medici_sim.simulate(10, game="chess"), "unknown game"),
])
def test_errors_are_exceptions_not_exits(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_strategies_lists_each_games_strategies():
    card = medici_sim.strategies()
    assert "expert" in set(card["strategy"]) and card["summary"].str.len().min() > 0
    classic = medici_sim.strategies("classic")
    assert "random" in set(classic["strategy"])
    assert medici_sim.list_games() == ["card", "classic"]
