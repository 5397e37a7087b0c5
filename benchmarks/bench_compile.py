"""How long a first run compiles, per game and set of strategies: the compile notice's figures.

    python benchmarks/bench_compile.py              # both games (about 10 minutes of CPU)
    python benchmarks/bench_compile.py --game card

Each row is one ``medici-sim`` process playing one game with an empty numba cache (its own
temporary NUMBA_CACHE_DIR; MEDICI_SIM_KERNEL unset, so the kernel holds only the strategies
named), timed in CPU seconds (user + sys of the process): fair on a busy machine, where the
wall time is longer. It ends with the ``compile_seconds`` of each game (``games/GAME/game.py``)
that these figures make (rounded); paste it there when the compile time changes.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

import medici_sim.games  # noqa: F401  the games register themselves
from medici_sim.cli.script_options import Parser
from medici_sim.core.registry import GAMES, get_game

SETS = ("fewest", "expert", "every heuristic", "search")


def cpu_seconds(game: str, strategies: str, warm: bool = False) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of a cold first run of ``strategies`` (one per seat); ``warm``:
    from the cache and kernels as they are (nothing compiled: the script checked, not measured)."""
    players = max(len(strategies.split(",")), get_game(game).min_players)
    env = {k: v for k, v in os.environ.items() if warm or k != "MEDICI_SIM_KERNEL"}
    with tempfile.TemporaryDirectory(prefix="medici-sim-cold-") as cache:
        if not warm:
            env["NUMBA_CACHE_DIR"] = cache
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "medici_sim", "--game", game, "--players", str(players),
                        "--strategies", strategies, "--games", "1", "--quiet"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def main() -> None:
    parser = Parser(__doc__)
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="the game(s) to measure [all]")
    parser.add_argument("--set", dest="sets", choices=SETS, action="append",
                        help="the sets of strategies to time [all; compile_seconds needs all]")
    parser.add_argument("--warm", action="store_true", help="use the kernels already cached: checks the script, "
                                                            "measures no compilation")
    args = parser.parse_args()
    found = {}
    print(f"{'game':8} {'strategies':48} {'CPU s':>7} {'wall s':>7}")
    for name in args.game or sorted(GAMES):
        heuristics = [s for s in get_game(name).built_ins if s != "search"]
        sets = {"fewest": "random", "expert": "expert", "every heuristic": ",".join(heuristics), "search": "search"}
        seconds = {}
        for label in args.sets or SETS:
            seconds[label], wall = cpu_seconds(name, sets[label], args.warm)
            print(f"{name:8} {sets[label]:48} {seconds[label]:>7.1f} {wall:>7.1f}", flush=True)
        if len(seconds) < len(SETS) or args.warm:
            continue
        low, high = sorted((seconds["fewest"], seconds["expert"], seconds["every heuristic"]))[::2]
        found[name] = ((round(low), round(high)), round(seconds["search"]))
    if found:
        print("\ncompile_seconds per game: " + "; ".join(f"{name}: {value!r}" for name, value in found.items()))


if __name__ == "__main__":
    main()
