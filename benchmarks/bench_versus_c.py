"""The classic engine against a tight C loop of the same rules, on one core.

    python benchmarks/bench_versus_c.py                  # 4 players, 1,000,000 games, best of 5
    python benchmarks/bench_versus_c.py --players 3 --games 300000 --repeat 3

``classic_random.c`` (built here with the system's ``cc -O2``) plays the classic game with the
``random`` strategy at every seat, drawing exactly as the engine does, so both play the same
games: the script checks that their totals agree before it times anything. Then the two run
back to back on one core (this process and the C program pinned to it), ``--repeat`` times
each, and the best CPU time of each counts: CPU seconds, not wall time, and ratios of runs
taken minutes apart, so that a machine shared with other work still gives steady figures.
A ratio above 1 means the engine plays more games a second than the C loop.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from medici_sim.cli.common import parse_strategies
from medici_sim.core.accounting import N_COMMON_RUN_STATS
from medici_sim.core.driver import Kernel, RunConfig, Totals

SOURCE = Path(__file__).with_name("classic_random.c")


def build(directory: str) -> str:
    """Compile the C loop; the path of the program."""
    cc = os.environ.get("CC") or shutil.which("cc")
    if cc is None:
        sys.exit("bench_versus_c: no C compiler (`cc`) found")
    program = os.path.join(directory, "classic_random")
    subprocess.run([cc, "-O2", "-o", program, str(SOURCE)], check=True)
    return program


def run_c(program: str, players: int, games: int, seed: int) -> tuple[float, np.ndarray, np.ndarray]:
    """(CPU seconds of the game loop, per-seat totals, run totals) of one run of the C loop."""
    lines = subprocess.run([program, str(players), str(games), str(seed)], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    seconds = float(lines[0].split()[1])
    run = np.array(lines[1].split()[1:], np.int64)
    seat = np.array([line.split() for line in lines[2:]], np.int64)
    return seconds, seat, run


def run_engine(kernel: Kernel, games: int) -> tuple[float, Totals]:
    """(CPU seconds, totals) of the engine's kernel playing ``games`` games on this thread."""
    began = time.thread_time()
    totals = kernel.play(0, games)
    return time.thread_time() - began, totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})  # this process, its threads and the C program it starts: one core
    config = RunConfig(deck=None, players=args.players, games=args.games, seed=args.seed, threads=1, game="classic",
                       strategies=parse_strategies("random", args.players, "classic"))
    kernel = Kernel(config)
    kernel.play(0, 1)  # compiled (or loaded from numba's cache) before anything is timed
    with tempfile.TemporaryDirectory() as directory:
        program = build(directory)
        check = min(args.games, 100_000)
        _, seat, run = run_c(program, args.players, check, args.seed)
        totals = kernel.play(0, check)
        # the C loop keeps the per-seat columns and the common run counters, then the ran-out days
        if not (np.array_equal(seat, totals.seat) and np.array_equal(run, totals.run[:N_COMMON_RUN_STATS + 1])):
            sys.exit("bench_versus_c: the C loop and the engine played different games; nothing timed")
        c_best = engine_best = float("inf")
        for _ in range(args.repeat):
            c_best = min(c_best, run_c(program, args.players, args.games, args.seed)[0])
            engine_best = min(engine_best, run_engine(kernel, args.games)[0])
    c_rate, engine_rate = args.games / c_best, args.games / engine_best
    print(f"classic random, {args.players} players, {args.games:,} games, best of {args.repeat}, one core "
          f"(CPU {core}); the same games checked on {check:,}")
    print(f"  C loop (cc -O2): {c_rate:>10,.0f} games/s")
    print(f"  engine (numba):  {engine_rate:>10,.0f} games/s")
    print(f"  engine / C:      {engine_rate / c_rate:10.2f}")


if __name__ == "__main__":
    main()
