"""The Castles of Tuscany as the shared code sees it: its ``Game`` record (core.contract) and the hooks it names.

Its parts: the jitted engine's batch hooks (game.py) and stepping (stepped.py), the trace and the reference
engine's record (recording.py), the narration of ``medici-sim trace`` (narrate.py), the play console (console.py),
the seat view and framework facts (seat_view.py), the component sets as game data (components.py) and the T40
rule book (rules.py). The ladder's heuristics are the built-ins other than ``random`` (``strategies/base.py``'s
``BUILT_INS``).
"""
from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np

from ...core.contract import (
    Engine,
    FirstCommand,
    Game,
    GameData,
    Presentation,
    ScoreSource,
    StatColumn,
    StudyPolicy,
)
from . import game as kernel_game
from . import narrate, recording, seat_view, stepped
from .components import DEFAULT, ComponentError, components, named_components, of_run, parse_components
from .reference import GREEN_SOURCES, RED_SOURCES
from .rules import MAX_PLAYERS, MIN_PLAYERS, PHASES, RULE_BOOK, VARIANTS
from .state import N_SOURCES, N_TALLY
from .strategies import BUILT_INS, REGISTRY, search, strong, strong_value
from .tables import check_fits, new_state

# Where the points come from (state.P_*, the kernel's source columns in this order): green points from regions
# (T21), colour bonuses (T22), agriculture (T27), yield cards (T30) and the storage bonus (T12, T25); red points
# from banking green at each phase's end (T34), yield cards (T30), a hexagon without room (T26) and the final
# scoring (T35). The score (mean_score) is red: banking + red yield + no room + final.
SOURCE_HEADINGS = {"regions": "regions", "colour_bonus": "colour bonuses", "agriculture": "agriculture",
                   "yield_green": "yield green", "storage_bonus": "storage bonus",  # green points
                   "banking": "banked", "yield_red": "yield red", "no_room": "no room", "final": "final"}  # red
SOURCES = tuple(ScoreSource(name, SOURCE_HEADINGS[name]) for name in GREEN_SOURCES + RED_SOURCES)
assert len(SOURCES) == N_SOURCES
TUNED_FILE = Path(__file__).parent / "data" / "tuned" / "tuned.json"  # what balance --tuned shipped plays
TIE_BREAKS = "T36: most red points, then most empty fields, then fewest green points, then fewest cards in hand"


def kernel_inputs(config, kept_parts) -> np.ndarray:
    """The state every game of the run starts from (tables.new_state): its component set and rule set (the
    game's state has no optional parts: ``kept_parts`` is empty)."""
    return new_state(of_run(config), config.rule_set)


def check_config(config) -> None:
    """A component set of this game, fitting the engine's arrays and the rules' stacks (T10)."""
    data = of_run(config)
    if not hasattr(data, "boards_of_type"):
        raise ValueError("the tuscany game needs a component set (medici_sim.games.tuscany.components.Components)")
    check_fits(data, config.rule_set)


def invariants(record: dict, config) -> None:
    """What holds in every game: red is the red sources' sum, green the green sources', the win shared out
    exactly (T36), the phases ended in order (T15) unless T37 ended the game, placing only what was gained."""
    seats = record["seats"]
    for s in range(config.players):
        assert seats["red"][s] == sum(seats[k][s] for k in RED_SOURCES), "red is not the sum of its sources"
        assert seats["green"][s] >= 0 and min(seats[k][s] for k in GREEN_SOURCES + RED_SOURCES) >= 0
        assert seats["workers_used"][s] <= seats["workers_gained"][s], "a worker used that was never gained"
        assert seats["marble_used"][s] <= seats["marble_gained"][s], "a marble used that was never gained"
    assert sum(seats["winner_share60"]) == 60, "the win was not shared out exactly (T36)"
    ends = [r for r in record["phase_end_round"] if r]
    assert ends == sorted(ends) and all(r <= record["rounds"] for r in ends), "phases ended out of order (T15)"
    assert record["reached_limit"] or len(ends) == PHASES, "the game ended before its third phase (T15, T37)"


def shipped_name(data) -> str | None:
    """The name of the shipped set with ``data``'s contents, or None."""
    return next((n for n, c in named_components().items() if c.fingerprint() == data.fingerprint()), None)


def from_text(contents: str):
    """A component set from its file contents (a checkpoint's copy): the shipped set itself when it is one."""
    data = parse_components(contents, "components saved in the checkpoint")
    name = shipped_name(data)
    return named_components()[name] if name is not None else data


def load(spec):
    try:
        return components(spec)
    except ComponentError:
        raise
    except (OSError, ValueError) as exc:
        raise ComponentError(f"components {spec}: {exc}") from None


OWN_COLUMNS = (
    StatColumn("green", shown="green", caption="green points at the end"),
    *(StatColumn(name) for name in recording.TALLY_NAMES),
    StatColumn("cards_left", shown="cards", caption="region cards left in hand"),
    StatColumn("workers_left"), StatColumn("marble_left"), StatColumn("storage_left"),
    StatColumn("empty_fields", shown="empty", caption="empty estate fields at the end (T36's first tie-break)"),
    StatColumn("bonus_tiles"),
)
assert len(OWN_COLUMNS) == 1 + N_TALLY + 6 == kernel_game.N_STATS - kernel_game.N_COMMON_STATS

GAME = Game(
    name="tuscany",
    title="The Castles of Tuscany",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=MAX_PLAYERS,
    presets=VARIANTS,
    rule_book=RULE_BOOK,
    registry=REGISTRY,
    built_ins=BUILT_INS,
    engine=Engine(
        play_games_nb=kernel_game.play_games_nb,
        play_game_in_nb=kernel_game.play_game_in_nb,
        kernel_inputs=kernel_inputs,
        stepping=stepped.STEPPING,
        scores=lambda state, players: state["red"][:players].copy(),  # T35: red points
        stat_columns=OWN_COLUMNS,
        run_columns=(*(f"phase{k + 1}_end_round" for k in range(PHASES)), "reached_round_limit", "refreshes",
                     "t17_refreshes"),
        check_config=check_config,
        trace=recording.trace,
        reference_game=recording.reference_game,
        reference_strategies=recording.reference_strategies,
        invariants=invariants,
        moment="phase",  # scored at the end of each phase (T34)
        moments=PHASES,
        tie_breaks=TIE_BREAKS,
        # benchmarks/bench_compile.py --game tuscany, 2026-11-27, on a machine busy with a test run (CPU s inflated)
        compile_seconds=((27, 52), 94),
    ),
    data=GameData(
        load=load,  # None: the default set (components.components)
        from_text=from_text,
        named=named_components,
        shipped_name=shipped_name,
        help=("tuscany only: a shipped component set by name ({names}; each a reconstruction, docs/rules-tuscany.md) "
              f"or a component JSON file (format: docs/rules-tuscany.md, 'The component file') [default: {DEFAULT}]."),
    ),
    presentation=Presentation(
        summary="The Castles of Tuscany, rules T1-T40",
        rules_page="docs/rules-tuscany.md",
        rule_points={"players": "T1", "seats": "T12", "seating": "T12", "seed": "T38", "rules": "T40",
                     "lineups": "T12"},
        presets_help="standard [default] or original: the first edition, the draw action draws 2 region cards (T13)",
        narration_help=("setup (T12), each decision with its rule point (T13-T32) and what each turn scored by "
                        "source (T20-T31), each phase's banking (T15, T34) with every estate drawn as a hex map, "
                        "the final scoring (T35) and the standings (T36)."),
        narrate=narrate.narrate,
        play_console=lambda: importlib.import_module(".console", __package__).TuscanyConsole,
        length_unit="rounds",
        score_unit="points",
        score_sources=SOURCES,
        first_commands=(  # the README's table of questions: the game's run and balance
            FirstCommand("run (tuscany)", ("--game", "tuscany", "--games", "20000")),
            FirstCommand("balance (tuscany)", ("balance", "--game", "tuscany", "--players", "4", "--games", "2000")),
        ),
    ),
    study=StudyPolicy(
        balance_rules=VARIANTS,  # standard against original (T13's draw of 3 or 2)
        weakest="random",  # the ladder's heuristics: BUILT_INS other than random, as they are written
        searcher="search", strongest="strong", teacher="expert",  # strong: trained on expert's games
        rollout_policy=search.ROLLOUT_POLICY,
        tuned_file=TUNED_FILE,  # tune --out's tuned tables (tuning-history/tuscany.json, scripts/ship_tuned.py)
        learned=lambda: strong,  # its training declaration (study.strong_training)
        kernel_data=(strong.WEIGHTS_FILE, strong_value.VALUE_FILE),  # compiled into strong's kernels
    ),
    framework=seat_view.FRAMEWORK,
)
