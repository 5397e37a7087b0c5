"""Component sets (T1-T9): what the box holds, as a data file a box owner can replace.

A component set is a JSON file (``data/reconstructed.json`` is the shipped default, a
reconstruction; docs/rules-tuscany.md, "The component file", shows a complete example):

* ``format``: ``"tuscany-components 1"``; ``name``: a short name; ``note``: optional prose;
* ``player_tiles`` and ``neutral_tiles`` (T1, T2): colour letter -> tiles of that kind;
* ``player_agriculture`` and ``neutral_agriculture`` (T8): one list of types per L tile,
  each of olives, grapes, grain, livestock;
* ``region_cards`` (T5): colour letter -> cards; ``yield_cards`` (T6): a list of
  ``{"count", "kind", "amount"}`` with kind one of :data:`YIELD_KINDS`;
* ``colour_bonus`` (T7): colour letter -> [front, back] green points;
* ``boards`` (T9): board name (its type letter A, B or C, then a number) -> its two rows of
  five colour letters; ``slot_shift`` (T9): how many columns each board sits from the one above
  (geometry.py; -1 in the reconstruction, 2 or -3 for boards touching along 3 fields).

Loading checks everything, and each fault is one line naming it (:class:`ComponentError`, a
ValueError): wrong counts, unknown colours or kinds, a board without 10 fields, a triple of
boards (one per type) without a legal assembly or a dark-green field for the castle, values
out of range. Every colour letter must be listed in each colour map (0 where none).
"""
from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from ...core.arguments import ComponentsError
from ...core.output import OutputError, read_limited
from .geometry import BOARD_FIELDS, BOARD_TYPES, COLUMNS, ROWS, SHIFTS, legal_assemblies
from .rules import AGRICULTURE, CASTLE, COLOURS, MAX_PLAYERS

FORMAT = "tuscany-components 1"
DEFAULT = "reconstructed"
AGRICULTURE_TYPES = ("olives", "grapes", "grain", "livestock")  # T8, bit i of a tile's type mask
YIELD_KINDS = ("green", "red", "cards", "marble", "worker", "hexagon")  # T6
YIELD_GREEN, YIELD_RED, YIELD_CARDS, YIELD_MARBLE, YIELD_WORKER, YIELD_HEXAGON = range(len(YIELD_KINDS))
KEYS = ("format", "name", "note", "player_tiles", "player_agriculture", "neutral_tiles", "neutral_agriculture",
        "region_cards", "yield_cards", "colour_bonus", "slot_shift", "boards")
MAX_TILES = 60  # of one kind
MAX_CARDS = 500  # of one colour
MAX_COUNT = 100  # of one yield card
MAX_AMOUNT = 20  # a yield card's reward
MAX_BONUS = 50  # a colour bonus value
MAX_BOARDS = 20  # of one type
MAX_BYTES = 1 << 20


class ComponentError(ComponentsError):
    """A component set that cannot be played; the message names the entry at fault, in one line."""


@dataclass(frozen=True)
class YieldCard:
    count: int
    kind: int  # index into YIELD_KINDS
    amount: int


@dataclass(frozen=True)
class Board:
    name: str
    type: int  # index into BOARD_TYPES
    cells: str  # 10 colour letters, row 0 then row 1


@dataclass(frozen=True)
class Components:
    """A checked component set; the tuples per colour follow COLOURS."""

    name: str
    note: str
    player_tiles: tuple[int, ...]
    player_agriculture: tuple[int, ...]  # one type mask per player L tile
    neutral_tiles: tuple[int, ...]
    neutral_agriculture: tuple[int, ...]
    region_cards: tuple[int, ...]
    yield_cards: tuple[YieldCard, ...]
    colour_bonus: tuple[tuple[int, int], ...]
    slot_shift: int
    boards: tuple[Board, ...]

    def boards_of_type(self, board_type: int) -> tuple[Board, ...]:
        return tuple(b for b in self.boards if b.type == board_type)

    def content(self) -> dict:
        """The set as its file writes it, without name and note."""
        def by_colour(values):
            return dict(zip(COLOURS, values, strict=True))

        def types(masks):
            return [[t for i, t in enumerate(AGRICULTURE_TYPES) if mask >> i & 1] for mask in masks]

        return {"format": FORMAT, "player_tiles": by_colour(self.player_tiles),
                "player_agriculture": types(self.player_agriculture), "neutral_tiles": by_colour(self.neutral_tiles),
                "neutral_agriculture": types(self.neutral_agriculture), "region_cards": by_colour(self.region_cards),
                "yield_cards": [{"count": c.count, "kind": YIELD_KINDS[c.kind], "amount": c.amount}
                                for c in self.yield_cards],
                "colour_bonus": {c: list(v) for c, v in zip(COLOURS, self.colour_bonus, strict=True)},
                "slot_shift": self.slot_shift,
                "boards": {b.name: [b.cells[:COLUMNS], b.cells[COLUMNS:]] for b in self.boards}}

    def to_json(self) -> str:
        return json.dumps({"name": self.name, "note": self.note, **self.content()}, indent=2) + "\n"

    def fingerprint(self) -> str:
        """A short hash of the contents (not the name or note), for run records."""
        return hashlib.sha256(json.dumps(self.content(), sort_keys=True).encode()).hexdigest()[:16]

    @property
    def n_cards(self) -> int:
        """The cards it holds, region and yield (core.contract.Components)."""
        return self.n_region_cards + self.n_yield_cards

    def to_csv(self) -> str:
        """Its file's text (core.contract.Components: what a checkpoint keeps; JSON, whatever the name)."""
        return self.to_json()

    def shortage_warning(self, players: int) -> str | None:
        """None: running out is part of the rules (T15: the stacks end the phases; T16, T23 reshuffle)."""
        return None

    @property
    def n_region_cards(self) -> int:
        return sum(self.region_cards)

    @property
    def n_yield_cards(self) -> int:
        return sum(c.count for c in self.yield_cards)


# ---------------------------------------------------------------- checking, one entry at a time

def _int(value, what: str, low: int, high: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ComponentError(f"{where}: {what} must be a whole number, got {json.dumps(value)}")
    if not low <= value <= high:
        raise ComponentError(f"{where}: {what}={value} is out of range {low}-{high}")
    return value


def _colour_map(data: dict, key: str, where: str, check) -> tuple:
    value = data[key]
    if not isinstance(value, dict):
        raise ComponentError(f"{where}: {key} must map each colour letter ({COLOURS}) to a value")
    unknown = [c for c in value if c not in COLOURS]
    if unknown:
        raise ComponentError(f"{where}: {key} names an unknown colour {unknown[0]!r} (colours: {COLOURS})")
    missing = [c for c in COLOURS if c not in value]
    if missing:
        raise ComponentError(f"{where}: {key} lacks colour {missing[0]!r} (list every colour of {COLOURS}, 0 if none)")
    return tuple(check(value[c], f"{key} {c}") for c in COLOURS)


def _agriculture(data: dict, key: str, tiles: int, where: str) -> tuple[int, ...]:
    value = data[key]
    if not isinstance(value, list) or len(value) != tiles:
        length = len(value) if isinstance(value, list) else "not a list"
        raise ComponentError(f"{where}: {key} needs one list of types per L tile ({tiles}), got {length}")
    masks = []
    for n, types in enumerate(value, start=1):
        if not isinstance(types, list) or not types or len(set(map(str, types))) != len(types):
            raise ComponentError(f"{where}: {key} tile {n} must be a list of 1-4 different types "
                                 f"({', '.join(AGRICULTURE_TYPES)}), got {json.dumps(types)}")
        unknown = [t for t in types if t not in AGRICULTURE_TYPES]
        if unknown:
            raise ComponentError(f"{where}: {key} tile {n} shows an unknown type {json.dumps(unknown[0])} "
                                 f"(types: {', '.join(AGRICULTURE_TYPES)})")
        masks.append(sum(1 << AGRICULTURE_TYPES.index(t) for t in types))
    return tuple(masks)


def _yield_cards(value, where: str) -> tuple[YieldCard, ...]:
    if not isinstance(value, list) or not value:
        raise ComponentError(f"{where}: yield_cards must be a non-empty list of {{count, kind, amount}}")
    cards = []
    for n, card in enumerate(value, start=1):
        at = f"{where}: yield_cards entry {n}"
        if not isinstance(card, dict) or sorted(card) != ["amount", "count", "kind"]:
            raise ComponentError(f"{at} must have exactly count, kind and amount, got {json.dumps(card)}")
        if card["kind"] not in YIELD_KINDS:
            raise ComponentError(f"{at}: unknown kind {json.dumps(card['kind'])} (kinds: {', '.join(YIELD_KINDS)})")
        cards.append(YieldCard(_int(card["count"], "count", 1, MAX_COUNT, at), YIELD_KINDS.index(card["kind"]),
                               _int(card["amount"], "amount", 1, MAX_AMOUNT, at)))
    return tuple(cards)


def _boards(value, shift: int, where: str) -> tuple[Board, ...]:
    if not isinstance(value, dict):
        raise ComponentError(f"{where}: boards must map each board's name (A1, B2, ...) to its two rows")
    boards = []
    for name, rows in value.items():
        at = f"{where}: board {name}"
        if not re.fullmatch(r"[ABC][0-9]{1,2}", name):
            raise ComponentError(f"{at}: a board's name is its type (A, B or C) and a number, e.g. A1")
        if (not isinstance(rows, list) or len(rows) != ROWS or not all(isinstance(r, str) for r in rows)
                or any(len(r) != COLUMNS for r in rows)):
            raise ComponentError(f"{at} must have {BOARD_FIELDS} fields: {ROWS} rows of {COLUMNS} colour letters, "
                                 f"got {json.dumps(rows)}")
        unknown = [c for c in "".join(rows) if c not in COLOURS]
        if unknown:
            raise ComponentError(f"{at}: unknown colour {unknown[0]!r} (colours: {COLOURS})")
        boards.append(Board(name, BOARD_TYPES.index(name[0]), "".join(rows)))
    for t, letter in enumerate(BOARD_TYPES):
        count = sum(b.type == t for b in boards)
        if not MAX_PLAYERS <= count <= MAX_BOARDS:
            raise ComponentError(f"{where}: {count} boards of type {letter}; each type needs "
                                 f"{MAX_PLAYERS}-{MAX_BOARDS} (one per player, T9)")
    _check_triples(tuple(boards), shift, where)
    return tuple(sorted(boards, key=lambda b: (b.type, b.name)))


def _check_triples(boards: tuple[Board, ...], shift: int, where: str) -> None:
    """T9, T12: every triple of boards, one per type, has a legal assembly and a castle field."""
    by_type = [[b for b in boards if b.type == t] for t in range(len(BOARD_TYPES))]
    for triple in itertools.product(*by_type):
        names = "+".join(b.name for b in triple)
        cells = tuple(b.cells for b in triple)
        if COLOURS[CASTLE] not in "".join(cells):
            raise ComponentError(f"{where}: boards {names} have no dark-green (D) field for the starting castle (T12)")
        if not legal_assemblies(cells, shift):
            raise ComponentError(f"{where}: boards {names} have no legal assembly: every one of the 48 makes a "
                                 "region of more than 3 fields (T9)")


def parse_components(text: str | bytes, where: str) -> Components:
    """Check a component file's text (or its UTF-8 bytes); ComponentError names the first fault, in one line."""
    try:
        data = json.loads(text.decode("utf-8-sig") if isinstance(text, bytes) else text)
    except UnicodeDecodeError:
        raise ComponentError(f"{where}: not a UTF-8 text file") from None
    except json.JSONDecodeError as exc:
        raise ComponentError(f"{where}: not a valid JSON file ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise ComponentError(f"{where}: a component file is one JSON object with the keys {', '.join(KEYS)}")
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise ComponentError(f"{where}: unknown key {unknown[0]!r} (keys: {', '.join(KEYS)})")
    missing = [k for k in KEYS if k not in data and k != "note"]
    if missing:
        raise ComponentError(f"{where}: missing key {missing[0]!r}")
    if data["format"] != FORMAT:
        raise ComponentError(f"{where}: format must be {FORMAT!r}, got {json.dumps(data['format'])}")
    name, note = data["name"], data.get("note", "")
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}", name):
        raise ComponentError(f"{where}: name must be 1-40 letters, digits, '-', '_' or '.', got {json.dumps(name)}")
    if not isinstance(note, str):
        raise ComponentError(f"{where}: note must be text")

    def tiles(v, what):
        return _int(v, what, 0, MAX_TILES, where)

    player_tiles = _colour_map(data, "player_tiles", where, tiles)
    if sum(player_tiles) < 3:
        raise ComponentError(f"{where}: player_tiles holds {sum(player_tiles)} tiles; three stacks need 3 or more")
    neutral_tiles = _colour_map(data, "neutral_tiles", where, tiles)
    region_cards = _colour_map(data, "region_cards", where, lambda v, what: _int(v, what, 0, MAX_CARDS, where))
    if sum(region_cards) == 0:
        raise ComponentError(f"{where}: region_cards holds no card (T5)")

    def bonus(v, what):
        if not isinstance(v, list) or len(v) != 2:
            raise ComponentError(f"{where}: {what} must be [front, back] (T7), got {json.dumps(v)}")
        return _int(v[0], what + " front", 0, MAX_BONUS, where), _int(v[1], what + " back", 0, MAX_BONUS, where)

    shift = _int(data["slot_shift"], "slot_shift", SHIFTS[0], SHIFTS[-1], where)
    return Components(
        name=name, note=note, player_tiles=player_tiles,
        player_agriculture=_agriculture(data, "player_agriculture", player_tiles[AGRICULTURE], where),
        neutral_tiles=neutral_tiles,
        neutral_agriculture=_agriculture(data, "neutral_agriculture", neutral_tiles[AGRICULTURE], where),
        region_cards=region_cards, yield_cards=_yield_cards(data["yield_cards"], where),
        colour_bonus=_colour_map(data, "colour_bonus", where, bonus), slot_shift=shift,
        boards=_boards(data["boards"], shift, where))


def load_components(path: str | Path) -> Components:
    """Read and check a component file; any problem (missing, unreadable, too large, not
    text, invalid) is a ComponentError naming the file."""
    try:
        content = read_limited(Path(path), MAX_BYTES, "components")
    except OutputError as exc:
        raise ComponentError(str(exc)) from None
    return parse_components(content, f"components {path}")


class _Shipped(Mapping):
    """The shipped sets by name, each read and checked when first asked for (checking a set's boards takes a
    tenth of a second or more: a command's help, which lists the names, reads none)."""

    def __init__(self):
        self._names = sorted((e.name[:-len(".json")] for e in _DATA.iterdir() if e.name.endswith(".json")),
                             key=lambda n: (n != DEFAULT, n))

    def __iter__(self):
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __getitem__(self, name: str) -> Components:
        if name not in self._names:
            raise KeyError(name)
        return _shipped(name)


_DATA = resources.files(__package__).joinpath("data")


@cache
def _shipped(name: str) -> Components:
    return parse_components(_DATA.joinpath(f"{name}.json").read_text("utf-8"), f"components {name}")


@cache
def named_components() -> Mapping[str, Components]:
    """The shipped component sets by name (``data/NAME.json``), the default first. Every one
    is a reconstruction; its note says how."""
    return _Shipped()


def components(name_or_path: str | Path | None = None) -> Components:
    """A shipped set by name (None: the default), else the file at that path."""
    shipped = named_components()
    if name_or_path is None:
        return shipped[DEFAULT]
    if str(name_or_path) in shipped:
        return shipped[str(name_or_path)]
    return load_components(name_or_path)


def of_run(config) -> Components:
    """A run's component set (core.driver.RunConfig): the one it names, else the default."""
    return config.components if config.components is not None else components()
