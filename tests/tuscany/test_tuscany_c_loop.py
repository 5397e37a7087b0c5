"""The Castles of Tuscany's C loop (benchmarks/tuscany_random.c) plays the reference engine's games.

The C loop is the yardstick of the game's speed (issue 32); it is only a yardstick if it plays
the same games. Here it and the reference engine play the same few hundred games (random at every
seat, T38-T39) and their totals must agree: per seat red, green, the points of every source,
tiles and hexagons placed, workers, marble, cards, wins; per run rounds, the round each phase
ended, games at T37's limit, refreshes (T16); and each game's rounds and red per seat. The
component sets and rules cover what the default game seldom reaches: empty decks reshuffled
(T13, T30), an empty neutral supply (T14, T16), hexagons without room (T26), the round limit
(T37), another board layout (T9's slot_shift).
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from medici_sim.games.tuscany.components import components, parse_components
from medici_sim.games.tuscany.rules import COLOURS, RULE_BOOK

BENCH = Path(__file__).parents[2] / "benchmarks" / "bench_tuscany_c.py"
_spec = importlib.util.spec_from_file_location("bench_tuscany_c", BENCH)
bench = sys.modules.setdefault("bench_tuscany_c", importlib.util.module_from_spec(_spec))  # dataclasses look it up
_spec.loader.exec_module(bench)


def scarce():
    """A set that runs short of everything: 3 region cards a colour, 7 yield cards of every kind,
    12 neutral tiles, boards joined along 3 fields (slot_shift 2)."""
    data = json.loads(components().to_json())
    data.update(name="scarce", slot_shift=2, region_cards=dict.fromkeys(COLOURS, 3),
                neutral_tiles={"D": 2, "R": 1, "U": 1, "L": 1, "O": 3, "Y": 1, "W": 2, "G": 1},
                neutral_agriculture=[["olives", "grain"]],
                yield_cards=[{"count": 1, "kind": "hexagon", "amount": 2}, {"count": 2, "kind": "cards", "amount": 3},
                             {"count": 1, "kind": "worker", "amount": 2}, {"count": 1, "kind": "marble", "amount": 1},
                             {"count": 1, "kind": "red", "amount": 1}, {"count": 1, "kind": "green", "amount": 2}])
    return parse_components(json.dumps(data), "scarce")


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    if bench.compiler() is None:
        pytest.skip("no C compiler (cc, or $CC): the C loop cannot be built")
    return bench.build(str(tmp_path_factory.mktemp("tuscany_c")))


# (players, component set, rules, games): about 12 s of the reference engine in all
CASES = [
    (4, None, None, 200),
    (3, None, None, 100),
    (2, None, None, 100),
    (3, "large-regions", "original", 60),
    (2, scarce, None, 60),
    (4, scarce, None, 60),
    (2, None, "stack_size=3,display=6,round_limit=12,final_cards=0", 60),  # T37 in most games
    (4, None, "display=16,stack_size=2,region_scores=0/5/9,monastery_draw=6", 60),
]


@pytest.mark.parametrize(("players", "components_set", "spec", "games"), CASES,
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_the_c_loop_plays_the_reference_engines_games(program, players, components_set, spec, games):
    comp = components_set() if callable(components_set) else components(components_set)
    rules = RULE_BOOK.resolve(spec, players)
    reference = bench.reference_totals(comp, rules, games, seed=7)
    assert bench.check_engine(reference, comp, rules, 7, program) == []
    assert reference.run[bench.RUN_COLUMNS.index("games")] == games


def test_the_check_sees_other_games(program):
    """Totals of other games (another seed) are told apart, the first differing game named."""
    comp, rules = components(), RULE_BOOK.resolve(None, 2)
    reference = bench.reference_totals(comp, rules, 5, seed=1)
    _, other = bench.run_c(program, comp, rules, 5, seed=2, per_game=True)
    wrong = bench.differences(reference, other)
    assert wrong and wrong[0].startswith("game 0: ")
    _, totals_only = bench.run_c(program, comp, rules, 5, seed=2)
    assert not totals_only.games and bench.differences(reference, totals_only)


@pytest.mark.parametrize(("args", "text"), [
    (["4", "10", "0"], "tuscany-c-input 1\nrules 3 5\n"),  # cut short
    (["4", "10", "0"], "tuscany-c-input 2\n"),  # another format
    (["5", "10", "0"], None),  # players
    (["4", "0", "0"], None),  # games
    (["4", "10", "0", "verbose"], None),
])
def test_the_c_loop_refuses_bad_input_in_one_line(program, args, text):
    stdin = text if text is not None else bench.c_input(components(), RULE_BOOK.resolve(None, 4))
    done = subprocess.run([program, *args], input=stdin, capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
