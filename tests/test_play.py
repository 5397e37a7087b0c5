"""`medici-sim play`: a person at the table against the jitted bots.

In-process: the table drivers play exactly the engine's games; a person answering at
random (through the same prompts' parsers) plays whole games, is offered exactly the
takes the engine accepts, and every day's scoring explanation adds up to the engine's
payouts; `human` stays out of normal runs. Through a pseudo-terminal (pexpect):
whole games answered with Enter, bad input re-asked, Ctrl-C and end of input at a prompt.
"""
from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time

import pexpect
import pytest
from conftest import run

from medici_sim.core import compiling as compiling_module
from medici_sim.core.compiling import Compiles
from medici_sim.core.driver import PreparedRun, RunConfig, seat_strategy
from medici_sim.core.registry import GAMES
from medici_sim.games.card import console as card_console
from medici_sim.games.card import engine as card_engine
from medici_sim.games.card import stepped as card_stepped
from medici_sim.games.classic import console as classic_console
from medici_sim.games.classic import stepped as classic_stepped

FIRST_PROMPT_S = 600  # a cold numba cache compiles the table's kernel first (about a minute on a loaded machine)
PROMPT_S = 60
PROMPT = r"(?:\(y/n\) \[n\]|\(1-\d\) \[1\]|to \d+ \[0\]): "


@pytest.fixture(scope="module")
def human():
    """`human` registered as `medici-sim play` registers it, and removed again after this module
    (other tests see the registries as every normal run does)."""
    from medici_sim.core import human

    for game in GAMES.values():
        human.register_human(game)
    yield human
    for game in GAMES.values():
        game.registry.strategies.pop(human.HUMAN, None)
        game.registry.origin.pop(human.HUMAN, None)


def table_kernel(game: str, players: int, bots: list[str], me: int, seed: int,
                 variant: str = "standard") -> PreparedRun:
    """A kernel with the human at seat ``me``, as `medici-sim play` builds it: it can dispatch to
    every built-in, so every table of a game shares one compiled kernel."""
    slots = [seat_strategy(name, game) for name in bots[:me] + ["human"] + bots[me:]]
    return PreparedRun(RunConfig(components=None, players=players, strategies=tuple(slots), games=1, seed=seed,
                            rules=variant, seating="fixed", threads=1, game=game,
                            kernel_strategies=GAMES[game].built_ins))


def new_table(game: str, kernel: PreparedRun, me: int, lines: list[str], ask):
    cls = card_console.CardConsole if game == "card" else classic_console.ClassicConsole
    return cls(kernel, me, [s.label for s in kernel.config.strategies], lines.append, ask)


def never_asked(question, default, parse):
    raise AssertionError(f"a bot's seat asked the person: {question}")


# every player count in the quick subset once; the other games (each 10-20 s: the driver plays in Python) are slow
CARD_GAMES = [pytest.param(players, variant, seed, marks=() if (variant, seed) == ("standard", 1) else pytest.mark.slow)
              for players in range(2, 7) for variant in ("standard", "bonus20") for seed in (1, 2, 3)]
CLASSIC_GAMES = [pytest.param(players, seed, marks=() if seed == 1 else pytest.mark.slow)
                 for players in range(3, 7) for seed in (1, 2, 3, 4)]
CARD_BOTS = ["expert", "greedy", "random", "collector", "cautious", "gambler"]
CLASSIC_BOTS = ["expert", "value", "random", "collector", "bargain"]


def bots_only(game: str, players: int, seed: int, variant: str = "standard"):
    """The table driver with a bot in the human's seat, and the engine's trace of the same game."""
    pool = CARD_BOTS if game == "card" else CLASSIC_BOTS
    names = [pool[(seed + k) % len(pool)] for k in range(players)]
    me = seed % players
    kernel = table_kernel(game, players, names[:me] + names[me + 1:], me, seed, variant)
    kernel.slot_strategy[me] = kernel.table_names.index(names[me])
    kernel.slot_params[me] = seat_strategy(names[me], game).vector()
    lines: list[str] = []
    table = new_table(game, kernel, me, lines, never_asked)
    plain = PreparedRun(RunConfig(components=None, players=players,
                                  strategies=tuple(seat_strategy(n, game) for n in names),
                             games=1, seed=seed, rules=variant, seating="fixed", threads=1, game=game,
                             kernel_strategies=kernel.table_names),  # the same table: the same strategy ids
                        every_part=True)  # as the table, whose person may read any part of the state
    engine = card_stepped if game == "card" else classic_stepped
    traced = engine.trace_game_nb(seed, 0, plain.inputs, plain.seating, plain.slot_strategy, plain.slot_params,
                                  plain.table)
    return kernel, table, lines, traced


@pytest.mark.parametrize("players,variant,seed", CARD_GAMES)
def test_card_driver_plays_the_engines_game_and_explains_its_scoring(human, players, variant, seed):
    kernel, table, lines, traced = bots_only("card", players, seed, variant)
    with human.seated(table):
        table.play()
    assert table.buffer.tobytes() == traced.tobytes()  # every field, byte for byte: the same game
    text = "\n".join(lines)
    assert "disagrees with the engine" not in text  # the explanation adds up to the engine's payouts
    assert text.count("--- Scoring day") == 3
    assert len(re.findall(r"^Day \d turn \d+: ", text, re.M)) == traced[0]["day_turn_count"].sum()  # every turn told


@pytest.mark.parametrize("players,seed", CLASSIC_GAMES)
def test_classic_driver_plays_the_engines_game_and_explains_its_scoring(human, players, seed):
    kernel, table, lines, traced = bots_only("classic", players, seed)
    with human.seated(table):
        table.play()
    assert table.buffer.tobytes() == traced.tobytes()
    text = "\n".join(lines)
    assert "disagrees with the engine" not in text
    assert text.count("--- Scoring day") == 3
    turns = sum(1 for d in range(3) for _ in classic_turns(traced[0]["day_log"][d], traced[0]["day_log_len"][d]))
    assert len(re.findall(r"^Day \d turn \d+: ", text, re.M)) == turns  # every auction told


def classic_turns(log, n):
    i = 0
    while i < n:
        lot_len = log[i + 1]
        i += 2 + lot_len
        i += 1 + 2 * log[i]
        i += 3
        i += 1 + log[i]
        yield i


class RandomPerson:
    """Answers every prompt with a random legal answer, found through the prompt's own parser
    (so garbage is refused too); at each take, checks the menu against the engine (R10)."""

    CANDIDATES = ["y", "n", "yes", "no", "maybe", "", "-1", "x", "4.5"] + [str(k) for k in range(0, 80)]

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.table = None
        self.asked = 0

    def __call__(self, question, default, parse):
        self.asked += 1
        if question.startswith("Your choice"):
            self.check_menu(parse)
        legal = []
        for text in self.CANDIDATES:
            try:
                legal.append(parse(text))
            except ValueError:
                pass
        for garbage in ("maybe", "x", "4.5", ""):
            if garbage:
                with pytest.raises(ValueError):
                    parse(garbage)
        assert legal
        return self.rng.choice(legal)

    def check_menu(self, parse):
        """The take menu offers exactly the choices the engine's take (R10: play_choice_nb's) accepts."""
        s = self.table.buffer
        seat = self.table.me
        accepted = set()
        for choice in range(4):
            copy = s.copy()
            try:
                card_engine.play_choice_nb(copy[0], seat, card_engine.TAKE_DECISION, choice)
                accepted.add(choice)
            except ValueError:
                pass
        assert set(card_console.legal_takes(s[0], seat)) == accepted


@pytest.mark.parametrize("game,players,seed", [
    pytest.param(game, p, s, marks=() if s == 5 else pytest.mark.slow)
    for game, counts in (("card", (2, 4, 6)), ("classic", (3, 4, 6))) for p in counts for s in (5, 6)])
def test_a_person_answering_at_random_plays_whole_games(human, game, players, seed):
    """Only legal answers reach the engine (it would raise IllegalDecision), whatever is typed."""
    bots = (CARD_BOTS if game == "card" else CLASSIC_BOTS)[:players - 1]
    me = seed % players
    kernel = table_kernel(game, players, bots, me, seed, "bonus20" if game == "card" and seed % 2 else "standard")
    person = RandomPerson(random.Random(seed))
    lines: list[str] = []
    table = new_table(game, kernel, me, lines, person)
    person.table = table
    with human.seated(table), kernel.naming_failures():
        table.play()
    assert person.asked > 0
    text = "\n".join(lines)
    assert "disagrees with the engine" not in text
    standings = table.standings()
    assert "Final standings" in standings and re.search(r"You win!|wins\.|Shared win", standings)
    # plain words: no rule codes (they are in the docs), nouns counted right, no signed amounts
    said = text + standings
    assert not re.search(r"\b[RC]\d+\b", said), re.search(r".*\b[RC]\d+\b.*", said).group(0)
    assert not re.search(r"(?<![\d.,/])1 (florins|cards|holds|more cards)\b|\(s\)|[-+] -\d", said)


class Typist:
    """Types ``typed`` at the first questions, then presses Enter (the default) at every one."""

    def __init__(self, *typed: str):
        self.typed = list(typed)

    def __call__(self, question, default, parse):
        return parse((self.typed.pop(0) if self.typed else "") or default)


@pytest.mark.parametrize("game,players", [("card", 3), ("classic", 3)])
def test_the_legend_is_shown_once_and_again_on_request(human, game, players):
    """The legend of the table's columns comes with the first table only (not after every turn),
    and again when the person types ? at a question, which is then asked again."""
    lines: list[str] = []
    kernel = table_kernel(game, players, (CARD_BOTS if game == "card" else CLASSIC_BOTS)[:players - 1], 0, 3)
    table = new_table(game, kernel, 0, lines, Typist("", "?", "", "?"))
    with human.seated(table), kernel.naming_failures():
        table.play()
    text = "\n".join(lines)
    legend = table.legend()
    assert text.count(legend) == 3  # once with the first table, twice on request
    assert text.count("Type ? at any question to see this again.") == 1
    assert len(re.findall(r"^--- Day \d of 3, turn \d+: ", text, re.M)) > 3  # many tables, one legend


def test_human_is_never_a_built_in(human):
    """The human's functions live outside the games' packages: only a table that seats it holds it."""
    from medici_sim.core.dispatch import strategy_table

    for game in GAMES.values():
        assert game.registry.origin["human"] != "built-in"
        assert "human" not in strategy_table(game.registry)[1]
        assert "human" not in strategy_table(game.registry, {"expert"})[1]
        assert strategy_table(game.registry, {"human"})[1][-1] == "human"


def test_normal_runs_do_not_know_human():
    """A new process (one: each costs a second of imports): no game registers `human`, the listing does not show it,
    and a run refuses it."""
    code = textwrap.dedent("""
        import contextlib, io, json
        import medici_sim.api
        from medici_sim.cli.app import main
        from medici_sim.core.registry import GAMES
        print(sum('human' in g.registry for g in GAMES.values()))
        for args in (["strategies"], ["--strategies", "human", "--games", "10"]):
            out, err, code = io.StringIO(), io.StringIO(), 0
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    main(args)
                except SystemExit as exc:
                    code = exc.code
            print(json.dumps([code, "human" in out.getvalue(), err.getvalue().strip()]))
    """)
    lines = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert lines[0] == "0"
    (listed, listed_human, _), (refused, _, message) = (json.loads(line) for line in lines[1:])
    assert listed == 0 and not listed_human
    assert refused == 2 and "unknown strategy 'human'" in message


# ---------------------------------------------------------------- through a terminal

def spawn(*args: str) -> pexpect.spawn:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return pexpect.spawn(sys.executable, ["-m", "medici_sim", "play", *args], encoding="utf-8",
                         timeout=PROMPT_S, dimensions=(50, 250), env=env)


def first_prompt(child: pexpect.spawn) -> None:
    child.expect(PROMPT, timeout=FIRST_PROMPT_S)


def finish(child: pexpect.spawn) -> str:
    """Answer every prompt with Enter (a legal default) until the game ends; the rest of the output."""
    seen = ""
    while True:
        index = child.expect([PROMPT, "=== Final standings"])
        seen += child.before + child.after
        if index == 1:
            break
        child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    return seen + child.before


@pytest.mark.parametrize("args", [("--game", "card", "--players", "4", "--seat", "2", "--seed", "7"),
                                  ("--game", "classic", "--players", "4", "--seat", "3", "--seed", "11")])
def test_a_whole_game_answered_with_enter(args):
    child = spawn(*args)
    first_prompt(child)
    assert "you sit at seat" in child.before and "Seed " in child.before
    child.sendline("")
    rest = finish(child)
    assert child.exitstatus == 0, rest
    assert "Scoring day 3" in rest and re.search(r"You win!|wins\.|Shared win", rest)
    assert "Traceback" not in rest


def test_bad_input_is_asked_again_card():
    child = spawn("--game", "card", "--players", "3", "--seat", "1", "--seed", "3")
    first_prompt(child)
    for garbage in ("maybe", "7", "-1"):
        child.sendline(garbage)
        child.expect("Not a legal answer")
        child.expect(PROMPT)
    child.sendline("y")  # a legal answer is taken: another card is turned up
    child.expect("You turn up")
    child.expect(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_bad_input_is_asked_again_classic():
    child = spawn("--game", "classic", "--players", "3", "--seat", "2", "--seed", "4")
    while True:
        child.expect(PROMPT, timeout=FIRST_PROMPT_S)
        if "Your bid" in child.before + child.after:
            break
        child.sendline("")
    top = int(re.search(r"to (\d+) \[0\]", child.after).group(1))
    for garbage in ("abc", str(top + 1), "2.5"):
        child.sendline(garbage)
        child.expect("Not a legal answer")
        child.expect(PROMPT)
    child.sendline("0")
    rest = finish(child)
    assert child.exitstatus == 0 and "Final standings" in rest
    assert "Traceback" not in rest


@pytest.mark.parametrize("game,signum", [("card", signal.SIGINT), ("classic", signal.SIGINT),
                                         ("card", signal.SIGTERM)])
def test_ctrl_c_or_sigterm_at_a_prompt_says_goodbye(game, signum):
    child = spawn("--game", game, "--seed", "5")
    first_prompt(child)
    if signum == signal.SIGINT:
        child.sendintr()
    else:
        child.kill(signum)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 128 + signum
    assert "goodbye" in child.before and "Traceback" not in child.before


def test_end_of_input_at_a_prompt_leaves_cleanly():
    child = spawn("--game", "card", "--seed", "5")
    first_prompt(child)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "goodbye" in child.before and "Traceback" not in child.before


@pytest.mark.slow  # two whole sessions against the bots (9 s)
def test_a_seeded_session_replays_exactly():
    """R25, C20: the same seed and answers give the same game, shown the same way; the seat too."""
    def session(seed):
        return subprocess.run([sys.executable, "-m", "medici_sim", "play", "--game", "classic", "--seed", seed,
                               "--opponents", "expert,value,random"], input="\n" * 500, capture_output=True,
                              text=True, timeout=FIRST_PROMPT_S)
    a, b, c = session("21"), session("21"), session("22")
    assert a.returncode == 0 and "Final standings" in a.stdout
    assert "compil" not in b.stderr  # the table's kernel loads from the cache: no compile warning (once: always)
    assert a.stdout == b.stdout
    assert a.stdout != c.stdout


@pytest.mark.parametrize("args,message", [
    (("--seat", "9"), "--seat must be 1 to 4 or random"),
    (("--opponents", "expert,greedy"), "give 1 or 3 strategies, got 2"),
    (("--opponents", "human"), "'human' is you"),
    (("--game", "classic", "--players", "2"), "players must be between 3 and 6"),
    (("--variant", "bonus30"), "unknown rule 'bonus30' in the card game"),
])
def test_option_errors_are_one_line_and_exit_2(human, capsys, args, message):
    code, out, err = run(capsys, "play", *args)
    assert code == 2, err
    assert message in err and len(err.strip().splitlines()) == 1


def test_the_bots_are_read_before_human_joins_so_it_is_never_offered_as_one(capsys, monkeypatch):
    for game in GAMES.values():  # as in a new process: `human` joins only once play has read the bots
        monkeypatch.delitem(game.registry.strategies, "human", raising=False)
        monkeypatch.delitem(game.registry.origin, "human", raising=False)
    code, out, err = run(capsys, "play", "--opponents", "nobody")
    assert code == 2 and "unknown strategy 'nobody' (known: random" in err
    assert "human" not in err


def test_the_default_opponents_are_the_games_strongest_heuristic(capsys, monkeypatch):
    """--opponents not given: the game's last built-in (core.contract: its strongest), not a name of the cli's."""
    from dataclasses import replace

    from medici_sim.core import registry

    assert all(game.built_ins[-1] == "expert" for name, game in GAMES.items() if name in ("card", "classic"))
    card = registry.GAMES["card"]
    monkeypatch.setitem(registry.GAMES, "card", replace(card, built_ins=(*card.built_ins, "grandmaster")))
    code, out, err = run(capsys, "play", "--game", "card")
    assert code == 2 and err.startswith("medici-sim: error: --opponents: unknown strategy 'grandmaster'"), err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("compiling", [False, True])
def test_the_compile_notice_shows_only_while_the_table_really_compiles(monkeypatch, compiling):
    """Loading the table's kernel from the cache, nothing is said, however long it takes (a busy
    machine): the notice speaks only while numba compiles."""
    from types import SimpleNamespace

    from medici_sim.cli import play

    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    kernel = SimpleNamespace(game=GAMES["card"], table_names=("random", "human"))
    monkeypatch.setattr(compiling_module, "AFTER", 0.2)  # its times shortened, its order of events the same
    monkeypatch.setattr(play, "COMPILE_TICK", 0.05)
    monkeypatch.setattr(Compiles, "started", compiling)  # whether numba compiles while the game has not begun
    heard = []
    with play.compile_notice(kernel) as begun:
        table = play.FirstWord(SimpleNamespace(event=lambda *a: heard.append(a)), begun)
        time.sleep(compiling_module.AFTER + 2 * play.COMPILE_TICK)  # slow either way
        table.event(0, 1, 2, 3)  # the game's first word: it has compiled
    time.sleep(2 * play.COMPILE_TICK)  # nothing more is said after it
    assert heard == [(0, 1, 2, 3)]
    assert ("compiling the card engine for random, human" in terminal.getvalue()) is compiling
BOT = textwrap.dedent('''
    from numba import njit
    from medici_sim.games.card.strategies import Strategy, register

    @njit(cache=True)
    def reveal_nb(state, seat, params):
        {body}

    @njit(cache=True)
    def take_nb(state, seat, params):
        return 0

    register(Strategy(name="{name}", decisions={{"reveal_nb": reveal_nb, "take_nb": take_nb}}))
''')


def test_a_bot_that_does_not_compile_is_one_line(human, capsys, tmp_path):
    path = tmp_path / "typo_bot.py"
    path.write_text(BOT.format(name="typo_bot", body="return state.no_such_field[seat] > 0"))
    code, out, err = run(capsys, "play", "--plugin", str(path), "--opponents", "typo_bot", "--seed", "1")
    assert code == 2 and "Traceback" not in err, err
    assert err.splitlines()[-1].startswith(f"medici-sim: error: strategy typo_bot ({path}) does not compile: ")


@pytest.mark.slow
def test_a_bot_that_raises_is_one_line(human, capsys, tmp_path):
    """A person's game cannot be played again to find the seat: the plug-in and what it raised are named."""
    path = tmp_path / "raising_bot.py"
    path.write_text(BOT.format(name="raising_bot", body="if seat >= 0:\n        raise ValueError('always', seat)\n"
                                                        "    return False"))
    code, out, err = run(capsys, "play", "--plugin", str(path), "--opponents", "raising_bot", "--players", "3",
                         "--seat", "3", "--seed", "1")  # seat 1 decides first: before the person is asked
    assert code == 2 and "Traceback" not in err, err
    assert err.splitlines()[-1] == f"medici-sim: error: strategy raising_bot ({path}) raised ValueError: ('always', 0)"
