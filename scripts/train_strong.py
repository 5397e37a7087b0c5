"""Train a game's ``strong`` player and write its weights file (study.strong_training).

    python scripts/train_strong.py --game card --seed 0              # the shipped file
    python scripts/train_strong.py --game tuscany --seed 0           # Tuscany's (3 rounds of 32 games: 5 min, 2 cores)
    python scripts/train_strong.py --game card --seed 0 --games 100 --rollouts 4 --out weights.json
    python scripts/train_strong.py --game card --seed 4 --games 20 --rollouts 2 --players 3 \
        --out tests/strong_short_training.json                       # the short training's reference

The same arguments write the same file: the games are fixed by the seed, the fit is exact.
"""
from __future__ import annotations

import os
import time

import medici_sim.games  # noqa: F401  (registers the games)
from medici_sim.cli.script_options import Parser, out_file
from medici_sim.core.arguments import ConfigError
from medici_sim.core.output import OutputError
from medici_sim.study.strong_training import train_and_write

GAMES = {"card": 300, "classic": 600, "tuscany": 32}  # games per player count (and round): the shipped files'
ROLLOUTS = {"card": 8, "classic": 8, "tuscany": 16}  # search's rollouts of each legal choice: the shipped files'


def main() -> None:
    parser = Parser(__doc__)
    parser.add_argument("--game", required=True, choices=tuple(GAMES))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int,
                        help="games per player count (and self-play round) [card 300, classic 600, tuscany 32]")
    parser.add_argument("--rollouts", type=int, help="rollouts of each choice [card 8, classic 8, tuscany 16]")
    parser.add_argument("--players", type=int, action="append",
                        help="a player count to train [every one the game has]")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes training player counts side by side (the same weights) [the CPUs]")
    parser.add_argument("--out", type=out_file, help="where to write the weights [the game's shipped file]")
    args = parser.parse_args()
    began = time.perf_counter()
    games = GAMES[args.game] if args.games is None else args.games
    rollouts = ROLLOUTS[args.game] if args.rollouts is None else args.rollouts
    try:  # every argument is checked before the training starts (study.strong_training.check_training)
        path = train_and_write(args.game, args.seed, games, rollouts, args.out, args.players, args.jobs)
    except (ConfigError, OutputError) as exc:
        parser.error(str(exc))
    except KeyboardInterrupt:
        parser.exit(130, "train_strong.py: interrupted; nothing written\n")
    print(f"wrote {path} ({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
