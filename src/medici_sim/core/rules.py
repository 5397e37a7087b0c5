"""Rules as data: a game's rule parameters, its named presets, and rule sets parsed from specs.

A game declares its :class:`RuleBook`: every number of its rules a designer may change, as a
:class:`RuleParam` (a default per player count, an allowed range, the rule point, a one-line
meaning), and its presets (``standard`` first, then its variants; a preset sets only the
values it changes). A *spec* names a rule set: a comma list of presets and ``name=value``
items, applied left to right over the defaults (``PRESET,name=15``), or a TOML file of the
same (a spec ending in ``.toml``). Lists are written slash-separated (``payouts=30/20/10/0``).

A :class:`RuleSet` is the values in force at one player count. Its ``spec`` is canonical,
the same for every spec that gives the same values: the nearest preset, then the values
that differ from it, in the book's order (``name=2``, not ``standard,name=2``). So a value
given equal to its default at that player count *is* ``standard``, and a run, its checkpoint
and its tables name a rule set one way only.

Some parameters act only while another switches them on (a prize's size only while its
threshold is above 0): a game declares these as :class:`Dependency` data beside
its parameters, and :meth:`RuleSet.inert` names the parameters that change nothing under a
rule set. Two rule sets that differ only there play identical games (:func:`same_games`), and
a sweep or design of a parameter that is inert everywhere it goes measures nothing; both are
said before any game is played.
"""
from __future__ import annotations

import difflib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .output import OutputError, read_limited

Value = int | tuple[int, ...]
MAX_RULES_BYTES = 1 << 20  # a rules file is a few lines


class RulesError(ValueError):
    """A spec that names no playable rule set; the message says why, in one line."""


@dataclass(frozen=True)
class RuleParam:
    """One number (or list of numbers) of a game's rules."""

    name: str
    point: str  # the rule point it belongs to, e.g. "R18"
    meaning: str  # one line
    default: Callable[[int], Value]  # players -> the rulebook's value
    low: int  # every number of it lies in low..high
    high: int
    # a list's length: (players, the rule set's values so far) -> length; None: a single number
    length: Callable[[int, Mapping[str, Value]], int] | None = None
    length_help: str = ""  # the length in words, e.g. "one per place"

    def check(self, value: Value, players: int, values: Mapping[str, Value]) -> None:
        if self.length is None:
            if isinstance(value, tuple):
                raise RulesError(f"{self.name} is one number ({self.point}), got {format_value(value)}")
            numbers = (value,)
        else:
            numbers = value if isinstance(value, tuple) else (value,)
            wanted = self.length(players, values)
            if len(numbers) != wanted:
                raise RulesError(f"{self.name} needs {wanted} values at {players} players ({self.length_help}, "
                                 f"{self.point}), got {len(numbers)}: {format_value(value)}")
        for number in numbers:
            if not self.low <= number <= self.high:
                raise RulesError(f"{self.name}={format_value(value)} is out of range: each value "
                                 f"{self.low}-{self.high} ({self.point})")


@dataclass(frozen=True)
class Dependency:
    """Parameters that act only while another switches them on: ``params`` change nothing
    under a rule set whose values fail ``active``; ``switch`` names the parameter that turns
    them on, and ``how`` says how, in words (e.g. "the threshold above 0; a preset sets it")."""

    params: tuple[str, ...]
    switch: str
    active: Callable[[Mapping[str, Value]], bool] = field(hash=False, compare=False)
    how: str
    point: str = ""  # the rule point, e.g. "R19"

    def why(self, name: str) -> str:
        """Why ``name`` changes nothing while the switch is off, naming the switch."""
        point = f" ({self.point})" if self.point else ""
        return f"{name} acts only when {self.switch} switches it on{point}: set {self.how}"


@dataclass(frozen=True)
class RuleBook:
    """A game's rule parameters and presets (``presets``: name -> players -> the values it
    changes; the first is the rulebook's own rules)."""

    game: str
    players: tuple[int, int]  # the fewest and the most players the rules are written for
    params: tuple[RuleParam, ...]
    presets: Mapping[str, Callable[[int], Mapping[str, Value]]] = field(hash=False)
    # (players, values) -> why the values cannot be played together, or "" (e.g. a threshold no component set reaches)
    contradiction: Callable[[int, Mapping[str, Value]], str] | None = None
    preset_help: Mapping[str, str] = field(default_factory=dict, hash=False)  # preset -> its meaning
    dependencies: tuple[Dependency, ...] = ()  # parameters that act only while another switches them on

    def __post_init__(self):
        for dependency in self.dependencies:
            unknown = [n for n in (*dependency.params, dependency.switch) if n not in self.names]
            if unknown:
                raise ValueError(f"the {self.game} game's rule dependency names no parameter {unknown[0]!r}")

    def dependency(self, name: str) -> Dependency | None:
        """What switches parameter ``name`` on, or None: it always acts."""
        return next((d for d in self.dependencies if name in d.params), None)

    def inert(self, values: Mapping[str, Value]) -> dict[str, Dependency]:
        """The parameters that change nothing under ``values``, each with its switch."""
        return {name: d for d in self.dependencies if not d.active(values) for name in d.params}

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def param(self, name: str) -> RuleParam:
        return next(p for p in self.params if p.name == name)

    def defaults(self, players: int) -> dict[str, Value]:
        return {p.name: p.default(players) for p in self.params}

    def preset(self, name: str, players: int) -> dict[str, Value]:
        return {**self.defaults(players), **self.presets[name](players)}

    def resolve(self, spec: str | None, players: int, other_books: tuple[RuleBook, ...] = ()) -> RuleSet:
        """The rule set ``spec`` names at ``players`` (None or "": the rulebook's). RulesError
        for a spec that names none: an unknown name (``other_books``' names are called another
        game's), a bad value, a value out of range, a list of the wrong length, a contradiction."""
        if not self.players[0] <= players <= self.players[1]:
            raise RulesError(f"the {self.game} game's rules are for {self.players[0]}-{self.players[1]} players, "
                             f"not {players}")
        values = self.defaults(players)
        for name, value in _items(spec, self, other_books) if spec and spec.strip() else ():
            if name in self.presets:
                values.update(self.presets[name](players))
            else:
                values[name] = value
        for p in self.params:
            p.check(values[p.name], players, values)
        why = self.contradiction(players, values) if self.contradiction else ""
        if why:
            raise RulesError(why)
        return RuleSet(self, players, tuple(values.items()))


@dataclass(frozen=True)
class RuleSet:
    """A game's rule values at one player count."""

    book: RuleBook = field(compare=False, repr=False)
    players: int
    items: tuple[tuple[str, Value], ...]

    def __getitem__(self, name: str) -> Value:
        return dict(self.items)[name]

    @property
    def values(self) -> dict[str, Value]:
        return dict(self.items)

    @property
    def spec(self) -> str:
        """The canonical spec: the preset nearest these values (the rulebook's own left unsaid when
        values differ from it), then the values that differ, in the book's order."""
        values = self.values

        def differing(preset: str) -> list[str]:
            base = self.book.preset(preset, self.players)
            return [name for name in self.book.names if values[name] != base[name]]

        preset = min(self.book.presets, key=lambda name: len(differing(name)))  # ties: the earlier preset
        changes = [f"{name}={format_value(values[name])}" for name in differing(preset)]
        first = next(iter(self.book.presets))  # the rulebook's rules: named only when nothing differs
        return ",".join(changes if changes and preset == first else [preset, *changes])

    def inert(self) -> dict[str, Dependency]:
        """The parameters that change nothing under these rules (their switch is off), with their switch."""
        return self.book.inert(self.values)

    def effective(self) -> tuple[tuple[str, Value], ...]:
        """The values the games depend on: each inert parameter at its default (two rule sets with
        the same effective values play identical games)."""
        inert, defaults = self.inert(), self.book.defaults(self.players)
        return tuple((name, defaults[name] if name in inert else value) for name, value in self.items)

    def table(self) -> list[dict]:
        """One row per parameter: name, value, default, range, rule point, meaning."""
        defaults = self.book.defaults(self.players)
        return [{"name": p.name, "value": format_value(self[p.name]), "default": format_value(defaults[p.name]),
                 "range": f"{p.low}-{p.high}" + (" each" if p.length else ""), "point": p.point, "meaning": p.meaning}
                for p in self.book.params]


def same_games(a: RuleSet, b: RuleSet) -> str:
    """Why rule sets ``a`` and ``b`` (of one game, at one player count) play identical games, in
    words naming the rule that would make them differ; "" when they differ (or are one rule set)."""
    if a.items == b.items or a.effective() != b.effective():
        return ""
    values, others = a.values, b.values
    differing = [name for name in a.book.names if values[name] != others[name]]
    inert = {**a.inert(), **b.inert()}
    return "; ".join(inert[name].why(name) for name in differing)


def format_value(value: Value) -> str:
    return "/".join(map(str, value)) if isinstance(value, tuple) else str(value)


def _number(text: str, name: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise RulesError(f"{name}={text.strip()!r} is not a whole number") from None


def parse_value(text, name: str) -> Value:
    """A value as a spec or a TOML file writes it: a whole number, a slash list, or a TOML list."""
    if isinstance(text, bool):
        raise RulesError(f"{name} must be a whole number or a list of them, got {text!r}")
    if isinstance(text, int):
        return text
    if isinstance(text, list):
        return tuple(parse_value(item, name) if isinstance(item, int) else _number(str(item), name) for item in text)
    if not isinstance(text, str):
        raise RulesError(f"{name} must be a whole number or a list of them, got {text!r}")
    parts = text.split("/")
    return _number(parts[0], name) if len(parts) == 1 else tuple(_number(part, name) for part in parts)


def _items(spec: str, book: RuleBook, other_books: tuple[RuleBook, ...]) -> list[tuple[str, Value | None]]:
    """The spec's presets (value None) and name=value items, in order, names checked."""
    if spec.strip().lower().endswith(".toml"):
        items = _toml_items(Path(spec.strip()))
    else:
        items = []
        for item in spec.split(","):
            item = item.strip()
            if not item:
                raise RulesError(f"empty item in the rules {spec!r} (write presets and name=value, comma-separated)")
            name, sep, value = item.partition("=")
            items.append((name.strip(), parse_value(value, name.strip()) if sep else None))
    for name, value in items:
        _check_name(name, value, book, other_books)
    return items


def _toml_items(path: Path) -> list[tuple[str, Value | None]]:
    """A TOML rules file: ``presets = ["PRESET"]`` (optional, applied first) and name = value lines."""
    try:  # bounded, and only a regular file: /dev/zero would never end, a FIFO would block
        data = tomllib.loads(read_limited(path, MAX_RULES_BYTES, "the rules file").decode("utf-8"))
    except OutputError as exc:
        raise RulesError(str(exc)) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesError(f"the rules file {path} is not valid TOML: {exc}") from None
    presets = data.pop("presets", [])
    if isinstance(presets, str):
        presets = [presets]
    if not isinstance(presets, list) or not all(isinstance(p, str) for p in presets):
        raise RulesError(f"the rules file {path}: presets must be a list of preset names")
    return [(name, None) for name in presets] + [(name, parse_value(value, name)) for name, value in data.items()]


def _check_name(name: str, value, book: RuleBook, other_books: tuple[RuleBook, ...]) -> None:
    if value is None and name in book.presets:
        return
    if value is not None and name in book.names:
        return
    if value is None and name in book.names:
        raise RulesError(f"{name} needs a value: {name}=VALUE ({book.param(name).point})")
    if value is not None and name in book.presets:
        raise RulesError(f"{name} is a preset of the {book.game} game's rules: write it without a value")
    owner = next((other.game for other in other_books if name in other.names or name in other.presets), None)
    if owner:
        raise RulesError(f"{name} is a rule of the {owner} game, not of the {book.game} game "
                         f"(`medici-sim rules --game {book.game}` lists its rules)")
    known = list(book.presets) + list(book.names)
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    raise RulesError(f"unknown rule {name!r} in the {book.game} game{hint} (presets: {', '.join(book.presets)}; "
                     f"rules: {', '.join(book.names)})")
