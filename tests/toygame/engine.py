"""High card's state and jitted engine (H1-H7): one game is a ``STATE_DTYPE`` record.

Strategies read ``drawn[0]`` (and ``drawn[1]`` once a second card is up) and answer the two
decisions ``again_nb`` (another card? bool) and ``keep_nb`` (0: the first card, 1: the second).

The game goes through core's front door like the games medici-sim ships: its batch kernel is
``core.kernel.batch_kernel`` bound to ``start_game_nb``, ``play_game_nb`` and
``accumulate_game_nb``, and its stepping functions (new game / advance / legal choices / apply)
are ``core.resumable.entry_points`` bound to its one play loop, ``finish_game_nb``. The loop
knows no days: it plays turn after turn (``turn``: the game's turn count) and stops only at a
decision of a seat the caller answers. Its scores come from two sources of its own, the kept
cards (H4) and the pots (H5), its declared score sources (``STAT_CARDS`` and ``STAT_POTS``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from medici_sim.core.accounting import STAT_SOURCE, record_outcome_nb
from medici_sim.core.dispatch import decision
from medici_sim.core.kernel import batch_kernel
from medici_sim.core.registry import ILLEGAL, MAX_PARAMS, SCRATCH_WIDTH
from medici_sim.core.resumable import (
    DECISION,
    STEP_CHOICE,
    STEP_DTYPE,
    STEP_EVENT,
    STEP_PHASE,
    begin_stepping_nb,
    entry_points,
    is_external_nb,
    stop_nb,
)
from medici_sim.core.rng import below_nb, seed_game_nb
from medici_sim.core.seating import seat_players_nb

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # H1
N_CARDS, ROUNDS, POT = 40, 3, 12  # H1, H2, H5
NO_CARD = -1

again_nb = decision("again_nb")  # H3: turn up a second card? -> bool
keep_nb = decision("keep_nb")  # H3: which of the two to keep (0 the first, 1 the second) -> int
DECISIONS = ("again_nb", "keep_nb")
AGAIN_DECISION, KEEP_DECISION = range(2)
# Where a turn resumes (the loop's ``phase``): its start (any other value: the first card is not up yet),
# or at one of its decisions
TURN_START, AT_AGAIN, AT_KEEP = 0, 1, 2
STAT_CARDS, STAT_POTS = STAT_SOURCE, STAT_SOURCE + 1  # its score's sources (game.py): kept cards (H4), pots (H5)

_I8 = np.int64
STATE_DTYPE = np.dtype([
    ("players", _I8), ("deck", _I8, N_CARDS), ("top", _I8), ("drawn", _I8, 2), ("turn", _I8),
    ("points", _I8, MAX_PLAYERS),
    ("seat_slot", _I8, MAX_PLAYERS), ("seat_strategy", _I8, MAX_PLAYERS),
    ("seat_params", np.float64, (MAX_PLAYERS, MAX_PARAMS)),
    ("scratch", np.float64, (MAX_PLAYERS, SCRATCH_WIDTH)),
    ("step", *STEP_DTYPE),
    # the game's record, one row per round
    ("starter", _I8, ROUNDS), ("kept", _I8, (ROUNDS, MAX_PLAYERS)), ("discarded", _I8, (ROUNDS, MAX_PLAYERS)),
    ("pot_pay", _I8, (ROUNDS, MAX_PLAYERS)),
    ("rng", np.uint64, 1),
], align=True)


def new_state(players: int) -> np.ndarray:
    """The state every game of a run starts from (the kernel's ``inputs``, played on a copy)."""
    buffer = np.zeros(1, STATE_DTYPE)
    buffer[0]["players"] = players
    return buffer


@njit(cache=True)
def value_nb(card):
    return card % 10 + 1  # H1


@njit(cache=True)
def start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params):
    """Seat the players and shuffle (H2): game ``game_index`` of the run with ``seed``, not played yet."""
    seed_game_nb(state.rng, seed, game_index)
    players = state.players
    seat_players_nb(state, players, game_index, seating, slot_strategy, slot_params)
    for card in range(N_CARDS):  # H2: one Fisher-Yates shuffle
        state.deck[card] = card
    for j in range(N_CARDS - 1, 0, -1):
        r = below_nb(state.rng, j + 1)
        state.deck[j], state.deck[r] = state.deck[r], state.deck[j]
    state.top = 0
    state.turn = 0
    state.points[:] = 0
    state.pot_pay[:] = 0


@njit(cache=True)
def draw_nb(state, k):
    state.drawn[k] = state.deck[state.top]
    state.top += 1


@njit(cache=True)
def finish_game_nb(state, table, phase, record):
    """Play on from turn ``state.turn`` at ``phase`` (TURN_START, AT_AGAIN, AT_KEEP) to the game's
    end. ``record`` None: never stops (the batch kernel); True: stops at a decision of an EXTERNAL
    seat and returns True (core.resumable)."""
    players = state.players
    while state.turn < ROUNDS * players:
        round_ = state.turn // players
        starter = round_ % players  # H6
        seat = (starter + state.turn % players) % players
        state.starter[round_] = starter
        if phase != AT_AGAIN and phase != AT_KEEP:
            draw_nb(state, 0)
            state.drawn[1] = NO_CARD
            phase = AT_AGAIN
        external = is_external_nb(state, seat, record)
        keep = 0
        if phase == AT_AGAIN:
            if external:
                if stop_nb(state, DECISION + AGAIN_DECISION, seat, round_, seat, AT_AGAIN, 0):
                    return True
                again = state.step[STEP_CHOICE] != 0
            else:
                again = again_nb(table, state.seat_strategy[seat], state, seat)  # H3
            if again:
                draw_nb(state, 1)
                phase = AT_KEEP
        if phase == AT_KEEP:
            if external:
                if stop_nb(state, DECISION + KEEP_DECISION, seat, round_, seat, AT_KEEP, 0):
                    return True
                keep = state.step[STEP_CHOICE]
            else:
                keep = keep_nb(table, state.seat_strategy[seat], state, seat)
            if keep != 0 and keep != 1:
                raise ValueError(ILLEGAL, seat, state.seat_strategy[seat], "kept neither card (H3)")
        state.kept[round_, seat] = state.drawn[keep]
        state.discarded[round_, seat] = state.drawn[1 - keep] if state.drawn[1] != NO_CARD else NO_CARD
        state.points[seat] += value_nb(state.drawn[keep])  # H4
        state.turn += 1
        phase = TURN_START
        if state.turn % players == 0:
            pay_pot_nb(state, round_)
    return False


@njit(cache=True)
def pay_pot_nb(state, round_):
    """H5: the round's highest kept card wins the pot, shared by ties."""
    players = state.players
    best = 0
    for seat in range(players):
        best = max(best, value_nb(state.kept[round_, seat]))
    tied = 0
    for seat in range(players):
        tied += value_nb(state.kept[round_, seat]) == best
    for seat in range(players):
        pay = POT // tied if value_nb(state.kept[round_, seat]) == best else 0
        state.pot_pay[round_, seat] = pay
        state.points[seat] += pay


@njit(cache=True)
def play_game_nb(state, table, record):
    """Play a started game to its end."""
    finish_game_nb(state, table, TURN_START, record)


@njit(cache=True)
def accumulate_game_nb(state, rows, pair_stats, run_stats):
    """A finished game's statistics: the common ones (H7) and the two score sources."""
    players = state.players
    record_outcome_nb(state.points, players, state.seat_slot, rows, pair_stats, run_stats)
    for seat in range(players):
        cards = 0
        pots = 0
        for round_ in range(ROUNDS):
            cards += value_nb(state.kept[round_, seat])
            pots += state.pot_pay[round_, seat]
        rows[seat, STAT_CARDS] = cards
        rows[seat, STAT_POTS] = pots


@njit(cache=True)
def legal_choices_nb(buffer, table):
    """At either decision, 0 or 1 (H3); none elsewhere."""
    choices = np.arange(2)
    return choices if buffer[0].step[STEP_EVENT] >= DECISION else choices[:0]


@njit(cache=True)
def begin_play_nb(state):
    """A new game is stepped from its first turn's start (seat 0 starts: H6)."""
    begin_stepping_nb(state, 0, TURN_START)


@njit(cache=True)
def play_on_nb(state, table):
    """The play loop entered again where it stopped (core.resumable keeps the phase)."""
    return finish_game_nb(state, table, state.step[STEP_PHASE], True)


play_games_nb, play_game_in_nb = batch_kernel(start_game_nb, play_game_nb, accumulate_game_nb)
new_game_nb, advance_nb, apply_choice_nb, trace_game_nb = entry_points(start_game_nb, begin_play_nb, play_on_nb,
                                                                      legal_choices_nb)
