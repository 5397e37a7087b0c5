"""Each game's engine against a tight C loop of the same rules, on one core.

    python benchmarks/bench_versus_c.py                      # every game, 4 players, best of 5
    python benchmarks/bench_versus_c.py --game classic --players 3 --games 300000 --repeat 3
    python benchmarks/bench_versus_c.py --game tuscany --repeat 9

``card_random.c``, ``classic_random.c`` and ``tuscany_random.c`` (built here with the system's
``cc -O2``; Tuscany's through bench_tuscany_c.py, which hands it the component and rule sets)
play their game with the ``random`` strategy at every seat, drawing exactly as the engine does
(each game's default components and standard rules), so both play the same games: the script
checks that their totals agree before it times anything. ``--games`` defaults to 1,000,000
(100,000 for Tuscany, a longer game). Then the two run back to back on one core
(this process and the C program pinned to it), ``--repeat`` times each, and the best CPU time of
each counts: CPU seconds, not wall time, and ratios of runs taken seconds apart, so that a machine
shared with other work still gives steady figures. A ratio above 1 means the engine plays more
games a second than the C loop. "by round": the median of each round's ratio (its C run and the
engine's run just after), steadier where the machine's speed moves between rounds.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import medici_sim.games  # noqa: F401  the games register themselves
from medici_sim.cli.common import load_game_components, parse_strategies
from medici_sim.cli.script_options import Parser, check_players, count, seed
from medici_sim.core.accounting import (
    N_COMMON_RUN_STATS,
    RUN_GAMES,
    RUN_LENGTH,
    RUN_LENGTH_SQ,
    RUN_WIN_MARGIN,
    STAT_SCORE,
    STAT_SCORE_SQ,
    STAT_WIN60,
)
from medici_sim.core.driver import PreparedRun, RunConfig
from medici_sim.core.registry import get_game
from medici_sim.games.medici.scoring import N_COMMON_STATS, STAT_BONUS
from medici_sim.games.tuscany.rules import RULE_BOOK as TUSCANY_RULES

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import bench_tuscany_c  # noqa: E402  (Tuscany's C loop: its input and its totals)

GAMES = ("card", "classic", "tuscany")
DEFAULT_GAMES = {"card": 1_000_000, "classic": 1_000_000, "tuscany": 100_000}


def build(game: str, directory: str) -> list[str]:
    """Compile the game's C loop; the program and the arguments it takes after PLAYERS GAMES SEED."""
    cc = os.environ.get("CC") or shutil.which("cc")
    if cc is None:
        sys.exit("bench_versus_c: no C compiler (`cc`) found")
    if game == "tuscany":
        return [bench_tuscany_c.build(directory)]
    program = os.path.join(directory, f"{game}_random")
    subprocess.run([cc, "-O2", "-o", program, str(HERE / f"{game}_random.c")], check=True)
    if game == "classic":
        return [program]
    deck = os.path.join(directory, "deck.txt")  # the default deck, one card id a line
    cards = list(zip(*load_game_components(get_game("card"), None).card_arrays(), strict=True))
    Path(deck).write_text(f"{len(cards)}\n" + "".join(" ".join(map(str, card)) + "\n" for card in cards))
    return [program, deck]


def run_c(program: list[str], players: int, games: int, seed: int, game: str) -> tuple[float, np.ndarray, np.ndarray]:
    """(CPU seconds of the game loop, per-seat totals, run totals) of one run of the C loop."""
    if game == "tuscany":
        comp = load_game_components(get_game(game), None)
        seconds, totals = bench_tuscany_c.run_c(program[0], comp, TUSCANY_RULES.resolve(None, players), games, seed)
        return seconds, totals.seat, totals.run
    lines = subprocess.run([program[0], str(players), str(games), str(seed), *program[1:]], capture_output=True,
                           text=True, check=True).stdout.splitlines()
    seconds = float(lines[0].split()[1])
    run = np.array(lines[1].split()[1:], np.int64)
    seat = np.array([line.split() for line in lines[2:]], np.int64)
    return seconds, seat, run


def c_loop_totals(game: str, totals, c_columns: int) -> tuple[np.ndarray, np.ndarray]:
    """The engine's totals that a C loop computes too, (per seat, run), in the C loop's order:
    the common per-seat columns up to the florin sources and the game's own columns after them
    (``c_columns`` in all: the classic game's, C21), and the run's games, winning margin and
    game counters. The designer metrics between them (accounting's StatLayout.trailed_first.., the run's
    RUN_SHARED_WIN_GAMES..) came after the C loops were written: the engine's alone. Tuscany's C loop
    keeps bench_tuscany_c's columns (SEAT_COLUMNS, RUN_COLUMNS), taken here from the engine's."""
    if game == "tuscany":
        return tuscany_totals(totals)
    common = STAT_BONUS + 1
    seat = np.concatenate([totals.seat[:, :common], totals.seat[:, N_COMMON_STATS:N_COMMON_STATS + c_columns - common]],
                          axis=1)
    return seat, np.concatenate([totals.run[[RUN_GAMES, RUN_WIN_MARGIN]], totals.run[N_COMMON_RUN_STATS:]])


def tuscany_totals(totals) -> tuple[np.ndarray, np.ndarray]:
    """The engine's Tuscany totals in bench_tuscany_c's columns: red, its square, green, the points by
    source, the tallies and what is left, the win share; the run's games, rounds (the game's length), its
    square, the rounds each phase ended, T37's limit and the refreshes (T16)."""
    from medici_sim.games.tuscany import game  # noqa: PLC0415  (the game's kernel module)

    seat = np.concatenate([totals.seat[:, [STAT_SCORE, STAT_SCORE_SQ, game.STAT_GREEN]],
                           totals.seat[:, game.STAT_POINTS:game.STAT_POINTS + game.N_SOURCES],
                           totals.seat[:, game.STAT_TALLY:game.N_STATS], totals.seat[:, [STAT_WIN60]]], axis=1)
    run = np.concatenate([totals.run[[RUN_GAMES, RUN_LENGTH, RUN_LENGTH_SQ]],
                          totals.run[game.RUN_PHASE_END:game.RUN_REFRESHES + 1]])
    return seat, run


def engine_seconds(kernel: PreparedRun, games: int) -> float:
    """CPU seconds of the engine's kernel playing ``games`` games on this thread."""
    began = time.thread_time()
    kernel.play(0, games)
    return time.thread_time() - began


def compare(game: str, players: int, games: int | None, repeat: int, seed: int) -> None:
    games = games or DEFAULT_GAMES[game]
    config = RunConfig(components=load_game_components(get_game(game), None), players=players, games=games, seed=seed,
                       threads=1, game=game, strategies=parse_strategies("random", players, game))
    kernel = PreparedRun(config)
    kernel.play(0, 1)  # compiled (or loaded from numba's cache) before anything is timed
    with tempfile.TemporaryDirectory() as directory:
        program = build(game, directory)
        check = min(games, 100_000)
        _, seat, run = run_c(program, players, check, seed, game)
        totals = kernel.play(0, check)
        engine_seat, engine_run = c_loop_totals(game, totals, seat.shape[1])
        if not (np.array_equal(seat, engine_seat) and np.array_equal(run, engine_run)):
            sys.exit(f"bench_versus_c: the {game} C loop and the engine played different games; nothing timed")
        rounds = [(run_c(program, players, games, seed, game)[0], engine_seconds(kernel, games)) for _ in range(repeat)]
    c_rate, engine_rate = games / min(c for c, _ in rounds), games / min(e for _, e in rounds)
    paired = statistics.median(c / e for c, e in rounds)
    print(f"{game:8} {players:>7} {games:>10,} {c_rate:>12,.0f} {engine_rate:>12,.0f} {engine_rate / c_rate:>10.2f} "
          f"{paired:>10.2f}", flush=True)


def main() -> None:
    parser = Parser(__doc__)
    parser.add_argument("--game", choices=GAMES, action="append", help="the game(s) to measure [every one]")
    parser.add_argument("--players", type=count(), default=4)
    parser.add_argument("--games", type=count(1, 10**10), default=None,
                        help="games a run [1,000,000; Tuscany's 100,000]")
    parser.add_argument("--repeat", type=count(1, 1000), default=5)
    parser.add_argument("--seed", type=seed, default=0)
    args = parser.parse_args()
    check_players(parser, [args.players], args.game or GAMES)
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})  # this process, its threads and the C programs it starts: one core
    print(f"random at every seat, best of {args.repeat}, games/s on one core (CPU {core}); the same games checked "
          f"on up to 100,000 first")
    print(f"{'game':8} {'players':>7} {'games':>10} {'C (cc -O2)':>12} {'engine':>12} {'engine / C':>10} "
          f"{'by round':>10}")
    for game in args.game or GAMES:
        compare(game, args.players, args.games, args.repeat, args.seed)


if __name__ == "__main__":
    main()
