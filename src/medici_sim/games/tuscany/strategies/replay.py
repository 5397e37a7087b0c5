"""A jitted Tuscany strategy seated in the reference engine: :class:`JittedPlayer` answers each decision
by calling the strategy's own ``@njit`` decision function on a *seat state*, a ``GameState`` record
written from what the seat sees in the reference game (its :class:`~..reference.SeatView`'s game).

So the reference engine plays the jitted strategies' games without a second, plain-Python copy of each
strategy, and tests/tuscany/test_tuscany_strategies.py compares its games with the jitted engine's,
record for record. The seat state holds only what the seat may see (state.py's list: its own hand and
storage; every estate, score, bonus tile and stack size; the display; the supplies' sizes; rivals' hand
sizes); what it may not see (the region and yield decks and discards, the neutral supply, every stack's
tiles, the tiles out of the game, rivals' hands and stored items) is filled with noise drawn afresh at
every decision. A strategy reading any of those decides differently from the jitted engine, where they
hold the truth, and the comparison fails: the hidden-information test of issue 33.

Each decision costs a seat state (tens of microseconds): for tests, not for runs. The strategy must not
draw from the game's generator (the seat state's ``rng`` is noise too); the heuristics do not.
"""
from __future__ import annotations

import numpy as np

from ....core.registry import MAX_PARAMS
from ..components import Components
from ..geometry import ESTATE_FIELDS
from ..reference import HEX, START_CASTLE, Game
from ..reference_players import Payment
from ..reference_players import Strategy as ReferenceStrategy
from ..rules import N_COLOURS
from ..state import (
    DECK_LEN,
    DISCARD_LEN,
    EMPTY,
    FIELD_CODE,
    N_OPTIONS,
    OCCUPIED,
    OUT_LEN,
    PAY_COLOUR,
    PHASE,
    PHASE_PENDING,
    REFRESHES,
    ROUND,
    SUPPLY_LEN,
    T17_REFRESHES,
    YIELD_DISCARD_LEN,
    YIELD_LEN,
    payment_parts,
)
from ..state import HEX as STATE_HEX
from ..state import START_CASTLE as STATE_START_CASTLE
from ..tables import new_state

HIDDEN = ("deck", "discards", "yield_deck", "yield_discards", "supply", "tiles", "out")  # never the seat's to see
ITEM = {HEX: STATE_HEX, START_CASTLE: STATE_START_CASTLE, None: EMPTY}  # reference items as the state's
assert HEX == STATE_HEX and START_CASTLE == STATE_START_CASTLE


def board_index(components: Components, board) -> int:
    """A dealt board's index within its type (the state's ``boards``)."""
    return components.boards_of_type(board.type).index(board)


class JittedPlayer(ReferenceStrategy):
    """The reference engine's player for a registered jitted strategy (by name), with ``params`` (name ->
    value; the strategy's defaults otherwise)."""

    def __init__(self, name: str, params: dict | None = None, noise_seed: int = 0):
        from . import REGISTRY  # noqa: PLC0415  (this module is imported by tests, not by the package)

        strategy = REGISTRY[name]
        self.name, self.decisions = name, strategy.decisions
        values = [params.get(p, d.default) if params else d.default for p, d in strategy.params.items()]
        self.params = tuple(float(v) for v in values) + (0.0,) * (MAX_PARAMS - len(values))
        self.noise = np.random.default_rng(noise_seed)
        self.buffer = None  # the seat state, made at the first decision (its scratch row lives on)

    # -- the seat state -------------------------------------------------------------------------

    def seat_state(self, view, options=()):
        """The GameState record the seat sees now, options encoded as the jitted engine encodes them."""
        game: Game = view._game  # noqa: SLF001  (the reference's whole game: only what the seat sees is copied)
        if self.buffer is None:
            self.buffer = new_state(game.components, game.rules)
        state = self.buffer[0]
        for name in HIDDEN:
            state[name] = self.noise.integers(0, 2**31, state[name].shape)
        state["hand"] = self.noise.integers(0, 99, state["hand"].shape)
        state["storage"] = self.noise.integers(0, 2**31, state["storage"].shape)
        state["rng"] = self.noise.integers(0, 2**63, 1, dtype=np.uint64)
        self.table(game, state)
        for p in game.players:
            self.seat(game, state, p, own=p.seat == view.seat)
        state["counts"][N_OPTIONS] = len(options)
        state["options"][:len(options)] = options
        return state

    @staticmethod
    def table(game: Game, state) -> None:
        """The display, the supplies' sizes, the bonus tiles and the phase: everyone's to see."""
        counts = state["counts"]
        counts[:] = 0
        counts[PHASE], counts[ROUND], counts[PHASE_PENDING] = game.phase, game.round, game.phase_pending
        counts[DECK_LEN], counts[DISCARD_LEN] = len(game.deck), len(game.discards)
        counts[YIELD_LEN], counts[YIELD_DISCARD_LEN] = len(game.yield_deck), len(game.yield_discards)
        counts[SUPPLY_LEN], counts[OUT_LEN] = len(game.supply), len(game.out)
        counts[REFRESHES], counts[T17_REFRESHES] = game.refreshes, game.t17_refreshes
        state["display"] = EMPTY
        state["shown"] = 0
        for place, tile in enumerate(game.display):
            if tile is not None:
                state["display"][place] = tile
                state["shown"][game.tile_kind[tile]] += 1
                counts[OCCUPIED] |= 1 << place
        state["bonus_supply"] = game.bonus_supply
        state["colour_claims"] = game.colour_claims
        state["phase_end_round"] = game.phase_end_round

    @staticmethod
    def seat(game: Game, state, p, own: bool) -> None:
        """One seat's pieces and estate (its hand and stored items only if ``own``)."""
        s, size = p.seat, game.rules["stack_size"]
        state["stack_top"][s] = [size - len(stack) for stack in p.stacks]
        state["storage_len"][s] = len(p.storage)
        if own:
            state["hand"][s] = p.hand
            state["storage"][s, :len(p.storage)] = [ITEM.get(item, item) for item in p.storage]
        state["hand_total"][s] = sum(p.hand)
        state["workers"][s], state["marble"][s] = p.workers, p.marble
        state["bonus"][s] = p.bonus
        state["green"][s], state["red"][s] = p.green, p.red
        state["seat_slot"][s] = p.slot
        if p.boards:
            state["boards"][s] = [board_index(game.components, board) for board in p.boards]
        if not p.colours:  # not assembled yet
            return
        state["assembly"][s] = p.assembly
        state["colour"][s] = p.colours
        items = [ITEM.get(item, item) for item in p.field_item]
        state["field_item"][s] = items
        covered = sum(1 << f for f in range(ESTATE_FIELDS) if items[f] != EMPTY)
        touching = 0
        for f in range(ESTATE_FIELDS):
            if covered >> f & 1:
                touching |= int(state["neighbour_mask"][f])
        state["covered"][s], state["frontier"][s] = covered, touching & ~covered
        for c in range(N_COLOURS):
            fields = [f for f in range(ESTATE_FIELDS) if p.colours[f] == c]
            state["colour_mask"][s, c] = sum(1 << f for f in fields)
            state["colour_left"][s, c] = sum(items[f] == EMPTY for f in fields)
        for r, region in enumerate(p.regions):
            first = min(region)
            for f in region:
                state["region_of"][s, f] = first
            state["region_size"][s, first] = len(region)
            state["region_left"][s, first] = sum(items[f] == EMPTY for f in region)
            state["region_types"][s, first] = p.region_types[r]

    # -- the decisions --------------------------------------------------------------------------

    def choose(self, decision: str, view, options, encoded=None):
        """Ask the jitted decision on the seat state; the option at the index it answers."""
        state = self.seat_state(view, options if encoded is None else encoded)
        answer = int(self.decisions[decision](state, view.seat, self.params))
        return options[answer] if 0 <= answer < len(options) else None  # None: the engine refuses it

    def assembly(self, view, options):
        return self.choose("assembly_nb", view, options)

    def castle_field(self, view, options):
        return self.choose("castle_field_nb", view, options)

    def bonus(self, view, options):
        return self.choose("bonus_nb", view, options)

    def action(self, view, options):
        return self.choose("action_nb", view, options)

    def refresh(self, view, options):
        return self.choose("refresh_nb", view, options, [-1 if kind is None else kind for kind in options])

    def take(self, view, options):
        return self.choose("take_nb", view, options)

    def discard(self, view, options):
        return self.choose("discard_nb", view, options)

    def place(self, view, options):
        return self.choose("place_nb", view, options, [i * FIELD_CODE + f for i, f in options])

    def castle(self, view, options):
        return self.choose("castle_nb", view, options, [p * FIELD_CODE + f for p, f in options])

    def payment(self, view, colour, options):
        state = self.seat_state(view)
        state["counts"][PAY_COLOUR] = colour
        cards, workers, pair1, pair2 = payment_parts(int(self.decisions["payment_nb"](state, view.seat, self.params)))
        return Payment(int(cards), int(workers), tuple(int(c) for c in (pair1, pair2) if c >= 0))

    def marble(self, view) -> bool:
        return bool(self.decisions["marble_nb"](self.seat_state(view), view.seat, self.params))
