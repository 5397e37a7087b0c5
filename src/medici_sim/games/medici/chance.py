"""The Medici games' chance events and hidden things, as their seat views declare them (framework
facts: core.contract.Information, core.chance): the cards turned up from the deck (R9; C8, C11),
the next day's starter drawn among the poorest seats (R21, C6), and the deck's order (with the
classic game's cards set aside face down, C5), which no seat knows and the adapters decide only
as cards are turned up."""
from __future__ import annotations

from functools import partial

import numpy as np

from ...core.chance import Draws, Pick, Pool
from ...core.resumable import STEP_ACTOR
from .days import DAY_OVER

# The unseen-card sums (each game's ``state.unseen``) as an optional part of the state (core.registry.Strategy.reads):
# kept up to date only in the runs where a seated strategy reads them.
UNSEEN_PART = "unseen"


def chance_event(deck: Pool, money: str, before, after, event: int, n_cards: int, players: int):
    """What the engine call that made ``after`` of ``before`` drew (core.chance): the cards it
    turned up from ``deck``, each an outcome (its card id); or, at the end of a day, the next
    day's starter among the seats tied for the least ``money`` (an outcome: ``n_cards`` + the
    seat); None for a draw no seat sees (the classic game dealing the next day's face-down
    cards, C5, stays the engine's own)."""
    draws = Draws.made(deck, before, after)
    if draws is not None:
        return draws
    if event == DAY_OVER:
        held = after[money][:players]
        tied = [int(p) for p in np.flatnonzero(held == held.min())]
        return Pick(tied, int(after["step"][STEP_ACTOR]), n_cards, ("step", STEP_ACTOR))
    return None


def chance_text(s, outcome: int, n_cards: int, card_text) -> str:
    """A chance outcome in words: a card turned up, or the next day's starter."""
    if outcome >= n_cards:
        return f"seat {outcome - n_cards + 1} starts the next day"
    return f"turn up card {outcome} ({card_text(s, outcome)})"


def _redeal(deck: Pool, s, seat: int, generator) -> None:
    unseen = generator.permutation(deck.unseen(s))
    n = deck.size(s)
    s[deck.items][:n] = unseen[:n]
    if deck.aside:
        s[deck.aside][:len(unseen) - n] = unseen[n:]


def redeal_unseen(deck: Pool):
    """``Hidden.redeal`` of the deck's order: the unseen cards (the deck's, and any set aside face
    down) shuffled among their places; which cards are unseen is known to every seat."""
    return partial(_redeal, deck)
