"""Instructions a game: the engine's cost counted, not timed (valgrind's callgrind).

    python benchmarks/count_instructions.py --game classic --strategies value
    python benchmarks/count_instructions.py --game card --players 6 --games 2000
    python benchmarks/count_instructions.py --game classic --source OLD/src --source src   # two trees, same games

Timings on a shared machine move by a fifth within an hour; an instruction count does not move at
all, so a change of 1% shows. The script plays ``--games`` games and three times as many, each
between callgrind's start and stop requests (a small C library built here with ``cc``, calling
``valgrind/callgrind.h``), and prints the difference over the extra games: what one more game
costs, without the process's start, numba's loading or the tables' making. numba compiles for
a generic x86-64 CPU here (``NUMBA_CPU_NAME=generic``, in a cache of its own, filled outside
valgrind first), since valgrind's CPU is not the machine's and would make numba compile again
under it: the counts compare codes, not CPUs. Stalls (a cache miss, a branch mispredicted) are
not instructions: read the interleaved timings too (docs/performance.md).

``--source DIR`` (repeatable): play with the package found in DIR first on the path (another
checkout's ``src``) instead of the installed one; one line each. Linux only; needs ``valgrind``
(its headers) and ``cc``. A run costs about a minute of one core.
"""
from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

LIBRARY = r"""
#include <valgrind/callgrind.h>
void counting_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void counting_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS; }
"""
CACHE = Path(tempfile.gettempdir()) / "medici-sim-count-instructions"  # generic code, kept between runs


def play(game: str, strategies: str, players: int, games: int) -> None:
    from medici_sim.api import simulate

    simulate(games, game=game, strategies=strategies, players=players, threads=1, seed=7)


def child(library: str, game: str, strategies: str, players: int, games: int) -> None:
    """Under callgrind: a warm run, then ``games`` and ``3 * games`` games, each counted apart."""
    counting = ctypes.CDLL(library)
    play(game, strategies, players, 100)
    for n in (games, 3 * games):
        counting.counting_start()
        play(game, strategies, players, n)
        counting.counting_stop()


def instructions_a_game(source: str | None, library: str, args) -> int:
    """Instructions one more game costs, with the package of ``source`` (None: the installed one)."""
    label = "installed" if source is None else str(Path(source).resolve())
    env = {**os.environ, "NUMBA_CPU_NAME": "generic", "NUMBA_CPU_FEATURES": "",
           "NUMBA_CACHE_DIR": str(CACHE / label.strip("/").replace("/", "_"))}
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (source, os.environ.get("PYTHONPATH"))))
    game = [args.game, args.strategies, str(args.players)]
    warm = subprocess.run([sys.executable, __file__, "--warm", *game], env=env, capture_output=True, text=True)
    if warm.returncode != 0:
        fail(f"{label}: the run failed: {last_line(warm.stderr)}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                               sys.executable, __file__, "--child", library, *game, str(args.games)],
                              env=env, capture_output=True, text=True)
        dumps = [totals(Path(f"{out}.{k}")) for k in (1, 2)]
        if done.returncode != 0 or None in dumps:
            fail(f"{label}: callgrind failed: {last_line(done.stderr)}")
    return (dumps[1] - dumps[0]) // (2 * args.games)


def totals(path: Path) -> int | None:
    if not path.exists():
        return None
    return next((int(line.split()[1]) for line in path.read_text().splitlines() if line.startswith("totals:")), None)


def last_line(text: str) -> str:
    return next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "no output")


def fail(message: str) -> None:
    print(f"count_instructions: {message}", file=sys.stderr)
    sys.exit(2)


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        library, game, strategies, players, games = sys.argv[2:7]
        child(library, game, strategies, int(players), int(games))
        return
    if sys.argv[1:2] == ["--warm"]:  # numba's generic code compiled (or loaded) outside valgrind
        play(*sys.argv[2:4], int(sys.argv[4]), 100)
        return
    import medici_sim.games  # noqa: F401  the games register themselves
    from medici_sim.cli.common import parse_strategies
    from medici_sim.cli.script_options import Parser, check_players, count, package_dir
    from medici_sim.core.registry import GAMES

    parser = Parser(__doc__)
    parser.add_argument("--game", choices=sorted(GAMES), default="card")
    parser.add_argument("--strategies", default="random", help="as --strategies takes them [random]")
    parser.add_argument("--players", type=count(), default=4, help="players [4]")
    parser.add_argument("--games", type=count(1, 10**6), default=3000,
                        help="games counted, and three times as many [3,000]")
    parser.add_argument("--source", action="append", type=package_dir,
                        help="a package's directory to play instead (repeatable)")
    args = parser.parse_args()
    check_players(parser, [args.players], [args.game])
    try:
        parse_strategies(args.strategies, args.players, args.game)
    except ValueError as exc:
        parser.refuse("--strategies", str(exc))
    for tool in ("valgrind", "cc"):
        if shutil.which(tool) is None:
            fail(f"`{tool}` is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        library = Path(tmp) / "counting.so"
        (Path(tmp) / "counting.c").write_text(LIBRARY)
        built = subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(library), str(Path(tmp) / "counting.c")],
                               capture_output=True, text=True)
        if built.returncode != 0:
            fail(f"cannot build the counting library (valgrind's headers?): {last_line(built.stderr)}")
        print(f"{args.game} {args.strategies} at {args.players} players: instructions a game "
              f"(callgrind, generic x86-64 code, {2 * args.games:,} games)")
        for source in args.source or [None]:
            counted = instructions_a_game(source, str(library), args)
            print(f"{counted:>10,}  {source or 'installed package'}", flush=True)


if __name__ == "__main__":
    main()
