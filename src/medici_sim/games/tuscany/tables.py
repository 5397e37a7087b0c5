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
from .estates import lay_out_estates_nb
from .geometry import (
    BOARD_FIELDS,
    ESTATE_FIELDS,
    legal_assemblies,
    neighbours,
)
from .rules import AGRICULTURE, COLOURS
from .state import (
    MAX_BOARDS,
    MAX_NEUTRAL,
    MAX_PLAYER_TILES,
    MAX_PLAYERS,
    MAX_REGION_CARDS,
    MAX_YIELD,
    N_RULES,
    STATE_DTYPE,
)

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
    lay_out_estates_nb(state)
    assert ESTATE_FIELDS == 3 * BOARD_FIELDS
    return buffer
