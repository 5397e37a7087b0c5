"""The Castles of Tuscany's table in text, as one seat sees it: each estate drawn as a hex map (T9), the
display (T14), the score tracks, bonus tiles, supplies and hands (T12) — what the trace (narrate.py), the
play console (console.py) and the seat view's observation text (seat_view.py) print; within 100 columns.

A field is five characters: an empty field its colour in lower case (`` d ``); a tile on it, its letter
in brackets (``[L]``); the starting castle ``[@]``; a wooden hexagon ``<h>`` on the field's colour
(``<o>``: a hexagon on an orange field). Rows are staggered as the hexagons lie (the component set's
board shift, T9), field numbers on request (the console: ``numbers=True``, each field ``12d``).
"""
from __future__ import annotations

import textwrap
from functools import cache

from .geometry import BOARD_TYPES, ESTATE_FIELDS, SHIFTS, assembly_parts, axial, estate_colours, neighbours
from .rules import BONUS_KINDS, COLOURS, N_COLOURS, PHASES
from .state import (
    DECK_LEN,
    DECK_TOP,
    EMPTY,
    HEX,
    PHASE,
    R_DISPLAY,
    R_PLAYERS,
    R_STACK_SIZE,
    ROUND,
    START_CASTLE,
    SUPPLY_LEN,
    SUPPLY_TOP,
    YIELD_LEN,
    YIELD_TOP,
)

WIDTH = 100  # the most columns a line takes
COLOUR_WORDS = ("castle", "city", "inn", "agriculture", "village", "monastery", "wagon", "quarry")  # rules.COLOURS
LEGEND_TEXT = ("fields: d empty (its colour), [L] a tile, [@] the starting castle, <o> a hexagon on an o field; "
          + ", ".join(f"{c} {w}" for c, w in zip(COLOURS, COLOUR_WORDS, strict=True)))


def wrapped(line: str) -> list[str]:
    """A line of words within WIDTH columns, its continuation indented."""
    return textwrap.wrap(line, WIDTH, subsequent_indent="    ", break_on_hyphens=False) or [""]


def fitted(text: str) -> str:
    """``text`` with each line over WIDTH columns wrapped (lines within it, a map's, kept as they are)."""
    return "\n".join(part for line in text.split("\n") for part in ([line] if len(line) <= WIDTH else wrapped(line)))


LEGEND = wrapped(LEGEND_TEXT)
ALL = -2  # a viewer who sees every hand (the trace); -1: an onlooker, who sees none
CELL = 6  # columns a field takes (five and a space); half of it staggers a row


# the piles drawn from the top: (field, counts index of the top, counts index of the end)
PILES = (("deck", DECK_TOP, DECK_LEN), ("yield_deck", YIELD_TOP, YIELD_LEN), ("supply", SUPPLY_TOP, SUPPLY_LEN))


def players(s) -> int:
    return int(s["rules"][R_PLAYERS])


def pile_sizes(s) -> list[int]:
    """How many region cards, yield cards and neutral tiles are left (every seat sees it; not their order)."""
    return [int(s["counts"][end] - s["counts"][top]) for _, top, end in PILES]


@cache
def _shift_of(masks: tuple[int, ...]) -> int:
    for shift in SHIFTS:
        if all(sum(1 << g for g in touching) == masks[f] for f, touching in enumerate(neighbours(shift))):
            return shift
    raise ValueError("the estate's adjacency is none of the component sets' layouts (T9)")


def shift_of(s) -> int:
    """The component set's board shift (T9), read from the state's adjacency."""
    return _shift_of(tuple(int(m) for m in s["neighbour_mask"]))


def tile_letter(s, tile: int) -> str:
    return "h" if tile == HEX else COLOURS[int(s["tile_kind"][tile])]


def field_text(s, seat: int, field: int, number: bool = False) -> str:
    """One field in five characters (the module doc)."""
    colour = COLOURS[int(s["colour"][seat, field])]
    item = int(s["field_item"][seat, field])
    if item == EMPTY:
        return f"{field:2d}{colour.lower()} " if number else f"  {colour.lower()}  "
    if item == START_CASTLE:
        return " [@] "
    if item == HEX:
        return f" <{colour.lower()}> "
    return f" [{tile_letter(s, item)}] "


def hex_lines(texts: list[str], shift: int, cell: int = CELL) -> list[str]:
    """Fields' texts (``cell - 1`` characters each, field order) laid as the hexagons lie (T9), a line a row."""
    where = {}
    for field in range(ESTATE_FIELDS):
        q, r = axial(field, shift)
        where[field] = (r, cell * q + cell // 2 * r)
    left = min(x for _, x in where.values())
    lines = [""] * (1 + max(r for r, _ in where.values()))
    for field in sorted(where, key=lambda f: where[f][1]):
        r, x = where[field]
        lines[r] = lines[r].ljust(x - left) + texts[field]
    return [line.rstrip() for line in lines]


def estate_lines(s, seat: int, numbers: bool = False) -> list[str]:
    """The seat's estate as a hex map, one line a row of fields (T9)."""
    return hex_lines([field_text(s, seat, field, numbers) for field in range(ESTATE_FIELDS)], shift_of(s))


def assembly_text(assembly: int) -> str:
    """An assembly (T12) in words: its boards top to bottom, each by type, and which are turned."""
    order, turns = assembly_parts(assembly)
    boards = ", ".join(BOARD_TYPES[t] + (" turned" if turned else "") for t, turned in zip(order, turns, strict=True))
    return f"assembly {assembly} (boards {boards}, top to bottom)"


def assembly_lines(s, seat: int, assembly: int) -> list[str]:
    """The estate ``assembly`` would lay for the seat's three boards (T9, T12), a colour letter a field."""
    cells = tuple("".join(COLOURS[int(c)] for c in s["board_cells"][t, int(s["boards"][seat, t])])
                  for t in range(len(BOARD_TYPES)))
    return hex_lines([COLOURS[c].lower() for c in estate_colours(cells, assembly)], shift_of(s), cell=2)


def side_by_side(blocks: list[list[str]], gap: int = 4) -> list[str]:
    """Blocks of lines next to one another while they fit in WIDTH columns, else below."""
    out: list[str] = []
    row: list[list[str]] = []
    for block in blocks:
        widths = [max(map(len, b)) for b in [*row, block]]
        if row and sum(widths) + gap * len(row) > WIDTH:
            out += _joined(row, gap)
            row = []
        row.append(block)
    if row:
        out += _joined(row, gap)
    return out


def _joined(row: list[list[str]], gap: int) -> list[str]:
    height = max(map(len, row))
    widths = [max(map(len, b)) for b in row]
    lines = []
    for i in range(height):
        parts = [(b[i] if i < len(b) else "").ljust(w) for b, w in zip(row, widths, strict=True)]
        lines.append((" " * gap).join(parts).rstrip())
    return lines


def seat_line(s, seat: int, viewer: int) -> str:
    """A seat's tracks and pieces; its hand by colour to the viewer only (a rival's: how many cards, T12)."""
    hand = s["hand"][seat]
    cards = (" ".join(f"{COLOURS[c]}{int(hand[c])}" for c in range(N_COLOURS) if hand[c]) or "none") \
        if viewer in (seat, ALL) else f"{int(s['hand_total'][seat])} cards"
    storage = " ".join(tile_letter(s, int(t)) for t in s["storage"][seat, :s["storage_len"][seat]]) or "-"
    bonus = ", ".join(f"{BONUS_KINDS[k]} x{int(n)}" if n > 1 else BONUS_KINDS[k]
                      for k, n in enumerate(s["bonus"][seat]) if n) or "none"
    size = int(s["rules"][R_STACK_SIZE])
    stacks = "/".join(str(size - int(t)) for t in s["stack_top"][seat])
    return (f"seat {seat + 1}: red {int(s['red'][seat])}, green {int(s['green'][seat])}; hand {cards}; "
            f"storage {storage}; workers {int(s['workers'][seat])}, marble {int(s['marble'][seat])}; "
            f"bonus tiles {bonus}; stacks {stacks} tiles")


def display_text(s) -> str:
    """The display's places (T14), numbered from 1: each tile's letter, or - for an empty place."""
    places = [("-" if int(t) == EMPTY else tile_letter(s, int(t))) for t in s["display"][:s["rules"][R_DISPLAY]]]
    return "display: " + " ".join(f"{p + 1}:{t}" for p, t in enumerate(places))


def supply_text(s) -> str:
    bonus = " ".join(f"{kind} {int(n)}" for kind, n in zip(BONUS_KINDS, s["bonus_supply"], strict=True))
    claims = " ".join(f"{COLOURS[c]}{int(n)}" for c, n in enumerate(s["colour_claims"]) if n)
    deck, yields, neutral = pile_sizes(s)
    return (f"region deck {deck}, yield deck {yields}, neutral tiles {neutral}; bonus tiles left: {bonus}"
            + (f"; colour bonuses claimed: {claims}" if claims else ""))


def table_lines(s, viewer: int, numbers: bool = False) -> list[str]:
    """The whole table as ``viewer`` sees it (-1: an onlooker, no hand shown; ALL: every hand): phase and round, the
    display, supplies, every seat's line and every estate's map."""
    counts = s["counts"]
    lines = [f"phase {min(int(counts[PHASE]), PHASES)}, round {int(counts[ROUND])}", display_text(s), supply_text(s)]
    lines += [seat_line(s, seat, viewer) for seat in range(players(s))]
    lines = [part for line in lines for part in wrapped(line)]
    blocks = [[f"seat {seat + 1}'s estate" + (" (yours)" if seat == viewer else "")]
              + estate_lines(s, seat, numbers and seat == viewer) for seat in range(players(s))]
    return lines + side_by_side(blocks)
