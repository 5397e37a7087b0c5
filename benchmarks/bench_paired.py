"""Paired play against a plain run: games/s, counted over both rule sets, and their ratio.

    python benchmarks/bench_paired.py                  # both games, 1 and 2 threads (about 2 minutes)
    python benchmarks/bench_paired.py --game card --threads 1 --games 200000 --repeat 5

`balance`, `sweep`, `design`, tune's fresh check and the ladder play each game under two rule
or parameter sets (core.pairing.PreparedPair); a plain run plays it once. For each game this
times a plain run of --strategies at --players (its first rule set), and the paired run of the
same strategies under the game's two `balance` rule sets (its first and last variant when it
has none: the same work), through the driver as the commands do. Paired games/s counts every
game under each rule set (twice the games paired); the ratio is paired over plain, the goal
0.8 or more. Runs alternate plain and paired, best of --repeat each, so a load that comes and
goes hits both alike (the machine may be shared: read the best, not one run).
"""
from __future__ import annotations

import os

import medici_sim.games  # noqa: F401  the games register themselves
from medici_sim.cli.common import load_game_components, parse_strategies
from medici_sim.cli.script_options import Parser, check_players, count, counts
from medici_sim.core.driver import RunConfig, simulate
from medici_sim.core.pairing import PreparedPair
from medici_sim.core.registry import GAMES, get_game


def configs(game: str, players: int, spec: str, games: int, threads: int) -> tuple[RunConfig, RunConfig]:
    """The two runs paired: the same games under the game's two balance rule sets."""
    found = get_game(game)
    variants = found.balance_rules or (found.presets[0], found.presets[-1])
    strategies = parse_strategies(spec, players, game)
    return tuple(RunConfig(components=load_game_components(found, None), players=players, games=games, threads=threads,
                           strategies=strategies, seating="rotate", game=game, rules=variant)
                 for variant in variants)


def speeds(game: str, players: int, spec: str, games: int, threads: int, repeat: int) -> tuple[float, float]:
    """(plain games/s, paired games/s over both rule sets), each the best of ``repeat`` runs."""
    config_a, config_b = configs(game, players, spec, games, threads)
    plain = paired = 0.0
    for _ in range(repeat):
        plain = max(plain, simulate(config_a).games_per_second)
        result = simulate(config_a, kernel=PreparedPair(config_a, config_b))
        paired = max(paired, 2 * result.played / result.elapsed)
    return plain, paired


def main() -> None:
    parser = Parser(__doc__)
    parser.add_argument("--games", type=count(), default=300_000, help="games a run [300,000]")
    parser.add_argument("--repeat", type=count(1, 1000), default=3, help="runs of each, the best counts [3]")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="the game(s) to measure [all]")
    parser.add_argument("--players", type=count(), default=4, help="players [4]")
    parser.add_argument("--strategies", default="random", help="the strategies, as --strategies takes them [random]")
    parser.add_argument("--threads", type=counts(), default=[1, 2], help="thread counts, a comma list [1,2]")
    args = parser.parse_args()
    names = args.game or sorted(GAMES)
    check_players(parser, [args.players], names)
    for name in names:
        try:
            parse_strategies(args.strategies, args.players, name)
        except ValueError as exc:
            parser.refuse("--strategies", str(exc))
    print(f"games/s after compilation, best of {args.repeat} runs of {args.games:,} games; "
          f"{args.strategies} at {args.players} players; {os.cpu_count()} cores")
    print(f"{'game':8} {'threads':>7} {'plain':>12} {'paired':>12} {'ratio':>6}")
    for name in names:
        for threads in args.threads:
            plain, paired = speeds(name, args.players, args.strategies, args.games, threads, args.repeat)
            print(f"{name:8} {threads:>7} {plain:>12,.0f} {paired:>12,.0f} {paired / plain:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
