"""The estate's geometry (T9): fields, axial hex coordinates, adjacency, assemblies, regions.

A board is 2 rows x 5 columns of fields, written as 10 colour letters, row 0 then row 1. An
estate has three slots k = 0, 1, 2, top to bottom; its field ``10*k + 5*i + j`` is the one at
row i, column j of slot k, at axial hex coordinates (q, r) = (j + shift * k, 2k + i), where the
component set's ``slot_shift`` says how far each board sits from the one above (T9's layout:
-1, every field of an edge row touching the next board; 2 or -3: 3 fields touching, as the
rulebook's setup picture has it). A board turned 180 degrees shows at (i, j) what it shows
unturned at (1 - i, 4 - j): its letters reversed.

An assembly is an order of the three boards (one of each type) over the slots and a turn bit
per slot: 48 in all, numbered ``8 * p + 4 * t0 + 2 * t1 + t2``, where p numbers the orders of
(A, B, C) over the slots lexicographically (``itertools.permutations``) and t_k is slot k's
turn bit (the order T38's canonical random player draws from). It is legal when no region
(a maximal group of edge-adjacent fields of one colour) has more than 3 fields.
"""
from __future__ import annotations

import itertools
from functools import cache

from .rules import COLOURS, REGION_SIZES

ROWS, COLUMNS = 2, 5
BOARD_FIELDS = ROWS * COLUMNS  # T9
SLOTS = 3  # T9: one board of each type
BOARD_TYPES = "ABC"
ESTATE_FIELDS = SLOTS * BOARD_FIELDS
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))  # T9: the six axial neighbours
DEFAULT_SHIFT = -1  # T9's reconstructed layout
SHIFTS = range(-5, 5)  # the shifts at which neighbouring boards touch at all


def axial(field: int, shift: int = DEFAULT_SHIFT) -> tuple[int, int]:
    """The field's axial coordinates (q, r)."""
    slot, rest = divmod(field, BOARD_FIELDS)
    row, column = divmod(rest, COLUMNS)
    return column + shift * slot, 2 * slot + row


@cache
def neighbours(shift: int = DEFAULT_SHIFT) -> tuple[tuple[int, ...], ...]:
    """Field -> the fields it touches, ascending."""
    where = {axial(f, shift): f for f in range(ESTATE_FIELDS)}
    return tuple(tuple(sorted(where[(q + dq, r + dr)] for dq, dr in STEPS if (q + dq, r + dr) in where))
                 for q, r in (axial(f, shift) for f in range(ESTATE_FIELDS)))


def contacts(shift: int) -> int:
    """How many pairs of fields touch across two neighbouring boards."""
    return sum(n >= BOARD_FIELDS for f in range(BOARD_FIELDS) for n in neighbours(shift)[f])
ORDERS = tuple(itertools.permutations(range(SLOTS)))  # slot k holds the board of type ORDERS[p][k]
N_ASSEMBLIES = len(ORDERS) * 2 ** SLOTS  # 48


def assembly_parts(assembly: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(type per slot, turn bit per slot) of an assembly number."""
    p, bits = divmod(assembly, 2 ** SLOTS)
    return ORDERS[p], tuple((bits >> (SLOTS - 1 - k)) & 1 for k in range(SLOTS))


def estate_colours(cells: tuple[str, str, str], assembly: int) -> tuple[int, ...]:
    """The colour (index into COLOURS) of each of the 30 fields of an estate built from the
    boards ``cells`` (10 letters each, in type order A, B, C) by ``assembly``."""
    order, turns = assembly_parts(assembly)
    letters = "".join(cells[t][::-1] if turned else cells[t] for t, turned in zip(order, turns, strict=True))
    return tuple(COLOURS.index(letter) for letter in letters)


def regions(colours: tuple[int, ...], shift: int = DEFAULT_SHIFT) -> tuple[tuple[int, ...], ...]:
    """The estate's regions (T9), each as its ascending fields, ordered by their first field."""
    seen: set[int] = set()
    found = []
    for start in range(len(colours)):
        if start in seen:
            continue
        seen.add(start)
        region, frontier = [start], [start]
        while frontier:
            for other in neighbours(shift)[frontier.pop()]:
                if other not in seen and colours[other] == colours[start]:
                    seen.add(other)
                    region.append(other)
                    frontier.append(other)
        found.append(tuple(sorted(region)))
    return tuple(found)


def is_legal(colours: tuple[int, ...], shift: int = DEFAULT_SHIFT) -> bool:
    """T9: no region has more than 3 fields."""
    return all(len(region) <= REGION_SIZES for region in regions(colours, shift))


@cache
def legal_assemblies(cells: tuple[str, str, str], shift: int = DEFAULT_SHIFT) -> tuple[int, ...]:
    """The legal assemblies of three boards (type order A, B, C), in T38's order (remembered)."""
    return tuple(a for a in range(N_ASSEMBLIES) if is_legal(estate_colours(cells, a), shift))
