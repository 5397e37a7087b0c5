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
from conftest import finished_within, run, spinner_plugin, wait_until_spinning, without_compile_notice

from medici_sim.cli import main
from medici_sim.study import tournament as tournament_module


def assert_refused(code, out, err, *fragments):
    """Refused in one line (after the compile notice, where a plug-in's kernel compiled first)."""
    assert code == 2, (code, out, err)
    err = without_compile_notice(err)
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

    monkeypatch.setattr(driver.PreparedRun, "play", refuse)


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


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory) -> bytes:
    """The bytes of a checkpoint: a saved run of the main command."""
    path = tmp_path_factory.mktemp("saved") / "run.json"
    try:
        main(["-n", "2000", "-q", "--checkpoint", str(path)])
    except SystemExit as exc:
        assert not exc.code
    return path.read_bytes()


@pytest.mark.parametrize("args", [
    ["-n", "100", "--out", "{d}/cp.json"],
    ["-n", "100", "--out", "{d}/r.csv", "--checkpoint", "{d}/new.ckpt"],  # r-summary.csv: beside the table
    ["compare", "-n", "100", "-p", "2", "-s", "random,greedy", "--out", "{d}/cp.json"],
    ["compare", "-n", "100", "-p", "2", "-s", "random,greedy", "--plot", "{d}/cp.png"],
    ["balance", "-n", "100", "-p", "2", "-s", "random,greedy", "--out", "{d}/cp.json"],
    ["tune", "greedy", "-p", "2", "-e", "8", "-m", "100", "--fresh-games", "100", "--out", "{d}/cp.json"],
    ["tune", "greedy", "-p", "2", "-e", "8", "-m", "100", "--fresh-games", "100", "--plot", "{d}/cp.png"],
])
def test_no_output_ever_replaces_a_saved_run(capsys, tmp_path, saved_run, never_played, args):
    """Only a run's own checkpoints write over a checkpoint: every other output of every command is refused."""
    for name in ("cp.json", "cp.png", "r-summary.csv"):
        (tmp_path / name).write_bytes(saved_run)
    args = [a.format(d=tmp_path) for a in args]
    target = next(a for a in args if Path(a).name in ("cp.json", "cp.png", "r.csv"))
    target = target.replace("r.csv", "r-summary.csv")
    assert_refused(*run(capsys, *args), f"{target} holds a saved medici-sim run (a checkpoint); refusing to "
                                        f"overwrite it: continue that run with --resume {target}")
    for name in ("cp.json", "cp.png", "r-summary.csv"):
        assert (tmp_path / name).read_bytes() == saved_run


def test_an_interrupted_run_survives_an_out_given_its_checkpoint(capsys, tmp_path, saved_run):
    """The issue's story: a run saved to cp.json, then `-n 100 --out cp.json`, then --resume cp.json."""
    path = tmp_path / "cp.json"
    path.write_bytes(saved_run)
    assert_refused(*run(capsys, "-n", "100", "--out", str(path)), "holds a saved medici-sim run")
    code, out, err = run(capsys, "-q", "--resume", str(path))
    assert code == 0, err
    assert "games              2,000" in out


@pytest.mark.parametrize("args, fragment", [
    (["--out", "{d}/" + "a" * 245 + ".json"], "File name too long"),  # the name fits, its temporary file does not
    (["--out", "{d}/" + "b" * 230 + ".csv"], "-strategies.csv: cannot write in"),  # the table beside it
    (["--checkpoint", "{d}/" + "c" * 245 + ".ckpt"], "File name too long"),
    (["--out", "{d}/no/such/dir/r.json"], "No such file or directory"),
    (["--out", "{d}/file.txt/r.json"], "Not a directory"),
    (["--checkpoint", "{d}/.r.json.lock"], "medici-sim names its lock and temporary files so"),
    (["--checkpoint", "{d}/.r.json.x1y2z3.tmp"], "medici-sim names its lock and temporary files so"),
])
def test_an_output_that_cannot_be_created_is_refused_before_any_game(capsys, tmp_path, never_played, args,
                                                                     fragment):
    (tmp_path / "file.txt").write_text("a file, not a directory\n")
    assert_refused(*run(capsys, "-n", "100", *[a.format(d=tmp_path) for a in args]), fragment)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


def test_two_runs_never_write_one_file(capsys, tmp_path, never_played):
    """A run holds every file it writes from before its first game to its end: another run
    that would write one of them (as --out, --checkpoint or --plot) is refused, naming it."""
    from medici_sim.core.output import lock_path

    out, saved = tmp_path / "r.json", tmp_path / "c.ckpt"
    first = medici("-n", "100000000", "-q", "-t", "1", "-p", "2", "--out", str(out), "--checkpoint", str(saved))
    try:
        deadline = time.monotonic() + 120
        while not saved.exists():  # a batch played: it is well into its run
            assert first.poll() is None and time.monotonic() < deadline, first.communicate()
            time.sleep(0.05)
        assert lock_path(out).exists()
        held = f"{out} is being written by another medici-sim run (pid {first.pid})"
        assert_refused(*run(capsys, "-n", "100", "--out", str(out)), f"--out {held}")
        assert_refused(*run(capsys, "-n", "100", "--checkpoint", str(out)), f"--checkpoint {held}")
        assert_refused(*run(capsys, "compare", "-n", "100", "-p", "2", "-s", "random,greedy", "--out", str(out)),
                       f"--out {held}")
    finally:
        first.send_signal(signal.SIGINT)  # it stops after its batch and writes what it has
        _, err = first.communicate(timeout=120)
    assert first.returncode == 130, err
    assert json.loads(out.read_text())["summary"]["partial"] is True
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.ckpt", "r.json"]  # its locks went with it


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


@pytest.mark.parametrize("stderr", ["2>&-", "2<{readme}"])  # closed; a launcher's file, read-only (pyenv's shims)
def test_a_closed_stderr_loses_nothing(tmp_path, stderr):
    """Started with stderr closed, or on a file open for reading (as a pyenv shim leaves it), the
    days-ran-out warning's write failed (EBADF): the summary was lost, exit 1, without a word."""
    out = tmp_path / "r.json"
    closed = stderr.format(readme=Path(__file__).resolve().parent.parent / "README.md")
    command = f"{sys.executable} -m medici_sim -n 50 -p 6 --rules days=5 -q --out {out} {closed}"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "ran_out_days" in done.stdout, done.stdout
    assert json.loads(out.read_text())["summary"]["games"] == 50


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
                                         (["--out", "x.json"], "--out"), (["--seating", "rotate"], "--seating"),
                                         (["--variant", "bonus20"], "--rules"),
                                         (["--plugin", "examples/green_lover.py"], "--plugin")])
@pytest.mark.parametrize("command", ["compare", "balance", "strategies", "tune", "trace", "play", "check-plugin"])
def test_an_option_before_a_subcommand_is_refused(capsys, never_played, before, name, command):
    """The advice to put it after the subcommand is given only where the subcommand has it."""
    from medici_sim.cli.app import cli

    code, out, err = run(capsys, *before, command)
    if any(name in param.opts for param in cli.commands[command].params):
        assert_refused(code, out, err, f"put it after the subcommand: medici-sim {command} {name}")
    else:
        assert_refused(code, out, err, f"{command} has no {name} option")
        assert "put it after" not in err


def _value_parameters():
    """Every option that takes a value, and every argument, of every command."""
    import click

    from medici_sim.cli.app import cli

    for command, params in [([], cli.params), *(([name], c.params) for name, c in sorted(cli.commands.items()))]:
        for param in params:
            if isinstance(param, click.Argument) or not (param.is_flag or param.count):
                yield pytest.param(command, param, id=" ".join([*command, param.opts[0]]))


@pytest.mark.parametrize("command,param", list(_value_parameters()))
@pytest.mark.parametrize("empty", ["", " "])
def test_an_empty_value_is_refused_never_taken_as_left_out(capsys, tmp_path, never_played, command, param, empty):
    """``--scheduler ''`` once ran locally, ``compare --strategies ''`` played the default strategies."""
    import click

    argument = isinstance(param, click.Argument)
    given, name = ([empty], param.human_readable_name) if argument else ([param.opts[0], empty], param.opts[0])
    required = [str(tmp_path / "p.py")] if command == ["check-plugin"] and not argument else []
    assert_refused(*run(capsys, *command, *required, *given), f"'{name}'")


@pytest.mark.parametrize("args,option", [
    (["-n", "0"], "--games"), (["--seed", "-1"], "--seed"), (["--threads", "0"], "--threads"),
    (["--players", "9"], "--players"), (["--variant", "bonus30"], "--rules"), (["--rules", "bonus30"], "--rules"),
    (["compare", "-n", "0"], "--games"), (["compare", "--seed", str(2**63)], "--seed"),
    (["compare", "--threads", "0"], "--threads"), (["compare", "--threads", "5000"], "--threads"),
    (["compare", "-p", "3,9"], "--players"), (["compare", "--precision", "0.7"], "--precision"),
    (["compare", "--variant", "bonus30"], "--rules"),
    # the component option is named as given (--deck, its older name, as its messages always read)
    (["compare", "--deck", "default", "--deck", "default"], "--deck"),
    (["compare", "--components", "default", "--components", "default"], "--components"),
    (["balance", "-n", "0"], "--games"),
    (["tune", "greedy", "-e", "0"], "--evaluations"), (["tune", "greedy", "-m", "0"], "--games-per-eval"),
    (["tune", "greedy", "--fresh-games", "0"], "--fresh-games"), (["tune", "greedy", "--popsize", "1"], "--popsize"),
    (["tune", "greedy", "--seed", "-1"], "--seed"), (["tune", "greedy", "-t", "0"], "--threads"),
    (["tune", "greedy", "-p", "9"], "--players"), (["tune", "greedy", "--against", "nobody,"], "--against"),
    (["trace", "--index", "-1"], "--index"), (["trace", "--players", "9"], "--players"),
    (["trace", "--seed", "-1"], "--seed"), (["check-plugin", "examples/green_lover.py", "-n", "0"], "--games"),
    (["check-plugin", "examples/green_lover.py", "--seed", "-1"], "--seed"),
    (["play", "--opponents", ","], "--opponents"), (["play", "--opponents", "expert,,random"], "--opponents"),
    # they named --games, variant= and players= (issue 30)
    (["design", "--rule", "bonus=0..40", "--target", "strategies", "--fresh-games", "0"], "--fresh-games must be"),
    (["rules", "--rules", "days=0"], "--rules: days=0"),
    (["rules", "--game", "classic", "--players", "2"], "--players"),
])
def test_an_argument_out_of_range_names_its_option(capsys, never_played, args, option):
    """The checks the Python API shares (core.arguments) name the command line's option."""
    code, out, err = run(capsys, *args)
    assert_refused(code, out, err, option)
    assert "=" not in err.split(":")[2], err  # no API argument (games=) leaks into a command's message


def test_the_same_deck_twice_names_the_option_that_gave_it(capsys, never_played):
    assert_refused(*run(capsys, "balance", "--decks", "default,default"), "--decks: default and default are the "
                                                                          "same deck")
    assert_refused(*run(capsys, "compare", "--deck", "default", "--deck", "default"), "--deck: default and default")


def test_an_unknown_kernel_setting_is_refused(capsys, monkeypatch):
    monkeypatch.setenv("MEDICI_SIM_KERNEL", "bogus")
    assert_refused(*run(capsys, "-n", "100"), "MEDICI_SIM_KERNEL must be all (or unset), got 'bogus'")


def test_check_plugin_names_its_file_argument_not_the_plugin_option(capsys, tmp_path):
    missing = tmp_path / "missing.py"
    code, out, err = run(capsys, "check-plugin", str(missing))
    assert_refused(code, out, err, f"check-plugin {missing}: cannot read")
    assert "--plugin" not in err


def test_a_closed_standard_output_is_an_error_not_a_silent_success(tmp_path):
    out = tmp_path / "r.json"
    done = subprocess.run(["bash", "-c", f"{sys.executable} -m medici_sim -n 100 -q --out {out} >&-"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("medici-sim: error: standard output is closed: the results would go nowhere (redirect "
                           "it to a file, or to /dev/null to keep only --out files)\n")
    assert not out.exists()


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


FLAKY = textwrap.dedent('''
    from numba import njit
    from medici_sim.games.card.strategies import Param, Strategy, register

    @njit(cache=True)
    def reveal_nb(state, seat, params):
        if params[0] == 1:
            raise ValueError("always", seat)
        if state.florins[seat] == 95:  # in a few games only (game 0 is not one of them)
            raise ValueError("unlucky florins at seat", seat)
        return state.florins[seat] % 2 == 0

    @njit(cache=True)
    def take_nb(state, seat, params):
        return 0

    register(Strategy(name="flaky", decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
                      params={"always": Param(0, 0, 1, integer=True)}))
''')


@pytest.mark.slow
def test_a_decision_that_raises_is_one_line_naming_the_strategy_the_seat_and_the_game(capsys, tmp_path):
    """The kernel's exception says nothing of where it came from: the driver finds the game
    (game 9 of seed 0; its decision says its seat, 0-based, in what it raises) and the seat."""
    path = write_plugin(tmp_path, "flaky.py", FLAKY)
    lineup = ("-p", "3", "-s", "random,flaky,flaky", "--plugin", path)
    expected = (f"medici-sim: error: strategy flaky ({path}) at seat 2 raised ValueError: "
                "('unlucky florins at seat', 1) in game 9\n")
    code, out, err = run(capsys, "-n", "20000", "-q", *lineup)
    assert (code, out, err) == (2, "", expected)
    assert without_compile_notice(run(capsys, "trace", "--index", "9", *lineup)[2]) == expected  # the very game
    assert run(capsys, "trace", "--index", "8", *lineup)[0] == 0
    code, out, err = run(capsys, "-n", "100", "-q", "-p", "3", "-s", "random,flaky:always=1,random", "--plugin", path)
    assert without_compile_notice(err) == (f"medici-sim: error: strategy flaky ({path}) at seat 2 raised "
                                           "ValueError: ('always', 1) in game 0\n")  # compiled, then raised
    assert_refused(*run(capsys, "compare", "-n", "3000", "-q", "-p", "3", "-s", "random,flaky", "--plugin", path),
                   f"strategy flaky ({path}) at seat ", "raised ValueError: ('unlucky florins at seat', ")


def test_an_error_of_medici_sims_own_code_is_not_blamed_on_a_plugin(monkeypatch):
    """A game that fails again outside every decision is the engine's: shown as it is, not
    as a plug-in's (nothing is compiled here: the games fail before the kernel runs)."""
    from numba import njit

    from medici_sim.core.driver import PreparedRun, RunConfig, plugins_among, seat_strategy
    from medici_sim.games.card.strategies import Strategy, register

    register(Strategy("bystander", {"reveal_nb": njit(lambda state, seat, params: False),
                                    "take_nb": njit(lambda state, seat, params: 0)}))
    kernel = PreparedRun(RunConfig(components=None, players=2, games=10, threads=1,
                              strategies=(seat_strategy("bystander"), seat_strategy("random"))))
    assert plugins_among(kernel.game.registry, kernel.table_names) == ["bystander"]

    def broken(self, first_game, n_games, table):
        raise RuntimeError("an engine bug")

    monkeypatch.setattr(PreparedRun, "_play", broken)
    with pytest.raises(RuntimeError, match="an engine bug"):
        kernel.play(0, 10)


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


# a stand-in for numba's slow import: the command line's import waits there until signalled
SLOW_START = """\
import sys, time
class Slow:
    def find_spec(self, name, path=None, target=None):
        if name == "medici_sim.cli.app":
            print("importing", flush=True)
            time.sleep(30)
sys.meta_path.insert(0, Slow())
sys.argv = ["medici-sim", "-n", "5"]
from medici_sim.cli import main
main()
"""


@pytest.mark.parametrize("signum,code,word", [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")])
def test_a_stop_signal_while_the_command_starts_up_quits_quietly(signum, code, word):
    """The command's entry point answers Ctrl-C and SIGTERM before it imports the command line
    (numba's import takes a second or two): one line and the usual code, no traceback."""
    proc = subprocess.Popen([sys.executable, "-c", SLOW_START], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline() == "importing\n"
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code and err == f"medici-sim: {word}\n" and out == ""


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


@pytest.mark.slow
def test_second_ctrl_c_ends_a_run_stuck_in_a_strategy(tmp_path):
    """The first Ctrl-C waits for the batch, which never ends; only the second one can end the run."""
    checkpoint = tmp_path / "c.ckpt"
    plugin = write_plugin(tmp_path, "spinner.py", spinner_plugin(once_exists=str(checkpoint)))  # in a later batch
    proc = medici("-n", "100000000", "-q", "-t", "1", "-p", "2", "--plugin", plugin, "-s", "spinner,random",
                  "--checkpoint", str(checkpoint))
    deadline = time.monotonic() + 240
    while not checkpoint.exists():  # the first batch is done; the next one soon spins
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)
    wait_until_spinning(plugin, proc)  # not a guess at how long that takes on a loaded machine
    proc.send_signal(signal.SIGINT)
    time.sleep(3.0)
    assert proc.poll() is None  # the first Ctrl-C cannot end a batch that never ends...
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=10)  # ...the second ends the process at once
    assert proc.returncode == 130


@pytest.mark.slow
def test_ctrl_c_ends_a_trace_stuck_in_a_strategy(tmp_path):
    """trace plays its game on the main thread: a decision that never returns leaves no Python
    handler a chance to run; the signal is still answered (cli.signals), at once."""
    plugin = write_plugin(tmp_path, "spinner.py", spinner_plugin())
    proc = medici("trace", "-p", "2", "--plugin", plugin, "-s", "spinner,random")
    try:
        wait_until_spinning(plugin, proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()  # if it is still there: the test failed; a spinning process must not outlive it
    assert proc.returncode == 130, err
    assert without_compile_notice(err).strip().startswith("medici-sim: interrupted") and "Traceback" not in err
    assert out == ""


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
    assert summary["partial"] is True and f"PARTIAL RESULTS: interrupted after {summary['games']:,}" in out


@pytest.mark.parametrize("args", [["--version"], ["-n", "10", "-q"], ["strategies"]])
def test_numba_disable_jit_is_refused_in_one_line(args):
    """numba's debugging switch cannot work here (strategy dispatch is code numba generates as it
    compiles): every command, --version included, says so in one line instead of a traceback."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-m", "medici_sim", *args], capture_output=True, text=True, env=env,
                          timeout=120)
    assert_refused(done.returncode, done.stdout, done.stderr, "NUMBA_DISABLE_JIT is set", "unset it")
    assert done.stdout == ""
    imported = subprocess.run([sys.executable, "-c", "import medici_sim; medici_sim.simulate"], capture_output=True,
                              text=True, env=env,
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
    assert "games              2,000" in done.stdout
    warnings = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(warnings) == 1 and "read-only" in warnings[0], done.stderr
    assert not list((package / "medici_sim").rglob("*.nbi"))  # nothing was written into the package


def _single_valued_options():
    """Every option of every command that holds one value (not repeatable, not a flag)."""
    import click

    from medici_sim.cli.app import cli

    for command, params in [([], cli.params), *(([name], c.params) for name, c in sorted(cli.commands.items()))]:
        for param in params:
            if isinstance(param, click.Option) and not (param.multiple or param.count or param.is_flag):
                yield pytest.param(command, param, id=" ".join([*command, param.opts[0]]))


@pytest.mark.parametrize("command,param", list(_single_valued_options()))
def test_a_single_valued_option_given_twice_is_refused(capsys, never_played, command, param):
    """--rules days=2 --rules bonus20 played plain bonus20; so did --rules with --variant, and --vs twice."""
    first, second = param.opts[0], param.opts[-1]  # an alias counts as the same option (--rules, --variant)
    assert_refused(*run(capsys, *command, first, "1", second, "2"), f"{'/'.join(param.opts)} is given more than once")


def test_a_failed_checkpoint_write_names_the_checkpoint(capsys, tmp_path, monkeypatch):
    """A full disk while writing --checkpoint reported "--out ck.json: cannot write"."""
    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(Path, "write_text", full)
    saved = tmp_path / "ck.json"
    assert_refused(*run(capsys, "-n", "2000", "-q", "--checkpoint", str(saved)), f"--checkpoint {saved}: cannot "
                                                                                    "write (No space left on device)")


@pytest.mark.parametrize("kind", ["zero", "fifo", "directory"])
def test_every_file_input_is_read_bounded_and_only_if_regular(capsys, tmp_path, never_played, kind):
    """Rules files, decks, plug-ins, checkpoints and tuned files: /dev/zero, a FIFO and a directory are refused
    in one line naming the option, and nothing blocks (a reader that blocks fails here instead of hanging)."""
    from medici_sim.core.output import OutputError, read_limited

    inputs = {"rules.toml": ["--rules"], "deck.csv": ["--deck"], "plugin.py": ["--plugin"],
              "saved.json": ["--resume"], "tuned.json": ["balance", "-p", "4", "--tuned"]}
    for name, option in inputs.items():
        path = tmp_path / name
        if kind == "zero":
            path.symlink_to("/dev/zero")
        elif kind == "fifo":
            os.mkfifo(path)
        else:
            path.mkdir()
        refused = finished_within(30, read_limited, path, 100, "--x")  # the shared reader: blocking fails, not hangs
        assert isinstance(refused, OutputError) and "not a regular file" in str(refused), refused
        code, out, err = run(capsys, *option, str(path), *(["-n", "10"] if option[0] != "--resume" else []))
        assert_refused(code, out, err, option[-1].lstrip("-"))  # a deck's messages name it "deck FILE"
        assert any(words in err for words in ("not a regular file", "is a directory", "not a checkpoint file")), err
