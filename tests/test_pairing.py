"""Two rules on the same games (core.pairing): the paired kernel plays exactly both runs'
games, and its paired sums are those of each game's pair of outcomes."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from medici_sim.core import accounting as acc
from medici_sim.core.driver import PreparedRun, RunConfig, seat_strategy, simulate
from medici_sim.core.pairing import PreparedPair, metric_counters

GAMES = 900


def configs(game: str, players: int, names: list[str], variants: tuple[str, str], seating: str):
    return tuple(RunConfig(components=None, players=players, strategies=tuple(seat_strategy(n, game) for n in names),
                           games=GAMES, seed=5, rules=variant, seating=seating, threads=2, game=game)
                 for variant in variants)


@pytest.mark.parametrize("game,players,names,variants,seating", [
    ("card", 4, ["expert", "collector", "greedy", "collector"], ("standard", "bonus20"), "rotate"),
    ("card", 2, ["cautious", "gambler"], ("standard", "bonus20"), "random"),  # (10 icons: bonus20 never pays)
    ("classic", 3, ["expert", "value", "random"], ("standard", "standard"), "rotate"),  # the same rules: d = 0
])
def test_paired_kernel_plays_both_runs_and_sums_each_games_differences(game, players, names, variants, seating):
    config_a, config_b = configs(game, players, names, variants, seating)
    paired = simulate(config_a, batch_size=GAMES // 3, first_game=77, kernel=PreparedPair(config_a, config_b)).totals
    for config, totals in ((config_a, paired.a), (config_b, paired.b)):
        alone = simulate(config, first_game=77).totals
        for name in ("seat", "slot", "pair_stats", "run"):
            assert np.array_equal(getattr(totals, name), getattr(alone, name)), name
    kernels = [PreparedRun(config) for config in (config_a, config_b)]
    cross = np.zeros((players, players), np.int64)
    seat_sq = np.zeros(players, np.int64)
    counters = metric_counters(kernels[0].game)  # the designer metrics' per-game counters, paired too
    metric_sq = np.zeros(len(counters), np.int64)
    for index in range(77, 77 + GAMES):
        a, b = (k.play(index, 1) for k in kernels)
        d = b.slot[:, acc.STAT_WIN60] - a.slot[:, acc.STAT_WIN60]
        cross += np.outer(d, d)
        seat_sq += (b.seat[:, acc.STAT_WIN60] - a.seat[:, acc.STAT_WIN60]) ** 2
        metric_sq += (b.run[counters] - a.run[counters]) ** 2
    assert np.array_equal(paired.cross, cross) and np.array_equal(paired.seat_sq, seat_sq)
    assert np.array_equal(paired.metric_sq, metric_sq)
    assert metric_sq.any() == (variants[0] != variants[1])  # (at 2 players bonus20 changes margins, not wins)
    assert cross.any() == (players == 4)  # bonus20 changed some 4-player game; the same rules none


@pytest.mark.parametrize("spec", ["random,collector,greedy,cautious", "random,collector,collector,greedy"])
def test_balance_changes_are_paired_game_by_game(spec):
    """balance's change of each strategy's win rate (bonus20 minus standard) and of seat 1's,
    with its interval, equals what each game's pair of outcomes gives, computed game by game
    (a strategy listed twice sits at two slots of some lineups: its difference is their sum)."""
    from medici_sim.core.registry import get_game
    from medici_sim.core.specs import parse_strategy_list
    from medici_sim.core.stats import Z95
    from medici_sim.study import studies
    from medici_sim.study.metrics import metric_changes
    from medici_sim.study.tournament import CONFIG_BLOCK, LINEUP_BLOCK

    study = studies.Study(game=get_game("card"), counts=(3,), strategies=parse_strategy_list(spec), rules=None,
                          seed=4, component_sets=(None,), games=1200, precision=None, threads=2)
    tournaments = studies.plan(study, "balance")
    assert studies.play(tournaments, study)
    tables, _ = studies.balance_answer(tournaments, study)
    standard, bonus20 = tournaments
    differences: dict[str, list[int]] = {label: [] for label in standard.labels}
    seat1, metrics = [], []
    for k, lineup in enumerate(standard.lineups):
        kernels = [PreparedRun(RunConfig(components=None, players=3, strategies=lineup, games=1, seed=4,
                                         rules=variant,
                                    seating="rotate", threads=1, kernel_strategies=("random", "greedy", "collector",
                                                                                     "cautious")))
                   for variant in ("standard", "bonus20")]
        for g in range(standard.done[k]):
            a, b = (kernel.play(standard.config_index * CONFIG_BLOCK + k * LINEUP_BLOCK + g, 1) for kernel in kernels)
            d = b.slot[:, acc.STAT_WIN60] - a.slot[:, acc.STAT_WIN60]
            for label in dict.fromkeys(s.label for s in lineup):
                differences[label].append(sum(int(d[slot]) for slot, s in enumerate(lineup) if s.label == label))
            seat1.append(int(b.seat[0, acc.STAT_WIN60] - a.seat[0, acc.STAT_WIN60]))
            counters = [acc.RUN_COMEBACK_FIRST, acc.RUN_MARGIN]
            metrics.append(b.run[counters] - a.run[counters])
    rows = tables["strategies"].set_index("strategy")
    per = dict(zip(standard.labels, standard.strategy_stats[:, acc.STAT_GAMES], strict=True))
    for label, x in differences.items():
        x = np.array(x, float) / acc.WIN_UNIT
        change, half = x.sum() / per[label], Z95 * x.std(ddof=1) * np.sqrt(len(x)) / per[label]
        row = rows.loc[label]
        assert row["difference"] == pytest.approx(change, abs=1e-12)
        assert row["difference_ci_high"] - row["difference"] == pytest.approx(half, abs=1e-12)
    x = np.array(seat1, float) / acc.WIN_UNIT
    seat = tables["rules"].iloc[0]
    assert seat["seat1_change"] == pytest.approx(x.mean(), abs=1e-12)
    assert seat["seat1_change_ci_high"] - seat["seat1_change"] == pytest.approx(
        Z95 * x.std(ddof=1) / np.sqrt(len(x)), abs=1e-12)
    # the designer metrics' changes (study.metrics), paired the same way: each game's difference
    changes = pd.DataFrame(metric_changes(standard, bonus20)).set_index("metric")
    for name, x in zip(("comeback_after_day1", "margin"), np.array(metrics, float).T, strict=True):
        assert changes.loc[name, "difference"] == pytest.approx(x.mean(), abs=1e-12)
        assert changes.loc[name, "difference_ci_high"] - changes.loc[name, "difference"] == pytest.approx(
            Z95 * x.std(ddof=1) / np.sqrt(len(x)), abs=1e-12)


@pytest.mark.parametrize("game,names,variants", [
    ("card", ["expert", "collector", "greedy", "random"], ("standard", "bonus20")),
    ("classic", ["expert", "value", "random"], ("standard", "standard")),
])
def test_paired_play_allocates_nothing_per_game(game, names, variants):
    """Each rule set's games are played in one state buffer kept for the call (Game.play_game_in_nb),
    as the batch loop plays them: no copy of the run's inputs and no allocation per game (the card
    game's inputs are 240 kB: copied twice a game, paired play ran at 0.4 of a plain run's
    games/s); memory stays flat in the games (benchmarks/bench_paired.py times it)."""
    from numba.core.runtime import _nrt_python, rtsys

    kernel = PreparedPair(*configs(game, len(names), names, variants, "rotate"))
    kernel.play(0, 1)  # compiled (or loaded), numba's runtime started
    counting = _nrt_python.memsys_stats_enabled()
    _nrt_python.memsys_enable_stats()
    try:
        def allocations(games: int) -> int:
            before = rtsys.get_allocation_stats().alloc
            kernel.play(0, games)
            return rtsys.get_allocation_stats().alloc - before
        assert allocations(300) == allocations(3)
    finally:
        if not counting:
            _nrt_python.memsys_disable_stats()


def test_a_game_without_the_one_game_step_is_paired_by_its_batch_kernel(monkeypatch):
    """A game of one's own that writes its own play_games_nb (here the toy game, tests/toygame,
    declared without its play_game_in_nb) is paired by a call of its batch kernel a game, with the
    same totals."""
    from dataclasses import replace

    import toygame

    from medici_sim.core import registry

    game = replace(toygame.GAME, engine=replace(toygame.GAME.engine, play_game_in_nb=None))
    monkeypatch.setitem(registry.GAMES, game.name, game)
    variant = toygame.GAME.presets[0]
    config_a, config_b = configs("toy", 2, ["random", "greedy"], (variant, variant), "rotate")
    paired = simulate(config_a, batch_size=GAMES // 3, kernel=PreparedPair(config_a, config_b)).totals
    alone = simulate(config_a).totals
    for totals in (paired.a, paired.b):
        for name in ("seat", "slot", "pair_stats", "run"):
            assert np.array_equal(getattr(totals, name), getattr(alone, name)), name
    assert not paired.cross.any() and not paired.seat_sq.any() and not paired.metric_sq.any()


@pytest.mark.parametrize("game", ["card", "classic"])
def test_the_paired_loop_calls_the_batch_loops_compiled_game(game):
    """The one-game step (Game.engine.play_game_in_nb) is a function of its own, compiled once, that the
    batch loop and the paired loop both call (the first test: the same games), not inlined into each:
    inlined, the paired loop compiled the whole game again (balance's first run paid about 9 CPU s more)."""
    from medici_sim.core.registry import get_game

    assert get_game(game).engine.play_game_in_nb.targetoptions.get("inline", "never") == "never"
