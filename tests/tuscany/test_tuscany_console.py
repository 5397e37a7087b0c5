"""The Castles of Tuscany at the keyboard (console.py, ``medici-sim play --game tuscany``): the person is
offered every choice the rules allow, numbered (the stepping's legal choices), a number out of range is
asked again, the bots' decisions and each phase are told, and the game ends with T36's standings."""
from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np

from medici_sim.core.driver import SeatStrategy
from medici_sim.games.tuscany.components import components
from medici_sim.games.tuscany.console import TuscanyConsole
from medici_sim.games.tuscany.recording import Games
from medici_sim.games.tuscany.rules import RULE_BOOK


def kernel(players: int, seed: int):
    """What the console reads of a PreparedRun whose slot 0 is ``human`` (no registration needed)."""
    g = Games(components(), RULE_BOOK.resolve(None, players), ["random"] * players)
    return SimpleNamespace(inputs=g.buffer, seating=g.seating, table=g.table, slot_params=g.slot_params,
                           table_names=("random", "human"), slot_strategy=np.array([1] + [0] * (players - 1)),
                           config=SimpleNamespace(seed=seed, players=players, rules=RULE_BOOK.resolve(None, players),
                                                  strategies=[SeatStrategy("random", game="card")] * players))


def test_a_person_plays_a_whole_game_offered_every_legal_choice():
    said: list[str] = []
    asked = {"n": 0, "bad": 0}
    generator = np.random.default_rng(0)
    console = None

    def ask(question, default, parse):
        asked["n"] += 1
        high = int(re.search(r"1-(\d+)", question).group(1))
        assert high == len(console.legal_choices())  # every legal choice offered, numbered 1..n
        if asked["bad"] == 0:  # once: a number out of range is refused, and asked again
            asked["bad"] += 1
            try:
                parse(str(high + 1))
            except ValueError as exc:
                assert "type 1 to" in str(exc)
            else:
                raise AssertionError("a number out of range was taken")
        return parse(str(int(generator.integers(1, high + 1))))

    console = TuscanyConsole(kernel(3, 4), 0, ["human", "random", "random"], said.append, ask)
    console.play()
    text = "\n".join(said)
    assert asked["n"] > 20
    for words in ("Your decision: assembly (T12)", "Your decision: action (T13)", "seat 2 random:",
                  "Phase 1 is over", "seat 1's estate (yours)"):
        assert words in text, words
    standings = console.standings()
    assert "Final standings" in standings and ("Winner" in standings or "win" in standings)
    assert max(len(line) for line in (text + "\n" + standings).splitlines()) <= 100


def test_each_assembly_offered_is_drawn_as_the_estate_it_lays():
    """T9, T12: the person picks an assembly from drawings, not bare numbers: each legal choice is drawn, and the
    drawing of the one picked is the estate the game then lays (every field's colour, in the estate's map)."""
    from medici_sim.games.tuscany.board_text import assembly_lines, hex_lines, shift_of
    from medici_sim.games.tuscany.rules import COLOURS

    said: list[str] = []
    picked = {}
    console = None

    def ask(question, default, parse):
        if not picked:
            choices = console.legal_choices()
            picked["offered"] = len(choices)
            picked["option"] = int(console.s["options"][choices[-1]])
            picked["drawn"] = assembly_lines(console.s, 0, picked["option"])
            return parse(str(len(choices)))
        raise KeyboardInterrupt  # enough: the estate is laid

    console = TuscanyConsole(kernel(2, 7), 0, ["human", "random"], said.append, ask)
    try:
        console.play()
    except KeyboardInterrupt:
        pass
    text = "\n".join(said)
    assert "The estates your three boards can make (T9, T12):" in text
    drawn = text.split("The estates your three boards can make (T9, T12):")[1].split("Your decision")[0]
    assert re.findall(r"(\d+)\)", drawn) == [str(n) for n in range(1, picked["offered"] + 1)]
    assert f"assembly {picked['option']} (boards " in text
    laid = hex_lines([COLOURS[int(c)].lower() for c in console.s["colour"][0]], shift_of(console.s), cell=2)
    assert console.s["assembly"][0] == picked["option"] and laid == picked["drawn"]
