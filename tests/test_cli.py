"""The medici-sim command: tables, output files, and one-line errors with exit code 2."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from conftest import card_rules, classic_rules, run

from medici_sim.cli.common import parse_strategies
from medici_sim.core.driver import ConfigError
from medici_sim.core.registry import GAMES, get_game
from medici_sim.core.stats import seat_columns, strategy_columns

SEAT_COLUMNS = seat_columns(get_game("card"))
STRATEGY_COLUMNS = strategy_columns(get_game("card"))



def test_main_run_prints_tables_and_summary(capsys):
    code, out, err = run(capsys, "--games", "3000", "--players", "3", "--seed", "7", "--quiet", "--wide")
    assert code == 0, err
    assert "Per seat" in out
    for column in SEAT_COLUMNS:  # --wide: every column
        assert column in out
    code, out, err = run(capsys, "--games", "3000", "--players", "3", "--seed", "7", "--quiet")
    assert code == 0 and "win rate [95% CI]" in out and "mean_ship_florins" not in out
    assert max(len(line) for line in out.splitlines()) <= 100  # the default tables fit 100 columns
    for key in ("games", "players", "rules", "deck", "deck_cards", "seed", "threads",
                "elapsed_seconds", "games_per_second", "ran_out_days"):
        assert f"\n  {key} " in out
    assert "default (R4 reconstruction)" in out and "110" in out


def test_same_seed_same_tables(capsys, tmp_path):
    paths = [tmp_path / "a.csv", tmp_path / "b.csv"]
    for path, threads in zip(paths, ("1", "2"), strict=True):
        code, _, err = run(capsys, "-n", "20000", "--seed", "3", "--threads", threads, "--out", str(path), "-q")
        assert code == 0, err
    assert pd.read_csv(paths[0]).equals(pd.read_csv(paths[1]))


@pytest.mark.parametrize("suffix", [".csv", ".json", ".parquet"])
def test_out_formats_hold_the_documented_columns(capsys, tmp_path, suffix):
    path = tmp_path / f"result{suffix}"
    code, out, err = run(capsys, "-n", "2000", "-p", "5", "--variant", "bonus20", "--out", str(path), "-q")
    assert code == 0, err
    if suffix == ".json":
        document = json.loads(path.read_text())
        seats = pd.DataFrame(document["seats"])
        assert document["summary"]["rules"] == "bonus20"
        assert list(pd.DataFrame(document["strategies"]).columns) == STRATEGY_COLUMNS
    else:
        read = pd.read_csv if suffix == ".csv" else pd.read_parquet
        seats = read(path)
        assert list(read(tmp_path / f"result-strategies{suffix}").columns) == STRATEGY_COLUMNS
        assert read(tmp_path / f"result-summary{suffix}")["games"].iloc[0] == 2000
    assert list(seats.columns) == SEAT_COLUMNS
    assert list(seats["seat"]) == [1, 2, 3, 4, 5]
    assert (seats["games"] == 2000).all()
    assert ((seats["win_rate_ci_low"] <= seats["win_rate"]) & (seats["win_rate"] <= seats["win_rate_ci_high"])).all()
    # R22: win credits of all seats add up to one win per game
    assert seats["win_rate"].sum() == pytest.approx(1.0)


def test_custom_deck_and_running_out(capsys, tmp_path):
    deck = tmp_path / "small.csv"
    deck.write_text("count,good,icons,value,green\n12,fur,1,3,no\n6,dye,2,0,no\n3,none,0,2,yes\n")
    code, out, err = run(capsys, "-n", "500", "-p", "6", "--deck", str(deck), "-q")
    assert code == 0, err
    assert "warning" in err and "R12" in err and "of the days ran out of cards" in err  # the deck, then the days
    ran_out = int(out.split("ran_out_days")[1].split()[0].replace(",", ""))
    assert ran_out > 0


@pytest.mark.parametrize("args,message", [
    (["--players", "7"], "players must be between 2 and 6"),
    (["--players", "1"], "players must be between 2 and 6"),
    (["--strategies", "nobody"], "unknown strategy 'nobody' (known: random"),
    (["--strategies", "random,random,random"], "4 players need 1 or 4 strategies, got 3"),
    (["--games", "0"], "games must be between 1"),
    (["--games", "-5"], "games must be between 1"),
    (["--games", "lots"], "'lots' is not a valid integer"),
    (["--games", str(10**30)], "games must be between 1"),
    (["--seed", "-1"], "seed must be between 0"),
    (["--threads", "0"], "threads must be between 1"),
    (["--variant", "bonus30"], "bonus30"),
    (["--deck", "/nonexistent/deck.csv"], "no such file, and no shipped deck of that name"),
    (["--strategies", "cautious:max_reveals=7"], "must be between 0 and 3, got 7\n"),  # not 7.0
    (["--strategies", "collector:focus=1.50"], "must be a whole number, got 1.5\n"),
    (["--out", "result.txt"], "extension must be one of"),
    (["--out", "/nonexistent/dir/result.csv"], "cannot write"),
    (["--strategies", "random:speed=3"], "has no parameter 'speed'"),
    (["--no-such-option"], "No such option"),
])
def test_bad_input_one_line_exit_2(capsys, args, message):
    code, out, err = run(capsys, *([] if "--games" in args else ["-n", "100"]), *args)  # an option is given once
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and err.startswith("medici-sim: error: ")
    assert "Traceback" not in err and out == ""


def test_invalid_deck_file_names_the_entry(capsys, tmp_path):
    deck = tmp_path / "deck.csv"
    deck.write_text("count,good,icons,value,green\n4,fur,1,3,no\n2,silk,1,2,no\n")
    out_file = tmp_path / "never.csv"
    code, _, err = run(capsys, "--deck", str(deck), "--out", str(out_file))
    assert code == 2 and "deck.csv, line 3: unknown good 'silk'" in err
    assert not out_file.exists()
    assert list(tmp_path.iterdir()) == [deck]


def test_parse_strategies():
    slots = parse_strategies("random", 3)
    assert [s.name for s in slots] == ["random"] * 3
    with pytest.raises(ConfigError, match="before any strategy"):
        parse_strategies("x=1,random", 2)
    with pytest.raises(ConfigError, match="empty strategy name"):
        parse_strategies("random,,random", 3)


def test_console_script_entry_point():
    """The real process: exit code 2 and one line, no traceback."""
    done = subprocess.run([sys.executable, "-m", "medici_sim", "--players", "9"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == "medici-sim: error: --players must be between 2 and 6 in the card game, got 9\n"


def test_help_lists_options(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for option in ("--games", "--players", "--strategies", "--variant", "--seed", "--threads",
                   "--deck", "--out", "--quiet", "--seating"):
        assert option in out


@pytest.mark.parametrize("slow", [False, True])
def test_each_game_is_played_once_and_the_warm_up_plays_none(monkeypatch, slow):
    """The warm-up compiles without playing (it once played game 0 twice, unseen by the progress
    bar, under the compile notice); the run's first game is timed and counted, slow games too."""
    from medici_sim.core import driver
    from medici_sim.core.specs import run_config

    if slow:  # every game a search player's: batches sized by the first game's time, a game a chunk
        monkeypatch.setattr(driver, "SLOW_GAME", -1.0)
    calls = []
    play = driver.PreparedRun.play
    monkeypatch.setattr(driver.PreparedRun, "play",
                        lambda self, first, n: calls.append((first, n)) or play(self, first, n))
    config = run_config(game="card", players=3, strategies="random", games=30_000, seed=2, rules=None,
                        seating="fixed", threads=2, components=None)
    progress: list[int] = []
    result = driver.simulate(config, progress=progress.append, first_game=100)
    assert calls[0] == (0, 0)  # compiled, nothing played
    played = sorted(call for call in calls[1:] if call[1])
    assert [first for first, _ in played] == list(np.cumsum([100] + [n for _, n in played])[:-1])  # once each
    assert sum(n for _, n in played) == sum(progress) == result.totals.games == 30_000


def test_a_resumed_complete_run_compiles_nothing_and_reports_no_speed(capsys, tmp_path, monkeypatch):
    saved, out = tmp_path / "c.ckpt", tmp_path / "r.json"
    code, _, err = run(capsys, "-n", "3000", "-q", "--checkpoint", str(saved))
    assert code == 0, err
    from medici_sim.core import driver

    monkeypatch.setattr(driver.PreparedRun, "play", lambda *args: pytest.fail("a complete run played or compiled"))
    # the resumed file named again as --checkpoint is the same run, not an overwrite
    code, printed, err = run(capsys, "--resume", str(saved), "--checkpoint", str(saved), "-q", "--out", str(out))
    assert code == 0, err
    summary = json.loads(out.read_text())["summary"]
    assert summary["games"] == 3000 and summary["games_per_second"] is None  # once 0: no games were timed
class RecordingBar:
    """Stands in for tqdm: what a progress bar was told, and whether the kernel was ready when it began."""

    made: list = []
    ready = False

    def __init__(self, total=None, initial=0, **options):
        self.total, self.n, self.options, self.began_ready = total, initial, options, RecordingBar.ready
        RecordingBar.made.append(self)

    def update(self, n=1):
        self.n += n

    def refresh(self):
        pass

    def close(self):
        pass


@pytest.fixture
def recording_bar(monkeypatch):
    """Progress bars recorded (a test makes stderr a terminal); a kernel counts as ready once warm."""
    import tqdm

    from medici_sim.core import driver

    warm_up = driver.PreparedRun.warm_up

    def recording_warm_up(self, *args, **kwargs):
        RecordingBar.ready = False
        ready = warm_up(self, *args, **kwargs)
        RecordingBar.ready = True
        return ready

    RecordingBar.made, RecordingBar.ready = [], False
    monkeypatch.setattr(tqdm, "tqdm", RecordingBar)
    monkeypatch.setattr(driver.PreparedRun, "warm_up", recording_warm_up)
    return RecordingBar.made


@pytest.mark.parametrize("args", [
    ("-n", "3000", "-p", "3"),
    ("compare", "-n", "600", "-p", "3", "-s", "random,greedy,expert,cautious"),  # 4 lineups of 150 games
    ("compare", "-n", "500", "-p", "2,3", "-s", "random,greedy,expert", "--precision", "0.2"),
    ("balance", "-n", "400", "-p", "3", "-s", "random,greedy"),
])
def test_progress_counts_the_games_played_from_the_first_game_on(capsys, monkeypatch, recording_bar, args):
    """The bar's total is the games the run plays, and its clock starts when they do: never
    during the kernel's compilation (which has its own notice)."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # (capsys's stderr, as the test runs)
    code, out, err = run(capsys, *args)
    assert code == 0, err
    games = [bar for bar in recording_bar if bar.options.get("unit") == " games"]
    assert len(games) == 1
    bar = games[0]
    summary = out.partition("\nRun\n")[2]
    played = next(line.split()[-1] for line in summary.splitlines() if line.split()[:1] == ["games"])
    played = int(played.replace(",", ""))
    assert bar.total == bar.n == played
    assert bar.began_ready


@pytest.mark.parametrize("game,strategies", [("card", ("random",)), ("classic", ("random", "value", "expert")),
                                             ("card", ("random", "expert", "search"))])
def test_compile_notice_gives_the_measured_range(capsys, monkeypatch, game, strategies):
    """The notice's estimate is the measured one (the game's compile_seconds), for the game and for
    a kernel with or without search."""
    from types import SimpleNamespace

    from medici_sim.cli.common import CompileNotice

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "300")  # one line: the estimate is not broken at the terminal's edge
    notice = CompileNotice(quiet=False)
    kernel = SimpleNamespace(game=get_game(game), table_names=strategies)
    notice(kernel, 1.0)  # a cached kernel loads quickly: nothing said
    assert capsys.readouterr().err == ""
    notice(kernel, 2.5)
    notice(kernel, 3.0)
    notice.close()
    err = capsys.readouterr().err
    (low, high), search = get_game(game).engine.compile_seconds
    assert err.count("medici-sim: compiling") == 1 and f"the {game} engine for {', '.join(strategies)}" in err
    assert (f"about {search} s" if "search" in strategies else f"{low}-{high} s") in err


@pytest.fixture
def slow_compiling(monkeypatch):
    """Every compilation (or load from the cache) takes a fifth of a second longer, and the notice
    speaks after a tenth, numba taken to compile: as a first run's compilation, without compiling anything."""
    import time

    from medici_sim.core import compiling

    timed = compiling.timed
    monkeypatch.setattr(compiling, "AFTER", 0.1)
    monkeypatch.setattr(compiling, "TICK", 0.02)
    monkeypatch.setattr(compiling, "timed", lambda work, *args: timed(lambda: (time.sleep(0.2), work())[1], *args))
    monkeypatch.setattr(compiling.Compiles, "started", True)  # as if numba compiled (it may load from the cache)


@pytest.mark.parametrize("args", [("--games", "100", "-p", "3"), ("trace", "--players", "3"),
                                  ("--game", "classic", "--games", "100", "-s", "random,value,bargain,collector")])
def test_the_compile_notice_is_said_in_a_pipe_in_one_line(capsys, slow_compiling, args):
    """Not a terminal (a pipe, a log): the compile notice is still said, once, in one unbroken line
    with its estimate; trace (which passes no notice of its own) says it the same way."""
    code, _, err = run(capsys, *args)
    assert code == 0, err
    [line] = [line for line in err.splitlines() if "compiling" in line]
    assert line.startswith("medici-sim: compiling the ") and "once: " in line and line.endswith("from the cache)")


def test_the_compile_notice_wraps_between_words_on_a_terminal(capsys, monkeypatch):
    from types import SimpleNamespace

    from medici_sim.cli.common import CompileNotice
    from medici_sim.core.compiling import notice_text

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "60")
    kernel = SimpleNamespace(game=get_game("card"), table_names=("random", "greedy", "collector", "expert"))
    notice = CompileNotice(quiet=False)
    notice(kernel, 3.0)
    notice.close()
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip() and "compiling:" not in line]
    assert len(lines) > 1 and all(len(line) <= 60 for line in lines)
    assert " ".join(" ".join(lines).split()) == notice_text(kernel)  # no word broken


def test_the_python_api_logs_the_compile_notice(slow_compiling):
    """In Python the notice goes through the ``medici_sim`` logger (WARNING: shown on stderr
    where the program configured no logging), with its estimate."""
    import logging

    import medici_sim

    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger("medici_sim")
    logger.addHandler(handler)
    try:
        medici_sim.simulate(100, players=3, strategies="random")
    finally:
        logger.removeHandler(handler)
    [record] = records
    (low, high), _ = get_game("card").engine.compile_seconds
    assert record.levelno == logging.WARNING and f"(once: {low}-{high} s" in record.getMessage()


class Clock:
    def __init__(self):
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now


@pytest.mark.parametrize("seconds,games,said", [(6, 1000, True), (6, 400_000, False), (1, 10, False)])
def test_a_long_run_is_said_from_its_first_games_with_how_to_shorten_it(capsys, monkeypatch, seconds, games, said):
    """The bar times the games from the first report (after the compilation): a run that will take
    more than ten minutes is said so once, with its estimate and how to make it shorter; a short
    one, or one not yet timed long enough, is not."""
    from medici_sim.cli import common

    clock = Clock()
    monkeypatch.setattr(common, "time", clock)
    bar = common.GameProgress(1_000_000, shorter=common.shorter_hint("fewer --games", ["expert", "search", "mcts"]))
    bar(0)  # the kernel is ready: the games begin
    clock.now += seconds
    bar(games)
    clock.now += seconds
    bar(games)
    bar.close()
    err = " ".join(capsys.readouterr().err.split())
    assert err.count("this will take about") == (1 if said else 0), err
    if said:  # 999,000 games left at 1000 / 6 s: 99 min 54 s
        assert "this will take about 1 h 40 min more on this machine (167 games a second); to make it shorter: " \
               "fewer --games, fewer rollouts or iterations (search:rollouts=8, mcts:iterations=8), more cores " \
               "(--cluster local:N, --scheduler); Ctrl-C stops it and keeps what is played" in err


def test_the_shorter_hint_names_the_budgets_of_the_slow_players_in_the_run():
    """The players whose games cost thousands of a heuristic's are those tune refuses (Strategy.untunable), in
    any game: the hint names the budget of each in the run, and of no other."""
    from medici_sim.cli import common

    assert set(common.slow_players()) == {"search", "mcts"}
    assert "rollouts or iterations" not in common.shorter_hint("fewer --games", ["expert", "greedy:take_min=3"])
    assert "fewer rollouts or iterations (search:rollouts=8), more" in \
        common.shorter_hint("fewer --games", ["search:rollouts=64", "expert"])


@pytest.mark.parametrize("command", ["run", "compare", "balance", "tune", "sweep", "design", "ladder"])
def test_every_command_that_plays_games_estimates_a_long_run(command):
    """The estimate is the shared bar's (cli.common.progress_bar, with how to make it shorter):
    every command that plays games uses it."""
    from pathlib import Path

    import medici_sim.cli as cli

    module = {"compare": "study", "balance": "study", "design": "sweep"}.get(command, command)
    source = (Path(cli.__file__).parent / f"{module}.py").read_text()
    assert "progress_bar(" in source and "shorter_hint(" in source


def test_the_commands_the_tool_suggests_are_sized_to_minutes():
    """tune's refusals of the search players suggest a compare: at one player count and a few
    games, not compare's default 100,000 games at every count (hours to days)."""
    from medici_sim.core.rollout import untunable
    from medici_sim.core.tree import tree_untunable

    for text in (untunable("search"), tree_untunable("mcts")):
        command = re.search(r"medici-sim compare [^(]*", text).group().split()
        games = int(command[command.index("--games") + 1])
        assert games <= 1000 and command[command.index("-p") + 1] == "4"


@pytest.mark.parametrize("game", ["card", "classic"])
@pytest.mark.parametrize("strategy", ["search", "mcts"])
def test_a_rollout_players_policy_and_opponents_are_given_by_name_or_number(capsys, game, strategy):
    """search's and mcts's policy and opponents name a built-in (Param.choices): the name and its number are
    the same slot; a wrong name is one line naming the option and the choices, exit 2; `strategies` shows
    the defaults by name."""
    policies = get_game(game).registry[strategy].params["policy"].choices
    assert policies[0] == "random" and "expert" in policies
    named = parse_strategies(f"{strategy}:policy=random:opponents={policies[1]}", 3, game)
    numbered = parse_strategies(f"{strategy}:policy=0:opponents=1", 3, game)
    assert named == numbered and dict(named[0].params)["opponents"] == 1
    code, _, err = run(capsys, "--game", game, "-n", "10", "-s", f"{strategy}:policy=grandmaster")
    assert code == 2 and err.strip() == (f"medici-sim: error: --strategies: parameter policy of {strategy} must be "
                                         f"a number or one of {', '.join(policies)}, got 'grandmaster'")
    code, _, err = run(capsys, "--game", game, "-n", "10", "-s", f"{strategy}:opponents={len(policies)}")
    assert code == 2 and err.startswith(f"medici-sim: error: --strategies: parameter opponents of {strategy} must "
                                        f"be between 0 and {len(policies) - 1}") and err.count("\n") == 1
    code, out, _ = run(capsys, "strategies", "--game", game, "--wide")
    shown = next(line for line in out.splitlines() if line.startswith(strategy + " "))
    assert "policy=expert, opponents=expert" in shown
    import medici_sim

    table = medici_sim.strategies(game).set_index("strategy")
    assert table.loc[strategy, "parameters"]["opponents"]["choices"] == list(policies)
    assert "choices" not in table.loc[strategy, "parameters"]["confidence"]


def test_a_strategy_error_names_the_option_it_came_from(capsys):
    """Every fault of a strategy list (an unknown name or parameter, a value out of range) names the option."""
    for spec, words in (("nobody", "unknown strategy 'nobody'"), ("greedy:tkae_min=2", "no parameter 'tkae_min'"),
                        ("greedy:take_min=99", "parameter take_min of greedy must be between")):
        code, _, err = run(capsys, "-n", "10", "-s", spec)
        assert code == 2 and err.startswith("medici-sim: error: --strategies: ") and words in err, err
    code, _, err = run(capsys, "tune", "expert", "--against", "greedy:take_min=99", "-p", "2")
    assert code == 2 and err.startswith("medici-sim: error: --against: "), err


RULE_CODE = re.compile(r"\b[RC]\d+\b")


@pytest.mark.parametrize("args", [
    ("-n", "2000", "-p", "3", "-s", "expert,greedy,random"),
    ("--game", "classic", "-n", "2000", "-s", "expert,value,bargain,random", "--seating", "rotate"),
    ("compare", "-n", "600", "-p", "3", "-s", "random,greedy,expert"),
    ("balance", "-n", "400", "-p", "3", "-s", "random,greedy"),
])
def test_tables_speak_plain_words(capsys, args):
    """No rule codes in the tables (they are in the docs and --help), and the florin columns
    say what they hold; the margin of victory is shown."""
    code, out, err = run(capsys, *args, "-q")
    assert code == 0, err
    tables, _, summary = out.partition("\nRun\n")
    assert not RULE_CODE.search(tables), RULE_CODE.search(tables)
    assert max(len(line) for line in tables.splitlines()) <= 100  # titles and captions too
    assert "ships, majorities, bonuses:" in tables
    assert "mean final florins" in tables or "share of all florins" in tables  # balance: shares
    assert "mean_win_margin" in summary or "margin" in tables


@pytest.mark.parametrize("args", [
    ("-n", "1000", "-p", "3", "-s", "expert,greedy,random"),
    ("--game", "classic", "-n", "1000", "-s", "expert,value,bargain,random", "--seating", "rotate"),
    ("compare", "--game", "classic", "-p", "4", "-n", "200"),  # 102 columns wide
    ("balance", "-n", "200", "-p", "3", "-s", "random,greedy"),
    ("sweep", "--rule", "bonus=10..20:10", "--rule", "ship_capacity=4..5", "-p", "3", "-s", "random,greedy,cautious",
     "-n", "200"),  # 114 columns wide
    ("rules", "--game", "classic"),  # its meanings one word a line at 80 columns
])
@pytest.mark.parametrize("columns", ["80", None])  # None: the width cannot be known (a pipe): 100
def test_output_starts_at_once_and_fits_the_terminal(capsys, monkeypatch, args, columns):
    """Issue 30: stdout began with an empty line (| head -1 printed nothing); tables, captions and
    texts fit the terminal (tables in blocks that repeat the row's identity, texts wrapped as text);
    summaries write counts as the tables do (1,000) and a value not given as "none", not empty."""
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
        monkeypatch.setattr(os, "get_terminal_size", lambda *a: (_ for _ in ()).throw(OSError("not a terminal")))
    else:
        monkeypatch.setenv("COLUMNS", columns)
    code, out, err = run(capsys, *args, *(() if args[0] == "rules" else ("-q",)))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].strip() and max(map(len, lines)) <= int(columns or 100), max(lines, key=len)
    # a sentence's continuation is indented (compare's "How each strategy played" heading, two lines
    # written for 100 columns, left "trailed in after day 1: ..." at the margin at 80)
    assert not [line for line in lines if line[:1].islower() and (", " in line or ": " in line)  # not a table
                and not line.startswith("preset ")]  # rules: its preset
    if args[0] == "rules":
        assert len(lines) < 40  # not a word a line
        return
    summary = dict(line.split(None, 1) for line in out.partition("\nRun\n")[2].splitlines()
                   if line.startswith("  ") and len(line.split()) > 1)
    assert all(value.strip() for value in summary.values())
    unseparated = re.compile(r"(?<![.\d])\d{4,}(?![.\d])")  # 1000, not 1,000
    assert not [v for k, v in summary.items() if k != "seed" and unseparated.search(v)]
    if "precision" in summary:
        assert summary["precision"] == "none"


@pytest.mark.parametrize("columns", [40, 60])
@pytest.mark.parametrize("game", ["card", "classic"])
def test_the_rules_fit_a_terminal_narrower_than_their_columns(capsys, monkeypatch, game, columns):
    """The rules' columns alone are 75 wide (classic): at 60 or 40 columns every line overflowed;
    then each parameter is a block of text, its meaning under it."""
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, err = run(capsys, "rules", "--game", game)
    assert code == 0, err
    assert max(map(len, out.splitlines())) <= columns, max(out.splitlines(), key=len)
    assert "days played; the game ends after" in out
    if (game, columns) != ("card", 60):  # the card game's columns are 60 wide: a table still
        assert "days 3 (default 3; range 1-5; " in out


@pytest.mark.parametrize("game,players,names", [("card", 3, ["gambler", "greedy", "random"]),
                                                ("classic", 4, ["collector", "value", "bargain", "random"])])
def test_one_margin_is_the_reference_engines(capsys, tmp_path, game, players, names):
    """One winning margin, one name: the winners' florins minus the best non-winner's (0 when all
    tie), per game, as the reference engine's games give it; the metrics table's ``margin``, the
    text's "winning margin" and balance's rules table all show it, and no summary holds another
    (the run's second margin, 0 on every shared win, showed 18.54 beside the text's 20.4)."""
    from medici_sim.games.card import reference as card_reference
    from medici_sim.games.card.deck import default_deck
    from medici_sim.games.classic import reference as classic_reference

    games, seed = 300, 9
    path = tmp_path / "out.json"
    code, out, err = run(capsys, "--game", game, "-n", str(games), "-p", str(players), "-s", ",".join(names),
                         "--seating", "rotate", "--seed", str(seed), "--out", str(path), "-q")
    assert code == 0, err
    margins = []
    for index in range(games):
        if game == "card":
            final = card_reference.play_game(default_deck(), card_rules(players), names, seed, index,
                                             "rotate")["florins"][-1]
        else:
            final = classic_reference.play_game(classic_rules(players), names, seed, index, "rotate")["money"][-1]
        others = final[final < final.max()]
        margins.append(final.max() - others.max() if len(others) else 0)
    saved = json.loads(path.read_text())
    assert saved["metrics"][0]["margin"] == pytest.approx(sum(margins) / games)
    assert f"mean {sum(margins) / games:.1f} (" in out
    assert not [key for key in saved["summary"] if "margin" in key] and "win_margin" not in out.partition("\nRun\n")[2]
    balance = tmp_path / "balance.json"
    code, out, err = run(capsys, "balance", "--game", game, "-n", "120", "-p", str(players), "-q", "--out",
                         str(balance), "--rules", "standard", "--vs", "days=2")
    assert code == 0, err
    saved = json.loads(balance.read_text())
    assert [row["margin"] for row in saved["rules"]] == pytest.approx([row["margin"] for row in saved["metrics"]])
    assert not [key for key in saved["summary"] if "margin" in key]


def test_balance_help_offers_every_game_and_its_default_rules(capsys):
    """balance takes every game (any two rule sets with --rules A --vs B): its help offered only
    the card game, whose bonus20 it compares by default."""
    code, out, err = run(capsys, "balance", "--help")
    assert code == 0, err
    assert f"--game [{'|'.join(sorted(GAMES))}]" in out
    game_help = " ".join(out[out.index("--game"):out.index("--games")].split())
    assert "balance compares by default card: standard and bonus20" in game_help and "--rules A --vs B" in game_help
    code, out, err = run(capsys, "balance", "--game", "classic")  # refused, with a word on compare
    assert code == 2 and "use compare --game classic" in err


def test_deck_is_one_option_with_one_parser(capsys, tmp_path):
    """--components (--deck, its older name) takes a shipped deck's name or a deck file wherever a command takes
    a deck, with the same help (compare and balance also take it repeatedly)."""
    from importlib.resources import files

    from medici_sim.cli.app import cli

    commands = {"main": cli, **cli.commands}
    options = {name: next(p for p in command.params if p.name == "components_path")
               for name, command in commands.items() if any(p.name == "components_path" for p in command.params)}
    assert set(options) == {"main", "compare", "balance", "trace", "tune", "sweep", "design"}
    assert all(option.opts == ["--components", "--deck"] for option in options.values())
    assert len({option.help.split(" Repeat it")[0] for option in options.values()}) == 1
    assert {name for name, option in options.items() if option.multiple} == {"compare", "balance"}
    file = tmp_path / "high.csv"
    shipped = files("medici_sim.games.card").joinpath("data/deck-high-values.csv").read_text("utf-8")
    file.write_text(shipped)
    outs = []
    for deck in ("high-values", str(file)):
        code, out, err = run(capsys, "-n", "2000", "-p", "3", "--deck", deck, "-q")
        assert code == 0, err
        outs.append(out.partition("\nRun\n")[0])
        code, out, err = run(capsys, "trace", "-p", "3", "--deck", deck, "--index", "5")
        assert code == 0, err
    assert outs[0] == outs[1]  # the same cards, by name or by file


def test_plural_counts_nouns():
    from medici_sim.core.narration import plural

    assert [plural(n, "florin") for n in (0, 1, 2)] == ["0 florins", "1 florin", "2 florins"]
    assert plural(1, "more card", "more cards") == "1 more card" and plural(3, "lot") == "3 lots"
