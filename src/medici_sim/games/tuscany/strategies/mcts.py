"""``mcts`` for The Castles of Tuscany: information-set tree search over the seat's own actions (T13).

**The tree** is core.tree's (open loop: a node is the sequence of the seat's own actions so far, whatever the
cards and the others did in between; UCB1 with availability counts and progressive widening, the policy's own
candidate first). Its candidates are ``search``'s: draw, take with each display tile (T14), place each stored item
on each payable field (T18, T19), coded as one number each (:func:`code_nb`).

**An iteration** plays a copy of the state on which everything the seat cannot see is dealt again from the
iteration's stream (search's ``set_up_nb``: the rivals' hands, the decks' and the supply's orders, the stacks;
tests/conformance/test_what_a_seat_sees.py), so every choice reads only what the seat sees. The engine cannot be
entered mid-turn, so the search drives whole turns: the seat's turn is played by the engine's own compiled turn
(``engine.turn_nb``) with the seat *scripted* as search's rollouts script it (its action and tile or placement
answered, the rest of the turn by the policy), then the others' turns and the round's end to the seat's next turn
(``game.play_to_turn_nb``), where the tree picks its next action among the candidates of that moment. Below the
tree's newest node the game is played out to its end (T35) by the policy at the seat and the opponents' model at
the others; the outcome (core.rollout: win credit by T36's order plus ``margin_weight`` times the red margin) is
backed up the path.

**The first choice**, as in the Medici games' tree search (``paired``): 1, every iteration plays every candidate on
the iteration's deals (common random numbers) with the tree below each, and the choice is flat search's
(core.rollout.choose_nb: the policy's own unless another beats it by ``confidence`` SEs of the paired
differences); 0, the root is a node like the others, chosen by core.tree.root_choice_nb. Iteration ``i`` plays
rollout stream ``i`` (core.rollout: a hash of the game's generator and the seat, never a draw from it), so a game
is fixed by (seed, game index) for any threads or batches (T38). The take, place, marble and every other decision
are search's (the tile or placement chosen with the action; the policy's answers).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ....core.registry import Strategy
from ....core.rollout import choose_nb, rollout_stream_nb
from ....core.tree import (
    CONFIDENCE,
    EXPLORATION,
    ITERATIONS,
    MARGIN_WEIGHT,
    PAIRED,
    WIDENING,
    back_up_nb,
    child_or_new_nb,
    new_tree_nb,
    root_choice_nb,
    select_nb,
    tree_params,
    tree_untunable,
)
from ..engine import action_options_nb, turn_nb
from ..game import play_rounds_nb, play_to_turn_nb
from . import search
from .search import (
    _ROLLOUT_TABLE,
    MAX_CANDIDATES,
    POLICIES,
    POLICYS,
    ROLLOUT_POLICY,
    SELF,
    begin_search_nb,
    candidates_nb,
    outcome_of_nb,
    own_choice_nb,
    script_nb,
    searched_action,
    set_up_nb,
)

ACTION = 0  # the tree's one kind of decision: a turn's action (core.tree's ``decision``)


@njit
def code_nb(kind, sub):
    """A candidate as one number: its action and its display place or placement (-1: none)."""
    return (sub + 1) * 4 + kind


@njit
def own_first_nb(kinds, subs, n, own, out):
    """The candidates' codes, the policy's own (``own``) first, the others in their order."""
    out[0] = code_nb(kinds[own], subs[own])
    m = 1
    for c in range(n):
        if c != own:
            out[m] = code_nb(kinds[c], subs[c])
            m += 1


@njit
def play_scripted_nb(sim, table, seat, code, first):
    """The seat's turn (its second action only, ``first`` 1) with the candidate ``code`` scripted."""
    sim.seat_strategy[seat] = SELF
    script_nb(sim, seat, code & 3, (code >> 2) - 1)
    turn_nb(sim, table, seat, first)


@njit
def tree_search_nb(buffer, state, seat, params, kinds, subs, n_root, second):
    """The index of the candidate to play (the module docstring's search); ``second``: the turn's second action
    (T32)."""
    sim = buffer[0]
    iterations = max(np.int64(params[ITERATIONS]), 1)
    paired = params[PAIRED] != 0
    exploration, widening = params[EXPLORATION], params[WIDENING]
    pool, keys, base, own = begin_search_nb(sim, state, seat, params, kinds, subs, n_root)
    table = _ROLLOUT_TABLE()
    root = np.empty(MAX_CANDIDATES, np.int64)
    own_first_nb(kinds, subs, n_root, own, root)
    rounds = n_root if paired else 1  # plays an iteration makes: one per candidate when paired
    size = iterations * rounds + 1
    tree, visits, avail, total, total_sq = new_tree_nb(size)
    values = np.empty((rounds, iterations))  # paired: values[candidate, iteration]
    path = np.empty(size + 1, np.int64)
    step_kinds = np.empty(MAX_CANDIDATES, np.int64)
    step_subs = np.empty(MAX_CANDIDATES, np.int64)
    codes = np.empty(MAX_CANDIDATES, np.int64)
    for i in range(iterations):
        stream = rollout_stream_nb(base, i)  # common random numbers: the same deals for every candidate
        for r in range(rounds):
            set_up_nb(sim, state, seat, params, stream, pool)
            if paired:
                node = child_or_new_nb(tree, visits, avail, total, 0, ACTION, code_nb(kinds[r], subs[r]))
            else:
                node = select_nb(tree, visits, avail, total, 0, ACTION, root, n_root, exploration, widening)
            path[0], path[1], depth = 0, node, 1
            play_scripted_nb(sim, table, seat, tree[3, node], 1 if second else 0)
            over = False
            while visits[node] > 0:  # a node played before: the tree goes on at the seat's next turn
                if play_to_turn_nb(sim, table, seat):
                    over = True
                    break
                action_options_nb(sim, seat)
                n = candidates_nb(sim, seat, step_kinds, step_subs)
                own_first_nb(step_kinds, step_subs, n, own_choice_nb(sim, seat, params, step_kinds, step_subs, n)
                             if n > 1 else 0, codes)
                code = codes[0]  # a forced action: no node
                if n > 1:
                    node = select_nb(tree, visits, avail, total, node, ACTION, codes, n, exploration, widening)
                    depth += 1
                    path[depth] = node
                    code = tree[3, node]
                play_scripted_nb(sim, table, seat, code, 0)
            if not over:
                play_rounds_nb(sim, table, None, seat + 1)
            value = outcome_of_nb(sim, seat, params[MARGIN_WEIGHT], keys)
            values[r, i] = value
            back_up_nb(path, depth, value, visits, total, total_sq)
    if paired:
        return choose_nb(values, n_root, iterations, own, params[CONFIDENCE])
    chosen = root_choice_nb(tree, visits, total, total_sq, root, n_root, ACTION, params[CONFIDENCE])
    for c in range(n_root):
        if code_nb(kinds[c], subs[c]) == chosen:
            return c
    return own


STRATEGY = Strategy(
    name="mcts",
    decisions={**POLICYS, "action_nb": searched_action(tree_search_nb, "tree_action_nb"), "take_nb": search.take_nb,
               "place_nb": search.place_nb, "marble_nb": search.marble_nb},
    # an action has about 10 candidates (median 9 in expert's games): with widening 1 a node tried a second one at
    # its second visit, and those tries below the first choice lost to search at the same budget (docs/strategies.md)
    params=tree_params(POLICIES, ROLLOUT_POLICY, confidence=1, paired=1, margin="red-track margin", widening=0.25),
    summary="Tree search (information-set MCTS) over its own actions, the rest played by a built-in policy.",
    untunable=tree_untunable("mcts"),
)
