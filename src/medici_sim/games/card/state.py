"""The card game's state: its layout and what strategies may read (docs/rules-card.md, R1-R25).

One game is a ``GameState``: a numpy record holding fixed-size arrays (:data:`STATE_DTYPE`),
reused from game to game. Numba passes a record by pointer, so a call costs the same
however much state there is, and its arrays need no reference counting.

This module is the interface strategies see: the layout below (read-only for them, except
their own row of ``scratch``), the helpers at the end, and the two decisions the engine
asks of them (:data:`reveal_nb`, :data:`take_nb`). The turn loop and scoring are in
``engine.py``; strategies never import it.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.dispatch import decision
from ...core.registry import MAX_PARAMS, SCRATCH_WIDTH
from ...core.resumable import STEP_DTYPE
from .deck import MAX_CARDS
from .rules import MAX_DAYS, MAX_PLAYERS, MAX_REVEALS, N_GOODS, N_RULES, RULE_CAPACITY

# The decisions a card strategy makes, asked by the engine as ``reveal_nb(table, strategy, state, seat)``:
reveal_nb = decision("reveal_nb")  # R9: reveal another card? -> bool
take_nb = decision("take_nb")  # R10: which earlier cards to take (bit 0: 2nd-, bit 1: 3rd-from-last) -> int
DECISIONS = ("reveal_nb", "take_nb")

# Indices into GameState.counts.
# TURN_ID and DAY_ID number every turn and every day this GameState plays, never repeating
# (strategies key their caches on them).
N_CARDS, DECK_LEN, MARKET_LEN, OUT_LEN, REVEALED, DAY, TURN_ID, DAY_ID = range(8)
N_COUNTS = 8

# GameState.unseen[green, column]: the cards still in the deck, which every player can
# work out (everything else is face up), summed for strategies, green (1) or not (0); kept up to
# date only in the runs where a seated strategy reads them (``keep_unseen``; the part
# medici.chance.UNSEEN_PART): a strategy that never does says so with ``Strategy(reads=())``.
UNSEEN_CARDS, UNSEEN_VALUE, UNSEEN_NO_GOOD = 0, 1, 2
UNSEEN_ICONS = 3  # UNSEEN_ICONS + 2 * good + (icons - 1): cards of that good and icon count
UNSEEN_WIDTH = UNSEEN_ICONS + 2 * N_GOODS

# A day's turns, recorded only when the game is traced (engine.py's ``record``):
# ``day_turns[day, :day_turn_count[day]]``, one int64 per turn in playing order:
#     bits 0-3 the seat; bits 4-6 R, the cards it revealed (R9); bit 7 / bit 8: it took the
#     2nd- / 3rd-from-last card besides the last (R10); bits 9 + 10 i: the i-th card it
#     revealed (i < R), in the order turned up.
# The market before the turn follows from the day's earlier turns (a day starts with an
# empty market, R20), so the cards taken and left follow too. Every turn takes a card that
# then leaves the market for the day, so a day has at most MAX_CARDS turns.
TURN_SEAT_BITS, TURN_REVEALED_AT, TURN_REVEALED_MASK, TURN_TAKE_AT, TURN_CARD_AT, TURN_CARD_BITS = 4, 4, 7, 7, 9, 10
assert MAX_CARDS <= 1 << TURN_CARD_BITS and MAX_REVEALS <= TURN_REVEALED_MASK
assert TURN_CARD_AT + TURN_CARD_BITS * MAX_REVEALS < 64

# Card locations recorded for the invariant and differential tests.
LOC_UNSEEN, LOC_TWICE = -1, -2  # never found / found in two places: both are bugs
LOC_DECK, LOC_MARKET, LOC_OUT, LOC_SHIP, LOC_WAREHOUSE = 0, 1, 2, 3, 3 + MAX_PLAYERS

# GameState.seat_decisions[seat]: this game's decision statistics (engine.take_cards_nb), packed
# in one integer that a turn adds to once (a game has far fewer than 2**16 turns): bits
# DECIDED_BITS * k hold, for k = DECIDED_TURNS ...: turns, cards revealed (R9), cards taken (R10),
# turns whose take had more than one legal choice (R10).
DECIDED_TURNS, DECIDED_REVEALS, DECIDED_TAKEN, DECIDED_FREE_TAKES = range(4)
N_DECIDED, DECIDED_BITS = 4, 16


_I8 = np.int64
STATE_DTYPE = np.dtype([
    # deck data and rules (read-only during a game)
    ("card_good", _I8, MAX_CARDS), ("card_icons", _I8, MAX_CARDS), ("card_value", _I8, MAX_CARDS),
    ("card_green", _I8, MAX_CARDS), ("rules", _I8, N_RULES), ("ship_payouts", _I8, MAX_PLAYERS),
    ("card_unseen", _I8, MAX_CARDS),  # each card's column of `unseen` by good and icons (engine.new_state)
    # the table; counts[N_CARDS] cards and rules[RULE_PLAYERS] players are in use
    ("deck", _I8, MAX_CARDS), ("market", _I8, MAX_CARDS), ("out", _I8, MAX_CARDS),
    ("keep_unseen", _I8),  # 1: a seated strategy reads `unseen`, kept up to date; 0: left stale
    ("counts", _I8, N_COUNTS), ("unseen", _I8, (2, UNSEEN_WIDTH)),
    ("full_deck_unseen", _I8, (2, UNSEEN_WIDTH)),  # `unseen` at the start of a game
    ("ship", _I8, (MAX_PLAYERS, MAX_CARDS)), ("ship_len", _I8, MAX_PLAYERS),
    ("ship_used", _I8, MAX_PLAYERS), ("ship_value", _I8, MAX_PLAYERS),
    ("ship_icons", _I8, (MAX_PLAYERS, N_GOODS)),
    ("warehouse", _I8, (MAX_PLAYERS, MAX_CARDS)), ("warehouse_len", _I8, MAX_PLAYERS),
    ("warehouse_icons", _I8, (MAX_PLAYERS, N_GOODS)), ("florins", _I8, MAX_PLAYERS),
    ("variant_extra", _I8, MAX_PLAYERS),  # florins bonus20 paid beyond the standard bonus (R19)
    ("good_icons", _I8, (N_GOODS, MAX_PLAYERS)),  # the engine's working copy of the warehouse icons while scoring
    # who plays where
    ("seat_slot", _I8, MAX_PLAYERS), ("seat_strategy", _I8, MAX_PLAYERS),
    ("seat_params", np.float64, (MAX_PLAYERS, MAX_PARAMS)),
    ("scratch", np.float64, (MAX_PLAYERS, SCRATCH_WIDTH)),
    # ship_share / majority_share[place, others]: each one's payout when others + 1 players
    # share the places from `place` on (R15 with the R14 / R17 payouts; see share_table_nb)
    ("ship_share", _I8, (MAX_PLAYERS + 1, MAX_PLAYERS + 1)),
    ("majority_share", _I8, (MAX_PLAYERS + 1, MAX_PLAYERS + 1)),
    # this game's record, one row per day
    ("day_starter", _I8, MAX_DAYS), ("day_ran_out", _I8, MAX_DAYS),
    ("day_ship_value", _I8, (MAX_DAYS, MAX_PLAYERS)), ("day_ship_pay", _I8, (MAX_DAYS, MAX_PLAYERS)),
    ("day_majority_pay", _I8, (MAX_DAYS, MAX_PLAYERS)), ("day_bonus_pay", _I8, (MAX_DAYS, MAX_PLAYERS)),
    ("day_warehouse_icons", _I8, (MAX_DAYS, MAX_PLAYERS, N_GOODS)),
    ("day_good_bonus", _I8, (MAX_DAYS, N_GOODS, MAX_PLAYERS)),  # each good's R18/R19 bonuses, when traced
    ("day_card_location", _I8, (MAX_DAYS, MAX_CARDS)),  # filled only when the game is traced
    ("day_turns", _I8, (MAX_DAYS, MAX_CARDS)), ("day_turn_count", _I8, MAX_DAYS),  # likewise (TURN_* above)
    ("rng", np.uint64, 1),
    ("step", *STEP_DTYPE),  # where a stepped game stopped (core.resumable)
    # the designer metrics (engine.accumulate_game_nb): florins after each day, decisions (DECIDED_*)
    ("day_florins", _I8, (MAX_DAYS, MAX_PLAYERS)), ("seat_decisions", _I8, MAX_PLAYERS),
], align=True)


# ---------------------------------------------------------------- helpers for strategies

@njit(cache=True)
def market_card_nb(state, back):
    """The card ``back`` places from the end of the market (1 = last), or -1 if none."""
    n = state.counts[MARKET_LEN]
    return state.market[n - back] if back <= n else -1


@njit(cache=True)
def takes_space_nb(state, card):
    """1 if the card needs a place on a ship (R1, R2: green cards do not), else 0."""
    return 1 - state.card_green[card]


@njit(cache=True)
def fits_nb(state, seat, card, pending_space):
    """R10: can ``card`` go aboard after ``pending_space`` places already chosen this turn?"""
    return (state.card_green[card] == 1
            or state.ship_used[seat] + pending_space < state.rules[RULE_CAPACITY])




@njit(cache=True)
def legal_takes_nb(state, seat, choices):
    """R10: write the legal take choices into ``choices`` and return how many: the last card
    alone (0), with the 2nd-from-last if it fits (1), with the 3rd-from-last if it fits (2),
    with both if both fit (3), in that order."""
    n = state.counts[MARKET_LEN]
    pending = takes_space_nb(state, market_card_nb(state, 1))
    second = market_card_nb(state, 2)
    third = market_card_nb(state, 3)
    choices[0] = 0
    count = 1
    second_fits = n >= 2 and fits_nb(state, seat, second, pending)
    if second_fits:
        choices[count] = 1
        count += 1
    if n >= 3 and fits_nb(state, seat, third, pending):
        choices[count] = 2
        count += 1
        if second_fits and fits_nb(state, seat, third, pending + takes_space_nb(state, second)):
            choices[count] = 3
            count += 1
    return count
