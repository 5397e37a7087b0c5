"""Games per second of each game's engine, after compilation, and what compilation costs.

    python benchmarks/bench_engine.py                  # both games (about 5 minutes on 2 cores)
    python benchmarks/bench_engine.py --game classic   # one game
    python benchmarks/bench_engine.py --quick          # fewer games
    python benchmarks/bench_engine.py --strategy random --strategy expert --no-compile   # the README's rows

For each game:
1. the random strategy at its smallest, a middle and its largest player count;
2. each built-in strategy at every seat, 4 players;
3. compile time: the kernel from a cold cache, from a warm cache, and for a new mix of
   strategies already compiled together (other seats, other parameters: nothing to compile).

Each speed is the best of --repeat runs, with one thread and with all cores.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import medici_sim.games  # noqa: F401  the games register themselves
from medici_sim.cli.common import load_game_components, parse_strategies
from medici_sim.cli.script_options import Parser, count
from medici_sim.core.driver import RunConfig, simulate
from medici_sim.core.registry import GAMES, get_game

FIRST_GAME = ("import time; t = time.perf_counter(); "
              "from medici_sim.core.driver import RunConfig, simulate; "
              "from medici_sim.cli.common import load_game_components, parse_strategies; "
              "import medici_sim.games; from medici_sim.core.registry import get_game; game = get_game({game!r}); "
              "simulate(RunConfig(components=load_game_components(game, None), players=4, games=1, threads=1, "
              "game=game.name, strategies=parse_strategies('random', 4, game.name))); print(time.perf_counter() - t)")
NEW_MIXES = {"card": "gambler:take_min=4,cautious,collector:focus=1,expert:spread=5"}


def config(game: str, players: int, spec: str, games: int, threads: int) -> RunConfig:
    return RunConfig(components=load_game_components(get_game(game), None), players=players, games=games,
                     threads=threads,
                     strategies=parse_strategies(spec, players, game), seating="rotate", game=game)


def games_per_second(game: str, players: int, spec: str, games: int, threads: int, repeat: int) -> float:
    return max(simulate(config(game, players, spec, games, threads)).games_per_second for _ in range(repeat))


def row(game: str, label: str, players: int, spec: str, games: int, repeat: int, cores: int) -> None:
    one = games_per_second(game, players, spec, games, 1, repeat)
    all_ = games_per_second(game, players, spec, games, cores, repeat)
    print(f"{game:8} {label:12} {players:>7} {one:>12,.0f} {all_:>12,.0f} {all_ / cores:>12,.0f}", flush=True)


def first_game_seconds(game: str, cache_dir: str | None) -> float:
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    done = subprocess.run([sys.executable, "-c", FIRST_GAME.format(game=game)], env=env, capture_output=True,
                          text=True, check=True)
    return float(done.stdout)


def main() -> None:
    parser = Parser(__doc__)
    parser.add_argument("--games", type=count(), help="games a run [1,000,000; --quick 100,000]")
    parser.add_argument("--repeat", type=count(1, 1000), help="runs of each row, the best counts [3; --quick 1]")
    parser.add_argument("--quick", action="store_true", help="fewer games and runs by default: 100,000 games, one run")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="the game(s) to measure [all]")
    parser.add_argument("--strategy", action="append", help="only these built-ins' rows (each at every seat) [all]")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile-time measurements")
    args = parser.parse_args()
    unknown = set(args.strategy or ()) - {s for name in args.game or GAMES for s in get_game(name).built_ins}
    if unknown:
        parser.error(f"--strategy: no built-in {', '.join(sorted(unknown))} in the games measured")
    if args.games is None:
        args.games = 100_000 if args.quick else 1_000_000
    if args.repeat is None:
        args.repeat = 1 if args.quick else 3
    cores = os.cpu_count() or 1
    start = time.perf_counter()
    print(f"games/s after compilation, best of {args.repeat} runs of {args.games:,} games; {cores} cores")
    print(f"{'game':8} {'strategy':12} {'players':>7} {'1 thread':>12} {f'{cores} threads':>12} {'per core':>12}")
    for name in args.game or sorted(GAMES):
        game = get_game(name)
        wanted = [s for s in game.built_ins if args.strategy is None or s in args.strategy]
        if "random" in wanted:
            for players in sorted({game.min_players, 4, game.max_players}):
                row(name, "random", players, "random", args.games, args.repeat, cores)
        for strategy in wanted:
            if strategy != "random":
                row(name, strategy, 4, strategy, args.games, args.repeat, cores)
        if args.no_compile:
            continue
        with tempfile.TemporaryDirectory() as cold:
            print(f"{name}: first game from a cold numba cache: {first_game_seconds(name, cold):.1f} s")
            print(f"{name}: first game from a warm cache:      {first_game_seconds(name, cold):.2f} s")
        mix = NEW_MIXES.get(name, ",".join(reversed(game.built_ins[:4])))
        # a kernel holds the strategies its run uses: compile theirs (other seats, default parameters) first
        simulate(config(name, 4, ",".join(spec.split(":")[0] for spec in reversed(mix.split(","))), 1, 1))
        t = time.perf_counter()
        simulate(config(name, 4, mix, 1, 1))
        print(f"{name}: a new mix of the same strategies ({mix}): {time.perf_counter() - t:.3f} s, nothing compiled")
    print(f"(took {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
