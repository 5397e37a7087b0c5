"""The day loop of the Medici games (R8-R22, C5-C18): a game of days, each of turns, scored at its
end, the poorest starting the next.

Each Medici engine has one play loop, ``finish_game_nb``, compiled here from
:func:`_finish_game` for its engine (:func:`play_loop`): the batch kernel, a search player's
rollouts (from its decision, to the end or to the day's end) and a stepped game (core.resumable)
all run it, each through its address (:func:`kernel_game`, :func:`day_entry_points`).
:func:`day_entry_points` gives the game the stepping functions of core.resumable, bound to that
loop: a stepped game begins at the first day's start and plays on from the stored seat and
phase.
"""
from __future__ import annotations

from numba import njit

from ...core.dispatch import runtime_loop
from ...core.kernel import compiled_for
from ...core.resumable import (  # noqa: F401 (GAME_OVER, TURN_*: the events, here with the day's)
    FIRST_TURN,
    GAME_OVER,
    STEP_ARG,
    STEP_PHASE,
    STEP_SEAT,
    TURN_END,
    TURN_START,
    begin_stepping_nb,
    entry_points,
    stop_nb,
)
from ...core.rng import below_nb

# The events of a day (core.resumable's STEP_EVENT; TURN_START, TURN_END and GAME_OVER are core's).
DAY_START = 0  # actor: the day's starting seat
DAY_OVER = 3  # the day's turns are over, before scoring
DAY_SCORED = 4  # the day was scored; actor: the next day's starting seat (-1 after the last day)

# Phases the play loop knows besides the game's own turn phases (numbered from FIRST_TURN, below these).
PHASE_DAY_START, PHASE_DAY_OVER, PHASE_DAY_SCORED = 100, 101, 102


@njit(cache=True)
def poorest_seat_nb(money, players, rng):
    """The seat with the least money (R21, C6): who starts the next day; among k > 1 such seats,
    in seat order, the one at ``below(k)`` of the game's generator; with one, no draw."""
    fewest = money[0]
    tied = 0
    for p in range(players):
        if money[p] < fewest:
            fewest = money[p]
            tied = 0
        if money[p] == fewest:
            tied += 1
    pick = below_nb(rng, tied) if tied > 1 else 0
    for p in range(players):
        if money[p] == fewest:
            if pick == 0:
                return p
            pick -= 1
    return -1  # unreachable


# ---------------------------------------------------------------- the day loop, written once
# A template: play_loop compiles it for a game (core.kernel.compiled_for), with the game's functions bound to the
# names below that this module does not define (hence the noqa: F821).

def _finish_game(state, table, seat, phase, arg, last_day, record):
    """Play on from ``seat``'s turn at ``phase`` (the game's turn phases, or a day's PHASE_*;
    ``arg``: what the game's phase needs to resume, e.g. the next seat to bid) on the current
    day to the end of day ``last_day``, scored. Both games' days go alike: the game's
    ``play_day_nb`` plays the day's turns, ``close_day_nb`` scores it, ``next_starter_nb``
    names who starts the next (R21, C6; nobody after the last day) and ``begin_day_nb``
    begins it. A whole game, a search player's rollout (from its decision, to the end or to
    the day's end) and a stepped game (``record`` True: it stops at every event and returns
    True when it did) all run this loop."""
    day = state.counts[DAY]  # noqa: F821
    while True:
        if phase == PHASE_DAY_START:
            if record:
                if stop_nb(state, DAY_START, seat, day, seat, phase, 0):
                    return True
            phase = FIRST_TURN
        if phase < PHASE_DAY_START:
            if play_day_nb(state, day, seat, phase, arg, table, record):  # noqa: F821
                return True
            phase = PHASE_DAY_OVER
        if phase == PHASE_DAY_OVER:
            if record:
                if stop_nb(state, DAY_OVER, -1, day, -1, phase, 0):
                    return True
            close_day_nb(state, day, record)  # noqa: F821
            seat = next_starter_nb(state) if day < last_day else -1  # noqa: F821
        if record:
            if stop_nb(state, DAY_SCORED, seat, day, seat, PHASE_DAY_SCORED, 0):
                return True
        if day >= last_day:
            return False
        day += 1
        phase = PHASE_DAY_START
        begin_day_nb(state, day, seat)  # noqa: F821


def play_loop(day_index: int, play_day_nb, close_day_nb, next_starter_nb, begin_day_nb):
    """A Medici game's play loop, ``finish_game_nb``, compiled from :func:`_finish_game` for
    its engine: the state's ``counts`` index of the current day and the day's functions
    (``play_day_nb(state, day, seat, phase, arg, table, record)`` True when it stopped,
    ``close_day_nb(state, day, record)``, ``next_starter_nb(state)``, ``begin_day_nb(state,
    day, starter)``)."""
    return compiled_for(_finish_game, "finish_game_nb", {
        **globals(), "DAY": day_index, "play_day_nb": play_day_nb, "close_day_nb": close_day_nb,
        "next_starter_nb": next_starter_nb, "begin_day_nb": begin_day_nb})


def _bound(begin_day_nb, finish_game_nb, last_day_nb, game: str) -> dict:
    """The names the templates below read, bound to a game's engine: its play loop reached through its
    address (core.dispatch.runtime_loop), never linked in."""
    return {**globals(), "begin_day_nb": begin_day_nb, "finish_game_nb": runtime_loop(game, finish_game_nb),
            "last_day_nb": last_day_nb}


def _kernel_game(state, table, record):
    """The batch kernel's game (core.kernel, ``record`` its None): the first day begun (R7, C6: seat 0
    starts it), then the play loop to the last day's end, not recording."""
    begin_day_nb(state, 0, 0)  # noqa: F821
    finish_game_nb(state, table, 0, PHASE_DAY_START, 0, last_day_nb(state), False)  # noqa: F821


def kernel_game(begin_day_nb, finish_game_nb, last_day_nb, game: str):
    """A Medici game's play hook for core.kernel.batch_kernel, bound to its engine (as
    :func:`day_entry_points`): the loop is reached through core.dispatch.runtime_loop, so the
    kernel's functions run the loop's compiled code and link none of it (the indirect call a game
    costs nothing measurable: docs/performance.md)."""
    return compiled_for(_kernel_game, "kernel_game_nb", _bound(begin_day_nb, finish_game_nb, last_day_nb, game),
                        inline="always")


def _begin_play(state):
    """A started game, to be stepped from its first day's start (seat 0 starts it: R7, C6)."""
    begin_day_nb(state, 0, 0)  # noqa: F821
    begin_stepping_nb(state, 0, PHASE_DAY_START)


def _play_on(state, table):
    """The play loop entered again, recording, where the last stop left it, to the last day's end."""
    step = state.step
    return finish_game_nb(state, table, step[STEP_SEAT], step[STEP_PHASE], step[STEP_ARG],  # noqa: F821
                          last_day_nb(state), True)  # noqa: F821


def day_entry_points(start_game_nb, begin_day_nb, finish_game_nb, legal_choices_nb, last_day_nb, game: str) -> tuple:
    """A Medici game's ``new_game_nb``, ``advance_nb``, ``apply_choice_nb`` and ``trace_game_nb``
    (core.resumable.entry_points), bound to its engine (``start_game_nb``, ``begin_day_nb(state,
    day, starter)`` and its play loop ``finish_game_nb``), its ``legal_choices_nb`` (its
    stepped.py) and its ``last_day_nb(state)``, the index of the game's last day (the rules'). The
    loop is reached through core.dispatch.runtime_loop (``game``: the game's name): the stepping
    functions run the kernel's compiled loop, none links a copy of it."""
    bound = _bound(begin_day_nb, finish_game_nb, last_day_nb, game)
    begin_play_nb = compiled_for(_begin_play, "begin_play_nb", bound)
    play_on_nb = compiled_for(_play_on, "play_on_nb", bound)
    return entry_points(start_game_nb, begin_play_nb, play_on_nb, legal_choices_nb)
