"""``medici-sim trace``: the narrated game is the kernel's game (R25, C20), told right.

For both games and many (seed, index) pairs over player counts, seatings, variants and
strategies (expert included), the narration's final florins and winners equal what the
simulation's kernel credits for that very game (``PreparedRun.play(G, 1)``); the text holds every
day's scoring and the winners; the JSON round-trips; a narrator fed a record that disagrees
with its replay refuses it; bad input is one line and exit code 2.
"""
from __future__ import annotations

import dataclasses
import json
import os
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from conftest import SMALL_DECK, run, tiny_deck

from medici_sim.core.accounting import STAT_SCORE, STAT_WIN60
from medici_sim.core.driver import PreparedRun
from medici_sim.core.narration import NarrationMismatch
from medici_sim.core.tracing import narrate_game, trace_config
from medici_sim.games.card import narrate as card_narrate
from medici_sim.games.classic import narrate as classic_narrate
from medici_sim.games.medici.scoring import STAT_BONUS, STAT_MAJORITY, STAT_SHIP

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# (game, players, strategies, seating, variant, seed, first index): 10 games each, 80 in all
CONFIGS = [
    ("card", 4, "expert,greedy,random,collector", "fixed", None, 1, 0),
    ("card", 2, "expert,random", "rotate", "bonus20", 5, 1_000),
    ("card", 3, "greedy,collector:focus=1,cautious", "random", None, 9, 10**12),
    ("card", 6, "gambler,expert,random,greedy,cautious,collector", "rotate", "bonus20", 2, 77),
    ("classic", 4, "random", "fixed", None, 1, 0),
    ("classic", 3, "expert,collector,random", "rotate", None, 4, 500),
    ("classic", 5, "expert,bargain,value,collector,random", "random", None, 8, 10**14),
    ("classic", 6, "random,expert,value,bargain,collector,expert:margin=3", "rotate", None, 3, 31),
]
GAMES_PER_CONFIG = 10


@cache
def kernel(game, players, strategies, seating, variant, seed, deck_rows=None) -> PreparedRun:
    config = trace_config(game, players, strategies, seed, 0, seating, variant, None)
    if deck_rows is not None:
        config = dataclasses.replace(config, components=tiny_deck(deck_rows))
    return PreparedRun(config)


def kernel_outcome(k: PreparedRun, index: int):
    """What the simulation credits for game ``index`` (by seat): the totals of playing it alone."""
    return k.play(index, 1).seat


def check_against_kernel(k: PreparedRun, index: int) -> dict:
    data, text = k.game.presentation.narrate(k, index)
    seat = kernel_outcome(k, index)
    money = "florins" if k.game.name == "card" else "money"
    assert data["final"][money] == seat[:, STAT_SCORE].tolist()
    assert data["final"]["win60"] == seat[:, STAT_WIN60].tolist()
    assert data["final"]["winners"] == [s + 1 for s in np.flatnonzero(seat[:, STAT_WIN60])]
    by_seat = {row["seat"]: row for row in data["final"]["standings"]}
    for s in range(k.config.players):
        row = by_seat[s + 1]
        assert (row["ship"], row["majority"], row["bonus"]) == tuple(seat[s, [STAT_SHIP, STAT_MAJORITY, STAT_BONUS]])
    # the text: every day's scoring, every seat's total after it, the winners
    for day in data["days"]:
        assert f"Scoring of day {day['day']}" in text
        for t in day["scoring"]["totals"]:
            assert f"seat {t['seat']}: ships {t['ship']} + majorities {t['majority']} + bonuses {t['bonus']}" in text
    winners = data["final"]["winners"]
    if len(winners) == 1:
        assert f"Winner: seat {winners[0]} " in text
    else:
        assert "Winners: seats " + ", ".join(map(str, winners[:-1])) + f" and {winners[-1]} share the win" in text
    assert json.loads(json.dumps(data)) == data
    return data


@pytest.mark.parametrize("game, players, strategies, seating, variant, seed, first", CONFIGS)
def test_trace_is_the_kernels_game(game, players, strategies, seating, variant, seed, first):
    """R25 / C20: the narrated game G of seed S ends as the simulation's game G of seed S."""
    k = kernel(game, players, strategies, seating, variant, seed)
    for index in range(first, first + GAMES_PER_CONFIG):
        data = check_against_kernel(k, index)
        assert (data["seed"], data["index"], data["players"]) == (seed, index, players)
        assert [s["slot"] - 1 for s in data["seats"]] == k.trace(index).seat_slot.tolist()


def test_card_days_that_run_out_are_told():
    """R12 with a 19-card deck: the narration replays days that run out and still agrees."""
    k = kernel("card", 4, "random,expert,greedy,random", "fixed", None, 0, SMALL_DECK)
    ran_out = 0
    for index in range(10):
        data = check_against_kernel(k, index)
        ran_out += sum(day["end"] == "ran out" for day in data["days"])
        assert len(data["cards"]) == 19
    assert ran_out > 0


def test_card_turns_rebuild_the_market():
    """R9-R11: each turn's market is the last one's leftovers plus its reveals; the last card
    is always taken; the R11 final turn is the day's last."""
    k = kernel("card", 4, "expert,greedy,random,collector", "fixed", None, 1)
    data, _ = card_narrate.narrate(k, 7)
    for day in data["days"]:
        market = []
        for turn in day["turns"]:
            assert turn["market_before"] == market
            offer = market + turn["revealed"]
            assert turn["taken"][0] == offer[-1] and turn["taken_from"][0] == 1
            assert [offer[-b] for b in turn["taken_from"]] == turn["taken"]
            market = turn["left"]
            assert sorted(market + turn["taken"]) == sorted(offer)
        assert day["turns"][-1]["final"] == (day["end"] == "final turn")
        assert sum(t["final"] for t in day["turns"]) <= 1


def test_classic_turns_follow_the_auction_rules():
    """C8-C11 as told: a lot of 1-3 cards, bids rising in speaking order, the winner paying."""
    k = kernel("classic", 4, "random", "fixed", None, 1)
    data, _ = classic_narrate.narrate(k, 7)
    for day in data["days"]:
        money = list(day["money_at_start"])
        for turn in day["turns"]:
            assert 1 <= len(turn["lot"]) <= 3
            assert [b["seat"] for b in turn["bids"]][-1] == turn["auctioneer"]  # C9: the auctioneer speaks last
            bids = [b["bid"] for b in turn["bids"] if b["bid"]]
            assert bids == sorted(set(bids))
            if turn["winner"] is not None:
                assert turn["price"] == bids[-1]
                money[turn["winner"] - 1] -= turn["price"]
            assert turn["money"] == money


def narrator(game):
    return card_narrate if game == "card" else classic_narrate


@pytest.mark.parametrize("game, field", [("card", "day_ship_pay"), ("card", "day_majority_pay"),
                                         ("card", "day_bonus_pay"), ("card", "day_ship_value"),
                                         ("classic", "ship_pay"), ("classic", "bonus_pay"), ("classic", "money")])
def test_a_record_that_disagrees_is_refused(game, field, monkeypatch):
    """The narrator checks its replay against the kernel's record: a payout off by one florin
    (as if the kernel had scored differently) stops it."""
    k = kernel(game, 4, "random", "fixed", None, 1)
    real = k.trace(7)
    changed = getattr(real, field).copy()
    changed[1, 2] += 1
    monkeypatch.setattr(k, "trace", lambda index: dataclasses.replace(real, **{field: changed}))
    with pytest.raises(NarrationMismatch):
        narrator(game).narrate(k, 7)


def test_a_turn_log_that_disagrees_is_refused(monkeypatch):
    k = kernel("card", 4, "random", "fixed", None, 1)
    real = k.trace(7)
    turns = [t.copy() for t in real.day_turns]
    turns[1][3] ^= 1 << card_narrate.TURN_TAKE_AT  # another take on one turn of day 2
    monkeypatch.setattr(k, "trace", lambda index: dataclasses.replace(real, day_turns=tuple(turns)))
    with pytest.raises(NarrationMismatch):
        card_narrate.narrate(k, 7)


def test_cli_text_and_json(capsys):
    code, out, err = run(capsys, "trace", "--game", "card", "-p", "4", "-s", "expert,greedy,random,collector",
                         "--seed", "1", "--index", "7", "--wide")
    assert code == 0, err
    config = trace_config("card", 4, "expert,greedy,random,collector", 1, 7, "fixed", None, None)
    data, text = narrate_game(config, 7)
    assert out == text
    for rule in ("R9", "R10", "R11", "R13", "R14", "R15", "R16", "R17", "R18", "R21", "R22"):
        assert f"{rule}" in out
    code, out, err = run(capsys, "trace", "-g", "classic", "--seed", "1", "--index", "7", "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    config = trace_config("classic", 4, "random", 1, 7, "fixed", None, None)
    assert document == narrate_game(config, 7)[0]
    assert [d["day"] for d in document["days"]] == [1, 2, 3]
    assert {"ships", "tracks", "goods", "totals"} <= set(document["days"][0]["scoring"])


@pytest.mark.parametrize("game", ["card", "classic"])
@pytest.mark.parametrize(("days", "words"), [(1, "only"), (2, "second"), (3, "third"), (5, "fifth")])
def test_the_final_standings_name_the_last_day_in_force(capsys, game, days, words):
    """R22, C18: the game ends after the last day's scoring, the third only under the rulebook's days."""
    code, out, err = run(capsys, "trace", "-g", game, "-p", "3", "--rules", f"days={days}", "--seed", "2", "--wide")
    assert code == 0, err
    assert f"after the {words} day's scoring, the most" in out and out.count("\nDay ") == days


@pytest.mark.parametrize("command", [
    ("trace", "-s", "expert,greedy,random,collector", "--seed", "1", "--index", "7"),
    ("trace", "-g", "classic", "--seed", "1", "--index", "7"),
    ("strategies",),
    ("strategies", "--game", "classic"),
])
@pytest.mark.parametrize("columns", ["80", None])  # None: the width cannot be known (a pipe): 100
def test_long_lines_are_wrapped_between_words_to_the_terminal(capsys, monkeypatch, command, columns):
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
        monkeypatch.setattr(os, "get_terminal_size", lambda *args: (_ for _ in ()).throw(OSError("not a terminal")))
    else:
        monkeypatch.setenv("COLUMNS", columns)
    width = int(columns or 100)
    code, whole, err = run(capsys, *command, "--wide")
    assert code == 0, err
    code, out, err = run(capsys, *command)
    assert code == 0, err
    assert max(len(line) for line in whole.splitlines()) > width  # --wide: lines as they are
    assert max(len(line) for line in out.splitlines()) <= width
    assert out.split() == whole.split()  # every word whole, in the same order


@pytest.mark.parametrize("args, message", [
    (["-p", "7"], "players must be between 2 and 6"),
    (["-g", "classic", "-p", "2"], "players must be between 3 and 6"),
    (["--index", "-1"], "--index must be between 0"),
    (["--index", str(10**15)], "--index must be between 0"),
    (["-s", "nope"], "unknown strategy 'nope'"),
    (["-s", "random,random"], "need 1 or 4 strategies"),
    (["-s", "greedy:take_min=x"], "must be a number"),
    (["--variant", "bonus30"], "unknown rule 'bonus30' in the card game; did you mean bonus20?"),
    (["-g", "classic", "--variant", "bonus20"], "bonus20"),
    (["--seed", "-1"], "seed must be between"),
    (["--deck", "/nonexistent/deck.csv"], "deck"),
    (["-g", "classic", "--deck", "deck.csv"], "has no component files"),
    (["--plugin", "/nonexistent/plugin.py"], "--plugin"),
    (["--format", "xml"], "--format"),
    (["--index", "seven"], "--index"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, message):
    code, out, err = run(capsys, "trace", *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("medici-sim: error: ") and message in err


@pytest.mark.slow
def test_plugin_strategies_are_traced(capsys):
    """Any strategy, plug-ins included: the trace of a plug-in's game is the kernel's game."""
    args = ["--plugin", str(EXAMPLES / "green_lover.py"), "-s", "green_lover:min_value=3,expert,random,gambler",
            "--seating", "rotate", "--seed", "3", "--index", "12345", "--format", "json"]
    code, out, err = run(capsys, "trace", *args)
    assert code == 0, err
    data = json.loads(out)
    config = trace_config("card", 4, "green_lover:min_value=3,expert,random,gambler", 3, 12345, "rotate", None, None)
    seat = PreparedRun(config).play(12345, 1).seat
    assert data["final"]["florins"] == seat[:, STAT_SCORE].tolist()
    assert data["final"]["win60"] == seat[:, STAT_WIN60].tolist()


@pytest.mark.parametrize("game, players", [("card", 2), ("card", 3), ("card", 5), ("classic", 3), ("classic", 5)])
def test_many_games_and_every_kind_of_ending(game, players):
    """300 games each: the narration agrees with the kernel every time, and the
    rarer paths (shared wins R22/C18, starting players drawn among ties R21/C6, shares
    rounded down R15/C13-C15, the classic C11 last ship and C12) are told too."""
    k = kernel(game, players, "random", "rotate", None, 11)
    seen = set()
    for index in range(300):
        data = check_against_kernel(k, index)
        seen.add("shared" if data["final"]["shared"] else "outright")
        for day in data["days"]:
            seen.add(day["end"])
            if day["next_starter"] and day["next_starter"]["drawn"]:
                seen.add("drawn")
            groups = [g for g in day["scoring"]["ships"]["groups"]]
            groups += [g for good in day["scoring"]["goods"] for g in good["ranking"]["groups"]]
            if any(g["rounded"] for g in groups):
                seen.add("rounded")
    assert {"shared", "outright", "drawn", "rounded"} <= seen
    if game == "classic":
        assert {"last ship", "ran out"} <= seen
