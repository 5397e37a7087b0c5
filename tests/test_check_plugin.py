"""``medici-sim check-plugin``: each kind of problem is found, named and counted; a clean
plug-in passes; bad input is one line and exit code 2.

Most tests compile a kernel for their plug-in (numba caches it: slow only the first time).
"""
from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run, spinner_plugin, wait_until_spinning, without_compile_notice

from medici_sim.cli import common
from medici_sim.core.dispatch import strategy_table
from medici_sim.games.card.strategies import REGISTRY

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "green_lover.py"
GAMES = "300"  # per strategy: 30 per configuration (2-6 players, alone and with built-ins)

HEADER = """\
from numba import njit
from medici_sim.games.card.rules import RULE_PLAYERS
from medici_sim.games.card.state import MARKET_LEN, TURN_ID, fits_nb, market_card_nb, takes_space_nb
from medici_sim.games.card.strategies import Strategy, register


@njit
def never_nb(state, seat, params):
    return False


@njit
def last_only_nb(state, seat, params):
    return 0
"""

TAKES_EVERYTHING = HEADER + """
@njit
def take_all_nb(state, seat, params):
    # every earlier card on offer, whether it fits on the ship or not (R10)
    n = state.counts[MARKET_LEN]
    return 3 if n >= 3 else (1 if n == 2 else 0)


@njit
def always_nb(state, seat, params):
    return True


register(Strategy(name="hoarder", decisions={"reveal_nb": always_nb, "take_nb": take_all_nb}))
"""

WRITES_STATE = HEADER + """
@njit
def pay_myself_nb(state, seat, params):
    state.florins[seat] += 1
    return 0


@njit
def note_for_neighbour_nb(state, seat, params):
    state.scratch[seat, 0] += 1.0  # its own row: allowed
    state.scratch[(seat + 1) % state.rules[RULE_PLAYERS], 0] += 1.0  # the next seat's: not allowed
    return False


register(Strategy(name="cheater", decisions={"reveal_nb": never_nb, "take_nb": pay_myself_nb}))
register(Strategy(name="meddler", decisions={"reveal_nb": note_for_neighbour_nb, "take_nb": last_only_nb}))
"""

COUNTS_TURNS = HEADER + """
@njit
def every_third_turn_nb(state, seat, params):
    # a "free coin": but TURN_ID runs on from game to game, so it depends on what came before
    return state.counts[TURN_ID] % 3 == 0


@njit
def second_if_it_fits_nb(state, seat, params):
    pending = takes_space_nb(state, market_card_nb(state, 1))
    if state.counts[MARKET_LEN] >= 2 and fits_nb(state, seat, market_card_nb(state, 2), pending):
        return 1
    return 0


register(Strategy(name="turn_counter", decisions={"reveal_nb": every_third_turn_nb, "take_nb": second_if_it_fits_nb}))
"""

TYPO = HEADER + """
@njit
def typo_nb(state, seat, params):
    return stat.counts[MARKET_LEN] > 4


register(Strategy(name="typo", decisions={"reveal_nb": typo_nb, "take_nb": last_only_nb}))
"""

RAISES = HEADER + """
@njit
def unlucky_nb(state, seat, params):
    if state.florins[seat] == 95:  # in a few games only
        raise ValueError("unlucky florins at seat", seat)
    return state.florins[seat] % 2 == 0


register(Strategy(name="unlucky", decisions={"reveal_nb": unlucky_nb, "take_nb": last_only_nb}))
"""

READS_UNDECLARED = HEADER + """
from medici_sim.games.card.state import REVEALED, UNSEEN_CARDS


@njit
def while_green_is_unseen_nb(state, seat, params):
    # reads the unseen-card sums (the green cards left in the deck), and says below that it reads nothing
    return state.counts[REVEALED] < 2 and state.unseen[1, UNSEEN_CARDS] > 6


register(Strategy(name="peeker", decisions={"reveal_nb": while_green_is_unseen_nb, "take_nb": last_only_nb},
                  reads=()))
"""


def plugin(tmp_path: Path, source: str, name: str = "plugin.py") -> str:
    path = tmp_path / name
    path.write_text(source)
    return str(path)


@pytest.fixture(autouse=True)
def no_debug(monkeypatch):
    """--debug is remembered for the process: each test starts without it."""
    monkeypatch.setattr(common, "_DEBUG", False)


def test_checked_table_plays_in_the_same_kernel_and_leaves_the_normal_one_alone():
    """A checked table has the normal one's type (one compiled kernel serves both), other addresses."""
    normal, names = strategy_table(REGISTRY, {"random", "expert"})
    checked, checked_names = strategy_table(REGISTRY, {"random", "expert"}, checked=True)
    assert checked_names == names and set(names) == {"random", "expert"}
    assert checked.dtype == normal.dtype
    (field,) = normal.dtype.names
    assert (checked[field][:, :2] != normal[field][:, :2]).all() and (normal[field][:, :2] != 0).all()
    again = strategy_table(REGISTRY, {"random", "expert"})[0]
    assert again.dtype == normal.dtype and (again[field] == normal[field]).all()  # the normal table is unchanged


def test_a_table_checks_only_the_strategies_it_names_and_check_plugin_names_the_plug_ins():
    """check-plugin checks its plug-in's decisions, and plays the built-ins beside it as the normal kernel does
    (their checked wrappers were compiled again for nothing: the test suite checks the built-ins)."""
    from medici_sim.core import plugin_check  # noqa: PLC0415
    from medici_sim.core.driver import RunConfig, seat_strategy  # noqa: PLC0415

    normal, names = strategy_table(REGISTRY, {"random", "expert"})
    some, _ = strategy_table(REGISTRY, {"random", "expert"}, checked={"expert"})
    (field,) = normal.dtype.names
    mine, theirs = names.index("expert"), names.index("random")
    assert (some[field][:, mine] != normal[field][:, mine]).all()
    assert (some[field][:, theirs] == normal[field][:, theirs]).all()
    config = RunConfig(players=4, strategies=tuple(seat_strategy(s, "card") for s in ("random", "expert") * 2),
                       games=10, game="card", components=None)
    assert plugin_check._checked_kernel(config).checked == set()  # built-ins only: nothing of theirs is checked


def test_clean_plugin_passes(capsys):
    """The quick subset's whole check-plugin pass (3.5 CPU s): the example's table is the one
    test_card_strategies compiles, and the checked table has its type (one kernel serves both)."""
    code, out, err = run(capsys, "check-plugin", str(EXAMPLE), "--games", GAMES)
    assert code == 0, err
    assert out.strip().splitlines() == [f"check-plugin {EXAMPLE}: 1 strategy, 300 games, no problems found"]


@pytest.mark.slow
def test_illegal_decision_names_strategy_and_seat(capsys, tmp_path):
    code, out, err = run(capsys, "check-plugin", plugin(tmp_path, TAKES_EVERYTHING), "--games", GAMES)
    assert code == 1, err
    lines = out.strip().splitlines()
    assert len(lines) == 2  # one finding (its repeats counted in it), then the summary
    assert lines[0].startswith("illegal decision: strategy hoarder chose a card that does not fit on its ship (R10)")
    assert "at seat " in lines[0] and "card game, 2 players, hoarder at every seat, game " in lines[0]
    assert "and in 9 other configurations" in lines[0]
    assert lines[1].endswith("1 strategy, 300 games, 1 problem")


@pytest.mark.slow
def test_state_changed_outside_scratch(capsys, tmp_path):
    code, out, err = run(capsys, "check-plugin", plugin(tmp_path, WRITES_STATE), "--games", GAMES)
    assert code == 1, err
    lines = out.strip().splitlines()
    assert lines[0].startswith("state changed: strategy cheater changed the game state outside its scratch "
                               "(field florins) (at seat ")
    assert lines[1].startswith("state changed: strategy meddler changed the game state outside its scratch "
                               "(another seat's scratch) (at seat ")
    assert lines[2].endswith("2 strategies, 600 games, 2 problems")


@pytest.mark.slow
def test_results_that_depend_on_batches(capsys, tmp_path):
    code, out, err = run(capsys, "check-plugin", plugin(tmp_path, COUNTS_TURNS), "--games", GAMES)
    assert code == 1, err
    lines = out.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("depends on threads or batches: strategy turn_counter gives other totals")
    assert "other totals on 3 threads in batches of 8" in lines[0]
    assert lines[1].endswith("1 problem")


@pytest.mark.slow
def test_a_strategy_that_reads_what_it_says_it_does_not(capsys, tmp_path):
    """Strategy.reads=(): its runs leave the unseen-card sums stale; played again with them kept, its games differ."""
    code, out, err = run(capsys, "check-plugin", plugin(tmp_path, READS_UNDECLARED), "--games", GAMES)
    assert code == 1, err
    lines = out.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("reads what it does not declare: strategy peeker plays other games when the "
                               "state's unseen is kept up to date: it reads it, so its reads= must name it (or be "
                               "left out: every part) (card game, 2 players, peeker at every seat, 30 games")
    assert lines[1].endswith("1 strategy, 300 games, 1 problem")


@pytest.mark.slow
def test_compile_failure_is_one_line_naming_the_strategy(capsys, tmp_path):
    path = plugin(tmp_path, TYPO)
    code, out, err = run(capsys, "check-plugin", path, "--games", GAMES)
    assert code == 1
    lines = out.strip().splitlines()
    assert lines[0] == (f"does not compile: strategy typo (card game, {path}): "
                        "NameError: name 'stat' is not defined (in typo_nb)")
    assert lines[1].endswith("1 strategy, 0 games, 1 problem")
    assert "Traceback" not in out + err
    code, out, err = run(capsys, "check-plugin", path, "--games", GAMES, "--debug")
    assert code == 1
    assert "Traceback" in err and "NameError" in err  # numba's full report


@pytest.mark.slow
def test_a_decision_that_raises_is_a_failure_with_its_seat_and_game_not_a_compile_failure(capsys, tmp_path):
    code, out, err = run(capsys, "check-plugin", plugin(tmp_path, RAISES), "--games", GAMES)
    assert code == 1, err
    *findings, summary = out.strip().splitlines()
    assert findings and summary.endswith(f"1 strategy, 300 games, {len(findings)} problem{'s' * (len(findings) > 1)}")
    for line in findings:  # what it raised names its seat (0-based): the seat found must be that one
        found = re.fullmatch(r"failed: strategy unlucky raised ValueError: \('unlucky florins at seat', (\d)\) "
                             r"\(at seat (\d), card game, \d players, .*, game \d+(; and in \d+ other "
                             r"configurations?)?\)", line)
        assert found and int(found[1]) + 1 == int(found[2]), line


@pytest.mark.parametrize("source, message", [
    ("raise RuntimeError('boom')\n", "cannot load it: RuntimeError: boom"),
    ("x = 1\n", "registered no strategy"),
    (None, "cannot read"),
])
def test_bad_plugin_is_one_line_exit_2(capsys, tmp_path, source, message):
    path = plugin(tmp_path, source) if source is not None else str(tmp_path / "missing.py")
    code, out, err = run(capsys, "check-plugin", path)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("medici-sim: error: ") and path in err and message in err
    assert "Traceback" not in err


def test_games_must_be_positive(capsys):
    code, out, err = run(capsys, "check-plugin", str(EXAMPLE), "--games", "0")
    assert code == 2 and "--games must be between 1 and" in err and not out


# ---------------------------------------------------------------- a decision that never returns

@pytest.mark.slow
@pytest.mark.parametrize("spin_after,games,signum", [
    (-1, GAMES, signal.SIGINT),  # at its first decision: compiling the checked kernel on the main thread
    (20_000, "2000000", signal.SIGTERM),  # deep in the checked pass (hundreds of games in), on the pool's threads
])
def test_a_stop_signal_ends_a_check_stuck_in_a_decision(tmp_path, spin_after, games, signum):
    """check-plugin answers Ctrl-C and SIGTERM while a plug-in's decision never returns, wherever
    it plays: on the main thread (no Python handler can run) or on the pool's (never waited for)."""
    path = plugin(tmp_path, spinner_plugin(spin_after))
    proc = subprocess.Popen([sys.executable, "-m", "medici_sim", "check-plugin", path, "--games", games],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_spinning(path, proc)
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()  # if it is still there: the test failed; a spinning process must not outlive it
    assert proc.returncode == 128 + signum, err
    assert without_compile_notice(err).strip().startswith(
        f"medici-sim: {'interrupted' if signum == signal.SIGINT else 'terminated'}")
    assert "Traceback" not in err and out == ""
