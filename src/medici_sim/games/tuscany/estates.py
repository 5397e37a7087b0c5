"""A seat's estate laid out from its three boards (T9): the colour of each field, each colour's fields, and
the regions (T21), each labelled by its lowest field. One builder serves both places an estate is laid out:
the run's table of legal estates, made once a run for the state every game starts from (``tables.new_state``),
and the rare estate the table does not hold, built as a game is set up (``game.build_estate_nb``)."""
from __future__ import annotations

import numpy as np
from numba import njit

from .geometry import BOARD_FIELDS, ESTATE_FIELDS, N_ASSEMBLIES, assembly_parts
from .state import MAX_ESTATES, N_COLOURS, bit_count, inner, lowest_bit

# T9's assemblies as arrays: the board type in each slot and whether it is turned (geometry.assembly_parts).
ASSEMBLY_TYPE = np.array([assembly_parts(a)[0] for a in range(N_ASSEMBLIES)], np.int64)
ASSEMBLY_TURNED = np.array([assembly_parts(a)[1] for a in range(N_ASSEMBLIES)], np.int64)


@inner
def lay_out_estate_nb(state, seat, assembly):
    """``seat``'s estate by ``assembly`` of its boards (``state.boards[seat]``): its colours, colour masks and
    regions, every region's size at its lowest field (and none elsewhere), no agriculture types yet."""
    for k in range(3):
        board_type, turned = ASSEMBLY_TYPE[assembly, k], ASSEMBLY_TURNED[assembly, k]
        board = state.boards[seat, board_type]
        for c in range(BOARD_FIELDS):
            state.colour[seat, BOARD_FIELDS * k + c] = state.board_cells[board_type, board,
                                                                         BOARD_FIELDS - 1 - c if turned else c]
    for c in range(N_COLOURS):
        state.colour_mask[seat, c] = 0
    for f in range(ESTATE_FIELDS):
        state.colour_mask[seat, state.colour[seat, f]] |= 1 << f
    seen = 0
    for f in range(ESTATE_FIELDS):  # regions: each a flood fill from its lowest field, which labels it
        state.region_size[seat, f] = 0
        state.region_left[seat, f] = 0
        state.region_types[seat, f] = 0
        if seen >> f & 1:
            continue
        same = state.colour_mask[seat, state.colour[seat, f]]
        region = grow = 1 << f
        while grow:
            new = state.neighbour_mask[lowest_bit(grow)] & same & ~region
            grow = (grow & (grow - 1)) | new
            region |= new
        seen |= region
        size = bit_count(region)
        while region:
            state.region_of[seat, lowest_bit(region)] = f
            region &= region - 1
        state.region_size[seat, f] = size
        state.region_left[seat, f] = size


@njit(cache=True)  # called once a run, from Python
def lay_out_estates_nb(state):
    """The run's table of legal estates (state.py's ``estate_*``) from its boards and legal assemblies: each
    triple's in turn (T38's order of assemblies), a triple's only while the table holds all of them (the rest
    ``estate_first`` -1: build_estate_nb builds them). Laid out by :func:`lay_out_estate_nb` in seat 0's arrays,
    which are left as a fresh state's (zero)."""
    state.estate_first[:, :, :] = -1
    n = 0
    for a in range(state.boards_per_type[0]):
        for b in range(state.boards_per_type[1]):
            for c in range(state.boards_per_type[2]):
                legal = state.legal_mask[a, b, c]
                if n + bit_count(legal) > MAX_ESTATES:
                    continue
                state.estate_first[a, b, c] = n
                state.boards[0, 0], state.boards[0, 1], state.boards[0, 2] = a, b, c
                for assembly in range(N_ASSEMBLIES):
                    if legal >> assembly & 1:
                        lay_out_estate_nb(state, 0, assembly)
                        for f in range(ESTATE_FIELDS):
                            state.estate_colour[n, f] = state.colour[0, f]
                            state.estate_region[n, f] = state.region_of[0, f]
                            state.estate_size[n, f] = state.region_size[0, f]
                        for k in range(N_COLOURS):
                            state.estate_mask[n, k] = state.colour_mask[0, k]
                        n += 1
    state.boards[0, :] = 0
    for f in range(ESTATE_FIELDS):
        state.colour[0, f] = state.region_of[0, f] = state.region_size[0, f] = state.region_left[0, f] = 0
    for k in range(N_COLOURS):
        state.colour_mask[0, k] = 0
