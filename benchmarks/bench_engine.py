"""Games per second of the engine, after compilation.

    python benchmarks/bench_engine.py                 # random strategy, 2/4/6 players
    python benchmarks/bench_engine.py --strategies random --players 4 --games 2000000

For each player count and strategy: one thread, then all threads. Compilation (or the
load from numba's cache) happens before timing; each figure is the best of --repeat runs.
"""
from __future__ import annotations

import argparse
import os
import time

from medici_sim.deck import default_deck
from medici_sim.simulate import RunConfig, seat_strategy, simulate


def games_per_second(players: int, strategy: str, games: int, threads: int, repeat: int) -> float:
    config = RunConfig(deck=default_deck(), players=players, games=games, threads=threads,
                       strategies=tuple(seat_strategy(strategy) for _ in range(players)))
    return max(simulate(config).games_per_second for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--strategies", nargs="+", default=["random"])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    start = time.perf_counter()
    print(f"cores: {cores}")
    print(f"{'strategy':10} {'players':>7} {'1 thread':>14} {f'{cores} threads':>14} {'per core':>14}")
    for strategy in args.strategies:
        for players in args.players:
            one = games_per_second(players, strategy, args.games, 1, args.repeat)
            all_ = games_per_second(players, strategy, args.games, cores, args.repeat)
            print(f"{strategy:10} {players:>7} {one:>14,.0f} {all_:>14,.0f} {all_ / cores:>14,.0f}")
    print(f"(games/s, best of {args.repeat} runs of {args.games:,} games; took {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
