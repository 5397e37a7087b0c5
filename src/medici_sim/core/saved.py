"""Checking values read back from a saved file (a checkpoint): structure, types and ranges.

Every check raises :class:`Invalid` with one line naming where the value sits
(``configuration.tournaments[0].seed``) and what it is; the reader puts the file's name
in front (``checkpoint.read``).
"""
from __future__ import annotations

import json

MAX_INT = 2**63 - 1  # the statistics are int64 sums


class Invalid(Exception):
    """What is wrong with a saved value (the reader puts ``--resume PATH:`` in front)."""


def check_keys(value, where: str, expected: tuple[str, ...]) -> None:
    if type(value) is not dict:
        raise Invalid(f"{where} is {show(value)}, not an object")
    for key in expected:
        if key not in value:
            raise Invalid(f"{where} lacks {show(key)}")
    for key in value:
        if key not in expected:
            raise Invalid(f"{where} has an unexpected key {show(key)}")


def whole_number(value, where: str, low: int, high: int) -> int:
    if type(value) is not int:
        raise Invalid(f"{where} is {show(value)}, not a whole number")
    if not low <= value <= high:
        raise Invalid(f"{where} is {show(value)}, outside {low}..{high}")
    return value


def int_vector(value, where: str, length: int, what: str) -> list[int]:
    if type(value) is not list:
        raise Invalid(f"{where} is {show(value)}, not a list")
    if len(value) != length:
        raise Invalid(f"{where} has {len(value)} entries, but {what} has {length}")
    for j, entry in enumerate(value):
        whole_number(entry, f"{where}[{j}]", 0, MAX_INT)
    return value


def int_matrix(value, where: str, rows: int, columns: int, what: str) -> list[list[int]]:
    if type(value) is not list:
        raise Invalid(f"{where} is {show(value)}, not a list")
    if len(value) != rows:
        raise Invalid(f"{where} has {len(value)} rows, but {what} has {rows}")
    for i, row in enumerate(value):
        int_vector(row, f"{where}[{i}]", columns, what)
    return value


def choice(value, where: str, choices: tuple[str, ...], what: str) -> str:
    if type(value) is not str or value not in choices:
        raise Invalid(f"{where} is {show(value)}, not one of {what} ({', '.join(choices)})")
    return value


def show(value) -> str:
    """A value from the checkpoint, shortened, on one line."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def as_text(value) -> str:
    """A path or name as given, unless it holds characters that would break the line."""
    text = str(value)
    return text if text.isprintable() else json.dumps(text)


def one_line(message: str) -> str:
    return " ".join(message.splitlines())
