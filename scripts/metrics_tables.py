"""The closing tables of docs/metrics.md, measured once and saved: the designer metrics of both
games at every player count (every seat random, then every seat expert) and the card game's
bonus20 ladder at 4 players (every level the game has, strong included).

Measuring plays a few minutes (the search levels most of it) and saves the rows with the date,
the commands and the versions in ``docs/metrics-measured.json``; showing reads that file and
prints markdown, so the documentation's blocks (``docs/generate_outputs.py``) are checked
without playing again.

    python scripts/metrics_tables.py measure    # play and save
    python scripts/metrics_tables.py metrics    # the metrics table
    python scripts/metrics_tables.py ladder     # the ladder table and its words
"""
from __future__ import annotations

import datetime
import json
import tempfile
from pathlib import Path

SAVED = Path(__file__).resolve().parents[1] / "docs" / "metrics-measured.json"
SEED = 1
METRICS_GAMES = 50_000  # per row of the metrics table
LADDER_GAMES = 40_000  # the ladder's --games (the search and strong levels play a share of them)
PLAYER_COUNTS = {"card": range(2, 7), "classic": range(3, 7)}
PLAY = ("random", "expert")
LADDER_COMMAND = ["balance", "--ladder", "--game", "card", "--players", "4", "--games", str(LADDER_GAMES),
                  "--seed", str(SEED), "--quiet"]


def measure() -> dict:
    """Play every row and the ladder (through the Python API and the command line)."""
    import medici_sim
    from medici_sim.cli import main
    from medici_sim.study.report import versions

    rows = []
    for game, counts in PLAYER_COUNTS.items():
        for play in PLAY:
            for players in counts:
                [row] = medici_sim.simulate(METRICS_GAMES, game=game, players=players, strategies=play,
                                            seating="rotate", seed=SEED).metrics.to_dict("records")
                rows.append({"game": game, "play": play, **row})
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch, "ladder.json")
        try:
            main([*LADDER_COMMAND, "--out", str(out)])
        except SystemExit as stop:
            if stop.code not in (0, None):
                raise
        ladder = json.loads(out.read_text())
    return {"measured": datetime.date.today().isoformat(), "versions": versions(),
            "metrics_call": f"medici_sim.simulate({METRICS_GAMES}, game=GAME, players=N, strategies=PLAY, "
                            f"seating='rotate', seed={SEED}).metrics",
            "ladder_command": "medici-sim " + " ".join(LADDER_COMMAND),
            "metrics": rows, "ladder": ladder["ladder"], "ladder_summary": ladder["summary"]}


def _interval(row: dict, name: str, scale: float = 1, digits: int = 2) -> str:
    return (f"{scale * row[name]:.{digits}f} ({scale * row[name + '_ci_low']:.{digits}f}-"
            f"{scale * row[name + '_ci_high']:.{digits}f})")


def metrics_table(saved: dict) -> str:
    """One markdown row per game, play and player count; 95% intervals in brackets."""
    lines = [f"Measured on {saved['measured']} (medici-sim {saved['versions']['medici-sim']}): "
             f"{saved['metrics'][0]['games']:,} games per row, `{saved['metrics_call']}`.", "",
             "| game | play | players | comeback after day 1, % | after day 2, % | lead changes | margin | "
             "margin p25/p50/p75/p90 | joint wins, % | length | days run out, % |",
             "|---|---|---:|---|---|---|---|---|---|---:|---:|"]
    for row in saved["metrics"]:
        length = next(k for k in row if k.endswith("_per_game"))
        quantiles = "/".join(f"{row[f'margin_p{q}']:.0f}" for q in (25, 50, 75, 90))
        lines.append(f"| {row['game']} | {row['play']} | {row['players']} | "
                     f"{_interval(row, 'comeback_after_day1', 100, 1)} | "
                     f"{_interval(row, 'comeback_after_day2', 100, 1)} | "
                     f"{_interval(row, 'lead_changes')} | {_interval(row, 'margin', 1, 1)} | {quantiles} | "
                     f"{_interval(row, 'shared_win_games', 100, 1)} | {row[length]:.1f} | "
                     f"{100 * row['ran_out_day_share']:.1f} |")
    return "\n".join(lines)


def ladder_table(saved: dict) -> str:
    """The ladder as findings by level, in percentage points (· : not clear), and its words."""
    from medici_sim.study.ladder import ladder_frame, ladder_words

    table = ladder_frame(saved["ladder"])
    levels = list(dict.fromkeys(table["level"]))
    lines = [f"Measured on {saved['measured']} (medici-sim {saved['versions']['medici-sim']}): "
             f"`{saved['ladder_command']}`; percentage points with 95% intervals (· : not clear, the interval "
             "holds 0).", "", "| finding | " + " | ".join(levels) + " |", "|---|" + "---|" * len(levels)]
    for finding, rows in table.groupby("finding", sort=False):
        cells = {row.level: f"{100 * row.value:+.1f} ({100 * row.value_ci_low:+.1f} to {100 * row.value_ci_high:+.1f})"
                            + ("" if row.significant else " ·") for row in rows.itertuples()}
        lines.append(f"| {finding} | " + " | ".join(cells.get(level, "") for level in levels) + " |")
    games = dict(zip(table["level"], table["games"], strict=False))
    lines += ["| games per rule set | " + " | ".join(f"{games[level]:,}" for level in levels) + " |", "",
              ladder_words(table)]
    return "\n".join(lines)


def main() -> None:
    from medici_sim.cli.script_options import Parser

    parser = Parser(__doc__.splitlines()[0])
    parser.add_argument("what", choices=("measure", "metrics", "ladder"))
    what = parser.parse_args().what
    if what == "measure":
        SAVED.write_text(json.dumps(measure(), indent=1) + "\n")
        print(f"wrote {SAVED}")
        return
    saved = json.loads(SAVED.read_text())
    print(metrics_table(saved) if what == "metrics" else ladder_table(saved))


if __name__ == "__main__":
    main()
