"""A simple policy trained against the built-ins (docs/frameworks.md): a linear softmax policy
over the seat's observation, trained by REINFORCE (policy gradient with a running-mean
baseline) on the Gymnasium one-seat environment, rewarded by its florins at the end, then
measured against the untrained policy (uniform over the legal actions) on the same seeds: win
credit (R22, C18) and florins. Needs the rl extra.

    python scripts/frameworks_train.py --game card --opponents expert --minutes 3
"""
from __future__ import annotations

import time

import numpy as np

from medici_sim.cli.script_options import Parser, count, number
from medici_sim.frameworks.spiel import win_credit
from medici_sim.pettingzoo import seat_env


def features(observation: np.ndarray) -> np.ndarray:
    return np.append(np.tanh(observation / 50.0), 1.0)  # money and counts squashed; a bias term


def act(weights, observation, mask, rng):
    """A legal action drawn from the softmax of the masked logits, and its score-function gradient."""
    x = features(observation)
    logits = weights @ x
    logits[mask == 0] = -np.inf
    p = np.exp(logits - logits.max())
    p /= p.sum()
    action = int(rng.choice(len(p), p=p))
    grad = -np.outer(p, x)
    grad[action] += x
    return action, grad


def episode(env, weights, rng, seed, learn: bool):
    """One game: the seat's florins, every seat's money, and the gradients of its choices."""
    observation, info = env.reset(seed=seed)
    grads, done, florins = [], False, 0.0
    while not done:
        action, grad = act(weights, observation, info["action_mask"], rng)
        if learn:
            grads.append(grad)
        observation, florins, done, _, info = env.step(action)
    return florins, env.game.scores(), grads


def measured(env, weights, episodes: int, first_seed: int) -> str:
    """Win credit and florins over ``episodes`` games, each with its 95% interval."""
    rng = np.random.default_rng(first_seed)
    games = [episode(env, weights, rng, first_seed + i, False) for i in range(episodes)]
    florins = np.array([g[0] for g in games])
    wins = np.array([win_credit(g[1])[env.seat] for g in games])
    return (f"win credit {wins.mean():.3f} ± {1.96 * wins.std(ddof=1) / np.sqrt(episodes):.3f}, "
            f"florins {florins.mean():.1f} ± {1.96 * florins.std(ddof=1) / np.sqrt(episodes):.1f} ({episodes} games)")


def main() -> None:
    parser = Parser(__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("card", "classic"), default="card")
    parser.add_argument("--opponents", default="expert")
    parser.add_argument("--minutes", type=number(0, 10**6, above=True), default=3.0)
    parser.add_argument("--evaluate", type=count(2, 10**9), default=1000, help="games measured before and after")
    parser.add_argument("--rate", type=number(0, 10**6, above=True), default=0.001)
    args = parser.parse_args()
    try:
        env = seat_env(game=args.game, players=4, seat=0, opponents=args.opponents, returns="florins")
    except ValueError as exc:  # opponents that name no strategy
        parser.refuse("--opponents", str(exc))
    observation, _ = env.reset(seed=0)
    weights = np.zeros((env.action_space.n, len(features(observation))))
    untrained = measured(env, weights, args.evaluate, 10**6)  # all-zero weights: uniform over the legal actions
    rng = np.random.default_rng(0)
    baseline, episodes, began = None, 0, time.perf_counter()
    while time.perf_counter() - began < args.minutes * 60:
        florins, _, grads = episode(env, weights, rng, episodes, True)
        baseline = florins if baseline is None else baseline + 0.01 * (florins - baseline)
        for grad in grads:
            weights += args.rate * (florins - baseline) * grad
        episodes += 1
    print(f"{args.game}, seat 1 of 4 against 3 {args.opponents}: {episodes} training games in {args.minutes:g} min")
    print(f"  untrained (uniform legal actions): {untrained}")
    print(f"  trained linear softmax policy:     {measured(env, weights, args.evaluate, 10**6)}, the same seeds")


if __name__ == "__main__":
    main()
