"""``medici-sim play``: a person plays one game at a chosen or random seat against the bots.

The bots are the real jitted strategies; the person is the ``human`` strategy
(``core/human.py``), whose decisions call back into Python, and each game's table
(``games/*/console.py``) shows what a player at the table can see, offers the legal choices,
narrates the bots' moves and explains each scoring.

Terminal: plain text and ``click.prompt`` (click is already a dependency). Everything
shown is lines of text and every answer is one short value checked by the table, so a
terminal library (rich, prompt_toolkit) would add an install for no new ability; plain
lines also read the same in a pipe, a log or a screen reader. Bad input is re-asked;
Ctrl-C or end of input at any moment leaves with one line and exit code 130 (SIGTERM: 143).

Deterministic: the seed fixes all the game leaves to chance, the bots' draws and a drawn seat
(R25, C20), so the same seed, seat and answers replay the same game.
"""
from __future__ import annotations

import secrets
import shlex
import sys
import threading
import time
from contextlib import contextmanager

import click

from ..core.compiling import TICK as COMPILE_TICK
from ..core.compiling import Compiles
from ..core.driver import ConfigError, PreparedRun, RunConfig, seat_strategy
from ..core.plugins import load_plugin
from ..core.registry import get_game
from ..core.rng import GameRandom
from . import signals
from .common import (
    Command,
    CompileNotice,
    check_players,
    echo_text,
    game_option,
    load_game_components,
    parse_strategy_list,
    per_game,
    players_help,
    rules_option,
    wrap_option,
)
from .tables import first_seat

LEAVING = (EOFError, click.exceptions.Abort)  # the person left (end of input, Ctrl-C at a prompt)
SEAT_DRAW = 1 << 40  # the game index whose generator draws a random seat (the game itself is index 0)


def ask(question: str, default: str, parse):
    """Prompt until ``parse`` accepts the answer (Enter takes ``default``); bad input is re-asked."""
    while True:
        text = click.prompt(question, default=default, show_default=True, type=str)
        try:
            return parse(text)
        except ValueError as exc:
            click.echo(f"  Not a legal answer: {exc}.")


DRAWN_SEAT = "random"  # --seat's word for a seat drawn from the seed (not a strategy)


def choose_seat(spec: str, players: int, seed: int) -> int:
    """--seat: 1..players, or random (drawn from the seed, so a replay sits at the same seat). 0-based."""
    if spec.strip().lower() == DRAWN_SEAT:
        return GameRandom(seed, SEAT_DRAW).below(players)
    try:
        seat = int(spec)
    except ValueError:
        seat = 0
    if not 1 <= seat <= players:
        raise ConfigError(f"--seat must be 1 to {players} or random, got {spec!r}")
    return seat - 1


class FirstWord:
    """The table, telling ``heard()`` whenever the game speaks to it (so: once it has compiled)."""

    def __init__(self, table, heard):
        self.table, self.heard = table, heard

    def decide(self, decision: int, seat: int) -> int:
        self.heard()
        return self.table.decide(decision, seat)

    def event(self, kind: int, seat: int, a: int, b: int) -> None:
        self.heard()
        self.table.event(kind, seat, a, b)


@contextmanager
def compile_notice(kernel: PreparedRun):
    """The compile notice, while the game has not begun: only when numba really compiles
    (core.compiling.Compiles), never while the table's kernel loads from the cache. Yields
    ``begun()``, which ends it."""
    notice, lock, over = CompileNotice(quiet=False), threading.Lock(), threading.Event()
    began = time.perf_counter()

    def tick() -> None:
        while not over.wait(COMPILE_TICK):
            with lock:
                if not over.is_set() and compiles.started:  # a slow load from the cache says nothing
                    notice(kernel, time.perf_counter() - began)

    def begun() -> None:
        if not over.is_set():
            with lock:
                over.set()
                notice.close()

    with Compiles().listening() as compiles:
        threading.Thread(target=tick, name="medici-sim-compile-notice", daemon=True).start()
        try:
            yield begun
        finally:
            begun()


@click.command("play", cls=Command)
@game_option
@click.option("--players", "-p", type=int, default=None,
              help=f"Players at the table, you included ({players_help()}) [default: 4].")
@click.option("--opponents", "-o", default=None,
              help="The bots: one strategy for every other seat, or a comma list, one per other seat in seat "
                   "order; parameters as name:param=value (see `medici-sim strategies --game GAME`) [default: the "
                   "game's strongest heuristic, its last built-in: expert in the games shipped].")
@click.option("--seat", default=DRAWN_SEAT, show_default=True,
              help=f"Your seat, 1 to players (seat 1 starts the game, {per_game('seats')}), or random (drawn from the "
                   "seed).")
@click.option("--seed", type=int, default=None,
              help=f"The game's seed ({per_game('seed')}): the same seed, seat and answers replay the same game "
                   "[default: a fresh one, printed].")
@rules_option()
@click.option("--plugin", "plugins", multiple=True, metavar="FILE",
              help="Load opponent strategies from a Python file that registers them (repeatable).")
@wrap_option
def play_command(game_name, players, opponents, seat, seed, rules, plugins, wide):
    """Play one game yourself against the bots, in the terminal.

    The table shows what each of its columns means once, at your first question; type ? at
    any question to see it again.

    Example: medici-sim play --game classic --players 4 --opponents expert,value,random --seat 2
    """
    from ..core import human

    game = get_game(game_name)
    if game.presentation.play_console is None:
        raise ConfigError(f"the {game.name} game has no table to play at (its registration names no play_console)")
    players = check_players(game, game.default_players if players is None else players)
    for plugin in plugins:
        load_plugin(plugin)
    opponents = game.built_ins[-1] if opponents is None else opponents
    if human.HUMAN in {token.partition(":")[0].strip() for token in opponents.split(",")}:
        raise ConfigError("--opponents: 'human' is you; name the bots' strategies")
    bots = list(parse_strategy_list(opponents, game.name, "opponents"))  # before `human` joins: never a bot
    if len(bots) == 1:
        bots *= players - 1
    if len(bots) != players - 1:
        raise ConfigError(f"--opponents: {players} players are you and {players - 1} bots: give 1 or "
                          f"{players - 1} strategies, got {len(bots)}")
    human.register_human(game)  # only this command seats `human`
    if seed is None:
        seed = secrets.randbelow(1 << 31)
    me = choose_seat(seat, players, seed)
    slots = bots[:me] + [seat_strategy(human.HUMAN, game.name)] + bots[me:]
    config = RunConfig(components=load_game_components(game, None), players=players, strategies=tuple(slots), games=1,
                       seed=seed, rules=game.presets[0] if rules is None else rules, seating="fixed",
                       threads=1, game=game.name)  # one play loop for any bots: only their decisions compile
    kernel = PreparedRun(config)
    def say(text: str) -> None:
        echo_text(text, wide)

    table = game.presentation.play_console()(kernel, me, [s.label for s in slots], say, ask)
    others = ", ".join(f"seat {p + 1} {slots[p].label}" for p in range(players) if p != me)
    say(f"{game.title}: you sit at seat {me + 1} of {players} ({first_seat(game)}). Opponents: {others}.")
    say(f"Rules: {game.presentation.rules_page}. Seed {seed}: replay with medici-sim play --game {game.name} "
        f"--players {players} --opponents {','.join(b.label for b in bots)} --seat {me + 1} --seed {seed}"
        + (f" --rules {shlex.quote(config.rules)}" if config.rules != game.presets[0] else "")
        + (" --wide" if wide else "") + ". Ctrl-C leaves.")
    try:  # a person's game cannot be played again: a bot that fails is named without its seat
        with compile_notice(kernel) as begun, human.seated(FirstWord(table, begun)), \
                kernel.naming_failures(passing=LEAVING):
            table.play()
    except (KeyboardInterrupt, *LEAVING):
        click.echo("")
        click.echo("medici-sim play: goodbye (you left the game)", err=True)
        sys.exit(signals.interrupted_code())  # 130 at the end of input too
    click.echo("")
    say(table.standings())
