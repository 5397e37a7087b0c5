"""``search``: decides by simulation, playing each legal choice out with a built-in policy.

At each decision (R9 reveal another card or stop; R10 which earlier cards to take) it lists
the legal choices and plays each one out ``rollouts`` times on a copy of the state, to the
end of the game (or of the day, ``horizon`` 1), with the built-in ``policy`` deciding for
itself afterwards and the built-in ``opponents`` for every other seat (each with its
default parameters), then takes the choice with the best mean outcome (core.rollout: win
credit, R22, plus ``margin_weight`` times the florin margin) if it beats the policy's own
choice by more than ``confidence`` standard errors, else the policy's (core.rollout.choose_nb).

What it cannot see is the deck's order (R7, R20: the deck is shuffled; which cards are in it
is public, ``state.unseen``). The engine draws lazily (docs/protocol.md), so a rollout
samples a deck order consistent with everything seen by drawing with a generator of its
own from the unseen cards sorted (so the real deck's hidden order never reaches a decision,
tests/conformance/test_what_a_seat_sees.py): the copy's ``rng`` is replaced by the rollout's
stream (core.rollout), never advancing the real one. The real game is only ever read: rollouts play a copy
(``engine.copy_play_nb``), so the game with a search seat is the game its decisions make
(tests/test_search.py replays them in the reference engine).

The rollouts run the engine's own compiled loop from the decision on (``engine.finish_game_nb``,
as ``rollout_game_nb``), dispatching through a strategy table of their own (the built-ins but
this one: a search inside a rollout would cost rollouts squared), which the process fills
(core.dispatch.runtime_table). The decision functions are not cached by numba on their own
(``cache=False``): the dispatch's wrapper of each is, under a name hashing the package's sources.
"""
from pathlib import Path

import numpy as np
from numba import njit

from ....core import tree
from ....core.arrays import copy1_nb, copy_record_nb
from ....core.dispatch import runtime_loop
from ....core.registry import Strategy
from ....core.rollout import (
    MARGIN_WEIGHT,
    N_ROLLOUT_PARAMS,
    ROLLOUTS,
    choose_nb,
    decision_stream_nb,
    outcome_nb,
    rollout_policies,
    rollout_stream_nb,
    seat_rollout_players_nb,
    tuned_policy_params_nb,
    untunable,
)
from ...medici.rollouts import rollout_plan_nb, search_params
from ...medici.tree_search import tree_search_for
from ..engine import (
    MAX_TAKES,
    REVEAL_DECISION,
    TAKE_DECISION,
    copy_play_nb,
    last_day_nb,
    play_choice_nb,
    rollout_game_nb,
)
from ..rules import MAX_PLAYERS, RULE_BIG_BONUS_MIN, RULE_DAYS, RULE_PLAYERS, VARIANTS
from ..state import DAY, DECK_LEN, STATE_DTYPE, legal_takes_nb
from ..state import reveal_nb as ask_reveal_nb
from ..state import take_nb as ask_take_nb
from .base import REGISTRY
from .heuristics import HEURISTICS

CONFIDENCE, TUNED = range(N_ROLLOUT_PARAMS, N_ROLLOUT_PARAMS + 2)  # after the common ones (core.rollout)
MAX_ACTIONS = MAX_TAKES

# The strategies rollouts play (the built-ins, ids in this order), their table, defaults,
# and their shipped tuned parameters (``tune --out``) by rules and player count: ``tuned`` 1 plays them.
POLICIES, _ROLLOUT_TABLE, _POLICY_PARAMS = rollout_policies(REGISTRY, tuple(s.name for s in HEURISTICS))
_ROLLOUT_LOOP = runtime_loop(REGISTRY.game, rollout_game_nb)  # the engine's compiled loop, not linked in: core.dispatch
ROLLOUT_POLICY = "expert"  # what rollouts play unless told otherwise (the game's StudyPolicy.rollout_policy)
TUNED_FILE = Path(__file__).parents[1] / "data" / "tuned" / "tuned.json"
tuned_params_nb = tuned_policy_params_nb(TUNED_FILE, REGISTRY, POLICIES, _POLICY_PARAMS, VARIANTS, MAX_PLAYERS)
STATE_BYTES = STATE_DTYPE.itemsize


# Inlined (a thin layer each): compiled apart, each layer linked rollout_values_nb's code and LLVM optimised
# and assembled it all again (the decisions' wrappers, these, search_nb and search_on_nb: six times).
@njit(inline="always")
def reveal_nb(state, seat, params):
    actions = np.zeros(MAX_ACTIONS, np.int64)
    actions[1] = 1  # 0: stop revealing (first: a tie keeps the cards in the deck), 1: reveal one more
    return actions[search_nb(state, seat, params, actions, 2, False)] == 1


@njit(inline="always")
def take_nb(state, seat, params):
    """R10: the legal choices (state.legal_takes_nb)."""
    actions = np.zeros(MAX_ACTIONS, np.int64)
    count = legal_takes_nb(state, seat, actions)
    if count == 1:
        return 0
    return actions[search_nb(state, seat, params, actions, count, True)]


@njit(inline="always")
def search_nb(state, seat, params, actions, n_actions, taking):
    """The index of the action to take (core.rollout.choose_nb): R10 take choices (``taking``)
    or R9 answers (0 stop, 1 reveal)."""
    # numba frees an array after its last use, so the body takes the array, not just its record
    return search_on_nb(np.empty(1, STATE_DTYPE), state, seat, params, actions, n_actions, taking)


@njit(inline="always")
def search_on_nb(buffer, state, seat, params, actions, n_actions, taking):
    values = np.empty((MAX_ACTIONS, np.int64(params[ROLLOUTS])))
    own = rollout_values_nb(buffer, state, seat, params, actions, n_actions, taking, values)
    return choose_nb(values, n_actions, np.int64(params[ROLLOUTS]), own, params[CONFIDENCE])


@njit
def rollout_values_nb(buffer, state, seat, params, actions, n_actions, taking, values):
    """Fill ``values[action, rollout]`` with the rollouts' outcomes and return the index of
    the policy's own choice (strong's training labels choices with these too)."""
    sim = buffer[0]  # the state rollouts play on
    rollouts, policy, opponents, last_day = rollout_plan_nb(params, state.counts[DAY], state.rules[RULE_DAYS])
    tuned = params[TUNED] != 0
    players = state.rules[RULE_PLAYERS]
    copy_record_nb(sim, state, STATE_BYTES)  # the deck and rule data, once; each rollout then
    #                                        copies only what play changes (copy_play_nb)
    table = _ROLLOUT_TABLE()
    base = decision_stream_nb(state.rng, seat)
    set_up_nb(sim, state, seat, policy, opponents, tuned, base)  # the policy's own choice, as a rollout would ask it
    own = 0
    if taking:
        choice = ask_take_nb(table, policy, sim, seat)
        for a in range(n_actions):
            if actions[a] == choice:
                own = a
    else:
        own = 1 if ask_reveal_nb(table, policy, sim, seat) else 0
    for i in range(rollouts):
        stream = rollout_stream_nb(base, i)
        for a in range(n_actions):
            set_up_nb(sim, state, seat, policy, opponents, tuned, stream)  # R7, R20: a deck order of its own
            phase = play_choice_nb(sim, seat, TAKE_DECISION if taking else REVEAL_DECISION, actions[a])
            _ROLLOUT_LOOP(sim, table, seat, phase, 0, last_day, False)  # finish_game_nb's code, recording nothing
            values[a, i] = outcome_nb(sim.florins, players, seat, params[MARGIN_WEIGHT])
    return own


@njit
def set_up_nb(sim, state, seat, policy, opponents, tuned, stream):
    """``sim``: the state to play on, the policy at ``seat``, the opponent model elsewhere
    (default parameters, or the shipped tuned ones, empty scratch), generator at ``stream``, the
    unseen cards of the deck sorted: a rollout's draws read which cards are unseen, never where
    they lie (what the seat cannot see, R7, R20)."""
    copy_play_nb(sim, state)
    sim.deck[:sim.counts[DECK_LEN]].sort()  # R7, R20: the deck's hidden order never reaches a rollout
    sim.rng[0] = stream
    players = state.rules[RULE_PLAYERS]
    # the tuned parameters of bonus20 when a big bonus is in play (R19), else the standard rules'
    variant = 1 if state.rules[RULE_BIG_BONUS_MIN] < 1 << 32 else 0
    seat_rollout_players_nb(sim, seat, players, policy, opponents,
                            tuned_params_nb()[variant, players] if tuned else _POLICY_PARAMS)


# -------------------------------------------- mcts: the tree search's card-game part (games/medici/tree_search.py)

@njit
def start_search_nb(sim, state):
    copy_record_nb(sim, state, STATE_BYTES)


@njit
def deal_nb(sim, state, seat, params, stream):
    """As a rollout starts (R7, R20: a deck order of its own, drawn from the deck sorted by
    set_up_nb: the same draws whatever the hidden order), the turn log's length the real game's (the tree
    steps the play loop, which logs turns)."""
    set_up_nb(sim, state, seat, np.int64(params[tree.POLICY]), np.int64(params[tree.OPPONENTS]),
              False, stream)
    copy1_nb(sim.day_turn_count, state.day_turn_count)


@njit
def candidates_nb(sim, seat, decision, params, table, out):
    """R9: reveal or stop; R10: the legal takes (state.legal_takes_nb); the policy's own first."""
    policy = np.int64(params[tree.POLICY])
    if decision == REVEAL_DECISION:
        out[0] = 1 if ask_reveal_nb(table, policy, sim, seat) else 0
        out[1] = 1 - out[0]
        return 2
    count = legal_takes_nb(sim, seat, out)
    if count > 1:
        own = ask_take_nb(table, policy, sim, seat)
        for a in range(count):
            if out[a] == own:
                out[a] = out[0]
                out[0] = own
    return count


@njit
def apply_nb(sim, seat, decision, choice):
    return seat, play_choice_nb(sim, seat, decision, choice), 0


@njit
def outcome_of_nb(sim, seat, margin_weight):
    return outcome_nb(sim.florins, sim.rules[RULE_PLAYERS], seat, margin_weight)


tree_search_nb = tree_search_for({
    "ROLLOUT_TABLE": _ROLLOUT_TABLE, "MAX_CANDIDATES": MAX_ACTIONS, "rollout_game_nb": _ROLLOUT_LOOP,
    "NOT_RECORDING": False,
    "last_day_nb": last_day_nb, "start_search_nb": start_search_nb, "deal_nb": deal_nb,
    "candidates_nb": candidates_nb, "apply_nb": apply_nb, "outcome_of_nb": outcome_of_nb})


@njit
def tree_reveal_nb(state, seat, params):
    return tree_search_nb(np.empty(1, STATE_DTYPE), state, seat, params, REVEAL_DECISION) == 1


@njit
def tree_take_nb(state, seat, params):
    return tree_search_nb(np.empty(1, STATE_DTYPE), state, seat, params, TAKE_DECISION)


MCTS = Strategy(
    name="mcts",
    decisions={"reveal_nb": tree_reveal_nb, "take_nb": tree_take_nb},
    params=tree.tree_params(POLICIES, ROLLOUT_POLICY, confidence=1, paired=1, margin="florin margin"),
    summary="Tree search (information-set MCTS) over its own choices, the rest played by a built-in policy.",
    untunable=tree.tree_untunable("mcts"),
)

SEARCH = Strategy(
    name="search",
    decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
    params=search_params(POLICIES, ROLLOUT_POLICY, "legal choice", confidence=1),
    summary="Simulation search: plays each legal choice out with a built-in policy; the best mean outcome wins.",
    untunable=untunable("search"),
)
