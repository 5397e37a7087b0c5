"""What tuning gained, per strategy, rules and player count: the tables docs/findings.md shows.

Reads a game's shipped tuned parameters (``games/GAME/data/tuned/tuned.json``, whose
``tuned`` table is tune's fresh check) and prints one markdown table: the tuned seat's win
rate minus the default's, in points, with the half-width of its 95% interval (the paired
per-game difference: both played every fresh game), or "none" where the improvement was not
significant and the defaults are kept.

    python scripts/tuning_gains.py card
"""
from __future__ import annotations

import json
from pathlib import Path

from medici_sim.cli.script_options import Parser

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "medici_sim"


def gains_table(game: str) -> str:
    rows = json.loads((PACKAGE / "games" / game / "data" / "tuned" / "tuned.json").read_text())["tuned"]
    counts = sorted({row["players"] for row in rows})
    rules = list(dict.fromkeys(row["rules"] for row in rows))
    cells: dict[tuple[str, str], dict[int, str]] = {}
    for row in rows:
        half = 100 * (row["improvement_ci_high"] - row["improvement"])
        cells.setdefault((row["strategy"], row["rules"]), {})[row["players"]] = (
            f"{100 * row['improvement']:+.1f} ± {half:.1f}" if row["significant"] else "none")
    by_rules = len(rules) > 1
    head = [game, *(["rules"] if by_rules else []), *(f"{n} players" for n in counts)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (strategy, variant), by_count in cells.items():
        lines.append("| " + " | ".join([strategy, *([variant] if by_rules else []),
                                        *(by_count.get(n, "") for n in counts)]) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = Parser(__doc__.splitlines()[0])
    parser.add_argument("game", choices=("card", "classic"), help="the game whose shipped tuning to show")
    print(gains_table(parser.parse_args().game))


if __name__ == "__main__":
    main()
