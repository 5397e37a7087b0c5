"""One conformance suite that every registered game passes (core.registry.GAMES).

For each game: results are bit-identical for 1, 2 and 3 threads and any batch size (R25,
C20); the independent reference engine plays the same games as the kernel, record for
record; the game's invariants (every card in one place, florins conserved as its rules
say) hold over many games of every player count and seating; memory stays flat as the
games grow; bad input is one line and exit code 2. A new game passes this before it is
called done.
"""
from __future__ import annotations

import resource
from pathlib import Path

import numpy as np
import pytest
import toygame
from conftest import run

from medici_sim.cli.common import load_game_deck
from medici_sim.core.accounting import MAX_SCORE_SOURCES, STAT_SOURCE
from medici_sim.core.driver import Kernel, RunConfig, seat_strategy, simulate
from medici_sim.core.registry import GAMES, get_game
from medici_sim.core.stats import stat_columns

ROOT = Path(__file__).parents[2]
GAME_NAMES = sorted({*GAMES, toygame.GAME.name})  # the games medici-sim ships, and the tests' toy game


@pytest.fixture(autouse=True)
def the_toy_game_is_registered(monkeypatch):
    """The toy game (tests/toygame) is registered for each test here, and for no other test."""
    monkeypatch.setitem(GAMES, toygame.GAME.name, toygame.GAME)


def config(name: str, players: int, names=None, games: int = 1, seating: str = "rotate", seed: int = 7,
           threads: int = 1, variant: str | None = None) -> RunConfig:
    game = get_game(name)
    names = names or [game.built_ins[k % len(game.built_ins)] for k in range(players)]
    return RunConfig(deck=load_game_deck(game, None), players=players, games=games, seed=seed, seating=seating,
                     threads=threads, game=name, variant=variant or game.variants[-1],
                     strategies=tuple(seat_strategy(n, name) for n in names))


def totals_tuple(totals):
    return tuple(np.asarray(a).tobytes() for a in (totals.seat, totals.slot, totals.pairs, totals.run))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_game_is_registered_completely(name):
    game = get_game(name)
    assert game.min_players <= game.default_players <= game.max_players
    assert game.variants and game.built_ins and set(game.built_ins) <= set(game.registry)
    assert game.trace and game.reference_game and game.invariants and game.reference_strategies
    assert (ROOT / game.rules_page).is_file()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_game_declares_its_score_in_its_own_terms(name):
    """Its score's unit, its sources (at most the kernel's source columns, each a name for the
    tables' columns) and its scoring moments (the rule that counts them, where it names one); the
    kernel fills the declared sources' columns only, and, for a game of moments, the metrics' per-seat
    columns (issue 31)."""
    game = get_game(name)
    assert game.score_unit.isidentifier() and game.score_unit != "score"
    names = [s.name for s in game.score_sources]
    assert len(names) == len(set(names)) <= MAX_SCORE_SOURCES and all(n.isidentifier() for n in names)
    assert not game.moment_rule or (game.rule_book is not None and game.moment_rule in game.rule_book.names)
    assert game.moments >= 1 and (game.moment.isidentifier() or not game.moment)
    assert len(set(stat_columns(game))) == len(stat_columns(game))
    seat = simulate(config(name, game.max_players, games=50)).totals.seat
    assert not seat[:, STAT_SOURCE + len(names):STAT_SOURCE + MAX_SCORE_SOURCES].any()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_threads_and_batches_never_change_the_results(name):
    game = get_game(name)
    players = game.max_players
    results = set()
    for threads, batch in ((1, None), (2, 997), (3, 4096), (3, 50_000)):
        result = simulate(config(name, players, games=20_000, threads=threads, seed=11), batch_size=batch)
        results.add(totals_tuple(result.totals))
    assert len(results) == 1
    # ... and a game played alone is the game played in a batch
    alone = Kernel(config(name, players, seed=11))
    one_by_one = None
    for index in range(30):
        totals = alone.play(index, 1)
        if one_by_one is None:
            one_by_one = totals
        else:
            one_by_one.add(totals)
    assert totals_tuple(one_by_one) == totals_tuple(alone.play(0, 30))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_reference_engine_plays_the_same_games(name):
    game = get_game(name)
    known = [s for s in game.built_ins if s in game.reference_strategies()]
    assert "random" in known
    for players in range(game.min_players, game.max_players + 1):
        for seating in ("fixed", "rotate", "random"):
            names = [known[(k + players) % len(known)] for k in range(players)]
            run_config = config(name, players, names, seating=seating, seed=players)
            kernel = Kernel(run_config)
            for index in range(12):
                ours = kernel.trace(index).record()
                theirs = game.reference_game(run_config, index)
                assert set(ours) == set(theirs), (name, set(ours) ^ set(theirs))
                for key in theirs:
                    a, b = ours[key], theirs[key]
                    same = (all(np.array_equal(x, y) for x, y in zip(a, b, strict=True)) if isinstance(b, list)
                            else np.array_equal(a, b))
                    assert same, f"{name}: {key} differs, players={players} seating={seating} game={index}"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_invariants_hold_over_many_games(name):
    game = get_game(name)
    for players in range(game.min_players, game.max_players + 1):
        for seating in ("fixed", "random"):
            run_config = config(name, players, seating=seating, seed=100 + players)
            kernel = Kernel(run_config)
            for index in range(60):
                game.invariants(kernel.trace(index).record(), run_config)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_memory_stays_flat_as_the_games_grow(name):
    """Playing ten times more games needs no more memory: statistics are fixed-size sums."""
    game = get_game(name)
    simulate(config(name, 4, ["random"] * 4, games=200_000, threads=2))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    simulate(config(name, 4, ["random"] * 4, games=2_000_000, threads=2))
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 8 * 1024, f"{name}: peak memory grew by {grown_kib} KiB over 2,000,000 games"
    assert game.name == name


@pytest.mark.parametrize("name", GAME_NAMES)
def test_bad_input_is_one_line_and_exit_2(capsys, name):
    game = get_game(name)
    for args in (["-p", str(game.max_players + 1)], ["-p", str(game.min_players - 1)], ["-s", "no_such_strategy"],
                 ["-s", f"{game.built_ins[0]}:no_such_param=1"], ["--variant", "no_such_rules"],
                 ["-n", "0"], ["--seed", "-1"], ["--threads", "0"]):
        code, out, err = run(capsys, "--game", name, "-n", "100", *args) if args[0] != "-n" else \
            run(capsys, "--game", name, *args)
        assert code == 2, (name, args, out, err)
        assert err.startswith("medici-sim: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
