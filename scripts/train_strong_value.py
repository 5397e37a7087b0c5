"""Fit The Castles of Tuscany's ``strong`` shortlist's truncated-rollout value (strategies/strong_value.py) and
write its file.

    python scripts/train_strong_value.py                 # the shipped data/strong/value.json (seconds)
    python scripts/train_strong_value.py --games 1000 --out value.json

Expert games at every seat (2-4 players, seats rotated, seed ``--seed``), each seat's position at every round's end
labelled by its final score, one model per phase and fewest tiles left; the fit is exact, so the same arguments
write the same file (the shipped one: 20,000 games a player count, about 30 s and a minute's compilation).
"""
from __future__ import annotations

import json

import numpy as np

from medici_sim.cli.script_options import Parser, count, out_file, seed
from medici_sim.games.tuscany.strategies.strong_value import VALUE_FEATURES, VALUE_FILE, fit_value, value_rows


def main() -> None:
    parser = Parser(__doc__)
    parser.add_argument("--seed", type=seed, default=0)
    parser.add_argument("--games", type=count(), default=20_000, help="expert games per player count")
    parser.add_argument("--out", type=out_file, default=VALUE_FILE)
    args = parser.parse_args()
    weights = {}
    for players in (2, 3, 4):
        x, y, win, cell = value_rows(players, args.games, args.seed)
        weights[str(players)] = np.round(fit_value(x, y, win, cell, players), 6).tolist()
        print(f"{players} players: {len(y)} rows")
    data = {"game": "tuscany", "seed": args.seed, "games_per_player_count": args.games, "lineup": "expert",
            "features": list(VALUE_FEATURES), "columns": list(VALUE_FEATURES) + ["scale"],
            "weights": weights}
    with open(args.out, "w") as out:
        json.dump(data, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
