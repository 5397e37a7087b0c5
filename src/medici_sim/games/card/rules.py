"""The rules of Medici: The Card Game as plain data (docs/rules-card.md R6, R9, R14-R19, R22).

Every number a designer may change is a rule parameter of :data:`RULE_BOOK` (core.rules),
with the rulebook's value as its default; a run plays a rule set of them. Everything here
is plain Python; the kernels receive a rule set's numbers as arrays built by
:func:`rule_arrays`, so the rules live in exactly one place.
"""
from __future__ import annotations

import numpy as np

from ...core.rules import Dependency, RuleBook, RuleParam, RuleSet

GOODS = ("grain", "spice", "fur", "dye", "cloth")
N_GOODS = len(GOODS)
NO_GOOD = -1

MIN_PLAYERS = 2
MAX_PLAYERS = 6
DAYS = 3  # R22
MAX_REVEALS_PER_TURN = 3  # R9

MAX_DAYS = 5  # the engine's day records are this long; the rulebook plays DAYS
MAX_REVEALS = 5  # most cards a turn may reveal under any rules (the turn record's room, state.TURN_*)

# R14: ship payouts by place, indexed by player count.
SHIP_PAYOUTS = {
    2: (20, 0),
    3: (30, 15, 0),
    4: (30, 20, 10, 0),
    5: (30, 20, 10, 5, 0),
    6: (30, 20, 15, 10, 5, 0),
}
MAJORITY_PAYOUTS = (10, 5)  # R17: most icons, second most
SHARE_COIN = 5  # R15: shares are rounded down to a multiple of it
BONUS = 10  # R18
BIG_BONUS = 20  # R19
OFF = 0  # big_bonus_min: no big bonus (the standard rules)


def ship_capacity(players: int) -> int:
    """R6: non-green cards a ship holds."""
    return 7 if players == 2 else 5


def bonus_threshold(players: int) -> int:
    """R18: icons of one good needed for the 10-florin bonus."""
    return 7 if players == 2 else 5


def big_bonus_threshold(players: int) -> int:
    """R19: icons of one good needed for the 20-florin bonus under bonus20."""
    return 10 if players == 2 else 8


RULE_BOOK = RuleBook(
    game="card",
    players=(MIN_PLAYERS, MAX_PLAYERS),
    params=(
        RuleParam("days", "R22", "days played; the game ends after the last day's scoring",
                  lambda players: DAYS, 1, MAX_DAYS),
        RuleParam("ship_capacity", "R6", "non-green cards a ship holds", ship_capacity, 1, 20),
        RuleParam("reveals_per_turn", "R9", "most cards a player turns up in one turn",
                  lambda players: MAX_REVEALS_PER_TURN, 1, MAX_REVEALS),
        RuleParam("ship_payouts", "R14", "florins for the most valuable ship, the second, ... (one per place)",
                  lambda players: SHIP_PAYOUTS[players], 0, 500, lambda players, values: players, "one per place"),
        RuleParam("share_coin", "R15", "tied players' shares are rounded down to a multiple of this",
                  lambda players: SHARE_COIN, 1, 100),
        RuleParam("majority_payouts", "R17", "florins for the most and the second most icons of a good",
                  lambda players: MAJORITY_PAYOUTS, 0, 500, lambda players, values: 2, "most, second most"),
        RuleParam("bonus_min", "R18", "icons of one good that earn the bonus", bonus_threshold, 1, 100),
        RuleParam("bonus", "R18", "florins the bonus pays, never shared", lambda players: BONUS, 0, 500),
        RuleParam("big_bonus_min", "R19", "icons of one good that earn the big bonus instead (0: no big bonus)",
                  lambda players: OFF, 0, 100),
        RuleParam("big_bonus", "R19", "florins the big bonus pays instead of the bonus", lambda players: BIG_BONUS,
                  0, 500),
    ),
    contradiction=lambda players, values: (
        f"big_bonus_min={values['big_bonus_min']} must be above bonus_min={values['bonus_min']}: the big bonus "
        "replaces the bonus at a higher count (R19; big_bonus_min=0: no big bonus)"
        if 0 < values["big_bonus_min"] <= values["bonus_min"] else ""),
    # parameters that act only while another switches them on (core.rules; docs/rules-card.md#rule-parameters)
    dependencies=(
        Dependency(("big_bonus",), "big_bonus_min", lambda values: values["big_bonus_min"] > 0,
                   "big_bonus_min above bonus_min (0 is no big bonus; the bonus20 preset sets it)", "R19"),
    ),
    presets={"standard": lambda players: {},
             "bonus20": lambda players: {"big_bonus_min": big_bonus_threshold(players)}},
    preset_help={"standard": "the rulebook's rules",
                 "bonus20": "the rulebook's variant: 20 florins for 8+ icons of a good (10+ with 2 players), R19"},
)
VARIANTS = tuple(RULE_BOOK.presets)  # the presets by name: standard, bonus20 (R19)
STANDARD, BONUS20 = 0, 1

# Indices into the rules array handed to the kernels.
(RULE_PLAYERS, RULE_CAPACITY, RULE_BONUS_MIN, RULE_BONUS, RULE_BIG_BONUS_MIN, RULE_BIG_BONUS, RULE_DAYS,
 RULE_REVEALS) = range(8)
N_RULES = 8


def rule_arrays(rules: RuleSet) -> tuple[np.ndarray, np.ndarray]:
    """(rules, ship_payouts) as int64 arrays for the kernels.

    Without a big bonus (R19, ``big_bonus_min`` 0) its threshold is set out of reach, so the
    kernels need no branch on it.
    """
    values = rules.values
    array = np.zeros(N_RULES, np.int64)
    array[RULE_PLAYERS] = rules.players
    array[RULE_CAPACITY] = values["ship_capacity"]
    array[RULE_BONUS_MIN] = values["bonus_min"]
    array[RULE_BONUS] = values["bonus"]
    array[RULE_BIG_BONUS_MIN] = values["big_bonus_min"] or np.iinfo(np.int64).max
    array[RULE_BIG_BONUS] = values["big_bonus"]
    array[RULE_DAYS] = values["days"]
    array[RULE_REVEALS] = values["reveals_per_turn"]
    return array, np.array(values["ship_payouts"], np.int64)
