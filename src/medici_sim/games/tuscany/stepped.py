"""The Castles of Tuscany stepped decision by decision (core.contract.Stepping): its decisions nest (a
castle chain inside a placement inside an action, a marble's second action), so it is stepped by
replay (core.replaying, whose ``entry_points`` give ``new_game_nb``, ``advance_nb``,
``apply_choice_nb`` and ``trace_game_nb``, bound here to the engine), and :func:`legal_choices_nb`
lists what the rules allow at each of its decisions (T12-T32, state.DECISIONS):

- an option decision (assembly, starting castle's field, bonus tile, action, T17, display tile,
  discard, placing, castle tile and field): the index of each option the engine wrote, all of them
  (``state.options[:counts[N_OPTIONS]]``: every choice the rules allow, in the reference's order);
- ``payment_nb`` (T18): every payment code (state.payment_code) the seat can pay for the field's colour;
- ``marble_nb`` (T32): 0 no, 1 spend a marble for one more action.

Events (core.resumable, core.replaying): DECIDED (a strategy's answer), TURN_START, TURN_END,
game.PHASE_SCORED, DECISION + k (an EXTERNAL seat's decision k), GAME_OVER.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.contract import Stepping
from ...core.replaying import entry_points
from ...core.resumable import DECISION, STEP_ACTOR, STEP_EVENT
from .engine import payment_ok_nb
from .game import accumulate_game_nb, play_game_nb, restart_game_nb, start_game_nb
from .rules import N_COLOURS
from .state import DECISIONS, MAX_OPTIONS, N_OPTIONS, PAY_COLOUR, STEPPING_FLAG

PAYMENT, MARBLE = DECISIONS.index("payment_nb"), DECISIONS.index("marble_nb")
N_PAYMENT_CODES = 81 * (N_COLOURS + 1)  # every code state.payment_code can give
MAX_CHOICES = max(MAX_OPTIONS, N_PAYMENT_CODES)


@njit(cache=True)
def legal_choices_nb(buffer, table):
    """The answers the rules allow at the decision stopped at (none elsewhere), ascending."""
    state = buffer[0]
    event = state.step[STEP_EVENT]
    choices = np.arange(MAX_CHOICES)
    if event < DECISION:
        return choices[:0]
    k = event - DECISION
    if k == MARBLE:
        return choices[:2]
    if k == PAYMENT:
        seat, colour = state.step[STEP_ACTOR], state.counts[PAY_COLOUR]
        n = 0
        for code in range(N_PAYMENT_CODES):
            if payment_ok_nb(state, seat, colour, code):
                choices[n] = code
                n += 1
        return choices[:n]
    return choices[:state.counts[N_OPTIONS]]


new_game_nb, advance_nb, apply_choice_nb, trace_game_nb = entry_points(start_game_nb, restart_game_nb, play_game_nb,
                                                                      legal_choices_nb, STEPPING_FLAG)


STEPPING = Stepping(new_game_nb, advance_nb, legal_choices_nb, apply_choice_nb, trace_game_nb, accumulate_game_nb)
