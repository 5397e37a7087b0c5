"""The jitted engine's inputs, prepared by plain Python once a run: the component set (T1-T9) and
the rule set (T40) as the arrays of a ``GameState`` (``state.py``).

:func:`new_state` is the kernel's ``inputs``: a one-element array holding the state every game
of a run starts from (each batch plays on a copy). A component set larger than the engine's
fixed arrays is refused in one line (:class:`~.components.ComponentError`).
"""
from __future__ import annotations

import numpy as np

from ...core.rules import RuleSet
from .components import ComponentError, Components
from .geometry import (
    BOARD_FIELDS,
    ESTATE_FIELDS,
    N_ASSEMBLIES,
    assembly_parts,
    legal_assemblies,
    neighbours,
)
from .rules import AGRICULTURE, COLOURS
from .state import (
    MAX_BOARDS,
    MAX_ESTATES,
    MAX_NEUTRAL,
    MAX_PLAYER_TILES,
    MAX_PLAYERS,
    MAX_REGION_CARDS,
    MAX_YIELD,
    N_COLOURS,
    N_RULES,
    STATE_DTYPE,
)

# T9's assemblies as arrays: the board type in each slot and whether it is turned (geometry.assembly_parts).
ASSEMBLY_TYPE = np.array([assembly_parts(a)[0] for a in range(N_ASSEMBLIES)], np.int64)
ASSEMBLY_TURNED = np.array([assembly_parts(a)[1] for a in range(N_ASSEMBLIES)], np.int64)
RULE_NAMES = ("draw", "start_hand", "monastery_draw")  # R_DRAW.. in state.py's order, after R_PLAYERS
SCALARS_AFTER_REGIONS = ("storage_green", "no_room_red", "final_storage", "final_marble", "final_worker",
                         "final_cards", "stack_size", "display", "round_limit")


def rule_array(components: Components, rules: RuleSet) -> np.ndarray:
    """The rule set and the component set's sizes, indexed by state.R_*."""
    values = [rules.players, *(rules[name] for name in RULE_NAMES), *rules["region_scores"],
              *(rules[name] for name in SCALARS_AFTER_REGIONS),
              sum(components.player_tiles), sum(components.neutral_tiles), components.n_yield_cards,
              rules["later_seat_cards"]]
    assert len(values) == N_RULES
    return np.array(values, np.int64)


def check_fits(components: Components, rules: RuleSet) -> None:
    """One line unless the sets fit the engine's arrays (and the stacks can be filled, T10)."""
    limits = (("tiles per player", sum(components.player_tiles), MAX_PLAYER_TILES),
              ("neutral tiles", sum(components.neutral_tiles), MAX_NEUTRAL),
              ("region cards", components.n_region_cards, MAX_REGION_CARDS),
              ("yield cards", components.n_yield_cards, MAX_YIELD),
              ("boards of one type", max(len(components.boards_of_type(t)) for t in range(3)), MAX_BOARDS))
    for what, value, most in limits:
        if value > most:
            raise ComponentError(f"components {components.name}: {value} {what}; the engine holds at most {most}")
    if rules.players > MAX_PLAYERS:
        raise ValueError(f"the engine seats at most {MAX_PLAYERS} players, got {rules.players}")
    per_player, size = sum(components.player_tiles), rules["stack_size"]
    if per_player < 3 * size:
        raise ValueError(f"stack_size={size} needs {3 * size} tiles per player; "
                         f"components {components.name} give {per_player} (T10)")


def tile_arrays(components: Components, players: int) -> tuple[list[int], list[int]]:
    """Each tile id's kind and agriculture type mask (the reference engine's numbering: each seat's
    tiles in COLOURS order, then the neutral tiles)."""
    kinds, types = [], []
    for owner in [*range(players), -1]:
        counts = components.player_tiles if owner >= 0 else components.neutral_tiles
        masks = components.player_agriculture if owner >= 0 else components.neutral_agriculture
        for kind, count in enumerate(counts):
            kinds += [kind] * count
            types += [masks[k] if kind == AGRICULTURE else 0 for k in range(count)]
    return kinds, types


def lay_out_estates(state: np.void, shift: int) -> None:
    """The record's table of legal estates (state.py's ``estate_*``), from its boards and legal assemblies: the
    triples' in turn, a triple's only while the table holds all of them (the rest -1: game.build_estate_nb builds
    them), each with the colours, regions (labelled by their lowest field), region sizes and colour masks
    build_estate_nb lays out. All at once in numpy: Python's loops took 0.4 s a run, this 5-20 ms."""
    first, legal = state["estate_first"], state["legal_mask"][tuple(slice(n) for n in state["boards_per_type"])]
    first[...] = -1
    n, kept = 0, np.zeros(legal.shape, bool)
    for triple, mask in np.ndenumerate(legal):
        count = int(mask).bit_count()
        if n + count <= MAX_ESTATES:
            first[triple], kept[triple], n = n, True, n + count
    triples = np.argwhere(kept)
    which, assemblies = np.nonzero(legal[kept][:, None] >> np.arange(N_ASSEMBLIES) & 1)  # by triple, ascending
    types, turned = ASSEMBLY_TYPE[assemblies], ASSEMBLY_TURNED[assemblies]  # (estate, slot)
    cell = np.where(turned[:, :, None], BOARD_FIELDS - 1 - np.arange(BOARD_FIELDS), np.arange(BOARD_FIELDS))
    boards = np.take_along_axis(triples[which], types, 1)
    colour = state["board_cells"][types[:, :, None], boards[:, :, None], cell].reshape(n, ESTATE_FIELDS)
    colour = colour.T.astype(np.int8)
    touching = [(f, *fields) for f, fields in enumerate(neighbours(shift))]  # padded to 7 by repeating the last
    touching = np.array([fields + fields[-1:] * (7 - len(fields)) for fields in touching]).T
    same = [colour[fields] == colour for fields in touching]  # field by field: rows gathered, not columns
    label = np.repeat(np.arange(ESTATE_FIELDS, dtype=np.int8)[:, None], n, 1)  # bytes: small arrays, no fresh pages
    while True:  # each field takes the lowest label of itself and its same-coloured neighbours until none changes
        lower = label.copy()
        for fields, alike in zip(touching, same, strict=True):
            np.minimum(lower, np.where(alike, label[fields], np.int8(ESTATE_FIELDS)), out=lower)
        if (lower == label).all():
            break
        label = lower
    colour, label = colour.T, label.T
    base = np.arange(n)[:, None]
    state["estate_colour"][:n] = colour
    state["estate_region"][:n] = label
    state["estate_size"][:n] = np.bincount((label + ESTATE_FIELDS * base).ravel(), minlength=n * ESTATE_FIELDS) \
        .reshape(n, ESTATE_FIELDS)
    bits = np.broadcast_to(1 << np.arange(ESTATE_FIELDS), (n, ESTATE_FIELDS))
    state["estate_mask"][:n] = np.bincount((colour + N_COLOURS * base).ravel(), bits.ravel(), n * N_COLOURS) \
        .reshape(n, N_COLOURS)


def new_state(components: Components, rules: RuleSet) -> np.ndarray:
    """A one-element array holding the GameState every game of a run starts from."""
    check_fits(components, rules)
    buffer = np.zeros(1, STATE_DTYPE)
    state = buffer[0]
    state["rules"] = rule_array(components, rules)
    state["region_cards"] = components.region_cards
    state["colour_bonus"] = components.colour_bonus
    kinds, types = tile_arrays(components, rules.players)
    state["tile_kind"][:len(kinds)] = kinds
    state["tile_types"][:len(types)] = types
    cards = [card for card in components.yield_cards for _ in range(card.count)]
    state["yield_kind"][:len(cards)] = [card.kind for card in cards]
    state["yield_amount"][:len(cards)] = [card.amount for card in cards]
    by_type = [components.boards_of_type(t) for t in range(3)]
    for t, boards in enumerate(by_type):
        state["boards_per_type"][t] = len(boards)
        for b, board in enumerate(boards):
            state["board_cells"][t, b] = [COLOURS.index(letter) for letter in board.cells]
    shift = components.slot_shift
    for a, board_a in enumerate(by_type[0]):
        for b, board_b in enumerate(by_type[1]):
            for c, board_c in enumerate(by_type[2]):
                legal = legal_assemblies((board_a.cells, board_b.cells, board_c.cells), shift)
                state["legal_mask"][a, b, c] = sum(1 << n for n in legal)
    for f, touching in enumerate(neighbours(shift)):
        state["neighbour_mask"][f] = sum(1 << g for g in touching)
    lay_out_estates(state, shift)
    assert ESTATE_FIELDS == 3 * BOARD_FIELDS
    return buffer
