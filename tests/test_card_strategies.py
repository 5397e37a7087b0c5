"""Strategies: parameters, plug-ins, one kernel for every mix, seating (R24), strength."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from medici_sim.cli.common import parse_strategies
from medici_sim.core.driver import ConfigError, RunConfig, simulate
from medici_sim.core.registry import get_game
from medici_sim.core.stats import strategy_columns, strategy_frame
from medici_sim.games.card import engine
from medici_sim.games.card.strategies import REGISTRY

STRATEGY_COLUMNS = strategy_columns(get_game("card"))

BUILT_INS = ["random", "greedy", "collector", "cautious", "gambler", "expert"]
EXAMPLE = Path(__file__).parent.parent / "examples" / "green_lover.py"


def test_built_ins_are_registered_with_documented_parameters():
    assert list(REGISTRY)[:6] == BUILT_INS
    assert set(REGISTRY["greedy"].params) == {"reveal_below", "take_min"}
    assert set(REGISTRY["collector"].params) == {"focus", "value_weight"}
    assert set(REGISTRY["expert"].params) == {"spread", "future_weight", "progress_weight", "reveal_margin"}


def test_parameters_on_the_command_line():
    slots = parse_strategies("expert,collector:focus=1,greedy:reveal_below=3:take_min=4,random", 4)
    assert [s.label for s in slots] == ["expert", "collector:focus=1", "greedy:reveal_below=3,take_min=4", "random"]
    assert slots[2].vector()[:2].tolist() == [3.0, 4.0]
    slots = parse_strategies("collector:focus=1,value_weight=2,greedy", 2)
    assert [s.label for s in slots] == ["collector:focus=1,value_weight=2", "greedy"]


@pytest.mark.parametrize("spec,message", [
    ("greedy:speed=2", "strategy greedy has no parameter 'speed' (its parameters: reveal_below, take_min)"),
    ("collector:focus=3", "parameter focus of collector must be between 1 and 2, got 3"),
    ("collector:focus=1.5", "parameter focus of collector must be a whole number, got 1.5"),
    ("greedy:take_min=abc", "parameter take_min of greedy must be a number, got 'abc'"),
    ("greedy:take_min=nan", "must be between"),
    ("greedy:take_min", "expected param=value"),
])
def test_bad_parameters_are_clear_errors(spec, message):
    with pytest.raises(ConfigError) as err:
        parse_strategies(spec, 2)
    assert message in str(err.value)


def test_a_new_mix_of_the_same_strategies_compiles_nothing(deck):
    """One compiled kernel serves every mix of a set of strategies: any seats, any parameters.
    A tournament names all of its strategies, so all its lineups share that kernel."""
    def run(spec, kernel_strategies=()):
        config = RunConfig(components=deck, players=4, strategies=parse_strategies(spec, 4), games=2_000,
                           seating="rotate", threads=1, kernel_strategies=kernel_strategies)
        return simulate(config)

    every = ("random", "greedy", "collector", "cautious", "gambler", "expert")
    run("random", every)
    signatures = list(engine.play_games_nb.signatures)
    compiled = sum(engine.play_games_nb.stats.cache_misses.values())
    for spec in ("expert,greedy,collector,cautious", "gambler,expert:spread=3,random,greedy:take_min=5",
                 "collector:focus=1,collector,cautious,expert"):
        run(spec, every)
    assert engine.play_games_nb.signatures == signatures
    assert sum(engine.play_games_nb.stats.cache_misses.values()) == compiled


def test_every_set_of_strategies_plays_in_one_compiled_play_loop(deck, monkeypatch):
    """A table is data of one type per game (core.dispatch): random alone, two heuristics, four,
    and check-plugin's checked tables all play in the one compiled kernel (each set of
    strategies had compiled the play loop again, 7-10 CPU s)."""
    from medici_sim.core.dispatch import strategy_table
    from medici_sim.core.driver import KERNEL_ENV

    monkeypatch.delenv(KERNEL_ENV)  # a table of only what each run uses

    def run(spec):
        simulate(RunConfig(components=deck, players=4, strategies=parse_strategies(spec, 4), games=50, threads=1))

    run("random")
    signatures = list(engine.play_games_nb.signatures)
    for spec in ("greedy,collector,greedy,collector", "expert,greedy,random,cautious"):
        run(spec)
    assert engine.play_games_nb.signatures == signatures
    tables = {strategy_table(REGISTRY, used, checked=checked)[0].dtype
              for used in ({"random"}, {"gambler", "expert"}) for checked in (False, True)}
    assert len(tables) == 1 and tables <= {signature[-1].dtype for signature in signatures}


def test_a_run_compiles_only_the_strategies_it_uses(deck, monkeypatch):
    """Only what a run uses is compiled: a run of random alone dispatches to nothing else."""
    from medici_sim.core.driver import KERNEL_ENV, PreparedRun

    monkeypatch.delenv(KERNEL_ENV)

    alone = PreparedRun(RunConfig(components=deck, players=4, strategies=parse_strategies("random", 4), games=1))
    assert alone.table_names == ("random",)
    mixed = PreparedRun(RunConfig(components=deck, players=4, strategies=parse_strategies("expert", 4), games=1,
                             kernel_strategies=("random", "expert")))
    assert mixed.table_names == ("random", "expert")  # registration order: the same table for any order
    monkeypatch.setenv(KERNEL_ENV, "all")  # ... or, asked, every built-in
    every = ("random", "greedy", "collector", "cautious", "gambler", "expert")
    assert PreparedRun(RunConfig(components=deck, players=4, strategies=parse_strategies("random", 4),
                                 games=1)).table_names \
        == every
    # with strong (or search, mcts) among them: one table for every such lineup, not one per lineup (the
    # frameworks' tests rotate strong through the seats: nine lineups had compiled nine kernels)
    for lineup in ("gambler,expert,strong", "strong,random,greedy", "strong"):
        assert PreparedRun(RunConfig(components=deck, players=3, strategies=parse_strategies(lineup, 3),
                                games=1)).table_names == (*every, "strong")


def test_per_strategy_table_merges_repeated_strategies(deck):
    """R24: a strategy listed at several seats is one row; rotation gives it every seat."""
    config = RunConfig(components=deck, players=4, strategies=parse_strategies("expert,random,expert,random", 4),
                       games=4_000, seating="rotate", threads=2)
    result = simulate(config)
    table = strategy_frame(result)
    assert list(table.columns) == STRATEGY_COLUMNS
    assert sorted(table["strategy"]) == ["expert", "random"]
    assert (table["games"] == 8_000).all()
    # each player's win rate: two experts and two randoms share one win per game
    assert 2 * table["win_rate"].sum() == pytest.approx(1.0)


def test_plugin_example_runs_through_the_command_line(tmp_path):
    """docs/plugins.md's worked example: a strategy in one file, registered by name."""
    out = tmp_path / "plugin.json"
    done = subprocess.run(
        [sys.executable, "-m", "medici_sim", "--plugin", str(EXAMPLE), "--strategies",
         "green_lover:min_value=3,expert,random,random", "--games", "3000", "--seating", "rotate",
         "--out", str(out), "--quiet"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "green_lover:min_value=3" in done.stdout
    import json
    rows = {r["strategy"]: r for r in json.loads(out.read_text())["strategies"]}
    assert set(rows) == {"green_lover:min_value=3", "expert", "random"}
    assert rows["random"]["games"] == 6000


def test_broken_plugin_is_a_one_line_error(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("raise RuntimeError('boom')\n")
    done = subprocess.run([sys.executable, "-m", "medici_sim", "--plugin", str(bad)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("medici-sim: error: --plugin") and "boom" in done.stderr
    assert done.stderr.count("\n") == 1


def win_rates(deck, players, spec, games, seed, variant="standard"):
    config = RunConfig(components=deck, players=players, strategies=parse_strategies(spec, players),
                       games=games, seed=seed, seating="rotate", rules=variant)
    return strategy_frame(simulate(config)).set_index("strategy")


@pytest.mark.parametrize("other", [s for s in BUILT_INS if s != "expert"])
def test_expert_beats_each_built_in_two_against_two(deck, other):
    """4 players, two experts against two of another built-in, rotated (R24): expert wins
    more, by at least 3 standard errors of the difference."""
    table = win_rates(deck, 4, f"expert,{other},expert,{other}", 20_000, seed=11)
    expert, rival = table.loc["expert"], table.loc[other]
    se = np.hypot(expert.win_rate_ci_high - expert.win_rate, rival.win_rate_ci_high - rival.win_rate) / 1.96
    assert expert.win_rate - rival.win_rate > 3 * se


@pytest.mark.parametrize("variant", ["standard", "bonus20"])
def test_expert_is_best_of_all_six(deck, variant):
    """6 players, all six built-ins rotated: expert has the highest win rate, 3 SE clear."""
    table = win_rates(deck, 6, ",".join(BUILT_INS), 30_000, seed=12, variant=variant)
    assert table.index[0] == "expert"
    expert, second = table.iloc[0], table.iloc[1]
    se = np.hypot(expert.win_rate_ci_high - expert.win_rate, second.win_rate_ci_high - second.win_rate) / 1.96
    assert expert.win_rate - second.win_rate > 3 * se
