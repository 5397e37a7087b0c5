"""``medici-sim compile``: compile ahead what the commands a new user runs first will compile.

numba compiles a kernel the first time a run needs it and caches its machine code on disk (core.cache). Each
game names the commands its new users run first (``Presentation.first_commands``: the README's table), and
this command runs each of them once, on a few games, output dropped, so that their real first run loads its
kernels from the cache. Building the package runs it (``setup.py``): pip's wheel then carries the machine
code, compiled on the machine that installs it, and ``pip install .`` is followed by no long compile.

The games are compiled side by side, one process a game at a time, each game's commands in turn (they share
most of what they compile).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import click

from ..core.contract import FirstCommand
from ..core.registry import GAMES
from .common import Command, fail

AHEAD_GAMES = "16"  # the games each command plays when compiled ahead: its code, not its answer, is wanted


def first_commands() -> dict[str, tuple[FirstCommand, ...]]:
    """Each game's first commands (the games without any left out)."""
    return {name: game.presentation.first_commands for name, game in GAMES.items() if game.presentation.first_commands}


def ahead(command: FirstCommand) -> list[str]:
    """The command's words with its number of games cut to AHEAD_GAMES (what it compiles does not depend on it)."""
    words = list(command.args)
    for k, word in enumerate(words[:-1]):
        if word in ("--games", "-n"):
            words[k + 1] = AHEAD_GAMES
    return words


class FirstRuns:
    """The first commands run ahead, each in a process of its own; :meth:`stop` ends those under way and
    starts no more (Ctrl-C: the command then leaves as every command does)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._running: set[subprocess.Popen] = set()
        self._stopped = False

    def run(self, command: FirstCommand) -> str | None:
        """Run ``command`` ahead: "" or what went wrong (None: stopped before it ended)."""
        env = {k: v for k, v in os.environ.items() if k != "MEDICI_SIM_KERNEL"}  # a run's own kernel, as a user's
        with self._lock:
            if self._stopped:
                return None
            # -P: the installed package (or PYTHONPATH's), never a medici_sim in the working directory
            process = subprocess.Popen([sys.executable, "-P", "-m", "medici_sim", *ahead(command)], env=env,
                                       stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                       text=True)
            self._running.add(process)
        try:
            _, err = process.communicate(command.typed)
        finally:
            with self._lock:
                self._running.discard(process)
        if self._stopped:
            return None
        if process.returncode == command.exit_code:
            return ""
        if process.returncode < 0:  # the out-of-memory killer, say
            last = f"killed by {signal.Signals(-process.returncode).name}"
        else:
            last = (err.strip().splitlines() or [f"exit code {process.returncode}"])[-1]
        return f"medici-sim {' '.join(ahead(command))} failed: {last}"

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            for process in self._running:
                process.terminate()


@click.command("compile", cls=Command)
@click.option("--game", "game_names", multiple=True, type=click.Choice(sorted(first_commands())),
              help="Only this game's commands (repeatable) [every game's].")
@click.option("--only", "labels", multiple=True, metavar="LABEL",
              type=click.Choice([c.label for listed in first_commands().values() for c in listed]),
              help="Only this command, by its label (repeatable) [every one].")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Games compiled at once [default: one a core].")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
def compile_command(game_names, labels, jobs, quiet):
    """Compile ahead the kernels of the commands a new user runs first (the README's table), so that none of
    them starts with a long compile. Installing the package runs it; run it again after changing numba, numpy
    or the package's sources, or with NUMBA_CACHE_DIR set to fill that cache. Exit code 2 if a command fails."""
    chosen = {name: tuple(c for c in commands if not labels or c.label in labels)
              for name, commands in first_commands().items() if not game_names or name in game_names}
    chosen = {name: commands for name, commands in chosen.items() if commands}
    if not chosen:
        owners = {c.label: name for name, listed in first_commands().items() for c in listed}
        fail(f"--only {', '.join(labels)} and --game {', '.join(game_names)} choose no command (" +
             ", ".join(f"{label} is {owners[label]}'s" for label in labels) + ")")
    workers = min(jobs or os.cpu_count() or 1, len(chosen))
    runs, failures = FirstRuns(), []

    def compile_game(commands: tuple[FirstCommand, ...]) -> None:
        for command in commands:
            start = time.monotonic()
            failure = runs.run(command)
            if failure is None:
                return
            if failure:
                failures.append(failure)
            elif not quiet:
                click.echo(f"compiled {command.label} ({time.monotonic() - start:.0f} s)", err=True)

    pool = ThreadPoolExecutor(workers)
    try:
        list(pool.map(compile_game, chosen.values()))
    finally:  # Ctrl-C included: the commands under way end, no other starts
        runs.stop()
        pool.shutdown(wait=True)
    if failures:
        fail(failures[0] + (f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""))
