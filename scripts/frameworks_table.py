"""The measured table of docs/frameworks.md: our ``search`` and OpenSpiel's MCTS, each at seat 1
against three ``expert`` seats, at comparable budgets, 4 players, both games; and the speed of an
environment step. Needs the openspiel and rl extras.

    python scripts/frameworks_table.py --mcts-games 30 --games 1000
    python scripts/frameworks_table.py --step-speed

Each row is the seat's win credit (R22, C18: 1 shared among the richest) and florins, mean with
its 95% interval (1.96 standard errors of the per-game values) over the games it names; games
0..n-1 of seed 0, fixed seating, every game's deal its own (the same games for every row).
"""
from __future__ import annotations

import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import medici_sim.openspiel  # noqa: F401
from medici_sim.cli.script_options import Parser, count
from medici_sim.core.driver import PreparedRun
from medici_sim.core.specs import run_config
from medici_sim.frameworks.spiel import PolicyRolloutEvaluator, play_with_bot, win_credit
from medici_sim.frameworks.stepper import engine

GAMES = ("card", "classic")
OPPONENT = "expert"


def kernel_money(game: str, lineup: list[str], games: int) -> np.ndarray:
    """Each game's money by seat, played by the kernel's stepped loop (the trace's)."""
    config = run_config(game=game, players=len(lineup), strategies=lineup, games=games, seed=0, rules=None,
                        seating="fixed", threads=1, components=None)
    kernel = PreparedRun(config)
    stepped = engine(game, len(lineup), config.rules).stepped
    money = np.zeros((games, len(lineup)), np.int64)
    field = engine(game, len(lineup), config.rules).view.SCORE
    for index in range(games):
        buffer = stepped.trace_game_nb(0, index, kernel.inputs, kernel.seating, kernel.slot_strategy,
                                       kernel.slot_params, kernel.table)
        money[index] = buffer[0][field][:len(lineup)]
    return money


def seat_wins(money: np.ndarray) -> np.ndarray:
    return np.array([win_credit(list(m))[0] for m in money])


def row(name: str, money: np.ndarray, seconds: float, reference: np.ndarray) -> str:
    """A table row; ``reference``: expert's win credit at seat 1 in the same games (the paired difference)."""
    wins = seat_wins(money)
    florins = money[:, 0].astype(float)
    n = len(money)

    def interval(x, digits):
        return f"{x.mean():.{digits}f} ± {1.96 * x.std(ddof=1) / np.sqrt(n):.{digits}f}"

    return (f"| {name} | {n} | {interval(wins, 3)} | {interval(wins - reference[:n], 3)} | {interval(florins, 1)} "
            f"| {n / seconds:.2f} |")


def mcts_factory(simulations: int, seed: int, rollout: str | None):
    """OpenSpiel's MCTS, its rollouts random (``rollout`` None) or played by our ``rollout`` strategy."""
    def make(spiel_game):
        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(1, rng) if rollout is None else PolicyRolloutEvaluator(rollout, rng)
        return mcts.MCTSBot(spiel_game, 1.4, simulations, evaluator, random_state=rng)
    return make


def table(mcts_games: int, games: int, simulations: int, rollouts: int, which: tuple[str, ...] = GAMES,
          mcts_rollouts: tuple[str | None, ...] = (None, OPPONENT)) -> None:
    print("| seat 1 (vs 3 expert) | games | win credit (fair share 0.250) | minus expert's, same games "
          "| florins | games/s |")
    print("|---|---|---|---|---|---|")
    for game in which:
        others = [OPPONENT] * 3
        reference = None
        for spec in (OPPONENT, f"search:rollouts={rollouts}"):
            began = time.perf_counter()
            money = kernel_money(game, [spec, *others], max(games, mcts_games))
            reference = seat_wins(money) if reference is None else reference
            print(row(f"{game}: {spec}", money, time.perf_counter() - began, reference), flush=True)
        for rollout in mcts_rollouts:
            began = time.perf_counter()
            money = play_with_bot(game, mcts_factory(simulations, 0, rollout), bot_seat=0, strategies=[OPPONENT] * 4,
                                  games=mcts_games, returns="wins")
            print(row(f"{game}: OpenSpiel MCTS ({simulations} simulations, {rollout or 'random'} rollouts)", money,
                      time.perf_counter() - began, reference), flush=True)


def step_speed(steps: int) -> None:
    from medici_sim.pettingzoo import env, seat_env

    for game in GAMES:
        e = env(game=game, players=4)
        e.reset(seed=0)
        rng = np.random.default_rng(0)
        done = 0
        began = time.perf_counter()
        while done < steps:
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                e.step(None)
                if not e.agents:
                    e.reset(seed=done)
                continue
            mask = e.observe(agent)["action_mask"]
            e.step(int(rng.choice(np.flatnonzero(mask))))
            done += 1
        print(f"{game}: {steps / (time.perf_counter() - began):,.0f} AEC steps/s (random legal actions, 4 players)")
        single = seat_env(game=game, players=4, opponents=OPPONENT)
        _, info = single.reset(seed=0)
        began = time.perf_counter()
        for done_steps in range(steps):
            _, _, over, _, info = single.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            if over:
                _, info = single.reset(seed=done_steps)
        print(f"{game}: {steps / (time.perf_counter() - began):,.0f} Gymnasium steps/s (one seat, random legal "
              f"actions, the 3 {OPPONENT} seats' decisions included)")


def main() -> None:
    parser = Parser(__doc__.splitlines()[0])
    parser.add_argument("--mcts-games", type=count(2, 10**6), default=30)
    parser.add_argument("--games", type=count(2, 10**9), default=1000)
    parser.add_argument("--simulations", type=count(1, 10**6), default=16)
    parser.add_argument("--rollouts", type=count(1, 100_000), default=8)
    parser.add_argument("--game", choices=GAMES, help="one game only (default: both)")
    parser.add_argument("--mcts-rollouts", choices=("random", OPPONENT, "both"), default="both")
    parser.add_argument("--step-speed", action="store_true")
    args = parser.parse_args()
    if args.step_speed:
        step_speed(5000)
    else:
        kinds = {"random": (None,), OPPONENT: (OPPONENT,), "both": (None, OPPONENT)}[args.mcts_rollouts]
        table(args.mcts_games, args.games, args.simulations, args.rollouts, (args.game,) if args.game else GAMES, kinds)


if __name__ == "__main__":
    pyspiel.load_game  # noqa: B018  (the extra is there)
    main()
