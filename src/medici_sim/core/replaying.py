"""Stepping a game whose play loop cannot be entered again mid-turn: it is played again from its start.

core.resumable steps a game by entering its play loop again at a stored seat and phase. That
assumes every decision sits at a point the loop can be re-entered from (a Medici turn: reveal,
then take). A game whose decisions nest (The Castles of Tuscany: a castle chain inside a placement
inside an action inside a turn that a marble may double) has no such points short of rewriting its
engine as a state machine, a second copy of its rules. It is stepped here instead by *replay*:

- every decision goes through :func:`stepped_decision`, which in the kernel (the game's stepping flag
  0) is the strategy's call and nothing else, and when stepping counts the stop it is: a decision
  of an EXTERNAL seat (event ``DECISION + k``: the caller answers it) or a strategy's answer
  (event :data:`DECIDED`, the decision ``k`` in ``step[STEP_PHASE]`` and the answer in
  ``step[STEP_CHOICE]``: what a narrator tells); a game adds its own events with
  :func:`replay_stop_nb` (``record`` True only);
- :func:`entry_points`'s ``advance_nb`` plays the game again from its start (the generator as it
  was after seating, the scratch of every seat the engine's strategies play cleared: an EXTERNAL
  seat's is its caller's strategy's, kept; the game's ``restart_game_nb``), answering
  the EXTERNAL decisions passed so far from the answers given (the ``answers`` field, with the
  generator as the caller left it: a strategy answering from outside may have drawn from it), and
  stops at the first stop not passed before by raising: the record is left as it stood there,
  exactly the state the game's loop would have stopped in, and the exception is caught in
  ``advance_nb``.

So stepping a game of n stops costs about n / 2 games' play (a game of The Castles of Tuscany is
tens of microseconds). What a caller writes on a stopped record (a framework dealing hidden cards
again) does not survive the next ``advance_nb``: the game is played again from its seed and
answers. The state declares ``step`` (resumable.STEP_DTYPE), ``replay`` (REPLAY_DTYPE) and ``answers``
(:func:`answers_dtype`), and names its *stepping flag*: ``(field, index)`` of an int64 the kernel leaves 0 and
the game's reset clears, best one every decision's cache line holds already (the kernel tests it at each
decision; Tuscany's: ``counts[STEPPING]``, beside ``counts[N_OPTIONS]``, written just before).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .kernel import compiled_for
from .resumable import (
    DECISION,
    EXTERNAL,
    GAME_OVER,
    NOT_STARTED,
    STEP_ACTOR,
    STEP_CHOICE,
    STEP_EVENT,
    STEP_MOMENT,
    STEP_PHASE,
    set_choice_nb,
)
from .templates import generated

DECIDED = 0  # a strategy's answer, told: step[STEP_PHASE] the decision k, step[STEP_CHOICE] the answer

# The state's ``replay`` field; its ``answers``: the EXTERNAL seats' answers in the order given, each with the
# generator's word after it (a caller's strategy may draw from the game's generator to answer: the draws stay).
(REPLAY_FREE, REPLAY_DONE, REPLAY_PASSED, REPLAY_STOPPED, REPLAY_GIVEN, REPLAY_USED, REPLAY_RNG,
 REPLAY_ANSWERED) = range(8)
REPLAY_DTYPE = (np.int64, 8)


def answers_dtype(answers: int) -> tuple:
    """How a game's STATE_DTYPE declares its ``answers`` field, room for ``answers`` EXTERNAL answers."""
    return np.int64, 2 * answers


@njit(cache=True)
def _stop_nb(state, event, actor, moment):
    """Stop here: the record is left as it stands (the caller's ``advance_nb`` catches the raise)."""
    replay = state.replay
    replay[REPLAY_DONE] = replay[REPLAY_PASSED]
    replay[REPLAY_STOPPED] = 1
    step = state.step
    step[STEP_EVENT] = event
    step[STEP_ACTOR] = actor
    step[STEP_MOMENT] = moment
    raise ValueError("stepping: stopped")


@njit(cache=True)
def replay_stop_nb(state, event, actor, moment):
    """A stop of the game's own (``event`` below DECISION, not DECIDED): passed when played again."""
    replay = state.replay
    replay[REPLAY_PASSED] += 1
    if replay[REPLAY_PASSED] > replay[REPLAY_DONE]:
        state.step[STEP_PHASE] = -1
        _stop_nb(state, event, actor, moment)


@njit(cache=True)
def external_answer_nb(state, seat, k, moment):
    """An EXTERNAL seat's answer to decision ``k``: the one given, when played again; else stop for it."""
    replay = state.replay
    replay[REPLAY_PASSED] += 1
    if replay[REPLAY_PASSED] > replay[REPLAY_DONE]:
        state.step[STEP_PHASE] = k
        _stop_nb(state, DECISION + k, seat, moment)
    at = 2 * replay[REPLAY_USED]
    replay[REPLAY_USED] += 1
    state.rng[0] = np.uint64(state.answers[at + 1])
    return state.answers[at]


@njit(cache=True)
def told_answer_nb(state, seat, k, moment, answer):
    """A strategy's ``answer`` to decision ``k``: a stop (DECIDED) the first time it is played."""
    replay = state.replay
    replay[REPLAY_PASSED] += 1
    if replay[REPLAY_PASSED] > replay[REPLAY_DONE]:
        state.step[STEP_PHASE] = k
        state.step[STEP_CHOICE] = answer
        _stop_nb(state, DECIDED, seat, moment)
    return answer


_ASKED = """
def {name}(table, strategy, state, seat):
    stepping = state.{flag}  # 0 in the kernel
    if stepping != 0 and strategy == EXTERNAL:
        return external_answer_nb(state, seat, {k}, moment_nb(state))
    answer = decide(table, strategy, state, seat)  # one call site: the dispatch is inlined once
    if stepping == 0:
        return answer
    return told_answer_nb(state, seat, {k}, moment_nb(state), answer)
"""


def _flag(flag: tuple[str, int]) -> str:
    field, index = flag
    if not field.isidentifier():
        raise ValueError(f"a stepping flag names a state field, got {field!r}")
    return f"{field}[{int(index)}]"


def stepped_decision(decide, k: int, moment_nb, name: str, flag: tuple[str, int]):
    """``decide`` (core.dispatch.decision: the strategy's call) as decision ``k`` of a replayed game,
    called as it is: ``(table, strategy, state, seat)``; when stepping, a stop (an EXTERNAL seat's: the
    caller answers it). ``moment_nb(state)``: the scoring moment in play (STEP_MOMENT). Inlined into its
    callers (whose cache holds it); named ``name``, one function per decision (one shared template's
    copies would share numba's cache entry: they have the same signature)."""
    namespace = {**globals(), "EXTERNAL": EXTERNAL, "decide": decide, "moment_nb": moment_nb}
    return generated(_ASKED.format(name=name, k=k, flag=_flag(flag)).splitlines(), namespace, name,
                     inline="always")


# ---------------------------------------------------------------- a game's entry points, written once

def _new_game(buffer, seed, game_index, seating, slot_strategy, slot_params, table):
    """Start game ``game_index`` on ``buffer[0]`` to be stepped (EXTERNAL slots: the caller answers)."""
    state = buffer[0]
    start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params)  # noqa: F821
    set_stepping_nb(state)  # noqa: F821
    replay = state.replay
    for i in range(replay.shape[0]):
        replay[i] = 0
    replay[REPLAY_RNG] = np.int64(state.rng[0])
    state.step[:] = 0
    state.step[STEP_EVENT] = NOT_STARTED
    state.step[STEP_ACTOR] = -1


def _advance(buffer, table):
    """Play on to the next stop (the game played again from its start); return its event."""
    state = buffer[0]
    replay, step = state.replay, state.step
    if step[STEP_EVENT] == GAME_OVER:
        return GAME_OVER
    if step[STEP_EVENT] >= DECISION and replay[REPLAY_ANSWERED] == 0:
        raise ValueError("the decision stopped at is not answered (apply_choice_nb)")
    replay[REPLAY_ANSWERED] = 0
    from_start_nb(state)  # noqa: F821
    try:
        play_recorded_nb(state, table)  # noqa: F821  (a call: numba's try misses raises of code inlined in it)
        finished = True
    except Exception:  # noqa: BLE001  (a stop, or an error: told apart below)
        finished = False
    if finished:
        step[STEP_EVENT] = GAME_OVER
        step[STEP_ACTOR] = -1
        return GAME_OVER
    if replay[REPLAY_STOPPED] == 0:  # an error (an illegal decision): played again outside the try, it is raised
        from_start_nb(state)  # noqa: F821  as it was (core.driver names the strategy at fault)
        play_recorded_nb(state, table)  # noqa: F821
        raise ValueError("the game raised an error while stepped, and not when played again")
    return step[STEP_EVENT]


def _from_start(state):
    """The game as it began (the generator after seating, the engine's seats' scratch cleared), to be played again."""
    replay = state.replay
    state.rng[0] = np.uint64(replay[REPLAY_RNG])
    for seat in range(state.scratch.shape[0]):  # a strategy's working memory, as at the start; the caller's
        if state.seat_strategy[seat] != EXTERNAL:  # seats' rows are the caller's strategies' (never the engine's)
            state.scratch[seat, :] = 0.0
    restart_game_nb(state)  # noqa: F821
    set_stepping_nb(state)  # noqa: F821  (after the reset, which clears it)
    replay[REPLAY_PASSED] = 0
    replay[REPLAY_USED] = 0
    replay[REPLAY_STOPPED] = 0


def _play_recorded(state, table):
    """The whole game, recording (its stops raise)."""
    play_game_nb(state, table, True)  # noqa: F821


def _apply_choice(buffer, table, choice):
    """Answer the decision stopped at with ``choice`` (ValueError if the rules forbid it), play on."""
    state = buffer[0]
    set_choice_nb(state, choice, legal_choices_nb(buffer, table))  # noqa: F821
    replay = state.replay
    given = replay[REPLAY_GIVEN]
    at = 2 * given
    if at + 1 >= state.answers.shape[0]:
        raise ValueError("stepping: more answers than the state's answers field holds")
    state.answers[at] = choice
    state.answers[at + 1] = np.int64(state.rng[0])
    replay[REPLAY_GIVEN] = given + 1
    replay[REPLAY_ANSWERED] = 1
    return advance_nb(buffer, table)  # noqa: F821


def _trace_game(seed, game_index, inputs, seating, slot_strategy, slot_params, table):
    """One game stepped with every seat a strategy, to its end; its buffer."""
    buffer = inputs.copy()
    new_game_nb(buffer, seed, game_index, seating, slot_strategy, slot_params, table)  # noqa: F821
    while advance_nb(buffer, table) != GAME_OVER:  # noqa: F821
        pass
    return buffer


def entry_points(start_game_nb, restart_game_nb, play_game_nb, legal_choices_nb, flag: tuple[str, int]) -> tuple:
    """A replayed game's ``new_game_nb``, ``advance_nb``, ``apply_choice_nb`` and ``trace_game_nb``
    (core.contract.Stepping), bound to the game's functions:

    - ``start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params)``: seeded, seated, reset;
    - ``restart_game_nb(state)``: everything ``start_game_nb`` resets after seating, reset again;
    - ``play_game_nb(state, table, record)``: the whole game (its decisions :func:`stepped_decision`'s);
    - ``legal_choices_nb(buffer, table)``: the answers the rules allow at the decision stopped at;
    - ``flag``: the state's stepping flag (the module doc), as its decisions' (:func:`stepped_decision`)."""
    setter = f"def set_stepping_nb(state):\n    state.{_flag(flag)} = 1"
    bound = {**globals(), "start_game_nb": start_game_nb, "restart_game_nb": restart_game_nb,
             "play_game_nb": play_game_nb, "legal_choices_nb": legal_choices_nb}
    bound["set_stepping_nb"] = generated(setter.splitlines(), dict(bound), "set_stepping_nb", inline="always")
    bound["play_recorded_nb"] = compiled_for(_play_recorded, "play_recorded_nb", bound)
    bound["from_start_nb"] = compiled_for(_from_start, "from_start_nb", bound)
    names = ("new_game_nb", "advance_nb", "apply_choice_nb", "trace_game_nb")
    for name, template in zip(names, (_new_game, _advance, _apply_choice, _trace_game), strict=True):
        bound[name] = compiled_for(template, name, bound)
    return tuple(bound[name] for name in names)
