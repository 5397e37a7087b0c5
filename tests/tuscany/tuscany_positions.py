"""Positions built by hand for the Tuscany rule tests: a scripted strategy and a known estate.

Every seat gets boards A1, B1, C1 in assembly 0 (no turns), the starting castle on field 15,
and nothing else (empty hand, storage, supplies of its own). The estate, field numbers as in
geometry.py (slot, row, column -> 10 * slot + 5 * row + column), colour letters as in rules.py:

     0L  1O  2R  3O  4G
      5W  6L  7Y  8U  9D
    10G 11Y 12L 13Y 14R
     15D 16W 17G 18L 19O
    20O 21W 22G 23L 24U
     25D 26W 27Y 28O 29R

Regions of more than one field: L 6+12, Y 7+13, W 16+21+26, G 17+22, L 18+23.
"""
from __future__ import annotations

from medici_sim.games.tuscany.components import components
from medici_sim.games.tuscany.reference import START_CASTLE, Game, Player
from medici_sim.games.tuscany.reference_players import RandomPlayer, canonical_payment
from medici_sim.games.tuscany.rules import COLOURS, DRAW, RULE_BOOK

CASTLE_FIELD = 15
DECISIONS = ("assembly", "castle_field", "bonus", "action", "refresh", "take", "discard", "place", "castle")


def colour(letter: str) -> int:
    return COLOURS.index(letter)


class Scripted(RandomPlayer):
    """Answers each decision from ``answers[decision]``: a list (used first to last), a
    function of (view, options) or a fixed answer; unscripted, it draws cards, takes the first
    option, pays as T39 does and keeps its marble. ``asked`` logs (decision, options, view facts)."""

    name = "scripted"

    def __init__(self, **answers):
        self.answers = answers
        self.asked: list[tuple[str, list, dict]] = []

    def _answer(self, decision, view, options):
        facts = {"green": view.scores(view.seat)[0], "display": view.display, "storage": view.storage}
        self.asked.append((decision, list(options), facts))
        answer = self.answers.get(decision)
        if isinstance(answer, list) and answer:
            return answer.pop(0)
        if callable(answer):
            return answer(view, options)
        if answer is not None and not isinstance(answer, list):
            return answer
        return DRAW if decision == "action" else None if decision == "refresh" else options[0]

    def payment(self, view, colour, options):
        answer = self.answers.get("payment")
        return answer(view, options) if callable(answer) else canonical_payment(view.hand, view.workers, colour)

    def marble(self, view):
        self.asked.append(("marble", [True, False], {}))
        return bool(self.answers.get("marble", False))


for _decision in DECISIONS:
    setattr(Scripted, _decision, lambda self, view, options, _d=_decision: self._answer(_d, view, options))


def new_game(players: int = 2, rules: str | None = None, strategies=None, comp=None) -> Game:
    """A game after setup, each seat reset to the known estate and nothing else."""
    comp = comp or components()
    strategies = strategies or [Scripted() for _ in range(players)]
    game = Game(comp, RULE_BOOK.resolve(rules, players), [RandomPlayer() for _ in strategies], seed=7).setup()
    boards = {b.name: b for b in comp.boards}
    for seat, old in enumerate(game.players):
        p = Player(seat, old.slot, strategies[old.slot])
        p.stacks = old.stacks
        p.boards = (boards["A1"], boards["B1"], boards["C1"])
        game.assemble(p, 0)
        p.field_item[CASTLE_FIELD] = START_CASTLE
        game.players[seat] = p
    game.bonus_supply = [5] * 5
    return game


def tile(game: Game, letter: str, owner: int = -1, types: int | None = None, nth: int = 0) -> int:
    """The id of a tile of that colour (owner -1: neutral; ``types``: its agriculture mask)."""
    found = [t for t, k in enumerate(game.tile_kind) if k == colour(letter) and game.tile_owner[t] == owner
             and (types is None or game.tile_types[t] == types)]
    return found[nth]


def cover(game: Game, seat: int, *fields: int) -> None:
    """Cover fields with neutral tiles of their colour (no scoring, no effect)."""
    p = game.players[seat]
    for f in fields:
        p.field_item[f] = tile(game, COLOURS[p.colours[f]])
