"""Games per CPU second of The Castles of Tuscany's jitted engine, `random` at every seat, one thread.

    python benchmarks/bench_tuscany.py                # 4 players, 20,000 games, best of 3
    python benchmarks/bench_tuscany.py --players 2 --games 5000 --repeat 1 --rules original

It runs the game's batch kernel (core.kernel.batch_kernel, bound to the game's hooks in
games/tuscany/game.py) directly, without the driver's batches and threads: the engine alone, as
the C loop is. The first run compiles (cached afterwards), timed apart.
Speeds are CPU seconds of this process, so that they compare on a loaded machine. The engine
against the C loop, on the same games checked and in turns: ``bench_versus_c.py --game tuscany``.
"""
from __future__ import annotations

import time

import numpy as np

from medici_sim.cli.script_options import Parser, count
from medici_sim.core.dispatch import strategy_table
from medici_sim.core.registry import MAX_PARAMS
from medici_sim.core.rules import RulesError
from medici_sim.core.seating import SEATING_MODES
from medici_sim.games.tuscany.components import ComponentError, components
from medici_sim.games.tuscany.rules import RULE_BOOK
from medici_sim.games.tuscany.strategies import REGISTRY
from medici_sim.games.tuscany.tables import new_state


def run(comp, rules, games: int, seed: int = 1) -> tuple[float, np.ndarray, np.ndarray]:
    """(CPU seconds, per-seat totals, run counters) of games 0 .. games - 1 of `random` at every seat."""
    from medici_sim.games.tuscany.game import N_RUN_STATS, N_STATS, play_games_nb  # noqa: PLC0415  (compiles)

    players = rules.players
    inputs = new_state(comp, rules)
    table, names = strategy_table(REGISTRY, {"random"})
    slot_strategy = np.full(players, names.index("random"), np.int64)
    seat_stats = np.zeros((players, N_STATS), np.int64)
    slot_stats, run_stats = seat_stats.copy(), np.zeros(N_RUN_STATS, np.int64)
    start = time.process_time()
    play_games_nb(seed, 0, games, inputs, SEATING_MODES.index("fixed"), slot_strategy,
                  np.zeros((players, MAX_PARAMS)), seat_stats, slot_stats, np.zeros((players, players, 2), np.int64),
                  run_stats, table)
    return time.process_time() - start, seat_stats, run_stats


def main() -> None:
    parser = Parser(__doc__)
    parser.add_argument("--players", type=count(2, 4), default=4)
    parser.add_argument("--games", type=count(1, 10**9), default=20_000, help="games timed [20,000]")
    parser.add_argument("--repeat", type=count(1, 100), default=3)
    parser.add_argument("--components", default=None, help="a shipped component set's name or a file [reconstructed]")
    parser.add_argument("--rules", default=None, help="rule parameters, e.g. original or draw=2 [the rulebook's]")
    args = parser.parse_args()
    try:
        comp = components(args.components)
    except ComponentError as exc:
        parser.refuse("--components", str(exc))
    try:
        rules = RULE_BOOK.resolve(args.rules, args.players)
    except RulesError as exc:
        parser.refuse("--rules", str(exc))
    start = time.perf_counter()
    run(comp, rules, 1)
    print(f"first game (compile or cache load): {time.perf_counter() - start:.1f} s")
    jitted = [args.games / run(comp, rules, args.games)[0] for _ in range(args.repeat)]
    what = f"tuscany random, {args.players} players, components {comp.name}, rules {rules.spec}"
    print(f"{what}: {max(jitted):,.0f} games per CPU second, one thread ({args.games:,} games, best of {args.repeat})")


if __name__ == "__main__":
    main()
