"""Soak: a long run of the random strategy, its speed, and its peak memory.

    python benchmarks/bench_soak.py                   # 1e6, 1e7 and 1e8 games (about 5 minutes on 2 cores)
    python benchmarks/bench_soak.py --games 1000000 10000000

Each run is a fresh `medici-sim` process; its peak resident set size (RSS) comes from
the operating system. Statistics are fixed-size sums, so the peak must not grow with
the number of games.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from medici_sim.cli.script_options import Parser, check_players, count


def soak(games: int, players: int) -> tuple[float, float, float]:
    """(wall seconds, games/s as reported, peak RSS in MiB) of one run in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "soak.json"
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "medici_sim", "--games", str(games), "--players",
                                  str(players), "--quiet", "--out", str(out)], stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own resource usage
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        if child.returncode != 0:
            raise SystemExit(f"medici-sim exited with {child.returncode}")
        speed = json.loads(out.read_text())["summary"]["games_per_second"]
    return wall, speed, usage.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = Parser(__doc__)
    parser.add_argument("--games", type=count(), nargs="+", default=[1_000_000, 10_000_000, 100_000_000])
    parser.add_argument("--players", type=count(), default=4)
    args = parser.parse_args()
    check_players(parser, [args.players], ["card"])  # medici-sim's default game
    print(f"random strategy, {args.players} players, {os.cpu_count()} cores")
    print(f"{'games':>13} {'wall s':>9} {'games/s':>11} {'peak RSS MiB':>13}")
    for games in args.games:
        wall, speed, peak = soak(games, args.players)
        print(f"{games:>13,} {wall:>9.1f} {speed:>11,.0f} {peak:>13.1f}", flush=True)


if __name__ == "__main__":
    main()
