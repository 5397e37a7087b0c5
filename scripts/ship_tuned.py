"""Write the tuned parameters a game ships from a whole ``tune --out FILE.json``.

``medici-sim tune --out FILE.json`` writes every table of a tuning: its summary, the tuned
parameters, the history of every evaluation, the rounds and the rules' cross check. The
package reads two of them (``balance --tuned shipped`` and search's ``tuned`` policies):
``tuned`` and ``cross_check``. This script keeps those, so the installed package holds what
it reads; the whole file stays in the repository as the tuning's provenance
(``tuning-history/``, see its README).

    python scripts/ship_tuned.py tuning-history/card.json src/medici_sim/games/card/data/tuned/tuned.json
"""
from __future__ import annotations

import json
import sys

from medici_sim.cli.script_options import Parser, in_file, out_file
from medici_sim.core.checkpoint import current_keys
from medici_sim.study.tuning import OLDER_TUNED_KEYS

SHIPPED_TABLES = ("tuned", "cross_check")  # what study.tuning.load_tuned and the search players read


def shipped(document: dict, source: str) -> dict:
    """The shipped part of a ``tune --out`` document, and where it came from (an older document's keys under
    today's names: study.tuning.OLDER_TUNED_KEYS)."""
    missing = [table for table in SHIPPED_TABLES if not isinstance(document.get(table), list)]
    if missing:
        raise ValueError(f"{source}: not a file written by tune --out FILE.json (no {missing[0]} table)")
    return {"source": f"{source} (tune --out; its {', '.join(SHIPPED_TABLES)} tables)",
            **{table: [current_keys(row, OLDER_TUNED_KEYS) for row in document[table]] for table in SHIPPED_TABLES}}


def main(argv: list[str] | None = None) -> int:
    parser = Parser(__doc__.splitlines()[0])
    parser.add_argument("tune_out", type=in_file, help="a tune --out FILE.json")
    parser.add_argument("shipped", type=out_file, help="the file to write (games/GAME/data/tuned/tuned.json)")
    args = parser.parse_args(argv)
    try:
        document = json.loads(args.tune_out.read_text())
        text = json.dumps(shipped(document, args.tune_out.as_posix()), indent=1) + "\n"
    except (OSError, ValueError) as exc:
        print(f"ship_tuned: error: {exc}", file=sys.stderr)
        return 2
    args.shipped.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
