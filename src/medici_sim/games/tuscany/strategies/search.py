"""``search`` for The Castles of Tuscany: flat Monte Carlo over a turn's action with its display tile or placement.

**What it searches.** At each action (T13; the marble's second action too, T32) it lists every *candidate*: draw;
take with each display tile (T14; a single "take" when no display tile fits, T17: the policy then decides); place
each stored item on each payable legal field (T18, T19). Each candidate is played out ``rollouts`` times to the
game's end (T35) with the built-in ``policy`` at its own seat and ``opponents`` at the others, and the candidate
with the best mean outcome (core.rollout: win credit by T36's order plus ``margin_weight`` times the red margin)
is taken if it beats the policy's own choice by more than ``confidence`` standard errors (core.rollout.choose_nb).
The tile or placement chosen with the action is kept in the seat's scratch and answered at the take or place
decision that follows; every other decision (the assembly, bonus tiles, T17, discards, payment, castle chains,
the marble) is the policy's, with the policy's default parameters.

**What it sees.** A rollout plays a copy of the state on which everything the seat cannot see is dealt again
(:func:`determinise_nb`): the rivals' hands (from the cards the seat cannot account for: theirs and the deck's,
each rival keeping its hand size), the order of the region deck, the yield deck and the neutral supply, and which
tiles are left in each seat's stacks. Each is first put in a canonical order (sorted) and then shuffled by the
rollout's own stream, so where the hidden things really lie never reaches a decision
(tests/conformance/test_what_a_seat_sees.py). The streams are core.rollout's: a hash of the game's generator state
and the seat, never a draw from it, so the real game is only read, and a game is the same for any threads or
batches (T38).

**How a rollout is played.** The engine cannot be entered mid-turn, so the search runs at the turn's action, where
the state is the turn's start (or, for the marble's second action, between the actions): the copy is played by
the engine's own compiled turn (``engine.turn_nb``, from its second action for a second action) and then its play loop
from the next seat (``game.play_rounds_nb``), dispatching through a rollout table of its own holding the built-ins
and this strategy (core.dispatch.runtime_table). On the copy the searching seat is this strategy in *scripted*
mode (a flag in the copy's scratch): it answers the candidate's action and tile or placement, then hands its seat
over to the policy. The decision functions are not cached by numba on their own (the dispatch's wrapper is).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ....core import rollout
from ....core.arrays import copy_record_nb
from ....core.dispatch import decision, runtime_table
from ....core.registry import Param, Strategy
from ....core.rollout import choose_nb, decision_stream_nb, outcome_nb, rollout_stream_nb, seat_rollout_players_nb
from ....core.templates import jitted_copy
from ..engine import item_fields_nb, payable_fields_nb, turn_nb
from ..game import play_rounds_nb, rank_key_nb
from ..geometry import ESTATE_FIELDS
from ..pieces import shuffle_nb
from ..rules import N_COLOURS, PLACE, TAKE
from ..state import (
    DECK_LEN,
    DECK_TOP,
    FIELD_CODE,
    MAX_DISPLAY,
    MAX_PLAYER_TILES,
    MAX_PLAYERS,
    MAX_REGION_CARDS,
    MAX_STORAGE,
    N_OPTIONS,
    OCCUPIED,
    R_PLAYER_TILES,
    R_PLAYERS,
    R_STACK_SIZE,
    STATE_DTYPE,
    STEPPING,
    SUPPLY_LEN,
    SUPPLY_TOP,
    YIELD_LEN,
    YIELD_TOP,
    lowest_bit,
)
from .base import BUILT_INS, REGISTRY
from .heuristic import option_of_nb

CONFIDENCE = rollout.N_ROLLOUT_PARAMS  # after the common ones (core.rollout)
ROLLOUT_POLICY = "expert"  # what rollouts play unless told otherwise (the game's StudyPolicy.rollout_policy)
# The built-ins rollouts play (ids in this order) and their defaults; the first table is core.rollout's (filled,
# with the second, when a run seats search); rollouts dispatch through the second, which holds search itself
# (SELF: the scripted seat of a rollout).
POLICIES, _POLICY_TABLE, _POLICY_PARAMS = rollout.rollout_policies(REGISTRY, BUILT_INS)
_ROLLOUT_TABLE = runtime_table(REGISTRY, (*POLICIES, "search"))
SELF = len(POLICIES)
STATE_BYTES = STATE_DTYPE.itemsize
PLAY_BYTES = STATE_DTYPE.fields["boards_per_type"][1]  # what play changes lies before setup's data (state.py)
MAX_CANDIDATES = 1 + MAX_DISPLAY + MAX_STORAGE * ESTATE_FIELDS
POOL = max(MAX_REGION_CARDS, MAX_PLAYER_TILES, 256)
# The seat's scratch columns: on a rollout's copy, MODE 1, the policy's id and the candidate's action; in the
# real game and the copy, the tile or placement chosen with the action (CHOSEN: its action + 1, 0 none) and, in
# the real game, SECOND: the marble was spent (the next action is the turn's second, T32).
MODE, POLICY_ID, SCRIPT_ACTION, CHOSEN, CHOSEN_VALUE, SECOND = range(56, 62)

# ---------------------------------------------------------------- the policy's answers

@njit(cache=True)
def swap_params_nb(state, seat, row):
    """The seat's parameters and ``row`` swapped (twice: as they were)."""
    for k in range(row.shape[0]):
        kept = state.seat_params[seat, k]
        state.seat_params[seat, k] = row[k]
        row[k] = kept


@njit
def policy_of_nb(state, seat, params):
    """The policy's id in the rollout table (a rollout's scripted seat: from its scratch, its parameters lent)."""
    if state.scratch[seat, MODE] != 0:
        return np.int64(state.scratch[seat, POLICY_ID])
    return np.int64(params[rollout.POLICY])


def _policys(state, seat, params):
    """The policy's answer to this decision (ASK: core.dispatch.decision's, bound in each copy; not state.py's
    stepped one: a stepped game's seat answers here, and asking its policy is no stop of that game), the policy's
    default parameters lent to the seat for the call."""
    policy = policy_of_nb(state, seat, params)
    row = _POLICY_PARAMS[policy].copy()
    swap_params_nb(state, seat, row)
    answer = ASK(_ROLLOUT_TABLE(), policy, state, seat)  # noqa: F821
    swap_params_nb(state, seat, row)
    return answer


POLICYS = {kind: jitted_copy(_policys, {**globals(), "ASK": decision(kind)}, f"policys_{kind}")
           for kind in REGISTRY.decisions}
policys_action, policys_take, policys_place, policys_marble = (POLICYS[kind] for kind in (
    "action_nb", "take_nb", "place_nb", "marble_nb"))


@njit
def hand_over_nb(state, seat):
    """A rollout's scripted seat, its script answered: the policy plays it from here, with its parameters."""
    policy = np.int64(state.scratch[seat, POLICY_ID])
    state.seat_strategy[seat] = policy
    for k in range(_POLICY_PARAMS.shape[1]):
        state.seat_params[seat, k] = _POLICY_PARAMS[policy, k]


@njit
def chosen_nb(state, seat, action):
    """The option index of the take or placement chosen with ``action`` (-1: none; then the policy's)."""
    if state.scratch[seat, CHOSEN] != action + 1:
        return -1
    state.scratch[seat, CHOSEN] = 0.0
    if state.scratch[seat, MODE] != 0:
        hand_over_nb(state, seat)
    return option_of_nb(state, np.int64(state.scratch[seat, CHOSEN_VALUE]))


# ---------------------------------------------------------------- candidates

@njit
def candidates_nb(state, seat, kinds, subs):
    """The action's candidates (``kinds[i]`` the action, ``subs[i]`` its display place or ``index * FIELD_CODE +
    field`` placement, -1 none), in the engine's option orders; how many."""
    n = 0
    for o in range(state.counts[N_OPTIONS]):
        action = state.options[o]
        first = n
        if action == TAKE:  # T14: the places holding a tile, ascending (display.take_nb_)
            occupied, fits = state.counts[OCCUPIED], 0
            while occupied:
                place = lowest_bit(occupied)
                occupied &= occupied - 1
                fits |= state.colour_mask[seat, state.tile_kind[state.display[place]]]
                kinds[n], subs[n] = TAKE, place
                n += 1
            if fits & state.frontier[seat] == 0:  # T17 first: the policy decides the rest
                n = first
        elif action == PLACE:  # T18-T19: (storage index, field), as engine.place_item_nb lists them
            payable = payable_fields_nb(state, seat)
            for i in range(state.storage_len[seat]):
                fields = item_fields_nb(state, seat, state.storage[seat, i]) & payable
                while fields:
                    f = lowest_bit(fields)
                    fields &= fields - 1
                    kinds[n], subs[n] = PLACE, i * FIELD_CODE + f
                    n += 1
        if n == first:
            kinds[n], subs[n] = action, -1
            n += 1
    return n


@njit
def all_candidates_nb(state, seat):
    """(kinds, subs, how many): :func:`candidates_nb`'s, in arrays of their own."""
    kinds = np.empty(MAX_CANDIDATES, np.int64)
    subs = np.empty(MAX_CANDIDATES, np.int64)
    return kinds, subs, candidates_nb(state, seat, kinds, subs)


@njit
def keep_nb(state, seat, kind, sub):
    """Action ``kind``'s display place or placement ``sub`` kept in the seat's scratch for the take or place
    decision that follows (:func:`chosen_nb`; -1: none kept, the policy answers it)."""
    state.scratch[seat, CHOSEN] = kind + 1 if sub >= 0 else 0
    state.scratch[seat, CHOSEN_VALUE] = sub


@njit
def keep_chosen_nb(state, seat, kinds, subs, best):
    """The option index of candidate ``best``'s action, its tile or placement kept (:func:`keep_nb`)."""
    keep_nb(state, seat, kinds[best], subs[best])
    return option_of_nb(state, kinds[best])


@njit
def own_choice_nb(sim, seat, params, kinds, subs, n):
    """The candidate the policy would play (asked on the copy, its options written as the engine would)."""
    action = sim.options[policys_action(sim, seat, params)]
    m = 0
    for c in range(n):
        if kinds[c] == action and subs[c] >= 0:
            sim.options[m] = subs[c]
            m += 1
    if m == 0:
        for c in range(n):
            if kinds[c] == action:
                return c
        return 0
    sim.counts[N_OPTIONS] = m
    sub = sim.options[policys_take(sim, seat, params) if action == TAKE else policys_place(sim, seat, params)]
    for c in range(n):
        if kinds[c] == action and subs[c] == sub:
            return c
    return 0


# ---------------------------------------------------------------- a rollout

@njit(cache=True)
def deal_again_nb(items, top, end, pool, rng):
    """``items[top:end]`` sorted, then shuffled by ``rng`` (the order they lay in never read)."""
    n = end - top
    for i in range(n):
        pool[i] = items[top + i]
    pool[:n].sort()
    shuffle_nb(pool, n, rng)
    for i in range(n):
        items[top + i] = pool[i]


@njit(cache=True)
def determinise_nb(sim, seat, pool):
    """Deal again all ``seat`` cannot see, with ``sim``'s generator (seat_view.INFORMATION's hidden things)."""
    counts, players = sim.counts, sim.rules[R_PLAYERS]
    top, end = counts[DECK_TOP], counts[DECK_LEN]
    tally = np.zeros(N_COLOURS, np.int64)  # the cards the seat cannot account for: the deck's and its rivals'
    for i in range(top, end):
        tally[sim.deck[i]] += 1
    for r in range(players):
        if r != seat:
            for c in range(N_COLOURS):
                tally[c] += sim.hand[r, c]
                sim.hand[r, c] = 0
    n = 0
    for c in range(N_COLOURS):
        for _ in range(tally[c]):
            pool[n] = c
            n += 1
    shuffle_nb(pool, n, sim.rng)
    at = 0
    for r in range(players):  # each rival keeps its hand size (T12: seen)
        if r != seat:
            for _ in range(sim.hand_total[r]):
                sim.hand[r, pool[at]] += 1
                at += 1
    for i in range(top, end):
        sim.deck[i] = pool[at]
        at += 1
    deal_again_nb(sim.yield_deck, counts[YIELD_TOP], counts[YIELD_LEN], pool, sim.rng)
    deal_again_nb(sim.supply, counts[SUPPLY_TOP], counts[SUPPLY_LEN], pool, sim.rng)
    size, per_player = sim.rules[R_STACK_SIZE], sim.rules[R_PLAYER_TILES]
    places = np.empty(MAX_PLAYER_TILES, np.int64)
    for q in range(players):  # T10: each seat's tiles not yet seen, over their places in its stacks (and the box)
        m = 0
        for s in range(3):
            for i in range(sim.stack_top[q, s], size):
                places[m] = s * size + i
                m += 1
        for i in range(3 * size, per_player):
            places[m] = i
            m += 1
        for i in range(m):
            pool[i] = sim.tiles[q, places[i]]
        pool[:m].sort()
        shuffle_nb(pool, m, sim.rng)
        for i in range(m):
            sim.tiles[q, places[i]] = pool[i]


@njit
def set_up_nb(sim, state, seat, params, stream, pool):
    """The copy a rollout plays: the state, all the seat cannot see dealt again from ``stream``, the opponents'
    model at the other seats, this strategy scripted at ``seat`` (its script written by the caller)."""
    copy_record_nb(sim, state, PLAY_BYTES)
    sim.counts[STEPPING] = 0  # a stepped game's copy plays in the kernel's way
    sim.rng[0] = stream
    determinise_nb(sim, seat, pool)
    players = state.rules[R_PLAYERS]
    policy = np.int64(params[rollout.POLICY])
    seat_rollout_players_nb(sim, seat, players, policy, np.int64(params[rollout.OPPONENTS]), _POLICY_PARAMS)
    sim.seat_strategy[seat] = SELF
    for k in range(sim.seat_params.shape[1]):
        sim.seat_params[seat, k] = state.seat_params[seat, k]
    sim.scratch[seat, MODE] = 1.0
    sim.scratch[seat, POLICY_ID] = policy


@njit
def script_nb(sim, seat, kind, sub):
    """The scripted seat's next action: ``kind`` with its display place or placement ``sub`` (-1: none, the policy
    answers the take or place that follows)."""
    sim.scratch[seat, SCRIPT_ACTION] = kind
    keep_nb(sim, seat, kind, sub)


@njit(cache=True)
def play_out_nb(sim, table, seat, second):
    """The rest of the turn (its second action only, ``second``), then the game from the next seat (T35)."""
    turn_nb(sim, table, seat, 1 if second else 0)
    play_rounds_nb(sim, table, None, seat + 1)


@njit(cache=True)
def outcome_of_nb(sim, seat, margin_weight, keys):
    """The seat's win credit by T36's order (a share of a tie), plus ``margin_weight`` times its red margin."""
    players = sim.rules[R_PLAYERS]
    best = -(1 << 62)
    for p in range(players):
        keys[p] = rank_key_nb(sim, p)
        if p != seat and sim.red[p] > best:
            best = sim.red[p]
    return outcome_nb(keys, players, seat, 0.0) + margin_weight * (sim.red[seat] - best)


@njit
def begin_search_nb(sim, state, seat, params, kinds, subs, n):
    """A decision's search begun on the copy ``sim``: the rule and setup data copied once (each rollout copies
    what play changes), the copy set up from the decision's stream (core.rollout); (a pool and a key buffer
    the rollouts reuse, the decision's stream, the candidate the policy would play)."""
    copy_record_nb(sim, state, STATE_BYTES)
    pool = np.empty(POOL, np.int64)
    base = decision_stream_nb(state.rng, seat)
    set_up_nb(sim, state, seat, params, base, pool)
    return pool, np.empty(MAX_PLAYERS, np.int64), base, own_choice_nb(sim, seat, params, kinds, subs, n)


@njit
def rollout_values_nb(buffer, state, seat, params, kinds, subs, n, second, values):
    """Each candidate's outcome in each rollout (``values[c, i]``; common random numbers: rollout ``i`` deals the
    same for every candidate); returns the candidate the policy would play. ``buffer``: one state record of
    scratch (the rollouts' copy). strong's training labels its choices with it (strong.label_decision_nb)."""
    sim = buffer[0]
    rollouts = np.int64(params[rollout.ROLLOUTS])
    pool, keys, base, own = begin_search_nb(sim, state, seat, params, kinds, subs, n)
    table = _ROLLOUT_TABLE()
    for i in range(rollouts):
        stream = rollout_stream_nb(base, i)  # common random numbers: the same deal for every candidate
        for c in range(n):
            set_up_nb(sim, state, seat, params, stream, pool)
            script_nb(sim, seat, kinds[c], subs[c])
            play_out_nb(sim, table, seat, second)
            values[c, i] = outcome_of_nb(sim, seat, params[rollout.MARGIN_WEIGHT], keys)
    return own


@njit
def search_nb(buffer, state, seat, params, kinds, subs, n, second):
    """The index of the candidate to play (core.rollout.choose_nb)."""
    rollouts = np.int64(params[rollout.ROLLOUTS])
    values = np.empty((n, rollouts))
    own = rollout_values_nb(buffer, state, seat, params, kinds, subs, n, second, values)
    return choose_nb(values, n, rollouts, own, params[CONFIDENCE])


# ---------------------------------------------------------------- the decisions

def _action(state, seat, params):
    """T13: the candidate chosen by ``CHOOSE`` (bound in each copy: this search's, or a tree search's); a
    rollout's scripted seat: the candidate's action."""
    scratch = state.scratch[seat]
    if scratch[MODE] != 0:
        found = option_of_nb(state, np.int64(scratch[SCRIPT_ACTION]))
        if scratch[CHOSEN] == 0:
            hand_over_nb(state, seat)
        return found
    second = scratch[SECOND] != 0
    scratch[SECOND] = 0.0
    scratch[CHOSEN] = 0.0
    kinds, subs, n = all_candidates_nb(state, seat)
    best = 0
    if n > 1:
        best = CHOOSE(np.empty(1, STATE_DTYPE), state, seat, params, kinds, subs, n, second)  # noqa: F821
    return keep_chosen_nb(state, seat, kinds, subs, best)


def searched_action(choose, name: str):
    """An action decision choosing among the candidates by ``choose(buffer, state, seat, params, kinds, subs, n,
    second)`` (the candidate's index; ``buffer``: one state record to play copies on)."""
    return jitted_copy(_action, {**globals(), "CHOOSE": choose}, name)


action_nb = searched_action(search_nb, "action_nb")


@njit
def take_nb(state, seat, params):
    """T14: the display tile chosen with the action."""
    found = chosen_nb(state, seat, TAKE)
    return found if found >= 0 else policys_take(state, seat, params)


@njit
def place_nb(state, seat, params):
    """T18-T19: the placement chosen with the action."""
    found = chosen_nb(state, seat, PLACE)
    return found if found >= 0 else policys_place(state, seat, params)


@njit
def marble_nb(state, seat, params):
    """T32: the policy's; spent, the next action is the turn's second (searched as such)."""
    answer = policys_marble(state, seat, params)
    if answer and state.scratch[seat, MODE] == 0:
        state.scratch[seat, SECOND] = 1.0
    return answer


def _params() -> dict:
    horizon = Param(0, 0, 0, integer=True, help="0 only: rollouts play to the game's end (T35)")
    tried = "candidate (an action with its display tile or placement)"
    params = rollout.rollout_params(POLICIES, ROLLOUT_POLICY, tried, confidence=1, horizon=horizon,
                                    margin="red-track margin")
    del params["tuned"]  # no tuned parameters are shipped for this game's heuristics yet
    return params


SEARCH = Strategy(
    name="search",
    decisions={**POLICYS, "action_nb": action_nb, "take_nb": take_nb, "place_nb": place_nb, "marble_nb": marble_nb},
    params=_params(),
    summary="Simulation search: plays each action with its tile or placement out with a built-in policy.",
    untunable=rollout.untunable("search"),
)
