"""``search``: decides by simulation, playing each candidate out with a built-in policy.

At each decision (C8: draw another card into the lot or stop; C9: pass or bid) it lists
the candidates and plays each one out ``rollouts`` times on a copy of the state, to the end
of the game (or of the day, ``horizon`` 1), with the built-in ``policy`` deciding for itself
afterwards and the built-in ``opponents`` for every other seat (each with its default
parameters), then takes the candidate with the best mean outcome (core.rollout: win credit,
C18, plus ``margin_weight`` times the florin margin) if it beats the policy's own choice by
more than ``confidence`` standard errors, else the policy's (core.rollout.choose_nb).

Bids are a few candidate amounts, not every whole number: pass; what the policy itself
would bid here (a strong, informed amount; listed first, so it is kept on a tie); the
lowest legal bid; and ``bid_levels`` - 1 more amounts between the lowest bid and all its
money, spaced on a square law (most of them low: a lot is rarely worth most of one's money).

What it cannot see (C5) is the deck's order and which of the unseen cards were removed
face down: the unseen cards are public (everything else is face up), so a rollout deals
them out again, a random ``RULE_REMOVED`` of them removed and the rest the deck, with a
generator of its own (core.rollout: never the real one), from the unseen cards sorted (so
their hidden order never reaches a decision, tests/conformance/test_what_a_seat_sees.py), and
the engine's lazy dealing (docs/protocol-classic.md) does the shuffling. It reads ``deck`` and
``removed`` only to pool them. The real game is only ever read: rollouts play a copy (``engine.copy_play_nb``),
so the game with a search seat is the game its decisions make (tests/test_search.py replays
them in the reference engine).

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
from ....core.registry import Param, Strategy
from ....core.rng import below_nb
from ....core.rollout import (
    MARGIN_WEIGHT,
    N_ROLLOUT_PARAMS,
    OPPONENTS,
    POLICY,
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
from ..engine import BID_DECISION, DRAW_DECISION, copy_play_nb, last_day_nb, play_choice_nb, rollout_game_nb
from ..rules import MAX_PLAYERS, N_CARDS, RULE_DAYS, RULE_PLAYERS, RULE_REMOVED, VARIANTS
from ..state import AUCTIONEER, DAY, DECK_LEN, STATE_DTYPE, lowest_bid_nb
from ..state import bid_nb as ask_bid_nb
from ..state import draw_nb as ask_draw_nb
from .base import REGISTRY
from .heuristics import HEURISTICS

BID_LEVELS, CONFIDENCE, TUNED = range(N_ROLLOUT_PARAMS, N_ROLLOUT_PARAMS + 3)  # after the common ones (core.rollout)
MAX_LEVELS = 12
MAX_ACTIONS = MAX_LEVELS + 2  # pass, the policy's bid, and the levels

# The strategies rollouts play (the built-ins, ids in this order), their table, defaults,
# and their shipped tuned parameters (``tune --out``) by rules and player count: ``tuned`` 1 plays them.
POLICIES, _ROLLOUT_TABLE, _POLICY_PARAMS = rollout_policies(REGISTRY, tuple(s.name for s in HEURISTICS))
_ROLLOUT_LOOP = runtime_loop(REGISTRY.game, rollout_game_nb)  # the engine's compiled loop, not linked in: core.dispatch
ROLLOUT_POLICY = "expert"  # what rollouts play unless told otherwise (the game's StudyPolicy.rollout_policy)
TUNED_FILE = Path(__file__).parents[1] / "data" / "tuned" / "tuned.json"
tuned_params_nb = tuned_policy_params_nb(TUNED_FILE, REGISTRY, POLICIES, _POLICY_PARAMS, VARIANTS, MAX_PLAYERS)
STATE_BYTES = STATE_DTYPE.itemsize
DRAWING = -1  # search_nb's ``actions`` hold C8 answers (0 stop, 1 draw), not bids


# Inlined (thin layers over search_on_nb): compiled apart, each linked search_on_nb's code and LLVM optimised and
# assembled it all again.
@njit(inline="always")
def draw_nb(state, seat, params):
    actions = np.zeros(MAX_ACTIONS, np.int64)
    actions[1] = 1  # 0: offer the lot as it is (first: kept on a tie), 1: draw another card
    return actions[search_nb(state, seat, params, actions, 2, DRAWING)] == 1


@njit(inline="always")
def bid_nb(state, seat, params):
    """C9: pass, the policy's own bid, the lowest bid and the levels above it (distinct)."""
    lowest = lowest_bid_nb(state)
    money = state.money[seat]
    actions = np.zeros(MAX_ACTIONS, np.int64)
    # actions[0]: the policy's own bid, asked in search_nb
    count = 1
    levels = min(max(np.int64(params[BID_LEVELS]), 1), MAX_LEVELS)
    for k in range(levels):
        amount = lowest + np.int64((money - lowest) * (k / levels) ** 2)
        known = False
        for a in range(1, count):
            known |= actions[a] == amount
        if not known:
            actions[count] = amount
            count += 1
    actions[count] = 0  # pass
    count += 1
    return actions[search_nb(state, seat, params, actions, count, 0)]


@njit(inline="always")
def search_nb(state, seat, params, actions, n_actions, kind):
    """The index of the candidate to take (core.rollout.choose_nb): C8 answers (``kind``
    DRAWING) or C9 bids, ``actions[0]`` then being the policy's own bid (asked here; if it
    passes or repeats another candidate, the last candidate takes its place)."""
    # numba frees an array after its last use, so the body takes the array, not just its record
    return search_on_nb(np.empty(1, STATE_DTYPE), state, seat, params, actions, n_actions, kind)


@njit
def search_on_nb(buffer, state, seat, params, actions, n_actions, kind):
    sim = buffer[0]  # the state rollouts play on
    policy = np.int64(params[POLICY])
    copy_record_nb(sim, state, STATE_BYTES)  # the rule data, once; each rollout then copies only
    #                                          what play changes (copy_play_nb)
    table = _ROLLOUT_TABLE()
    set_up_nb(sim, state, seat, policy, np.int64(params[OPPONENTS]), params[TUNED] != 0,
              decision_stream_nb(state.rng, seat))  # the policy's own choice, as a rollout would ask it
    if kind == DRAWING:
        own = 1 if ask_draw_nb(table, policy, sim, seat) else 0
    else:
        actions[0] = np.int64(ask_bid_nb(table, policy, sim, seat))
        own = 0
        for b in range(1, n_actions):
            if actions[b] == actions[0]:  # pass, or a bid listed already: tried once, in place of the last
                own = b if b < n_actions - 1 else 0
                actions[0] = actions[n_actions - 1]
                n_actions -= 1
                break
    rollouts = np.int64(params[ROLLOUTS])
    values = np.empty((MAX_ACTIONS, rollouts))
    rollout_values_nb(buffer, state, seat, params, actions, n_actions, kind, values)
    return choose_nb(values, n_actions, rollouts, own, params[CONFIDENCE])


@njit
def rollout_values_nb(buffer, state, seat, params, actions, n_actions, kind, values):
    """Fill ``values[action, rollout]`` with the outcomes of playing each of ``actions`` (C8
    answers for ``kind`` DRAWING, else C9 bids) out ``rollouts`` times (common random
    numbers; strong's training labels its candidates with these too)."""
    sim = buffer[0]
    rollouts, policy, opponents, last_day = rollout_plan_nb(params, state.counts[DAY], state.rules[RULE_DAYS])
    tuned = params[TUNED] != 0
    players = state.rules[RULE_PLAYERS]
    auctioneer = state.counts[AUCTIONEER]
    copy_record_nb(sim, state, STATE_BYTES)
    table = _ROLLOUT_TABLE()
    pool = np.empty(N_CARDS, np.int64)
    base = decision_stream_nb(state.rng, seat)
    for i in range(rollouts):
        stream = rollout_stream_nb(base, i)
        for a in range(n_actions):
            set_up_nb(sim, state, seat, policy, opponents, tuned, stream)
            deal_unseen_nb(sim, state, pool, True)  # from the unseen cards sorted: never their hidden order
            phase, arg = play_choice_nb(sim, seat, DRAW_DECISION if kind == DRAWING else BID_DECISION, actions[a])
            _ROLLOUT_LOOP(sim, table, auctioneer, phase, arg, last_day, False)  # recording nothing
            values[a, i] = outcome_nb(sim.money, players, seat, params[MARGIN_WEIGHT])


@njit
def deal_unseen_nb(sim, state, pool, canonical):
    """C5: deal the unseen cards again (``pool``: room for them), a random ``RULE_REMOVED`` of
    them face down, the rest the deck, with ``sim``'s generator. ``canonical``: from the unseen
    cards sorted, so that the deal reads which cards are unseen, never where they lie (mcts)."""
    removed = state.rules[RULE_REMOVED]
    deck_len = state.counts[DECK_LEN]
    for j in range(deck_len):
        pool[j] = state.deck[j]
    for j in range(removed):
        pool[deck_len + j] = state.removed[j]
    unseen = deck_len + removed
    if canonical:
        pool[:unseen].sort()
    for j in range(removed):
        pick = j + below_nb(sim.rng, unseen - j)
        pool[j], pool[pick] = pool[pick], pool[j]
        sim.removed[j] = pool[j]
    for j in range(deck_len):
        sim.deck[j] = pool[removed + j]


@njit
def set_up_nb(sim, state, seat, policy, opponents, tuned, stream):
    """``sim``: the state to play on, the policy at ``seat``, the opponent model elsewhere
    (default parameters, or the shipped tuned ones, empty scratch), generator at ``stream``."""
    copy_play_nb(sim, state)
    sim.rng[0] = stream
    players = state.rules[RULE_PLAYERS]
    variant = 0  # the classic game has one preset (standard): its tuning serves every rule set
    seat_rollout_players_nb(sim, seat, players, policy, opponents,
                            tuned_params_nb()[variant, players] if tuned else _POLICY_PARAMS)


# -------------------------------------------- mcts: the tree search's classic part (games/medici/tree_search.py)

TREE_BID_LEVELS = 4  # as flat search's default bid_levels (the same candidates), tried in order as nodes widen


@njit
def start_search_nb(sim, state):
    copy_record_nb(sim, state, STATE_BYTES)


@njit
def deal_nb(sim, state, seat, params, stream):
    """As a rollout starts (C5: the unseen cards dealt again, from their sorted list: the same
    deals whatever the hidden order), the day log's length the real game's (the tree steps the
    play loop, which logs turns)."""
    set_up_nb(sim, state, seat, np.int64(params[tree.POLICY]), np.int64(params[tree.OPPONENTS]),
              False, stream)
    deal_unseen_nb(sim, state, np.empty(N_CARDS, np.int64), True)
    copy1_nb(sim.day_log_len, state.day_log_len)


@njit
def candidates_nb(sim, seat, decision, params, table, out):
    """C8: draw or offer, the policy's own first; C9: the policy's own bid, pass, the lowest bid
    and TREE_BID_LEVELS - 1 more up to all its money on flat search's square law (distinct), in
    this order (progressive widening tries them in it)."""
    policy = np.int64(params[tree.POLICY])
    if decision == DRAW_DECISION:
        out[0] = 1 if ask_draw_nb(table, policy, sim, seat) else 0
        out[1] = 1 - out[0]
        return 2
    out[0] = np.int64(ask_bid_nb(table, policy, sim, seat))
    out[1] = 0
    count = 1 + (out[0] != 0)
    lowest = lowest_bid_nb(sim)
    money = sim.money[seat]
    for k in range(TREE_BID_LEVELS):
        amount = lowest + np.int64((money - lowest) * (k / TREE_BID_LEVELS) ** 2)
        known = False
        for a in range(count):
            known |= out[a] == amount
        if not known:
            out[count] = amount
            count += 1
    return count


@njit
def apply_nb(sim, seat, decision, choice):
    phase, arg = play_choice_nb(sim, seat, decision, choice)
    return sim.counts[AUCTIONEER], phase, arg


@njit
def outcome_of_nb(sim, seat, margin_weight):
    return outcome_nb(sim.money, sim.rules[RULE_PLAYERS], seat, margin_weight)


tree_search_nb = tree_search_for({
    "ROLLOUT_TABLE": _ROLLOUT_TABLE, "MAX_CANDIDATES": MAX_ACTIONS, "rollout_game_nb": _ROLLOUT_LOOP,
    "NOT_RECORDING": False,
    "last_day_nb": last_day_nb, "start_search_nb": start_search_nb, "deal_nb": deal_nb,
    "candidates_nb": candidates_nb, "apply_nb": apply_nb, "outcome_of_nb": outcome_of_nb})


@njit
def tree_draw_nb(state, seat, params):
    return tree_search_nb(np.empty(1, STATE_DTYPE), state, seat, params, DRAW_DECISION) == 1


@njit
def tree_bid_nb(state, seat, params):
    return tree_search_nb(np.empty(1, STATE_DTYPE), state, seat, params, BID_DECISION)


MCTS = Strategy(
    name="mcts",
    decisions={"draw_nb": tree_draw_nb, "bid_nb": tree_bid_nb},
    params=tree.tree_params(POLICIES, ROLLOUT_POLICY, confidence=0.5, paired=1, margin="florin margin"),
    summary="Tree search (information-set MCTS) over its own choices (bids: a few amounts, widened), the rest played "
            "by a built-in policy.",
    untunable=tree.tree_untunable("mcts"),
)

SEARCH = Strategy(
    name="search",
    decisions={"draw_nb": draw_nb, "bid_nb": bid_nb},
    params=search_params(POLICIES, ROLLOUT_POLICY, "candidate", confidence=0.5, extra={"bid_levels": Param(
        4, 1, MAX_LEVELS, integer=True, help="bids tried besides pass and the policy's own: the lowest, more up to "
                                             "all its money")}),
    summary="Simulation search: plays each candidate (bids: a few amounts) out with a built-in policy; best mean wins.",
    untunable=untunable("search"),
)
