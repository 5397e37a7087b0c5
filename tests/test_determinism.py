"""R25: a game's randomness comes from (master seed, game index) alone.

The totals of a run are bit-identical whatever the thread count and batch size, and a
game played inside a batch is the same game as played alone.
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from medici_sim.core import accounting
from medici_sim.core.driver import PreparedRun, RunConfig, Totals, seat_strategy, simulate
from medici_sim.core.registry import get_game
from medici_sim.core.stats import seat_frame, strategy_frame


def config(deck, threads, games=30_000, seating="random", seed=123):
    slots = tuple(seat_strategy("random") for _ in range(4))
    return RunConfig(components=deck, players=4, strategies=slots, games=games, seed=seed,
                     seating=seating, threads=threads)


def test_threads_and_batches_do_not_change_results(deck):
    """Same seed: 1 thread in one batch == 2 or 3 threads in uneven batches (R25)."""
    base = simulate(config(deck, threads=1), batch_size=30_000)
    for threads, batch in ((2, 30_000), (2, 7_777), (3, 12_345), (1, 4_096)):
        other = simulate(config(deck, threads=threads), batch_size=batch)
        for name in ("seat", "slot", "pairs", "run"):
            assert np.array_equal(getattr(base.totals, name), getattr(other.totals, name)), (threads, batch)
        assert seat_frame(base).equals(seat_frame(other))
        assert strategy_frame(base).equals(strategy_frame(other))


def test_a_game_is_the_same_alone_or_in_a_batch(deck):
    """Game i depends on (seed, i) only: summing games played one by one equals the batch."""
    kernel = PreparedRun(config(deck, threads=1))
    batch = kernel.play(500, 200)
    one_by_one = Totals.zeros(4, get_game("card"))
    for game_index in range(500, 700):
        one_by_one.add(kernel.play(game_index, 1))
    assert np.array_equal(batch.seat, one_by_one.seat)
    assert np.array_equal(batch.slot, one_by_one.slot)
    assert np.array_equal(batch.pairs, one_by_one.pairs)
    assert np.array_equal(batch.run, one_by_one.run)


def test_trace_matches_batch_game(deck):
    """The traced game i is game i of a batch: same final florins, same seats."""
    kernel = PreparedRun(config(deck, threads=1))
    for game_index in (0, 1, 999):
        state = kernel.trace(game_index)
        totals = kernel.play(game_index, 1)
        assert np.array_equal(totals.seat[:, accounting.STAT_SCORE], state.florins)


def test_seed_and_index_change_the_game(deck):
    kernel = PreparedRun(config(deck, threads=1))
    other_seed = PreparedRun(config(deck, threads=1, seed=124))
    a, b, c = kernel.trace(5), kernel.trace(6), other_seed.trace(5)
    assert not np.array_equal(a.day_card_location, b.day_card_location)
    assert not np.array_equal(a.day_card_location, c.day_card_location)


@pytest.mark.parametrize("seating", ["fixed", "rotate", "random"])
def test_seating_modes(deck, seating):
    """R24: fixed keeps slot i at seat i; rotate moves every slot through every seat equally."""
    result = simulate(config(deck, threads=2, games=4_000, seating=seating))
    slot_games = result.totals.slot[:, accounting.STAT_GAMES]
    assert (slot_games == 4_000).all()
    kernel = PreparedRun(config(deck, threads=1, seating=seating))
    seatings = [tuple(kernel.trace(i).seat_slot) for i in range(40)]
    if seating == "fixed":
        assert set(seatings) == {(0, 1, 2, 3)}
    elif seating == "rotate":
        assert seatings[:4] == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]
    else:
        assert len(set(seatings)) > 10 and all(sorted(s) == [0, 1, 2, 3] for s in seatings)


def test_kernel_never_touches_freed_memory():
    """The GameState record must not outlive its array: with glibc returning every large
    block to the system at once, a use-after-free is a crash instead of a silent read."""
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "4096", "MALLOC_TRIM_THRESHOLD_": "0"}
    done = subprocess.run([sys.executable, "-m", "medici_sim", "--games", "3000", "--strategies",
                           "expert,random,greedy,collector", "--quiet"], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
