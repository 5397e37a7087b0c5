"""What any game's narrator (``games/*/narrate.py``) and console (``games/*/console.py``) may
share: checking a replay against the kernel, and the words for counts, places and seats.

Plain Python; the rule citations come from the caller, so every game tells its own rules (a
family of games shares more in its own toolkit: games/medici/narration.py).
"""
from __future__ import annotations

from collections.abc import Sequence


class NarrationMismatch(AssertionError):
    """A narrator's replay of a game disagrees with the kernel's record of it (a bug)."""


def check(condition: bool, what: str, *, game: str) -> None:
    """Raise NarrationMismatch unless ``condition`` (kept under ``python -O``, unlike assert)."""
    if not condition:
        raise NarrationMismatch(f"{game} game narration: {what}")


def plural(count: int, noun: str, plural_noun: str = "") -> str:
    """A count and its noun, the noun in the plural unless the count is 1: "1 point", "0 cards",
    "2 lots" (``plural_noun`` where adding an s is wrong)."""
    return f"{count} {noun if count == 1 else plural_noun or noun + 's'}"


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def seats_text(seats: Sequence[int]) -> str:
    """1-based seats in words: "seat 2", "seats 1, 3 and 4"."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def number_text(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")
