"""The state's optional parts (core.registry.Strategy.reads): the Medici games' unseen-card sums are kept up to
date only in the runs where a seated strategy reads them. A strategy that says nothing reads every part; the
built-ins that say ``reads=()`` play the same games whether the sums are kept or not; a run with seats answered
from outside keeps every part; a plug-in that reads the sums without saying so is caught by check-plugin
(tests/test_check_plugin.py)."""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from medici_sim.core.driver import PreparedRun, StrategyError, simulate
from medici_sim.core.registry import RegistrationError, Strategy, get_game
from medici_sim.core.specs import run_config
from medici_sim.frameworks.stepper import Engine
from medici_sim.games import load
from medici_sim.games.classic.rules import RULE_REMOVED
from medici_sim.games.classic.state import DECK_LEN, N_GOODS, UNSEEN, UNSEEN_CARDS
from medici_sim.games.medici.chance import UNSEEN_PART

MEDICI = ("card", "classic")
# what reads the sums: expert's and strong's estimates, and the searchers (their rollouts' policies)
READERS = {"expert", "search", "mcts", "strong"}


def config(game: str, strategies, players: int, games: int = 10):
    return run_config(game=game, players=players, strategies=strategies, games=games, seed=3, rules=None,
                      seating="rotate", threads=1, components=None)


def same_totals(a, b) -> bool:
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("seat", "slot", "pair_stats", "run"))


@pytest.mark.parametrize("game", MEDICI)
def test_the_built_ins_say_what_they_read(game):
    registry = get_game(game).registry
    assert registry.optional_parts == (UNSEEN_PART,)
    for name, strategy in registry.strategies.items():
        if registry.origin[name] == "built-in":
            assert strategy.reads == (None if name in READERS else ()), name
    assert get_game("tuscany").registry.optional_parts == ()


@pytest.mark.parametrize("game", MEDICI)
def test_a_run_keeps_the_sums_where_a_seated_strategy_reads_them(game):
    cheap = PreparedRun(config(game, "random", 4))
    assert cheap.kept_parts == frozenset() and cheap.inputs[0]["keep_unseen"] == 0
    mixed = PreparedRun(config(game, "random,expert,random,random", 4))
    assert mixed.kept_parts == {UNSEEN_PART} and mixed.inputs[0]["keep_unseen"] == 1
    every = PreparedRun(config(game, "random", 4), every_part=True)
    assert every.kept_parts == {UNSEEN_PART} and every.inputs[0]["keep_unseen"] == 1
    # seats answered from outside (the small game API, the frameworks' stepper) may read any part
    assert load(game).new_game(4, strategies=[None, "random", "random", "random"]).kernel.kept_parts == {UNSEEN_PART}
    assert Engine(game, 4, get_game(game).presets[0]).kernel.kept_parts == {UNSEEN_PART}
    assert PreparedRun(config("tuscany", "random", 4)).kept_parts == frozenset()


@pytest.mark.parametrize("game", MEDICI)
def test_the_strategies_that_read_nothing_play_the_same_games_with_the_sums_kept(game):
    registry = get_game(game).registry
    blind = [name for name, s in registry.strategies.items() if registry.origin[name] == "built-in" and s.reads == ()]
    assert len(blind) >= 4
    run = config(game, ",".join(blind), len(blind), games=3000)
    assert PreparedRun(run).kept_parts == frozenset()
    stale = simulate(run, kernel=PreparedRun(run)).totals
    kept = simulate(run, kernel=PreparedRun(run, every_part=True)).totals
    assert stale.games == 3000 and same_totals(stale, kept)


@njit(cache=True)
def _never_nb(state, seat, params):
    return False


@njit(cache=True)
def _checks_the_sums_nb(state, seat, params):
    """Pass, after checking that the classic game's unseen-card sums add up (C5: the deck and the cards set aside)."""
    total = 0
    for row in range(N_GOODS + 1):
        total += state.unseen[row, UNSEEN_CARDS]
    if total != state.counts[UNSEEN] or total != state.counts[DECK_LEN] + state.rules[RULE_REMOVED]:
        raise ValueError("stale unseen-card sums")
    return 0


@pytest.fixture
def registered():
    """Register strategies in the classic game for one test (as a notebook would), and take them out after."""
    registry, names = get_game("classic").registry, []

    def register(strategy: Strategy) -> str:
        registry.register(strategy)
        names.append(strategy.name)
        return strategy.name
    yield register
    for name in names:
        del registry.strategies[name], registry.origin[name]


def test_a_strategy_that_says_nothing_reads_sums_that_are_right_and_one_that_says_reads_nothing_does_not(registered):
    decisions = {"draw_nb": _never_nb, "bid_nb": _checks_the_sums_nb}
    checker = registered(Strategy("sums_checker", decisions))
    simulate(config("classic", f"{checker},random,random", 3, games=500))  # raises if a sum is wrong
    blind = registered(Strategy("blind_sums_checker", decisions, reads=()))
    with pytest.raises(StrategyError, match="stale unseen-card sums"):
        simulate(config("classic", f"{blind},random,random", 3, games=500))


@pytest.mark.parametrize("game", MEDICI)
@pytest.mark.parametrize("reads", [("deck",), ["unseen"], "unseen", (UNSEEN_PART, "hand"), (["unseen"],), ({},)])
def test_a_strategy_may_read_only_its_games_parts(game, reads):
    registry = get_game(game).registry
    decisions = {kind: _never_nb for kind in registry.decisions}
    with pytest.raises(RegistrationError, match=f"strategy odd: reads must be a tuple of the {game} game's optional "
                                                r"parts \(unseen\) or None, got "):
        registry.register(Strategy("odd", decisions, reads=reads))
    assert "odd" not in registry.strategies
