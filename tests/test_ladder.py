"""The skill ladder (issue 20): its levels, its words (an effect that shrinks to nothing, one
that holds at every level), and compare --ladder / balance --ladder end to end (without the
search levels, whose kernels take long to compile)."""
from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from conftest import run

from medici_sim.core.registry import get_game
from medici_sim.study import ladder


def _table(findings: dict[str, list[tuple[float, float]]], levels=("heuristics", "tuned", "search-4")) -> pd.DataFrame:
    """Findings as (value, half-width) per level."""
    rows = [{"level": level, "players": 4, "finding": finding, "value": value, "value_ci_low": value - half,
             "value_ci_high": value + half, "significant": abs(value) > half, "games": 1000}
            for finding, steps in findings.items() for level, (value, half) in zip(levels, steps, strict=True)]
    return ladder.ladder_frame(rows)


def test_an_effect_that_shrinks_to_nothing_is_named_so():
    """bonus20's card-game story: about +13 points for collector with default parameters, +7
    tuned, and with search players no clear effect: it shrinks to nothing; seat 1's effect,
    never clear, holds (no finding holds at every level)."""
    table = _table({"bonus20 on collector": [(0.13, 0.01), (0.07, 0.01), (0.01, 0.03)],
                    "bonus20 on seat 1": [(0.002, 0.006), (0.0, 0.007), (0.01, 0.04)]})
    words = ladder.ladder_words(table)
    assert "4 players, bonus20 on collector: +13.0 -> +7.0 -> +1.0 (not clear): shrinks to nothing." in words
    assert "bonus20 on seat 1: +0.2 (not clear) -> +0.0 (not clear) -> +1.0 (not clear): holds." in words
    assert words.endswith("No finding holds at every level.")
    assert ladder.ladder_answer(table) == [
        "bonus20 on collector shrinks to nothing: +13.0 points at heuristics, +1.0 (not clear) at search-4",
        "bonus20 on seat 1 holds: +0.2 points (not clear) at heuristics, +1.0 (not clear) at search-4",
        "No finding holds at every level."]  # a short list, in points
    shown = ladder.ladder_shown(table)  # the table in points and words, not fractions and True/False
    assert list(shown.columns) == ["level", "players", "finding", "percentage points [95% CI]", "clear", "games"]
    assert shown.iloc[0].tolist() == ["heuristics", 4, "bonus20 on collector", "+13.0 [+12.0, +14.0]", "yes", "1,000"]


@pytest.mark.parametrize(("steps", "word"), [
    ([(0.05, 0.01), (0.05, 0.01), (0.06, 0.02)], "holds"),
    ([(0.02, 0.005), (0.05, 0.01), (0.09, 0.01)], "grows"),
    ([(0.09, 0.01), (0.06, 0.01), (0.03, 0.01)], "shrinks"),
    ([(0.0, 0.01), (0.01, 0.01), (0.05, 0.01)], "appears"),
    ([(0.05, 0.01), (0.0, 0.01), (-0.05, 0.01)], "reverses"),
    ([(-0.028, 0.003), (-0.025, 0.005), (0.028, 0.09)], "turns unclear"),
])
def test_each_trend_has_its_word(steps, word):
    table = _table({"bonus20 on expert": steps})
    assert ladder.trend(table) == word
    holds = all(abs(v) > h for v, h in steps) and len({v > 0 for v, _ in steps}) == 1
    assert ("Holds at every level: bonus20 on expert" in ladder.ladder_words(table)) == holds


def test_the_levels_go_from_random_to_search_and_take_one_more_in_one_place(monkeypatch):
    card = get_game("card")
    levels = ladder.ladder_levels(card, None, 10_000, tuned_shipped=True)
    assert [lv.name for lv in levels] == ["random", "heuristics", "tuned", "search-4", "search-16", "strong"]
    assert levels[-1].strategies == ("strong",) and levels[3].games < levels[-1].games < 10_000  # every seat strong
    beside = ladder.ladder_levels(card, None, 10_000, tuned_shipped=True, with_random=False)[-1]
    assert beside.strategies == (*levels[1].strategies, "strong")  # compare: strong among the heuristics
    assert levels[1].strategies == ("greedy", "collector", "cautious", "gambler", "expert")
    assert levels[3].strategies[1] == f"search:policy={card.built_ins.index('collector')},rollouts=4"
    assert levels[3].stands_for == levels[1].strategies and levels[4].games < levels[3].games < 10_000
    strong = ladder.Level("strong", ("expert",), ("expert",), 50)
    monkeypatch.setattr(ladder, "EXTRA_LEVELS", [lambda game, heuristics, games, alone: strong])
    assert ladder.ladder_levels(card, "greedy,expert".split(","), 100, False)[-1] is strong
    with pytest.raises(ValueError, match="at least two"):
        ladder.ladder_levels(card, ["random", "greedy"], 100, False)


@pytest.fixture
def without_search(monkeypatch):
    """The cheap levels only: search's and strong's kernels take long to compile."""
    monkeypatch.setattr(ladder, "SEARCHER_BUDGETS", ())
    monkeypatch.setattr(ladder, "SEARCHER_GAMES_SHARE", ())
    monkeypatch.setattr(ladder, "EXTRA_LEVELS", [])


@pytest.mark.usefixtures("without_search")
def test_balance_ladder_writes_its_table_and_page(capsys, tmp_path):
    out, page = tmp_path / "ladder.json", tmp_path / "ladder.html"
    code, stdout, err = run(capsys, "balance", "--ladder", "-p", "3", "-n", "600", "-s", "greedy,collector",
                            "-q", "--out", str(out), "--report", str(page))
    assert code == 0, err
    table = pd.DataFrame(json.loads(out.read_text())["ladder"])
    assert list(table.columns) == ladder.LADDER_COLUMNS
    assert list(dict.fromkeys(table["level"])) == ["random", "heuristics", "tuned"]
    assert set(table["finding"]) == {"bonus20 on seat 1", "bonus20 on greedy", "bonus20 on collector"}
    assert "As play gets stronger (random -> heuristics -> tuned)" in stdout
    lines = stdout.splitlines()  # issue 30: points, yes/no and words; no empty first line; 100 columns
    assert lines[0].startswith("The ladder of skill") and max(map(len, lines)) <= 100
    assert "percentage points [95% CI]" in stdout and not re.search(r"True|False|0\.\d{4}", stdout)
    text = page.read_text()
    assert "The ladder of skill" in text and "data:image/png;base64," in text


@pytest.mark.usefixtures("without_search")
def test_a_tuned_strategy_is_the_same_finding_as_its_heuristic():
    """The tuned level's tables label a strategy with its tuned parameters: compare --ladder made
    'greedy:reveal_below=8.994,take_min=0.514's edge' a finding of its own, so greedy's trend
    skipped the tuned level (and 'holds at every level' was said of findings not clear there)."""
    tuned = ladder.Level("tuned", ("greedy", "expert"), ("greedy", "expert"), 30, tuned=True)
    names = dict(zip(tuned.strategies, tuned.stands_for, strict=True))
    table = pd.DataFrame({"players": [3, 3], "strategy": ["greedy:reveal_below=8.994,take_min=0.514", "expert"],
                          "win_rate": [0.2, 0.5], "win_rate_ci_low": [0.1, 0.4], "win_rate_ci_high": [0.3, 0.6]})
    assert [row["finding"] for row in ladder.compare_rows(tuned, names, table)] == ["greedy's edge", "expert's edge"]


def test_compare_ladder_and_its_refusals(capsys, tmp_path):
    code, stdout, err = run(capsys, "compare", "--ladder", "-p", "3", "-n", "300", "-s", "greedy,collector", "-q")
    assert code == 0, err
    assert "3 players, greedy's edge:" in stdout
    code, _, err = run(capsys, "compare", "--ladder", "-n", "300", "--checkpoint", str(tmp_path / "c.ckpt"))
    assert code == 2 and err.strip() == "medici-sim: error: --ladder plays its own levels: leave out --checkpoint"


@pytest.mark.usefixtures("without_search")
def test_the_ladders_levels_share_one_kernel(capsys, monkeypatch):
    """Each level had compiled a kernel of its own strategies (random alone, then the heuristics asked
    for): the levels of heuristics now play in one kernel, the game's built-in heuristics' (plain
    balance's), and the same tables as before."""
    from medici_sim.core import driver

    monkeypatch.delenv(driver.KERNEL_ENV)  # as a user runs it: a kernel holds only what its runs use
    tables, strategy_table = set(), driver.strategy_table

    def recorded(registry, used=(), **options):
        table, names = strategy_table(registry, used, **options)
        tables.add(names)
        return table, names

    monkeypatch.setattr(driver, "strategy_table", recorded)
    code, stdout, err = run(capsys, "balance", "--ladder", "-p", "3", "-n", "300", "-s", "greedy,collector", "-q")
    assert code == 0, err
    assert tables == {get_game("card").built_ins}
    assert "As play gets stronger (random -> heuristics -> tuned)" in stdout
