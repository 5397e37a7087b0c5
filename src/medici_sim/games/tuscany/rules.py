"""The rules of The Castles of Tuscany as plain data (docs/rules-tuscany.md, T1-T40).

Every number of the rules a designer may change is a rule parameter of :data:`RULE_BOOK`
(core.rules), with the rulebook's value as its default (T40). What the box holds (boards,
cards, tiles, colour bonus values) is a component set instead (``components.py``). The preset
``original`` is the first edition's rule: the draw action draws 2 region cards, not 3 (T13).
"""
from __future__ import annotations

from ...core.rules import RuleBook, RuleParam

MIN_PLAYERS = 2  # T1
MAX_PLAYERS = 4  # T1
PHASES = 3  # T15, T34

# The eight colours, one letter each (cards and tiles share them), in this order everywhere
# (the canonical random player's tie-break order, T39).
COLOURS = "DRULOYWG"
N_COLOURS = len(COLOURS)
CASTLE, CITY, INN, AGRICULTURE, VILLAGE, MONASTERY, WAGON, QUARRY = range(N_COLOURS)

# T3: the five bonus tile kinds, in this order (the random player's choice lists them so).
BONUS_KINDS = ("card", "storage", "marble", "worker", "yield")
BONUS_CARD, BONUS_STORAGE, BONUS_MARBLE, BONUS_WORKER, BONUS_YIELD = range(len(BONUS_KINDS))
BONUS_TILES_PER_KIND = 5  # T3

# T13: the three actions, in this order (the random player's choice lists them so, T39).
ACTIONS = ("draw", "take", "place")
DRAW, TAKE, PLACE = range(len(ACTIONS))

REGION_SIZES = 3  # T9: regions have 1 to 3 fields
STORAGE_SPACES = 1  # T11: storage spaces before any +1 storage bonus tile

RULE_BOOK = RuleBook(
    game="tuscany",
    players=(MIN_PLAYERS, MAX_PLAYERS),
    params=(
        RuleParam("draw", "T13", "region cards the draw action draws, plus one per +1 card bonus tile",
                  lambda players: 3, 0, 20),
        RuleParam("start_hand", "T12", "region cards each player draws at setup", lambda players: 5, 0, 30),
        RuleParam("later_seat_cards", "T12", "a designer's start bonus for the later seats (not in the rulebook: "
                  "0): seat k draws start_hand + (k - 1) x this region cards at setup", lambda players: 0, 0, 10),
        RuleParam("monastery_draw", "T29", "region cards a monastery draws (bonus tiles do not apply)",
                  lambda players: 3, 0, 20),
        RuleParam("region_scores", "T21", "green for completing a region of 1, 2 and 3 fields",
                  lambda players: (1, 3, 6), 0, 100, lambda players, values: REGION_SIZES, "one per region size"),
        RuleParam("storage_green", "T12", "green for taking a +1 storage bonus tile (at setup or by a city, T25)",
                  lambda players: 2, 0, 100),
        RuleParam("no_room_red", "T26", "red for a blue hexagon gained with no free storage space",
                  lambda players: 2, 0, 100),
        RuleParam("final_storage", "T35", "red at the end for each tile or hexagon in storage",
                  lambda players: 1, 0, 100),
        RuleParam("final_marble", "T35", "red at the end for each marble", lambda players: 1, 0, 100),
        RuleParam("final_worker", "T35", "red at the end for each worker", lambda players: 1, 0, 100),
        RuleParam("final_cards", "T35", "region cards in hand per red point at the end (rounded down); 0: none",
                  lambda players: 3, 0, 100),
        RuleParam("stack_size", "T10", "tiles in each of a player's three stacks (the rest of its tiles stay "
                  "in the box)", lambda players: 7, 1, 30),
        RuleParam("display", "T10", "face-up places of the display", lambda players: 8, 1, 16),
        RuleParam("round_limit", "T37", "rounds after which a game ends as if phase 3 had ended",
                  lambda players: 300, 1, 10_000),
    ),
    presets={"standard": lambda players: {},
             "original": lambda players: {"draw": 2}},
    preset_help={"standard": "the rulebook's rules (the seed's edition: draw 3 region cards)",
                 "original": "the first edition: the draw action draws 2 region cards (T13)"},
)
VARIANTS = tuple(RULE_BOOK.presets)  # standard, original
