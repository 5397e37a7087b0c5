"""The tree of a tree search player, on preallocated arrays, and its parameters: written once for every
game's tree search (the Medici games' games/medici/tree_search.py, The Castles of Tuscany's
games/tuscany/strategies/mcts.py).

A tree is open loop (Cowling, Powley and Whitehouse 2012): a node is the sequence of the seat's own choices so
far, whatever chance and the others did in between. Its arrays: ``tree[0]`` a node's first child, ``tree[1]`` its
next sibling, ``tree[2]`` the decision and ``tree[3]`` the action that lead to it (``tree[4, 0]``: nodes used;
node 0 the root), and per node ``visits``, ``avail`` (the chances it had: a choice legal in one sample may not be
in another, so UCB1 counts a child's chances, not its parent's visits), ``total`` and ``total_sq`` of the
outcomes backed up through it. :func:`select_nb` widens a node progressively: with ``n`` visits it tries its
first ``1 + widening * sqrt(n)`` candidates, the policy's own first, so a decision with many candidates grows
its tries as evidence comes in. :func:`root_choice_nb` leaves the policy's own choice at the root only on
evidence, as flat search does (core.rollout.choose_nb).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .registry import Param

# a tree search player's parameters, in this order in every game (a game's own follow them)
ITERATIONS, POLICY, OPPONENTS, MARGIN_WEIGHT, EXPLORATION, WIDENING, CONFIDENCE, PAIRED = range(8)

def tree_untunable(name: str) -> str:
    """Why tune refuses the tree search player ``name`` (its ``Strategy.untunable``), with a compare sized to
    minutes instead."""
    return ("each of its decisions plays `iterations` games out, so one of its games costs as much as "
            "thousands of a heuristic's, and tuning plays millions of games; compare a few settings "
            f"instead on a few games, e.g. medici-sim compare -s {name}:iterations=32,{name}:iterations=128 -p 4 "
            "--games 300 (minutes; the default 100,000 games at every player count would take far longer)")


def tree_params(policies: tuple[str, ...], default_policy: str, confidence: float, paired: int, *,
                margin: str, widening: float = 1.0) -> dict:
    """A tree search player's parameters, in the order above (``margin``: the game's score margin in its words;
    ``widening``: the game's default, lower where a decision has many candidates)."""
    ids = ", ".join(f"{i} {name}" for i, name in enumerate(policies))
    default = policies.index(default_policy)
    return {
        "iterations": Param(32, 1, 100_000, integer=True,
                            help="games played out at every decision, each down one path of the tree"),
        "policy": Param(default, 0, len(policies) - 1, integer=True, choices=policies,
                        help=f"the built-in that plays its own decisions below the tree ({ids})"),
        "opponents": Param(default, 0, len(policies) - 1, integer=True, choices=policies,
                           help="the built-in that models every other seat (same names or ids)"),
        "margin_weight": Param(0.03, 0, 1, help=f"outcome = win credit + this x {margin} over the best other seat"),
        "exploration": Param(0.5, 0, 10, help="UCB1's exploration constant"),
        "widening": Param(widening, 0, 100,
                          help="a node with n visits tries its first 1 + this x sqrt(n) candidates (progressive "
                               "widening; the policy's own choice first)"),
        "confidence": Param(confidence, 0, 10, help="leave the policy's own choice only for the most visited one "
                                                    "if its mean is better by this many SEs"),
        "paired": Param(paired, 0, 1, integer=True,
                        help="1: every iteration plays every first choice on the same deals, chosen as flat "
                             "search chooses; 0: the first choice by UCB1 too"),
    }


# ---------------------------------------------------------------- the tree, on preallocated arrays

@njit(cache=True)
def new_tree_nb(size):
    """A tree of at most ``size`` nodes, holding its root: (tree, visits, avail, total, total_sq)."""
    tree = np.empty((5, size), np.int64)  # first child, next sibling, decision, action; tree[4, 0]: nodes used
    tree[0, 0] = -1
    tree[4, 0] = 1
    return tree, np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size), np.zeros(size)


@njit(cache=True)
def child_of_nb(first_child, next_sibling, node_decision, node_action, node, decision, action):
    """The child of ``node`` for ``action`` at ``decision``, or -1."""
    child = first_child[node]
    while child >= 0:
        if node_decision[child] == decision and node_action[child] == action:
            return child
        child = next_sibling[child]
    return -1


@njit(cache=True)
def select_nb(tree, visits, avail, total, node, decision, candidates, n_candidates, exploration, widening):
    """The child of ``node`` to descend to, from the candidates it may try now (progressive
    widening): the first not yet in the tree (added here), else the best by UCB1 over
    availability counts. Every tried candidate already in the tree counts one more chance."""
    first_child, next_sibling, node_decision, node_action = tree[0], tree[1], tree[2], tree[3]
    allowed = min(n_candidates, 1 + np.int64(widening * np.sqrt(visits[node])))
    best, best_score, missing = -1, -np.inf, -1
    for c in range(allowed):
        child = child_of_nb(first_child, next_sibling, node_decision, node_action, node, decision, candidates[c])
        if child < 0:
            if missing < 0:
                missing = c
            continue
        avail[child] += 1
        score = total[child] / visits[child] + exploration * np.sqrt(np.log(avail[child]) / visits[child])
        if score > best_score:
            best, best_score = child, score
    if missing < 0:
        return best
    return add_child_nb(tree, visits, avail, total, node, decision, candidates[missing])


@njit(cache=True)
def add_child_nb(tree, visits, avail, total, node, decision, action):
    """A new child of ``node``: ``action`` at ``decision``, not yet visited, one chance."""
    child = tree[4, 0]
    tree[4, 0] += 1
    tree[2, child] = decision
    tree[3, child] = action
    tree[0, child] = -1
    tree[1, child] = tree[0, node]
    tree[0, node] = child
    visits[child] = 0
    avail[child] = 1
    total[child] = 0.0
    return child


@njit(cache=True)
def child_or_new_nb(tree, visits, avail, total, node, decision, action):
    """The child of ``node`` for ``action`` at ``decision``, added if the tree has none (a paired first choice)."""
    child = child_of_nb(tree[0], tree[1], tree[2], tree[3], node, decision, action)
    return child if child >= 0 else add_child_nb(tree, visits, avail, total, node, decision, action)


@njit(cache=True)
def back_up_nb(path, depth, value, visits, total, total_sq):
    """An iteration's outcome added to every node of its path (``path[:depth + 1]``, the root first)."""
    for d in range(depth + 1):
        visits[path[d]] += 1
        total[path[d]] += value
        total_sq[path[d]] += value * value


@njit(cache=True)
def root_choice_nb(tree, visits, total, total_sq, candidates, n_candidates, decision, confidence):
    """The root's choice: its most visited candidate (the earlier on a tie), if it is the
    policy's own (``candidates[0]``) or its mean outcome beats the policy's own by more than
    ``confidence`` standard errors of their difference (as flat search, core.rollout.choose_nb:
    a small budget's best is mostly noise); else the policy's own."""
    best, most = -1, -1
    for c in range(n_candidates):
        child = child_of_nb(tree[0], tree[1], tree[2], tree[3], 0, decision, candidates[c])
        if child >= 0 and visits[child] > most:
            best, most = c, visits[child]
    own = child_of_nb(tree[0], tree[1], tree[2], tree[3], 0, decision, candidates[0])
    if best <= 0 or own < 0:
        return candidates[0]
    child = child_of_nb(tree[0], tree[1], tree[2], tree[3], 0, decision, candidates[best])
    spread = 0.0
    for k in (child, own):
        n = visits[k]
        if n < 2:
            return candidates[best] if confidence <= 0.0 else candidates[0]
        mean = total[k] / n
        spread += max(total_sq[k] / n - mean * mean, 0.0) / (n - 1)
    gain = total[child] / visits[child] - total[own] / visits[own]
    return candidates[best] if gain > confidence * np.sqrt(spread) else candidates[0]
