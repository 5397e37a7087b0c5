"""How long a first run compiles, per game and set of strategies: the compile notice's figures.

    python benchmarks/bench_compile.py              # both games (about 10 minutes of CPU)
    python benchmarks/bench_compile.py --game card
    python benchmarks/bench_compile.py --readme     # the README's commands in turn, one shared cache
    python benchmarks/bench_compile.py --readme --installed   # ... as a fresh installation meets them


Each row is one ``medici-sim`` process playing one game with an empty numba cache (its own
temporary NUMBA_CACHE_DIR; MEDICI_SIM_KERNEL unset, so the kernel holds only the strategies
named), timed in CPU seconds (user + sys of the process): fair on a busy machine, where the
wall time is longer. It ends with the ``compile_seconds`` of each game (``games/GAME/game.py``)
that these figures make (rounded); paste it there when the compile time changes.

``--readme`` measures what a new user meets: the commands of the README's table (each game's first
commands, as `medici-sim compile` runs them: the main command of each game, compare, balance, the
ladder, a search run, trace, play; then check-plugin on the example plug-in), in that order, from one
empty cache that they share (MEDICI_SIM_KERNEL unset). Each row is that command's CPU seconds when
first run less its CPU seconds when run again at once (warm): the compilation it paid for. The total
is what the whole table compiled. ``--readme --installed`` does the same from the cache the
installation carries (setup.py compiles the first commands while the package is built): run it
just after ``pip install .`` in a fresh environment.
"""
from __future__ import annotations

import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import medici_sim.games  # noqa: F401  the games register themselves
from medici_sim.cli.compile_ahead import first_commands
from medici_sim.cli.script_options import Parser
from medici_sim.core.contract import FirstCommand
from medici_sim.core.driver import KERNEL_ENV
from medici_sim.core.registry import GAMES, get_game

ROOT = Path(__file__).parents[1]
SETS = ("fewest", "expert", "every heuristic", "search")
def shell_command(command: FirstCommand) -> str:
    """A first command as the shell runs it (what a person types into it piped in)."""
    words = " ".join(shlex.quote(word) for word in ("medici-sim", *command.args))
    return f"printf {shlex.quote(command.typed)} | {words}" if command.typed else words


# the README's table of commands, each game's first commands (Presentation.first_commands, what `medici-sim compile`
# and so the installation compile ahead) and check-plugin on the example plug-in, whose file is not installed
# (a row: its label, the shell command, its exit code); run in the repository
README_COMMANDS = (*((c.label, shell_command(c), c.exit_code) for listed in first_commands().values() for c in listed),
                   ("check-plugin", "medici-sim check-plugin examples/classic_plugin.py --games 300", 0))
README_ROW_LIMIT = 10.0  # CPU seconds of compilation one row may cost (issue 34)
README_TOTAL_LIMIT = 60.0  # ... and the whole table together


def strategy_sets(game) -> dict[str, str]:
    """Each set's strategies, one a seat: ``every heuristic`` holds them all in the table (MEDICI_SIM_KERNEL=all)
    and seats as many as the game seats (Tuscany has more heuristics than seats)."""
    return {"fewest": "random", "expert": "expert", "every heuristic": ",".join(game.built_ins[:game.max_players]),
            "search": game.study.searcher}


def cpu_seconds(game: str, strategies: str, warm: bool = False, every: bool = False) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of a cold first run of ``strategies`` (one per seat); ``warm``:
    from the cache and kernels as they are (nothing compiled: the script checked, not measured);
    ``every``: the table holds every heuristic (MEDICI_SIM_KERNEL=all), whatever sits at the seats."""
    players = max(len(strategies.split(",")), get_game(game).min_players)
    env = {k: v for k, v in os.environ.items() if warm or k != KERNEL_ENV}
    if every:
        env[KERNEL_ENV] = "all"
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


def shell_cpu_seconds(command: str, env: dict, code: int = 0) -> float:
    """CPU seconds (user + sys) of ``command`` run by the shell in the repository, its output dropped;
    it must exit with ``code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, shell=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != code:
        sys.exit(f"bench_compile.py: {command!r} failed: {done.stderr.strip()[-400:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def readme_table(cold: bool, only: list[str] | None = None) -> None:
    """The README's commands in turn from one empty cache (``cold``; else the cache as it is): each row's
    first run less its second (``only``: those rows alone, still in the README's order)."""
    env = {k: v for k, v in os.environ.items() if k != "MEDICI_SIM_KERNEL"}
    env["PATH"] = os.pathsep.join((str(Path(sys.executable).parent), env.get("PATH", "")))  # this medici-sim
    total = 0.0
    print(f"{'command':18} {'first CPU s':>11} {'again CPU s':>11} {'compiled':>9}")
    with tempfile.TemporaryDirectory(prefix="medici-sim-cold-") as cache:
        if cold:
            env["NUMBA_CACHE_DIR"] = cache
        for label, command, code in README_COMMANDS:
            if only and label not in only:
                continue
            first = shell_cpu_seconds(command, env, code)
            again = shell_cpu_seconds(command, env, code)
            total += first - again
            flag = "  over" if first - again > README_ROW_LIMIT else ""
            print(f"{label:18} {first:>11.1f} {again:>11.1f} {first - again:>9.1f}{flag}", flush=True)
    print(f"{'together':18} {'':>11} {'':>11} {total:>9.1f}{'  over' if total > README_TOTAL_LIMIT else ''}")
    print(f"(limits: {README_ROW_LIMIT:g} CPU s a command, {README_TOTAL_LIMIT:g} together)")


def main() -> None:
    parser = Parser(__doc__)
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="the game(s) to measure [all]")
    parser.add_argument("--set", dest="sets", choices=SETS, action="append",
                        help="the sets of strategies to time [all; compile_seconds needs all]")
    parser.add_argument("--warm", action="store_true", help="use the kernels already cached: checks the script, "
                                                            "measures no compilation")
    parser.add_argument("--readme", action="store_true", help="the README's table of commands in turn, one shared "
                                                               "cache: what each compiles on its first run")
    parser.add_argument("--installed", action="store_true", help="with --readme: from the cache the installation "
                        "carries (run it just after `pip install .` in a fresh environment: what a new user meets)")
    parser.add_argument("--row", action="append", choices=[row[0] for row in README_COMMANDS],
                        help="with --readme: only this row (repeat it for more) [every row]")
    args = parser.parse_args()
    if args.readme:
        readme_table(not (args.warm or args.installed), args.row)
        return
    found = {}
    print(f"{'game':8} {'strategies':48} {'CPU s':>7} {'wall s':>7}")
    for name in args.game or sorted(GAMES):
        sets = strategy_sets(get_game(name))
        seconds = {}
        for label in args.sets or SETS:
            seconds[label], wall = cpu_seconds(name, sets[label], args.warm, every=label == "every heuristic")
            print(f"{name:8} {sets[label]:48} {seconds[label]:>7.1f} {wall:>7.1f}", flush=True)
        if len(seconds) < len(SETS) or args.warm:
            continue
        low, high = sorted((seconds["fewest"], seconds["expert"], seconds["every heuristic"]))[::2]
        found[name] = ((round(low), round(high)), round(seconds["search"]))
    if found:
        print("\ncompile_seconds per game: " + "; ".join(f"{name}: {value!r}" for name, value in found.items()))


if __name__ == "__main__":
    main()
