"""The Castles of Tuscany's jitted state: its layout and what strategies may read (docs/rules-tuscany.md).

One game is a ``GameState``: a numpy record of fixed-size int64 arrays (:data:`STATE_DTYPE`),
prepared once a run by plain Python (``tables.py``: the component set and the rule set as
arrays) and reused from game to game by the engine (``engine.py``). Numba passes a record by
pointer, so a call costs the same however much state there is.

This module is the interface strategies see: the layout below, the decisions the engine asks
(one per decision of the reference engine's ``Strategy``, T12-T32) and the helpers at the end.

**Decisions.** Before asking, the engine writes the options into ``options[:counts[N_OPTIONS]]``
in the reference engine's order (``reference_players.Strategy`` lists it per decision); the
strategy answers the *index* of its choice (``0 <= i < counts[N_OPTIONS]``; anything else stops
the run with an illegal decision). Options are encoded as:

* ``assembly_nb``: assembly numbers (geometry.py, T38's order); ``castle_field_nb``: the D fields;
* ``bonus_nb``: bonus kinds in supply (rules.BONUS_KINDS); ``action_nb``: DRAW, TAKE, PLACE;
* ``refresh_nb`` (T17, asked only when no display tile could go into the estate): option 0 is
  "take as usual", option k a tile kind shown in the display (ascending);
* ``take_nb``: display places; ``discard_nb``: storage indices;
* ``place_nb``: ``index * FIELD_CODE + field`` (storage index, field);
* ``castle_nb``: ``place * FIELD_CODE + field`` (display place, field);
* ``payment_nb`` (T18) is answered differently: the engine puts the field's colour in
  ``counts[PAY_COLOUR]`` and the strategy returns a payment code (:func:`payment_code`), which
  the engine checks (two units, from what the seat holds);
* ``marble_nb`` (T32): True to spend a marble for one more action.

**What a strategy may read** (seats from the start player, only the first ``rules[R_PLAYERS]``
rows in use): its own ``hand``, ``storage[:storage_len]``, ``workers``, ``marble``; every
seat's ``bonus``, ``colour``/``field_item``/``covered``/``frontier`` (its estate), ``green``,
``red``, ``points``, ``hand_total`` and the stacks' sizes (``stack_top``); the ``display``,
``shown``, ``bonus_supply``, ``colour_claims``, ``counts`` (phase, round, deck and supply sizes) and the
rule data. Never ``deck``, ``yield_deck``, ``supply``, ``tiles`` (the stacks' order) or a
rival's ``hand`` / ``storage``: they are in the record only because the engine needs them.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ...core.dispatch import decision
from ...core.registry import MAX_PARAMS, SCRATCH_WIDTH
from ...core.replaying import REPLAY_DTYPE, answers_dtype, stepped_decision
from ...core.resumable import STEP_DTYPE
from .geometry import ESTATE_FIELDS
from .rules import BONUS_KINDS, N_COLOURS, PHASES

# The engine's functions that only jitted code calls are compiled without numba's CPython and C wrappers (what
# Python would call them through): each wrapper is one more function to lower and for LLVM to optimise and make
# machine code of, at every first compile (docs/performance.md, "Tuscany's first compile, less code linked").
# Called from Python, such a function raises; what Python calls keeps ``njit(cache=True)``. ``inner`` says
# forceinline=False outright: numba's callees compiled while a ``forced`` function is typed inherit the flag
# unless it is set. ``forced``: inlined by LLVM into its callers (the take and placing, at every action),
# compiled once as a function of its own instead of numba's ``inline="always"`` IR copy in each caller.
inner = njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True, forceinline=False)
forced = njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True, forceinline=True)

MAX_PLAYERS = 4  # T1
MAX_PLAYER_TILES = 128  # tiles per player the engine holds (T1)
MAX_NEUTRAL = 128  # neutral tiles (T2)
MAX_TILE_IDS = MAX_PLAYERS * MAX_PLAYER_TILES + MAX_NEUTRAL
MAX_REGION_CARDS = 1024  # T5
MAX_YIELD = 256  # T6
MAX_BOARDS = 20  # of one type (components.MAX_BOARDS)
MAX_ESTATES = 4 ** 3 * 48  # legal estates laid out once a run: all 48 assemblies of four boards a type (tables.py)
MAX_DISPLAY = 16  # rules.display's top
MAX_STORAGE = 1 + 5 + 2  # T11: one space, plus one per +1 storage bonus tile (five of them)
MAX_OPTIONS = MAX_DISPLAY * ESTATE_FIELDS + 16  # the most options of one decision (castle: place x field)
FIELD_CODE = 32  # place_nb / castle_nb options: index * FIELD_CODE + field
N_BONUS = len(BONUS_KINDS)
N_SOURCES = 9  # reference.GREEN_SOURCES + RED_SOURCES
N_TALLY = 8  # reference Player.counts


# Items on fields and in storage: a tile id (>= 0), or one of these.
EMPTY, HEX, START_CASTLE = -3, -1, -2

# Indices into GameState.rules (tables.rule_array: the rule set, then the component set's sizes).
(R_PLAYERS, R_DRAW, R_START_HAND, R_MONASTERY_DRAW, R_REGION1, R_REGION2, R_REGION3, R_STORAGE_GREEN,
 R_NO_ROOM_RED, R_FINAL_STORAGE, R_FINAL_MARBLE, R_FINAL_WORKER, R_FINAL_CARDS, R_STACK_SIZE, R_DISPLAY,
 R_ROUND_LIMIT, R_PLAYER_TILES, R_NEUTRAL_TILES, R_YIELD_CARDS, R_LATER_SEAT_CARDS) = range(20)
N_RULES = 20

# Indices into GameState.counts.
(PHASE, ROUND, PHASE_PENDING, REACHED_LIMIT, REFRESHES, T17_REFRESHES, OVER, DECK_TOP, DECK_LEN, DISCARD_LEN,
 YIELD_TOP, YIELD_LEN, YIELD_DISCARD_LEN, SUPPLY_TOP, SUPPLY_LEN, OUT_LEN, N_OPTIONS, PAY_COLOUR,
 OCCUPIED, STEPPING) = range(20)  # OCCUPIED: bit p set when display place p holds a tile; STEPPING: core.replaying's
N_COUNTS = 20  # flag (0 in the kernel), beside N_OPTIONS, which every decision writes just before
STEPPING_FLAG = ("counts", STEPPING)

# The decisions, asked as ``action_nb(table, strategy, state, seat)`` (see the module doc); when the game is
# stepped (core.replaying), each is a stop: an EXTERNAL seat's is answered by the caller (DECISION + its index).
DECISIONS = ("assembly_nb", "castle_field_nb", "bonus_nb", "action_nb", "refresh_nb", "take_nb", "discard_nb",
             "place_nb", "payment_nb", "castle_nb", "marble_nb")
MAX_ANSWERS = 2048  # the most EXTERNAL answers a stepped game holds (core.replaying)


@inner
def moment_nb(state):
    """The scoring moment in play (core.resumable.STEP_MOMENT): the phase (T15)."""
    return state.counts[PHASE]


(assembly_nb, castle_field_nb, bonus_nb, action_nb, refresh_nb, take_nb, discard_nb, place_nb, payment_nb, castle_nb,
 marble_nb) = (stepped_decision(decision(kind), k, moment_nb, kind, STEPPING_FLAG) for k, kind in enumerate(DECISIONS))

# GameState.points columns: green sources, then red sources (reference.GREEN_SOURCES, RED_SOURCES).
(P_REGIONS, P_COLOUR_BONUS, P_AGRICULTURE, P_YIELD_GREEN, P_STORAGE_BONUS, P_BANKING, P_YIELD_RED, P_NO_ROOM,
 P_FINAL) = range(N_SOURCES)
N_GREEN_SOURCES = 5
# GameState.tally columns (reference Player.counts, same order).
(T_TILES, T_HEXAGONS, T_WORKERS_GAINED, T_WORKERS_USED, T_MARBLE_GAINED, T_MARBLE_USED, T_CARDS_DRAWN,
 T_YIELD_DRAWN) = range(N_TALLY)

_I8 = np.int64
_SEAT = (_I8, MAX_PLAYERS)
STATE_DTYPE = np.dtype([
    # rule and component data (read-only during a game; tables.py)
    ("rules", _I8, N_RULES), ("region_cards", _I8, N_COLOURS), ("colour_bonus", _I8, (N_COLOURS, 2)),
    ("tile_kind", _I8, MAX_TILE_IDS), ("tile_types", _I8, MAX_TILE_IDS),
    ("yield_kind", _I8, MAX_YIELD), ("yield_amount", _I8, MAX_YIELD),
    ("neighbour_mask", _I8, ESTATE_FIELDS),  # bit g of field f: g touches f (T9)
    # the table
    ("counts", _I8, N_COUNTS), ("options", _I8, MAX_OPTIONS),
    ("chain", _I8, ESTATE_FIELDS),  # T24: the display places a castle chain emptied, outermost first
    ("deck", _I8, MAX_REGION_CARDS), ("discards", _I8, MAX_REGION_CARDS),
    ("yield_deck", _I8, MAX_YIELD), ("yield_discards", _I8, MAX_YIELD),
    ("supply", _I8, MAX_NEUTRAL), ("display", _I8, MAX_DISPLAY),
    ("shown", _I8, N_COLOURS),  # display tiles by kind (display.show_nb keeps it and counts[OCCUPIED])
    ("out", _I8, MAX_TILE_IDS),
    ("bonus_supply", _I8, N_BONUS), ("colour_claims", _I8, N_COLOURS), ("phase_end_round", _I8, PHASES),
    # per seat: pieces
    ("tiles", _I8, (MAX_PLAYERS, MAX_PLAYER_TILES)),  # shuffled: stack n is tiles[n*size:(n+1)*size], top first
    ("stack_top", _I8, (MAX_PLAYERS, 3)),  # tiles taken from each stack
    ("storage", _I8, (MAX_PLAYERS, MAX_STORAGE)), ("storage_len", *_SEAT),
    ("hand", _I8, (MAX_PLAYERS, N_COLOURS)), ("hand_total", *_SEAT), ("workers", *_SEAT), ("marble", *_SEAT),
    ("bonus", _I8, (MAX_PLAYERS, N_BONUS)),
    # per seat: the estate (T9)
    ("boards", _I8, (MAX_PLAYERS, 3)),  # index within each type of the board dealt
    ("assembly", *_SEAT), ("colour", _I8, (MAX_PLAYERS, ESTATE_FIELDS)),
    ("colour_mask", _I8, (MAX_PLAYERS, N_COLOURS)),  # bit f: field f has the colour
    ("colour_left", _I8, (MAX_PLAYERS, N_COLOURS)),  # empty fields of each colour (T22)
    ("field_item", _I8, (MAX_PLAYERS, ESTATE_FIELDS)), ("covered", *_SEAT),
    ("frontier", *_SEAT),  # bit f: f is empty and touches a covered field (T19)
    ("region_of", _I8, (MAX_PLAYERS, ESTATE_FIELDS)), ("region_size", _I8, (MAX_PLAYERS, ESTATE_FIELDS)),
    ("region_left", _I8, (MAX_PLAYERS, ESTATE_FIELDS)), ("region_types", _I8, (MAX_PLAYERS, ESTATE_FIELDS)),
    # per seat: scores and this game's record
    ("green", *_SEAT), ("red", *_SEAT), ("points", _I8, (MAX_PLAYERS, N_SOURCES)),
    ("tally", _I8, (MAX_PLAYERS, N_TALLY)), ("phase_red", _I8, (PHASES, MAX_PLAYERS)),
    # who plays where
    ("seat_slot", *_SEAT), ("seat_strategy", *_SEAT),
    ("seat_params", np.float64, (MAX_PLAYERS, MAX_PARAMS)),
    ("scratch", np.float64, (MAX_PLAYERS, SCRATCH_WIDTH)),
    # setup's data, last: far from what a turn reads
    ("boards_per_type", _I8, 3), ("board_cells", _I8, (3, MAX_BOARDS, 10)),
    ("legal_mask", _I8, (MAX_BOARDS, MAX_BOARDS, MAX_BOARDS)),  # bit a: assembly a of the triple is legal (T9)
    # the legal estates, laid out once a run (estates.lay_out_estates_nb; game.build_estate_nb copies one): each
    # triple's first in the table (-1: not held, built), then by triple in T38's order; bytes, to keep the record small
    ("estate_first", np.int32, (MAX_BOARDS, MAX_BOARDS, MAX_BOARDS)),
    ("estate_colour", np.int8, (MAX_ESTATES, ESTATE_FIELDS)), ("estate_region", np.int8, (MAX_ESTATES, ESTATE_FIELDS)),
    ("estate_size", np.int8, (MAX_ESTATES, ESTATE_FIELDS)),  # at each region's lowest field (region_of's label)
    ("estate_mask", np.int32, (MAX_ESTATES, N_COLOURS)),
    ("rank_key", *_SEAT),  # T36's order as one number (game.rank_key_nb), for the run's statistics
    ("replay", *REPLAY_DTYPE), ("step", *STEP_DTYPE),  # stepping (core.replaying)
    ("answers", *answers_dtype(MAX_ANSWERS)),  # a stepped game's answers (core.replaying)
    ("rng", np.uint64, 1),
], align=True)


# ---------------------------------------------------------------- helpers strategies may call

@njit(cache=True)
def payment_code(cards, workers, pair1, pair2):
    """T18's payment as ``payment_nb`` answers it: ``cards`` of the field's colour, ``workers``,
    and up to two pairs of cards of other colours (``pair1 <= pair2``, -1 for none)."""
    return cards + 3 * workers + 9 * (pair1 + 1) + 81 * (pair2 + 1)


@njit(cache=True)
def payment_parts(code):
    """(cards, workers, pair1, pair2) of a payment code."""
    return code % 3, code // 3 % 3, code // 9 % 9 - 1, code // 81 - 1


@intrinsic
def lowest_bit(typingctx, mask):
    """The index of the lowest set bit of a non-zero int64 (LLVM's cttz)."""
    if not isinstance(mask, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.int64), codegen


@intrinsic
def bit_count(typingctx, mask):
    """The number of set bits of an int64 (LLVM's ctpop)."""
    if not isinstance(mask, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen
