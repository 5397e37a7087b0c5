"""The classic game stepped decision by decision (core.stepping), on the engine's own play loop.

``new_game_nb`` starts a game to be stepped and ``legal_choices_nb`` lists the answers
C8 / C9 allow at the decision it stopped at; ``advance_nb`` (play on to the next stop: an
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
from .engine import BID_DECISION, DRAW_DECISION, begin_day_nb, finish_game_nb, start_game_nb
from .rules import DAYS
from .state import HIGHEST


@njit(cache=True, nogil=True)
def new_game_nb(buffer, seed, game_index, seating, slot_strategy, slot_params, table):
    """Start game ``game_index`` on ``buffer[0]`` (a copy of the run's inputs) to be stepped;
    a slot whose strategy is core.stepping.EXTERNAL has its decisions answered by the caller."""
    state = buffer[0]
    start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params)
    begin_day_nb(state, 0, 0)  # C6
    begin_stepping_nb(state, 0)


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


advance_nb, apply_choice_nb, trace_game_nb = entry_points(finish_game_nb, new_game_nb, legal_choices_nb, DAYS)
