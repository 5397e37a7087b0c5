"""The rules of Medici: The Card Game as plain data (docs/rules-card.md R6, R14, R17-R19).

Everything here is plain Python; the kernels receive these numbers as arrays built by
:func:`rule_arrays`, so the rules live in exactly one place.
"""
from __future__ import annotations

import numpy as np

GOODS = ("grain", "spice", "fur", "dye", "cloth")
N_GOODS = len(GOODS)
NO_GOOD = -1

MIN_PLAYERS = 2
MAX_PLAYERS = 6
DAYS = 3
MAX_REVEALS_PER_TURN = 3  # R9

VARIANTS = ("standard", "bonus20")  # R19: the rulebook's optional variant
STANDARD, BONUS20 = 0, 1

# R14: ship payouts by place, indexed by player count.
SHIP_PAYOUTS = {
    2: (20, 0),
    3: (30, 15, 0),
    4: (30, 20, 10, 0),
    5: (30, 20, 10, 5, 0),
    6: (30, 20, 15, 10, 5, 0),
}
MAJORITY_PAYOUTS = (10, 5)  # R17: most icons, second most
BONUS = 10  # R18
BIG_BONUS = 20  # R19


def ship_capacity(players: int) -> int:
    """R6: non-green cards a ship holds."""
    return 7 if players == 2 else 5


def bonus_threshold(players: int) -> int:
    """R18: icons of one good needed for the 10-florin bonus."""
    return 7 if players == 2 else 5


def big_bonus_threshold(players: int) -> int:
    """R19: icons of one good needed for the 20-florin bonus under bonus20."""
    return 10 if players == 2 else 8


# Indices into the rules array handed to the kernels.
RULE_PLAYERS, RULE_CAPACITY, RULE_BONUS_MIN, RULE_BONUS, RULE_BIG_BONUS_MIN, RULE_BIG_BONUS = range(6)
N_RULES = 6


def rule_arrays(players: int, variant: int) -> tuple[np.ndarray, np.ndarray]:
    """(rules, ship_payouts) as int64 arrays for the kernels.

    Under the standard rules the big bonus threshold is set out of reach, so the
    kernels need no branch on the variant.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {players}")
    if variant not in (STANDARD, BONUS20):
        raise ValueError(f"unknown variant {variant}")
    rules = np.zeros(N_RULES, np.int64)
    rules[RULE_PLAYERS] = players
    rules[RULE_CAPACITY] = ship_capacity(players)
    rules[RULE_BONUS_MIN] = bonus_threshold(players)
    rules[RULE_BONUS] = BONUS
    rules[RULE_BIG_BONUS_MIN] = big_bonus_threshold(players) if variant == BONUS20 else np.iinfo(np.int64).max
    rules[RULE_BIG_BONUS] = BIG_BONUS
    return rules, np.array(SHIP_PAYOUTS[players], np.int64)


def variant_id(name: str) -> int:
    return VARIANTS.index(name)
SHARE_COIN = 5  # R15: 5 florins is the smallest payment: shares are rounded down to it
