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
