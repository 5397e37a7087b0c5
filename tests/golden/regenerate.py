"""Write the golden files the suite compares against (tests/test_golden.py).

- ``trace-<game>-<players>p-<seating>.json``: one game told by ``trace --format json``, for
  every game, player count and seating;
- ``tables-<game>.json``: a run's tables (per seat, per strategy, the summary's counts).

Run it only when a change of results is intended, and say why in the commit:
``python tests/golden/regenerate.py``. The test fails on any other change of a game or a table.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
SEED, INDEX = 2026, 3
SEATINGS = ("fixed", "rotate", "random")
# each lineup cycles through the game's built-ins (search aside: its games are too slow to be golden)
LINEUPS = {"card": ("expert", "collector", "greedy", "cautious", "gambler", "random"),
           "classic": ("expert", "value", "collector", "bargain", "random"),
           "tuscany": ("expert", "builder", "colour_racer", "castle_chainer", "trader", "random")}
RUN = {"games": 3000, "seed": SEED, "seating": "rotate"}
# what depends on the machine or the moment, not on the games
UNSTABLE = {"elapsed_seconds", "games_per_second", "threads"}


def lineup(game: str, players: int) -> str:
    names = LINEUPS[game]
    return ",".join(names[seat % len(names)] for seat in range(players))


def traces():
    """(file name, arguments of medici_sim.trace) of every golden playthrough."""
    import medici_sim.games  # noqa: F401  (registers the games)
    from medici_sim.core.registry import get_game

    for game in LINEUPS:
        definition = get_game(game)
        for players in range(definition.min_players, definition.max_players + 1):
            for seating in SEATINGS:
                yield (f"trace-{game}-{players}p-{seating}.json",
                       {"index": INDEX, "game": game, "players": players, "strategies": lineup(game, players),
                        "seed": SEED, "seating": seating})


def tables(game: str) -> dict:
    """The tables of a 4-player run of every built-in, rotated, as plain JSON."""
    import medici_sim

    report = medici_sim.simulate(game=game, players=4, strategies=lineup(game, 4), **RUN)
    return {"seats": json.loads(report.seats.to_json(orient="records", double_precision=15)),
            "strategies": json.loads(report.strategies.to_json(orient="records", double_precision=15)),
            "summary": {k: v for k, v in report.summary.items() if k not in UNSTABLE}}


def main() -> None:
    import medici_sim

    for name, arguments in traces():
        (HERE / name).write_text(json.dumps(medici_sim.trace(**arguments).data, indent=1) + "\n")
    for game in LINEUPS:
        (HERE / f"tables-{game}.json").write_text(json.dumps(tables(game), indent=1, default=str) + "\n")
    print(f"wrote the golden files in {HERE}", file=sys.stderr)


if __name__ == "__main__":
    main()
