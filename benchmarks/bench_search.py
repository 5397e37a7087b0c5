"""How strong and how fast the ``search`` strategy is, in both games.

    python benchmarks/bench_search.py                        # both games, budgets 8, 32, 128
    python benchmarks/bench_search.py --game card --games 400 --budgets 32
    python benchmarks/bench_search.py --speed-only           # rollouts/s and games/s only
    python benchmarks/bench_search.py --ceiling --games 500  # search against every heuristic, 4 players
    python benchmarks/bench_search.py --strong --game card --games 2000 --threads 1  # strong against search@32

1. Strength: one ``search:rollouts=B`` seat against ``expert`` at every other seat, seats
   rotated every game (R24, C20), for each budget B: card game with 2 and 4 players, classic
   with 3 and 4. Printed: search's win rate (a shared win counts 1/k, R22 / C18) with its
   95% interval, an expert seat's, the difference in standard errors of the difference
   (the strength tests' measure: more than 3 is a clear win; the standard error is the
   paired one, from each game's difference, as the seats share their games:
   ``stats.paired_difference``), and games per second.
   ``--ceiling``: the same at the default budget and 4 players against each built-in
   heuristic in turn (three copies of it): how far each is from the search.
   ``--strong``: ``strong`` and ``search:rollouts=32`` each at one seat against ``expert``
   at the others (4 players, rotated, the same games), their win rates, the difference in
   standard errors (independent runs: the square root of the sum of the squares), games per
   second of each lineup and the ratio of the speeds.
2. Speed: rollouts per second per core, timed on one thread from a game's first decision
   (each rollout then plays a whole game), beside the rollout policy's own games per second
   per core: a rollout costs about what playing the game with the policy alone costs.
"""
from __future__ import annotations

import os
import time

import numpy as np
from numba import njit

from medici_sim.cli.common import load_game_components, parse_strategies
from medici_sim.cli.script_options import Parser, check_players, count, counts, seed
from medici_sim.core.driver import PreparedRun, RunConfig, simulate
from medici_sim.core.registry import MAX_PARAMS, get_game
from medici_sim.core.stats import Z95, paired_difference, strategy_frame
from medici_sim.games.card import engine as card_engine
from medici_sim.games.card.strategies import search as card_search
from medici_sim.games.classic import engine as classic_engine
from medici_sim.games.classic import state as classic_state
from medici_sim.games.classic.rules import HOLDS
from medici_sim.games.classic.strategies import search as classic_search

SETTINGS = {"card": (2, 4), "classic": (3, 4)}
MAX_ROLLOUTS = 100_000  # search's rollouts parameter at most (core.rollout)
HEADER = (f"{'game':8} {'against':>9} {'players':>7} {'rollouts':>8} {'games':>7} {'search':>8} {'95% interval':>16} "
          f"{'other':>8} {'SE diff':>8} {'games/s':>9} {'per core':>9}")


def config(game: str, players: int, spec: str, games: int, threads: int, seed: int) -> RunConfig:
    """A rotated run; its kernel holds every built-in and search (one compilation serves every lineup)."""
    return RunConfig(components=load_game_components(get_game(game), None), game=game, players=players, games=games,
                     seed=seed,
                     seating="rotate", threads=threads, strategies=parse_strategies(spec, players, game),
                     kernel_strategies=(*get_game(game).built_ins, "search"))


def in_errors(difference: float, se: float) -> float:
    """A difference in standard errors (nan where a few games all ended alike: no error to measure)."""
    return difference / se if se > 0 else float("nan")


def strength_row(game: str, players: int, budget: int, games: int, threads: int, seed: int,
                 other: str = "expert") -> None:
    spec = ",".join([f"search:rollouts={budget}"] + [other] * (players - 1))
    result = simulate(config(game, players, spec, games, threads, seed))
    table = strategy_frame(result).set_index("strategy")
    label = f"search:rollouts={budget}" if f"search:rollouts={budget}" in table.index else "search"
    search, expert = table.loc[label], table.loc[other]
    difference, _, high = paired_difference(result.totals, [0], range(1, players))  # slot 0 is search
    edge = in_errors(difference, (high - difference) / Z95)
    print(f"{game:8} {other:>9} {players:>7} {budget:>8} {games:>7} {search.win_rate:>8.3f} "
          f"[{search.win_rate_ci_low:.3f}, {search.win_rate_ci_high:.3f}] {expert.win_rate:>8.3f} {edge:>8.1f} "
          f"{result.games_per_second:>9.1f} {result.games_per_second / threads:>9.1f}", flush=True)


def strong_row(game: str, players: int, games: int, threads: int, seed: int) -> None:
    """strong and search@32 against experts on the same games: win rates and speeds."""
    rows = {}
    for spec, n in (("strong", games), ("search:rollouts=32", max(games // 2, 100))):
        result = simulate(config(game, players, ",".join([spec] + ["expert"] * (players - 1)), n, threads, seed))
        row = strategy_frame(result).set_index("strategy").iloc[0]
        rows[spec] = (row.win_rate, (row.win_rate_ci_high - row.win_rate) / Z95, n, result.games_per_second)
    (strong, s_se, s_n, s_speed), (search, r_se, r_n, r_speed) = rows.values()
    print(f"{game:8} {players:>7} {strong:>7.3f} ({s_n:>6}) {search:>7.3f} ({r_n:>6}) "
          f"{in_errors(strong - search, np.hypot(s_se, r_se)):>8.1f} {s_speed:>9.0f} {r_speed:>9.1f} "
          f"{s_speed / r_speed:>6.0f}", flush=True)


# -- speed ------------------------------------------------------------------------------------------

@njit(cache=True)
def card_first_decision_nb(buffer, seed, seating, slot_strategy, slot_params, params, table, repeats):
    """Start a card game, reveal its first card (R9: obligatory) and search seat 0's first
    decision (reveal another or stop) ``repeats`` times: 2 x rollouts x repeats whole games.
    ``table``, the run's strategy table, is not read: its type, named by a hash of the kernel's
    sources (core.dispatch), keys this function's cached code, which links the search's; without it
    numba's cache (which checks this file only) kept code naming an older table's symbols."""
    state = buffer[0]
    card_engine.start_game_nb(state, seed, 0, seating, slot_strategy, slot_params)
    card_engine.begin_day_nb(state, 0, 0)
    state.counts[card_engine.TURN_ID] += 1
    card_engine.play_choice_nb(state, 0, card_engine.REVEAL_DECISION, 1)  # R9: the obligatory first reveal
    actions = np.zeros(card_search.MAX_ACTIONS, np.int64)
    actions[1] = 1
    chosen = 0
    for _ in range(repeats):
        chosen += card_search.search_nb(state, 0, params, actions, 2, False)
    return chosen


@njit(cache=True)
def classic_first_decision_nb(buffer, seed, seating, slot_strategy, slot_params, params, table, repeats):
    """Start a classic game, deal the first auction's first card (C8) and search the
    auctioneer's first draw decision ``repeats`` times: 2 x rollouts x repeats whole games
    (``table``: as card_first_decision_nb's)."""
    state = buffer[0]
    classic_engine.start_game_nb(state, seed, 0, seating, slot_strategy, slot_params)
    classic_engine.begin_day_nb(state, 0, 0)
    counts = state.counts
    counts[classic_state.TURN_ID] += 1  # engine.play_turn_nb's opening, up to the first question
    counts[classic_state.AUCTIONEER] = 0
    counts[classic_state.HIGHEST] = 0
    counts[classic_state.HIGH_BIDDER] = -1
    state.turn_bid[:] = -1
    counts[classic_state.MAX_FREE] = HOLDS
    classic_engine.add_to_lot_nb(state)
    actions = np.zeros(classic_search.MAX_ACTIONS, np.int64)
    actions[1] = 1
    chosen = 0
    for _ in range(repeats):
        chosen += classic_search.search_nb(state, 0, params, actions, 2, classic_search.DRAWING)
    return chosen


def rollouts_per_second(game: str, players: int, rollouts: int, repeats: int) -> float:
    kernel = PreparedRun(config(game, players, ",".join(["search"] + ["expert"] * (players - 1)), 1, 1, 1))
    buffer = kernel.inputs.copy()  # the run's starting state (engine.new_state)
    search = get_game(game).registry["search"]
    params = np.zeros(MAX_PARAMS)
    params[:len(search.params)] = [p.default for p in search.params.values()]
    params[0] = rollouts
    fn = card_first_decision_nb if game == "card" else classic_first_decision_nb
    args = (buffer, 1, 1, kernel.slot_strategy, kernel.slot_params, tuple(params), kernel.table)
    fn(*args, 1)  # compile
    began = time.perf_counter()
    fn(*args, repeats)
    return 2 * rollouts * repeats / (time.perf_counter() - began)


def policy_games_per_second(game: str, players: int, games: int) -> float:
    return max(simulate(config(game, players, "expert", games, 1, 1)).games_per_second for _ in range(3))


def main() -> None:
    parser = Parser(__doc__)
    parser.add_argument("--game", choices=sorted(SETTINGS), action="append", help="the game(s) to measure [both]")
    parser.add_argument("--budgets", type=counts(1, MAX_ROLLOUTS), default=[8, 32, 128],
                        help="rollouts per action, comma-separated [8,32,128]")
    parser.add_argument("--games", type=count(1, 10**9), default=1000,
                        help="games per setting (a budget of 128 plays a quarter)")
    parser.add_argument("--players", type=count(), action="append",
                        help="player counts [card 2 and 4, classic 3 and 4]")
    parser.add_argument("--threads", type=count(1, 1024), default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=seed, default=1)
    parser.add_argument("--speed-games", type=count(1, 10**9), default=20_000,
                        help="the policy's games in the speed table [20,000]")
    parser.add_argument("--speed-only", action="store_true", help="skip the strength table")
    parser.add_argument("--ceiling", action="store_true", help="search (default budget) against each heuristic")
    parser.add_argument("--strong", action="store_true", help="strong against search@32, each among experts")
    args = parser.parse_args()
    budgets = args.budgets
    games = args.game or sorted(SETTINGS)
    check_players(parser, args.players, games)
    start = time.perf_counter()
    if args.strong:
        print(f"strong and search:rollouts=32 at one seat, expert at the others, seats rotated; {args.threads} threads")
        print(f"{'game':8} {'players':>7} {'strong':>7} {'(games)':>8} {'search':>7} {'(games)':>8} {'SE diff':>8} "
              f"{'games/s':>9} {'search/s':>9} {'ratio':>6}")
        for game in (g for g in games if "strong" in get_game(g).registry.strategies):
            for players in args.players or (4,):
                strong_row(game, players, args.games, args.threads, args.seed)
        return
    if args.ceiling:
        print(f"search (default budget) at one seat, a heuristic at the others, seats rotated; {args.threads} threads")
        print(HEADER)
        for game in games:
            default = int(get_game(game).registry["search"].params["rollouts"].default)
            for other in get_game(game).built_ins:
                for players in args.players or (4,):
                    strength_row(game, players, default, args.games, args.threads, args.seed, other)
        return
    if not args.speed_only:
        print(f"search:rollouts=B at one seat, expert at the others, seats rotated; {args.threads} threads")
        print(HEADER)
        for game in games:
            for players in args.players or SETTINGS[game]:
                for budget in budgets:
                    n = args.games if budget <= 32 else max(args.games // 4, 100)
                    strength_row(game, players, budget, n, args.threads, args.seed)
    print("\nspeed on one thread: rollouts of whole games (the first decision's) and the policy's own games")
    print(f"{'game':8} {'players':>7} {'rollouts/s':>11} {'expert games/s':>15} {'ratio':>6}")
    for game in games:
        for players in args.players or SETTINGS[game]:
            rollouts = rollouts_per_second(game, players, 64, 20)
            alone = policy_games_per_second(game, players, args.speed_games)
            print(f"{game:8} {players:>7} {rollouts:>11,.0f} {alone:>15,.0f} {rollouts / alone:>6.2f}", flush=True)
    print(f"(took {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
