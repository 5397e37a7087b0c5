"""The classic game's state: its layout and what strategies may read (docs/rules-classic.md, C1-C21).

One game is a ``GameState``: a numpy record holding fixed-size int64 arrays
(:data:`STATE_DTYPE`), reused from game to game. Numba passes a record by pointer, so a call
costs the same however much state there is, and its arrays need no reference counting.

This module is the interface strategies see: the layout below (read-only for them, except
their own row of ``scratch``), the helpers at the end, and the two decisions the engine
asks of them (:data:`draw_nb`, :data:`bid_nb`). The turn loop and scoring are in
``engine.py``; strategies never import it.

What a strategy may read (seats are numbered from the day-1 starting player, C6; only the
first ``rules[RULE_PLAYERS]`` rows of per-seat arrays are in use):

* ``card_good[c]`` (good 0..4, -1 for gold), ``card_value[c]`` (C2); ``card_row[c]``: the
  card's row of ``unseen`` (its good, or ``GOLD_ROW`` for gold).
* ``rules`` (``RULE_PLAYERS``, ``RULE_START_MONEY``, ``RULE_REMOVED``, ``RULE_DAYS``,
  ``RULE_HOLDS``, ``RULE_LOT_SIZE``, ``RULE_MIN_BID``, ``RULE_TRACK_MAX``: the rule set in
  force, see ``rules.py``), ``ship_payouts`` by place (C13, padded with 0),
  ``track_bonus[level]`` (C16).
* ``money[seat]`` (C4); ``track[seat, good]``: the level on each goods track at the start
  of the day (C14: it rises only at the day's end, by ``ship_goods``).
* ``ship[seat, i]``: the cards aboard in loading order (``ship_len[seat]`` of them, C3,
  C10); ``ship_value[seat]`` their total value (C13); ``ship_goods[seat, good]`` the cards
  of each good aboard (gold counts in none).
* the current lot (C8): ``lot[:counts[LOT_LEN]]`` in drawing order, ``counts[LOT_VALUE]``
  its total value; the auction (C9): ``counts[AUCTIONEER]``, ``counts[HIGHEST]`` (0 before
  any bid), ``counts[HIGH_BIDDER]`` (-1 before any bid), ``turn_bid[seat]`` what each seat
  answered on this lot so far (0 pass, > 0 a bid, -1 not asked (yet): a seat that may not
  bid is never asked).
* ``counts[DECK_LEN]``: cards left in the day's deck (C5, public); ``counts[OPEN_SHIPS]``:
  ships not full; ``counts[MAX_FREE]``: the most free holds of any ship at the start of
  this turn (C8 lets the lot grow while it is above the lot's size).
* ``unseen[row, column]``: the cards nobody has seen this day (C5): the deck and the cards
  removed face down, which the players cannot tell apart. Rows are goods 0..4 and
  ``GOLD_ROW``; columns ``UNSEEN_CARDS`` (how many), ``UNSEEN_VALUE`` (their total value),
  ``UNSEEN_BY_VALUE + v`` (how many are worth v, v = 0..10). ``counts[UNSEEN]`` is the total.
  Which cards were removed is never known; ``counts[DECK_LEN] / counts[UNSEEN]`` is the
  chance that a given unseen card is still in the deck. Kept up to date only in the games of a
  run where a seated strategy reads them (``keep_unseen``; the part ``medici.chance.UNSEEN_PART``):
  a strategy that never does says so with ``Strategy(reads=())``.
* ``discard[:counts[DISCARD_LEN]]``: the cards of the lots nobody bought today (C10).
* ``spent``, ``lots_bought``, ``cards_bought``, ``lots_discarded``, ``free_cards`` by seat:
  this game's totals so far (C21).
* ``counts[DAY]`` (0 .. days - 1), ``counts[TURN_ID]`` and ``counts[DAY_ID]``: numbers of every
  turn and day this GameState plays, never repeating (strategies key caches on them).
* ``majority_share[place, others]`` / ``ship_share``: a player's payout when ``others + 1``
  players share the places from ``place`` on (C13, C15; see core.ranking.share_table_nb).
* ``rng``: the game's generator (draw only through core.rng); ``seat_params``; ``scratch``.

Never read ``deck`` (its order is the future) or ``removed`` (C5: secret); they are in
the record only because the engine needs them.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.dispatch import decision
from ...core.registry import MAX_PARAMS, SCRATCH_WIDTH
from ...core.resumable import STEP_DTYPE
from .rules import (
    MAX_DAYS,
    MAX_HOLDS,
    MAX_LOT_CARDS,
    MAX_PLAYERS,
    MAX_TRACK,
    MIN_PLAYERS,
    N_CARDS,
    N_GOODS,
    N_RULES,
    RULE_HOLDS,
    RULE_LOT_SIZE,
    RULE_MIN_BID,
    RULE_PLAYERS,
    RULE_TRACK_MAX,
)

# The decisions a classic strategy makes, asked by the engine as ``draw_nb(table, strategy, state, seat)``:
draw_nb = decision("draw_nb")  # C8: draw another card into the lot? -> bool
bid_nb = decision("bid_nb")  # C9: 0 = pass, else a whole number from highest + 1 to the seat's money -> int
DECISIONS = ("draw_nb", "bid_nb")

# Indices into GameState.counts.
(DECK_LEN, LOT_LEN, LOT_VALUE, AUCTIONEER, HIGHEST, HIGH_BIDDER, MAX_FREE, OPEN_SHIPS, UNSEEN, DISCARD_LEN,
 DAY, TURN_ID, DAY_ID) = range(13)
N_COUNTS = 13

# GameState.unseen[row, column]: rows are the goods 0..4 and GOLD_ROW.
GOLD_ROW = N_GOODS
UNSEEN_CARDS, UNSEEN_VALUE, UNSEEN_BY_VALUE = 0, 1, 2  # UNSEEN_BY_VALUE + v: cards worth v (0..10)
MAX_CARD_VALUE = 10
UNSEEN_WIDTH = UNSEEN_BY_VALUE + MAX_CARD_VALUE + 1

# GameState.seat_decisions[seat, column]: this game's decision statistics (engine.finish_turn_nb,
# answer_nb), two counts to a column where one event adds to both (the second from bit
# DECIDED_HIGH), so that it adds once: lots it auctioned (C8) and the cards drawn into them; times
# asked for a bid (C9) and bids made (not passes); the face value (C13) of the lots it bought.
DECIDED_LOTS, DECIDED_BIDS, DECIDED_FACE_VALUE = range(3)
N_DECIDED, DECIDED_HIGH = 3, 32

MAX_REMOVED = N_CARDS - 6 * MIN_PLAYERS  # C5: 18 cards removed with 3 players
# A day's turn log (recorded only when tracing): at most one turn per card, each at most
# 2 + 1 + 2 * players + 4 numbers besides its cards (lot and free cards: at most 36 a day).
MAX_LOG = N_CARDS * (2 + 1 + 2 * MAX_PLAYERS + 4) + N_CARDS

# Card locations recorded when tracing (the reference engine's codes).
LOC_UNSEEN, LOC_TWICE = -1, -2  # never found / found in two places: both are bugs
LOC_DECK, LOC_REMOVED, LOC_DISCARDED, LOC_SHIP = 0, 1, 2, 3  # ship of seat s: LOC_SHIP + s


_I8 = np.int64
_PER_SEAT = (_I8, MAX_PLAYERS)
STATE_DTYPE = np.dtype([
    # rule data (read-only during a game)
    ("card_good", _I8, N_CARDS), ("card_value", _I8, N_CARDS), ("card_row", _I8, N_CARDS),
    ("rules", _I8, N_RULES), ("ship_payouts", _I8, MAX_PLAYERS), ("track_bonus", _I8, MAX_TRACK + 1),
    ("keep_unseen", _I8),  # 1: a seated strategy reads `unseen`, kept up to date; 0: left stale
    # the table
    ("counts", _I8, N_COUNTS), ("lot", _I8, MAX_LOT_CARDS), ("turn_bid", *_PER_SEAT),
    ("money", *_PER_SEAT), ("track", _I8, (MAX_PLAYERS, N_GOODS)),
    ("ship", _I8, (MAX_PLAYERS, MAX_HOLDS)), ("ship_len", *_PER_SEAT), ("ship_value", *_PER_SEAT),
    ("ship_goods", _I8, (MAX_PLAYERS, N_GOODS)),
    ("unseen", _I8, (N_GOODS + 1, UNSEEN_WIDTH)),
    ("full_unseen", _I8, (N_GOODS + 1, UNSEEN_WIDTH)),  # `unseen` at the start of a day
    ("deck", _I8, N_CARDS), ("removed", _I8, MAX_REMOVED), ("discard", _I8, N_CARDS),
    # this game's totals (C21)
    ("spent", *_PER_SEAT), ("lots_bought", *_PER_SEAT), ("cards_bought", *_PER_SEAT),
    ("lots_discarded", *_PER_SEAT), ("free_cards", *_PER_SEAT),
    # who plays where
    ("seat_slot", *_PER_SEAT), ("seat_strategy", *_PER_SEAT),
    ("seat_params", np.float64, (MAX_PLAYERS, MAX_PARAMS)),
    ("scratch", np.float64, (MAX_PLAYERS, SCRATCH_WIDTH)),
    # ship_share / majority_share[place, others]: each one's payout when others + 1 players
    # share the places from `place` on (C13, C15, rounded down to the share coin; see share_table_nb)
    ("ship_share", _I8, (MAX_PLAYERS + 1, MAX_PLAYERS + 1)),
    ("majority_share", _I8, (MAX_PLAYERS + 1, MAX_PLAYERS + 1)),
    # this game's record, one row per day
    ("day_starter", _I8, MAX_DAYS), ("day_ran_out", _I8, MAX_DAYS),
    ("day_ship_value", _I8, (MAX_DAYS, MAX_PLAYERS)), ("day_ship_pay", _I8, (MAX_DAYS, MAX_PLAYERS)),
    ("day_majority_pay", _I8, (MAX_DAYS, MAX_PLAYERS)), ("day_bonus_pay", _I8, (MAX_DAYS, MAX_PLAYERS)),
    # filled only when the game is recorded (engine.py's ``record``): trace, table, tests
    ("day_track", _I8, (MAX_DAYS, MAX_PLAYERS, N_GOODS)), ("day_money", _I8, (MAX_DAYS, MAX_PLAYERS)),
    ("day_ship_cards", _I8, (MAX_DAYS, MAX_PLAYERS, MAX_HOLDS)), ("day_removed", _I8, (MAX_DAYS, MAX_REMOVED)),
    ("day_card_location", _I8, (MAX_DAYS, N_CARDS)),
    ("day_log", _I8, (MAX_DAYS, MAX_LOG)), ("day_log_len", _I8, MAX_DAYS),
    ("rng", np.uint64, 1),
    ("lot_could_grow", np.int64),  # C8 allowed another card when the lot was offered (recorded when traced)
    ("step", *STEP_DTYPE),  # where a stepped game stopped (core.resumable)
    # the designer metrics (engine.accumulate_game_nb): money after each day, decisions (DECIDED_*)
    ("day_florins", _I8, (MAX_DAYS, MAX_PLAYERS)), ("seat_decisions", _I8, (MAX_PLAYERS, N_DECIDED)),
], align=True)


# ---------------------------------------------------------------- helpers for strategies

@njit(cache=True)
def players_nb(state):
    """C1: the number of players."""
    return state.rules[RULE_PLAYERS]


@njit(cache=True)
def free_holds_nb(state, seat):
    """C3: the seat's empty holds (0: its ship is full)."""
    return state.rules[RULE_HOLDS] - state.ship_len[seat]


@njit(cache=True)
def is_open_nb(state, seat):
    """C3: the seat's ship is not full (it still auctions and bids today)."""
    return state.ship_len[seat] < state.rules[RULE_HOLDS]


@njit(cache=True)
def lot_size_nb(state):
    """C8: cards in the current lot."""
    return state.counts[LOT_LEN]


@njit(cache=True)
def may_draw_nb(state):
    """C8: may the auctioneer draw another card into the lot? (the engine asks only then)"""
    lot_len = state.counts[LOT_LEN]
    return lot_len < state.rules[RULE_LOT_SIZE] and state.counts[DECK_LEN] > 0 and state.counts[MAX_FREE] > lot_len


@njit(cache=True, inline="always")
def lowest_bid_nb(state):
    """C9: the lowest bid allowed now: above the highest bid, and at least the rules' lowest bid."""
    return max(state.counts[HIGHEST] + 1, state.rules[RULE_MIN_BID])


@njit(cache=True)
def may_bid_nb(state, seat):
    """C9: room for the whole lot and money for the lowest bid (the engine asks only then)."""
    return (state.rules[RULE_HOLDS] - state.ship_len[seat] >= state.counts[LOT_LEN]
            and state.money[seat] >= lowest_bid_nb(state))


@njit(cache=True)
def bid_order_nb(state, seat):
    """C9: when ``seat`` speaks on the current lot: 0 for the auctioneer's left, ...,
    players - 1 for the auctioneer (who speaks last)."""
    players = state.rules[RULE_PLAYERS]
    return (seat - state.counts[AUCTIONEER] - 1 + players) % players


@njit(cache=True, inline="always")  # a short loop: inlined where a strategy counts (strong, a plug-in)
def lot_goods_nb(state, good):
    """Cards of ``good`` in the current lot (C8)."""
    n = 0
    for i in range(state.counts[LOT_LEN]):
        n += state.card_good[state.lot[i]] == good
    return n


@njit(cache=True)
def track_after_nb(state, seat, good, extra):
    """C14: the seat's level in ``good`` at this day's end if ``extra`` more such cards
    joined its ship (what it has aboard counted), capped at the track's top (7)."""
    return min(state.rules[RULE_TRACK_MAX], state.track[seat, good] + state.ship_goods[seat, good] + extra)


@njit(cache=True)
def unseen_cards_nb(state):
    """C5: cards nobody has seen today (the deck and the removed cards, indistinguishable)."""
    return state.counts[UNSEEN]
