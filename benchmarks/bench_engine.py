"""Games per second of the engine, after compilation, and what compilation costs.

    python benchmarks/bench_engine.py            # everything below (about 3 minutes on 2 cores)
    python benchmarks/bench_engine.py --quick    # fewer games

1. the random strategy at 2, 4 and 6 players;
2. each built-in strategy at every seat, 4 players;
3. compile time: the kernel from a cold cache, from a warm cache, and for a mix of
   strategies never run before (one kernel serves every mix: nothing to compile).

Each speed is the best of --repeat runs, with one thread and with all cores.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from medici_sim.cli.common import parse_strategies
from medici_sim.games.card.deck import default_deck
from medici_sim.core.driver import RunConfig, simulate
from medici_sim.games.card.strategies import REGISTRY

FIRST_GAME = ("import time; t = time.perf_counter(); "
              "from medici_sim.core.driver import RunConfig, simulate; from medici_sim.cli.common import parse_strategies; "
              "from medici_sim.games.card.deck import default_deck; "
              "simulate(RunConfig(deck=default_deck(), players=4, games=1, threads=1, "
              "strategies=parse_strategies('random', 4))); print(time.perf_counter() - t)")


def games_per_second(players: int, spec: str, games: int, threads: int, repeat: int) -> float:
    config = RunConfig(deck=default_deck(), players=players, games=games, threads=threads,
                       strategies=parse_strategies(spec, players), seating="rotate")
    return max(simulate(config).games_per_second for _ in range(repeat))


def row(label: str, players: int, spec: str, games: int, repeat: int, cores: int) -> None:
    one = games_per_second(players, spec, games, 1, repeat)
    all_ = games_per_second(players, spec, games, cores, repeat)
    print(f"{label:12} {players:>7} {one:>12,.0f} {all_:>12,.0f} {all_ / cores:>12,.0f}", flush=True)


def first_game_seconds(cache_dir: str | None) -> float:
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    done = subprocess.run([sys.executable, "-c", FIRST_GAME], env=env, capture_output=True, text=True, check=True)
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="100,000 games, one run each")
    args = parser.parse_args()
    if args.quick:
        args.games, args.repeat = 100_000, 1
    cores = os.cpu_count() or 1
    start = time.perf_counter()
    print(f"games/s after compilation, best of {args.repeat} runs of {args.games:,} games; {cores} cores")
    print(f"{'strategy':12} {'players':>7} {'1 thread':>12} {f'{cores} threads':>12} {'per core':>12}")
    for players in (2, 4, 6):
        row("random", players, "random", args.games, args.repeat, cores)
    for name in REGISTRY:
        if name != "random":
            row(name, 4, name, args.games, args.repeat, cores)

    with tempfile.TemporaryDirectory() as cold:
        print(f"\nfirst game from a cold numba cache: {first_game_seconds(cold):.1f} s")
        print(f"first game from a warm cache:      {first_game_seconds(cold):.2f} s")
    mix = "gambler:take_min=4,cautious,collector:focus=1,expert:spread=5"
    t = time.perf_counter()
    simulate(RunConfig(deck=default_deck(), players=4, games=1, threads=1, strategies=parse_strategies(mix, 4)))
    print(f"a new mix ({mix}): {time.perf_counter() - t:.3f} s, nothing compiled")
    print(f"(took {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
