"""The Medici games' tree search player (``mcts``), written once for both: information-set MCTS over the seat's
own decisions, on the tree of core.tree (its arrays, UCB1 with progressive widening, its parameters).

Flat search (core.rollout, each game's ``search``) plays every choice of the decision out the
same number of times and leaves everything after it to a fixed policy. This one builds a tree
of the seat's own choices (open loop: a node is the sequence of its own choices so far, whatever
the cards and the others did in between; Cowling, Powley and Whitehouse 2012). Each iteration:

- samples what the seat cannot see, as flat search's rollouts do (the game's ``deal_nb``: the
  copy's generator set to the iteration's stream, the unseen cards dealt again where the game
  hides more than the deck's order), so every decision reads only what the seat can see;
- descends the tree: at each of its own decisions it picks a candidate by UCB1 with
  availability counts (a choice legal in one sample may not be in another: a child's count of
  chances is the number of visits of its parent in which it was legal), the others and chance
  played by the rollout policies, the play loop stepped (core.resumable, ``record`` True, the
  seat EXTERNAL) to the seat's next decision;
- expands one new node (progressive widening: a node with ``n`` visits tries its first
  ``1 + widening * sqrt(n)`` candidates, the policy's own choice first, so a bid with many
  amounts grows its candidates as evidence comes in, C9-C11);
- rolls the rest of the game out with the policy (not recording: the kernel's own loop);
- backs the outcome (core.rollout.outcome_nb: win credit plus ``margin_weight`` x margin) up
  the path.

The first choice is made in one of two ways (``paired``). 1 (the default): every iteration
plays every first choice, each on the iteration's deals (common random numbers, as flat
search), the tree below each one, and the choice is flat search's (core.rollout.choose_nb:
the policy's own unless another beats it by ``confidence`` SEs of the paired differences).
0: the first choice is a node like the others, and the root's most visited child is taken
if it is the policy's own or beats it by ``confidence`` SEs (core.tree.root_choice_nb).
Measured (docs/strategies.md), the tree is no stronger than flat search at the same budget
and the unpaired root is far weaker: comparing first choices on the same deals is what
flat search gets right.

Iteration ``i`` starts from rollout stream ``i`` of flat search's (core.rollout), never a
draw from the game's generator, so a game with an ``mcts`` seat is fixed by (seed, game
index) for any threads or batches. Node arrays are allocated once a decision, one node per
play an iteration makes (one, or one per first choice when paired), plus the root.

:func:`tree_search_for` compiles the search for a game, bound to the game's functions (see its
docstring). It is not cached on its own: the strategy's decision wrapper that holds it is
(core.dispatch), and its rollouts dispatch through the table the process fills
(dispatch.runtime_table), never through addresses compiled in.
"""
from __future__ import annotations

import numpy as np

from ...core.resumable import DECISION, EXTERNAL, STEP_ARG, STEP_EVENT, STEP_PHASE, STEP_SEAT, resume_nb
from ...core.rollout import choose_nb, decision_stream_nb, rollout_stream_nb
from ...core.templates import jitted_copy
from ...core.tree import (
    CONFIDENCE,
    EXPLORATION,
    ITERATIONS,
    MARGIN_WEIGHT,
    PAIRED,
    POLICY,
    WIDENING,
    back_up_nb,
    child_or_new_nb,
    new_tree_nb,
    root_choice_nb,
    select_nb,
)

GAME_OVER = -1  # what _to_own_decision answers when the game ended before the seat's next decision

# ---------------------------------------------------------------- the search, compiled for each game

def _to_own_decision(sim, table, seat, policy, loop_seat, phase, arg, last_day):
    """Play on from (``loop_seat``, ``phase``, ``arg``) to ``seat``'s next decision, the loop
    stepped with the seat EXTERNAL (core.resumable); return that decision (the game's k), or
    GAME_OVER. The seat's strategy is the policy again afterwards."""
    sim.seat_strategy[seat] = EXTERNAL
    step = sim.step
    step[:] = 0
    paused = rollout_game_nb(sim, table, loop_seat, phase, arg, last_day, True)  # noqa: F821
    while paused and step[STEP_EVENT] < DECISION:
        resume_nb(sim)
        paused = rollout_game_nb(sim, table, step[STEP_SEAT], step[STEP_PHASE], step[STEP_ARG], last_day,  # noqa: F821
                                 True)
    sim.seat_strategy[seat] = policy
    return step[STEP_EVENT] - DECISION if paused else GAME_OVER


def _tree_search(buffer, state, seat, params, decision):
    """``seat``'s choice at ``decision`` (the game's k) of ``state``: the module docstring's search."""
    sim = buffer[0]
    table = ROLLOUT_TABLE()  # noqa: F821
    iterations = max(np.int64(params[ITERATIONS]), 1)
    policy = np.int64(params[POLICY])
    exploration = params[EXPLORATION]
    widening = params[WIDENING]
    last_day = last_day_nb(state)  # noqa: F821
    start_search_nb(sim, state)  # noqa: F821
    base = decision_stream_nb(state.rng, seat)
    root = np.empty(MAX_CANDIDATES, np.int64)  # noqa: F821
    deal_nb(sim, state, seat, params, base)  # noqa: F821  (the policy's own choice, as an iteration would ask it)
    n_root = candidates_nb(sim, seat, decision, params, table, root)  # noqa: F821
    if n_root == 1:
        return root[0]
    paired = params[PAIRED] != 0
    rounds = n_root if paired else 1  # plays an iteration does: one per first choice when paired
    size = iterations * rounds + 1
    tree, visits, avail, total, total_sq = new_tree_nb(size)
    values = np.empty((rounds, iterations))  # paired: values[first choice, iteration]
    path = np.empty(size + 1, np.int64)
    candidates = np.empty(MAX_CANDIDATES, np.int64)  # noqa: F821
    for i in range(iterations):
        for r in range(rounds):
            deal_nb(sim, state, seat, params, rollout_stream_nb(base, i))  # noqa: F821
            node, depth, now = 0, 0, decision
            path[0] = 0
            candidates[:n_root] = root[:n_root]
            n = n_root
            over = False
            while True:
                if n == 1:  # a forced choice: no node
                    choice = candidates[0]
                else:
                    if paired and depth == 0:
                        child = child_or_new_nb(tree, visits, avail, total, 0, now, root[r])
                    else:
                        child = select_nb(tree, visits, avail, total, node, now, candidates, n, exploration,
                                          widening)
                    choice = tree[3, child]
                    depth += 1
                    path[depth] = child
                    node = child
                loop_seat, phase, arg = apply_nb(sim, seat, now, choice)  # noqa: F821
                if n > 1 and visits[node] == 0:  # just added: the rest is the rollout's
                    break
                now = _to_own_decision(sim, table, seat, policy, loop_seat, phase, arg, last_day)
                if now == GAME_OVER:
                    over = True
                    break
                n = candidates_nb(sim, seat, now, params, table, candidates)  # noqa: F821
            if not over:
                rollout_game_nb(sim, table, loop_seat, phase, arg, last_day, NOT_RECORDING)  # noqa: F821
            value = outcome_of_nb(sim, seat, params[MARGIN_WEIGHT])  # noqa: F821
            values[r, i] = value
            back_up_nb(path, depth, value, visits, total, total_sq)
    if paired:  # root[0] is the policy's own
        return root[choose_nb(values, n_root, iterations, 0, params[CONFIDENCE])]
    return root_choice_nb(tree, visits, total, total_sq, root, n_root, decision, params[CONFIDENCE])


def tree_search_for(names: dict):
    """A game's ``tree_search_nb(buffer, state, seat, params, decision)`` (``buffer``: a
    one-element array of its state, played on), bound to ``names``: ``ROLLOUT_TABLE`` (its
    the rollouts' strategy table, a jitted getter: ``ROLLOUT_TABLE()``), ``MAX_CANDIDATES``,
    ``rollout_game_nb`` (the engine's play loop), ``NOT_RECORDING`` (what its ``record`` is given in a
    rollout: None, or False for a loop compiled once for both values, as the Medici games'), ``last_day_nb(state)``,
    and the game's hooks:

    - ``start_search_nb(sim, state)``: ``sim`` made a copy of ``state`` once a decision;
    - ``deal_nb(sim, state, seat, params, stream)``: ``sim`` set to play on from ``state`` with
      the generator at ``stream``, what the seat cannot see sampled again, the policy at
      ``seat`` and the opponents' model elsewhere;
    - ``candidates_nb(sim, seat, decision, params, table, out)``: the choices to try at the
      decision, the policy's own first, written into ``out``; their count;
    - ``apply_nb(sim, seat, decision, choice)``: the choice played; (seat, phase, arg) the play
      loop resumes from;
    - ``outcome_of_nb(sim, seat, margin_weight)``: the finished game's outcome for the seat.
    """
    namespace = {**globals(), "NOT_RECORDING": None, **names}
    for name, template in (("_to_own_decision", _to_own_decision), ("tree_search_nb", _tree_search)):
        namespace[name] = jitted_copy(template, namespace, name)
    return namespace["tree_search_nb"]
