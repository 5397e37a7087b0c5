"""Hostile checkpoints: ``checkpoint.read`` trusts nothing it reads.

Genuine checkpoints are written by the command line (and, for runs stopped part-way, by
the same core calls the command line makes); then they are attacked: every consistency
rule broken on purpose, wrong types and shapes, non-JSON, NaN, repeated keys, huge and
special files, and a property test that mutates genuine checkpoints at random. ``read``
must refuse with one ``--resume PATH:`` line (CheckpointError) or return a checkpoint that
is consistent; no other exception may ever escape. Also: ``refuse_existing`` (never
overwrite a run or a stranger's file, never open a FIFO), ``output.lock`` (one writer),
fingerprints of strategy code, and ``check_matches``.
"""
from __future__ import annotations

import copy
import json
import math
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from medici_sim.cli import main
from medici_sim.core import checkpoint, identity, output, totals_check
from medici_sim.core.accounting import (
    MARGIN_BINS,
    RUN_COMEBACK_FIRST,
    RUN_COMEBACK_SECOND,
    RUN_GAMES,
    RUN_LEAD_CHANGES_SQ,
    RUN_MARGIN,
    RUN_MARGIN_HISTOGRAM,
    RUN_SHARED_WIN_GAMES,
    RUN_WIN_MARGIN,
    STAT_GAMES,
    STAT_OUTRIGHT,
    STAT_SCORE,
    STAT_SCORE_SQ,
    STAT_SHARED,
    STAT_WIN60,
    STAT_WIN60_SQ,
)
from medici_sim.core.checkpoint import CheckpointError
from medici_sim.core.driver import RunConfig, seat_strategy, simulate
from medici_sim.core.registry import GAMES, get_game
from medici_sim.core.run_saved import RUN
from medici_sim.core.saved import Invalid
from medici_sim.games.card import engine as card_engine
from medici_sim.games.card.deck import default_deck
from medici_sim.games.classic import engine as classic_engine
from medici_sim.games.medici.scoring import N_COMMON_STATS, STAT_BONUS, STAT_MAJORITY, STAT_SHIP
from medici_sim.games.medici.scoring import STAT_TRAILED as STAT_TRAILED_FIRST  # the Medici games' layout
from medici_sim.study import resume
from medici_sim.study.tournament import Tournament, lineups
from medici_sim.study.tournament_saved import BALANCE, COMPARE
from medici_sim.study.tune_saved import TUNE

STAT_TRAILED_FIRST_WON = STAT_TRAILED_FIRST + 1  # core.accounting.StatLayout's, for three score sources

FUZZ = settings(max_examples=200, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

FORMATS = {"run": RUN, "compare": COMPARE, "balance": BALANCE, "tune": TUNE}  # each command's saved format


# ============================================================== genuine checkpoints

def _cli(*args: str) -> None:
    try:
        main(list(args))
    except SystemExit as exc:
        assert exc.code in (0, None), f"medici-sim {' '.join(args)} exited with {exc.code}"


def _run_configuration(config: RunConfig) -> dict:
    """The main command's configuration, as it saves it."""
    return {"game": config.game, "players": config.players, "games": config.games, "seed": config.seed,
            "rules": config.rules, "seating": config.seating,
            "strategies": identity.strategies_identity(config.strategies),
            "components": identity.components_identity(config.components)}


def _partial_run(path: Path) -> None:
    """A run stopped after its first batch, saved as the command line saves it."""
    strategies = tuple(seat_strategy(s) for s in ("greedy", "random", "cautious"))
    config = RunConfig(components=default_deck(), players=3, strategies=strategies, games=5000, seed=11,
                       seating="random", threads=1)
    stop = threading.Event()

    def save(batch) -> None:
        stop.set()
        checkpoint.save(path, "run", _run_configuration(config), {"totals": batch.to_dict()})

    result = simulate(config, batch_size=1200, stop=stop, on_batch=save)
    assert 0 < result.totals.games < config.games


def _partial_study(path: Path, precision: float | None, rounds: int, games: int) -> None:
    """A compare run stopped after the first batch of its last round, saved as _play saves it."""
    strategies = tuple(seat_strategy(s) for s in ("random", "greedy", "cautious", "gambler"))
    t = Tournament(default_deck(), 3, strategies, "standard", seed=5, threads=1, config_index=0)
    configuration = {"games": games, "precision": precision, "tournaments": [t.configuration()]}
    for _ in range(rounds - 1):
        t.play(games)
    stop = threading.Event()

    def save() -> None:
        stop.set()
        checkpoint.save(path, "compare", configuration, {"tournaments": [t.progress()]})

    t.play(games, stop=stop, on_batch=save)
    assert not t.complete


@pytest.fixture(scope="module")
def genuine(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    """name -> (path, command) of checkpoints written by medici-sim itself."""
    folder = tmp_path_factory.mktemp("genuine")
    made = {}

    def cli(name, command, *args):
        path = folder / f"{name}.ckpt"
        _cli(*([command] if command != "run" else []), *args, "--quiet", "--checkpoint", str(path))
        made[name] = (path, command)

    cli("run", "run", "-n", "3000", "-s", "expert,random,greedy,cautious", "--seating", "rotate", "--seed", "3")
    cli("fixed", "run", "-n", "2000", "-p", "2", "-s", "greedy,collector:focus=1", "--variant", "bonus20")
    if "classic" in GAMES:
        cli("classic", "run", "--game", "classic", "-n", "1000", "-p", "5", "--seating", "random")
    cli("compare", "compare", "-n", "600", "-p", "3", "-s", "random,greedy,expert")
    cli("compare24", "compare", "-n", "500", "-p", "2,4", "-s", "random,greedy,expert")
    cli("balance", "balance", "-n", "400", "-p", "2,3", "-s", "random,greedy")
    _partial_run(folder / "partial_run.ckpt")
    made["partial_run"] = (folder / "partial_run.ckpt", "run")
    _partial_study(folder / "partial_compare.ckpt", None, 1, 80_000)
    made["partial_compare"] = (folder / "partial_compare.ckpt", "compare")
    _partial_study(folder / "partial_precision.ckpt", 0.2, 2, 800)
    made["partial_precision"] = (folder / "partial_precision.ckpt", "compare")
    return made


def _document(genuine, name: str) -> tuple[dict, str]:
    path, command = genuine[name]
    return json.loads(path.read_text()), command


def _sign(document: dict) -> dict:
    """The document with the checksum of what it now holds (an edit that covers its tracks)."""
    document["checksum"] = checkpoint._checksum(document)
    return document


def _write(tmp_path: Path, document, name: str = "x.ckpt", sign: bool = False) -> Path:
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(_sign(document) if sign else document))
    return path


def _refused(path: Path, command: str) -> str:
    """The one-line message read() refuses ``path`` with."""
    with pytest.raises(CheckpointError) as refusal:
        checkpoint.read(path, FORMATS[command])
    message = str(refusal.value)
    assert message.startswith(f"--resume {path}: "), message
    assert "\n" not in message and "\r" not in message, message
    return message


# ============================================================== an independent consistency check

def _is_count(value) -> bool:
    return type(value) is int and 0 <= value < 2**63


def _check_rows(rows, games_of_row, total, players, game):
    assert all(_is_count(v) for row in rows for v in row)
    assert [row[STAT_GAMES] for row in rows] == games_of_row
    assert sum(row[STAT_WIN60] for row in rows) == 60 * total
    assert sum(row[STAT_OUTRIGHT] for row in rows) <= total
    for row in rows:
        assert row[STAT_OUTRIGHT] + row[STAT_SHARED] <= row[STAT_GAMES]
        assert 0 <= row[STAT_WIN60] <= 60 * row[STAT_GAMES]
        assert row[STAT_WIN60] ** 2 <= row[STAT_WIN60_SQ] * max(row[STAT_GAMES], 1)
        assert row[STAT_SCORE] ** 2 <= row[STAT_SCORE_SQ] * max(row[STAT_GAMES], 1)
        if game == "card":
            assert row[STAT_SCORE] == row[STAT_SHIP] + row[STAT_MAJORITY] + row[STAT_BONUS]


def _check_pairs(pairs, together):
    for a, row in enumerate(pairs):
        assert row[a] == 0
        for b in range(len(pairs)):
            if a != b:
                assert row[b] + pairs[b][a] == 2 * together(a, b)


def assert_consistent(saved: checkpoint.Saved) -> None:
    """What any checkpoint read() accepts must satisfy (written apart from read's own checks)."""
    c, p = saved.configuration, saved.progress
    if saved.command == "run":
        game, players = c["game"], c["players"]
        assert len(c["strategies"]) == players and 1 <= c["games"]
        totals = p["totals"]
        run = totals["run"]
        assert all(_is_count(v) for v in run) and run[RUN_GAMES] <= c["games"]
        g = run[RUN_GAMES]
        assert len(totals["seat"]) == len(totals["slot"]) == players
        for rows in (totals["seat"], totals["slot"]):
            _check_rows(rows, [g] * players, g, players, game)
        assert [sum(col) for col in zip(*totals["seat"], strict=True)] == \
               [sum(col) for col in zip(*totals["slot"], strict=True)]
        _check_pairs(totals["pairs"], lambda a, b: g)
        if g == 0:
            assert not any(run) and not any(v for row in totals["seat"] for v in row)
        return
    assert c["games"] >= 1 and (c["precision"] is None or 0 < c["precision"] < 0.5)
    assert len(c["tournaments"]) == len(p["tournaments"])
    for tc, tp in zip(c["tournaments"], p["tournaments"], strict=True):
        players = tc["players"]
        strategies = tuple(seat_strategy(name, tc["game"], **params) for name, params, *_ in tc["strategies"])
        labels = list(dict.fromkeys(s.label for s in strategies))
        plays = lineups(strategies, players)
        assert len(tp["done"]) == len(plays)
        assert all(_is_count(d) and d <= tp["target"] for d in tp["done"])
        assert tp["target"] % players == 0
        assert math.isfinite(tp["elapsed"]) and tp["elapsed"] >= 0
        g = tp["run"][RUN_GAMES]
        assert g == sum(tp["done"])
        row_games = [sum(d * [s.label for s in lineup].count(label) for d, lineup in zip(tp["done"], plays,
                                                                                          strict=True))
                     for label in labels]
        _check_rows(tp["seat_stats"], [g] * players, g, players, tc["game"])
        _check_rows(tp["strategy_stats"], row_games, g, players, tc["game"])
        assert sum(row[STAT_GAMES] for row in tp["strategy_stats"]) == players * g

        def together(a, b, tp=tp, plays=plays, labels=labels):
            return sum(d * [s.label for s in lineup].count(labels[a]) * [s.label for s in lineup].count(labels[b])
                       for d, lineup in zip(tp["done"], plays, strict=True))
        _check_pairs(tp["pairs"], together)


# ============================================================== genuine checkpoints are accepted

GENUINE = ["run", "fixed", "classic", "compare", "compare24", "balance", "partial_run", "partial_compare",
           "partial_precision"]


@pytest.mark.parametrize("name", GENUINE)
def test_genuine_checkpoints_are_accepted_and_consistent(genuine, name):
    if name not in genuine:
        pytest.skip(f"no {name} checkpoint (game not registered)")
    path, command = genuine[name]
    saved = checkpoint.read(path, FORMATS[command])
    document = json.loads(path.read_text())
    assert document["format"] == checkpoint.FORMAT == 4
    assert saved == checkpoint.Saved(command, document["configuration"], document["progress"])
    assert_consistent(saved)
    with pytest.raises(AttributeError):
        saved.command = "run"  # frozen


def test_partial_checkpoints_are_part_way(genuine):
    """The hand-made partial checkpoints really exercise the part-way rules."""
    run = checkpoint.read(genuine["partial_run"][0], RUN)
    assert 0 < run.progress["totals"]["run"][RUN_GAMES] < run.configuration["games"]
    study = checkpoint.read(genuine["partial_compare"][0], COMPARE).progress["tournaments"][0]
    assert 0 < study["done"][0] < study["target"] and study["done"][1:] == [0, 0, 0]
    rounds = checkpoint.read(genuine["partial_precision"][0], COMPARE).progress["tournaments"][0]
    step = rounds["target"] // 2
    assert rounds["done"][0] == rounds["target"] and rounds["done"][1:] == [step] * 3


def test_saved_entries_rebuild_the_run(genuine):
    saved = checkpoint.read(genuine["fixed"][0], RUN)
    deck = identity.saved_components(saved.configuration["components"], get_game("card"))
    assert deck.fingerprint() == default_deck().fingerprint()
    slots = identity.saved_strategies(saved.configuration["strategies"], "card")
    assert [s.label for s in slots] == ["greedy", "collector:focus=1"]


def test_strategy_identity_records_fingerprint_and_origin():
    (entry,) = identity.strategies_identity([seat_strategy("expert")])
    name, params, fingerprint, origin = entry
    assert name == "expert" and set(params) == set(GAMES["card"].registry["expert"].params)
    assert len(fingerprint) == 16 and int(fingerprint, 16) >= 0 and origin == "built-in"


# ============================================================== every rule, broken on purpose

def _set(path_in_document, value):
    def change(document):
        target = document
        for key in path_in_document[:-1]:
            target = target[key]
        target[path_in_document[-1]] = value(target[path_in_document[-1]]) if callable(value) else value
    return change


def _seat(i, j, value):
    return _set(["progress", "totals", "seat", i, j], value)


def _row(row, **changes):
    """Change several columns of one row (``totals.seat[i]`` and the like) at once."""
    def change(document):
        target = document["progress"]["totals"][row[0]][row[1]] if isinstance(row, tuple) else row(document)
        for column, delta in changes.items():
            target[int(column) if column.isdigit() else globals()[column]] += delta
    return change


def _both(*changes):
    def change(document):
        for c in changes:
            c(document)
    return change


def _beyond_squares(document):
    """Slots 1 and 2's squared differences above the sum of their squared credits."""
    totals = document["progress"]["totals"]
    squares = totals["slot"][0][STAT_WIN60_SQ] + totals["slot"][1][STAT_WIN60_SQ]
    totals["pair_diff_sq"][0][1] = totals["pair_diff_sq"][1][0] = squares + 2


def _swap_slots(document):
    slot = document["progress"]["totals"]["slot"]
    slot[0], slot[1] = slot[1], slot[0]


def _zero_totals(document):
    totals = document["progress"]["totals"]
    for key in ("seat", "slot", "pairs", "pair_diff_sq"):
        totals[key] = [[0] * len(row) for row in totals[key]]
    totals["run"] = [0] * len(totals["run"])


def _t(document, key):
    return document["progress"]["tournaments"][0][key]


RUN_RULES = [
    # games
    ("run", _seat(2, STAT_GAMES, 3001), "totals.seat[2][0] is 3001, but the checkpoint counts 3000 games"),
    ("run", _set(["progress", "totals", "run", RUN_GAMES], 2999),
     "totals.seat[0][0] is 3000, but the checkpoint counts 2999 games"),
    ("run", _set(["configuration", "games"], 2000), "totals.run[0] is 3000, but the run has 2000 games"),
    # wins
    ("run", _row(("seat", 0), STAT_WIN60=60, STAT_WIN60_SQ=3600, STAT_OUTRIGHT=1),
     "totals.seat: the win60 column adds up to 180060, but 3000 games share out 180000"),
    ("run", _row(("seat", 1), STAT_OUTRIGHT=3000), "outright and"),
    ("run", _row(("seat", 0), STAT_WIN60=1), "totals.seat[0][1] is"),
    ("run", _row(("seat", 0), STAT_WIN60_SQ=1), "totals.seat[0][2] is"),
    ("run", _row(("seat", 0), STAT_WIN60_SQ=-25), "totals.seat[0][2] is"),  # only the exact decomposition sees it
    ("run", _row(("seat", 0), STAT_SHARED=1, STAT_OUTRIGHT=-1), "totals.seat[0][2] is"),
    # scores
    ("run", _seat(0, STAT_SCORE_SQ, 25), "totals.seat[0][6] is 25, impossible for 3000 scores"),
    ("run", _row(("seat", 0), STAT_SCORE=5), "but ships, majorities and bonuses paid"),
    ("run", _row(("seat", 0), STAT_SCORE=1, STAT_SHIP=1), "totals.seat[0][7] is"),
    ("run", _row(("seat", 0), STAT_SCORE=5, STAT_BONUS=5), "not a multiple of 10"),
    ("run", _row(("seat", 0), STAT_SCORE_SQ=1), "not a multiple of 25"),
    # seats against slots, pairs, run counters
    ("run", _row(("slot", 0), STAT_SCORE=5, STAT_SHIP=5),
     "column 5 of totals.slot adds up to"),
    ("fixed", _swap_slots, "with fixed seating slot 1 is seat 1"),
    ("run", _set(["progress", "totals", "pairs", 0, 1], lambda v: v + 1),
     "totals.pairs[0][1] + totals.pairs[1][0] is 6001, but 3000 games together make 6000"),
    ("run", _set(["progress", "totals", "pairs", 2, 2], 2), "totals.pairs[2][2] is 2, but a strategy never plays"),
    ("run", _set(["progress", "totals", "pair_diff_sq", 1, 1], 3600), "totals.pair_diff_sq[1][1] is 3600, but a slot"),
    ("run", _set(["progress", "totals", "pair_diff_sq", 0, 1], lambda v: v + 7200),
     "but totals.pair_diff_sq[1][0] is"),
    # slots 1 and 2 won different totals, so some game's credits differed
    ("run", _both(_set(["progress", "totals", "pair_diff_sq", 0, 1], 0),
                  _set(["progress", "totals", "pair_diff_sq", 1, 0], 0)),
     "which slots 1 and 2's win credits"),
    ("run", _beyond_squares, "which slots 1 and 2's win credits"),
    ("run", _both(_set(["progress", "totals", "pair_diff_sq", 0, 1], lambda v: v + 1),
                  _set(["progress", "totals", "pair_diff_sq", 1, 0], lambda v: v + 1)),
     "which slots 1 and 2's win credits"),
    ("run", _set(["progress", "totals", "run", RUN_WIN_MARGIN], 0), "totals.run[1] is 0, impossible with"),
    ("run", _set(["progress", "totals", "run", card_engine.RUN_RAN_OUT_DAYS], 9001),
     f"totals.run[{card_engine.RUN_RAN_OUT_DAYS}] is 9001, more than the 9000 days"),
    ("run", _set(["progress", "totals", "run", card_engine.RUN_VARIANT_DECIDED], 1), "with the standard rules"),
    ("fixed", _set(["progress", "totals", "run", card_engine.RUN_VARIANT_DECIDED], 2001),
     "impossible in 2000 games with the bonus20 rules"),
    # no games: all zeros
    ("run", _both(_zero_totals, _set(["progress", "totals", "slot", 1, STAT_SHIP], 5)),
     "totals.slot[1][7] is 5, but the row counts no games"),
    ("run", _both(_zero_totals, _set(["progress", "totals", "run", 2], 1)),
     "totals.run[2] is 1, but the checkpoint counts no games"),
    ("run", _both(_zero_totals, _set(["progress", "totals", "pairs", 0, 1], 2)),
     "totals.pairs[0][1] + totals.pairs[1][0] is 2, but 0 games together make 0"),
    # types, ranges, shapes
    ("run", _seat(0, STAT_GAMES, 3000.0), "totals.seat[0][0] is 3000.0, not a whole number"),
    ("run", _seat(0, STAT_GAMES, True), "totals.seat[0][0] is true, not a whole number"),
    ("run", _seat(0, STAT_GAMES, "3000"), "totals.seat[0][0] is \"3000\", not a whole number"),
    ("run", _seat(0, STAT_GAMES, None), "totals.seat[0][0] is null, not a whole number"),
    ("run", _seat(3, STAT_BONUS, -10), "totals.seat[3][9] is -10, outside 0..9223372036854775807"),
    ("run", _seat(3, STAT_BONUS, 2**63), "totals.seat[3][9] is 9223372036854775808, outside"),
    ("run", _set(["progress", "totals", "seat"], lambda rows: rows[:3]),
     "totals.seat has 3 rows, but the 4-player card game has 4"),
    ("run", _set(["progress", "totals", "slot", 1], lambda row: row + [0]),
     f"totals.slot[1] has {card_engine.N_STATS + 1} entries, but the 4-player card game has {card_engine.N_STATS}"),
    ("run", _set(["progress", "totals", "run"], {}), "totals.run is {}, not a list"),
    ("run", _set(["progress", "totals"], lambda t: {**t, "extra": 1}), "totals has an unexpected key \"extra\""),
    ("run", _set(["progress"], {}), "progress lacks \"totals\""),
    # configuration
    ("run", _set(["configuration", "players"], 7), "configuration.players is 7, but the card game takes 2 to 6"),
    ("run", _set(["configuration", "players"], 3), "configuration.strategies has 4 strategies, but 3 players"),
    ("run", _set(["configuration", "game"], "chess"), "configuration.game is \"chess\", not a game"),
    ("run", _set(["configuration", "games"], 0), "configuration.games is 0, outside 1..1000000000000000"),
    ("run", _set(["configuration", "seed"], -1), "configuration.seed is -1, outside 0..9223372036854775807"),
    ("run", _set(["configuration", "seed"], 2**63), "configuration.seed is 9223372036854775808, outside"),
    ("run", _set(["configuration", "rules"], "turbo"),
     "configuration.rules is \"turbo\", which names no rule set of the card game: unknown rule 'turbo'"),
    ("run", _set(["configuration", "rules"], "bonus=9999"), "bonus=9999 is out of range"),
    ("compare", _set(["configuration", "tournaments", 0, "rules"], "days=0"), "days=0 is out of range"),
    ("run", _set(["configuration", "seating"], "circle"), "configuration.seating is \"circle\", not one of"),
    ("run", _set(["configuration", "strategies", 1, 0], "no_such"),
     "configuration.strategies[1][0] is \"no_such\", not a strategy of the card game"),
    ("run", _set(["configuration", "strategies", 0, 1], lambda p: {k: v for k, v in p.items() if k != "spread"}),
     "configuration.strategies[0][1] lacks parameter spread of expert"),
    ("run", _set(["configuration", "strategies", 0, 1], lambda p: {**p, "boldness": 1.0}),
     "configuration.strategies[0][1] has \"boldness\", not a parameter of expert"),
    ("run", _set(["configuration", "strategies", 0, 1, "spread"], 2), "spread is 2, not a number with a decimal"),
    ("run", _set(["configuration", "strategies", 0, 1, "spread"], -5.0), "configuration.strategies[0]: parameter"),
    ("run", _set(["configuration", "strategies", 0, 2], "xyz"), "configuration.strategies[0][2] is \"xyz\""),
    ("run", _set(["configuration", "strategies", 0, 2], "0123456789abcdef"),
     "the code of strategy expert changed since the checkpoint was saved"),
    ("run", _set(["configuration", "strategies", 0], ["expert", {}]), "not [name, parameters, fingerprint, origin]"),
    ("run", _set(["configuration", "components", "contents"],
                 lambda text: text.replace("2,grain,2,0,no", "3,grain,2,0,no")),
     "configuration.components.cards is 110, but its contents hold 111 cards"),
    ("run", _set(["configuration", "components", "contents"],
                 lambda text: text.replace("2,grain,2,0,no", "2,grain,2,1,no")),
     "configuration.components.fingerprint is"),
    ("run", _set(["configuration", "components", "contents"], "count,good\n1,2\n"),
     "configuration.components.contents: deck"),
    ("run", _set(["configuration", "components"], None), "configuration.components is null, not an object"),
    ("classic", _set(["configuration", "components"], {"cards": 1}), "but the classic game takes no component set"),
    ("classic", _row(("seat", 0), STAT_SCORE=1), "but the starting money, the florins spent and the payouts make"),
    ("classic", _row(("seat", 0), **{str(classic_engine.STAT_PRICE_SPENT): 1}),
     f"totals.seat[0][{classic_engine.STAT_PRICE_SPENT}] is"),
    # the document
    ("run", _set(["format"], 1), "statistics format 1, this version of medici-sim"),
    ("run", _set(["format"], "2"), "statistics format \"2\""),
    ("run", _set(["command"], "compare"), "saved by `compare`, not `run`"),
    ("run", _set(["version"], 2), "version is 2, not a version string"),
    ("run", lambda d: d.update(extra=1), "the checkpoint has an unexpected key \"extra\""),
    ("run", lambda d: d.pop("progress"), "the checkpoint lacks \"progress\""),
]

STUDY_RULES = [
    # balance's bonus20 tournament follows its standard one: the same games, paired sums
    ("compare", _set(["progress", "tournaments", 0, "paired_sq", 1], 3600), "paired sums, but the tournament follows"),
    ("balance", _set(["progress", "tournaments", 0, "paired_seat_sq", 0], 3600), "paired sums, but the tournament"),
    ("balance", _set(["progress", "tournaments", 1, "paired_sq", 0], 0), "tournaments[1].paired_sq[0] is 0, too small"),
    ("balance", _set(["progress", "tournaments", 1, "paired_seat_sq", 1], 0), "tournaments[1].paired_seat_sq[1] is 0"),
    ("balance", _set(["progress", "tournaments", 1, "paired_sq"], [0]), "tournaments[1].paired_sq has 1"),
    ("compare", lambda d: _t(d, "done").__setitem__(0, 601), "tournaments[0].done[0] is 601, but lineups are played"),
    ("compare", lambda d: _t(d, "run").__setitem__(0, 603), "tournaments[0].run[0] is 603, but its lineups played 600"),
    ("compare", _set(["progress", "tournaments", 0, "target"], 603),
     "tournaments[0].target is 603, but the tournament asks for 600 games per lineup"),
    ("partial_precision", _set(["progress", "tournaments", 0, "target"], lambda v: v + 3), "asks for a multiple of"),
    ("partial_precision", lambda d: _t(d, "done").__setitem__(3, _t(d, "done")[3] - 1),
     "tournaments[0].done[3] is"),
    ("partial_compare", lambda d: _t(d, "done").__setitem__(2, 3),
     "more than done[1] (0): lineups are played in order"),
    ("compare", _set(["progress", "tournaments", 0, "elapsed"], -1.0), "tournaments[0].elapsed is -1.0"),
    ("compare", _set(["progress", "tournaments", 0, "elapsed"], "1"), "tournaments[0].elapsed is \"1\""),
    ("compare", lambda d: _t(d, "strategy_stats")[0].__setitem__(STAT_GAMES, 599),
     "tournaments[0].strategy_stats[0][0] is 599, but the checkpoint counts 600 games"),
    ("compare24", lambda d: d["progress"]["tournaments"][1]["strategy_stats"][0].__setitem__(STAT_GAMES, 500),
     "tournaments[1].strategy_stats[0][0] is 500, but the checkpoint counts 1000 games"),
    ("compare", lambda d: _t(d, "pairs")[0].__setitem__(1, _t(d, "pairs")[0][1] + 2),
     "tournaments[0].pairs[0][1] + tournaments[0].pairs[1][0] is 1202, but 600 games together make 1200"),
    ("compare", lambda d: _t(d, "seat_stats")[2].__setitem__(STAT_GAMES, 0), "tournaments[0].seat_stats[2][0] is 0"),
    ("compare", lambda d: _t(d, "done").append(0), "tournaments[0].done has 2 entries, but the tournament has 1"),
    ("compare", lambda d: d["progress"]["tournaments"].append({}), "tournaments has 2 entries, but the configuration"),
    ("compare", _set(["configuration", "precision"], 0.5), "configuration.precision is 0.5, not a half-width"),
    ("compare", _set(["configuration", "games"], -3), "configuration.games is -3, outside"),
    ("compare", _set(["configuration", "tournaments", 0, "config_index"], 1),
     "configuration.tournaments[0].config_index is 1, expected 0"),
    ("compare", _set(["configuration", "tournaments", 0, "players"], 4),
     "tournaments[0].seat_stats has 3 rows, but the 4-player card game has 4"),
    ("compare", _set(["configuration", "tournaments", 0, "strategies"], []),
     "configuration.tournaments[0].strategies is [], not a list of strategies"),
    ("compare24", _set(["configuration", "tournaments", 1, "seed"], 1),
     "configuration.tournaments[1].seed is 1, but tournaments[0] has 0"),
    ("compare24", _set(["configuration", "tournaments", 1, "players"], 2), "in increasing order"),
    ("balance", _set(["configuration", "tournaments", 1, "rules"], "standard"),
     "configuration.tournaments[1].rules is \"standard\", the rules of tournaments[0] too"),
    ("balance", _set(["configuration", "tournaments", 1, "players"], 3), "but its standard tournament has 2"),
    ("balance", lambda d: (d["configuration"]["tournaments"].pop(), d["progress"]["tournaments"].pop()),
     "not pairs of rule sets"),
    ("balance", _set(["configuration", "tournaments", 2, "game"], "classic"),
     "configuration.tournaments[2].game is \"classic\", but tournaments[0] has \"card\""),
    ("compare", _set(["configuration", "tournaments"], {}), "configuration.tournaments is {}, not a list"),
]


def _run_counter(counter, value):
    return _set(["progress", "totals", "run", counter], value)


def _no_trailing_wins(document):
    """No seat that trailed after day 1 ever won, by seat and by slot alike (their sums agree)."""
    for key in ("seat", "slot"):
        for row in document["progress"]["totals"][key]:
            row[STAT_TRAILED_FIRST_WON] = 0


def _all_margins_zero(document):
    """Every game in the histogram's bin of margin 0: more than the games with joint winners."""
    run = document["progress"]["totals"]["run"]
    run[RUN_MARGIN_HISTOGRAM:RUN_MARGIN_HISTOGRAM + MARGIN_BINS] = [run[RUN_GAMES]] + [0] * (MARGIN_BINS - 1)


def _paired_metric(i, value):
    return _set(["progress", "tournaments", i, "paired_metric_sq"], value)


def _beyond_metric_squares(document):
    """A yes-or-no metric's paired squares above its two totals (its parity kept)."""
    follower, leader = document["progress"]["tournaments"][3], document["progress"]["tournaments"][2]
    follower["paired_metric_sq"][0] = follower["run"][RUN_COMEBACK_FIRST] + leader["run"][RUN_COMEBACK_FIRST] + 2


METRIC_RULES = [  # the designer metrics (core.totals_check.check_run_metrics, check_paired_metric_sq)
    ("run", _run_counter(RUN_MARGIN_HISTOGRAM + 5, lambda v: v + 1), "the margin histogram counts 3001 games"),
    ("run", _all_margins_zero, "is 3000 games of margin 0, but only"),
    ("run", _run_counter(RUN_SHARED_WIN_GAMES, lambda v: v + 1), "games with joint winners, but no one won"),
    ("run", _run_counter(RUN_COMEBACK_SECOND, 3001), "is 3001 comebacks in 3000 games"),
    ("run", _no_trailing_wins, "comebacks after day 1, but seats that trailed after day 1 won 0 times"),
    ("run", _run_counter(RUN_LEAD_CHANGES_SQ, 0), f"totals.run[{RUN_LEAD_CHANGES_SQ}] is 0, impossible for 3000"),
    ("run", _run_counter(RUN_MARGIN, lambda v: v + 1), "but the margin histogram adds up to"),
    ("run", _seat(1, STAT_TRAILED_FIRST, 3001), f"totals.seat[1][{STAT_TRAILED_FIRST}] is 3001, but the row counts"),
    ("run", _row(("slot", 2), STAT_TRAILED_FIRST_WON=5000), f"totals.slot[2][{STAT_TRAILED_FIRST_WON}] is"),
    ("classic", _run_counter(RUN_COMEBACK_FIRST, 1001), "is 1001 comebacks in 1000 games"),
    ("balance", _paired_metric(0, lambda sums: [1] + sums[1:]), "paired sums, but the tournament follows no other"),
    ("balance", _paired_metric(3, lambda sums: sums[:3] + [0] + sums[4:]), "tournaments[3].paired_metric_sq[3] is 0"),
    ("balance", _paired_metric(3, lambda sums: [sums[0] + 1] + sums[1:]), "tournaments[3].paired_metric_sq[0] is"),
    ("balance", _beyond_metric_squares, "tournaments[3].paired_metric_sq[0] is"),
    ("balance", _paired_metric(1, [0]), "tournaments[1].paired_metric_sq has 1"),
]


@pytest.mark.parametrize("name,change,expected", RUN_RULES + STUDY_RULES + METRIC_RULES,
                         ids=[f"{i}-{r[0]}" for i, r in enumerate(RUN_RULES + STUDY_RULES + METRIC_RULES)])
def test_each_rule_refuses_its_breach(genuine, tmp_path, name, change, expected):
    if name not in genuine:
        pytest.skip(f"no {name} checkpoint (game not registered)")
    document, command = _document(genuine, name)
    original = json.dumps(document)
    change(document)
    assert json.dumps(document) != original
    message = _refused(_write(tmp_path, document), command)
    assert expected in message, message


def test_an_all_zero_run_is_accepted_and_harmless_changes_pass(genuine, tmp_path):
    """A run saved before any game (all zeros) is consistent; the version string and the
    seconds played are not statistics."""
    document, _ = _document(genuine, "run")
    _zero_totals(document)
    assert checkpoint.read(_write(tmp_path, document, sign=True), RUN).progress["totals"]["run"][0] == 0
    document, _ = _document(genuine, "compare")
    document["version"] = "9.9.9"
    document["progress"]["tournaments"][0]["elapsed"] += 0.125
    saved = checkpoint.read(_write(tmp_path, document, sign=True), COMPARE)
    assert saved.progress["tournaments"][0]["elapsed"] > 0


@pytest.mark.parametrize("edit", [
    lambda d: d["configuration"].__setitem__("seed", 4),  # consistent, but not the games that were played
    lambda d: d["progress"]["totals"]["run"].__setitem__(RUN_WIN_MARGIN, d["progress"]["totals"]["run"][1] + 1),
    lambda d: d["configuration"]["strategies"][0][1].__setitem__("spread", 2.5),
    lambda d: d["configuration"]["strategies"][1].__setitem__(3, "elsewhere.py"),
    lambda d: d.__setitem__("version", "0.0.1"),
])
def test_a_consistent_edit_is_refused_by_the_checksum(genuine, tmp_path, edit):
    document, _ = _document(genuine, "run")
    edit(document)
    assert _refused(_write(tmp_path, document), "run").endswith(
        ": its checksum does not match its contents: the file was edited or corrupted")
    checkpoint.read(_write(tmp_path, document, sign=True), RUN)  # what the checksum alone stops


def test_layout_does_not_count(genuine, tmp_path):
    """Spacing and key order are not contents: a reformatted checkpoint still resumes."""
    document, _ = _document(genuine, "compare")
    reordered = {key: document[key] for key in reversed(list(document))}
    path = _write(tmp_path, json.dumps(reordered, indent=3, sort_keys=True))
    assert checkpoint.read(path, COMPARE).configuration == document["configuration"]


# ============================================================== the win arithmetic, row by row

def _rules(players: int):
    return totals_check.TotalsCheck(GAMES["card"], players, "standard")


def _win_row(games, outright, shared, win60, win60_sq):
    row = [0] * N_COMMON_STATS
    row[STAT_GAMES], row[STAT_OUTRIGHT], row[STAT_SHARED] = games, outright, shared
    row[STAT_WIN60], row[STAT_WIN60_SQ] = win60, win60_sq
    return row


@pytest.mark.parametrize("players,shares", [(2, [30, 30]), (3, [30, 20, 20]), (4, [15, 20, 30]),
                                            (5, [12, 12, 15]), (6, [10, 12, 15, 20, 30])])
def test_every_honest_mix_of_shared_wins_passes(players, shares):
    outright = 2
    row = _win_row(10, outright, len(shares), 60 * outright + sum(shares),
                   3600 * outright + sum(s * s for s in shares))
    _rules(players).row(row, "r", 10)


@pytest.mark.parametrize("players,row,column", [
    (2, _win_row(10, 1, 1, 60 + 20, 3600 + 400), STAT_WIN60),      # no 3-way tie with 2 players
    (4, _win_row(10, 0, 2, 35, 650), STAT_WIN60_SQ),               # 35 = 20 + 15: 400 + 225, not 650
    (4, _win_row(10, 0, 4, 95, 2400), STAT_WIN60_SQ),              # 95 = 30 + 30 + 20 + 15 only: 2425
    (3, _win_row(10, 0, 2, 50, 1200), STAT_WIN60_SQ),              # 30 + 20 is 900 + 400, not 1200
    (6, _win_row(10, 0, 2, 40, 799), STAT_WIN60_SQ),               # below Cauchy: 40**2 / 2 = 800
    (6, _win_row(10, 0, 2, 40, 1001), STAT_WIN60_SQ),              # 30 + 10 is the most spread: 1000
    (6, _win_row(10, 0, 2, 19, 181), STAT_WIN60),                  # two shares are at least 2 x 10
    (3, _win_row(3, 2, 2, 160, 7700), None),                       # 4 wins in 3 games
])
def test_impossible_wins_are_refused(players, row, column):
    with pytest.raises(Invalid) as refusal:
        _rules(players).row(row, "r", row[STAT_GAMES])
    if column is not None:
        assert str(refusal.value).startswith(f"r[{column}] is")
    else:
        assert "outright and 2 shared wins in 3 games" in str(refusal.value)


# ============================================================== not JSON, not a checkpoint

def _text_of(genuine, name="run") -> str:
    return genuine[name][0].read_text()


@pytest.mark.parametrize("mangle,expected", [
    (lambda t: t.replace('"seed": 3', '"seed": NaN'), "NaN in the checkpoint"),
    (lambda t: t.replace('"seed": 3', '"seed": -Infinity'), "-Infinity in the checkpoint"),
    (lambda t: t.replace('"seed": 3', '"seed": 1e999'), "\"1e999\" in the checkpoint"),
    (lambda t: t.replace('"seed": 3', '"seed": 3, "seed": 3'), "the key \"seed\" appears twice"),
    (lambda t: t.replace('"seed": 3', '"seed": ' + "9" * 5000), "not a medici-sim checkpoint (not JSON"),
    (lambda t: t[: len(t) // 2], "not a medici-sim checkpoint (not JSON"),
    (lambda t: "", "not a medici-sim checkpoint (not JSON"),
    (lambda t: "\ufeff" + t, "not a medici-sim checkpoint (not JSON"),
    (lambda t: "[" * 100_000 + "]" * 100_000, "not a medici-sim checkpoint"),
    (lambda t: "[1, 2]", "not a medici-sim checkpoint"),
    (lambda t: '{"formats": 2}', "not a medici-sim checkpoint"),
    (lambda t: t + "\n{}", "not a medici-sim checkpoint (not JSON: Extra data"),
])
def test_not_a_checkpoint(genuine, tmp_path, mangle, expected):
    message = _refused(_write(tmp_path, mangle(_text_of(genuine))), "run")
    assert expected in message, message


def test_values_nested_as_deep_as_the_parser_allows(genuine, tmp_path):
    """Deep values where the checkpoint is compared and shown: refused, never a RecursionError."""
    document, _ = _document(genuine, "compare24")
    refusals = set()
    for depth in range(sys.getrecursionlimit() - 100, sys.getrecursionlimit() + 20, 5):
        for where in ("components", "strategies", "seed"):
            changed = copy.deepcopy(document)
            changed["configuration"]["tournaments"][0][where] = "DEEP"
            text = json.dumps(changed).replace('"DEEP"', "[" * depth + "]" * depth)
            message = _refused(_write(tmp_path, text), "compare")
            assert "nested too deeply" in message or "configuration.tournaments[0]" in message, message
            refusals.add("nested too deeply" in message)
    assert refusals == {True, False}  # both sides of the parser's limit were tried


def test_not_utf8(genuine, tmp_path):
    path = tmp_path / "latin1.ckpt"
    path.write_bytes(_text_of(genuine).replace('"seed": 3', '"seed": 3, "note": "\xe9"').encode("latin-1"))
    assert "not UTF-8" in _refused(path, "run")


def test_a_name_that_breaks_lines_stays_on_one_line(genuine, tmp_path):
    document, _ = _document(genuine, "run")
    document["configuration"]["strategies"][0][0] = "evil\nname"
    path = _write(tmp_path, document, "line\nbreak.ckpt")
    with pytest.raises(CheckpointError) as refusal:
        checkpoint.read(path, RUN)
    assert "\n" not in str(refusal.value) and "evil\\nname" in str(refusal.value)


def test_a_huge_file_is_refused_by_its_size(tmp_path):
    """A sparse 1 GB file: refused at once, from its size, without reading it."""
    path = tmp_path / "huge.ckpt"
    with open(path, "wb") as f:
        f.truncate(1 << 30)
    message = _refused(path, "run")  # from its size: nothing of the gigabyte is read
    assert f"{1 << 30} bytes, more than any checkpoint ({checkpoint.MAX_CHECKPOINT_BYTES} at most)" in message
    with open(path, "r+b") as f:
        f.truncate(checkpoint.MAX_CHECKPOINT_BYTES + 1)
    assert "more than any checkpoint" in _refused(path, "run")


def test_a_missing_file_and_a_directory_are_refused(tmp_path):
    assert _refused(tmp_path / "nothing.ckpt", "run").endswith(": no such file")
    assert "a directory, not a checkpoint file" in _refused(tmp_path, "run")
    for call in (lambda: checkpoint.read("a\0b", RUN), lambda: checkpoint.refuse_existing("a\0b")):
        with pytest.raises(CheckpointError, match="embedded null byte"):
            call()
    with pytest.raises(output.OutputError, match="embedded null byte"):
        output.lock("--checkpoint", "a\0b").__enter__()


def _in_thread(call, timeout: float = 10.0):
    """call() in a thread; fails (instead of hanging the suite) if it blocks."""
    outcome = {}

    def target():
        try:
            outcome["value"] = call()
        except BaseException as exc:  # noqa: BLE001  handed to the test
            outcome["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    return thread.is_alive(), outcome


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.ckpt"
    os.mkfifo(fifo)
    try:
        for call in (lambda: checkpoint.read(fifo, RUN), lambda: checkpoint.refuse_existing(fifo)):
            blocked, outcome = _in_thread(call)
            assert not blocked, "opened the FIFO and waited for a writer"
            assert isinstance(outcome.get("error"), CheckpointError), outcome
            assert "FIFO" in str(outcome["error"])
    finally:
        fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # releases a reader that did block
        os.close(fd)


# ============================================================== refuse_existing

def test_refuse_existing(genuine, tmp_path):
    saved = genuine["run"][0]
    checkpoint.refuse_existing(tmp_path / "new.ckpt")  # nothing there: fine
    (tmp_path / "empty.ckpt").write_bytes(b"")
    checkpoint.refuse_existing(tmp_path / "empty.ckpt")
    with pytest.raises(CheckpointError) as refusal:
        checkpoint.refuse_existing(saved)
    assert str(refusal.value) == (f"--checkpoint {saved} already holds a run: continue it with --resume {saved}, "
                                  "or start over with --overwrite-checkpoint")
    checkpoint.refuse_existing(saved, None, True)  # --overwrite-checkpoint
    checkpoint.refuse_existing(saved, saved)  # the run being resumed saves on to its own file
    checkpoint.refuse_existing(saved, str(saved.parent / "." / saved.name))
    truncated = tmp_path / "truncated.ckpt"
    truncated.write_bytes(saved.read_bytes()[:40])
    with pytest.raises(CheckpointError, match="already holds a run"):
        checkpoint.refuse_existing(truncated)
    stranger = tmp_path / "notes.txt"
    stranger.write_text("my thesis\n")
    for overwrite in (False, True):
        with pytest.raises(CheckpointError) as refusal:
            checkpoint.refuse_existing(stranger, None, overwrite)
        assert str(refusal.value) == (f"--checkpoint {stranger} exists and is not a medici-sim checkpoint; "
                                      "refusing to overwrite it")
    with pytest.raises(CheckpointError, match="is a directory, not a regular file"):
        checkpoint.refuse_existing(tmp_path, None, True)
    if os.path.exists("/dev/null"):
        with pytest.raises(CheckpointError, match="is a device, not a regular file"):
            checkpoint.refuse_existing("/dev/null", None, True)


# ============================================================== lock

HOLDER = textwrap.dedent("""
    import sys
    from medici_sim.core import output
    with output.lock("--checkpoint", sys.argv[1]):
        print("locked", flush=True)
        sys.stdin.read()
""")


def test_a_checkpoint_being_written_by_another_run_is_refused(tmp_path):
    path = tmp_path / "run.ckpt"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(output.OutputError) as refusal:
            with output.lock("--checkpoint", path):
                pass
        assert str(refusal.value) == (f"--checkpoint {path} is being written by another medici-sim run "
                                      f"(pid {holder.pid})")
    finally:
        holder.communicate("", timeout=60)
    assert holder.returncode == 0
    assert not output.lock_path(path).exists()  # the holder removed its sidecar
    with output.lock("--checkpoint", path) as sidecar:  # free again
        assert sidecar == tmp_path / ".run.ckpt.lock"
        assert sidecar.read_text().strip() == str(os.getpid())
    assert not sidecar.exists()


def test_a_killed_holder_leaves_no_lock(tmp_path):
    """flock dies with its process: a run killed with SIGKILL does not lock its checkpoint forever."""
    path = tmp_path / "run.ckpt"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    holder.kill()
    holder.wait(timeout=60)
    assert output.lock_path(path).exists()  # left behind, but not held
    with output.lock("--checkpoint", path):
        pass


def test_a_file_in_the_way_of_the_lock_is_never_replaced(tmp_path):
    path = tmp_path / "run.ckpt"
    stranger = output.lock_path(path)
    stranger.write_text("my notes\n")
    with pytest.raises(output.OutputError) as refusal:
        with output.lock("--checkpoint", path):
            pass
    assert str(refusal.value) == (f"--checkpoint {path}: {stranger} is in the way of its lock file and is not one; "
                                  "refusing to replace it")
    assert stranger.read_text() == "my notes\n"


def test_lock_in_a_directory_that_cannot_hold_it(tmp_path):
    with pytest.raises(output.OutputError, match="cannot create the lock file"):
        with output.lock("--checkpoint", tmp_path / "no" / "such" / "dir" / "run.ckpt"):
            pass


# ============================================================== strategy code

PLUGIN = textwrap.dedent("""
    from numba import njit
    from medici_sim.games.card.strategies import Param, Strategy, register

    @njit(cache=False)
    def reveal_nb(state, seat, params):
        return False

    @njit(cache=False)
    def take_nb(state, seat, params):
        return 0

    register(Strategy("hostile_probe", {"reveal_nb": reveal_nb, "take_nb": take_nb},
                      params={"nerve": Param(1.0, 0.0, 2.0)}, summary="a test strategy"))
""")


@pytest.fixture
def plugin(tmp_path):
    from medici_sim.core.plugins import load_plugin

    path = tmp_path / "probe.py"
    path.write_text(PLUGIN)
    registry = GAMES["card"].registry
    load_plugin(path)
    try:
        yield path
    finally:
        registry.strategies.pop("hostile_probe", None)
        registry.origin.pop("hostile_probe", None)


def test_changed_or_missing_strategy_code_is_refused(genuine, tmp_path, plugin):
    registry = GAMES["card"].registry
    document, _ = _document(genuine, "fixed")
    saved_identity = identity.strategies_identity([seat_strategy("hostile_probe"), seat_strategy("collector", focus=1)])
    assert saved_identity[0][3] == str(plugin)
    document["configuration"]["strategies"] = saved_identity
    path = _write(tmp_path, document, sign=True)
    checkpoint.read(path, RUN)  # the same code: fine
    resume.check_strategies(path, saved_identity, [seat_strategy("hostile_probe"), seat_strategy("collector", focus=1)])
    plugin.write_text(PLUGIN + "\n# edited after the checkpoint was saved\n")
    message = _refused(path, "run")
    assert message.endswith(": the code of strategy hostile_probe changed since the checkpoint was saved")
    with pytest.raises(CheckpointError, match="the code of strategy hostile_probe changed"):
        resume.check_strategies(path, saved_identity, [seat_strategy("hostile_probe")])
    strategy = registry.strategies.pop("hostile_probe")
    try:
        message = _refused(path, "run")
        assert f"strategy hostile_probe is not registered; the checkpoint's run had it from {plugin}" in message
    finally:
        registry.strategies["hostile_probe"] = strategy


def test_fingerprint_follows_the_source_file(monkeypatch, genuine, tmp_path):
    """Any change in what strategies_fingerprint reports is a changed strategy."""
    from medici_sim.core import dispatch

    path = _write(tmp_path, _document(genuine, "run")[0])
    checkpoint.read(path, RUN)
    real = dispatch.strategies_fingerprint
    monkeypatch.setattr(identity, "strategies_fingerprint", lambda s: "f" * 16 if s.name == "greedy" else real(s))
    assert _refused(path, "run").endswith(": the code of strategy greedy changed since the checkpoint was saved")


# ============================================================== options next to --resume

def test_check_matches_names_the_option(genuine):
    path = genuine["run"][0]
    saved = checkpoint.read(path, RUN).configuration
    current = copy.deepcopy(saved)
    current["seed"] = 5
    resume.check_matches(path, saved, current, set())  # not given: the saved seed is used
    for options in ({"seed"}, {"--seed"}, {"seed", "games"}):
        with pytest.raises(CheckpointError) as refusal:
            resume.check_matches(path, saved, current, options)
        assert str(refusal.value) == f"--resume {path}: --seed 5 disagrees with the checkpoint (seed 3)"
    resume.check_matches(path, saved, copy.deepcopy(saved), {"seed", "games", "strategies", "components_path"})
    current = copy.deepcopy(saved)
    current["strategies"][1] = ["collector", {"focus": 1.0, **{k: p.default for k, p in
                                                              GAMES["card"].registry["collector"].params.items()
                                                              if k != "focus"}}, "", ""]
    with pytest.raises(CheckpointError) as refusal:
        resume.check_matches(path, saved, current, {"strategies"})
    assert str(refusal.value) == (f"--resume {path}: --strategies expert,collector:focus=1,greedy,cautious disagrees "
                                  "with the checkpoint (strategies expert,random,greedy,cautious)")
    current = copy.deepcopy(saved)
    current["components"] = {"cards": 19, "fingerprint": "0" * 16, "contents": ""}
    with pytest.raises(CheckpointError, match=r"--components \(19 cards, fingerprint 0000000000000000\) disagrees "
                                              r"with the checkpoint's deck \(110 cards"):
        resume.check_matches(path, saved, current, {"components_path"})
    for older in ("deck_path", "--deck", "--decks"):  # the option's older names are checked alike
        with pytest.raises(CheckpointError, match="disagrees with the checkpoint's deck"):
            resume.check_matches(path, saved, current, {older})


def test_check_matches_on_a_study(genuine):
    path = genuine["compare24"][0]
    saved = checkpoint.read(path, COMPARE).configuration
    current = copy.deepcopy(saved)
    current["tournaments"] = current["tournaments"][:1]
    with pytest.raises(CheckpointError) as refusal:
        resume.check_matches(path, saved, current, {"players_spec"})
    assert str(refusal.value) == f"--resume {path}: --players 2 disagrees with the checkpoint (players 2,4)"
    current = copy.deepcopy(saved)
    current["precision"] = 0.01
    with pytest.raises(CheckpointError, match=r"--precision 0.01 disagrees with the checkpoint \(precision none\)"):
        resume.check_matches(path, saved, current, {"precision"})


def test_load_keeps_the_format_1_comparison(genuine):
    path = genuine["run"][0]
    configuration = copy.deepcopy(checkpoint.read(path, RUN).configuration)
    assert checkpoint.load(path, RUN, configuration)["totals"]["run"][0] == 3000
    configuration["seed"] = 4
    with pytest.raises(CheckpointError, match=r"the seed differs \(checkpoint: 3; now: 4\)"):
        checkpoint.load(path, RUN, configuration)


def test_save_never_writes_what_read_refuses(tmp_path):
    with pytest.raises(ValueError):
        checkpoint.save(tmp_path / "nan.ckpt", "run", {"x": math.nan}, {})
    assert not (tmp_path / "nan.ckpt").exists()


# ============================================================== random mutations of genuine checkpoints

def _paths(value, prefix=()):
    """Every place in a JSON document: (path, value)."""
    yield prefix, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*prefix, i))


def _replacements(value):
    out = [None, True, False, "x", "", [], {}, -1, 2**63, 2**64 + 7, 0.5]
    if type(value) is int:
        out += [value + 1, value - 1, value + 60, value * 2, float(value), value + 0.5, -value, str(value)]
    elif type(value) is float:
        out += [value + 1e-9, value * 1.5, -value, int(value), 1e308]
    elif type(value) is str:
        out += [value + "x", value[:-1], value.upper(), 7]
    elif type(value) is list and value:
        out += [value[:-1], value + value[-1:], value[::-1], [value]]
    elif type(value) is dict:
        out += [dict(list(value.items())[:-1])]
    return out


@st.composite
def mutated(draw, document: dict, text: str):
    """A genuine checkpoint's text, changed in one of many ways: (kind, bytes)."""
    kind = draw(st.sampled_from(["value", "value", "value", "delete", "add", "truncate", "flip", "twice", "special"]))
    if kind == "flip" and draw(st.booleans()):  # a flip that parses, with its tracks covered
        data = bytearray(text.encode())
        i = draw(st.integers(0, len(data) - 1))
        data[i] ^= 1 << draw(st.integers(0, 7))
        try:
            flipped = json.loads(bytes(data))
            return "flip, signed", json.dumps(_sign(flipped)).encode()
        except (ValueError, KeyError, TypeError, RecursionError):
            return kind, bytes(data)
    if kind in ("value", "delete", "add"):
        document = copy.deepcopy(document)
        places = list(_paths(document))
        if kind == "value":
            path, value = draw(st.sampled_from(places[1:]))
            parent = document
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = draw(st.sampled_from(_replacements(value)))
        else:
            path, container = draw(st.sampled_from([(p, v) for p, v in places if isinstance(v, dict) and v]))
            if kind == "delete":
                del container[draw(st.sampled_from(list(container)))]
            else:
                container[draw(st.sampled_from(["extra", "Format", " seed"]))] = draw(st.sampled_from([0, None, "x"]))
        if draw(st.booleans()):
            try:
                _sign(document)
                kind += ", signed"
            except (KeyError, ValueError, TypeError):
                pass
        return kind, json.dumps(document).encode()
    data = text.encode()
    if kind == "truncate":
        return kind, data[: draw(st.integers(0, len(data) - 1))]
    if kind == "flip":
        i = draw(st.integers(0, len(data) - 1))
        return kind, data[:i] + bytes([data[i] ^ (1 << draw(st.integers(0, 7)))]) + data[i + 1:]
    if kind == "twice":  # a key written twice in its object
        keys = sorted({str(p[-1]) for p, _ in _paths(document) if p and isinstance(p[-1], str)})
        key = draw(st.sampled_from(keys))
        marker = f'"{key}": '
        start = text.index(marker)
        return kind, (text[:start] + marker + "0, " + text[start:]).encode()
    numbers = [i for i, ch in enumerate(text) if ch.isdigit() and not text[i - 1].isdigit()]
    i = draw(st.sampled_from(numbers))
    end = i
    while end < len(text) and (text[end].isdigit() or text[end] in ".eE"):
        end += 1
    token = draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-0", "1.0", "0.0e0"]))
    return kind, (text[:i] + token + text[end:]).encode()


def _fuzz(genuine, tmp_path, name, data) -> None:
    path, command = genuine[name]
    text = path.read_text()
    kind, blob = data.draw(mutated(json.loads(text), text))
    target = tmp_path / "mutated.ckpt"
    target.write_bytes(blob)
    try:
        saved = checkpoint.read(target, FORMATS[command])
    except CheckpointError as exc:
        message = str(exc)
        assert message.startswith(f"--resume {target}: ") and "\n" not in message, message
        event(f"{kind}: refused")
        return
    assert_consistent(saved)
    event(f"{kind}: accepted")


@FUZZ
@given(data=st.data())
def test_mutated_run_checkpoints_are_refused_or_consistent(genuine, tmp_path, data):
    _fuzz(genuine, tmp_path, "run", data)


@FUZZ
@given(data=st.data())
def test_mutated_study_checkpoints_are_refused_or_consistent(genuine, tmp_path, data):
    _fuzz(genuine, tmp_path, "compare24", data)


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_partial_checkpoints_are_refused_or_consistent(genuine, tmp_path, data):
    _fuzz(genuine, tmp_path, data.draw(st.sampled_from(["partial_run", "partial_precision", "balance"])), data)
