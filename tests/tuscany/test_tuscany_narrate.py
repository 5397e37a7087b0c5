"""The Castles of Tuscany told (narrate.py, ``medici-sim trace --game tuscany``): one game decision by
decision with its rule points, each estate drawn as a hex map within 100 columns, the phases' banking,
the final scoring and T36's standings; the game told is the kernel's (recording.trace: the reference
engine's record), and its green adds up."""
from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

from medici_sim.core.driver import SeatStrategy
from medici_sim.games.tuscany import narrate, recording
from medici_sim.games.tuscany.components import components
from medici_sim.games.tuscany.recording import Games
from medici_sim.games.tuscany.rules import RULE_BOOK


class Run:
    """What narrate reads of a core.driver.PreparedRun, built from recording.Games (no registration needed)."""

    def __init__(self, players: int, seed: int):
        g = Games(components(), RULE_BOOK.resolve(None, players), ["random"] * players)
        self.inputs, self.seating, self.table = g.buffer, g.seating, g.table
        self.slot_strategy, self.slot_params = g.slot_strategy, g.slot_params
        self.config = SimpleNamespace(seed=seed, players=players, rules="standard", seating="fixed", components=None,
                                      rule_set=RULE_BOOK.resolve(None, players),
                                      strategies=[SeatStrategy("random", game="card")] * players)

    def trace(self, game_index: int):
        return recording.trace(self, game_index)


@pytest.mark.parametrize("players", [2, 4])
def test_the_story_is_the_kernels_game_with_its_rule_points_and_maps(players):
    run = Run(players, seed=11)
    data, text = narrate.narrate(run, 0)
    json.dumps(data)
    assert data["record"] == recording.reference_game(run.config, 0)
    assert max(map(len, text.splitlines())) <= 100
    for words in ("Setup (T12)", "assembly", "(T13)", "(T14)", "(T18)", "(T34)", "Final scoring (T35)",
                  "Standings (T36", "[@]", "seat 1's estate"):
        assert words in text, words
    assert len(data["setup"]) == 3 * players  # assembly, castle field, bonus tile
    assert len(data["phases"]) == 3 or data["phases"][-1]["reached_limit"]
    assert [s["seat"] for s in data["final"]["standings"]][:len(data["final"]["winners"])] == sorted(
        data["final"]["winners"]) or len(data["final"]["winners"]) == 1
    red = [s["red"] for s in sorted(data["final"]["standings"], key=lambda s: s["seat"])]
    assert red == data["record"]["seats"]["red"]


def test_the_hex_map_staggers_rows_as_the_hexagons_lie():
    from medici_sim.games.tuscany.board_text import estate_lines
    from medici_sim.games.tuscany.stepped import STEPPING

    run = Run(2, seed=1)
    state = STEPPING.trace_game_nb(1, 0, run.inputs, run.seating, run.slot_strategy, run.slot_params, run.table)[0]
    lines = estate_lines(state, 0)
    assert len(lines) == 6  # three boards of two rows (T9)
    assert all(len(line) <= 40 for line in lines)
    indents = [len(line) - len(line.lstrip()) for line in lines]
    assert indents[1] > indents[0] and indents[3] > indents[2]  # each board's second row sits half a field in
    assert sum(line.count("[@]") for line in lines) == 1  # the starting castle (T12)
    assert np.sum(state["field_item"][0] != -3) == sum(line.count("[") + line.count("<") for line in lines)
