"""The arguments of a run, checked once for the command line and the Python API alike.

Every option of the command line is an argument of the Python API's function of the same
name (``--games-per-eval`` is ``games_per_eval=``, ``--plugin`` is ``plugins=``). The
checks here serve both, so neither can accept what the other refuses; a message names the
argument as its caller knows it: the command line's option (``--games``), or, while the
Python API runs (``naming(api=True)``), the function's argument (``games=``).

Python values are checked as strictly as the command line reads its text: a whole number is
an int (not a bool, not 10.5), a name is a str, a list of files is a list (one file alone,
a str or a path, is a list of one: never its characters).
"""
from __future__ import annotations

import numbers
import os
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar


class ConfigError(ValueError):
    """A run that cannot be set up; the message says what is wrong, in one line."""


class MediciWarning(UserWarning):
    """Something the caller should know before trusting what is played (a strategy fitted to
    other rules, a swept rule that acts nowhere): one line, through ``warnings`` in Python and
    as ``medici-sim: warning: ...`` on the command line's stderr."""


def warn(message: str) -> None:
    """Say ``message`` once, as a :class:`MediciWarning`."""
    warnings.warn(message, MediciWarning, stacklevel=3)


class ComponentsError(ConfigError):
    """A component set (a game's file of its cards, tiles ..., or a shipped set's name) that cannot be used; the
    message names the offending entry. (``medici_sim.DeckError`` is its older name.)"""


# the options not named --<argument> (the API's ``rules``, a rules spec, is --rules or its alias --variant)
COMMAND_LINE = {"plugins": "--plugin", "strategy": "STRATEGY", "rules": "--rules"}
# (api, renamed) while a front end names the arguments (``naming``); None: none has said (the command line's words)
_NAMING: ContextVar[tuple[bool, Mapping[str, str]] | None] = ContextVar("medici_sim_naming", default=None)


def named(name: str) -> str:
    """Argument ``name`` as the caller wrote it: ``--games-per-eval`` on the command line,
    ``games_per_eval=`` in the Python API."""
    api, renamed = _NAMING.get() or (False, COMMAND_LINE)
    if name in renamed:
        return renamed[name]
    return f"{name}=" if api else "--" + name.replace("_", "-")


def in_api() -> bool:
    """Whether the Python API is running (its messages advise Python, not commands)."""
    return bool(_NAMING.get() and _NAMING.get()[0])


def in_command_line() -> bool:
    """Whether the command line named the arguments (``naming()`` around a command): an API
    function it calls keeps the command line's words (``--rules``, not ``rules=``)."""
    return _NAMING.get() is not None and not _NAMING.get()[0]


@contextmanager
def naming(api: bool = False, **renamed: str) -> Iterator[None]:
    """Name the arguments in messages, inside the block, as the API does (``api``) or the
    command line, with some of them renamed (check-plugin's file is its ``FILE``)."""
    token = _NAMING.set((api, renamed if api else {**COMMAND_LINE, **renamed}))
    try:
        yield
    finally:
        _NAMING.reset(token)


def whole(value, name: str) -> int:
    """A whole number: an int (numpy's too), not a bool and not a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ConfigError(f"{named(name)} must be a whole number, got {value!r}")
    return int(value)


def integer(value, name: str, low: int, high: int, shown_high: str | None = None) -> int:
    """A whole number from ``low`` to ``high`` (``shown_high``: how messages write ``high``)."""
    value = whole(value, name)
    if not low <= value <= high:
        raise ConfigError(f"{named(name)} must be between {low} and {shown_high or high}, got {value}")
    return value


def real(value, name: str) -> float:
    """A number (a whole one too), not a bool."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ConfigError(f"{named(name)} must be a number, got {value!r}")
    return float(value)


def text(value, name: str) -> str:
    """Text that is not blank."""
    if not isinstance(value, str):
        raise ConfigError(f"{named(name)} must be a str, got {value!r}")
    if not value.strip():
        raise ConfigError(f"{named(name)}: an empty value")
    return value


def file_name(value, name: str) -> str:
    """A file's name: a str or a path (``pathlib.Path``), not blank."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise ConfigError(f"{named(name)} must be a file name (a str or a path), got {value!r}")
    if not value.strip():
        raise ConfigError(f"{named(name)}: an empty file name")
    return value


def _items(value, name: str, what: str) -> list:
    if isinstance(value, (str, os.PathLike)):
        return [value]
    if not isinstance(value, Sequence) or isinstance(value, bytes):
        raise ConfigError(f"{named(name)} must be {what}, got {value!r}")
    return list(value)


def file_names(value, name: str) -> tuple[str, ...]:
    """Files: one (a str or a path) or a list of them."""
    return tuple(file_name(item, name) for item in _items(value, name, "a file name or a list of them"))


def comma_list(value, name: str) -> str:
    """Names as the command line writes them: a comma list (``"first,second"``) or a list of
    names (``["first", "second"]``), as one comma list."""
    items = _items(value, name, "a comma list of names or a list of names")
    for item in items:
        if not isinstance(item, str):
            raise ConfigError(f"{named(name)}: each name must be a str, got {item!r}")
    return text(",".join(items), name)


def counts(value, name: str) -> str:
    """Player counts as the command line writes them: ``"all"``, ``"3,4"``, a count or a list of counts."""
    if isinstance(value, str):
        return text(value, name)
    items = [value] if isinstance(value, numbers.Integral) else _items(value, name, "all, a count or a list of counts")
    if not items:
        raise ConfigError(f"{named(name)}: no player count")
    return ",".join(str(whole(item, name)) for item in items)
