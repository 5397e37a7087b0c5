"""What wins The Castles of Tuscany: where the points come from, and which tiles the winners place.

Plays games 0 .. N - 1 of one lineup (default: ``expert`` at every seat, or ``--tuned``: each seat with
its shipped tuned parameters, what ``--tuned shipped`` plays) on the jitted engine, one game at a time,
seats rotated, and prints two markdown tables for docs/findings.md:

- the share of each seat's points (T33-T35: red, the score) from each source: green from regions (T21),
  colour bonuses (T22), agriculture (T27), yield cards (T30) and storage bonus tiles (T12, T25), banked into
  red once per phase scoring (T34, the ``banking`` column of the engine), and red from yield cards, a
  hexagon without room (T26) and the final scoring (T35); green points reach the score only through
  banking, so the table splits the banked red by the green sources in proportion to the green each earned;
- the tiles on the estate at the end by kind (T19; hexagons apart), for the winners (a k-way shared win
  counts 1/k) and for the other seats.

    python scripts/tuscany_what_wins.py --players 4 --games 2000
    python scripts/tuscany_what_wins.py --players 4 --games 2000 --tuned --components large-regions
"""
from __future__ import annotations

import numpy as np

import medici_sim.games  # noqa: F401  (registers the games)
from medici_sim.cli.script_options import Parser, count
from medici_sim.games.tuscany.components import ComponentError, components
from medici_sim.games.tuscany.recording import Games, record
from medici_sim.games.tuscany.reference import GREEN_SOURCES, RED_SOURCES
from medici_sim.games.tuscany.rules import COLOURS, RULE_BOOK
from medici_sim.games.tuscany.state import HEX
from medici_sim.games.tuscany.strategies import REGISTRY
from medici_sim.study.tuning import SHIPPED, load_tuned

KIND_NAMES = dict(zip(COLOURS, ("castle", "city", "inn", "agriculture", "village", "monastery", "wagon", "quarry"),
                      strict=True))
SEED = 1


def lineup_games(players: int, strategy: str, tuned: bool, component_set: str | None, rules: str | None):
    """The jitted games of ``strategy`` at every seat (tuned: with its shipped parameters), seats rotated."""
    games = Games(components(component_set), RULE_BOOK.resolve(rules, players), [strategy] * players, "rotate")
    if tuned:
        best = load_tuned(SHIPPED, "tuscany").best.get((strategy, players, rules or "standard"))
        if best is not None:
            declared = list(REGISTRY[strategy].params)
            values = dict(best.params)
            games.slot_params[:, :len(declared)] = [values[k] for k in declared]
    return games


def measure(players: int, n: int, strategy: str = "expert", tuned: bool = False, component_set=None, rules=None):
    """(points by source summed over seats, the winners' and the others' tile kinds and hexagons, wins)."""
    games = lineup_games(players, strategy, tuned, component_set, rules)
    sources = GREEN_SOURCES + RED_SOURCES
    points = {"all": np.zeros(len(sources)), "winners": np.zeros(len(sources))}
    kinds = {"winners": np.zeros(len(COLOURS) + 1), "others": np.zeros(len(COLOURS) + 1)}
    wins = 0.0
    for index in range(n):
        state = games.play(SEED, index)
        seats = record(state)["seats"]
        for seat in range(players):
            share = seats["winner_share60"][seat] / 60
            row = np.array([seats[k][seat] for k in sources], float)
            points["all"] += row
            points["winners"] += share * row
            items = state["field_item"][seat]
            placed = np.zeros(len(COLOURS) + 1)
            for item in items:
                if item >= 0:
                    placed[state["tile_kind"][item]] += 1
                elif item == HEX:
                    placed[-1] += 1
            kinds["winners"] += share * placed
            kinds["others"] += (1 - share) * placed
            wins += share
    return points, kinds, wins


def source_table(points: dict) -> str:
    """Each source's share of the red score: red sources directly, the banked red split by green source."""
    green, red = len(GREEN_SOURCES), dict(zip(RED_SOURCES, range(len(GREEN_SOURCES), len(points["all"])),
                                              strict=True))
    lines = ["| points from | all seats | winners |", "|---|---|---|"]
    for k, name in enumerate(GREEN_SOURCES + ("yield_red", "no_room", "final")):
        cells = []
        for who in ("all", "winners"):
            row = points[who]
            total = sum(row[red[r]] for r in RED_SOURCES)
            if k < green:  # the banked red, split by the green each source earned
                value = row[red["banking"]] * row[k] / max(row[:green].sum(), 1)
            else:
                value = row[red[name]]
            cells.append(f"{100 * value / total:.1f}%")
        lines.append(f"| {name.replace('_', ' ')} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def kind_table(kinds: dict, wins: float, games: int, players: int) -> str:
    others = games * players - wins
    lines = ["| tiles on the estate at the end | winners (a game) | other seats (a game) |", "|---|---|---|"]
    for k, letter in enumerate([*COLOURS, "hexagon"]):
        name = KIND_NAMES.get(letter, letter)
        lines.append(f"| {name} | {kinds['winners'][k] / wins:.2f} | {kinds['others'][k] / others:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = Parser(__doc__.splitlines()[0])
    parser.add_argument("--players", type=count(2, 4), default=4, help="players (2-4) [default: 4]")
    parser.add_argument("--games", type=count(1, 10**7), default=2000, help="games [default: 2000]")
    parser.add_argument("--strategy", default="expert", help="the strategy at every seat [default: expert]")
    parser.add_argument("--tuned", action="store_true", help="with its shipped tuned parameters")
    parser.add_argument("--components", help="a shipped component set or a component file [default: reconstructed]")
    parser.add_argument("--rules", help="the rules (standard or original, name=value items) [default: standard]")
    args = parser.parse_args()
    if args.strategy not in REGISTRY:
        parser.refuse("--strategy", f"{args.strategy!r} is not a tuscany strategy ({', '.join(REGISTRY)})")
    try:
        components(args.components)
    except ComponentError as exc:
        parser.refuse("--components", str(exc))
    try:
        RULE_BOOK.resolve(args.rules, args.players)
    except ValueError as exc:
        parser.refuse("--rules", str(exc))
    points, kinds, wins = measure(args.players, args.games, args.strategy, args.tuned, args.components, args.rules)
    what = f"{'tuned ' if args.tuned else ''}{args.strategy}"
    print(f"{args.players} players, {what} at every seat, seats rotated, {args.games:,} games (seed {SEED}), "
          f"components {args.components or 'reconstructed'}, rules {args.rules or 'standard'}\n")
    print(source_table(points) + "\n")
    print(kind_table(kinds, wins, args.games, args.players))


if __name__ == "__main__":
    main()
