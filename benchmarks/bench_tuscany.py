"""Games per second of The Castles of Tuscany's jitted engine, `random` at every seat, on one thread.

    python benchmarks/bench_tuscany.py                # 4 players, 20,000 games, best of 3
    python benchmarks/bench_tuscany.py --players 2 --games 5000 --repeat 1

It runs core's batch kernel (core.kernel.batch_kernel, bound to the game's hooks in
games/tuscany/game.py) directly: the game is not yet registered with the driver (issue 32 waits
for the game contract of issue 31). Compilation is timed apart (cached after the first run).
The C loop of the same random game is benchmarks/tuscany_random.c; compare with it on one core.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from medici_sim.core.dispatch import strategy_table
from medici_sim.core.registry import MAX_PARAMS
from medici_sim.core.seating import SEATING_MODES
from medici_sim.games.tuscany.components import components
from medici_sim.games.tuscany.rules import RULE_BOOK
from medici_sim.games.tuscany.strategies import REGISTRY
from medici_sim.games.tuscany.tables import new_state


def run(players: int, games: int, seed: int = 1, first_game: int = 0) -> tuple[float, np.ndarray, np.ndarray]:
    """(CPU seconds, per-seat totals, run counters) of ``games`` games of `random` at every seat."""
    from medici_sim.games.tuscany.game import N_RUN_STATS, N_STATS, play_games_nb

    inputs = new_state(components(), RULE_BOOK.resolve(None, players))
    table, names = strategy_table(REGISTRY, {"random"})
    slot_strategy = np.full(players, names.index("random"), np.int64)
    slot_params = np.zeros((players, MAX_PARAMS))
    seat_stats = np.zeros((players, N_STATS), np.int64)
    slot_stats = np.zeros((players, N_STATS), np.int64)
    pair_stats = np.zeros((players, players, 2), np.int64)
    run_stats = np.zeros(N_RUN_STATS, np.int64)
    start = time.process_time()
    play_games_nb(seed, first_game, games, inputs, SEATING_MODES.index("fixed"), slot_strategy, slot_params,
                  seat_stats, slot_stats, pair_stats, run_stats, table)
    return time.process_time() - start, seat_stats, run_stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    compile_s, _, _ = run(args.players, 1)
    print(f"first game (compile or cache load): {compile_s:.1f} s")
    best = min(run(args.players, args.games)[0] for _ in range(args.repeat))
    print(f"tuscany random {args.players} players: {args.games / best:,.0f} games per CPU second, one thread "
          f"({args.games:,} games, best of {args.repeat})")


if __name__ == "__main__":
    main()
