"""Golden playthroughs and tables: the same seed plays the same games and gives the same tables.

The files in tests/golden/ were written by ``tests/golden/regenerate.py``. A change of any
game (a draw, a decision, a payout) or of any number in the tables fails here; when the
change is intended, run the script again and say why in the commit.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import medici_sim

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))
import regenerate  # noqa: E402  (the script that wrote the files says what they hold)

sys.path.remove(str(GOLDEN))


PLAYTHROUGHS = list(regenerate.traces())


@pytest.mark.parametrize(("name", "arguments"), PLAYTHROUGHS, ids=[name for name, _ in PLAYTHROUGHS])
def test_the_golden_playthrough_is_played_again(name, arguments):
    expected = json.loads((GOLDEN / name).read_text())
    assert json.loads(json.dumps(medici_sim.trace(**arguments).data)) == expected


@pytest.mark.parametrize("game", sorted(regenerate.LINEUPS))
def test_the_golden_tables_come_again(game):
    """Every column and summary entry the golden file holds (new ones may be added beside them)."""
    expected = json.loads((GOLDEN / f"tables-{game}.json").read_text())
    actual = json.loads(json.dumps(regenerate.tables(game), default=str))
    for table in ("seats", "strategies"):
        assert len(actual[table]) == len(expected[table])
        for got, want in zip(actual[table], expected[table], strict=True):
            for column, value in want.items():  # numbers to the last digits JSON keeps, the rest exactly
                close = pytest.approx(value, rel=1e-12) if isinstance(value, float) else value
                assert got.get(column) == close, (table, column)
    assert {k: actual["summary"].get(k) for k in expected["summary"]} == expected["summary"]
