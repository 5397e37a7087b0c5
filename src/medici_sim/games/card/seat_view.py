"""What the game-AI frameworks' adapters (``medici_sim.frameworks``) need of the card game (its
seat view in its framework facts, game.py; the protocol: docs/frameworks.md): stable action ids and their
names, its chance events (cards turned up, a starter drawn: games.medici.chance), what each seat
can see (``INFORMATION``), as text and as a fixed-size vector, and the score its returns are.

Everything in the card game is face up but the deck's order (R7, R20: the cards in the deck
are known, ``state.unseen``), so every seat sees the same table: the vector holds each card's
place (deck, market with its place from the end, out of play, a seat's ship or warehouse),
the florins, the day, who decides what, and whose view it is.
"""
from __future__ import annotations

import numpy as np

from ...core.chance import Pool
from ...core.contract import EVERYONE, Hidden, Information
from ...core.resumable import DECISION, STEP_EVENT
from ..medici import chance
from .console import card_text, cards_text, taken_cards
from .engine import MAX_TAKES, REVEAL_DECISION, TAKE_DECISION
from .rules import (
    DAYS,
    GOODS,
    N_GOODS,
    RULE_BIG_BONUS,
    RULE_BONUS,
    RULE_CAPACITY,
    RULE_DAYS,
    RULE_PLAYERS,
    RULE_REVEALS,
)
from .state import DAY, DECK_LEN, MARKET_LEN, N_CARDS, OUT_LEN, REVEALED

SCORE = "florins"  # the state field of each seat's florins (R22): the game's score
RETURNS = "florins"  # what returns= calls it
DECK = Pool("deck", ("counts", DECK_LEN))  # the engine draws below(n) of deck[:counts[DECK_LEN]] (docs/protocol.md)
# Every card is face up but the deck's order, which no seat knows and no outcome depends on (R7, R20): with its
# draws as chance outcomes every seat sees, a game of perfect information.
INFORMATION = Information(hidden=(
    Hidden("the order of the deck (R7, R20; which cards it holds is known)", EVERYONE, chance.redeal_unseen(DECK)),))

# Action ids: R9 0 stop / 1 reveal another card; R10 2 + the take flags (bit 0: the 2nd-, bit 1: the 3rd-from-last).
STOP, REVEAL, TAKE = 0, 1, 2
N_ACTIONS = TAKE + MAX_TAKES
# the most florins a seat can end with follows the rules in force: most_score(s)


def players(s) -> int:
    return int(s["rules"][RULE_PLAYERS])


def n_cards(s) -> int:
    return int(s["counts"][N_CARDS])


def scores(s) -> list[int]:
    """Each seat's florins (R22): the game's score."""
    return [int(m) for m in s[SCORE][:players(s)]]


def chance_outcome_count(s) -> int:
    """Chance outcomes: a card turned up (its id), or n_cards + the seat drawn to start the next day (R21)."""
    return n_cards(s) + players(s)


def chance_event(before, after, event: int):
    """The chance event an engine call made (core.chance): cards turned up (R9), a starter drawn (R21)."""
    return chance.chance_event(DECK, SCORE, before, after, event, n_cards(before), players(before))


def chance_text(s, outcome: int) -> str:
    return chance.chance_text(s, outcome, n_cards(s), card_text)


def observation_bound(s) -> float:
    """The largest entry of the observation vector: florins, or a count of cards."""
    return float(max(most_score(s), n_cards(s)))


def most_moves(s) -> tuple[int, int]:
    """The most decisions and chance nodes a game under ``s``'s rules can have: each turn takes at
    least the last card (R10), a non-green one only into a ship with room (at most players x
    capacity a day) or a green one (at most the deck's green cards), so a day has at most that
    many turns; each turn asks at most ``reveals`` times whether to reveal (R9) and once what to
    take, and turns up at most ``reveals`` cards (no more than the deck holds); a starter drawn
    among the poorest (R21) is one more chance node between days."""
    days, reveals = int(s["rules"][RULE_DAYS]), int(s["rules"][RULE_REVEALS])
    turns = players(s) * int(s["rules"][RULE_CAPACITY]) + int(s["card_green"][:n_cards(s)].sum())
    return days * turns * (reveals + 1), days * min(n_cards(s), turns * reveals) + days - 1


def most_score(s) -> int:
    """The most florins a seat can end with under ``s``'s rules: every day the best ship payout
    (R14) and, for each good, the best majority share (R17) and the larger bonus (R18, R19)."""
    bonus = max(int(s["rules"][RULE_BONUS]), int(s["rules"][RULE_BIG_BONUS]))
    return int(s["rules"][RULE_DAYS]) * (int(s["ship_payouts"].max()) + N_GOODS * (int(s["majority_share"].max())
                                                                                   + bonus))


def action_count(s) -> int:
    """How many action ids there are (the same under any rules)."""
    return N_ACTIONS


def action_of(decision: int, choice: int) -> int:
    return choice if decision == REVEAL_DECISION else TAKE + choice


def choice_of(action: int) -> tuple[int, int]:
    """(decision, choice) of an action id."""
    return (REVEAL_DECISION, action) if action < TAKE else (TAKE_DECISION, action - TAKE)


def action_text(s, action: int) -> str:
    if action == STOP:
        return "stop revealing"
    if action == REVEAL:
        return "reveal a card"
    flags = action - TAKE
    what = ("the last card", "the last 2 cards", "the last and the 3rd-from-last", "the last 3 cards")[flags]
    if decision_of(s) != TAKE_DECISION:
        return f"take {what}"
    return f"take {what} ({cards_text(s, taken_cards(s, flags))})"


def decision_of(s) -> int:
    """The decision the game is stopped at (core.resumable.DECISION + k), as k; -1 elsewhere."""
    event = int(s["step"][STEP_EVENT]) - DECISION
    return event if event >= 0 else -1


def observation_size(s) -> int:
    p = players(s)
    return n_cards(s) * (6 + 2 * p) + 3 * p + N_GOODS * p + 2 + DAYS + 1 + 2 * p


def observe(s, seat: int, actor: int, out: np.ndarray) -> None:
    """Fill ``out`` (observation_size floats) with what ``seat`` sees; ``actor`` the seat to decide (-1: none)."""
    p, n = players(s), n_cards(s)
    out[:] = 0
    # each card: in the deck, the market, out; last, 2nd, 3rd of the market; on a ship; in a warehouse
    place = out[:n * (6 + 2 * p)].reshape(n, 6 + 2 * p)
    counts = s["counts"]
    place[s["deck"][:counts[DECK_LEN]], 0] = 1
    market = s["market"][:counts[MARKET_LEN]]
    place[market, 1] = 1
    place[s["out"][:counts[OUT_LEN]], 2] = 1
    for back in range(1, min(3, len(market)) + 1):
        place[market[-back], 2 + back] = 1
    for q in range(p):
        place[s["ship"][q, :s["ship_len"][q]], 6 + q] = 1
        place[s["warehouse"][q, :s["warehouse_len"][q]], 6 + p + q] = 1
    rest = out[n * (6 + 2 * p):]
    rest[:p] = s["florins"][:p]
    rest[p:2 * p] = s["ship_used"][:p]
    rest[2 * p + seat] = 1
    rest[3 * p:3 * p + N_GOODS * p] = s["warehouse_icons"][:p].ravel()
    at = 3 * p + N_GOODS * p
    decision = decision_of(s)
    if decision >= 0:
        rest[at + decision] = 1
    rest[at + 2 + min(int(counts[DAY]), DAYS - 1)] = 1
    rest[at + 2 + DAYS] = counts[REVEALED]
    if actor >= 0:
        rest[at + 3 + DAYS + actor] = 1


def observation_text(s, seat: int, actor: int) -> str:
    """The table as ``seat`` sees it, in words."""
    p = players(s)
    counts = s["counts"]
    capacity = int(s["rules"][RULE_CAPACITY])
    decision = decision_of(s)
    asked = {REVEAL_DECISION: "reveal another card?", TAKE_DECISION: "which cards to take?"}.get(decision, "")
    lines = [f"day {int(counts[DAY]) + 1}; you are seat {seat + 1}"
             + (f"; seat {actor + 1} decides: {asked}" if actor >= 0 else "")
             + f"; deck: {int(counts[DECK_LEN])} cards; revealed this turn: {int(counts[REVEALED])}",
             f"market: {cards_text(s, s['market'][:counts[MARKET_LEN]])}"]
    for q in range(p):
        icons = " ".join(f"{GOODS[g]} {int(s['warehouse_icons'][q, g])}" for g in range(N_GOODS))
        lines.append(f"seat {q + 1}: {int(s['florins'][q])} florins; ship {int(s['ship_used'][q])}/{capacity}: "
                     f"{cards_text(s, s['ship'][q, :s['ship_len'][q]])}; warehouse icons: {icons}")
    return "\n".join(lines)
