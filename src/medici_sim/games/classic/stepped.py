"""The classic game's part of a stepped game (core.resumable, whose ``entry_points``, bound to the day
loop by games/medici/days.py's ``day_entry_points``, give the
rest: ``new_game_nb``, ``advance_nb``, ``apply_choice_nb`` and the trace, ``trace_game_nb``,
bound here to the engine): the answers C8 (draw another card into the lot?) and C9 (pass, or
a bid above the highest up to the seat's money) allow where it stops for a decision. Like
every stepping function it takes the run's strategy table (its name keeps numba's cache from
serving code of older sources).
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
from .engine import BID_DECISION, DRAW_DECISION, begin_day_nb, finish_game_nb, last_day_nb, start_game_nb
from .state import lowest_bid_nb


@njit(cache=True)
def legal_choices_nb(buffer, table):
    """The answers the rules allow at the decision stopped at (none elsewhere): C8 0 offer the
    lot or 1 draw another card; C9 0 (pass) or a bid from the lowest bid (the highest bid + 1) to
    the seat's money."""
    state = buffer[0]
    event = state.step[STEP_EVENT]
    if event == DECISION + DRAW_DECISION:
        return np.arange(2)
    if event == DECISION + BID_DECISION:
        lowest = lowest_bid_nb(state)
        choices = np.arange(lowest - 1, state.money[state.step[STEP_ACTOR]] + 1)
        choices[0] = 0
        return choices
    return np.arange(0)


new_game_nb, advance_nb, apply_choice_nb, trace_game_nb = day_entry_points(start_game_nb, begin_day_nb, finish_game_nb,
                                                                      legal_choices_nb, last_day_nb, "classic")
