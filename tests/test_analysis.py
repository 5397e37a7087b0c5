"""compare and balance: output tables, interval arithmetic, the verdict, --precision, --plot,
determinism (R25) and ratings."""
from __future__ import annotations

import dataclasses
import json
import math
import re
import sys
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from conftest import run
from scipy.stats import norm

from medici_sim.cli.tables import caption, compact
from medici_sim.core import accounting, registry
from medici_sim.core.contract import ScoreSource
from medici_sim.core.driver import RunConfig, Totals, seat_strategy, simulate
from medici_sim.core.registry import get_game
from medici_sim.core.stats import Z95, mean_interval, paired_difference, stat_columns, stat_frame
from medici_sim.study import analysis
from medici_sim.study.analysis import (
    HEAD_TO_HEAD_COLUMNS,
    RATING_COLUMNS,
    balance_columns,
    balance_tables,
    change_words,
    head_to_head_table,
    max_half_width,
    points,
    ratings_table,
    rules_columns,
    strategy_table,
    strategy_table_columns,
    verdict,
)
from medici_sim.study.metrics import Moments, change_columns, metric_columns, strategy_metric_columns
from medici_sim.study.tournament import Tournament

BALANCE_COLUMNS = balance_columns("standard", "bonus20")  # the card game's balance (its balance_variants)
STRATEGY_TABLE_COLUMNS = strategy_table_columns(get_game("card"))
RULES_COLUMNS = rules_columns(get_game("card"))
Z = float(norm.ppf(0.975))  # 1.95996..., computed independently of stats.Z95

COMPARE_TABLES = {"strategies": STRATEGY_TABLE_COLUMNS, "ratings": RATING_COLUMNS,
                  "head_to_head": HEAD_TO_HEAD_COLUMNS, "metrics": metric_columns(get_game("card")),
                  "strategy_metrics": strategy_metric_columns(get_game("card"))}
BALANCE_TABLES = {"strategies": BALANCE_COLUMNS, "rules": RULES_COLUMNS, "metrics": metric_columns(get_game("card")),
                  "metric_changes": change_columns(Moments("day"), get_game("card").data_noun)}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"



def run_json(capsys, tmp_path, *args, name="out.json") -> dict:
    path = tmp_path / name
    code, out, err = run(capsys, *args, "--out", str(path), "-q")
    assert code == 0, err
    return json.loads(path.read_text())


def assert_one_line_error(code, out, err, *words):
    assert code == 2
    assert err.startswith("medici-sim: error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err and out == ""
    for word in words:
        assert word in err


def slots(*names):
    return tuple(seat_strategy(name) for name in names)


# ------------------------------------------------------------------ 1. tables through the CLI

@pytest.mark.parametrize("spec, counts", [("all", [2, 3, 4, 5, 6]), ("3", [3]), ("4,2", [2, 4])])
def test_compare_json_holds_summary_and_documented_tables(capsys, tmp_path, spec, counts):
    names = ["greedy", "random"]
    document = run_json(capsys, tmp_path, "compare", "-n", "2000", "-p", spec, "-s", ",".join(names),
                        "--seed", "4")
    assert set(document) == {"summary", *COMPARE_TABLES}
    summary = document["summary"]
    assert summary["configurations"] == len(counts)
    assert summary["seed"] == 4 and summary["precision"] == ""
    tables = {name: pd.DataFrame(document[name]) for name in COMPARE_TABLES}
    for name, columns in COMPARE_TABLES.items():
        assert list(tables[name].columns) == columns, name
        assert sorted(set(tables[name]["players"])) == counts, name
    assert len(tables["strategies"]) == len(tables["ratings"]) == len(counts) * len(names)
    assert len(tables["head_to_head"]) == len(counts) * len(names) * (len(names) - 1)
    assert set(tables["strategies"]["rules"]) == {"standard"}
    for _, rows in tables["strategies"].groupby("players"):
        assert list(rows["strategy"]) == names
        assert (rows["games"] >= 2000).all()  # every strategy sits in every game of its lineup


def test_compare_plays_the_variant_asked_for(capsys, tmp_path):
    document = run_json(capsys, tmp_path, "compare", "-n", "2000", "-p", "3", "-s", "random,greedy",
                        "--variant", "bonus20")
    assert set(pd.DataFrame(document["strategies"])["rules"]) == {"bonus20"}


@pytest.mark.parametrize("spec, counts", [("all", [2, 3, 4, 5, 6]), ("5", [5]), ("6,3", [3, 6])])
def test_balance_json_holds_summary_and_documented_tables(capsys, tmp_path, spec, counts):
    names = ["random", "expert"]
    document = run_json(capsys, tmp_path, "balance", "-n", "2000", "-p", spec, "-s", ",".join(names))
    assert set(document) == {"summary", *BALANCE_TABLES}
    assert document["summary"]["configurations"] == 2 * len(counts)
    assert document["summary"]["verdict"].count("\n") == len(counts) - 1
    tables = {name: pd.DataFrame(document[name]) for name in BALANCE_TABLES}
    for name, columns in BALANCE_TABLES.items():
        assert list(tables[name].columns) == columns, name
        assert sorted(set(tables[name]["players"])) == counts, name
    assert len(tables["strategies"]) == len(counts) * len(names)
    rules = tables["rules"]
    assert len(rules) == 2 * len(counts)
    for players, rows in rules.groupby("players"):
        assert sorted(rows["rules"]) == ["bonus20", "standard"]
        assert np.allclose(rows["fair_win_rate"], 1 / players)


@pytest.mark.parametrize("command, tables", [("compare", COMPARE_TABLES), ("balance", BALANCE_TABLES)])
def test_csv_out_writes_first_table_and_the_others_beside_it(capsys, tmp_path, command, tables):
    path = tmp_path / "result.csv"
    code, out, err = run(capsys, command, "-n", "2000", "-p", "2,4", "-s", "random,greedy,expert",
                         "--out", str(path), "-q")
    assert code == 0, err
    names = list(tables)
    expected = {"result.csv"} | {f"result-{name}.csv" for name in names[1:]} | {"result-summary.csv"}
    assert {p.name for p in tmp_path.iterdir()} == expected  # and no temporary files left behind
    for i, (name, columns) in enumerate(tables.items()):
        frame = pd.read_csv(path if i == 0 else tmp_path / f"result-{name}.csv")
        assert list(frame.columns) == columns, name
        assert sorted(set(frame["players"])) == [2, 4], name
    summary = pd.read_csv(tmp_path / "result-summary.csv")
    assert len(summary) == 1
    assert summary["configurations"].iloc[0] == (2 if command == "compare" else 4)


# ------------------------------------------------------------------ 2. interval arithmetic by hand

def test_mean_interval_of_small_integer_sums():
    # x = 1, 2, 3, 4: sum 10, sum of squares 1 + 4 + 9 + 16 = 30, n = 4
    # mean 2.5; deviations -1.5, -0.5, 0.5, 1.5; squared 2.25 + 0.25 + 0.25 + 2.25 = 5; sample variance 5 / 3
    # standard error sqrt((5 / 3) / 4) = sqrt(5 / 12)
    # x = 2, 2, 2: sum 6, squares 12, n = 3: mean 2, variance 0
    mean, low, high = mean_interval(np.array([10, 6]), np.array([30, 12]), np.array([4, 3]))
    assert mean == pytest.approx([2.5, 2.0])
    half = Z * math.sqrt(5 / 12)
    assert low == pytest.approx([2.5 - half, 2.0]) and high == pytest.approx([2.5 + half, 2.0])
    assert Z95 == pytest.approx(Z, abs=1e-12)


def test_mean_interval_of_one_game_is_a_point():
    mean, low, high = mean_interval(np.array([7]), np.array([49]), np.array([1]))
    assert (mean[0], low[0], high[0]) == (7.0, 7.0, 7.0)


def win_credits_to_totals(credits: list[Fraction]) -> tuple[int, int]:
    """The kernel's WIN60 totals of a list of per-game win credits (1, 1/k or 0)."""
    units = [int(c * accounting.WIN_UNIT) for c in credits]
    return sum(units), sum(u * u for u in units)


def test_win_rate_interval_from_win60_units():
    # five games: outright win, 2-way shared win, loss, 3-way shared win, loss
    credits = [Fraction(1), Fraction(1, 2), Fraction(0), Fraction(1, 3), Fraction(0)]
    win60, win60_sq = win_credits_to_totals(credits)
    assert (win60, win60_sq) == (60 + 30 + 20, 3600 + 900 + 400)
    n = len(credits)
    rate = sum(credits) / n  # (1 + 1/2 + 1/3) / 5 = 11/30
    assert rate == Fraction(11, 30)
    variance = sum((c - rate) ** 2 for c in credits) / (n - 1)  # sample variance by definition
    half = Z * math.sqrt(variance / n)
    mean, low, high = mean_interval(np.array([win60]), np.array([win60_sq]), np.array([n]), accounting.WIN_UNIT)
    assert mean[0] == pytest.approx(11 / 30)
    assert low[0] == pytest.approx(11 / 30 - half) and high[0] == pytest.approx(11 / 30 + half)


def outcomes_to_totals(scores: np.ndarray) -> Totals:
    """The kernel's totals of games with these final scores (a row a game, a column a slot at a
    fixed seat), counted by the kernel's own accounting."""
    games, players = scores.shape
    totals = Totals.zeros(players, get_game("card"))
    seat_slot = np.arange(players)
    rows = np.zeros_like(totals.seat)
    for score in scores:
        accounting.record_outcome_nb(score, players, seat_slot, rows, totals.pair_stats, totals.run)
        accounting.add_seat_rows_nb(rows, seat_slot, totals.seat, totals.slot)
    return totals


def per_game_credits(scores: np.ndarray) -> np.ndarray:
    """Each game's win credits (1/k for each of k tied winners, R22), computed directly."""
    best = scores.max(axis=1, keepdims=True)
    won = scores == best
    return won / won.sum(axis=1, keepdims=True)


def test_paired_difference_is_the_per_game_difference_interval():
    """3,000 games of four slots, shared wins included: the interval of (slot 0) - (slots 2, 3)
    from the kernel's sums equals the one computed from each game's difference."""
    rng = np.random.default_rng(11)
    scores = rng.integers(0, 4, size=(3000, 4)) * 10  # ties for the win are common
    credits = per_game_credits(scores)
    difference = credits[:, 0] - credits[:, 2:].mean(axis=1)
    half = Z * difference.std(ddof=1) / math.sqrt(len(difference))
    mean, low, high = paired_difference(outcomes_to_totals(scores), [0], [2, 3])
    assert mean == pytest.approx(difference.mean(), abs=1e-12)
    assert (low, high) == pytest.approx((difference.mean() - half, difference.mean() + half), abs=1e-12)
    assert (credits[:, 0] * credits[:, 2] > 0).any()  # shared wins were counted


def test_paired_difference_of_one_against_two_knows_they_share_the_games():
    """One slot against two others, exactly one winner a game (p = 0.6, 0.2, 0.2): the difference
    D = s0 - (s1 + s2) / 2 has mean 0.4 and variance p0 + (p1 + p2) / 4 - 0.4**2 = 0.54 per game.
    Treating the two win rates as independent (the two intervals' variances added, each slot's
    0.16 counted over twice the games) would claim 0.24 + 0.16 / 2 = 0.32: a standard error 23%
    too small."""
    rng = np.random.default_rng(3)
    games = 40_000
    winner = rng.choice(3, size=games, p=[0.6, 0.2, 0.2])
    scores = (np.arange(3)[None, :] == winner[:, None]).astype(np.int64)
    totals = outcomes_to_totals(scores)
    mean, low, high = paired_difference(totals, [0], [1, 2])
    se = (high - low) / 2 / Z
    assert mean == pytest.approx(0.4, abs=0.01)
    assert se == pytest.approx(math.sqrt(0.54 / games), rel=0.02)
    independent = math.hypot(math.sqrt(0.24 / games), math.sqrt(0.16 / (2 * games)))
    assert independent < 0.8 * se


def tournament_with_wins(deck, players: int, credits_by_strategy: dict[str, list[Fraction]], variant="standard"):
    """A Tournament whose per-strategy win totals are set by hand."""
    t = Tournament(deck, players, slots(*credits_by_strategy), variant)
    for row, credits in enumerate(credits_by_strategy.values()):
        win60, win60_sq = win_credits_to_totals(credits)
        t.strategy_stats[row, accounting.STAT_GAMES] = len(credits)
        t.strategy_stats[row, accounting.STAT_WIN60] = win60
        t.strategy_stats[row, accounting.STAT_WIN60_SQ] = win60_sq
        t.strategy_stats[row, accounting.STAT_SCORE] = 100 * len(credits)
        t.strategy_stats[row, accounting.STAT_SCORE_SQ] = 100 * 100 * len(credits)
    games = max(len(c) for c in credits_by_strategy.values())
    t.run[accounting.RUN_GAMES] = games
    t.seat_stats[:, accounting.STAT_GAMES] = games
    return t


def hand_interval(credits: list[Fraction]) -> tuple[float, float]:
    """(rate, half-width) of a list of win credits, by the definition of the sample variance."""
    n = len(credits)
    rate = sum(credits) / n
    variance = sum((c - rate) ** 2 for c in credits) / (n - 1)
    return float(rate), Z * math.sqrt(variance / n)


def test_strategy_table_win_rates_by_hand(deck):
    half_win = Fraction(1, 2)
    credits = {
        "greedy": [Fraction(1)] * 30 + [half_win] * 10 + [Fraction(0)] * 60,  # 35 wins in 100 games
        "random": [Fraction(1)] * 2 + [Fraction(0)] * 98,  # 2%: the interval reaches below 0
    }
    table = strategy_table(tournament_with_wins(deck, 2, credits))
    assert list(table.columns) == STRATEGY_TABLE_COLUMNS
    # greedy: rate 0.35; deviations 0.65 (30x), 0.15 (10x), -0.35 (60x)
    # sum of squares 30 * 0.4225 + 10 * 0.0225 + 60 * 0.1225 = 12.675 + 0.225 + 7.35 = 20.25; / 99
    half = Z * math.sqrt(20.25 / 99 / 100)
    assert hand_interval(credits["greedy"]) == pytest.approx((0.35, half))
    greedy = table.iloc[0]
    assert greedy["win_rate"] == pytest.approx(0.35)
    assert greedy["win_rate_ci_low"] == pytest.approx(0.35 - half)
    assert greedy["win_rate_ci_high"] == pytest.approx(0.35 + half)
    # random: 0.02 with half-width 1.96 * sqrt(0.02 * 0.98 * 100 / 99 / 100) = 0.0276 > 0.02: clipped at 0
    random_half = Z * math.sqrt(0.02 * 0.98 * 100 / 99 / 100)
    assert random_half > 0.02
    random = table.iloc[1]
    assert random["win_rate_ci_low"] == 0.0
    assert random["win_rate_ci_high"] == pytest.approx(0.02 + random_half)
    assert table["mean_florins"].tolist() == [100.0, 100.0]


def paired_tournaments(deck, standard: dict[str, list[Fraction]], bonus20: dict[str, list[Fraction]]):
    """Two hand-made tournaments of two strategies at 2 players (one lineup) whose credits are
    game by game those listed (the same games under both rules), bonus20's following standard's."""
    a = tournament_with_wins(deck, 2, standard)
    b = tournament_with_wins(deck, 2, bonus20, "bonus20")
    b.follow(a)
    for t in (a, b):
        t.target = t.done[0] = t.games
    for row, name in enumerate(standard):
        b.paired_sq[row] = sum(int((y - x) * accounting.WIN_UNIT) ** 2 for x, y in zip(standard[name], bonus20[name],
                                                                                        strict=True))
    return a, b


def test_balance_difference_interval_is_paired_game_by_game(deck):
    """The change of a win rate between the rules is the mean of each game's difference, and its
    interval that mean's: the rules play the same games, so their variances are not added."""
    standard = {"greedy": [Fraction(1)] * 40 + [Fraction(0)] * 60,
                "random": [Fraction(1)] * 20 + [Fraction(1, 2)] * 4 + [Fraction(0)] * 76}
    # the same games, mostly the same outcomes: greedy gains 15 games, random loses 2 and its shared wins
    bonus20 = {"greedy": [Fraction(1)] * 55 + [Fraction(0)] * 45,
               "random": [Fraction(1)] * 18 + [Fraction(0)] * 82}
    per_strategy, per_rules = balance_tables(*paired_tournaments(deck, standard, bonus20))
    assert list(per_strategy.columns) == BALANCE_COLUMNS and list(per_rules.columns) == RULES_COLUMNS
    for i, name in enumerate(["greedy", "random"]):
        row = per_strategy.iloc[i]
        assert row["strategy"] == name
        rate_a, half_a = hand_interval(standard[name])
        rate_b, half_b = hand_interval(bonus20[name])
        assert row["win_rate_standard"] == pytest.approx(rate_a)  # per-rule intervals as in the table
        assert row["win_rate_standard_ci_high"] - row["win_rate_standard"] == pytest.approx(half_a)
        assert row["win_rate_bonus20_ci_low"] == pytest.approx(rate_b - half_b)
        change, half = hand_interval([y - x for x, y in zip(standard[name], bonus20[name], strict=True)])
        assert row["difference"] == pytest.approx(rate_b - rate_a) == pytest.approx(change)
        assert row["difference_ci_low"] == pytest.approx(change - half)
        assert row["difference_ci_high"] == pytest.approx(change + half)
        assert half < math.hypot(half_a, half_b)  # narrower than the two rules' variances added
        assert row["significant"] == (abs(change) > half)
    # greedy: +0.15, half 1.96 * sqrt(.15 * .85 / 99) = 0.070 (added variances: 0.137): significant
    assert bool(per_strategy["significant"].iloc[0]) is True
    # random: -0.04, half 1.96 * 0.0169 = 0.033 (added variances: 0.11): significant, paired
    assert bool(per_strategy["significant"].iloc[1]) is True


def test_head_to_head_above_rate_from_a_hand_made_pairs_matrix(deck):
    t = Tournament(deck, 3, slots("greedy", "random", "expert"))
    # pairs[a, b]: 2 per game a finished above b, 1 per tie. greedy-random: 3 games above, 1 tie, 1 below
    # (7 : 3 half-points, 5 meetings); greedy-expert: 1 above, 2 ties (4 : 2, 3 meetings); random-expert never met
    t.pairs[:] = [[0, 7, 4],
                  [3, 0, 0],
                  [2, 0, 0]]
    table = head_to_head_table(t)
    assert list(table.columns) == HEAD_TO_HEAD_COLUMNS
    rows = {(r.strategy, r.opponent): (r.meetings, r.above_rate) for r in table.itertuples()}
    assert set(rows) == {("greedy", "random"), ("greedy", "expert"), ("random", "greedy"), ("expert", "greedy")}
    assert rows["greedy", "random"] == (5, pytest.approx(0.7))
    assert rows["random", "greedy"] == (5, pytest.approx(0.3))
    assert rows["greedy", "expert"] == (3, pytest.approx(4 / 6))
    assert rows["expert", "greedy"] == (3, pytest.approx(2 / 6))
    assert (table["players"] == 3).all()


def test_bradley_terry_rating_of_two_strategies_by_hand(deck):
    t = Tournament(deck, 2, slots("random", "greedy"))
    # 20 meetings: random finished above 4 times, tied twice, below 14 times -> 10 : 30 half-points
    t.pairs[:] = [[0, 10], [30, 0]]
    table = ratings_table(t)
    assert list(table.columns) == RATING_COLUMNS
    # wins with half a win added to each side: random 5 + 0.5, greedy 15 + 0.5, 21 "games"
    # one pairing: greedy's rating is the log-odds log(15.5 / 5.5); its variance 1 / (n p (1 - p))
    p = 15.5 / 21
    rating = math.log(15.5 / 5.5)
    se = math.sqrt(1 / (21 * p * (1 - p)))
    random_row, greedy_row = table.iloc[0], table.iloc[1]
    assert random_row["strategy"] == "random"
    assert (random_row["rating"], random_row["rating_ci_low"], random_row["rating_ci_high"]) == (0, 0, 0)
    assert greedy_row["rating"] == pytest.approx(rating, rel=1e-6)
    assert greedy_row["rating_ci_low"] == pytest.approx(rating - Z * se, rel=1e-5)
    assert greedy_row["rating_ci_high"] == pytest.approx(rating + Z * se, rel=1e-5)


def test_ratings_need_no_statsmodels(deck, monkeypatch):
    """The base install rates strategies: the fit is numpy's (``compare`` in the README's example)."""
    monkeypatch.setitem(sys.modules, "statsmodels", None)
    monkeypatch.setitem(sys.modules, "statsmodels.api", None)
    t = Tournament(deck, 3, slots("random", "greedy", "expert"))
    t.pairs[:] = [[0, 10, 4], [30, 0, 12], [36, 28, 0]]
    table = ratings_table(t)
    assert list(table["strategy"]) == ["random", "greedy", "expert"]
    assert 0 < table["rating"][1] < table["rating"][2]


def test_the_fit_is_statsmodels_binomial_glm():
    """Bradley-Terry designs (connected or not, lopsided or even): the same coefficients and
    intervals as statsmodels' binomial GLM, to its own convergence tolerance."""
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(5)
    for _ in range(40):
        n = int(rng.integers(2, 8))
        pairs = [(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.8] or [(0, 1)]
        design = np.zeros((len(pairs), n))
        for row, (a, b) in enumerate(pairs):
            design[row, a], design[row, b] = 1, -1
        design = design[:, 1:]
        scale = rng.choice([10, 1000, 10**6], size=len(pairs))
        wins, losses = rng.integers(0, scale) / 2 + 0.5, rng.integers(0, scale) / 2 + 0.5
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = sm.GLM(np.column_stack([wins, losses]), design, family=sm.families.Binomial()).fit()
        beta, se = analysis.logistic_fit(design, wins, losses)
        np.testing.assert_allclose(beta, fit.params, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(se, fit.bse, rtol=1e-4)


# ------------------------------------------------------------------ 3. the verdict's numbers are the tables'

VERDICT = re.compile(
    r"With (?P<players>\d+) players, bonus20 (?:(?P<direction>raises|lowers) (?P<strategy>\S+)'s win rate from "
    r"(?P<from>[\d.]+)% to (?P<to>[\d.]+)% \((?P<sign>[+-])(?P<difference>[\d.]+) ± (?P<half>[\d.]+) points\)|"
    r"(?P<none>changes no strategy's win rate significantly \(every difference is within its 95% interval of zero, "
    r"± up to (?P<widest>[\d.]+) points\)))"
    r"; seat 1 wins "
    r"(?P<seat_standard>[\d.]+)% under the standard rules and (?P<seat_bonus20>[\d.]+)% under bonus20 "
    r"\(fair share (?P<fair>[\d.]+)%\), so the seat advantage is (?P<seat>changed|unchanged)"
    r"(?: \((?P<seat_change>[+-][\d.]+ ± [\d.]+ points) on the same games\))?; the variant "
    r"decided (?P<decided>[\d.]+)% of games under bonus20\.")  # measured where the variant is
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")


def test_verdict_numbers_equal_the_tables(capsys, tmp_path, deck):
    counts, names, games, seed = [2, 3], ["random", "greedy", "expert"], 3000, 11
    document = run_json(capsys, tmp_path, "balance", "-n", str(games), "-p", "2,3", "-s", ",".join(names),
                        "--seed", str(seed))
    text = document["summary"]["verdict"]
    # the same tournaments in memory: the tables at full precision (the JSON keeps 10 decimals)
    tables = []
    for i, players in enumerate(counts):
        pair = [Tournament(deck, players, slots(*names), variant, seed, threads=2, config_index=i)
                for variant in ("standard", "bonus20")]
        pair[1].follow(pair[0])
        pair[0].play(games)  # both rules, game by game
        tables.append(balance_tables(*pair))
    per_strategy = pd.concat([t[0] for t in tables], ignore_index=True)
    per_rules = pd.concat([t[1] for t in tables], ignore_index=True)
    for name, frame in (("strategies", per_strategy), ("rules", per_rules)):
        written = pd.DataFrame(document[name])
        pd.testing.assert_frame_equal(written, frame, check_dtype=False, rtol=1e-8)
    assert verdict(per_strategy, per_rules) == text
    paragraphs = text.split("\n")
    assert len(paragraphs) == len(counts)
    for paragraph, players in zip(paragraphs, counts, strict=True):
        rows = per_strategy[per_strategy["players"] == players]
        rules = per_rules[per_rules["players"] == players].set_index("rules")
        # every number in the paragraph is the player count, a table value as points() or a
        # paired change as change_words() writes it
        values = [*rows.select_dtypes("number").to_numpy().ravel(),
                  *rules.select_dtypes("number").to_numpy().ravel()]
        changes = [*zip(rows["difference"], rows["difference_ci_high"] - rows["difference"], strict=True),
                   *zip(rules["seat1_change"], rules["seat1_change_ci_high"] - rules["seat1_change"], strict=True)]
        allowed = ({points(v) for v in values} | {str(players)}
                   | {n for c in changes for n in NUMBER.findall(change_words(*c))})
        numbers = NUMBER.findall(paragraph.replace("seat 1 wins", "seat one wins").replace("95%", "ninety-five"))
        for number in numbers:
            assert number in allowed, (number, paragraph)
        # ... and each is the right one: the largest significant change, or none named
        match = VERDICT.fullmatch(paragraph)
        assert match, paragraph
        significant = rows[rows["significant"]]
        std, b20 = rules.loc["standard"], rules.loc["bonus20"]
        assert int(match["players"]) == players
        changed = b20["seat1_change_ci_low"] > 0 or b20["seat1_change_ci_high"] < 0  # paired, as the strategies'
        if len(significant):
            assert len(numbers) == 9 + 2 * changed, paragraph
            biggest = significant.loc[significant["difference"].abs().idxmax()]
            assert match["strategy"] == biggest["strategy"]
            assert match["from"] == points(biggest["win_rate_standard"])
            assert match["to"] == points(biggest["win_rate_bonus20"])
            assert (f"{match['sign']}{match['difference']} ± {match['half']} points"
                    == change_words(biggest["difference"], biggest["difference_ci_high"] - biggest["difference"]))
            assert match["direction"] == ("raises" if biggest["difference"] > 0 else "lowers")
        else:
            assert match["none"] and match["strategy"] is None, paragraph
            assert match["widest"] == points((rows["difference_ci_high"] - rows["difference"]).max())
        assert match["seat_standard"] == points(std["seat1_win_rate"])
        assert match["seat_bonus20"] == points(b20["seat1_win_rate"])
        assert match["fair"] == points(1 / players)
        assert match["decided"] == points(b20["variant_decided_rate"])
        assert b20["seat1_change"] == pytest.approx(b20["seat1_win_rate"] - std["seat1_win_rate"])
        assert match["seat"] == ("changed" if changed else "unchanged")
        assert match["seat_change"] == (change_words(b20["seat1_change"], b20["seat1_change_ci_high"]
                                                     - b20["seat1_change"]) if changed else None)


def _verdict_rows(differences, halves):
    rows = []
    for k, (d, h) in enumerate(zip(differences, halves, strict=True)):
        rows.append({"players": 4, "strategy": f"s{k}", "win_rate_standard": 0.25, "win_rate_bonus20": 0.25 + d,
                     "difference": d, "difference_ci_low": d - h, "difference_ci_high": d + h,
                     "significant": abs(d) > h})
    rules = pd.DataFrame([{"players": 4, "rules": v, "seat1_win_rate": 0.25, "seat1_ci_low": 0.24,
                           "seat1_ci_high": 0.26, "fair_win_rate": 0.25, "variant_decided_rate": 0.1,
                           "seat1_change": 0.0, "seat1_change_ci_low": -0.01, "seat1_change_ci_high": 0.01}
                          for v in ("standard", "bonus20")])
    return pd.DataFrame(rows), rules


def test_verdict_never_names_a_change_within_the_noise():
    # the largest difference is noise; the significant one is smaller: only that one is named
    text = verdict(*_verdict_rows([0.05, 0.02], [0.08, 0.01]))
    assert "raises s1's win rate" in text and "s0" not in text
    # nothing significant: no strategy and no direction is named
    text = verdict(*_verdict_rows([0.05, -0.02], [0.08, 0.03]))
    assert "changes no strategy's win rate significantly" in text
    assert "raises" not in text and "lowers" not in text and "s0" not in text and "s1" not in text


def test_verdict_gives_a_clear_change_the_digits_that_show_it():
    """A change whose interval is narrower than a tenth of a point is written with two
    decimals (one would print ± 0.0), and a changed seat advantage says by how much, paired:
    two rule sets whose seat 1 rates both print as 25.0% are not called changed without it."""
    per_strategy, rules = _verdict_rows([0.0056, 0.002], [0.0004, 0.01])
    rules[["seat1_change", "seat1_change_ci_low", "seat1_change_ci_high"]] = [0.0006, 0.0002, 0.001]
    text = verdict(per_strategy, rules)
    assert "raises s0's win rate from 25.0% to 25.6% (+0.56 ± 0.04 points)" in text
    assert "25.0% under bonus20 (fair share 25.0%), so the seat advantage is changed (+0.06 ± 0.04 points on " \
           "the same games);" in text
    per_strategy, rules = _verdict_rows([-0.05], [0.01])
    assert "lowers s0's win rate from 25.0% to 20.0% (-5.0 ± 1.0 points)" in verdict(per_strategy, rules)
    assert "so the seat advantage is unchanged;" in verdict(per_strategy, rules)


def test_a_clear_change_shows_digits_until_its_interval_does_and_the_table_shows_the_same():
    """However narrow a clear change's interval (many games, a variant that decides a few), the
    verdict writes as many decimals as show its half-width (never "+0.00 ± 0.00" for a change
    it calls clear), and the balance table's change column writes every change as the verdict."""
    assert change_words(0.00006, 0.00004) == "+0.006 ± 0.004 points"
    assert change_words(-0.0056, 0.0004) == "-0.56 ± 0.04 points"
    assert change_words(0.05, 0.001) == "+5.0 ± 0.1 points"  # a tenth of a point: one decimal shows it
    per_strategy, rules = _verdict_rows([0.00006, 0.0056, -0.05], [0.00004, 0.0004, 0.01])
    rules[["seat1_change", "seat1_change_ci_low", "seat1_change_ci_high"]] = [0.00003, 0.00001, 0.00005]
    text = verdict(per_strategy, rules)
    assert "0.00 ± 0.00" not in text and "changed (+0.003 ± 0.002 points on the same games)" in text
    for rate in ("standard", "bonus20"):
        per_strategy[f"win_rate_{rate}_ci_low"] = per_strategy[f"win_rate_{rate}_ci_high"] = per_strategy[
            f"win_rate_{rate}"]
    shown = compact("strategies", per_strategy)["change"]
    assert list(shown) == ["+0.006 ± 0.004", "+0.56 ± 0.04", "-5.0 ± 1.0"]


def test_verdict_is_printed(capsys):
    code, out, err = run(capsys, "balance", "-n", "2000", "-p", "4", "-s", "random,greedy", "-q")
    assert code == 0, err
    assert "\nVerdict\nWith 4 players, bonus20 " in out


# ------------------------------------------------------------------ 4. --precision

BATCH = 500


def table_half_width(frame: pd.DataFrame) -> float:
    return float((frame["win_rate_ci_high"] - frame["win_rate"]).max())


def test_precision_stops_at_the_first_batch_that_is_enough(capsys, tmp_path):
    common = ("compare", "-p", "2", "-s", "random,greedy", "--seed", "5")
    document = run_json(capsys, tmp_path, *common, "-n", str(BATCH), "--precision", "0.02")
    summary = document["summary"]
    games = summary["games"]
    assert summary["precision"] == 0.02
    assert games % BATCH == 0 and games >= 2 * BATCH  # more than one batch was needed
    assert summary["widest_half_width"] < 0.02
    assert table_half_width(pd.DataFrame(document["strategies"])) < 0.02
    # one batch fewer is not enough
    fewer = run_json(capsys, tmp_path, *common, "-n", str(games - BATCH), name="fewer.json")
    assert fewer["summary"]["games"] == games - BATCH
    assert fewer["summary"]["widest_half_width"] >= 0.02
    assert table_half_width(pd.DataFrame(fewer["strategies"])) >= 0.02
    # R25: the batches played exactly the games of one run of that length
    once = run_json(capsys, tmp_path, *common, "-n", str(games), name="once.json")
    for name in COMPARE_TABLES:
        assert pd.DataFrame(once[name]).equals(pd.DataFrame(document[name])), name


def test_balance_precision_plays_each_configuration_until_it_is_precise(capsys, tmp_path, deck):
    batch, precision = 600, 0.02
    document = run_json(capsys, tmp_path, "balance", "-p", "3", "-s", "random,greedy", "--seed", "8",
                        "-n", str(batch), "--precision", str(precision))
    used = [int(g) for g in str(document["summary"]["games_per_configuration"]).split(",")]
    expected = []
    for variant in ("standard", "bonus20"):
        t = Tournament(deck, 3, slots("random", "greedy"), variant, seed=8, threads=1, config_index=0)
        widths = []
        while not widths or widths[-1] >= precision:
            t.play(batch)
            widths.append(table_half_width(strategy_table(t)))
        assert len(widths) >= 2, "the test needs more than one batch"
        expected.append(t.games)
    assert used == expected


@pytest.mark.parametrize("command", ["compare", "balance"])
@pytest.mark.parametrize("precision", ["0", "0.7", "-1"])
def test_precision_out_of_range_is_a_one_line_error(capsys, tmp_path, command, precision):
    out_path = tmp_path / "x.json"
    code, out, err = run(capsys, command, "-n", "1000", "-p", "2", "-s", "random,greedy",
                         "--precision", precision, "--out", str(out_path), "-q")
    assert_one_line_error(code, out, err, "--precision")
    assert not out_path.exists()


# ------------------------------------------------------------------ 5. --plot

@pytest.mark.parametrize("command", ["compare", "balance"])
def test_plot_writes_a_png(capsys, tmp_path, command):
    import matplotlib.image

    path = tmp_path / "figure.png"
    code, out, err = run(capsys, command, "-n", "2000", "-p", "2,3", "-s", "random,greedy,expert",
                         "--plot", str(path), "-q")
    assert code == 0, err
    assert f"wrote {path}" in out
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    assert len(data) > 10_000
    image = matplotlib.image.imread(path)
    assert image.ndim == 3 and image.shape[0] > 200 and image.shape[1] > 200
    assert {p.name for p in tmp_path.iterdir()} == {"figure.png"}


@pytest.mark.parametrize("command", ["compare", "balance"])
@pytest.mark.parametrize("name", ["figure.jpg", "figure", "figure.png.txt"])
def test_plot_needs_a_png_name(capsys, tmp_path, command, name):
    code, out, err = run(capsys, command, "-n", "1000", "-p", "2", "-s", "random,greedy",
                         "--plot", str(tmp_path / name), "--out", str(tmp_path / "x.json"), "-q")
    assert_one_line_error(code, out, err, "--plot", ".png")
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ 6. determinism (R25)

@pytest.mark.parametrize("command, tables", [("compare", COMPARE_TABLES), ("balance", BALANCE_TABLES)])
def test_same_seed_same_tables_whatever_the_threads(capsys, tmp_path, command, tables):
    documents = [run_json(capsys, tmp_path, command, "-n", "3000", "-p", "2,3", "-s", "random,greedy,expert",
                          "--seed", "21", "--threads", threads, name=f"t{threads}.json")
                 for threads in ("1", "2")]
    assert [d["summary"]["threads"] for d in documents] == [1, 2]
    for name in tables:
        one, two = (pd.DataFrame(d[name]) for d in documents)
        assert len(one) > 0
        assert one.equals(two), name
    other = run_json(capsys, tmp_path, command, "-n", "3000", "-p", "2,3", "-s", "random,greedy,expert",
                     "--seed", "22", name="other.json")
    assert not pd.DataFrame(other["strategies"]).equals(pd.DataFrame(documents[0]["strategies"]))


# ------------------------------------------------------------------ 7. ratings

@pytest.mark.parametrize("order", [("random", "expert"), ("expert", "random")])
def test_expert_rates_above_random(capsys, tmp_path, order):
    document = run_json(capsys, tmp_path, "compare", "-n", "4000", "-p", "2", "-s", ",".join(order),
                        "--seed", "3")
    ratings = pd.DataFrame(document["ratings"]).set_index("strategy")
    reference = ratings.loc[order[0]]
    assert (reference["rating"], reference["rating_ci_low"], reference["rating_ci_high"]) == (0, 0, 0)
    expert, random = ratings.loc["expert"], ratings.loc["random"]
    assert expert["rating"] > random["rating"]
    assert expert["rating_ci_low"] > random["rating_ci_high"]
    for row in (expert, random):
        assert row["rating_ci_low"] <= row["rating"] <= row["rating_ci_high"]
    # with two strategies the rating is the log-odds of the head-to-head (half a win added each side)
    h2h = pd.DataFrame(document["head_to_head"]).set_index(["strategy", "opponent"])
    meetings, above = h2h.loc[("expert", "random"), ["meetings", "above_rate"]]
    log_odds = math.log((meetings * above + 0.5) / (meetings * (1 - above) + 0.5))
    assert expert["rating"] - random["rating"] == pytest.approx(log_odds, rel=1e-6)


def test_compare_of_two_strategies_warns_nothing(capsys):
    # one pairing leaves the Bradley-Terry GLM no residual degrees of freedom: statsmodels would warn
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code, _, err = run(capsys, "compare", "-n", "2000", "-p", "2", "-s", "random,greedy", "-q")
    assert code == 0, err
    assert [str(w.message) for w in caught] == []


def test_max_half_width_is_the_widest_win_rate_interval(deck):
    t = Tournament(deck, 2, slots("random", "greedy"), seed=1, threads=1)
    t.play(2000)
    table = strategy_table(t)
    assert max_half_width(t) == pytest.approx(table_half_width(table))
    assert analysis.points(0.12345) == "12.3"


@pytest.fixture
def points_game():
    """The card game declared in other terms (issue 31): points from ships and regions, scored at
    phases, registered for the test only (its kernel and totals are the card game's)."""
    card = get_game("card")
    presentation = dataclasses.replace(card.presentation, score_unit="points",
                                       score_sources=(ScoreSource("ship", "ships"), ScoreSource("region", "regions")))
    game = dataclasses.replace(card, name="cardpoints", presentation=presentation,
                               engine=dataclasses.replace(card.engine, moment="phase"))
    registry.GAMES[game.name] = game
    yield game
    del registry.GAMES[game.name]


def test_the_tables_speak_the_games_own_score_terms(deck, points_game):
    """Every game's per-seat and per-strategy tables have win_rate and mean_score; a Medici game keeps
    mean_florins beside it, the same values; a game declared in points from its own sources names its
    columns, compare's and balance's tables and the captions after them."""
    medici = simulate(RunConfig(components=deck, games=200, players=3, seed=5,
                                strategies=tuple(seat_strategy(s) for s in ("greedy", "collector", "random"))))
    seats = stat_frame(medici.totals.seat, get_game("card"))
    assert {"win_rate", "mean_score", "mean_florins", "std_florins", "mean_ship_florins"} <= set(seats.columns)
    assert seats["mean_score"].tolist() == seats["mean_florins"].tolist()
    assert list(seats.columns) == stat_columns(get_game("card"))
    mine = stat_frame(medici.totals.seat, points_game)
    assert list(mine.columns) == stat_columns(points_game)
    assert {"mean_score", "mean_points", "std_points", "mean_ship_points", "mean_region_points",
            "comeback_when_trailing_phase1"} <= set(mine.columns)
    assert not [c for c in mine.columns if "florin" in c or "day" in c or "majority" in c]
    assert mine["mean_score"].tolist() == seats["mean_score"].tolist()
    assert mine["mean_region_points"].tolist() == seats["mean_majority_florins"].tolist()  # the 2nd source column
    shown = compact("seats", mine.assign(seat=[1, 2, 3], strategy="x"))
    assert {"points", "ships", "regions"} <= set(shown.columns) and "florins" not in shown.columns
    assert caption("seats", mine).startswith("(points: mean final points; ships, regions: mean points from each")
    t = tournament_with_wins(deck, 2, {"greedy": [Fraction(1)] * 10, "random": [Fraction(0)] * 10})
    t.game = points_game.name
    table = strategy_table(t)
    assert list(table.columns) == strategy_table_columns(points_game)
    assert {"mean_score", "mean_points", "mean_points_ci_low", "ship_share", "region_share"} <= set(table.columns)
    assert "bonus_share" not in table.columns and "mean_florins" not in table.columns
    assert caption("strategies", table) == ("(points: mean final points; ships, regions: the share of the points "
                                            "from each)")
    assert {"ship_share", "region_share"} <= set(rules_columns(points_game))
