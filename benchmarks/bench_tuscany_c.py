"""The Castles of Tuscany's C loop: checked against the reference engine, then timed on one core.

    python benchmarks/bench_tuscany_c.py                       # 4 players, 100,000 games, best of 3
    python benchmarks/bench_tuscany_c.py --players 2 --check 500 --components large-regions --rules original

``tuscany_random.c`` (built here with the system's ``cc -O2``) plays the whole game (T10-T37)
with the canonical random player (T38-T39) at every seat, drawing exactly as the reference
engine (``games/tuscany/reference.py``) does, for any component set and rule set: this script
writes both on the program's stdin (:func:`c_input`). It first plays ``--check`` games on both
and compares their totals (per seat: red, points by source, tiles placed, workers, marble,
cards, wins; per run: rounds, the round each phase ended, refreshes) and each game's rounds and
red per seat; only when they agree does it time the C loop, ``--repeat`` times, on one core
(this process and the program pinned to it), and print the best games per CPU second.

The engine against it, on the same games checked and in turns: ``bench_versus_c.py --game
tuscany``, which runs the program through :func:`run_c` and reads the engine's totals in
:data:`SEAT_COLUMNS` and :data:`RUN_COLUMNS`; :func:`check_engine` compares any engine's totals
(a :class:`Totals`) with the C loop's on the same games, and says where they differ.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from medici_sim.cli.script_options import Parser, count, seed
from medici_sim.core.rules import RulesError, RuleSet
from medici_sim.games.tuscany.components import ComponentError, Components, components
from medici_sim.games.tuscany.reference import GREEN_SOURCES, RED_SOURCES, play_game
from medici_sim.games.tuscany.reference_players import RandomPlayer
from medici_sim.games.tuscany.rules import COLOURS, PHASES, RULE_BOOK

HERE = Path(__file__).parent
SOURCE = HERE / "tuscany_random.c"
COUNTS = ("tiles_placed", "hexagons_placed", "workers_gained", "workers_used", "marble_gained", "marble_used",
          "cards_drawn", "yield_drawn")
LEFT = ("cards_left", "workers_left", "marble_left", "storage_left", "empty_fields", "bonus_tiles")
# the C loop's columns, summed over the games: per seat, and per run (the same order as its enums)
SEAT_COLUMNS = ("red", "red_sq", "green", *GREEN_SOURCES, *RED_SOURCES, *COUNTS, *LEFT, "winner_share60")
RUN_COLUMNS = ("games", "rounds", "rounds_sq", *(f"phase{n}_end" for n in range(1, PHASES + 1)), "reached_limit",
               "refreshes")
RULES = ("draw", "start_hand", "monastery_draw", "region_scores", "storage_green", "no_room_red", "final_storage",
         "final_marble", "final_worker", "final_cards", "stack_size", "display", "round_limit")


@dataclass
class Totals:
    """Totals over a run of games: ``seat`` (players x SEAT_COLUMNS), ``run`` (RUN_COLUMNS), and,
    where kept, each game's (rounds, red per seat)."""

    seat: np.ndarray
    run: np.ndarray
    games: list[tuple[int, ...]] = field(default_factory=list)


def totals_from_records(records: list[dict]) -> Totals:
    """The totals of games given by their records (the reference engine's ``Game.record``)."""
    players = len(records[0]["seats"]["red"])
    seat = np.zeros((players, len(SEAT_COLUMNS)), np.int64)
    run = np.zeros(len(RUN_COLUMNS), np.int64)
    games = []
    for record in records:
        seats = record["seats"]
        red = np.array(seats["red"], np.int64)
        seat += np.array([red, red * red, *(seats[c] for c in SEAT_COLUMNS[2:])], np.int64).T
        run += np.array([1, record["rounds"], record["rounds"] ** 2, *record["phase_end_round"],
                         record["reached_limit"], record["refreshes"]], np.int64)
        games.append((record["rounds"], *seats["red"]))
    return Totals(seat, run, games)


def reference_totals(comp: Components, rules: RuleSet, games: int, seed: int) -> Totals:
    """The reference engine's totals over games 0..games-1 of ``seed``, random at every seat, fixed seating."""
    return totals_from_records([play_game(comp, rules, [RandomPlayer() for _ in range(rules.players)], seed, index)
                                for index in range(games)])


def c_input(comp: Components, rules: RuleSet) -> str:
    """The rule set and the component set as tuscany_random.c reads them on stdin: a key word, its numbers."""
    def line(key, *numbers):
        return " ".join([key, *map(str, numbers)]) + "\n"

    values = [v for name in RULES for v in (rules[name] if name == "region_scores" else (rules[name],))]
    boards = [n for b in comp.boards for n in (b.type, *(COLOURS.index(c) for c in b.cells))]  # in name order
    return "".join([
        line("tuscany-c-input", 1), line("rules", *values),
        line("player_tiles", *comp.player_tiles), line("player_agriculture", *comp.player_agriculture),
        line("neutral_tiles", *comp.neutral_tiles), line("neutral_agriculture", *comp.neutral_agriculture),
        line("region_cards", *comp.region_cards),
        line("yield_cards", len(comp.yield_cards), *(n for c in comp.yield_cards for n in (c.count, c.kind, c.amount))),
        line("colour_bonus", *(v for pair in comp.colour_bonus for v in pair)), line("slot_shift", comp.slot_shift),
        line("boards", len(comp.boards), *boards), line("end")])


def compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("cc")


def build(directory: str) -> str:
    """Compile tuscany_random.c with ``cc -O2`` into ``directory``; the program's path."""
    cc = compiler()
    if cc is None:
        raise RuntimeError("no C compiler (`cc`, or $CC) found")
    program = os.path.join(directory, "tuscany_random")
    subprocess.run([cc, "-O2", "-o", program, str(SOURCE)], check=True)
    return program


def run_c(program: str, comp: Components, rules: RuleSet, games: int, seed: int,
          per_game: bool = False) -> tuple[float, Totals]:
    """(CPU seconds of the game loop, totals) of one run of the C loop; ``per_game`` keeps each game's line."""
    done = subprocess.run([program, str(rules.players), str(games), str(seed), *(["per-game"] if per_game else [])],
                          input=c_input(comp, rules), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"tuscany_random failed (exit {done.returncode}): {done.stderr.strip() or 'no message'}")
    lines = [line.split() for line in done.stdout.splitlines()]
    by_game = [tuple(map(int, words[2:])) for words in lines if words[0] == "game"]
    totals = {words[0]: words[1:] for words in lines if words[0] in ("cpu_seconds", "run")}
    seat = np.array([words[1:] for words in lines if words[0] == "seat"], np.int64)
    return float(totals["cpu_seconds"][0]), Totals(seat, np.array(totals["run"], np.int64), by_game)


def differences(engine: Totals, c: Totals) -> list[str]:
    """Where two runs' totals differ, in words (empty: they played the same games)."""
    found = []
    if engine.games and c.games and engine.games != c.games:
        first = next(i for i, (a, b) in enumerate(zip(engine.games, c.games, strict=False)) if a != b)
        found.append(f"game {first}: rounds and red per seat {engine.games[first]} against C's {c.games[first]}")
    for k, name in enumerate(RUN_COLUMNS):
        if engine.run[k] != c.run[k]:
            found.append(f"{name}: {engine.run[k]} against C's {c.run[k]}")
    for k, name in enumerate(SEAT_COLUMNS):
        if not np.array_equal(engine.seat[:, k], c.seat[:, k]):
            found.append(f"{name} per seat: {engine.seat[:, k].tolist()} against C's {c.seat[:, k].tolist()}")
    return found


def check_engine(engine: Totals, comp: Components, rules: RuleSet, seed: int, program: str | None = None) -> list[str]:
    """The hook: an engine's totals over games 0..n-1 of ``seed`` (random at every seat, fixed
    seating) against the C loop's over the same games; the differences in words."""
    games = int(engine.run[RUN_COLUMNS.index("games")])
    if program is not None:
        return differences(engine, run_c(program, comp, rules, games, seed, per_game=bool(engine.games))[1])
    with tempfile.TemporaryDirectory() as directory:
        return check_engine(engine, comp, rules, seed, build(directory))


def main() -> None:
    parser = Parser(__doc__)
    parser.add_argument("--players", type=count(2, 4), default=4)
    parser.add_argument("--games", type=count(1, 10**10), default=100_000, help="games timed [100,000]")
    parser.add_argument("--repeat", type=count(1, 1000), default=3)
    parser.add_argument("--seed", type=seed, default=0)
    parser.add_argument("--check", type=count(0, 100_000), default=200,
                        help="games compared with the reference engine first (0: none) [200]")
    parser.add_argument("--components", default=None, help="a shipped component set's name or a file [reconstructed]")
    parser.add_argument("--rules", default=None, help="rule parameters, e.g. original or draw=2 [the rulebook's]")
    args = parser.parse_args()
    try:
        comp = components(args.components)
    except ComponentError as exc:
        parser.refuse("--components", str(exc))
    try:
        rules = RULE_BOOK.resolve(args.rules, args.players)
    except RulesError as exc:
        parser.refuse("--rules", str(exc))
    if 3 * rules["stack_size"] > sum(comp.player_tiles):
        parser.refuse("--rules", f"stack_size={rules['stack_size']} needs {3 * rules['stack_size']} tiles per player; "
                                 f"components {comp.name} give {sum(comp.player_tiles)} (T10)")
    if compiler() is None:
        sys.exit("bench_tuscany_c: no C compiler (`cc`, or $CC) found")
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})  # this process and the C program it starts: one core
    with tempfile.TemporaryDirectory() as directory:
        try:
            program = build(directory)
            wrong = check_engine(reference_totals(comp, rules, args.check, args.seed), comp, rules, args.seed,
                                 program) if args.check else []
            if wrong:
                sys.exit(f"bench_tuscany_c: the C loop and the reference engine played different games; nothing "
                         f"timed: {'; '.join(wrong[:3])}")
            best = min(run_c(program, comp, rules, args.games, args.seed)[0] for _ in range(args.repeat))
        except (RuntimeError, subprocess.CalledProcessError) as exc:
            sys.exit(f"bench_tuscany_c: {exc}")
    checked = f"the same games as the reference engine on {args.check:,}" if args.check else "not checked"
    print(f"tuscany random at every seat, {args.players} players, components {comp.name}, rules "
          f"{rules.spec}: {args.games:,} games, "
          f"best of {args.repeat}, {checked}")
    print(f"C loop (cc -O2), CPU {core}: {args.games / best:,.0f} games/s")


if __name__ == "__main__":
    main()
