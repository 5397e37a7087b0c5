"""Stepping a game: what every game's engine shares to stop at a decision or an event and go on.

Each game's engine has one play loop, which the batch kernel, a searcher's rollouts,
the trace and the ``play`` table all run. Called with ``record`` false (the kernel, the
rollouts) it never stops. Called with ``record`` True it stops at every event a caller may
want to see or answer, OpenSpiel-style:

- the game's own events (numbered from 0, below :data:`DECISION`, :data:`GAME_OVER` aside;
  :data:`TURN_START` and :data:`TURN_END` for a game of turns), and :data:`GAME_OVER`;
- a decision of a seat whose strategy id is :data:`EXTERNAL` (:data:`DECISION` + k: the k-th
  of the game's decisions, ``registry.decisions`` order): the caller answers it, the play
  loop applies the answer (one copy of each rule: the loop's own) and goes on.

Where it stopped is kept in the state's ``step`` field (``STEP_*`` below). To go on, the loop
is entered again at the stored seat and phase with ``STEP_RESUMING`` set: the first stop it
meets is the one it stopped at, which lets it pass (:func:`stop_nb`), so nothing is played
twice. Each game's ``stepped.py`` offers the same stepping functions on this, written once
here (:func:`entry_points`): ``new_game_nb``, ``advance_nb`` (play to the next stop, return
its event), ``legal_choices_nb`` (at a decision, the game's own) and ``apply_choice_nb``
(answer it and play to the next stop); ``trace_game_nb`` steps a whole game with every seat
a strategy. How a game's play is organised (turns, rounds, phases; the games/medici/
toolkit's loop for that family) is the game's: core asks it only to begin play and to play on.

``record`` false is None or False. A game whose kernel hands its loop None (numba compiles the loop
apart for None, pruning the stops and the recording) compiles it twice, once for the kernel and once
to step; the Medici games' kernel hands it False (their toolkit's ``kernel_game``), so one compiled
loop (``record`` a bool) serves the kernel, the rollouts and every stepping function, each calling
it through its address, and ``trace`` and ``play`` compile only the stepping functions (a few
``if record:`` tests a turn: the kernel's speed unchanged, docs/performance.md).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .kernel import compiled_for

# The state's ``step`` field: what the last stop was, and where play resumes.
# STEP_MOMENT: the game's scoring moment in play at the stop (its phase or round; 0 in a game scored at the end
# only); STEP_SEAT, STEP_PHASE, STEP_ARG: where its play loop resumes (a seat, the game's phase, the phase's argument).
STEP_EVENT, STEP_ACTOR, STEP_MOMENT, STEP_SEAT, STEP_PHASE, STEP_ARG, STEP_RESUMING, STEP_CHOICE = range(8)
N_STEP = 8
STEP_DTYPE = (np.int64, N_STEP)  # how a game's STATE_DTYPE declares its ``step`` field

# Events (STEP_EVENT); STEP_ACTOR is the seat it concerns (-1: none).
# A game numbers its own events from 0 below DECISION, skipping those below (games/medici/ numbers its family's).
NOT_STARTED = -1  # new_game_nb: no stop yet
TURN_START = 1  # actor: whose turn it is (before anything of the turn is played)
TURN_END = 2  # actor: whose turn it was
GAME_OVER = 5
DECISION = 16  # DECISION + k: the actor must answer the game's k-th decision

EXTERNAL = -1  # a seat's strategy id when the caller answers its decisions (apply_choice_nb)

FIRST_TURN = 0  # the phase of a turn not begun (a game numbers its phases from it)
PAUSED = 2  # what a game's loop functions return when they stopped (0 and 1 are their own answers)


@njit(cache=True)
def stop_nb(state, event, actor, moment, seat, phase, arg):
    """A stop of the play loop (``record`` True only): True to stop here (the caller returns
    PAUSED up the loop), False to go on, when this is the stop play resumes from. ``moment``
    is the game's scoring moment in play; ``seat``, ``phase`` and ``arg`` (a game's own: the
    next bidder, whether a round ends) are where the loop is entered again."""
    step = state.step
    if step[STEP_RESUMING]:
        step[STEP_RESUMING] = 0
        return False
    step[STEP_EVENT] = event
    step[STEP_ACTOR] = actor
    step[STEP_MOMENT] = moment
    step[STEP_SEAT] = seat
    step[STEP_PHASE] = phase
    step[STEP_ARG] = arg
    return True


@njit(cache=True)
def is_external_nb(state, seat, record):
    """Whether the caller answers ``seat``'s decisions (never in the kernel: ``record`` false)."""
    if not record:
        return False
    return state.seat_strategy[seat] == EXTERNAL


@njit(cache=True)
def begin_stepping_nb(state, seat, phase):
    """A started game, to be stepped from ``seat``'s ``phase`` (the game's: where its play begins)."""
    step = state.step
    step[:] = 0
    step[STEP_EVENT] = NOT_STARTED
    step[STEP_ACTOR] = seat
    step[STEP_SEAT] = seat
    step[STEP_PHASE] = phase


@njit(cache=True)
def resume_nb(state):
    """Before entering the loop again: pass the stop it made last (none before the first)."""
    state.step[STEP_RESUMING] = state.step[STEP_EVENT] != NOT_STARTED


@njit(cache=True)
def stepped_event_nb(state, paused):
    """The event the loop stopped at, or GAME_OVER when it played to the end."""
    if not paused:
        state.step[STEP_EVENT] = GAME_OVER
        state.step[STEP_ACTOR] = -1
    return state.step[STEP_EVENT]


@njit(cache=True)
def set_choice_nb(state, choice, legal):
    """Record the caller's answer to the decision stopped at, refusing one not in ``legal``."""
    event = state.step[STEP_EVENT]
    if event < DECISION:
        raise ValueError("no decision to answer: the game is not stopped at one")
    for c in legal:
        if c == choice:
            state.step[STEP_CHOICE] = choice
            return
    raise ValueError("not a legal choice at this decision")


# ---------------------------------------------------------------- a game's entry points, written once
# Templates: entry_points compiles each for a game (core.kernel.compiled_for), with the game's functions bound to the
# names below that this module does not define (hence the noqa: F821).

def _new_game(buffer, seed, game_index, seating, slot_strategy, slot_params, table):
    """Start game ``game_index`` on ``buffer[0]`` (a copy of the run's inputs) to be stepped from
    where the game's play begins; a slot whose strategy is EXTERNAL has its decisions answered
    by the caller."""
    state = buffer[0]
    start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params)  # noqa: F821
    begin_play_nb(state)  # noqa: F821


def _advance(buffer, table):
    """Play on to the next stop, recording; return its event."""
    state = buffer[0]
    resume_nb(state)
    return stepped_event_nb(state, play_on_nb(state, table))  # noqa: F821


def _apply_choice(buffer, table, choice):
    """Answer the decision stopped at with ``choice`` (ValueError if the rules forbid it),
    play it and on to the next stop; return that stop's event."""
    set_choice_nb(buffer[0], choice, legal_choices_nb(buffer, table))  # noqa: F821
    return advance_nb(buffer, table)  # noqa: F821


def _trace_game(seed, game_index, inputs, seating, slot_strategy, slot_params, table):
    """Play one game, stepped with every seat a strategy, recording everything; return its
    GameState buffer (the game's ``trace``)."""
    buffer = inputs.copy()
    new_game_nb(buffer, seed, game_index, seating, slot_strategy, slot_params, table)  # noqa: F821
    while advance_nb(buffer, table) != GAME_OVER:  # noqa: F821
        pass
    return buffer


def entry_points(start_game_nb, begin_play_nb, play_on_nb, legal_choices_nb) -> tuple:
    """A game's ``new_game_nb``, ``advance_nb``, ``apply_choice_nb`` and ``trace_game_nb``,
    written once here and bound to the game's functions:

    - ``start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params)``: a new
      game dealt and seated (its engine's);
    - ``begin_play_nb(state)``: play made ready to begin, and where (:func:`begin_stepping_nb`);
    - ``play_on_nb(state, table)``: the game's play loop entered again, recording, at the
      stored ``STEP_SEAT``, ``STEP_PHASE`` and ``STEP_ARG``; True when it stopped (PAUSED),
      False when it played to the end;
    - ``legal_choices_nb(buffer, table)``: the answers the rules allow at the decision stopped
      at (its stepped.py).

    Each is compiled and cached for its game alone (core.kernel.compiled_for)."""
    bound = {**globals(), "start_game_nb": start_game_nb, "begin_play_nb": begin_play_nb,
             "play_on_nb": play_on_nb, "legal_choices_nb": legal_choices_nb}
    names = ("new_game_nb", "advance_nb", "apply_choice_nb", "trace_game_nb")
    for name, template in zip(names, (_new_game, _advance, _apply_choice, _trace_game), strict=True):
        bound[name] = compiled_for(template, name, bound)
    return tuple(bound[name] for name in names)


def stepped_events(engine, kernel, game_index: int):
    """Step game ``game_index`` of ``kernel``'s run (``engine``: its game's engine module, every
    seat played by its strategy) and yield every stop as (event, actor, moment, state),
    ``state`` the live record: what a narrator reads at each event, before play goes on."""
    buffer = kernel.inputs.copy()
    engine.new_game_nb(buffer, kernel.config.seed, game_index, kernel.seating, kernel.slot_strategy,
                       kernel.slot_params, kernel.table)
    state = buffer[0]
    while (event := int(engine.advance_nb(buffer, kernel.table))) != GAME_OVER:
        yield event, int(state["step"][STEP_ACTOR]), int(state["step"][STEP_MOMENT]), state
