"""High card's state and jitted engine (H1-H7): one game is a ``STATE_DTYPE`` record.

Strategies read ``drawn[0]`` (and ``drawn[1]`` once a second card is up) and answer the two
decisions ``again_nb`` (another card? bool) and ``keep_nb`` (0: the first card, 1: the second).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from medici_sim.core.accounting import STAT_SOURCE, add_seat_rows_nb, record_outcome_nb
from medici_sim.core.dispatch import decision
from medici_sim.core.registry import ILLEGAL, MAX_PARAMS, SCRATCH_WIDTH
from medici_sim.core.rng import below_nb, seed_game_nb
from medici_sim.core.seating import seat_players_nb

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # H1
N_CARDS, ROUNDS, POT = 40, 3, 12  # H1, H2, H5
NO_CARD = -1

again_nb = decision("again_nb")  # H3: turn up a second card? -> bool
keep_nb = decision("keep_nb")  # H3: which of the two to keep (0 the first, 1 the second) -> int
DECISIONS = ("again_nb", "keep_nb")

_I8 = np.int64
STATE_DTYPE = np.dtype([
    ("players", _I8), ("deck", _I8, N_CARDS), ("top", _I8), ("drawn", _I8, 2),
    ("florins", _I8, MAX_PLAYERS),
    ("seat_slot", _I8, MAX_PLAYERS), ("seat_strategy", _I8, MAX_PLAYERS),
    ("seat_params", np.float64, (MAX_PLAYERS, MAX_PARAMS)),
    ("scratch", np.float64, (MAX_PLAYERS, SCRATCH_WIDTH)),
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
def play_game_nb(state, seed, game_index, seating, slot_strategy, slot_params, table):
    seed_game_nb(state.rng, seed, game_index)
    players = state.players
    seat_players_nb(state, players, game_index, seating, slot_strategy, slot_params)
    for card in range(N_CARDS):  # H2: one Fisher-Yates shuffle
        state.deck[card] = card
    for j in range(N_CARDS - 1, 0, -1):
        r = below_nb(state.rng, j + 1)
        state.deck[j], state.deck[r] = state.deck[r], state.deck[j]
    state.top = 0
    state.florins[:] = 0
    for day in range(ROUNDS):
        starter = day % players  # H6
        state.starter[day] = starter
        for turn in range(players):
            seat = (starter + turn) % players
            state.drawn[0] = state.deck[state.top]
            state.drawn[1] = NO_CARD
            state.top += 1
            keep = 0
            if again_nb(table, state.seat_strategy[seat], state, seat):  # H3
                state.drawn[1] = state.deck[state.top]
                state.top += 1
                keep = keep_nb(table, state.seat_strategy[seat], state, seat)
                if keep != 0 and keep != 1:
                    raise ValueError(ILLEGAL, seat, state.seat_strategy[seat], "kept neither card (H3)")
            state.kept[day, seat] = state.drawn[keep]
            state.discarded[day, seat] = state.drawn[1 - keep] if state.drawn[1] != NO_CARD else NO_CARD
            state.florins[seat] += value_nb(state.drawn[keep])  # H4
        best = 0
        for seat in range(players):
            best = max(best, value_nb(state.kept[day, seat]))
        tied = 0
        for seat in range(players):
            tied += value_nb(state.kept[day, seat]) == best
        for seat in range(players):  # H5
            pay = POT // tied if value_nb(state.kept[day, seat]) == best else 0
            state.pot_pay[day, seat] = pay
            state.florins[seat] += pay


@njit(cache=True, nogil=True)
def play_games_nb(seed, first_game, n_games, inputs, seating, slot_strategy, slot_params,
                  seat_stats, slot_stats, pair_stats, run_stats, table):
    """Play games ``first_game ..`` and add them to the statistics (``Game.play_games_nb``)."""
    buffer = inputs.copy()
    rows = np.zeros_like(seat_stats)
    for game_index in range(first_game, first_game + n_games):
        state = buffer[0]
        play_game_nb(state, seed, game_index, seating, slot_strategy, slot_params, table)
        players = state.players
        record_outcome_nb(state.florins, players, state.seat_slot, rows, pair_stats, run_stats)
        for seat in range(players):
            cards = 0
            pot = 0
            for day in range(ROUNDS):
                cards += value_nb(state.kept[day, seat])
                pot += state.pot_pay[day, seat]
            rows[seat, STAT_SOURCE] = cards  # its score's sources (game.py's score_sources)
            rows[seat, STAT_SOURCE + 1] = pot
        add_seat_rows_nb(rows, state.seat_slot, seat_stats, slot_stats)


@njit(cache=True, nogil=True)
def trace_game_nb(seed, game_index, inputs, seating, slot_strategy, slot_params, table):
    """Play one game; return its state buffer (the record)."""
    buffer = inputs.copy()
    play_game_nb(buffer[0], seed, game_index, seating, slot_strategy, slot_params, table)
    return buffer
