"""The reference engine's players: the decisions a strategy answers, and T38-T39's random player.

Every decision of The Castles of Tuscany is a method of :class:`Strategy`, called with the
seat's :class:`~.reference.SeatView` (what the seat sees, T-hidden information: its own hand
and storage, every estate, the display, the scores, the supplies' sizes, the rivals' hand
sizes; never a deck's order or a stack's tiles) and the list of legal options; it returns
one element of the list (the engine refuses anything else). Options are listed in a fixed
order, given with each method, so that a uniform choice is one reproducible draw.

:class:`RandomPlayer` is the canonical random player of T38-T39, exactly as written: each
uniform choice among k > 1 options is one ``below(k)`` draw of the game's generator (a choice
among one option draws nothing), the marble's 1/2 is one ``coin()``, and it never uses T17.
"""
from __future__ import annotations

from dataclasses import dataclass

from .rules import COLOURS


@dataclass(frozen=True, order=True)
class Payment:
    """T18: two units of the field's colour: ``cards`` of that colour, ``workers``, and one
    pair of cards per entry of ``pairs`` (colour indices, ascending; two pairs may share one)."""

    cards: int
    workers: int
    pairs: tuple[int, ...]

    def describe(self) -> str:
        parts = [f"{self.cards} card{'s' * (self.cards != 1)}"] if self.cards else []
        parts += [f"{self.workers} worker{'s' * (self.workers != 1)}"] if self.workers else []
        parts += [f"a pair of {COLOURS[c]}" for c in self.pairs]
        return " + ".join(parts)


class Strategy:
    """The decisions of one seat. Each method returns one of ``options``."""

    name = "strategy"

    def assembly(self, view, options):
        """T12: the estate's assembly: legal assembly numbers (geometry.py), ascending."""
        raise NotImplementedError

    def castle_field(self, view, options):
        """T12: the starting castle's field: the estate's D fields, ascending."""
        raise NotImplementedError

    def bonus(self, view, options):
        """T12, T25: a bonus tile kind (rules.BONUS_KINDS index) among those in supply, ascending."""
        raise NotImplementedError

    def action(self, view, options):
        """T13, T32: the legal actions among DRAW, TAKE, PLACE (rules.ACTIONS), in that order."""
        raise NotImplementedError

    def refresh(self, view, options):
        """T17: None (take as usual) or a tile kind shown in the display to remove (ascending)."""
        return None

    def take(self, view, options):
        """T14: a display place holding a tile, ascending (after T17: those the seat can place)."""
        raise NotImplementedError

    def discard(self, view, options):
        """T14: with storage full, the storage index of the item removed from the game, ascending."""
        raise NotImplementedError

    def place(self, view, options):
        """T18-T19: a (storage index, field) pair: items in storage order, each with its legal,
        payable fields ascending."""
        raise NotImplementedError

    def payment(self, view, colour, options):
        """T18: how to pay for a field of ``colour``: every distinct Payment, most matching cards
        first, then most workers, then pair colours in COLOURS order."""
        raise NotImplementedError

    def castle(self, view, options):
        """T24: a (display place, field) pair: places ascending, each with its legal fields ascending."""
        raise NotImplementedError

    def marble(self, view) -> bool:
        """T32: spend a marble for one more action?"""
        raise NotImplementedError


def canonical_payment(hand, workers: int, colour: int) -> Payment:
    """T39's payment: matching cards first, then workers, then pairs, each pair from the other
    colour holding most cards at that moment (at least two; ties: the first in COLOURS)."""
    cards = min(hand[colour], 2)
    used = min(workers, 2 - cards)
    left = list(hand)
    pairs = []
    for _ in range(2 - cards - used):
        best = max((c for c in range(len(COLOURS)) if c != colour and left[c] >= 2), key=lambda c: (left[c], -c))
        left[best] -= 2
        pairs.append(best)
    return Payment(cards, used, tuple(sorted(pairs)))


class RandomPlayer(Strategy):
    """T38-T39, exactly as written."""

    name = "random"

    def uniform(self, view, options):
        """One option uniformly: ``below(k)`` among k > 1 options, no draw among one."""
        return options[view.rng.below(len(options))] if len(options) > 1 else options[0]

    # T38: assembly, castle field, bonus kind; T39: action, display tile, discard, placement,
    # the castle's (tile, field), the city's bonus kind: each uniform among its options
    assembly = castle_field = bonus = action = take = discard = place = castle = uniform

    def payment(self, view, colour, options):
        return canonical_payment(view.hand, view.workers, colour)

    def marble(self, view) -> bool:
        return view.rng.coin()
