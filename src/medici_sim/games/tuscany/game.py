"""The Castles of Tuscany's jitted game: setup (T10-T12), rounds and phases (T15, T34-T37) and the
statistics a finished game adds to a run, plugged into core's batch loop (core.kernel).

The batch kernel's three hooks: :func:`start_game_nb` (seed the game, seat the strategies, reset
the game-long state), :func:`play_game_nb` (setup, then rounds until the third phase scoring or
T37's limit) and :func:`accumulate_game_nb` (the finished game's per-seat rows and run counters).
``play_games_nb`` / ``play_game_in_nb`` are core.kernel.batch_kernel's, bound to them. The turns
are ``engine.py``'s. Setup draws from the generator in the reference engine's order (its docstring).
"""
from __future__ import annotations

from numba import njit

from ...core.accounting import (
    N_COMMON_RUN_STATS,
    STAT_SOURCE,
    n_common_stats,
    record_metrics_nb,
    record_outcome_ranked_nb,
    trailed_column,
)
from ...core.dispatch import runtime_loop
from ...core.kernel import batch_kernel
from ...core.replaying import replay_stop_nb
from ...core.resumable import TURN_END, TURN_START
from ...core.rng import seed_game_nb
from ...core.seating import seat_players_nb
from ...core.templates import jitted_copy
from .display import five_of_a_colour_nb, next_neutral_nb, show_nb
from .engine import cover_nb, turn_nb
from .estates import lay_out_estate_nb
from .geometry import ESTATE_FIELDS
from .pieces import chosen_nb, draw_region_nb, offer_bonus_nb, score_nb, shuffle_nb
from .rules import BONUS_TILES_PER_KIND, CASTLE, N_COLOURS, PHASES, RULE_BOOK
from .state import (
    DECK_LEN,
    EMPTY,
    N_BONUS,
    N_OPTIONS,
    N_SOURCES,
    N_TALLY,
    OVER,
    P_BANKING,
    P_FINAL,
    PHASE,
    PHASE_PENDING,
    R_DISPLAY,
    R_FINAL_CARDS,
    R_FINAL_MARBLE,
    R_FINAL_STORAGE,
    R_FINAL_WORKER,
    R_LATER_SEAT_CARDS,
    R_NEUTRAL_TILES,
    R_PLAYER_TILES,
    R_PLAYERS,
    R_ROUND_LIMIT,
    R_START_HAND,
    R_YIELD_CARDS,
    REACHED_LIMIT,
    REFRESHES,
    ROUND,
    START_CASTLE,
    SUPPLY_LEN,
    T17_REFRESHES,
    YIELD_LEN,
    assembly_nb,
    bit_count,
    castle_field_nb,
    inner,
    lowest_bit,
)

# The statistics columns: the points by source are the score's sources (state.P_*, core.accounting.STAT_SOURCE + k),
# then the metrics' two (STAT_TRAILED); the game's own columns after the common ones: green, the tallies (state.T_*),
# then what is left at the end.
STAT_POINTS, STAT_TRAILED = STAT_SOURCE, trailed_column(N_SOURCES)
N_COMMON_STATS = n_common_stats(N_SOURCES)
PHASE_SCORED = 3  # a stepped game's event (core.replaying): a phase scored (T34; T37's limit too), actor -1

# The game's statistics columns, after the common ones: green, the points by source
# (state.P_*), the tallies (state.T_*), then what is left at the end.
STAT_GREEN = N_COMMON_STATS
STAT_TALLY = STAT_GREEN + 1
(STAT_CARDS_LEFT, STAT_WORKERS_LEFT, STAT_MARBLE_LEFT, STAT_STORAGE_LEFT, STAT_EMPTY_FIELDS,
 STAT_BONUS_TILES) = range(STAT_TALLY + N_TALLY, STAT_TALLY + N_TALLY + 6)
N_STATS = STAT_BONUS_TILES + 1
# The run's counters, after the common ones: the round each phase ended (summed), games that
# reached T37's limit, refreshes (T16) and T17's.
RUN_PHASE_END = N_COMMON_RUN_STATS
RUN_REACHED_LIMIT, RUN_REFRESHES, RUN_T17_REFRESHES = range(RUN_PHASE_END + PHASES, RUN_PHASE_END + PHASES + 3)
N_RUN_STATS = RUN_T17_REFRESHES + 1


@njit(cache=True, inline="always")
def fill_nb(values, value):
    """values[:] = value, as a loop (inlined: each array field is a type of its own)."""
    for i in range(values.shape[0]):
        values[i] = value


@njit(cache=True)
def start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params):
    """Seed game ``game_index``, seat the strategies (first draws, as the reference) and reset
    everything a game changes."""
    seed_game_nb(state.rng, seed, game_index)
    seat_players_nb(state, state.rules[R_PLAYERS], game_index, seating, slot_strategy, slot_params)
    restart_game_nb(state)


@njit(cache=True)
def restart_game_nb(state):
    """Everything a game changes, reset (the seats and the generator aside: a stepped game played
    again from its start, core.replaying)."""
    fill_nb(state.counts, 0)  # loops, not slice assignments: those cost seconds of compilation (core.arrays)
    state.counts[PHASE] = 1
    fill_nb(state.bonus_supply, BONUS_TILES_PER_KIND)  # T3
    fill_nb(state.colour_claims, 0)
    fill_nb(state.phase_end_round, 0)
    for seat in range(state.rules[R_PLAYERS]):
        fill_nb(state.stack_top[seat], 0)
        fill_nb(state.hand[seat], 0)
        fill_nb(state.bonus[seat], 0)
        fill_nb(state.points[seat], 0)
        fill_nb(state.tally[seat], 0)
        state.storage_len[seat] = 0
        state.hand_total[seat] = 0
        state.workers[seat] = 0
        state.marble[seat] = 0
        state.green[seat] = 0
        state.red[seat] = 0
        for phase in range(PHASES):
            state.phase_red[phase, seat] = 0


@inner
def build_estate_nb(state, seat, assembly):
    """T9, T12: lay the estate by ``assembly``: colours, colour masks and regions copied from the run's table of
    legal estates (estates.lay_out_estates_nb, as the C loop lays them out before its clock starts), or
    built (estates.lay_out_estate_nb) for boards whose estates the table does not hold."""
    boards = state.boards[seat]
    estate = state.estate_first[boards[0], boards[1], boards[2]]
    if estate >= 0:  # the triple's estates are held in T38's order: the assembly's is after the legal ones below it
        estate += bit_count(state.legal_mask[boards[0], boards[1], boards[2]] & ((1 << assembly) - 1))
        for f in range(ESTATE_FIELDS):
            state.colour[seat, f] = state.estate_colour[estate, f]
            state.region_of[seat, f] = state.estate_region[estate, f]
            state.region_size[seat, f] = state.region_left[seat, f] = state.estate_size[estate, f]
            state.region_types[seat, f] = 0
        for c in range(N_COLOURS):
            state.colour_mask[seat, c] = state.estate_mask[estate, c]
    else:
        lay_out_estate_nb(state, seat, assembly)
    state.assembly[seat] = assembly
    for c in range(N_COLOURS):
        state.colour_left[seat, c] = bit_count(state.colour_mask[seat, c])
    for f in range(ESTATE_FIELDS):
        state.field_item[seat, f] = EMPTY
    state.covered[seat] = 0
    state.frontier[seat] = 0


@inner
def setup_nb(state, table):
    """T10-T12, drawing in the reference engine's order (after the seating: start_game_nb)."""
    players, counts = state.rules[R_PLAYERS], state.counts
    n = 0
    for c in range(N_COLOURS):  # the region cards by colour (T10)
        for _ in range(state.region_cards[c]):
            state.deck[n] = c
            n += 1
    counts[DECK_LEN] = n
    shuffle_nb(state.deck, n, state.rng)
    n = state.rules[R_YIELD_CARDS]
    for i in range(n):
        state.yield_deck[i] = i
    counts[YIELD_LEN] = n
    shuffle_nb(state.yield_deck, n, state.rng)
    per_player, n = state.rules[R_PLAYER_TILES], state.rules[R_NEUTRAL_TILES]
    for i in range(n):
        state.supply[i] = players * per_player + i
    counts[SUPPLY_LEN] = n
    shuffle_nb(state.supply, n, state.rng)
    fill_nb(state.shown, 0)
    for place in range(state.rules[R_DISPLAY]):
        state.display[place] = EMPTY
        show_nb(state, place, next_neutral_nb(state))
    five_of_a_colour_nb(state)
    for seat in range(players):  # each seat's three stacks (T10)
        for i in range(per_player):
            state.tiles[seat, i] = seat * per_player + i
        shuffle_nb(state.tiles[seat], per_player, state.rng)
    for seat in range(players):
        draw_region_nb(state, seat, state.rules[R_START_HAND] + seat * state.rules[R_LATER_SEAT_CARDS])
    for board_type in range(3):  # one board of each type per seat, dealt at random (T12)
        n = state.boards_per_type[board_type]
        for b in range(n):
            state.options[b] = b
        shuffle_nb(state.options, n, state.rng)
        for seat in range(players):
            state.boards[seat, board_type] = state.options[seat]
    for seat in range(players):
        strategy = state.seat_strategy[seat]
        legal = state.legal_mask[state.boards[seat, 0], state.boards[seat, 1], state.boards[seat, 2]]
        n = 0
        while legal:  # ascending (T38's order)
            state.options[n] = lowest_bit(legal)
            legal &= legal - 1
            n += 1
        state.counts[N_OPTIONS] = n
        answer = assembly_nb(table, strategy, state, seat)
        build_estate_nb(state, seat, state.options[chosen_nb(state, seat, answer, "assembly")])
        n, fields = 0, state.colour_mask[seat, CASTLE]
        while fields:
            state.options[n] = lowest_bit(fields)
            fields &= fields - 1
            n += 1
        state.counts[N_OPTIONS] = n
        answer = castle_field_nb(table, strategy, state, seat)
        cover_nb(state, seat, START_CASTLE, state.options[chosen_nb(state, seat, answer, "castle field")])
    for seat in range(players):
        offer_bonus_nb(state, table, seat)


@inner
def bank_nb(state):
    """T34: each player adds its green score to its red score."""
    phase = min(state.counts[PHASE], PHASES) - 1
    for seat in range(state.rules[R_PLAYERS]):
        score_nb(state, seat, state.green[seat], P_BANKING)
        state.phase_red[phase, seat] = state.red[seat]


@inner
def finish_nb(state):
    """T35: the final scoring, in red."""
    rules = state.rules
    for seat in range(rules[R_PLAYERS]):
        cards = state.hand_total[seat] // rules[R_FINAL_CARDS] if rules[R_FINAL_CARDS] else 0
        score_nb(state, seat, rules[R_FINAL_STORAGE] * state.storage_len[seat] + rules[R_FINAL_MARBLE]
                 * state.marble[seat] + rules[R_FINAL_WORKER] * state.workers[seat] + cards, P_FINAL)
        state.phase_red[PHASES - 1, seat] = state.red[seat]
    state.counts[OVER] = 1


@njit(cache=True, inline="always")
def play_game_nb(state, table, record):
    """Set up and play a started game (:func:`play_rounds_nb`). The outcome is left in ``state``."""
    setup_nb(state, table)
    play_rounds_nb(state, table, record, 0)


@njit(cache=True, inline="always")
def play_rounds_nb(state, table, record, first):
    """Rounds of every seat's turn from the start player (T12), the first from seat ``first`` of the round in
    play (0: a new round; a search's rollout goes on from the seat after its own, strategies/search.py), until
    the game ends (:func:`end_round_nb`)."""
    players, counts = state.rules[R_PLAYERS], state.counts
    while True:
        if first == 0:
            counts[ROUND] += 1
        for seat in range(first, players):
            if record is not None:
                replay_stop_nb(state, TURN_START, seat, counts[PHASE])
            turn_nb(state, table, seat, 0)
            if record is not None:
                replay_stop_nb(state, TURN_END, seat, counts[PHASE])
        first = 0
        if end_round_nb(state, record):
            return


@njit(cache=True, inline="always")
def end_round_nb(state, record):
    """A round's end: a phase that ended is scored after its round (T15, T34); the third ends the game (T35), as
    does T37's limit. True when the game is over."""
    counts = state.counts
    if counts[PHASE_PENDING]:  # T15: the round is finished, then the phase is scored
        counts[PHASE_PENDING] = 0
        state.phase_end_round[counts[PHASE] - 1] = counts[ROUND]
        bank_nb(state)
        if record is not None:
            replay_stop_nb(state, PHASE_SCORED, -1, counts[PHASE])
        if counts[PHASE] == PHASES:
            finish_nb(state)
            return True
        counts[PHASE] += 1
    if counts[ROUND] >= state.rules[R_ROUND_LIMIT]:  # T37: as if phase 3 had ended
        counts[REACHED_LIMIT] = 1
        bank_nb(state)
        if record is not None:
            replay_stop_nb(state, PHASE_SCORED, -1, counts[PHASE])
        finish_nb(state)
        return True
    return False


@inner
def play_round_nb(state, table, first):
    """The round in play from seat ``first`` (0: a new round, counted) and its end (:func:`end_round_nb`); True when
    the game is over (what strong's truncated rollouts and its value's training rows step, strong_value.py)."""
    if first == 0:
        state.counts[ROUND] += 1
    for seat in range(first, state.rules[R_PLAYERS]):
        turn_nb(state, table, seat, 0)
    return end_round_nb(state, None)


@inner
def play_to_turn_nb(state, table, seat):
    """From the end of ``seat``'s turn to the start of its next one: the later seats' turns, the round's end
    (:func:`end_round_nb`), the earlier seats' turns of the next round. True when the game ended first (a tree
    search's rollout steps its own seat's turns so, strategies/mcts.py)."""
    players, counts = state.rules[R_PLAYERS], state.counts
    for later in range(seat + 1, players):
        turn_nb(state, table, later, 0)
    if end_round_nb(state, None):
        return True
    counts[ROUND] += 1
    for earlier in range(seat):
        turn_nb(state, table, earlier, 0)
    return False


@inner
def empty_fields_nb(state, seat):
    return ESTATE_FIELDS - bit_count(state.covered[seat])


@inner
def rank_key_nb(state, seat):
    """T36 as one number: most red, then most empty fields, then fewest green, then fewest cards."""
    return (((state.red[seat] << 6) + empty_fields_nb(state, seat)) << 40) - (state.green[seat] << 20) \
        - state.hand_total[seat]


def _called(function, name: str):
    """core.accounting's ``function`` (numba's ``inline="always"``) as a function of its own, called (the accounting
    runs once a game): numba's inlining copied its IR into ``accumulate_game_nb`` block by block, each block with the
    whole scope, and typed it again, the game's largest compile (docs/performance.md)."""
    return jitted_copy(function.py_func, function.py_func.__globals__, name, cache=True, no_cpython_wrapper=True,
                       no_cfunc_wrapper=True, forceinline=False)


_record_outcome_nb = _called(record_outcome_ranked_nb, "tuscany_record_outcome_ranked_nb")
_record_metrics_nb = _called(record_metrics_nb, "tuscany_record_metrics_nb")


@njit(cache=True)
def accumulate_game_nb(state, rows, pair_stats, run_stats):
    """Write one finished game's statistics: the seats' ``rows`` (zero on entry, core.accounting),
    the pairs and the run. Winners by T36 (its tie-breaks: the rank key), scores in red."""
    players = state.rules[R_PLAYERS]
    keys = state.rank_key
    for seat in range(players):
        keys[seat] = rank_key_nb(state, seat)
    winners = _record_outcome_nb(state.red, keys, players, state.seat_slot, rows, pair_stats, run_stats)
    for seat in range(players):
        rows[seat, STAT_GREEN] = state.green[seat]
        for k in range(N_SOURCES):
            rows[seat, STAT_POINTS + k] = state.points[seat, k]
        for k in range(N_TALLY):
            rows[seat, STAT_TALLY + k] = state.tally[seat, k]
        rows[seat, STAT_CARDS_LEFT] = state.hand_total[seat]
        rows[seat, STAT_WORKERS_LEFT] = state.workers[seat]
        rows[seat, STAT_MARBLE_LEFT] = state.marble[seat]
        rows[seat, STAT_STORAGE_LEFT] = state.storage_len[seat]
        rows[seat, STAT_EMPTY_FIELDS] = empty_fields_nb(state, seat)
        bonus = 0
        for k in range(N_BONUS):
            bonus += state.bonus[seat, k]
        rows[seat, STAT_BONUS_TILES] = bonus
    for phase in range(PHASES):
        run_stats[RUN_PHASE_END + phase] += state.phase_end_round[phase]
    run_stats[RUN_REACHED_LIMIT] += state.counts[REACHED_LIMIT]
    run_stats[RUN_REFRESHES] += state.counts[REFRESHES]
    run_stats[RUN_T17_REFRESHES] += state.counts[T17_REFRESHES]
    _record_metrics_nb(state.phase_red[:, :players], players, rows, run_stats, state.counts[ROUND], STAT_TRAILED,
                      winners)


@njit(cache=True)
def kernel_loop_nb(state, table, seat, phase, arg, until, record):
    """The batch kernel's game, not recording (:func:`play_game_nb`), in the shape of a core.dispatch.runtime_loop
    loop (its arguments after ``table`` unused): compiled once, apart, and called by the kernel through an address,
    so the kernel's functions (``play_game_in_nb``, ``play_games_nb``) do not link the engine's code for LLVM to
    optimise and make machine code of again in each (docs/performance.md; one indirect call a game)."""
    play_game_nb(state, table, None)
    return True


_KERNEL_LOOP = runtime_loop(RULE_BOOK.game, kernel_loop_nb)


@njit(cache=True, inline="always")
def kernel_game_nb(state, table, record):
    """The kernel's play hook (core.kernel: ``record`` its None): the game through :data:`_KERNEL_LOOP`."""
    _KERNEL_LOOP(state, table, 0, 0, 0, 0, False)


# core.kernel; the loop reached through its address (_KERNEL_LOOP)
play_games_nb, play_game_in_nb = batch_kernel(start_game_nb, kernel_game_nb, accumulate_game_nb, counted=False)


@njit(cache=True)
def play_one_nb(state, seed, game_index, seating, slot_strategy, slot_params, table):
    """One whole game in ``state`` (tests, recording.py): started and played, not accumulated."""
    start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params)
    play_game_nb(state, table, None)
