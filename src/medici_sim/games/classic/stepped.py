"""The classic game stepped decision by decision (core.stepping), on the engine's own play loop.

``new_game_nb`` starts a game to be stepped, ``advance_nb`` plays it on to the next stop
(an event of the day, or a decision of a seat whose strategy is core.stepping.EXTERNAL),
``legal_choices_nb`` lists the answers C8 / C9 allow at that decision and
``apply_choice_nb`` plays one. ``trace_game_nb`` steps a whole game with every seat a
strategy: the trace. Every function here takes the run's strategy table: its name, which
hashes the sources of the kernel's code, keeps numba's cache from serving code compiled
from older sources.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.stepping import (
    DECISION,
    GAME_OVER,
    STEP_ACTOR,
    STEP_ARG,
    STEP_EVENT,
    STEP_PHASE,
    STEP_SEAT,
    begin_stepping_nb,
    resume_nb,
    set_choice_nb,
    stepped_event_nb,
)
from .engine import BID_DECISION, DRAW_DECISION, begin_day_nb, finish_game_nb, start_game_nb
from .rules import DAYS
from .state import HIGHEST


@njit(cache=True, nogil=True)  # a decision that never returns leaves signals answerable (cli.signals)
def trace_game_nb(seed, game_index, inputs, seating, slot_strategy, slot_params, table):
    """Play one game, stepped, recording everything; return its GameState buffer (see game.trace)."""
    buffer = inputs.copy()
    new_game_nb(buffer, seed, game_index, seating, slot_strategy, slot_params, table)
    while advance_nb(buffer, table) != GAME_OVER:
        pass
    return buffer


@njit(cache=True, nogil=True)
def new_game_nb(buffer, seed, game_index, seating, slot_strategy, slot_params, table):
    """Start game ``game_index`` on ``buffer[0]`` (a copy of the run's inputs) to be stepped;
    a slot whose strategy is core.stepping.EXTERNAL has its decisions answered by the caller."""
    state = buffer[0]
    start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params)
    begin_day_nb(state, 0, 0)  # C6
    begin_stepping_nb(state, 0)


@njit(cache=True, nogil=True)
def advance_nb(buffer, table):
    """Play on to the next stop, recording; return its event (core.stepping)."""
    state = buffer[0]
    resume_nb(state)
    step = state.step
    paused = finish_game_nb(state, table, step[STEP_SEAT], step[STEP_PHASE], step[STEP_ARG], DAYS - 1, True)
    return stepped_event_nb(state, paused)


@njit(cache=True)
def legal_choices_nb(buffer, table):
    """The answers the rules allow at the decision stopped at (none elsewhere): C8 0 offer the
    lot or 1 draw another card; C9 0 (pass) or a bid from the highest bid + 1 to the seat's money."""
    state = buffer[0]
    event = state.step[STEP_EVENT]
    if event == DECISION + DRAW_DECISION:
        return np.arange(2)
    if event == DECISION + BID_DECISION:
        lowest = state.counts[HIGHEST] + 1
        choices = np.arange(lowest - 1, state.money[state.step[STEP_ACTOR]] + 1)
        choices[0] = 0
        return choices
    return np.arange(0)


@njit(cache=True, nogil=True)
def apply_choice_nb(buffer, table, choice):
    """Answer the decision stopped at with ``choice`` (ValueError if the rules forbid it),
    play it and on to the next stop; return that stop's event."""
    set_choice_nb(buffer[0], choice, legal_choices_nb(buffer, table))
    return advance_nb(buffer, table)
