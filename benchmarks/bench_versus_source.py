"""Two versions of the package timed against each other, interleaved: the games per second of one over the other.

    python benchmarks/bench_versus_source.py --source OLD/src --source src --game classic --strategies bargain
    python benchmarks/bench_versus_source.py --source OLD/src --source src --game card --pairs 3 --rounds 20

A shared machine's speed moves by a fifth within minutes, and a process's own speed by a few per cent with where
its code and data land, so two versions timed one after the other say little. Here each ``--source`` (another
checkout's ``src``) plays in a process of its own, the two pinned to one core; they play a run of ``--games`` games
in turn, ``--rounds`` times, so that both meet the same moments of the machine, and a round in which either ran
slower than 0.85 of the fastest run of the pair is set aside (the machine busy). The ratio of a pair of processes
is the median of its rounds' ratios; ``--pairs`` pairs of fresh processes give the median printed, with their
range. Each run is the package's own (``medici_sim.api.simulate``, one thread): its games per second, timed
after the compile. Linux's ``taskset`` pins the processes when it is there.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys

BUSY = 0.85  # a round slower than this share of the pair's fastest run: the machine was busy


def worker(game: str, strategies: str, players: int, games: int) -> None:
    """Play a run of ``games`` games for each line read, and print its games per second."""
    from medici_sim.api import simulate

    def run() -> float:
        return simulate(games, game=game, strategies=strategies, players=players, threads=1, seed=7)\
            .summary["games_per_second"]
    run()  # compiled, or loaded from the cache
    print("ready", flush=True)
    for _ in sys.stdin:
        print(run(), flush=True)


def start(source: str, args) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (source, os.environ.get("PYTHONPATH"))))}
    pin = ["taskset", "-c", str(max(os.sched_getaffinity(0)))] if shutil.which("taskset") else []
    process = subprocess.Popen([*pin, sys.executable, __file__, "--worker", args.game, args.strategies,
                                str(args.players), str(args.games)], env=env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    if process.stdout.readline().strip() != "ready":
        process.kill()
        fail(f"{source}: the run failed (run it alone to see why)")
    return process


def timed(process: subprocess.Popen) -> float:
    process.stdin.write("go\n")
    process.stdin.flush()
    return float(process.stdout.readline())


def pair_ratio(args) -> tuple[float, float, float, int]:
    """One pair of processes: (the first's games/s, the second's, the median ratio second / first, rounds kept)."""
    processes = [start(source, args) for source in args.source]
    try:
        rounds = []
        for r in range(args.rounds):
            order = (0, 1) if r % 2 == 0 else (1, 0)
            speeds = {k: timed(processes[k]) for k in order}
            rounds.append((speeds[0], speeds[1]))
    finally:
        for process in processes:
            process.stdin.close()
            process.wait()
    fastest = max(max(r) for r in rounds)
    kept = [r for r in rounds if min(r) > BUSY * fastest] or rounds
    return (statistics.median(a for a, _ in kept), statistics.median(b for _, b in kept),
            statistics.median(b / a for a, b in kept), len(kept))


def fail(message: str) -> None:
    print(f"bench_versus_source: {message}", file=sys.stderr)
    sys.exit(2)


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        game, strategies, players, games = sys.argv[2:6]
        worker(game, strategies, int(players), int(games))
        return
    import medici_sim.games  # noqa: F401  the games register themselves
    from medici_sim.cli.common import parse_strategies
    from medici_sim.cli.script_options import Parser, check_players, count, package_dir
    from medici_sim.core.registry import GAMES

    parser = Parser(__doc__)
    parser.add_argument("--source", action="append", required=True, type=package_dir,
                        help="a package's directory (another checkout's src): exactly two")
    parser.add_argument("--game", choices=sorted(GAMES), default="card")
    parser.add_argument("--strategies", default="random", help="as --strategies takes them [random]")
    parser.add_argument("--players", type=count(), default=4, help="players [4]")
    parser.add_argument("--games", type=count(1, 10**7), default=10_000, help="games a run [10,000]")
    parser.add_argument("--rounds", type=count(2, 10_000), default=20, help="runs of each, in turn, a pair [20]")
    parser.add_argument("--pairs", type=count(1, 1000), default=5, help="pairs of fresh processes [5]")
    args = parser.parse_args()
    if len(args.source) != 2:
        parser.refuse("--source", f"give exactly two, got {len(args.source)}")
    check_players(parser, [args.players], [args.game])
    try:
        parse_strategies(args.strategies, args.players, args.game)
    except ValueError as exc:
        parser.refuse("--strategies", str(exc))
    first, second = args.source
    print(f"{args.game} {args.strategies} at {args.players} players, one thread, runs of {args.games:,} games: "
          f"games/s of {second} over {first}")
    ratios = []
    for k in range(args.pairs):
        a, b, ratio, kept = pair_ratio(args)
        ratios.append(ratio)
        print(f"  pair {k + 1}: {a:>11,.0f} {b:>11,.0f}  ratio {ratio:.3f}  ({kept} of {args.rounds} rounds kept)",
              flush=True)
    print(f"ratio {statistics.median(ratios):.3f} (median of {args.pairs} pairs; {min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
