"""The strength table: one seat of each level of play against experts, and paired comparisons of two.

For a game and player counts, one seat plays each level against ``players - 1`` seats of
``expert`` (default parameters), the seats rotated game by game (R24, C20), on one thread:
random, (with ``--heuristics`` each other built-in heuristic,) expert, tuned expert (expert
with its shipped tuned parameters at that player count, what ``--tuned shipped`` and the
ladder's tuned level play), search at 8, 32 and 128 rollouts, the tree search ``mcts``, and
``strong`` where the game registers them (a line names those it does not yet). It prints one
markdown table: the seat's win rate (win credit: 1/k of a k-way tie, R22, C18) with its 95%
interval, the games it rests on and the games played a second on one core. Games per level
are scaled to its cost (``GAMES``, times ``--scale``): a cheap level plays thousands, search
at 128 rollouts a few dozen. ``--save`` writes the table to ``docs/strength-GAME.md`` (all
or nothing), ``--saved`` prints that file: docs/strategies.md shows it through
docs/generate_outputs.py, so tests/test_docs.py checks that the page shows the saved output.

    python scripts/strength_table.py card --save
    python scripts/strength_table.py classic --players 3,4,5,6 --scale 8 --save
    python scripts/strength_table.py card --saved
    python scripts/strength_table.py tuscany --heuristics --scale 2 --save

``--pair A B`` compares two strategies instead: each plays the same games (the same seeds
and game indices: the same deals as far as their choices let play stay the same) as the one
seat among experts, and it prints both win rates, their paired per-game difference with its
standard error, and each one's games per second, measured back to back.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

import medici_sim.games  # noqa: F401  (registers the games)
from medici_sim.api import RunRequest
from medici_sim.cli.script_options import Parser, count, number
from medici_sim.core import registry
from medici_sim.core.accounting import STAT_WIN60, WIN_UNIT
from medici_sim.core.driver import PreparedRun
from medici_sim.core.output import OutputError, atomic_write, check_writable
from medici_sim.core.registry import get_game
from medici_sim.core.specs import parse_player_counts
from medici_sim.core.stats import mean_interval
from medici_sim.study.tuning import SHIPPED, load_tuned

OPPONENT = "expert"
# games per level at --scale 1, by what a game of it costs (search and mcts: thousands of heuristic games)
GAMES = {"random": 2000, "expert": 2000, "tuned expert": 2000, "search@8": 150, "search@32": 50, "search@128": 16,
         "mcts": 50, "strong": 2000}
HEURISTIC_GAMES = 2000  # a heuristic's level (--heuristics)
SEED = 1
MAX_SCALE = 1000  # games per level at most a thousand times GAMES
DOCS = Path(__file__).resolve().parents[1] / "docs"


def saved_path(game: str) -> Path:
    return DOCS / f"strength-{game}.md"


def heuristics(game: str) -> list[str]:
    """The game's built-in heuristics: its built-ins other than random, expert and the study's levels."""
    study = get_game(game).study
    levels = {"random", OPPONENT, "mcts", *(getattr(study, k, "") for k in ("searcher", "strongest"))}
    return [name for name in get_game(game).built_ins if name not in levels]


def levels(game: str, players: int, with_heuristics: bool = False) -> list[tuple[str, str]]:
    """(level, strategy spec) for one player count, weakest first: random, (each heuristic,) expert, tuned
    expert, then search, mcts and strong where the game registers them."""
    registry = get_game(game).registry
    tuned = load_tuned(SHIPPED, game).best.get((OPPONENT, players, get_game(game).presets[0]))
    out = [("random", "random"), *((name, name) for name in (heuristics(game) if with_heuristics else ())),
           ("expert", OPPONENT), ("tuned expert", tuned.label if tuned is not None else OPPONENT)]
    if "search" in registry.strategies:
        out += [(f"search@{n}", f"search:rollouts={n}") for n in (8, 32, 128)]
    out += [(name, name) for name in ("mcts", "strong") if name in registry.strategies]
    return out


def missing_levels(game: str) -> list[str]:
    """The table's stronger levels the game does not register yet (their rows come when it does)."""
    strategies = get_game(game).registry.strategies
    return [level for level, name in (("search@8/32/128", "search"), ("mcts", "mcts"), ("strong", "strong"))
            if name not in strategies]


def seat_config(game: str, players: int, spec: str, games: int):
    """The run of one seat of ``spec`` (slot 0) among experts, rotated, one thread (ConfigError: a bad spec)."""
    lineup = ",".join([spec] + [OPPONENT] * (players - 1))
    return RunRequest(games, game, players, lineup, seating="rotate", seed=SEED, threads=1).config()


def kernel(game: str, players: int, spec: str, games: int) -> PreparedRun:
    """``seat_config``'s kernel, compiled."""
    ready = PreparedRun(seat_config(game, players, spec, games))
    ready.warm_up()
    return ready


def timed(ready: PreparedRun, first: int, games: int):
    began = time.perf_counter()
    totals = ready.play(first, games)
    return totals, time.perf_counter() - began


def win_interval(total, total_sq, games: int, unit: float = 1.0) -> tuple[float, float, float]:
    """A win rate and its 95% interval (core.stats.mean_interval), the interval within 0 and 1."""
    mean, low, high = mean_interval(total, total_sq, games, unit)
    return float(mean), max(float(low), 0.0), min(float(high), 1.0)


def strength_rows(game: str, counts: list[int], scale: float, with_heuristics: bool = False):
    for players in counts:
        for level, spec in levels(game, players, with_heuristics):
            games = max(2, round(GAMES.get(level, HEURISTIC_GAMES) * scale))
            totals, seconds = timed(kernel(game, players, spec, games), 0, games)
            slot = totals.slot[0]
            yield players, level, *win_interval(slot[STAT_WIN60], slot[STAT_WIN60 + 1], games, WIN_UNIT), games, \
                games / seconds


def games_per_second(speed: float) -> str:
    """Whole games a second, with a decimal below 100 (search's few a second)."""
    return f"{speed:,.0f}" if speed >= 100 else f"{speed:.1f}"


def table(game: str, counts: list[int], scale: float, with_heuristics: bool = False) -> str:
    lines = [f"{game}: one seat of each level against {OPPONENT}s, rotated; --scale {scale:g}, seed {SEED}, "
             "one thread (games/s: this machine, under its load)", "",
             f"| {game} players | level | win rate [95% CI] | games | games/s |", "|---|---|---|---|---|"]
    for players, level, mean, low, high, games, speed in strength_rows(game, counts, scale, with_heuristics):
        lines.append(f"| {players} | {level} | {100 * mean:.1f}% [{100 * low:.1f}, {100 * high:.1f}] | {games:,} | "
                     f"{games_per_second(speed)} |")
    if missing_levels(game):
        lines += ["", "Not yet for this game (their rows come when it registers them): "
                  f"{', '.join(missing_levels(game))}."]
    return "\n".join(lines)


def paired(game: str, players: int, first: str, second: str, games: int, start: int = 0) -> str:
    """Both strategies on games ``start`` .. ``start + games - 1``, game by game: the per-game
    difference of their credits."""
    kernels = [kernel(game, players, spec, 1) for spec in (first, second)]
    credit = np.zeros((2, games))
    seconds = np.zeros(2)
    for i in range(games):
        for k, ready in enumerate(kernels):
            totals, took = timed(ready, start + i, 1)
            credit[k, i] = totals.slot[0, STAT_WIN60] / WIN_UNIT
            seconds[k] += took
    diff = credit[0] - credit[1]
    se = diff.std(ddof=1) / np.sqrt(games)
    lines = [f"{game}, {players} players, games {start}-{start + games - 1} each (one seat among {OPPONENT}s, rotated, "
             "the same games):"]
    for k, spec in enumerate((first, second)):
        mean, low, high = win_interval(credit[k].sum(), (credit[k] ** 2).sum(), games)
        lines.append(f"  {spec}: {100 * mean:.1f}% [{100 * low:.1f}, {100 * high:.1f}], "
                     f"{games_per_second(games / seconds[k])} games/s")
    if se == 0:  # the same credit in every game (e.g. the two played the same games)
        lines.append(f"  difference: {100 * diff.mean():+.1f} points in every game")
    else:
        lines.append(f"  difference: {100 * diff.mean():+.1f} points, SE {100 * se:.1f} ({diff.mean() / se:+.1f} SE)")
    return "\n".join(lines)


def main() -> None:
    parser = Parser(__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(registry.GAMES), help="the game")
    parser.add_argument("--players", help="player counts: 4, 3,4,5 or all [default: all; with --pair 4]")
    parser.add_argument("--scale", type=number(0, MAX_SCALE, above=True), default=1.0,
                        help="games per level, times this")
    parser.add_argument("--pair", nargs=2, metavar=("A", "B"), help="compare two strategies on the same games")
    parser.add_argument("--games", type=count(2, 10**9), default=200, help="with --pair: games each")
    parser.add_argument("--first", type=count(0, 10**15), default=0, help="with --pair: the first game's index")
    parser.add_argument("--heuristics", action="store_true", help="a row for each built-in heuristic too")
    parser.add_argument("--save", action="store_true", help="also write the table to docs/strength-GAME.md")
    parser.add_argument("--saved", action="store_true", help="print the saved table (docs/strength-GAME.md)")
    args = parser.parse_args()
    try:
        counts = parse_player_counts(args.players or ("4" if args.pair else "all"), args.game)
    except ValueError as error:
        parser.error(str(error))
    if args.saved:
        try:
            print(saved_path(args.game).read_text(), end="")
        except OSError as exc:
            parser.error(f"--saved: cannot read {saved_path(args.game)} ({exc.strerror or exc})")
        return
    if args.pair:
        try:  # each spec at each player count, before anything compiles or plays
            for players in counts:
                for spec in args.pair:
                    seat_config(args.game, players, spec, 1)
        except ValueError as error:  # a strategy spec that names none
            parser.refuse("--pair", str(error))
        for players in counts:
            print(paired(args.game, players, *args.pair, args.games, args.first), flush=True)
        return
    try:  # the saved table's file is checked before the games, written whole or not at all after them
        if args.save:
            check_writable("--save", saved_path(args.game))
        text = table(args.game, counts, args.scale, args.heuristics)
        print(text)
        if args.save:
            atomic_write(saved_path(args.game), lambda temporary: Path(temporary).write_text(text + "\n"), "--save")
    except OutputError as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()
