"""The card game stepped decision by decision (core.stepping), on the engine's own play loop.

``new_game_nb`` starts a game to be stepped and ``legal_choices_nb`` lists the answers
R9 / R10 allow at the decision it stopped at; ``advance_nb`` (play on to the next stop: an
event of the day, or a decision of a seat whose strategy is core.stepping.EXTERNAL),
``apply_choice_nb`` (answer it and play on) and ``trace_game_nb`` (a whole game stepped with
every seat a strategy: the trace) are core.stepping's, bound to this game's play loop.
Every function here takes the run's strategy table: its name, which hashes the sources of
the kernel's code, keeps numba's cache from serving code compiled from older sources.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.stepping import (
    DECISION,
    STEP_ACTOR,
    STEP_EVENT,
    begin_stepping_nb,
    entry_points,
)
from .engine import MAX_TAKES, REVEAL_DECISION, TAKE_DECISION, finish_game_nb, start_day_nb, start_game_nb
from .rules import DAYS
from .state import legal_takes_nb


@njit(cache=True, nogil=True)
def new_game_nb(buffer, seed, game_index, seating, slot_strategy, slot_params, table):
    """Start game ``game_index`` on ``buffer[0]`` (a copy of the run's inputs) to be stepped;
    a slot whose strategy is core.stepping.EXTERNAL has its decisions answered by the caller."""
    state = buffer[0]
    start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params)
    start_day_nb(state, 0, 0)  # R7
    begin_stepping_nb(state, 0)


@njit(cache=True)
def legal_choices_nb(buffer, table):
    """The answers the rules allow at the decision stopped at (none elsewhere): R9 0 stop or
    1 reveal; R10 the take flags (bit 0: the 2nd-, bit 1: the 3rd-from-last card too)."""
    state = buffer[0]
    choices = np.arange(MAX_TAKES)
    event = state.step[STEP_EVENT]
    if event == DECISION + REVEAL_DECISION:
        return choices[:2]
    if event == DECISION + TAKE_DECISION:
        return choices[:legal_takes_nb(state, state.step[STEP_ACTOR], choices)]
    return choices[:0]


advance_nb, apply_choice_nb, trace_game_nb = entry_points(finish_game_nb, new_game_nb, legal_choices_nb, DAYS)
