"""The card game's jitted engine: Medici: The Card Game on numpy arrays (R6-R22).

A game is a ``GameState`` record (``state.py``), reused from game to game and driven by
the batch kernel (``play_games_nb``). The engine never names a strategy: every decision goes through the
dispatchers ``reveal_nb`` / ``take_nb`` declared in ``state.py`` with the strategy table it
is handed, so adding a strategy never touches this file. Random draws follow
docs/protocol.md exactly, so the reference engine (``reference.py``) plays the same games.

One play loop (``finish_game_nb``) plays every game: the batch kernel's (``play_games_nb``),
a search player's rollouts (from the decision searched), and a stepped game (core.resumable:
``new_game_nb``, ``advance_nb``, ``legal_choices_nb``, ``apply_choice_nb``), which the trace,
the ``play`` table and the tests drive decision by decision. Its ``record`` argument is
``True`` when stepping, recording the game (its turns and where every card is) and stopping
at every event, ``False`` in the kernel and the rollouts: one compiled loop serves them all
(core.resumable), so ``trace`` and ``play`` compile only the stepping functions.

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
from ...core.ranking import pay_places_nb, share_table
from ...core.registry import ILLEGAL
from ...core.resumable import (
    DECISION,
    STEP_CHOICE,
    TURN_END,
    is_external_nb,
    stop_nb,
)
from ...core.rng import below_held_nb, seed_game_nb
from ...core.seating import seat_players_nb
from ..medici.days import kernel_game, play_loop, poorest_seat_nb
from ..medici.scoring import N_COMMON_STATS, STAT_BONUS, STAT_MAJORITY, STAT_SHIP, STAT_TRAILED
from .recording import record_card_locations_nb, record_turn_nb
from .rules import (
    MAX_PLAYERS,
    N_GOODS,
    RULE_BIG_BONUS,
    RULE_BIG_BONUS_MIN,
    RULE_BONUS,
    RULE_BONUS_MIN,
    RULE_BOOK,
    RULE_CAPACITY,
    RULE_DAYS,
    RULE_PLAYERS,
    RULE_REVEALS,
)
from .state import (
    DAY,
    DAY_ID,
    DECIDED_BITS,
    DECIDED_FREE_TAKES,
    DECIDED_REVEALS,
    DECIDED_TAKEN,
    DECIDED_TURNS,
    DECK_LEN,
    MARKET_LEN,
    N_CARDS,
    N_DECIDED,
    OUT_LEN,
    REVEALED,
    STATE_DTYPE,
    TURN_ID,
    UNSEEN_CARDS,
    UNSEEN_ICONS,
    UNSEEN_NO_GOOD,
    UNSEEN_VALUE,
    UNSEEN_WIDTH,
    fits_nb,
    reveal_nb,
    take_nb,
    takes_space_nb,
)

# The card game's own run-wide counters, after the common ones (core.accounting).
RUN_RAN_OUT_DAYS, RUN_VARIANT_DECIDED = range(N_COMMON_RUN_STATS, N_COMMON_RUN_STATS + 2)
N_RUN_STATS = N_COMMON_RUN_STATS + 2
# The card game's statistics columns (game.py declares them in this order): state.seat_decisions'.
STAT_DECIDED = N_COMMON_STATS
DECIDED_MASK = (1 << DECIDED_BITS) - 1
N_STATS = N_COMMON_STATS + N_DECIDED


def new_state(card_good, card_icons, card_value, card_green, rules, ship_payouts, majority_payouts,
              share_coin, keep_unseen=True) -> np.ndarray:
    """A one-element array holding the GameState every game of a run starts from (the kernel's
    ``inputs``; each kernel call plays on a copy): the deck and rule data, the whole deck's
    unseen-card sums and the share tables, all else zero; ``keep_unseen``: whether the games keep
    the unseen-card sums up to date (a seated strategy reads them). Plain Python: it runs once a
    run, and compiled it would be compiled again into every kernel.
    """
    buffer = np.zeros(1, STATE_DTYPE)
    state = buffer[0]
    state["keep_unseen"] = 1  # the whole deck's sums counted below
    n_cards = len(card_good)
    for name, values in (("card_good", card_good), ("card_icons", card_icons), ("card_value", card_value),
                         ("card_green", card_green), ("rules", rules), ("ship_payouts", ship_payouts)):
        state[name][:len(values)] = values
    state["counts"][N_CARDS] = n_cards
    for card in range(n_cards):
        good = card_good[card]
        state["card_unseen"][card] = UNSEEN_ICONS + 2 * good + card_icons[card] - 1 if good >= 0 else UNSEEN_NO_GOOD
    for card in range(n_cards):
        count_unseen_nb(state, card, 1)
    state["full_deck_unseen"] = state["unseen"]
    state["keep_unseen"] = keep_unseen
    state["ship_share"] = share_table(ship_payouts, share_coin, MAX_PLAYERS)
    state["majority_share"] = share_table(majority_payouts, share_coin, MAX_PLAYERS)
    return buffer


# ---------------------------------------------------------------- a game

@njit(cache=True, inline="always")
def start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params):
    """Seed game ``game_index`` (R25), seat the strategies (R24) and clear the table."""
    seed_game_nb(state.rng, seed, game_index)
    seat_players_nb(state, state.rules[RULE_PLAYERS], game_index, seating, slot_strategy, slot_params)
    n_cards = state.counts[N_CARDS]
    for card in range(n_cards):
        state.deck[card] = card
    if state.keep_unseen:
        for green in range(2):  # a loop of known bounds here, not a call handed two arrays
            for k in range(UNSEEN_WIDTH):
                state.unseen[green, k] = state.full_deck_unseen[green, k]
    state.counts[DECK_LEN] = n_cards
    state.counts[MARKET_LEN] = 0
    state.counts[OUT_LEN] = 0
    state.warehouse_len[:] = 0
    state.warehouse_icons[:, :] = 0
    state.florins[:] = 0
    state.variant_extra[:] = 0
    state.day_turn_count[:] = 0
    state.seat_decisions[:] = 0


# Where play resumes (``finish_game_nb``): in a turn (a search player's rollouts start from the
# decision being searched, strategies/search.py), or at a day's start, end or scoring (a stepped game,
# games/medici/days.py). TURN_OVER is after R10, before R8 picks the next seat.
TURN_START, TURN_REVEAL, TURN_TAKE, TURN_OVER = range(4)  # before it; asking R9; asking R10; after R10
REVEAL_DECISION, TAKE_DECISION = range(2)  # state.DECISIONS order: DECISION + k of a stop (core.resumable)
MAX_TAKES = 4  # R10: the last card alone, with the 2nd-, the 3rd-from-last, or both


@njit(cache=True)
def last_day_nb(state):
    """The index of the game's last day (R22: the rule set's ``days``)."""
    return state.rules[RULE_DAYS] - 1


@njit(cache=True)
def begin_day_nb(state, day, starter):
    """A new day: ships empty (R16 unloaded them), ``starter`` to play first (R8, R21)."""
    state.counts[DAY] = day
    state.counts[DAY_ID] += 1
    state.day_starter[day] = starter
    state.ship_len[:] = 0
    state.ship_used[:] = 0
    state.ship_value[:] = 0
    state.ship_icons[:, :] = 0


@njit(cache=True)
def open_ships_nb(state):
    """Ships not full (R8, R11)."""
    capacity = state.rules[RULE_CAPACITY]
    n = 0
    for p in range(state.rules[RULE_PLAYERS]):
        n += state.ship_used[p] < capacity
    return n


@njit(cache=True)
def play_day_nb(state, day, seat, phase, arg, table, record):
    """Turns from ``seat``'s turn at ``phase`` (TURN_*; ``arg``, which the classic game's
    phases use, is the same at all of the card game's) until the day ends (R8, R11, R12).
    Returns True if it stopped (a stepped game, core.resumable)."""
    players = state.rules[RULE_PLAYERS]
    capacity = state.rules[RULE_CAPACITY]
    ran_out = 0
    open_now = open_ships_nb(state)  # kept as turns fill ships: only the seat at play can fill its own
    rng = state.rng[0]  # the generator held here (core.rng.below_held_nb), in the record at every decision and stop
    while True:
        # R11: a turn played when exactly one ship is open is that player's final turn (its
        # ship was open when its turn began: a turn already over may have filled it)
        open_before = open_now + (phase == TURN_OVER and state.ship_used[seat] == capacity)
        if phase == TURN_START:
            if state.counts[MARKET_LEN] == 0 and state.counts[DECK_LEN] == 0:
                ran_out = 1  # R12
                break
            if record:
                state.rng[0] = rng
                if stop_nb(state, resumable.TURN_START, seat, day, seat, phase, open_before == 1):
                    return True
            state.counts[TURN_ID] += 1  # a new turn: R9 reveal, then R10 take
            state.counts[REVEALED] = 0
        if phase != TURN_OVER:  # one call (inlined): the turn from its start, or from a decision
            stopped, rng = finish_turn_nb(state, seat, phase != TURN_TAKE, table, record, rng)
            if stopped:
                return True
        if record:
            state.rng[0] = rng
            if stop_nb(state, TURN_END, seat, day, seat, TURN_OVER, 0):
                return True
        phase = TURN_START
        open_now = open_before - (state.ship_used[seat] == capacity)
        if open_before == 1 or open_now == 0:
            break  # R11: the final turn is over, or every ship is full
        seat = next_seat_nb(seat, players)  # R8: clockwise, skipping full ships
        while state.ship_used[seat] == capacity:
            seat = next_seat_nb(seat, players)
    state.rng[0] = rng
    state.day_ran_out[day] = ran_out
    for p in range(players):
        state.day_ship_value[day, p] = state.ship_value[p]
    if record:
        record_card_locations_nb(state, day)
    return False


@njit(cache=True, inline="always")
def next_seat_nb(seat, players):
    """The seat on ``seat``'s left: ``(seat + 1) % players`` without a division (a division is
    the slowest instruction of a turn, and on the path to everything the next turn reads)."""
    seat += 1
    return 0 if seat == players else seat


@njit(cache=True, inline="always")
def finish_turn_nb(state, seat, revealing, table, record, rng):
    """The rest of a turn: more reveals while the strategy asks for them (R9; ``revealing``
    False: it has stopped), then the take (R10). An EXTERNAL seat's answers come from the
    caller (a stepped game). ``rng``: the generator's state, which the caller holds (the
    record's is written before a decision or a stop, and read back after a decision).
    Returns whether it stopped to ask, and the generator's state."""
    strategy = state.seat_strategy[seat]
    external = is_external_nb(state, seat, record)
    # the counts in variables, written through to the record: read back after each store into the record's
    # arrays (which the compiler cannot tell from them), they made each reveal wait on the stores before it
    deck_len = state.counts[DECK_LEN]
    market_len = state.counts[MARKET_LEN]
    revealed = state.counts[REVEALED]
    reveals = state.rules[RULE_REVEALS]
    while revealing and revealed < reveals and deck_len > 0:
        # R9: with an empty market the first reveal is obligatory, nobody is asked
        if market_len > 0:
            state.rng[0] = rng
            if external:
                if stop_nb(state, DECISION + REVEAL_DECISION, seat, state.counts[DAY], seat, TURN_REVEAL, 0):
                    return True, rng
                more = state.step[STEP_CHOICE] != 0
            else:
                more = reveal_nb(table, strategy, state, seat)
            rng = state.rng[0]
            if not more:
                break
        rng = reveal_card_nb(state, rng, deck_len, market_len, revealed)
        deck_len -= 1
        market_len += 1
        revealed += 1
    state.rng[0] = rng
    if external:
        if stop_nb(state, DECISION + TAKE_DECISION, seat, state.counts[DAY], seat, TURN_TAKE, 0):
            return True, rng
        choice = state.step[STEP_CHOICE]
    else:
        choice = take_nb(table, strategy, state, seat)
    rng = state.rng[0]
    if record:
        record_turn_nb(state, seat, choice)
    take_cards_nb(state, seat, choice, market_len, revealed)
    return False, rng


@njit(cache=True)
def play_choice_nb(state, seat, decision, choice):
    """Apply ``seat``'s answer ``choice`` to ``decision`` (REVEAL_DECISION: 0 stop, 1 reveal;
    TAKE_DECISION: the take flags) and return the turn phase play resumes from (a search
    player's rollout: ``finish_game_nb`` from there)."""
    counts = state.counts
    if decision == TAKE_DECISION:
        take_cards_nb(state, seat, choice, counts[MARKET_LEN], counts[REVEALED])
        return TURN_OVER
    if choice:
        state.rng[0] = reveal_card_nb(state, state.rng[0], counts[DECK_LEN], counts[MARKET_LEN], counts[REVEALED])
        return TURN_REVEAL
    return TURN_TAKE


@njit(cache=True, inline="always")
def reveal_card_nb(state, rng, deck_len, market_len, revealed):
    """Draw a uniformly random card from the pile onto the market's end (protocol: lazy shuffle), with the
    generator's state ``rng``, the pile, the market and the turn's reveals counting ``deck_len``,
    ``market_len`` and ``revealed`` (the counts, held by the caller); returns the generator's state after."""
    j, rng = below_held_nb(rng, deck_len)
    card = state.deck[j]
    state.deck[j] = state.deck[np.uint64(deck_len - 1)]
    state.counts[DECK_LEN] = deck_len - 1
    count_unseen_nb(state, card, -1)
    state.market[np.uint64(market_len)] = card
    state.counts[MARKET_LEN] = market_len + 1
    state.counts[REVEALED] = revealed + 1
    return rng


@njit(cache=True)
def count_unseen_nb(state, card, sign):
    """Add (sign 1) or remove (sign -1) a card from the unseen-card sums (its column by good and
    icons looked up: ``card_unseen``, made by new_state), where a seated strategy reads them."""
    if state.keep_unseen:
        card = np.uint64(card)
        green = np.uint64(state.card_green[card])
        state.unseen[green, UNSEEN_CARDS] += sign
        state.unseen[green, UNSEEN_VALUE] += sign * state.card_value[card]
        state.unseen[green, np.uint64(state.card_unseen[card])] += sign


@njit(cache=True, inline="always")
def take_cards_nb(state, seat, choice, n, revealed):
    """R10: take the last card, plus the 2nd-from-last (choice bit 0) and 3rd-from-last (bit 1), from the
    market of ``n`` cards, after ``revealed`` reveals (the counts, held by the caller)."""
    take_second = (choice & 1) != 0
    take_third = (choice & 2) != 0
    if (take_second and n < 2) or (take_third and n < 3) or choice < 0 or choice > 3:
        raise ValueError(ILLEGAL, seat, state.seat_strategy[seat], "chose a card that is not in the market (R10)")
    # unsigned indices (the module doc): the market holds a card at every take (R9's obligatory reveal), the
    # 2nd- and 3rd-from-last are read only where n has room for them
    last = state.market[np.uint64(n - 1)]
    pending = takes_space_nb(state, last)
    # the decision statistics (state.DECIDED_*): a free take is one of several legal ones (R10)
    room = state.ship_used[seat] + pending < state.rules[RULE_CAPACITY]
    free = n >= 2 and (room or state.card_green[np.uint64(state.market[np.uint64(n - 2)])] == 1 or
                       (n >= 3 and state.card_green[np.uint64(state.market[np.uint64(n - 3)])] == 1))
    state.seat_decisions[seat] += ((1 << DECIDED_BITS * DECIDED_TURNS)
                                   + (revealed << DECIDED_BITS * DECIDED_REVEALS)
                                   + ((1 + take_second + take_third) << DECIDED_BITS * DECIDED_TAKEN)
                                   + (np.int64(free) << DECIDED_BITS * DECIDED_FREE_TAKES))
    if take_second:
        if not fits_nb(state, seat, state.market[np.uint64(n - 2)], pending):
            raise ValueError(ILLEGAL, seat, state.seat_strategy[seat],
                             "chose a card that does not fit on its ship (R10)")
        pending += takes_space_nb(state, state.market[np.uint64(n - 2)])
    if take_third and not fits_nb(state, seat, state.market[np.uint64(n - 3)], pending):
        raise ValueError(ILLEGAL, seat, state.seat_strategy[seat], "chose a card that does not fit on its ship (R10)")
    board_nb(state, seat, last)
    if take_second:
        board_nb(state, seat, state.market[np.uint64(n - 2)])
    if take_third:
        board_nb(state, seat, state.market[np.uint64(n - 3)])
    # close the gaps: only the last three places can change; cards left keep their order
    kept = max(n - 3, 0)
    for pos in range(kept, n - 1):
        if not ((pos == n - 2 and take_second) or (pos == n - 3 and take_third)):
            state.market[kept] = state.market[pos]
            kept += 1
    state.counts[MARKET_LEN] = kept


@njit(cache=True)
def board_nb(state, seat, card):
    at = np.uint64(card)
    state.ship[seat, np.uint64(state.ship_len[seat])] = card
    state.ship_len[seat] += 1
    state.ship_used[seat] += takes_space_nb(state, at)
    state.ship_value[seat] += state.card_value[at]  # R13: green cards count too
    good = state.card_good[at]  # no branch on it (a card without a good, one in eleven, is a mispredicted jump)
    state.ship_icons[seat, max(good, 0)] += state.card_icons[at] * (good >= 0)


# ---------------------------------------------------------------- scoring

@njit(cache=True)
def score_day_nb(state, day, record=None):
    """R13-R19: pay ships, unload icons into warehouses, pay majorities and bonuses (recording
    each good's bonuses when ``record``: the trace tells them)."""
    players = state.rules[RULE_PLAYERS]
    ship_pay = state.day_ship_pay[day]
    majority_pay = state.day_majority_pay[day]
    bonus_pay = state.day_bonus_pay[day]
    ship_pay[:] = 0
    majority_pay[:] = 0  # bonus_pay is stored whole below
    pay_places_nb(state.ship_value, players, state.ship_share, 0, ship_pay)  # R14-R15
    bonus_min = state.rules[RULE_BONUS_MIN]
    big_min = state.rules[RULE_BIG_BONUS_MIN]
    bonus = state.rules[RULE_BONUS]
    big_bonus = state.rules[RULE_BIG_BONUS]
    # each good's warehouse icons, contiguous (ranked faster than a strided view), and every good's written before
    # any is ranked: the ranking loads a column in vectors, which wait for scalar stores just made into it. The
    # bonuses are paid in the same pass, selected without a jump (whether a seat has 5 icons of a good is a coin
    # toss to the branch predictor) and summed in variables, each seat's stored once
    columns = state.good_icons
    for p in range(players):
        paid = extra = 0
        for good in range(N_GOODS):
            icons = state.warehouse_icons[p, good] + state.ship_icons[p, good]  # R17: this day's cargo counts
            state.warehouse_icons[p, good] = icons
            columns[good, p] = icons
            good_bonus = big_bonus if icons >= big_min else (bonus if icons >= bonus_min else 0)  # R19 replaces R18
            extra += big_bonus - bonus if icons >= big_min else 0
            paid += good_bonus
            if record:
                state.day_good_bonus[day, good, p] = good_bonus
        bonus_pay[p] = paid
        state.variant_extra[p] += extra
    for good in range(N_GOODS):
        pay_places_nb(columns[good], players, state.majority_share, 1, majority_pay)  # R17
    for p in range(players):
        state.florins[p] += ship_pay[p] + majority_pay[p] + bonus_pay[p]
        for good in range(N_GOODS):
            state.day_warehouse_icons[day, p, good] = state.warehouse_icons[p, good]


@njit(cache=True)
def end_day_nb(state):
    """R16, R20: goods to warehouses, no-good cards out, market back into the deck. The lengths are counted
    in variables: counted in the record, each card waited on the store of the card before (the compiler
    cannot tell the record's lengths from the cards stored)."""
    out_len = state.counts[OUT_LEN]
    for p in range(state.rules[RULE_PLAYERS]):
        stored = state.warehouse_len[p]
        for i in range(state.ship_len[p]):
            card = state.ship[p, i]  # written to both places without a branch, the length of one moving on
            good = state.card_good[np.uint64(card)] >= 0
            state.warehouse[p, np.uint64(stored)] = card
            state.out[np.uint64(out_len)] = card
            stored += good
            out_len += 1 - good
        state.warehouse_len[p] = stored
        state.ship_len[p] = 0
    state.counts[OUT_LEN] = out_len
    deck_len = state.counts[DECK_LEN]
    for i in range(state.counts[MARKET_LEN]):
        card = state.market[i]
        state.deck[deck_len] = card
        deck_len += 1
        count_unseen_nb(state, card, 1)
    state.counts[DECK_LEN] = deck_len
    state.counts[MARKET_LEN] = 0


@njit(cache=True, inline="always")
def close_day_nb(state, day, record):
    """The day's end: ships scored (R13-R19), then unloaded (R16, R20)."""
    score_day_nb(state, day, record)
    end_day_nb(state)


@njit(cache=True)
def next_starter_nb(state):
    """R21: the fewest florins starts; among several, one drawn at random (seat order)."""
    return poorest_seat_nb(state.florins, state.rules[RULE_PLAYERS], state.rng)


@njit(cache=True)
def copy_play_nb(dst, src):
    """Make ``dst`` play on exactly as ``src`` would: copy what play reads or changes, within
    the lengths in use (a search player's rollout, strategies/search.py). ``dst`` must already
    hold ``src``'s deck and rule data (a copy of the record made once per decision); play only
    ever writes past the used part of ``deck``, ``out``, ``ship`` and ``warehouse``, or inside
    it, so the rest never needs copying back: copying the whole record (200 kB with the
    largest deck and the day records) would cost more than a rollout."""
    copy1_nb(dst.counts, src.counts)
    copy2_nb(dst.unseen, src.unseen)
    for i in range(src.counts[DECK_LEN]):
        dst.deck[i] = src.deck[i]
    for i in range(src.counts[MARKET_LEN]):
        dst.market[i] = src.market[i]
    for i in range(src.counts[OUT_LEN]):
        dst.out[i] = src.out[i]
    for p in range(src.rules[RULE_PLAYERS]):
        for i in range(src.ship_len[p]):
            dst.ship[p, i] = src.ship[p, i]
        for i in range(src.warehouse_len[p]):
            dst.warehouse[p, i] = src.warehouse[p, i]
    copy1_nb(dst.ship_len, src.ship_len)
    copy1_nb(dst.ship_used, src.ship_used)
    copy1_nb(dst.ship_value, src.ship_value)
    copy2_nb(dst.ship_icons, src.ship_icons)
    copy1_nb(dst.warehouse_len, src.warehouse_len)
    copy2_nb(dst.warehouse_icons, src.warehouse_icons)
    copy1_nb(dst.florins, src.florins)
    copy1_nb(dst.variant_extra, src.variant_extra)
    copy1_nb(dst.seat_slot, src.seat_slot)
    copy1_nb(dst.seat_strategy, src.seat_strategy)
    copy2_nb(dst.seat_params, src.seat_params)
    copy2_nb(dst.scratch, src.scratch)
    dst.rng[0] = src.rng[0]


# ---------------------------------------------------------------- many games

@njit(cache=True, inline="always")  # inlined: called, the random games ran about 5% slower
def accumulate_game_nb(state, rows, pair_stats, run_stats):
    """Write one finished game's statistics: the seats' ``rows`` (zero on entry, core.accounting),
    the pairs and the run (integers only: exact in any order)."""
    florins = state.florins
    players = state.rules[RULE_PLAYERS]
    record_outcome_nb(florins, players, state.seat_slot, rows, pair_stats, run_stats)
    best = florins[0]
    best_standard = florins[0] - state.variant_extra[0]
    for p in range(players):
        best = max(best, florins[p])
        best_standard = max(best_standard, florins[p] - state.variant_extra[p])
    decided = False  # by the variant: the winners differ when its extra florins are taken away
    for p in range(players):
        decided |= (florins[p] == best) != (florins[p] - state.variant_extra[p] == best_standard)
    run_stats[RUN_VARIANT_DECIDED] += decided
    turns = 0
    for seat in range(players):
        ship = majority = bonus = 0
        for day in range(state.rules[RULE_DAYS]):
            ship += state.day_ship_pay[day, seat]
            majority += state.day_majority_pay[day, seat]
            bonus += state.day_bonus_pay[day, seat]
            state.day_florins[day, seat] = ship + majority + bonus
        decided = state.seat_decisions[seat]
        turns += decided & DECIDED_MASK
        rows[seat, STAT_SHIP] = ship
        rows[seat, STAT_MAJORITY] = majority
        rows[seat, STAT_BONUS] = bonus
        for k in range(N_DECIDED):
            rows[seat, STAT_DECIDED + k] = (decided >> DECIDED_BITS * k) & DECIDED_MASK
    for day in range(state.rules[RULE_DAYS]):
        run_stats[RUN_RAN_OUT_DAYS] += state.day_ran_out[day]
    record_metrics_nb(state.day_florins[:state.rules[RULE_DAYS]], players, rows, run_stats, turns, STAT_TRAILED, -1)


# The play loop, both Medici games' (games/medici/days.py's play_loop): from a seat's turn at a phase (TURN_*,
# or a day's PHASE_*) to the end of a day, through the day's functions above. A whole game is
# the batch kernel's (kernel_game, below); a search player's rollouts play a copy of the state from its decision
# (strategies/search.py); a stepped game stops at every event.
finish_game_nb = play_loop(DAY, play_day_nb, close_day_nb, next_starter_nb, begin_day_nb)

# A search player's rollouts play the same compiled loop (its decisions are compiled apart from the
# kernel, and reached through the strategy table's addresses: core.dispatch).
rollout_game_nb = finish_game_nb

# The batch kernel plays the same compiled loop through its address (games/medici/days.kernel_game), handed
# record False: the kernel's functions (and paired play's, and an agent's) link none of the engine's code, which
# LLVM optimised and made machine code of again in each.
play_games_nb, play_game_in_nb = batch_kernel(start_game_nb, kernel_game(begin_day_nb, finish_game_nb, last_day_nb,
                                                                         RULE_BOOK.game), accumulate_game_nb,
                                              counted=False)  # the loop reached through its address
