"""The benchmark scripts run, on a few games, and every script refuses bad options in one line
(they are timed by hand, not here: speed is measured by benchmarks/, never by tests).

Each benchmark plays a few games through what it measures (its checks included: bench_versus_c's
comparison of the C loop's games with the engine's), so none can go stale unseen. They inherit
the suite's MEDICI_SIM_KERNEL=all (tests/conftest.py), so they share its compiled kernels."""
from __future__ import annotations

import re
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_script_here

import medici_sim.games  # noqa: F401  (the games register themselves)
from medici_sim.core.registry import GAMES

ROOT = Path(__file__).parents[1]
BENCHMARKS = ROOT / "benchmarks"
SCRIPTS = ROOT / "scripts"
PACKAGE_ROOT = str(Path(medici_sim.__file__).resolve().parents[1])  # the directory holding the package under test

# each benchmark on a few games: (arguments, the tools it needs). A benchmark's loop over the games
# is one code path for all of them; its process compiles (or loads) each game's kernels itself, so
# a quick run plays the cheapest games it needs (bench_paired: card's balance rule sets and
# classic's, a game without them), not Tuscany's kernels (20 CPU s from a cold cache)
QUICK_RUNS = {
    # from the suite's cache (every game's sets are checked below without compiling)
    "bench_compile.py": (["--warm", "--set", "every heuristic", "--game", "card"], ()),
    "count_instructions.py": (["--game", "classic", "--games", "50"], ("valgrind", "cc")),
    "bench_engine.py": (["--games", "200", "--repeat", "1", "--no-compile", "--game", "card", "--strategy", "random",
                         "--strategy", "expert"], ()),
    "bench_paired.py": (["--games", "200", "--repeat", "1", "--threads", "1,2", "--game", "card", "--game", "classic"],
                        ()),
    "bench_search.py": (["--game", "card", "--players", "2", "--budgets", "2", "--games", "2", "--speed-games", "100",
                         "--threads", "1"], ()),
    "bench_soak.py": (["--games", "200"], ()),
    "bench_tuscany_c.py": (["--games", "300", "--repeat", "1", "--check", "10"], ("cc",)),
    "bench_tuscany.py": (["--games", "200", "--repeat", "1"], ()),
    "bench_versus_c.py": (["--games", "300", "--repeat", "1"], ("cc",)),
    # the package under test (the installed one in CI: its kernels compiled at install) against itself
    "bench_versus_source.py": (["--source", PACKAGE_ROOT, "--source", PACKAGE_ROOT, "--game", "card", "--games", "200",
                                "--rounds", "2", "--pairs", "1"], ()),
    "profile_compile.py": (["--warm", "--top", "2"], ()),
    "profile_kernel.py": (["--strategies", "random", "--seconds", "0.2", "--chunk", "100", "--top", "2",
                           "--annotate", "3"], ("perf", "nm", "objdump")),
}


# a quick run that compiles a kernel no other quick test compiles: the whole suite only. bench_tuscany times a
# table of `random` alone (a Tuscany play loop of its own, 36 CPU s cold); its options and refusals are run
# quickly below, and its loop is the one every Tuscany run of the quick subset plays; count_instructions plays
# under valgrind (about a minute)
SLOW_QUICK_RUNS = {"bench_tuscany.py", "count_instructions.py"}


def run(script: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)



def test_every_benchmark_has_a_quick_run():
    assert sorted(QUICK_RUNS) == sorted(p.name for p in BENCHMARKS.glob("*.py"))


def test_a_benchmarks_cached_kernels_take_the_strategy_table():
    """numba checks a cached function's own file only, and a benchmark's kernel links the engine's and the
    strategies' code: keyed by the strategy table's type (named by a hash of the kernel's sources, core.dispatch),
    an edit of those sources compiles it again. bench_search's first-decision kernels went without and, after an
    edit of core, ran code naming an older table's symbols: a segmentation fault."""
    import ast

    for script in BENCHMARKS.glob("*.py"):
        for node in ast.walk(ast.parse(script.read_text())):
            if isinstance(node, ast.FunctionDef) and any(
                    "cache=True" in ast.unparse(d) and "njit" in ast.unparse(d) for d in node.decorator_list):
                assert "table" in [a.arg for a in node.args.args], f"{script.name}: {node.name}"


@pytest.mark.parametrize("script", [pytest.param(s, marks=pytest.mark.slow) if s in SLOW_QUICK_RUNS else s
                                    for s in sorted(QUICK_RUNS)])
def test_a_benchmark_runs_on_a_few_games(script):
    """Each in a new process of its own, as it is run (where a script starts as ``__main__`` with its imports)."""
    args, tools = QUICK_RUNS[script]
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    done = run(BENCHMARKS / script, *args)
    if script == "profile_kernel.py" and "perf record failed" in done.stderr:
        pytest.skip("perf may not sample processes here (kernel.perf_event_paranoid)")
    if script == "count_instructions.py" and "valgrind's headers" in done.stderr:
        pytest.skip("valgrind's headers (valgrind/callgrind.h) are not installed")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and done.stdout.strip()


def test_the_engine_benchmarks_first_game_runs():
    """bench_engine.py's compile rows (a first game in a new process, from a cold cache and again) are
    skipped by its quick run (--no-compile: a cold compile); the code they run, from the cache as it is.
    Its names had gone stale (the component set's older names) and crashed the whole benchmark."""
    bench = runpy.run_path(str(BENCHMARKS / "bench_engine.py"), run_name="bench")
    assert 0 < bench["first_game_seconds"]("card", None) < 300


@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_a_benchmark_starts_and_offers_every_game(script, capsys, monkeypatch):
    code = run_script_here(BENCHMARKS / script, ["--help"], monkeypatch)
    out, err = capsys.readouterr()
    assert code == 0, err
    offered = re.search(r"--game \{([a-z,]+)\}", out)
    if offered:  # registered games (a script of the Medici games' C loops or search offers those two)
        games = offered.group(1).split(",")
        assert {"card", "classic"} <= set(games) <= set(GAMES) and games == [g for g in GAMES if g in games], games


BAD_OPTIONS = [
    ("benchmarks/bench_engine.py", ["--games", "0"], "--games"),
    ("benchmarks/bench_engine.py", ["--repeat", "0"], "--repeat"),
    ("benchmarks/bench_engine.py", ["--games", "-5", "--quick"], "--games"),
    ("benchmarks/bench_engine.py", ["--game", "card", "--strategy", "builder"], "--strategy"),
    ("benchmarks/bench_paired.py", ["--games", "0"], "--games"),
    ("benchmarks/bench_paired.py", ["--threads", "1,x"], "--threads"),
    ("benchmarks/bench_paired.py", ["--players", "9"], "--players"),
    ("benchmarks/bench_paired.py", ["--strategies", "nope"], "--strategies"),
    ("benchmarks/bench_search.py", ["--budgets", "0"], "--budgets"),
    ("benchmarks/bench_search.py", ["--budgets", "abc"], "--budgets"),
    ("benchmarks/bench_search.py", ["--players", "9"], "--players"),
    ("benchmarks/bench_search.py", ["--game", "classic", "--players", "2"], "--players"),
    ("benchmarks/bench_search.py", ["--threads", "0"], "--threads"),
    ("benchmarks/bench_versus_c.py", ["--games", "0"], "--games"),
    ("benchmarks/bench_versus_c.py", ["--players", "99"], "--players"),
    ("benchmarks/bench_versus_c.py", ["--seed", "-1"], "--seed"),
    ("benchmarks/bench_soak.py", ["--games", "0"], "--games"),
    ("benchmarks/count_instructions.py", ["--source", "no/such/dir"], "--source"),
    ("benchmarks/bench_versus_source.py", ["--source", "src"], "--source"),
    ("benchmarks/bench_versus_source.py", ["--source", "src", "--source", "no/such/dir"], "--source"),
    ("benchmarks/bench_versus_source.py", ["--source", "src", "--source", "src", "--rounds", "1"], "--rounds"),
    ("benchmarks/bench_tuscany_c.py", ["--players", "5"], "--players"),
    ("benchmarks/bench_tuscany_c.py", ["--check", "-1"], "--check"),
    ("benchmarks/bench_tuscany_c.py", ["--components", "no-such-set"], "--components"),
    ("benchmarks/bench_tuscany_c.py", ["--rules", "draw=99"], "--rules"),
    ("benchmarks/bench_tuscany_c.py", ["--rules", "stack_size=8"], "--rules"),
    ("benchmarks/bench_soak.py", ["--players", "1"], "--players"),
    ("benchmarks/bench_compile.py", ["--set", "most"], "--set"),
    ("benchmarks/bench_tuscany.py", ["--players", "5"], "--players"),
    ("benchmarks/bench_tuscany.py", ["--rules", "draw=99"], "--rules"),
    ("benchmarks/bench_tuscany.py", ["--components", "no-such-set"], "--components"),
    ("benchmarks/profile_kernel.py", ["--game", "chess"], "--game"),
    ("benchmarks/profile_kernel.py", ["--seconds", "0"], "--seconds"),
    ("benchmarks/profile_kernel.py", ["--strategies", "nope"], "--strategies"),
    ("scripts/train_strong.py", ["--game", "card", "--out", "missing_dir/"], "--out"),
    ("scripts/train_strong.py", ["--game", "card", "--out", "no/such/dir/w.json"], "--out"),
    ("scripts/train_strong.py", ["--game", "card", "--out", "tests"], "--out"),
    ("scripts/train_strong_value.py", ["--games", "0"], "--games"),
    ("scripts/train_strong_value.py", ["--out", "no/such/dir/v.json"], "--out"),
    ("scripts/strength_table.py", ["card", "--scale", "0"], "--scale"),
    ("scripts/strength_table.py", ["card", "--games", "1"], "--games"),
    ("scripts/strength_table.py", ["card", "--first", "-1"], "--first"),
    ("scripts/strength_table.py", ["card", "--players", "9"], "--players"),
    ("scripts/strength_table.py", ["card", "--pair", "strong", "nope"], "--pair"),
    ("scripts/ship_tuned.py", ["no-such-file.json", "out.json"], "tune_out"),
    ("scripts/ship_tuned.py", ["/dev/zero", "out.json"], "tune_out: /dev/zero: not a regular file"),  # "no such file"
    ("scripts/ship_tuned.py", ["tests", "out.json"], "tune_out: tests: not a regular file"),
    ("scripts/tuning_gains.py", ["chess"], "game"),
    ("scripts/metrics_tables.py", ["everything"], "what"),
    ("scripts/frameworks_train.py", ["--minutes", "0"], "--minutes"),
    ("scripts/frameworks_train.py", ["--evaluate", "1"], "--evaluate"),
    ("scripts/frameworks_table.py", ["--games", "0"], "--games"),
    ("scripts/tuscany_what_wins.py", ["--players", "5"], "--players"),
    ("scripts/tuscany_what_wins.py", ["--strategy", "nope"], "--strategy"),
    ("scripts/tuscany_what_wins.py", ["--components", "no-such-set"], "--components"),
    ("scripts/tuscany_what_wins.py", ["--rules", "draw=99"], "--rules"),
    ("scripts/tuscany_versus.py", ["--games", "1"], "--games"),
]


@pytest.mark.parametrize(("script", "args", "option"), BAD_OPTIONS, ids=lambda v: " ".join(v) if isinstance(v, list)
                         else str(v))
def test_a_script_refuses_a_bad_option_in_one_line_naming_it(script, args, option, capsys, monkeypatch):
    """Run in this process, as ``python SCRIPT ARGS`` would run it (its own ``__main__``): a new
    process for each of these refusals cost more than a CPU second of imports, and each benchmark is
    started in a new process above (its quick run)."""
    if "frameworks" in script:
        pytest.importorskip("pyspiel" if "table" in script else "gymnasium")
    code = run_script_here(ROOT / script, args, monkeypatch)
    out, err = capsys.readouterr()
    assert code == 2, err
    assert out == "" and len(err.splitlines()) == 1, err
    assert err.startswith(f"{Path(script).name}: error: ") and option in err, err
    assert not (ROOT / "missing_dir").exists()


def test_every_script_parses_its_options_with_the_shared_parser():
    """One parser for every script (medici_sim.cli.script_options): its errors are one line."""
    for path in [*BENCHMARKS.glob("*.py"), *SCRIPTS.glob("*.py")]:
        text = path.read_text()
        assert "ArgumentParser(" not in text and "Parser(" in text, path.name



def test_the_compile_benchmarks_readme_commands_are_the_commands_of_today(capsys):
    """bench_compile.py --readme times the README's table of commands from a cold cache (too long
    for the suite): its rows must be the README's commands, and each must still parse (its
    options; --help stops before any work)."""
    import shlex

    from conftest import run as run_cli

    readme = (ROOT / "README.md").read_text()
    commands = runpy.run_path(str(BENCHMARKS / "bench_compile.py"), run_name="bench")["README_COMMANDS"]
    for label, command, _code in commands:
        words = shlex.split(command.split("| ")[-1])
        assert words[0] == "medici-sim", command
        assert label in ("run", "run (classic)") or f"`medici-sim {words[1]}" in readme or label in readme, label
        code, out, err = run_cli(capsys, *words[1:], "--help")
        assert code == 0 and out.startswith("Usage: medici-sim"), (command, err)


def test_the_compile_benchmarks_sets_are_lineups_every_game_plays():
    """bench_compile.py's sets of strategies, for every game, parse as a lineup of the game (its quick run
    times one game; Tuscany's every-heuristic set once stopped with a traceback: six heuristics, four seats)."""
    from medici_sim.core.registry import GAMES
    from medici_sim.core.specs import parse_strategies

    strategy_sets = runpy.run_path(str(BENCHMARKS / "bench_compile.py"), run_name="bench")["strategy_sets"]
    for name, game in GAMES.items():
        for label, spec in strategy_sets(game).items():
            names = spec.split(",")
            players = max(len(names), game.min_players)
            assert len(parse_strategies(names, players, name)) == players, (name, label)
