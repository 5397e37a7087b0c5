"""The options of the scripts in benchmarks/ and scripts/, checked before any work.

Every script parses its options with :class:`Parser` and these types, so a bad value is one
line naming the option (``bench_engine.py: error: argument --games: must be a whole number
from 1 to 1000000000000, got 0``) and exit code 2, before a kernel compiles or a game is
played, never a traceback or a silently corrected value.
"""
from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from ..core.output import OutputError, check_writable

MAX_COUNT = 10**12
MAX_SEED = 2**63 - 1


class Parser(argparse.ArgumentParser):
    """argparse's parser whose errors are one line (no usage block): ``PROG: error: MESSAGE``, exit 2."""

    def __init__(self, doc: str | None = None, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(description=doc, **kwargs)

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")

    def refuse(self, option: str, message: str):
        """An option's value that only a check after parsing can refuse (it depends on another's)."""
        self.error(f"argument {option}: {message}")


def _typed(function: Callable[[str], object], name: str):
    function.__name__ = name  # argparse names the type in its own messages
    return function


def count(low: int = 1, high: int = MAX_COUNT):
    """A whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip().replace("_", ""))
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}, got {text!r}")
        return value

    return _typed(parse, "count")


def counts(low: int = 1, high: int = MAX_COUNT):
    """A comma list of whole numbers, each from ``low`` to ``high``: ``8,32,128``."""
    one = count(low, high)

    def parse(text: str) -> list[int]:
        items = text.split(",")
        try:
            return [one(item) for item in items]
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(f"must be whole numbers from {low} to {high}, comma-separated, "
                                             f"got {text!r}") from None

    return _typed(parse, "counts")


def seed(text: str) -> int:
    """A master seed: 0 to 2**63-1."""
    return count(0, MAX_SEED)(text)


def number(low: float, high: float = math.inf, above: bool = False):
    """A number from ``low`` (``above``: more than ``low``) to ``high``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not ((low < value) if above else (low <= value)) or not value <= high:
            bound = (f"above {low:g}" if above else f"at least {low:g}") + ("" if high == math.inf else
                                                                            f" and at most {high:g}")
            raise argparse.ArgumentTypeError(f"must be a number {bound}, got {text!r}")
        return value

    return _typed(parse, "number")


def out_file(text: str) -> Path:
    """A file the script will write: in a directory that exists, not a directory itself (a name
    ending in / names one), and writable; checked before the work that makes it."""
    if text.endswith(("/", os.sep)) or os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} names a directory; give a file name")
    parent = Path(text).parent
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: the directory {parent} does not exist")
    try:
        return check_writable("file", Path(text))
    except OutputError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("file ")) from None


def in_file(text: str) -> Path:
    """A file the script reads: a regular file that exists."""
    if not Path(text).is_file():  # a directory or a device exists: it is not "no such file"
        what = "not a regular file" if os.path.exists(text) else "no such file"
        raise argparse.ArgumentTypeError(f"{text}: {what}")
    return Path(text)


def package_dir(text: str) -> str:
    """A directory holding a medici_sim package (another checkout's ``src``), to play it instead of the installed
    one (``PYTHONPATH``)."""
    if not (Path(text) / "medici_sim" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"{text} holds no medici_sim package")
    return text


def check_players(parser: Parser, counts: Iterable[int] | None, game_names: Iterable[str], option: str = "--players"):
    """Refuse a player count that one of the games named does not have."""
    from .. import games  # noqa: F401  the games register themselves
    from ..core.registry import get_game

    for name in game_names:
        game = get_game(name)
        for players in counts or ():
            if not game.min_players <= players <= game.max_players:
                parser.refuse(option, f"the {name} game has {game.min_players} to {game.max_players} players, "
                                      f"got {players}")
