"""The rules of Medici, the 1995 auction game ("classic"), as plain data.

Points C1-C21 are those of docs/rules-classic.md; card ids follow docs/protocol-classic.md.
Every number a designer may change is a rule parameter of :data:`RULE_BOOK` (core.rules),
with the rulebook's value as its default; a run plays a rule set of them. Everything here
is plain Python (no numba), so that the reference engine and the jitted engine read the
same numbers. The jitted engine gets them as int64 arrays from :func:`rule_arrays` and
:func:`card_arrays`.
"""
from __future__ import annotations

import numpy as np

from ...core.rules import RuleBook, RuleParam, RuleSet

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
MIN_BID = 1  # C9: a bid is at least 1 florin

# C2 / protocol "Cards": card 7*g + k (k = 0..6) is good g with value GOOD_CARD_VALUES[k];
# card 35 is the gold card (value 10, no good).
GOOD_CARD_VALUES = (0, 1, 2, 3, 4, 5, 5)
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

# The most any rule set may ask for: the engine's arrays are this big (state.py).
MAX_DAYS = 5  # days recorded
MAX_HOLDS = 8  # holds of a ship
MAX_LOT_CARDS = MAX_HOLDS  # cards of a lot (a lot never outgrows every ship, C8)
MAX_TRACK = 12  # the top of a goods track (the expert's scratch row has room for its tables, strategies/expert.py)


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


def lot_too_big(players: int, values) -> str:
    """Why a rule set cannot be played as written, or "": C8 lets a lot grow only while some
    ship could hold it, so a lot bigger than a ship never happens."""
    if values["lot_size"] > values["ship_holds"]:
        return (f"lot_size={values['lot_size']} can never be reached: a lot grows only while some ship has room "
                f"for it (C8), and ships hold ship_holds={values['ship_holds']} (C3)")
    return ""


RULE_BOOK = RuleBook(
    game="classic",
    players=(MIN_PLAYERS, MAX_PLAYERS),
    params=(
        RuleParam("days", "C18", "days played; the game ends after the last day's scoring",
                  lambda players: DAYS, 1, MAX_DAYS),
        RuleParam("starting_money", "C4", "florins each player starts with", starting_money, 0, 500),
        RuleParam("ship_holds", "C3", "holds of a ship: the most cards it carries", lambda players: HOLDS,
                  1, MAX_HOLDS),
        RuleParam("lot_size", "C8", "most cards the auctioneer may put in one lot", lambda players: MAX_LOT,
                  1, MAX_LOT_CARDS),
        RuleParam("min_bid", "C9", "the lowest bid: every bid is at least this and above the best so far",
                  lambda players: MIN_BID, 1, 100),
        RuleParam("ship_payouts", "C13", "florins for the most valuable ship, the second, ... (one per place)",
                  lambda players: SHIP_PAYOUTS[players], 0, 500, lambda players, values: players, "one per place"),
        RuleParam("share_coin", "C13", "tied players' shares are rounded down to a multiple of this (C13, C15)",
                  lambda players: SHARE_COIN, 1, 100),
        RuleParam("majority_payouts", "C15", "florins for the highest and the second highest level on a track",
                  lambda players: MAJORITY_PAYOUTS, 0, 500, lambda players, values: 2, "highest, second highest"),
        RuleParam("track_max", "C14", "the top of a goods track: levels never pass it", lambda players: TRACK_MAX,
                  1, MAX_TRACK),
        RuleParam("track_bonus", "C16", "florins a track level pays at every day's scoring, never shared "
                  "(one per level 0..track_max)", lambda players: TRACK_BONUS, 0, 500,
                  lambda players, values: values["track_max"] + 1, "one per level 0..track_max"),
    ),
    contradiction=lot_too_big,
    presets={"standard": lambda players: {}},
    preset_help={"standard": "the rulebook's rules"},
)
VARIANTS = tuple(RULE_BOOK.presets)  # the presets by name: standard (the rulebook describes no variant)

# Indices into the rules vector handed to the jitted engine (see rule_arrays).
(RULE_PLAYERS, RULE_START_MONEY, RULE_REMOVED, RULE_DAYS, RULE_HOLDS, RULE_LOT_SIZE, RULE_MIN_BID,
 RULE_TRACK_MAX) = range(8)
N_RULES = 8


def rule_arrays(rules: RuleSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A rule set as int64 arrays for the kernels: ``(rules, ship_payouts, track_bonus)``.

    * ``rules`` has N_RULES entries (RULE_*): the player count (C1), the starting florins
      (C4), the cards removed each day (C5, 36 - 6 * players: derived, not a parameter), the
      days (C18), the holds (C3), the most cards in a lot (C8), the lowest bid (C9) and the
      top of a track (C14).
    * ``ship_payouts`` has MAX_PLAYERS entries: place r (0-based) pays ``ship_payouts[r]``
      (C13); places the table does not list are padded with 0, so a tie group reaching past
      the table adds nothing.
    * ``track_bonus`` has MAX_TRACK + 1 entries: what each level pays (C16), 0 past the top.

    :func:`card_arrays` gives the cards as arrays.
    """
    values = rules.values
    array = np.zeros(N_RULES, np.int64)
    array[RULE_PLAYERS] = rules.players
    array[RULE_START_MONEY] = values["starting_money"]
    array[RULE_REMOVED] = removed_cards(rules.players)
    array[RULE_DAYS] = values["days"]
    array[RULE_HOLDS] = values["ship_holds"]
    array[RULE_LOT_SIZE] = values["lot_size"]
    array[RULE_MIN_BID] = values["min_bid"]
    array[RULE_TRACK_MAX] = values["track_max"]
    ship_payouts = np.zeros(MAX_PLAYERS, np.int64)
    ship_payouts[: rules.players] = values["ship_payouts"]
    track_bonus = np.zeros(MAX_TRACK + 1, np.int64)
    track_bonus[: values["track_max"] + 1] = values["track_bonus"]
    return array, ship_payouts, track_bonus


def card_arrays() -> tuple[np.ndarray, np.ndarray]:
    """``(card_good, card_value)`` as int64 arrays of N_CARDS (C2; gold has good NO_GOOD)."""
    return np.array(CARD_GOOD, np.int64), np.array(CARD_VALUE, np.int64)
