"""A minimal ``Game`` record of The Castles of Tuscany, so that its stepping, trace, play console and framework
facts run through the commands and the conformance suite before the game's full record (issue 32's
registration: its component data, score sources, study policy) is merged; that record replaces this one.

The parts this branch fills: ``Engine.stepping`` (stepped.STEPPING), ``Engine.trace``,
``Engine.reference_game``, ``Engine.reference_strategies`` (recording.py), ``Presentation.narrate``
(narrate.narrate), ``Presentation.play_console`` (console.TuscanyConsole), ``Game.framework``
(seat_view.FRAMEWORK); the rest is the least the contract asks.
"""
from __future__ import annotations

import importlib

from ...core.contract import Engine, Game, Presentation, StatColumn
from . import game, narrate, recording, seat_view, stepped
from .components import components
from .geometry import ESTATE_FIELDS
from .reference import GREEN_SOURCES, RED_SOURCES
from .rules import MAX_PLAYERS, MIN_PLAYERS, PHASES, RULE_BOOK, VARIANTS
from .strategies import BUILT_INS, REGISTRY
from .tables import new_state


def kernel_inputs(config):
    return new_state(config.deck if config.deck is not None else components(), config.rules)


def invariants(record: dict, config) -> None:
    """Red and green never below 0; no seat covers more fields than its estate has (T9)."""
    seats = record["seats"]
    assert all(v >= 0 for v in seats["red"] + seats["green"]), "a negative score"
    assert all(0 <= e <= ESTATE_FIELDS for e in seats["empty_fields"]), "empty fields out of range"


STATS = ("green", *(f"{s}_points" for s in GREEN_SOURCES + RED_SOURCES), *recording.TALLY_NAMES, "cards_left",
         "workers_left", "marble_left", "storage_left", "empty_fields", "bonus_tiles")
RUNS = (*(f"phase{p + 1}_end_round" for p in range(PHASES)), "reached_limit", "refreshes", "t17_refreshes")

GAME = Game(
    name="tuscany", title="The Castles of Tuscany", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    default_players=4, variants=VARIANTS, registry=REGISTRY, built_ins=BUILT_INS, rule_book=RULE_BOOK,
    engine=Engine(
        play_games_nb=game.play_games_nb, play_game_in_nb=game.play_game_in_nb, kernel_inputs=kernel_inputs,
        stepping=stepped.STEPPING, scores=lambda s, players: s["red"][:players].copy(),
        stat_columns=tuple(StatColumn(name) for name in STATS), run_columns=RUNS,
        trace=recording.trace, reference_game=recording.reference_game,
        reference_strategies=recording.reference_strategies, invariants=invariants,
        moment="phase", moments=PHASES),
    presentation=Presentation(
        summary="The Castles of Tuscany, rules T1-T40", rules_page="docs/rules-tuscany.md",
        variant_help="standard [default] or original: the draw action draws 2 region cards (T13)",
        rule_points={"players": "T1", "seats": "T12", "seating": "T12", "seed": "T38", "variant": "T40"},
        narration_help=("setup (T12), each decision with its rule point (T13-T32) and what each turn scored by "
                        "source (T20-T31), each phase's banking (T15, T34) with every estate drawn as a hex map, "
                        "the final scoring (T35) and the standings (T36)."),
        narrate=narrate.narrate,
        play_console=lambda: importlib.import_module(".console", __package__).TuscanyConsole,
        length_unit="rounds", score_unit="points"),
    framework=seat_view.FRAMEWORK,
)
assert len(STATS) == game.N_STATS - game.STAT_GREEN
