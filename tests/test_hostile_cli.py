"""A careless or hostile user, through the real command line: nothing lost, nothing silently wrong.

Each class of attack is refused before the first game with one line and exit code 2 (or,
for interrupts and closed pipes, ends cleanly): paths that are not regular files, outputs
that would overwrite an input or each other, file modes, full disks, closed pipes, options
in the wrong place, requests that cannot finish, missing optional libraries, broken,
illegal or unused plug-ins, and a read-only installation.
"""
from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import run

from medici_sim.core import tournament as tournament_module


def assert_refused(code, out, err, *fragments):
    assert code == 2, (code, out, err)
    assert err.count("\n") == 1 and err.startswith("medici-sim: error: "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, (fragment, err)


@pytest.fixture
def never_played(monkeypatch):
    """Fail the test if any game is played (refusals must come before the first game)."""
    from medici_sim.core import driver

    def refuse(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(driver.Kernel, "play", refuse)


# ---------------------------------------------------------------- never destroy a user's data

@pytest.mark.parametrize("option", ["--out", "--checkpoint"])
def test_outputs_that_are_not_regular_files_are_refused(capsys, tmp_path, never_played, option):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    directory = tmp_path / "dir.json"
    directory.mkdir()
    targets = [(fifo, "not a regular file"), (directory, "is a directory")]
    device = tmp_path / "null.json"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null under a .json name
        targets.append((device, "not a regular file"))
    except PermissionError:
        pass
    for target, message in targets:
        assert_refused(*run(capsys, "-n", "100", option, str(target)), message)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and directory.is_dir()


def test_plot_that_is_a_directory_is_refused(capsys, tmp_path, never_played):
    directory = tmp_path / "figure.png"
    directory.mkdir()
    assert_refused(*run(capsys, "compare", "-n", "100", "-p", "2", "-s", "random,greedy", "--plot",
                        str(directory)), "is a directory")


def test_an_output_never_replaces_an_input(capsys, tmp_path, never_played):
    deck = tmp_path / "deck.csv"
    shutil.copy(Path(__file__).parents[1] / "src/medici_sim/games/card/data/default_deck.csv", deck)
    plugin = tmp_path / "plug.py"
    shutil.copy(Path(__file__).parents[1] / "examples/green_lover.py", plugin)
    before = deck.read_bytes(), plugin.read_bytes()
    assert_refused(*run(capsys, "-n", "100", "--deck", str(deck), "--checkpoint", str(deck)), "--deck file")
    assert_refused(*run(capsys, "-n", "100", "--plugin", str(plugin), "--checkpoint", str(plugin)), "--plugin file")
    link = tmp_path / "link.csv"
    link.symlink_to(deck)
    assert_refused(*run(capsys, "-n", "100", "--deck", str(deck), "--out", str(link)), "--deck file")
    assert (deck.read_bytes(), plugin.read_bytes()) == before


@pytest.mark.parametrize("args,message", [
    (["--out", "{d}/x.json", "--checkpoint", "{d}/x.json"], "also written as --out"),
    (["--out", "{d}/x.csv", "--checkpoint", "{d}/x-summary.csv"], "also written as --out"),
    (["--out", "{d}/x.csv", "--checkpoint", "{d}/x-strategies.csv"], "also written as --out"),
])
def test_two_outputs_of_one_run_never_share_a_file(capsys, tmp_path, never_played, args, message):
    args = [a.format(d=tmp_path) for a in args]
    assert_refused(*run(capsys, "-n", "100", *args), message)
    assert list(tmp_path.iterdir()) == []


def test_compare_plot_and_out_cannot_collide(capsys, tmp_path, never_played):
    path = str(tmp_path / "r.json")
    assert_refused(*run(capsys, "compare", "-n", "100", "-p", "2", "-s", "random,greedy", "--out", path,
                        "--checkpoint", path), "also written as --out")


def test_new_files_follow_the_umask_and_existing_files_keep_their_mode(capsys, tmp_path):
    old = os.umask(0o027)
    try:
        assert run(capsys, "-n", "2000", "-q", "--out", str(tmp_path / "new.csv"),
                   "--checkpoint", str(tmp_path / "c.ckpt"))[0] == 0
    finally:
        os.umask(old)
    for name in ("new.csv", "new-strategies.csv", "new-summary.csv", "c.ckpt"):
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o640, name
    kept = tmp_path / "kept.json"
    kept.write_text("{}")
    kept.chmod(0o604)
    assert run(capsys, "-n", "2000", "-q", "--out", str(kept))[0] == 0
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o604
    assert json.loads(kept.read_text())["summary"]["games"] == 2000


def test_a_full_disk_leaves_no_half_set_of_files(capsys, tmp_path, monkeypatch):
    calls = []
    real = pd.DataFrame.to_csv

    def to_csv(self, path, *args, **kwargs):
        calls.append(path)
        if len(calls) == 2:  # the second file of the set: the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(pd.DataFrame, "to_csv", to_csv)
    code, out, err = run(capsys, "-n", "2000", "-q", "--out", str(tmp_path / "r.csv"))
    assert_refused(code, out, err, "--out", "r-strategies.csv", "No space left on device")
    assert list(tmp_path.iterdir()) == []  # neither the first table nor any temporary file


def test_a_closed_pipe_still_writes_the_files(tmp_path):
    out = tmp_path / "r.json"
    command = f"{sys.executable} -m medici_sim -n 3000 -q --out {out} | head -1"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr and "Broken pipe" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr  # 1: click's exit code for a reader that went away
    assert json.loads(out.read_text())["summary"]["games"] == 3000


def test_huge_and_unreadable_inputs_are_refused_without_reading_them(capsys, tmp_path, never_played):
    huge = tmp_path / "huge.csv"
    with open(huge, "wb") as handle:
        handle.truncate(1 << 31)  # sparse: 2 GiB that were never written
    assert_refused(*run(capsys, "-n", "100", "--deck", str(huge)), "larger than")
    fifo = tmp_path / "deck.csv"
    os.mkfifo(fifo)
    assert_refused(*run(capsys, "-n", "100", "--deck", str(fifo)), "not a regular file")
    plugin = tmp_path / "plugin.py"
    os.mkfifo(plugin)
    assert_refused(*run(capsys, "-n", "100", "--plugin", str(plugin)), "not a regular file")


# ---------------------------------------------------------------- options mean what they say

@pytest.mark.parametrize("before,name", [(["--seed", "5"], "--seed"), (["-n", "500"], "--games"),
                                         (["--game", "classic"], "--game"), (["--players", "3"], "--players"),
                                         (["--out", "x.json"], "--out"),
                                         (["--plugin", "examples/green_lover.py"], "--plugin")])
@pytest.mark.parametrize("command", ["compare", "balance", "strategies"])
def test_an_option_before_a_subcommand_is_refused(capsys, never_played, before, name, command):
    assert_refused(*run(capsys, *before, command), f"medici-sim {command} {name}")


def test_compare_needs_two_different_strategies(capsys, never_played):
    assert_refused(*run(capsys, "compare", "-n", "100", "-s", "random"), "at least two different strategies")
    assert_refused(*run(capsys, "compare", "-n", "100", "-s", "greedy,greedy,greedy"),
                   "at least two different strategies")


def test_strategies_that_differ_in_a_parameter_keep_their_own_rows(capsys, tmp_path):
    out = tmp_path / "r.json"
    code, _, err = run(capsys, "compare", "-n", "600", "-p", "2", "-q", "--out", str(out),
                       "-s", "greedy:take_min=3.1,greedy:take_min=3.1000000000000005")
    assert code == 0, err
    rows = json.loads(out.read_text())["strategies"]
    assert sorted(r["strategy"] for r in rows) == ["greedy:take_min=3.1", "greedy:take_min=3.1000000000000005"]


def test_precision_that_cannot_be_reached_is_refused_up_front(capsys, never_played):
    assert_refused(*run(capsys, "compare", "-n", "100", "-p", "3", "-s", "random,greedy", "--precision", "1e-6"),
                   "--precision 1e-06", "ceiling")


@pytest.mark.parametrize("precision", ["1e-155", "1e-160", "1e-300", "5e-324"])
@pytest.mark.parametrize("command", ["compare", "balance"])
def test_a_precision_too_fine_for_any_float_is_refused_too(capsys, never_played, command, precision):
    """The games a half-width needs grow as its inverse square: beyond about 1e-155 they overflow
    a float. The ceiling holds whatever the precision."""
    assert_refused(*run(capsys, command, "-n", "100", "-p", "3", "-s", "random,greedy", "--precision", precision),
                   f"--precision {float(precision)}", "ceiling")


def test_lineups_that_overflow_their_block_of_game_indices_are_refused(capsys, never_played, monkeypatch):
    monkeypatch.setattr(tournament_module, "LINEUP_BLOCK", 1 << 20)
    import medici_sim.study.studies as studies

    monkeypatch.setattr(studies, "LINEUP_BLOCK", 1 << 20)
    assert_refused(*run(capsys, "compare", "-n", str(3 << 20), "-p", "2", "-s", "random,greedy"),
                   "block of")


def test_more_lineups_than_a_configuration_holds_are_refused(capsys, never_played):
    many = ",".join(f"greedy:take_min={v}" for v in range(15))  # C(15, 6) = 5005 lineups > 4096
    assert_refused(*run(capsys, "compare", "-n", "100", "-p", "6", "-s", many), "5,005 lineups")


def test_missing_optional_libraries_are_named_before_any_game(capsys, tmp_path, never_played, monkeypatch):
    monkeypatch.setitem(sys.modules, "statsmodels.api", None)
    assert_refused(*run(capsys, "compare", "-n", "100", "-p", "2", "-s", "random,greedy"), "statsmodels")
    monkeypatch.delitem(sys.modules, "statsmodels.api")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert_refused(*run(capsys, "balance", "-n", "100", "-p", "2", "-s", "random,greedy",
                        "--plot", str(tmp_path / "f.png")), "matplotlib")


def test_balance_on_a_game_without_variants_says_so(capsys, never_played):
    assert_refused(*run(capsys, "balance", "--game", "classic", "-n", "100"), "no variants")


# ---------------------------------------------------------------- plug-ins

BROKEN_IMPORT = "import numpy\nraise RuntimeError('boom at import')\n"

NOT_COMPILING = textwrap.dedent('''
    from numba import njit
    from medici_sim.games.card.strategies import Strategy, register

    @njit(cache=True)
    def reveal_nb(state, seat, params):
        return state.no_such_field[seat] > 0

    @njit(cache=True)
    def take_nb(state, seat, params):
        return 0

    register(Strategy(name="typo", decisions={"reveal_nb": reveal_nb, "take_nb": take_nb}))
''')

ILLEGAL = textwrap.dedent('''
    from numba import njit
    from medici_sim.games.card.strategies import Strategy, register

    @njit(cache=True)
    def reveal_nb(state, seat, params):
        return True

    @njit(cache=True)
    def take_nb(state, seat, params):
        return 3  # the 2nd- and 3rd-from-last, even when there are none (R10)

    register(Strategy(name="grabber", decisions={"reveal_nb": reveal_nb, "take_nb": take_nb}))
''')


def write_plugin(tmp_path, name, text) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_plugin_that_fails_to_import_is_one_line_and_debug_shows_the_trace(capsys, tmp_path):
    path = write_plugin(tmp_path, "broken.py", BROKEN_IMPORT)
    assert_refused(*run(capsys, "-n", "100", "--plugin", path), "broken.py", "boom at import")
    code, _, err = run(capsys, "-n", "100", "--plugin", path, "--debug")
    assert code == 2 and "Traceback" in err and "boom at import" in err


def test_a_plugin_that_does_not_compile_names_the_strategy_and_file(capsys, tmp_path):
    path = write_plugin(tmp_path, "typo.py", NOT_COMPILING)
    assert_refused(*run(capsys, "-n", "100", "--plugin", path, "-s", "typo,random,random,random"),
                   "strategy typo", "does not compile")


def test_a_loaded_but_unused_plugin_never_breaks_a_run(capsys, tmp_path):
    path = write_plugin(tmp_path, "typo2.py", NOT_COMPILING.replace('"typo"', '"typo_unused"'))
    code, out, err = run(capsys, "-n", "2000", "-q", "--plugin", path, "-s", "random")
    assert code == 0, err


def test_an_illegal_decision_names_the_strategy_and_the_seat(capsys, tmp_path):
    path = write_plugin(tmp_path, "grabber.py", ILLEGAL)
    assert_refused(*run(capsys, "-n", "100", "-p", "2", "--plugin", path, "-s", "random,grabber"),
                   "strategy grabber at seat 2", "(R10)")


# ---------------------------------------------------------------- interrupts

def medici(*args, env=None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "medici_sim", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def test_ctrl_c_while_compiling_reports_nothing_played(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cold-cache")}  # nothing cached: it compiles
    proc = medici("-n", "1000", "-q", "--out", str(tmp_path / "r.json"), env=env)
    deadline = time.monotonic() + 120
    while not any((tmp_path / "cold-cache").rglob("*.nbi")):  # compiling: its first functions are cached
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "before any game finished" in err and "Traceback" not in err
    assert out == "" and not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("argv,orig_argv,starting", [
    (["/usr/bin/medici-sim", "-n", "5"], ["python", "/usr/bin/medici-sim", "-n", "5"], True),
    (["-m", "-n", "5"], ["python", "-X", "dev", "-m", "medici_sim", "-n", "5"], True),
    (["-m"], ["python", "-m", "pytest"], False),  # another module that happens to import medici_sim
    # a worker of a local Dask cluster: multiprocessing hands it the command's argv, not its command line
    (["/usr/bin/medici-sim", "--cluster", "local:2"],
     ["python", "-c", "from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=5, pipe_handle=7)",
      "--multiprocessing-fork"], False),
    (["script.py"], ["python", "script.py"], False),
])
def test_ctrl_c_while_the_command_starts_up_is_caught_only_for_the_command(monkeypatch, argv, orig_argv, starting):
    """The quiet start-up exit (numba imports for a second or two) is installed when the
    process is medici-sim, by its script or by python -m, and never in someone else's."""
    import medici_sim

    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.setattr(sys, "orig_argv", orig_argv)
    assert medici_sim._starting_the_command() is starting


def test_ctrl_c_after_the_command_finished_changes_nothing(tmp_path):
    """A Ctrl-C that arrives as the command exits (its output all written) neither kills the
    interpreter mid-exit with the signal nor prints a traceback: the exit code stays the command's."""
    script = ("import os, signal, sys, time\n"
              "from medici_sim.cli import main\n"
              "sys.argv = ['medici-sim', 'strategies']\n"
              "try:\n"
              "    main()\n"
              "finally:\n"
              "    os.kill(os.getpid(), signal.SIGINT)\n"
              "    time.sleep(0.2)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "expert" in done.stdout and done.stderr == ""


SPINNER = textwrap.dedent('''
    from numba import njit
    from medici_sim.games.card.state import TURN_ID
    from medici_sim.games.card.strategies import Strategy, register

    @njit(cache=True)
    def reveal_nb(state, seat, params):
        # deep in a batch (never in the one-game warm-up), think forever
        while state.counts[TURN_ID] > 2_000_000 and state.rng[0] != 0:
            pass
        return False

    @njit(cache=True)
    def take_nb(state, seat, params):
        return 0

    register(Strategy(name="spinner", decisions={"reveal_nb": reveal_nb, "take_nb": take_nb}))
''')


@pytest.mark.slow
def test_second_ctrl_c_ends_a_run_stuck_in_a_strategy(tmp_path):
    """The first Ctrl-C waits for the batch, which never ends; only the second one can end the run."""
    plugin = write_plugin(tmp_path, "spinner.py", SPINNER)
    checkpoint = tmp_path / "c.ckpt"
    proc = medici("-n", "100000000", "-q", "-t", "1", "-p", "2", "--plugin", plugin, "-s", "spinner,random",
                  "--checkpoint", str(checkpoint))
    deadline = time.monotonic() + 240
    while not checkpoint.exists():  # the first batch is done; the next one soon spins
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)
    time.sleep(2.0)
    proc.send_signal(signal.SIGINT)
    time.sleep(3.0)
    assert proc.poll() is None  # the first Ctrl-C cannot end a batch that never ends...
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=10)  # ...the second ends the process at once
    assert proc.returncode == 130


SPINS_AT_ONCE = textwrap.dedent('''
    from numba import njit, objmode
    from medici_sim.games.card.strategies import Strategy, register

    def started():
        open(__file__ + ".spinning", "w").close()

    @njit
    def reveal_nb(state, seat, params):
        with objmode():
            started()
        while state.rng[0] != 0:  # think forever
            pass
        return False

    @njit
    def take_nb(state, seat, params):
        return 0

    register(Strategy(name="spinner", decisions={"reveal_nb": reveal_nb, "take_nb": take_nb}))
''')


def wait_until_spinning(plugin: str, proc: subprocess.Popen, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while not Path(plugin + ".spinning").exists():  # compiled and playing: its strategy is inside its decision
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)
    time.sleep(0.5)


@pytest.mark.slow
def test_ctrl_c_ends_a_trace_stuck_in_a_strategy(tmp_path):
    """trace plays its game on the main thread: a decision that never returns leaves no Python
    handler a chance to run; the signal is still answered (cli.signals), at once."""
    plugin = write_plugin(tmp_path, "spinner.py", SPINS_AT_ONCE)
    proc = medici("trace", "-p", "2", "--plugin", plugin, "-s", "spinner,random")
    try:
        wait_until_spinning(plugin, proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()  # if it is still there: the test failed; a spinning process must not outlive it
    assert proc.returncode == 130, err
    assert err.strip().startswith("medici-sim: interrupted") and "Traceback" not in err and out == ""


def test_a_stop_signal_is_answered_whatever_stderr_is(tmp_path):
    """A stop request with stderr closed (its reader gone) still stops the run and keeps its
    result: the notice that cannot be written does not break the run where it stands."""
    saved, out_file = tmp_path / "c.ckpt", tmp_path / "r.json"
    proc = subprocess.Popen([sys.executable, "-m", "medici_sim", "-n", "100000000", "-q", "-p", "2",
                             "--checkpoint", str(saved), "--out", str(out_file)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stderr.close()
    deadline = time.monotonic() + 120
    while not saved.exists():
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out = proc.stdout.read()
    assert proc.wait(timeout=60) == 143
    summary = json.loads(out_file.read_text())["summary"]
    assert summary["partial"] is True and f"PARTIAL RESULTS: interrupted after {summary['games']}" in out


@pytest.mark.parametrize("args", [["--version"], ["-n", "10", "-q"], ["strategies"]])
def test_numba_disable_jit_is_refused_in_one_line(args):
    """numba's debugging switch cannot work here (strategy dispatch is code numba generates as it
    compiles): every command, --version included, says so in one line instead of a traceback."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-m", "medici_sim", *args], capture_output=True, text=True, env=env,
                          timeout=120)
    assert_refused(done.returncode, done.stdout, done.stderr, "NUMBA_DISABLE_JIT is set", "unset it")
    assert done.stdout == ""
    imported = subprocess.run([sys.executable, "-c", "import medici_sim"], capture_output=True, text=True, env=env,
                              timeout=120)
    assert imported.returncode == 1 and "ImportError: NUMBA_DISABLE_JIT is set" in imported.stderr


# ---------------------------------------------------------------- a read-only installation

@pytest.mark.slow
@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare for a read-only bind mount")
def test_a_read_only_installation_with_an_unwritable_home_still_runs(tmp_path):
    import medici_sim

    package, home, scratch = tmp_path / "pkg", tmp_path / "home", tmp_path / "tmp"
    for d in (package, home, scratch):
        d.mkdir()
    shutil.copytree(Path(medici_sim.__file__).parent, package / "medici_sim",
                    ignore=shutil.ignore_patterns("__pycache__"))
    script = (f"mount --bind {package} {package} && mount -o remount,ro,bind {package} && "
              f"mount --bind {home} {home} && mount -o remount,ro,bind {home} && "
              f"exec {sys.executable} -m medici_sim -n 2000 -q -p 3")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(HOME=str(home), TMPDIR=str(scratch), PYTHONPATH=str(package))
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("unshare -m is not permitted here")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "games              2000" in done.stdout
    warnings = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(warnings) == 1 and "read-only" in warnings[0], done.stderr
    assert not list((package / "medici_sim").rglob("*.nbi"))  # nothing was written into the package
