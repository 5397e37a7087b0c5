"""What the game-AI frameworks' adapters (``medici_sim.frameworks``) need of the classic game (its
seat view in its framework facts, game.py; the protocol: docs/frameworks.md): stable action ids and
their names, its chance events (cards turned up, a starter drawn: games.medici.chance), what each
seat can see (``INFORMATION``), as text and as a fixed-size vector, and the score its returns are.

Everything is face up but the day's deck and the cards set aside face down (C5), which
nobody can tell apart: every seat sees the same table. The vector holds each card's place
(unseen, the lot with its place, set aside unsold, a seat's ship), money, goods tracks, the
auction (auctioneer, best bid and bidder, each seat's answer), the deck's size, the day, who
decides what, and whose view it is.
"""
from __future__ import annotations

import numpy as np

from ...core.chance import Pool
from ...core.contract import EVERYONE, Hidden, Information
from ...core.resumable import DECISION, STEP_EVENT
from ..medici import chance
from .console import card_text, cards_text
from .engine import BID_DECISION, DRAW_DECISION
from .rules import (
    DAYS,
    GOODS,
    MAX_LOT,
    N_CARDS,
    N_GOODS,
    RULE_DAYS,
    RULE_PLAYERS,
    RULE_REMOVED,
    RULE_START_MONEY,
)
from .state import AUCTIONEER, DAY, DECK_LEN, DISCARD_LEN, HIGH_BIDDER, HIGHEST, LOT_LEN

SCORE = "money"  # the state field of each seat's money (C18): the game's score
RETURNS = "florins"  # what returns= calls it
# the engine draws below(n) of deck[:counts[DECK_LEN]] (docs/protocol-classic.md); C5: removed[:rules[RULE_REMOVED]]
# lie face down beside it
DECK = Pool("deck", ("counts", DECK_LEN), "removed", ("rules", RULE_REMOVED))
# Everything is face up but the day's deck and the cards set aside (C5), which nobody can tell apart and no outcome
# depends on: with the cards turned up as chance outcomes every seat sees, a game of perfect information.
INFORMATION = Information(hidden=(
    Hidden("the order of the day's deck and which of its cards lie set aside face down (C5)", EVERYONE,
           chance.redeal_unseen(DECK)),))

# Action ids: C8 0 offer the lot / 1 draw another card; C9 2 + the bid (2: pass).
OFFER, DRAW, BID = 0, 1, 2
# how many action ids, and the most money, follow the rules in force: action_count(s), most_score(s)


def players(s) -> int:
    return int(s["rules"][RULE_PLAYERS])


def n_cards(s) -> int:
    return N_CARDS


def hidden_count(s) -> int:
    return int(s["rules"][RULE_REMOVED])


def scores(s) -> list[int]:
    """Each seat's money (C18): the game's score."""
    return [int(m) for m in s[SCORE][:players(s)]]


def chance_outcome_count(s) -> int:
    """Chance outcomes: a card turned up (its id), or N_CARDS + the seat drawn to start the next day (C6)."""
    return N_CARDS + players(s)


def chance_event(before, after, event: int):
    """The chance event an engine call made (core.chance): cards turned up (C8, C11), a starter drawn (C6)."""
    return chance.chance_event(DECK, SCORE, before, after, event, N_CARDS, players(before))


def chance_text(s, outcome: int) -> str:
    return chance.chance_text(s, outcome, N_CARDS, card_text)


def observation_bound(s) -> float:
    """The largest entry of the observation vector: money, or a count of cards."""
    return float(max(most_score(s), N_CARDS))


def most_moves(s) -> tuple[int, int]:
    """The most decisions and chance nodes a game under ``s``'s rules can have: a day's deck holds
    the cards not set aside (C5); each turn turns up at least one of them (C8), so a day has at
    most that many turns, each with at most one bid or pass per seat (C9) and at most one
    question whether to draw per card in its lot; every card turned up (C8, C11) is a chance
    node, and so is a starter drawn among the poorest (C6) between days."""
    days, cards = int(s["rules"][RULE_DAYS]), N_CARDS - hidden_count(s)
    return days * cards * (players(s) + 1), days * cards + days - 1


def most_score(s) -> int:
    """The most florins a seat can hold under ``s``'s rules: its starting money (C4) and, every
    day, the best ship payout (C13) and, for each good, the best majority share (C15) and the
    largest track bonus (C16); bids only ever pay money away (C10)."""
    return int(s["rules"][RULE_START_MONEY]) + int(s["rules"][RULE_DAYS]) * (
        int(s["ship_payouts"].max()) + N_GOODS * (int(s["majority_share"].max()) + int(s["track_bonus"].max())))


def action_count(s) -> int:
    """How many action ids there are under ``s``'s rules: a bid of up to the most money a seat can hold."""
    return BID + most_score(s) + 1


def action_of(decision: int, choice: int) -> int:
    return choice if decision == DRAW_DECISION else BID + choice


def choice_of(action: int) -> tuple[int, int]:
    """(decision, choice) of an action id."""
    return (DRAW_DECISION, action) if action < BID else (BID_DECISION, action - BID)


def action_text(s, action: int) -> str:
    if action == OFFER:
        return "offer the lot"
    if action == DRAW:
        return "draw another card"
    return "pass" if action == BID else f"bid {action - BID}"


def decision_of(s) -> int:
    """The decision the game is stopped at (core.resumable.DECISION + k), as k; -1 elsewhere."""
    event = int(s["step"][STEP_EVENT]) - DECISION
    return event if event >= 0 else -1


def observation_size(s) -> int:
    p = players(s)
    return N_CARDS * (3 + MAX_LOT + p) + p * (5 + N_GOODS) + 2 + 2 + DAYS + p


def observe(s, seat: int, actor: int, out: np.ndarray) -> None:
    """Fill ``out`` (observation_size floats) with what ``seat`` sees; ``actor`` the seat to decide (-1: none)."""
    p = players(s)
    counts = s["counts"]
    out[:] = 0
    width = 3 + MAX_LOT + p  # unseen, in the lot, set aside unsold, the lot's places, ships
    place = out[:N_CARDS * width].reshape(N_CARDS, width)
    lot = s["lot"][:counts[LOT_LEN]]
    place[lot, 1] = 1
    place[lot, 3 + np.arange(len(lot))] = 1
    place[s["discard"][:counts[DISCARD_LEN]], 2] = 1
    for q in range(p):
        place[s["ship"][q, :s["ship_len"][q]], 3 + MAX_LOT + q] = 1
    place[:, 0] = place[:, 1:3].sum(axis=1) + place[:, 3 + MAX_LOT:].sum(axis=1) == 0
    rest = out[N_CARDS * width:]
    rest[:p] = s["money"][:p]
    rest[p:2 * p] = s["turn_bid"][:p]
    rest[2 * p + seat] = 1
    if counts[HIGH_BIDDER] >= 0:
        rest[3 * p + counts[HIGH_BIDDER]] = 1
    rest[4 * p + counts[AUCTIONEER]] = 1
    rest[5 * p:5 * p + N_GOODS * p] = s["track"][:p].ravel()
    at = 5 * p + N_GOODS * p
    rest[at] = counts[HIGHEST]
    rest[at + 1] = counts[DECK_LEN]
    decision = decision_of(s)
    if decision >= 0:
        rest[at + 2 + decision] = 1
    rest[at + 4 + min(int(counts[DAY]), DAYS - 1)] = 1
    if actor >= 0:
        rest[at + 4 + DAYS + actor] = 1


def observation_text(s, seat: int, actor: int) -> str:
    """The table as ``seat`` sees it, in words."""
    p = players(s)
    counts = s["counts"]
    decision = decision_of(s)
    asked = {DRAW_DECISION: "draw another card?", BID_DECISION: "bid or pass?"}.get(decision, "")
    best = f"best bid {int(counts[HIGHEST])} by seat {int(counts[HIGH_BIDDER]) + 1}" if counts[HIGH_BIDDER] >= 0 \
        else "no bid yet"
    lines = [f"day {int(counts[DAY]) + 1}; you are seat {seat + 1}" + (f"; seat {actor + 1} decides: {asked}"
                                                                         if actor >= 0 else "")
             + f"; deck: {int(counts[DECK_LEN])} cards",
             f"seat {int(counts[AUCTIONEER]) + 1} auctions: {cards_text(s, s['lot'][:counts[LOT_LEN]])}; {best}"]
    for q in range(p):
        levels = " ".join(f"{GOODS[g]} {int(s['track'][q, g])}" for g in range(N_GOODS))
        cargo = cards_text(s, s["ship"][q, :s["ship_len"][q]])
        lines.append(f"seat {q + 1}: {int(s['money'][q])} florins; ship: {cargo}; tracks: {levels}")
    return "\n".join(lines)
