"""The card game's part of a stepped game (core.resumable, whose ``entry_points``, bound to the day
loop by games/medici/days.py's ``day_entry_points``, give the rest:
``new_game_nb``, ``advance_nb``, ``apply_choice_nb`` and the trace, ``trace_game_nb``, bound
here to the engine): the choices R9 (reveal another card?) and R10 (which cards to take)
allow where it stops for a decision, taking the run's strategy table as every stepping
function does (its name keeps numba's cache from serving code of older sources).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.resumable import (
    DECISION,
    STEP_ACTOR,
    STEP_EVENT,
)
from ..medici.days import day_entry_points
from .engine import MAX_TAKES, REVEAL_DECISION, TAKE_DECISION, begin_day_nb, finish_game_nb, last_day_nb, start_game_nb
from .state import legal_takes_nb


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


new_game_nb, advance_nb, apply_choice_nb, trace_game_nb = day_entry_points(start_game_nb, begin_day_nb, finish_game_nb,
                                                                      legal_choices_nb, last_day_nb, "card")
