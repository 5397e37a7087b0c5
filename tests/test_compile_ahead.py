"""Compiled ahead: ``medici-sim compile`` (cli.compile_ahead) and the package's build (setup.py) cache the
machine code of the commands a new user runs first, so that their first run compiles nothing."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run

from medici_sim.cli import compile_ahead
from medici_sim.core.contract import FirstCommand
from medici_sim.core.registry import GAMES

ROOT = Path(__file__).parents[1]


def test_every_game_names_its_first_commands_and_each_runs_ahead_on_a_few_games():
    assert set(compile_ahead.first_commands()) == set(GAMES)
    command = FirstCommand("x", ("balance", "--games", "20000", "--players", "4", "-n", "7"))
    assert compile_ahead.ahead(command) == ["balance", "--games", "16", "--players", "4", "-n", "16"]
    labels = [c.label for listed in compile_ahead.first_commands().values() for c in listed]
    assert len(labels) == len(set(labels)) and not any("," in label for label in labels)  # the build's list


def test_a_choice_of_no_command_is_refused(capsys):
    code, out, err = run(capsys, "compile", "--game", "classic", "--only", "run")
    assert code == 2 and err == "medici-sim: error: --only run and --game classic choose no command (run is card's)\n"


@pytest.mark.slow  # a whole `medici-sim compile` (6 s)
def test_compile_runs_with_its_standard_output_closed():
    """Its output is a report of the work done, not results: with stdout closed (>&-) it compiles all the same, where
    a command with results refuses (tests/test_hostile_cli.py)."""
    done = subprocess.run(["bash", "-c", f"{sys.executable} -m medici_sim compile --only trace >&-"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stderr.startswith("compiled trace ("), done.stderr


def test_a_build_that_compiles_nothing_ahead_carries_no_earlier_builds_cache(tmp_path):
    """MEDICI_SIM_COMPILE_AHEAD=0 (a wheel for other machines): an earlier build's cache files are removed all the
    same, and nothing is compiled."""
    built = tmp_path / "build"
    _earlier_build_cache(built)
    done = _build_py(built, {**os.environ, "MEDICI_SIM_COMPILE_AHEAD": " off "})
    assert done.returncode == 0 and "compiling" not in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]
    assert (built / "medici_sim" / "cli" / "compile_ahead.py").exists() and not list(built.rglob("*.nb[ic]"))


def _earlier_build_cache(built: Path) -> Path:
    """A cache file an earlier build left in the build directory."""
    stale = built / "medici_sim" / "core" / "__pycache__" / "earlier_build.py311.nbi"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"an earlier build's cache")
    return stale


def _build_py(built: Path, env: dict) -> subprocess.CompletedProcess:
    """setup.py's build_py into ``built``, as pip's build runs it."""
    return subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(built)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=900)


def test_a_numba_cache_dir_that_cannot_be_written_is_ignored_with_a_warning(tmp_path):
    """NUMBA_CACHE_DIR naming a file: numba would have cached elsewhere silently (or, nowhere writable, stopped
    with a traceback); the run says so in one line and plays."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = subprocess.run([sys.executable, "-m", "medici_sim", "-n", "100", "-q", "-p", "3"],
                          env={**os.environ, "NUMBA_CACHE_DIR": str(blocker)}, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0 and "  games              100\n" in done.stdout, done.stderr
    assert done.stderr == f"medici-sim: warning: NUMBA_CACHE_DIR={blocker} cannot be written; it is ignored\n"


def test_a_first_command_that_fails_is_one_line_and_exit_code_2(capsys, monkeypatch):
    monkeypatch.setattr(compile_ahead, "first_commands",
                        lambda: {"card": (FirstCommand("bad", ("--players", "99")),),
                                 "classic": (FirstCommand("worse", ("--players", "1", "--game", "classic")),)})
    code, out, err = run(capsys, "compile", "--quiet")
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("medici-sim: error: medici-sim --") and "failed: medici-sim: error:" in err
    assert err.rstrip().endswith("(and 1 more)"), err


def test_ctrl_c_ends_the_commands_under_way_and_starts_no_other(tmp_path):
    """Ctrl-C while the first commands compile (from an empty cache: each takes seconds): exit code 130 and
    one line, at once, and no command left running."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "medici_sim", "compile"], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (children := _children(process.pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert children, "no command started"
    time.sleep(1)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and err.strip().splitlines()[-1] == "medici-sim: interrupted", err
    assert "Traceback" not in err and not out
    time.sleep(0.5)
    assert not [pid for pid in children if Path(f"/proc/{pid}").exists() and "medici_sim" in _command_line(pid)]


def _children(pid: int) -> list[int]:
    """The process's children, whichever of its threads started them (Linux's /proc)."""
    found = []
    for listed in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(child) for child in listed.read_text().split()]
        except OSError:  # a thread that ended meanwhile
            pass
    return found


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


@pytest.mark.slow
def test_the_build_caches_a_first_commands_kernels_where_the_installed_package_finds_them(tmp_path):
    """setup.py's build_py compiles trace's kernels beside the built sources (an earlier build's cache files
    removed); copied elsewhere with new file times (as pip installs the wheel), the package runs trace loading
    every kernel and compiling none."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "MEDICI_SIM_KERNEL")}
    built, installed = tmp_path / "build", tmp_path / "site-packages"
    stale = _earlier_build_cache(built)
    done = _build_py(built, {**env, "MEDICI_SIM_COMPILE_AHEAD": "trace"})
    assert done.returncode == 0 and "failed" not in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]
    assert list((built / "medici_sim" / "core" / "__pycache__").glob("*.nbc")) and not stale.exists()
    assert not list(built.rglob("*.pyc"))  # pip compiles the bytecode itself
    shutil.copytree(built, installed, copy_function=shutil.copy)  # new file times
    trace = next(c for c in compile_ahead.first_commands()["card"] if c.label == "trace")
    done = subprocess.run([sys.executable, "-m", "medici_sim", *trace.args], cwd=tmp_path,
                          env={**env, "PYTHONPATH": str(installed), "NUMBA_DEBUG_CACHE": "1"},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "[cache] data loaded" in done.stdout and "[cache] data saved" not in done.stdout
