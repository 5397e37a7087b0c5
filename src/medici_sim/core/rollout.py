"""What the games' rollout players share (each game's flat Monte Carlo player, its ``strategies/search.py``).

A rollout player decides by simulation: it plays each legal action out many times on a copy
of the state (to the end of the game, or to a horizon its game declares), with a fast built-in
policy at every seat, and takes the action with the best mean outcome. Here:

- the random stream of a decision's rollouts: a hash of the game's generator state and the
  seat, never a draw from it. So (seed, game index) fixes every rollout (threads, batches
  and workers change nothing), the real game is dealt exactly as without the rollouts,
  and the rollouts' deals are unrelated to the order the real generator will deal (mix64 of
  a salted state is independent of the states the game steps through);
- common random numbers: rollout ``i`` of every action starts from the same stream, so two
  actions are compared on the same deals as far as play lets them stay the same, which
  makes the difference of their means far less noisy than the means themselves;
- the outcome of a rollout for the player's seat: its win credit (1/k of a k-way tie for the
  highest score), plus ``margin_weight`` times its score margin over the best other seat. Win
  credit is what the player is judged on; the margin, smaller by far, tells apart the many
  rollouts that all win or all lose (see the README's section on these players);
- the player's parameters (:func:`rollout_params`: the policies by name or number), the rollout
  policies' strategy table and their shipped tuned parameters.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit

from .arrays import compile_time_constant
from .dispatch import runtime_table
from .output import read_limited
from .registry import MAX_PARAMS, Param, StrategyRegistry
from .rng import GAMMA_U, mix64_nb

MAX_TUNED_BYTES = 16 << 20  # the shipped tuned file is a few kB
ROLLOUT_SALT = np.uint64(0x5EA4C3B2A1908F7E)  # keeps the rollout streams apart from the game's own
# A rollout player's parameters (rollout_params' order); the game's own, confidence and tuned follow.
ROLLOUTS, POLICY, OPPONENTS, HORIZON, MARGIN_WEIGHT = range(5)
N_ROLLOUT_PARAMS = 5


@njit(cache=True)
def decision_stream_nb(rng, seat):
    """The base of a decision's rollout streams (``rng``: the game's generator, read only)."""
    return mix64_nb(mix64_nb(rng[0] ^ ROLLOUT_SALT) + np.uint64(seat + 1) * GAMMA_U)


@njit(cache=True)
def rollout_stream_nb(base, rollout):
    """The generator state rollout ``rollout`` of a decision starts from (the same for every action)."""
    return mix64_nb(base + np.uint64(rollout + 1) * GAMMA_U)


@njit(cache=True)
def outcome_nb(score, players, seat, margin_weight):
    """The seat's win credit (1/k of a k-way tie for the highest score) plus ``margin_weight``
    times its margin over the best other seat (negative when behind)."""
    best_other = -(1 << 62)
    for p in range(players):
        if p != seat and score[p] > best_other:
            best_other = score[p]
    mine = score[seat]
    win = 0.0
    if mine > best_other:
        win = 1.0
    elif mine == best_other:
        tied = 0
        for p in range(players):
            tied += score[p] == mine
        win = 1.0 / tied
    return win + margin_weight * (mine - best_other)


@njit(cache=True)
def choose_nb(values, n_actions, rollouts, own, confidence):
    """The action to take, from ``values[action, rollout]`` (rollout i of every action played
    on the same stream): the policy's own choice ``own``, unless the action with the best
    mean beats it by more than ``confidence`` standard errors of their paired differences.

    Why not simply the best mean: with few rollouts the best mean is mostly noise, and a
    player that takes it plays worse than its policy (measured: 26% against its policy's 74%
    with 8 rollouts, card game, 2 players). Deviating only on evidence makes a small budget
    play like the policy and a large one like the rollouts.
    """
    best = own
    for a in range(n_actions):
        if values[a, :rollouts].sum() > values[best, :rollouts].sum():
            best = a
    if best == own:
        return own
    if rollouts < 2:
        return best if confidence <= 0.0 else own
    diff = values[best, :rollouts] - values[own, :rollouts]
    mean = diff.mean()
    spread = np.sqrt(((diff - mean) ** 2).sum() / (rollouts - 1) / rollouts)
    return best if mean > confidence * spread else own


@njit(cache=True)
def seat_rollout_players_nb(sim, seat, players, policy, opponents, params):
    """Seat the rollout heuristics on a copy of the state: ``policy`` at ``seat``, ``opponents``
    elsewhere, with their parameters (``params[strategy id]``: defaults or tuned) and empty
    scratch rows (no strategy's cache is carried into another's row)."""
    for p in range(players):
        chosen = policy if p == seat else opponents
        sim.seat_strategy[p] = chosen
        for k in range(params.shape[1]):
            sim.seat_params[p, k] = params[chosen, k]
        sim.scratch[p, :] = 0.0


def rollout_policies(registry: StrategyRegistry, built_ins) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """The heuristics a game's rollouts play (its built-ins: the rollout players are none of them, so a
    rollout's table never holds the player itself; their ids in this order), a jitted ``() -> table``
    of their strategy table (dispatch.runtime_table: filled when a run first seats a rollout player),
    and each one's default parameters (a row each)."""
    policies = tuple(built_ins)
    table = runtime_table(registry, policies)
    params = np.zeros((len(policies), MAX_PARAMS))
    for i, name in enumerate(policies):
        defaults = [p.default for p in registry[name].params.values()]
        params[i, :len(defaults)] = defaults
    return policies, table, params


def tuned_policy_params(path: Path, registry: StrategyRegistry, policies: tuple[str, ...], defaults: np.ndarray,
                        presets: tuple[str, ...], max_players: int) -> np.ndarray:
    """``[preset, players, policy, parameter]``: each policy's shipped tuned parameters
    (``tune --out``'s ``best``; what ``balance --tuned shipped`` plays) by rules and player
    count, its defaults where none were tuned (or an entry this version cannot read)."""
    table = np.tile(defaults, (len(presets), max_players + 1, 1, 1))
    try:
        rows = json.loads(read_limited(path, MAX_TUNED_BYTES, "the shipped tuned file"))["tuned"]
    except (OSError, ValueError, KeyError, TypeError):
        rows = []
    for row in rows:
        try:
            name, _, assignments = row["best"].partition(":")
            if name not in policies or row["rules"] not in presets:
                continue
            names = list(registry[name].params)
            for assignment in filter(None, assignments.split(",")):
                key, value = assignment.split("=")
                table[presets.index(row["rules"]), row["players"], policies.index(name), names.index(key)] = \
                    registry[name].params[key].check(name, key, float(value))
        except (KeyError, ValueError, TypeError, AttributeError, IndexError):
            continue
    return table


def tuned_policy_params_nb(path: Path, registry: StrategyRegistry, policies: tuple[str, ...], defaults: np.ndarray,
                           presets: tuple[str, ...], max_players: int):
    """A jitted ``() -> table`` of :func:`tuned_policy_params`: the file is read when the
    first kernel that plays the tuned policies compiles (its table a constant of the kernel),
    never when the strategies are imported. Python reads the table with its ``read()``."""
    return compile_time_constant(lambda: tuned_policy_params(path, registry, policies, defaults, presets,
                                                             max_players))


def untunable(name: str) -> str:
    """Why ``tune`` refuses the rollout player ``name`` (registry.Strategy.untunable)."""
    return ("each of its decisions plays every choice out `rollouts` times, so one of its games costs as much "
            "as thousands of a heuristic's, and tuning plays millions of games (days or more on a few cores, "
            "and `rollouts` may go to 100,000); compare a few settings instead on a few games, e.g. "
            f"medici-sim compare -s {name}:rollouts=16,{name}:rollouts=64 -p 4 --games 1000 (minutes; the "
            "default 100,000 games at every player count would take days)")


def rollout_params(policies: tuple[str, ...], default_policy: str, tried: str, confidence: float, *, horizon: Param,
                   margin: str, extra: dict | None = None) -> dict:
    """A rollout player's parameters, in the order its decisions read them: rollouts, policy,
    opponents, horizon (the game's: what a rollout plays to), margin_weight (``margin``: the game's
    score margin in its words), the game's own (``extra``), confidence, tuned. ``default_policy``:
    the built-in its rollouts play unless told otherwise (the game's ``StudyPolicy.rollout_policy``);
    ``tried``: what a decision plays out (its legal choices, or candidate bids). The policy and the
    opponents are given by name or by number (``Param.choices``)."""
    ids = ", ".join(f"{i} {name}" for i, name in enumerate(policies))
    default = policies.index(default_policy)
    return {
        "rollouts": Param(32, 1, 100_000, integer=True, help=f"rollouts of each {tried} at every decision"),
        "policy": Param(default, 0, len(policies) - 1, integer=True, choices=policies,
                        help=f"the built-in that plays its own later decisions in rollouts ({ids})"),
        "opponents": Param(default, 0, len(policies) - 1, integer=True, choices=policies,
                           help="the built-in that models every other seat in rollouts (same names or ids)"),
        "horizon": horizon,
        "margin_weight": Param(0.03, 0, 1, help=f"outcome = win credit + this x {margin} over the best other seat"),
        **(extra or {}),
        "confidence": Param(confidence, 0, 10,
                            help="leave the policy's own choice only for one better by this many SEs"),
        "tuned": Param(0, 0, 1, integer=True, help="1: rollouts play the shipped tuned parameters (balance --tuned)"),
    }
