"""The rules of Medici, the 1995 auction game ("classic"), as plain data.

Points C1-C21 are those of docs/rules-classic.md; card ids follow docs/protocol-classic.md.
Everything here is plain Python (no numba), so that the reference engine and the jitted
engine read the same numbers. The jitted engine gets them as int64 arrays from
:func:`rule_arrays` and :func:`card_arrays`.
"""
from __future__ import annotations

import numpy as np

# C2: the five goods, numbered 0..4 in this order (protocol: Cards).
GOODS = ("grain", "spice", "fur", "dye", "cloth")
N_GOODS = len(GOODS)
NO_GOOD = -1  # the gold card's good

MIN_PLAYERS = 3  # C1
MAX_PLAYERS = 6  # C1
DAYS = 3  # C18: the game ends after the third day's scoring

N_CARDS = 36  # C2
HOLDS = 5  # C3: holds per ship
MAX_LOT = 3  # C8: a lot is 1, 2 or 3 cards

# C2 / protocol "Cards": card 7*g + k (k = 0..6) is good g with value GOOD_CARD_VALUES[k];
# card 35 is the gold card (value 10, no good).
GOOD_CARD_VALUES = (0, 1, 2, 3, 4, 5, 5)
CARDS_PER_GOOD = len(GOOD_CARD_VALUES)
GOLD_CARD = 35
GOLD_VALUE = 10
CARD_GOOD = tuple(g for g in range(N_GOODS) for _ in GOOD_CARD_VALUES) + (NO_GOOD,)
CARD_VALUE = tuple(v for _ in range(N_GOODS) for v in GOOD_CARD_VALUES) + (GOLD_VALUE,)
assert len(CARD_GOOD) == len(CARD_VALUE) == N_CARDS and CARD_GOOD[GOLD_CARD] == NO_GOOD

TRACK_MAX = 7  # C14: a goods track runs from 0 to 7

# C13: ship payouts by place (1st, 2nd, ...), by player count.
SHIP_PAYOUTS = {
    3: (30, 15, 0),
    4: (30, 20, 10, 0),
    5: (30, 20, 10, 5, 0),
    6: (30, 20, 15, 10, 5, 0),
}
MAJORITY_PAYOUTS = (10, 5)  # C15: highest level, second highest level
SHARE_COIN = 1  # C13, C15: a shared payout is rounded down to a whole florin
TRACK_BONUS = (0, 0, 0, 0, 0, 5, 10, 20)  # C16: indexed by track level 0..7; never shared
assert len(TRACK_BONUS) == TRACK_MAX + 1


def check_players(players: int) -> None:
    """C1: 3 to 6 players; anything else is a ValueError."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {players}")


def starting_money(players: int) -> int:
    """C4: florins each player starts with: 40 with 3 or 4 players, 30 with 5 or 6."""
    check_players(players)
    return 40 if players <= 4 else 30


def removed_cards(players: int) -> int:
    """C5: cards removed face down at the start of each day: 36 - 6 * players
    (18, 12, 6, 0 for 3, 4, 5, 6 players). The day's deck keeps 6 * players cards."""
    check_players(players)
    return N_CARDS - 6 * players


# Indices into the rules vector handed to the jitted engine (see rule_arrays).
RULE_PLAYERS, RULE_START_MONEY, RULE_REMOVED = range(3)
N_RULES = 3


def rule_arrays(players: int) -> tuple[np.ndarray, np.ndarray]:
    """The per-player-count rules as int64 arrays: ``(rules, ship_payouts)``.

    * ``rules`` has N_RULES entries: ``rules[RULE_PLAYERS]`` the player count (C1),
      ``rules[RULE_START_MONEY]`` the starting florins (C4), ``rules[RULE_REMOVED]`` the
      cards removed each day (C5).
    * ``ship_payouts`` has MAX_PLAYERS entries: place r (0-based) pays ``ship_payouts[r]``
      (C13); places the table does not list are padded with 0, so a tie group reaching past
      the table adds nothing.

    Everything that does not depend on the player count (cards, majorities, bonuses, the
    track cap) is a module constant; :func:`card_arrays` gives the cards as arrays.
    """
    check_players(players)
    rules = np.zeros(N_RULES, np.int64)
    rules[RULE_PLAYERS] = players
    rules[RULE_START_MONEY] = starting_money(players)
    rules[RULE_REMOVED] = removed_cards(players)
    ship_payouts = np.zeros(MAX_PLAYERS, np.int64)
    ship_payouts[: players] = SHIP_PAYOUTS[players]
    return rules, ship_payouts


def card_arrays() -> tuple[np.ndarray, np.ndarray]:
    """``(card_good, card_value)`` as int64 arrays of N_CARDS (C2; gold has good NO_GOOD)."""
    return np.array(CARD_GOOD, np.int64), np.array(CARD_VALUE, np.int64)
