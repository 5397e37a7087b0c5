"""Deck data: reading, validating (R5) and expanding deck files into card arrays (R1-R4).

A deck file is a CSV with one row per kind of card: ``count,good,icons,value,green``
(see ``data/default_deck.csv``). Lines starting with ``#`` are comments.
"""
from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from ...core.arguments import ComponentsError
from ...core.output import OutputError, read_limited
from .rules import DAYS, GOODS, NO_GOOD, ship_capacity

COLUMNS = ("count", "good", "icons", "value", "green")
MAX_CARDS = 1_000  # the engine's arrays are this size; far above any real deck (110)
MAX_VALUE = 1_000_000
MAX_DECK_BYTES = 1 << 20  # a real deck file is a few hundred bytes
_TRUE = {"yes", "y", "true", "1"}
_FALSE = {"no", "n", "false", "0"}


@dataclass(frozen=True)
class CardKind:
    count: int
    good: int  # index into GOODS, or NO_GOOD
    icons: int
    value: int
    green: bool

    @property
    def good_name(self) -> str:
        return "none" if self.good == NO_GOOD else GOODS[self.good]


@dataclass(frozen=True)
class Deck:
    name: str
    kinds: tuple[CardKind, ...]

    @property
    def n_cards(self) -> int:
        return sum(k.count for k in self.kinds)

    @property
    def n_non_green(self) -> int:
        return sum(k.count for k in self.kinds if not k.green)

    def card_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(good, icons, value, green) per card id; ids follow the file's rows (protocol)."""
        counts = [k.count for k in self.kinds]
        good = np.repeat([k.good for k in self.kinds], counts).astype(np.int64)
        icons = np.repeat([k.icons for k in self.kinds], counts).astype(np.int64)
        value = np.repeat([k.value for k in self.kinds], counts).astype(np.int64)
        green = np.repeat([int(k.green) for k in self.kinds], counts).astype(np.int64)
        return good, icons, value, green

    def to_csv(self) -> str:
        rows = [",".join(COLUMNS)]
        rows += [f"{k.count},{k.good_name},{k.icons},{k.value},{'yes' if k.green else 'no'}" for k in self.kinds]
        return "\n".join(rows) + "\n"

    def fingerprint(self) -> str:
        """A short hash of the deck's contents (not its name), for run records."""
        return hashlib.sha256(self.to_csv().encode()).hexdigest()[:16]

    def shortage_warning(self, players: int) -> str | None:
        """R5: too few non-green cards to fill every ship for three days is only a warning."""
        needed = players * ship_capacity(players) * DAYS
        if self.n_non_green < needed:
            return (f"deck {self.name} has {self.n_non_green} non-green cards, fewer than "
                    f"{needed} needed to fill {players} ships for {DAYS} days; days may run out (R12)")
        return None


def _parse_int(text: str, what: str, where: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ComponentsError(f"{where}: {what} must be an integer, got {text.strip()!r}") from None


def _parse_row(fields: list[str], where: str) -> CardKind:
    if len(fields) != len(COLUMNS):
        raise ComponentsError(f"{where}: expected {len(COLUMNS)} fields ({','.join(COLUMNS)}), got {len(fields)}")
    count_s, good_s, icons_s, value_s, green_s = (f.strip() for f in fields)
    count = _parse_int(count_s, "count", where)
    if count <= 0:
        raise ComponentsError(f"{where}: count must be a positive integer, got {count}")
    good_name = good_s.lower()
    if good_name in ("none", ""):
        good = NO_GOOD
    elif good_name in GOODS:
        good = GOODS.index(good_name)
    else:
        raise ComponentsError(f"{where}: unknown good {good_s!r} (known: {', '.join(GOODS)}, none)")
    icons = _parse_int(icons_s, "icons", where)
    if not 0 <= icons <= 2:
        raise ComponentsError(f"{where}: icons must be 0, 1 or 2 (R1), got {icons}")
    if good != NO_GOOD and icons == 0:
        raise ComponentsError(f"{where}: a {good_name} card must show at least one icon (R5)")
    if good == NO_GOOD and icons != 0:
        raise ComponentsError(f"{where}: a card with no good cannot show icons (R5)")
    value = _parse_int(value_s, "value", where)
    if not 0 <= value <= MAX_VALUE:
        raise ComponentsError(f"{where}: value must be between 0 and {MAX_VALUE}, got {value}")
    green_name = green_s.lower()
    if green_name not in _TRUE | _FALSE:
        raise ComponentsError(f"{where}: green must be yes or no, got {green_s!r}")
    return CardKind(count, good, icons, value, green_name in _TRUE)


def parse_deck(text: str, name: str) -> Deck:
    """Parse and validate deck CSV text (R5); raise DeckError naming the bad entry."""
    kinds: list[CardKind] = []
    header_seen = False
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # any line endings
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as exc:
        raise ComponentsError(f"deck {name}: not a valid CSV file ({exc})") from None
    for lineno, fields in enumerate(rows, start=1):
        if not fields or not "".join(fields).strip() or fields[0].lstrip().startswith("#"):
            continue
        where = f"deck {name}, line {lineno}"
        if not header_seen:
            header = tuple(f.strip().lower() for f in fields)
            if header != COLUMNS:
                raise ComponentsError(f"{where}: expected the header {','.join(COLUMNS)}, got {','.join(fields)!r}")
            header_seen = True
            continue
        kinds.append(_parse_row(fields, where))
    if not kinds:
        raise ComponentsError(f"deck {name}: no cards (expected a header {','.join(COLUMNS)} and one row per kind "
                              "of card)")
    deck = Deck(name, tuple(kinds))
    if deck.n_cards > MAX_CARDS:
        raise ComponentsError(f"deck {name}: {deck.n_cards} cards, more than the {MAX_CARDS} allowed")
    return deck


def load_deck(path: str | Path) -> Deck:
    """Read a deck file; any problem (missing, unreadable, not a regular file, far too large,
    not text, invalid) is a DeckError."""
    path = Path(path)
    try:
        text = read_limited(path, MAX_DECK_BYTES, "deck").decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ComponentsError(f"deck {path}: not a UTF-8 text file") from None
    except OutputError as exc:
        raise ComponentsError(str(exc)) from None
    if "\x00" in text:
        raise ComponentsError(f"deck {path}: not a text file")
    return parse_deck(text, path.name)


def default_deck() -> Deck:
    """The reconstructed 110-card deck shipped with the package (R4)."""
    text = resources.files(__package__).joinpath("data/default_deck.csv").read_text("utf-8")
    return parse_deck(text, "default (R4 reconstruction)")


# ---------------------------------------------------------------- shipped decks by name

SHIPPED_PREFIX = "deck-"  # data/deck-NAME.csv is the shipped deck NAME; data/default_deck.csv is "default"


@cache
def _shipped_texts() -> dict[str, str]:
    data = resources.files(__package__).joinpath("data")
    texts = {}
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        if entry.name.startswith(SHIPPED_PREFIX) and entry.name.endswith(".csv"):
            texts[entry.name[len(SHIPPED_PREFIX):-len(".csv")]] = entry.read_text("utf-8")
    return texts


def named_decks() -> dict[str, Deck]:
    """The decks shipped with the package, by name: ``default`` (R4) first, then each
    ``data/deck-NAME.csv`` in name order. All are reconstructions (R3); each file's comment
    header says how it differs from the default."""
    decks = {"default": default_deck()}
    for name, text in _shipped_texts().items():
        decks[name] = parse_deck(text, f"{name} (reconstruction)")
    return decks


def shipped_name(deck: Deck) -> str | None:
    """The name of the shipped deck with exactly this deck's cards, or None."""
    for name, shipped in named_decks().items():
        if shipped.fingerprint() == deck.fingerprint():
            return name
    return None


def resolve_deck(spec: str) -> Deck:
    """A shipped deck's name (``named_decks``), or else a deck file's path."""
    decks = named_decks()
    if spec in decks:
        return decks[spec]
    if not Path(spec).exists() and not Path(spec).is_symlink():
        raise ComponentsError(f"deck {spec}: no such file, and no shipped deck of that name (shipped decks: "
                        f"{', '.join(decks)})")
    return load_deck(spec)
