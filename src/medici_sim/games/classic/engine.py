"""The classic game's jitted engine: Medici, the 1995 auction game, on numpy arrays (C3-C18).

A game is a ``GameState`` record (``state.py``), reused from game to game and driven by
the batch kernel (``play_games_nb``). The engine never names a strategy: every decision goes through the
dispatchers ``draw_nb`` / ``bid_nb`` declared in ``state.py`` with the strategy table it
is handed, so adding a strategy never touches this file. Random draws follow
docs/protocol-classic.md exactly, so the reference engine (``reference.py``) plays the
same games.

One play loop (``finish_game_nb``) plays every game: the batch kernel's (``play_games_nb``),
a search player's rollouts (from the decision searched), and a stepped game (core.resumable:
``new_game_nb``, ``advance_nb``, ``legal_choices_nb``, ``apply_choice_nb``), which the trace,
the ``play`` table and the tests drive decision by decision. Its ``record`` argument is
``True`` when stepping, recording the game (its turn log, card locations and day-end tracks
and money) and stopping at every event, ``False`` in the kernel and the rollouts: one compiled
loop serves them all (core.resumable), so ``trace`` and ``play`` compile only the stepping functions.

The hot helpers index the record's arrays with unsigned integers (``np.uint64``): numba wraps a signed
index that could be negative, three instructions at every index; an unsigned one it does not.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core import resumable
from ...core.accounting import (
    N_COMMON_RUN_STATS,
    record_metrics_nb,
    record_outcome_nb,
)
from ...core.arrays import copy1_nb, copy2_nb
from ...core.kernel import batch_kernel
from ...core.ranking import share_table
from ...core.registry import ILLEGAL
from ...core.resumable import (
    DECISION,
    PAUSED,
    STEP_CHOICE,
    TURN_END,
    is_external_nb,
    stop_nb,
)
from ...core.rng import below_held_nb, seed_game_nb
from ...core.seating import seat_players_nb
from ...core.templates import jitted_copy
from ..medici.days import kernel_game, play_loop, poorest_seat_nb
from ..medici.scoring import N_COMMON_STATS, STAT_BONUS, STAT_MAJORITY, STAT_SHIP, STAT_TRAILED
from .recording import record_day_nb, record_turn_nb
from .rules import (
    MAX_PLAYERS,
    N_CARDS,
    N_GOODS,
    RULE_BOOK,
    RULE_DAYS,
    RULE_HOLDS,
    RULE_LOT_SIZE,
    RULE_MIN_BID,
    RULE_PLAYERS,
    RULE_REMOVED,
    RULE_START_MONEY,
)
from .scoring import score_day_nb
from .state import (
    AUCTIONEER,
    DAY,
    DAY_ID,
    DECIDED_BIDS,
    DECIDED_FACE_VALUE,
    DECIDED_HIGH,
    DECIDED_LOTS,
    DECK_LEN,
    DISCARD_LEN,
    GOLD_ROW,
    HIGH_BIDDER,
    HIGHEST,
    LOT_LEN,
    LOT_VALUE,
    MAX_FREE,
    OPEN_SHIPS,
    STATE_DTYPE,
    TURN_ID,
    UNSEEN,
    UNSEEN_BY_VALUE,
    UNSEEN_CARDS,
    UNSEEN_VALUE,
    UNSEEN_WIDTH,
    bid_nb,
    draw_nb,
)

# The classic game's statistics columns, after the common ones (game.py declares them in
# this order). STAT_PRICE_SPENT holds the florins spent again: it is the numerator of the
# ratio column price_per_card (spent / cards bought; core.stats divides a ratio column's
# own total by the total of its ``per`` column).
(STAT_SPENT, STAT_LOTS_BOUGHT, STAT_CARDS_BOUGHT, STAT_LOTS_DISCARDED, STAT_FREE_CARDS,
 STAT_PRICE_SPENT) = range(N_COMMON_STATS, N_COMMON_STATS + 6)
# Then the decision statistics (state.seat_decisions' five counts, unpacked), and the florins spent
# again: the numerator of the ratio column price_per_face_value.
(STAT_LOTS_AUCTIONED, STAT_LOT_CARDS, STAT_BID_CHANCES, STAT_BIDS, STAT_FACE_VALUE,
 STAT_PRICE_PER_FACE) = range(N_COMMON_STATS + 6, N_COMMON_STATS + 12)
STAT_DECIDED = STAT_LOTS_AUCTIONED
LOW_COUNT = (1 << DECIDED_HIGH) - 1
N_STATS = STAT_PRICE_PER_FACE + 1
# The classic game's run-wide counters, after the common ones (core.accounting).
RUN_RAN_OUT_DAYS = N_COMMON_RUN_STATS
N_RUN_STATS = N_COMMON_RUN_STATS + 1


def new_state(card_good, card_value, rules, ship_payouts, track_bonus, majority_payouts, share_coin,
              keep_unseen=True) -> np.ndarray:
    """A one-element array holding the GameState every game of a run starts from (the kernel's
    ``inputs``; each kernel call plays on a copy): the cards and rule data (rules.rule_arrays,
    the majority payouts and the share coin), the unseen-card sums of all 36 cards and the
    share tables, all else zero; ``keep_unseen``: whether the games keep the unseen-card sums
    up to date (a seated strategy reads them). Plain Python: it runs once a run, and compiled it
    would be compiled again into every kernel.
    """
    buffer = np.zeros(1, STATE_DTYPE)
    state = buffer[0]
    state["keep_unseen"] = keep_unseen
    for name, values in (("card_good", card_good), ("card_value", card_value), ("rules", rules),
                         ("ship_payouts", ship_payouts), ("track_bonus", track_bonus)):
        state[name][:len(values)] = values
    for card in range(N_CARDS):
        good, value = card_good[card], card_value[card]
        row = good if good >= 0 else GOLD_ROW
        state["card_row"][card] = row
        unseen = state["full_unseen"][row]
        unseen[UNSEEN_CARDS] += 1
        unseen[UNSEEN_VALUE] += value
        unseen[UNSEEN_BY_VALUE + value] += 1
    state["ship_share"] = share_table(ship_payouts, share_coin, MAX_PLAYERS)
    state["majority_share"] = share_table(majority_payouts, share_coin, MAX_PLAYERS)
    return buffer


# ---------------------------------------------------------------- a game

@njit(cache=True, inline="always")
def start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params):
    """Seed game ``game_index`` (C20), seat the strategies (C20, first thing) and reset the
    game-long state: money (C4), tracks (C14) and the C21 totals."""
    seed_game_nb(state.rng, seed, game_index)
    players = state.rules[RULE_PLAYERS]
    seat_players_nb(state, players, game_index, seating, slot_strategy, slot_params)
    state.money[:] = state.rules[RULE_START_MONEY]
    state.track[:, :] = 0
    state.spent[:] = 0
    state.lots_bought[:] = 0
    state.cards_bought[:] = 0
    state.lots_discarded[:] = 0
    state.free_cards[:] = 0
    state.seat_decisions[:, :] = 0


# Where play resumes (``finish_game_nb``): in a turn (a search player's rollouts start from the
# decision being searched, strategies/search.py), or at a day's start, end or scoring (a stepped game,
# games/medici/days.py). TURN_OVER is after the sale and C11, before C7 picks the next auctioneer.
TURN_START, TURN_DRAW, TURN_BID, TURN_SALE, TURN_OVER = range(5)  # before it; asking C8; asking C9; C10 on; after
DRAW_DECISION, BID_DECISION = range(2)  # state.DECISIONS order: DECISION + k of a stop (core.resumable)


@njit(cache=True)
def last_day_nb(state):
    """The index of the game's last day (C18: the rule set's ``days``)."""
    return state.rules[RULE_DAYS] - 1


@njit(cache=True)
def begin_day_nb(state, day, starter):
    """Day ``day`` with ``starter`` to auction first (C6), its deck dealt (start_day_nb)."""
    state.counts[DAY] = day
    state.counts[DAY_ID] += 1
    state.day_starter[day] = starter
    start_day_nb(state)


@njit(cache=True)
def start_day_nb(state):
    """C5, C17: all 36 cards in the pile, ships empty, then the removed cards dealt face down."""
    players = state.rules[RULE_PLAYERS]
    for card in range(N_CARDS):
        state.deck[card] = card
    state.counts[DECK_LEN] = N_CARDS
    state.counts[DISCARD_LEN] = 0
    state.counts[OPEN_SHIPS] = players
    state.counts[UNSEEN] = N_CARDS  # the removed cards stay unseen (C5)
    if state.keep_unseen:
        for row in range(N_GOODS + 1):  # copied here: called, copy2_nb's loop over runtime shapes took 2% of a game
            for column in range(UNSEEN_WIDTH):
                state.unseen[row, column] = state.full_unseen[row, column]
    state.ship_len[:] = 0
    state.ship_value[:] = 0
    state.ship_goods[:, :] = 0
    state.counts[LOT_LEN] = 0
    state.counts[LOT_VALUE] = 0
    state.day_log_len[state.counts[DAY]] = 0
    rng = state.rng[0]
    for i in range(state.rules[RULE_REMOVED]):
        state.removed[i], rng = deal_nb(state, rng, N_CARDS - i)
    state.rng[0] = rng


@njit(cache=True)
def deal_nb(state, rng, n):
    """The top card of the shuffled deck of ``n`` cards (the caller's count, written here less one): a
    uniformly random card of the pile, the pile's last card filling its place (protocol: the day's deck), with
    the generator's state ``rng`` (held by the caller: core.rng.below_held_nb). Returns the card and the
    generator's state after."""
    j, rng = below_held_nb(rng, n)
    at = np.uint64(j)
    card = state.deck[at]
    state.deck[at] = state.deck[np.uint64(n - 1)]  # n > 0: C8, C11 and C5 deal only from a deck with cards
    state.counts[DECK_LEN] = n - 1
    return card, rng


@njit(cache=True)
def reveal_nb(state, card):
    """A card dealt face up: take it out of the unseen-card sums, where a seated strategy reads them (kept,
    they cost the cheap strategies' games 4%)."""
    if state.keep_unseen:
        at = np.uint64(card)
        row = np.uint64(state.card_row[at])
        value = state.card_value[at]
        state.unseen[row, UNSEEN_CARDS] -= 1
        state.unseen[row, UNSEEN_VALUE] -= value
        state.unseen[row, np.uint64(UNSEEN_BY_VALUE + value)] -= 1
        state.counts[UNSEEN] -= 1


@njit(cache=True)
def load_nb(state, seat, card):
    """C10, C11: put a card into the seat's next free hold (cards never move once loaded)."""
    at, hold = np.uint64(seat), np.uint64(card)
    n = state.ship_len[at]
    state.ship[at, np.uint64(n)] = card
    state.ship_len[at] = n + 1
    state.ship_value[at] += state.card_value[hold]
    good = state.card_good[hold]  # no jump on it (gold, one card in 36, is a mispredicted one)
    state.ship_goods[at, np.uint64(max(good, 0))] += np.int64(good >= 0)


@njit(cache=True, inline="always")
def play_day_nb(state, day, seat, phase, arg, table, record):
    """The day's turns (finish_day_nb), whether they ran out (C12) kept and, recording, the day
    logged. Returns True if it stopped (a stepped game, core.resumable)."""
    ran_out = finish_day_nb(state, seat, phase, arg, table, record)
    if ran_out == PAUSED:
        return True
    state.day_ran_out[day] = ran_out
    if record:
        record_day_nb(state, day)
    return False


@njit(cache=True)
def finish_day_nb(state, seat, phase, arg, table, record):
    """C7-C12: turns from auctioneer ``seat``'s at ``phase`` (TURN_*; ``arg``: at TURN_BID the
    next seat to answer, at TURN_OVER whether the day ends) until the day ends. Returns 1 if
    it ran out (C12), 0 if not, PAUSED if it stopped (a stepped game, core.resumable)."""
    if record:
        return recorded_day_nb(state, seat, phase, arg, table, True)
    return quiet_day_nb(state, seat, phase, arg, table, False)


def finish_day(state, seat, phase, arg, table, record):
    """finish_day_nb's turns; ``play_turn``, an auction from ``phase`` (finish_turn), is bound
    where the two copies below are made."""
    players = state.rules[RULE_PLAYERS]
    holds = state.rules[RULE_HOLDS]
    # the generator held here (core.rng.below_held_nb); the record's is written before a decision and at a turn's end
    rng = state.rng[0]
    while True:
        if phase == TURN_START:
            if state.counts[DECK_LEN] == 0:
                return 1  # C12: the deck is empty at the start of a turn; every ship sails as it is
            if record:
                if stop_nb(state, resumable.TURN_START, seat, state.counts[DAY], seat, phase, 0):
                    return PAUSED
            rng = begin_turn_nb(state, seat, rng)
            phase = TURN_DRAW
        if phase == TURN_OVER:
            over = arg
        else:
            over, rng = play_turn(state, seat, phase, arg, table, record, rng)  # noqa: F821  (bound below)
        if over == PAUSED:
            return PAUSED
        state.rng[0] = rng
        if record:
            if stop_nb(state, TURN_END, seat, state.counts[DAY], seat, TURN_OVER, over):
                return PAUSED
        phase = TURN_START
        if over:
            return 0  # C11 (or no open ship left): the day is over
        seat += 1  # C7: clockwise, skipping full ships (at least two ships are open here)
        if seat == players:
            seat = 0
        while state.ship_len[np.uint64(seat)] == holds:
            seat += 1
            if seat == players:
                seat = 0


@njit(cache=True, inline="always")
def begin_turn_nb(state, auctioneer, rng):
    """An auction's start (C8): ``auctioneer`` draws its obligatory first card; finish_turn_nb
    plays the rest from TURN_DRAW. ``rng``: the generator's state, held by the caller; returned after."""
    counts = state.counts
    players = state.rules[RULE_PLAYERS]
    counts[TURN_ID] += 1
    counts[AUCTIONEER] = auctioneer
    counts[HIGHEST] = 0
    counts[HIGH_BIDDER] = -1
    holds = state.rules[RULE_HOLDS]
    max_free = 0
    for p in range(players):
        state.turn_bid[p] = -1
        max_free = max(max_free, holds - state.ship_len[p])  # a full ship has 0
    counts[MAX_FREE] = max_free
    # the lot is empty (its length and value zeroed at the turn before's end, or the day's start)
    return add_to_lot_nb(state, rng, counts[DECK_LEN], 0)  # C8: the first card is obligatory


@njit(cache=True, inline="always")
def add_to_lot_nb(state, rng, deck_len, lot_len):
    """C8: deal a card face up onto the end of the lot, of ``lot_len`` cards, from the deck of ``deck_len`` (the
    caller's counts: it adds one to the lot's and takes one from the deck's; here written to the record). ``rng``:
    the generator's state; returned after."""
    card, rng = deal_nb(state, rng, deck_len)
    reveal_nb(state, card)
    state.lot[np.uint64(lot_len)] = card
    state.counts[LOT_LEN] = lot_len + 1
    state.counts[LOT_VALUE] += state.card_value[np.uint64(card)]
    return rng


@njit(cache=True)
def answer_nb(state, seat, answer):
    """C9: take ``seat``'s answer (0 pass, or a bid), refusing an illegal one."""
    take_answer_nb(state, seat, answer, state.counts[HIGHEST], state.counts[HIGH_BIDDER])


@njit(cache=True, inline="always")
def take_answer_nb(state, seat, answer, highest, high_bidder):
    """answer_nb with the highest bid and its bidder so far held by the caller; returns them after."""
    amount = np.int64(answer)
    if amount != answer:
        raise ValueError(ILLEGAL, seat, state.seat_strategy[seat], "bid a number of florins that is not whole (C9)")
    at = np.uint64(seat)
    if amount != 0:
        if amount <= highest or amount < state.rules[RULE_MIN_BID] or amount > state.money[at]:
            raise ValueError(ILLEGAL, seat, state.seat_strategy[seat],
                             "bid out of range: a bid is 0 (pass) or from the highest bid + 1 (and the lowest "
                             "bid) to its money (C9)")
        state.counts[HIGHEST] = highest = amount
        state.counts[HIGH_BIDDER] = high_bidder = seat
    state.turn_bid[at] = amount
    state.seat_decisions[at, DECIDED_BIDS] += 1 + (np.int64(amount != 0) << DECIDED_HIGH)
    return highest, high_bidder


def finish_turn(state, auctioneer, phase, bidder, table, record, rng):
    """The rest of ``auctioneer``'s auction from ``phase``: more cards while the auctioneer asks for them
    (TURN_DRAW, C8), the answers from ``bidder`` round to the auctioneer (TURN_BID; from the auctioneer's left
    after drawing, C9), then the sale (C10, C11), with the generator's state ``rng`` (the caller's; the record's
    written before a decision or a stop, read back after a decision). Returns 1 when the day ends after it, else
    0, PAUSED when it stopped to ask an EXTERNAL seat (a stepped game, core.resumable); and the generator's state."""
    counts = state.counts
    players = state.rules[RULE_PLAYERS]
    holds = state.rules[RULE_HOLDS]
    # the deck's and the lot's counts held here, written through to the record (strategies read them there): a
    # decision changes none of them, and a store into the record's arrays makes the compiler load them again
    deck_len = counts[DECK_LEN]
    lot_len = counts[LOT_LEN]
    if phase == TURN_DRAW:
        strategy = state.seat_strategy[auctioneer]
        external = is_external_nb(state, auctioneer, record)
        lot_size = state.rules[RULE_LOT_SIZE]
        max_free = counts[MAX_FREE]
        while lot_len < lot_size and deck_len > 0 and max_free > lot_len:  # C8
            state.rng[0] = rng
            if external:
                if stop_nb(state, DECISION + DRAW_DECISION, auctioneer, counts[DAY], auctioneer, TURN_DRAW, 0):
                    return PAUSED, rng
                more = state.step[STEP_CHOICE] != 0
            else:
                more = draw_nb(table, strategy, state, auctioneer)
            rng = state.rng[0]
            if not more:
                break
            rng = add_to_lot_nb(state, rng, deck_len, lot_len)
            deck_len -= 1
            lot_len += 1
        if record:  # the auctioneer stopped, or C8 did
            state.lot_could_grow = lot_len < lot_size and deck_len > 0 and max_free > lot_len
        phase = TURN_BID
        bidder = auctioneer + 1 if auctioneer + 1 < players else 0

    # C9: one chance each, from the auctioneer's left; the auctioneer decides last. A seat
    # with too few free holds (a full ship has none) or too little money passes unasked.
    if phase == TURN_BID:
        min_bid = state.rules[RULE_MIN_BID]
        highest, high_bidder = counts[HIGHEST], counts[HIGH_BIDDER]
        seat = bidder
        while True:
            at = np.uint64(seat)
            if holds - state.ship_len[at] >= lot_len and state.money[at] >= max(highest + 1, min_bid):
                state.rng[0] = rng
                if is_external_nb(state, seat, record):
                    if stop_nb(state, DECISION + BID_DECISION, seat, counts[DAY], auctioneer, TURN_BID, seat):
                        return PAUSED, rng
                    answer = state.step[STEP_CHOICE]
                else:
                    answer = bid_nb(table, state.seat_strategy[at], state, seat)
                rng = state.rng[0]
                highest, high_bidder = take_answer_nb(state, seat, answer, highest, high_bidder)
            if seat == auctioneer:
                break
            seat += 1
            if seat == players:
                seat = 0

    # C10: the sale (the price goes to the bank, the lot aboard in lot order), or the discard.
    winner = counts[HIGH_BIDDER]
    free_seat = -1
    seller = np.uint64(auctioneer)
    if winner >= 0:
        at = np.uint64(winner)
        price = counts[HIGHEST]
        state.money[at] -= price
        state.spent[at] += price
        state.lots_bought[at] += 1
        state.cards_bought[at] += lot_len
        state.seat_decisions[at, DECIDED_FACE_VALUE] += counts[LOT_VALUE]
        for i in range(lot_len):
            load_nb(state, winner, state.lot[i])
        if state.ship_len[at] == holds:
            counts[OPEN_SHIPS] -= 1
    else:
        discard_len = counts[DISCARD_LEN]
        for i in range(lot_len):
            state.discard[np.uint64(discard_len + i)] = state.lot[i]
        counts[DISCARD_LEN] = discard_len + lot_len
        state.lots_discarded[seller] += 1

    # C11: a sale that leaves exactly one open ship fills it for free from the deck.
    free_from = 0
    if winner >= 0 and counts[OPEN_SHIPS] == 1:
        free_seat = 0
        while state.ship_len[free_seat] == holds:
            free_seat += 1
        free_from = state.ship_len[free_seat]
        while state.ship_len[free_seat] < holds and deck_len > 0:
            card, rng = deal_nb(state, rng, deck_len)
            deck_len -= 1
            reveal_nb(state, card)
            load_nb(state, free_seat, card)
        state.free_cards[free_seat] += state.ship_len[free_seat] - free_from
    if record:
        record_turn_nb(state, auctioneer, free_seat, free_from)
    # C21's count of the seller's lot, last: added after the sale, before C11's free cards, the random games
    # ran 2.7% slower (a store into the record's arrays makes the compiler load what C11 reads again)
    state.seat_decisions[seller, DECIDED_LOTS] += 1 + (lot_len << DECIDED_HIGH)
    counts[LOT_LEN] = 0
    counts[LOT_VALUE] = 0
    return (1 if free_seat >= 0 or counts[OPEN_SHIPS] == 0 else 0), rng


# The day and its auctions compiled twice each: a stepped game's (``record`` always true in these called
# copies; the auction called), and the kernel's and the rollouts' (record a constant false: the auction inlined
# into the day, the day into finish_day_nb), so that the kernel's turns test no stop and no person's seat,
# and share their function with no recording code. With the recording day in the same function as the
# quiet one, the classic game's cheap strategies played 4-10% slower (bargain 0.90 of the code before the
# redesign, 0.95 apart); each day copy names its auction (``play_turn``), so that the recording day does
# not inline a quiet auction it never plays (that cost 6 CPU s of the first compile). Named apart: numba
# names its cache files by the name. The day copies see this module's names as they are here (a copy of
# globals() binding ``play_turn``): define what they call above this point.
finish_turn_nb = jitted_copy(finish_turn, globals(), "finish_turn_nb", cache=True)
quiet_turn_nb = jitted_copy(finish_turn, globals(), "quiet_turn_nb", cache=True, inline="always")
recorded_day_nb = jitted_copy(finish_day, {**globals(), "play_turn": finish_turn_nb}, "recorded_day_nb", cache=True)
quiet_day_nb = jitted_copy(finish_day, {**globals(), "play_turn": quiet_turn_nb}, "quiet_day_nb", cache=True,
                           inline="always")


@njit(cache=True)
def play_choice_nb(state, seat, decision, choice):
    """Apply ``seat``'s answer ``choice`` to ``decision`` (DRAW_DECISION: 0 offer the lot, 1
    draw; BID_DECISION: the bid, 0 to pass) and return (the turn phase, its ``arg``) play
    resumes from (a search player's rollout: ``finish_game_nb`` from there)."""
    players = state.rules[RULE_PLAYERS]
    auctioneer = state.counts[AUCTIONEER]
    if decision == DRAW_DECISION:
        if choice:
            state.rng[0] = add_to_lot_nb(state, state.rng[0], state.counts[DECK_LEN], state.counts[LOT_LEN])
            return TURN_DRAW, 0
        return TURN_BID, auctioneer + 1 if auctioneer + 1 < players else 0
    answer_nb(state, seat, choice)
    if seat == auctioneer:
        return TURN_SALE, 0
    return TURN_BID, seat + 1 if seat + 1 < players else 0


@njit(cache=True)
def copy_play_nb(dst, src):
    """Make ``dst`` play on exactly as ``src`` would: copy what play reads or changes (a search
    player's rollout, strategies/search.py). ``dst`` must already hold ``src``'s rule data (a
    copy of the record made once per decision); the day records and the turn log are only
    ever written."""
    copy1_nb(dst.counts, src.counts)
    copy1_nb(dst.lot, src.lot)
    copy1_nb(dst.turn_bid, src.turn_bid)
    copy1_nb(dst.money, src.money)
    copy2_nb(dst.track, src.track)
    copy2_nb(dst.ship, src.ship)
    copy1_nb(dst.ship_len, src.ship_len)
    copy1_nb(dst.ship_value, src.ship_value)
    copy2_nb(dst.ship_goods, src.ship_goods)
    copy2_nb(dst.unseen, src.unseen)
    copy1_nb(dst.deck, src.deck)
    copy1_nb(dst.removed, src.removed)
    copy1_nb(dst.discard, src.discard)
    copy1_nb(dst.spent, src.spent)
    copy1_nb(dst.lots_bought, src.lots_bought)
    copy1_nb(dst.cards_bought, src.cards_bought)
    copy1_nb(dst.lots_discarded, src.lots_discarded)
    copy1_nb(dst.free_cards, src.free_cards)
    copy1_nb(dst.seat_slot, src.seat_slot)
    copy1_nb(dst.seat_strategy, src.seat_strategy)
    copy2_nb(dst.seat_params, src.seat_params)
    copy2_nb(dst.scratch, src.scratch)
    dst.rng[0] = src.rng[0]


# ---------------------------------------------------------------- scoring (scoring.py: C13-C16)

@njit(cache=True)
def next_starter_nb(state):
    """C6: the fewest florins starts the next day; among k > 1 such seats (ascending),
    ``tied[below(k)]``; with one, no draw."""
    return poorest_seat_nb(state.money, state.rules[RULE_PLAYERS], state.rng)


# ---------------------------------------------------------------- many games

@njit(cache=True, inline="always")  # inlined: called, the random games ran about 5% slower
def accumulate_game_nb(state, rows, pair_stats, run_stats):
    """Write one finished game's statistics: the seats' ``rows`` (zero on entry, core.accounting),
    the pairs and the run (integers only: exact in any order)."""
    players = state.rules[RULE_PLAYERS]
    record_outcome_nb(state.money, players, state.seat_slot, rows, pair_stats, run_stats)  # C18
    lots = 0
    for seat in range(players):
        lots_word, bids_word = state.seat_decisions[seat, DECIDED_LOTS], state.seat_decisions[seat, DECIDED_BIDS]
        ship = majority = bonus = 0
        for day in range(state.rules[RULE_DAYS]):
            ship += state.day_ship_pay[day, seat]
            majority += state.day_majority_pay[day, seat]
            bonus += state.day_bonus_pay[day, seat]
        rows[seat, STAT_SHIP] = ship  # C21
        rows[seat, STAT_MAJORITY] = majority
        rows[seat, STAT_BONUS] = bonus
        rows[seat, STAT_SPENT] = state.spent[seat]
        rows[seat, STAT_LOTS_BOUGHT] = state.lots_bought[seat]
        rows[seat, STAT_CARDS_BOUGHT] = state.cards_bought[seat]
        rows[seat, STAT_LOTS_DISCARDED] = state.lots_discarded[seat]
        rows[seat, STAT_FREE_CARDS] = state.free_cards[seat]
        rows[seat, STAT_PRICE_SPENT] = state.spent[seat]
        rows[seat, STAT_LOTS_AUCTIONED] = lots_word & LOW_COUNT
        rows[seat, STAT_LOT_CARDS] = lots_word >> DECIDED_HIGH
        rows[seat, STAT_BID_CHANCES] = bids_word & LOW_COUNT
        rows[seat, STAT_BIDS] = bids_word >> DECIDED_HIGH
        rows[seat, STAT_FACE_VALUE] = state.seat_decisions[seat, DECIDED_FACE_VALUE]
        rows[seat, STAT_PRICE_PER_FACE] = state.spent[seat]
        lots += lots_word & LOW_COUNT
    for day in range(state.rules[RULE_DAYS]):
        run_stats[RUN_RAN_OUT_DAYS] += state.day_ran_out[day]  # C12
    record_metrics_nb(state.day_florins[:state.rules[RULE_DAYS]], players, rows, run_stats, lots, STAT_TRAILED, -1)


# The play loop, both Medici games' (games/medici/days.py's play_loop): from auctioneer seat's turn at a phase
# (TURN_*, or a day's PHASE_*) to the end of a day, through the day's functions above (C5-C17;
# scoring is score_day_nb). A whole game is the batch kernel's (kernel_game, below); a search player's rollouts
# play a copy of the state from its decision (strategies/search.py); a stepped game stops at every event.
finish_game_nb = play_loop(DAY, play_day_nb, score_day_nb, next_starter_nb, begin_day_nb)

# A search player's rollouts play the same compiled loop (its decisions are compiled apart from the
# kernel, and reached through the strategy table's addresses: core.dispatch).
rollout_game_nb = finish_game_nb

# The batch kernel plays the same compiled loop through its address (games/medici/days.kernel_game), handed
# record False: the kernel's functions (and paired play's, and an agent's) link none of the engine's code, which
# LLVM optimised and made machine code of again in each.
play_games_nb, play_game_in_nb = batch_kernel(start_game_nb, kernel_game(begin_day_nb, finish_game_nb, last_day_nb,
                                                                         RULE_BOOK.game), accumulate_game_nb,
                                              counted=False)  # the loop reached through its address
