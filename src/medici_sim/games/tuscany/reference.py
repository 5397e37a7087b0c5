"""The reference engine: The Castles of Tuscany in plain, readable Python (T10-T37).

An implementation of docs/rules-tuscany.md written from the rules text, for 2-4 players;
every decision is a call to the seat's strategy (``reference_players.py``). It shares only
the generator (``core.rng``), the rule set (``rules.py``) and the component set
(``components.py``, ``geometry.py``) with any other engine. Speed does not matter; clarity does.

Randomness (the order a second engine must follow to play the same games). One generator per
game, SplitMix64 keyed by (seed, game index) (``core.rng.GameRandom``). A shuffle is
Fisher-Yates from the back: for j = n-1 down to 1, swap items j and ``below(j + 1)``; a pile's
top is its first item. In this order:

1. seating ``random`` only: a shuffle of the seat numbers (seat s plays strategy slot perm[s]);
2. the region cards, listed by colour in COLOURS order (D cards first), shuffled (T10);
3. the yield cards, listed in the component file's order, shuffled;
4. the neutral tiles (ids below), shuffled; the display is then its first ``display`` tiles,
   places 0, 1, ... (T10), then five of a colour is checked (T16);
5. each seat's tiles in seat order, shuffled: items 0-6 are stack 1 (item 0 its top), 7-13
   stack 2, 14-20 stack 3 (``stack_size`` 7); tiles past three stacks stay in the box;
6. each seat in seat order draws its starting hand from the top of the region deck (T12);
7. the boards of type A (in name order) shuffled, seat s receiving item s; then B, then C;
8. each seat in seat order: the assembly, then the castle's field (strategy draws, T38);
9. each seat in seat order: the first bonus tile (strategy draws).

Then play; the only draws are strategies' own (T38-T39) and two refills: a draw from an empty
region deck first shuffles the discards (in the order they were discarded) into a new deck
(T13), and likewise the yield cards (T30). Tile ids: seat s's tiles are ``s * T .. s * T +
T - 1`` (T tiles per player) in COLOURS order, a kind's L tiles in the file's agriculture
order; the neutral tiles follow all seats' tiles, likewise. Display places refill in
ascending order (T16, T17). Storage is a list: a new item goes last, a removed one closes up.

Entry points: :func:`play_game` (one game, its record), :class:`Game` (for tests that set up
a position by hand: ``Game(...).setup()`` then its methods).
"""
from __future__ import annotations

from itertools import combinations_with_replacement

from ...core.rng import GameRandom
from ...core.rules import RuleSet
from .components import YIELD_CARDS, YIELD_GREEN, YIELD_HEXAGON, YIELD_MARBLE, YIELD_RED, YIELD_WORKER, Components
from .geometry import ESTATE_FIELDS, estate_colours, legal_assemblies, neighbours, regions
from .reference_players import Payment
from .rules import (
    AGRICULTURE,
    BONUS_CARD,
    BONUS_KINDS,
    BONUS_MARBLE,
    BONUS_STORAGE,
    BONUS_TILES_PER_KIND,
    BONUS_WORKER,
    BONUS_YIELD,
    CASTLE,
    CITY,
    DRAW,
    INN,
    MONASTERY,
    N_COLOURS,
    PHASES,
    PLACE,
    QUARRY,
    STORAGE_SPACES,
    TAKE,
    VILLAGE,
    WAGON,
)

HEX = -1  # a blue hexagon, in storage or on a field (T26)
START_CASTLE = -2  # the starting castle on its field (T12)
SEATINGS = ("fixed", "rotate", "random")
GREEN_SOURCES = ("regions", "colour_bonus", "agriculture", "yield_green", "storage_bonus")
RED_SOURCES = ("banking", "yield_red", "no_room", "final")


class IllegalDecision(ValueError):
    """A strategy answered with something its options did not hold."""


def shuffle(items: list, rng: GameRandom) -> None:
    """Fisher-Yates from the back, in place (the module docstring's shuffle)."""
    for j in range(len(items) - 1, 0, -1):
        r = rng.below(j + 1)
        items[j], items[r] = items[r], items[j]


def payments(hand, workers: int, colour: int) -> list[Payment]:
    """T18: every distinct way to pay two units of ``colour``, in the order Strategy.payment lists."""
    found = []
    for cards in range(min(hand[colour], 2), -1, -1):
        for used in range(min(workers, 2 - cards), -1, -1):
            others = [c for c in range(N_COLOURS) if c != colour and hand[c] >= 2]
            for pairs in combinations_with_replacement(others, 2 - cards - used):
                if all(2 * pairs.count(c) <= hand[c] for c in set(pairs)):
                    found.append(Payment(cards, used, pairs))
    return found


def can_pay(hand, workers: int, colour: int) -> bool:
    """T18: two units: each card of the colour, each worker and each pair of another colour is one."""
    return hand[colour] + workers + sum(hand[c] // 2 for c in range(N_COLOURS) if c != colour) >= 2


class Player:
    """One seat's pieces and scores."""

    def __init__(self, seat: int, slot: int, strategy):
        self.seat, self.slot, self.strategy = seat, slot, strategy
        self.stacks: list[list[int]] = [[], [], []]  # T10: stack n's top is item 0
        self.box: list[int] = []  # tiles past three stacks
        self.storage: list[int] = []  # tile ids and HEX (T11)
        self.hand = [0] * N_COLOURS  # region cards by colour (T12)
        self.workers = self.marble = 0
        self.bonus = [0] * len(BONUS_KINDS)  # bonus tiles owned (T3)
        self.boards: tuple = ()  # the three Board records dealt, type order A, B, C
        self.assembly = -1
        self.colours: tuple[int, ...] = ()  # each field's colour, once assembled
        self.neighbours: tuple[tuple[int, ...], ...] = ()  # each field's neighbours (T9)
        self.field_item = [None] * ESTATE_FIELDS  # what covers each field: tile id, HEX, START_CASTLE
        self.regions: tuple[tuple[int, ...], ...] = ()
        self.region_of = [0] * ESTATE_FIELDS
        self.region_types: list[int] = []  # T27: agriculture types shown in each region
        self.green = self.red = 0
        self.points = dict.fromkeys(GREEN_SOURCES + RED_SOURCES, 0)
        self.counts = dict.fromkeys(("tiles_placed", "hexagons_placed", "workers_gained", "workers_used",
                                     "marble_gained", "marble_used", "cards_drawn", "yield_drawn"), 0)

    @property
    def capacity(self) -> int:
        return STORAGE_SPACES + self.bonus[BONUS_STORAGE]  # T11

    def covered(self, field: int) -> bool:
        return self.field_item[field] is not None

    def empty_fields(self) -> int:
        return sum(item is None for item in self.field_item)

    def legal_fields(self, kind: int | None) -> list[int]:
        """T19: empty fields of the tile's colour (any colour for a hexagon: ``kind`` None)
        that touch a covered field, ascending."""
        return [f for f in range(ESTATE_FIELDS) if self.field_item[f] is None
                and (kind is None or self.colours[f] == kind) and any(self.covered(n) for n in self.neighbours[f])]

    def score(self, points: int, source: str) -> None:
        self.points[source] += points
        if source in GREEN_SOURCES:
            self.green += points
        else:
            self.red += points


class SeatView:
    """What one seat sees (issue: hidden information): its own hand, storage, workers, marble
    and bonus tiles; every estate, score and bonus tile; the display; the supplies' and decks'
    sizes and the rivals' hand sizes. Never a deck's order or a stack's tiles. ``rng`` is the
    game's generator, for a strategy's own random choices."""

    def __init__(self, game: Game, seat: int):
        self._game, self._player, self.seat = game, game.players[seat], seat

    rng = property(lambda self: self._game.rng)
    rules = property(lambda self: self._game.rules)
    components = property(lambda self: self._game.components)
    phase = property(lambda self: self._game.phase)
    round = property(lambda self: self._game.round)
    hand = property(lambda self: tuple(self._player.hand))
    workers = property(lambda self: self._player.workers)
    marble = property(lambda self: self._player.marble)
    storage = property(lambda self: tuple(self._game.kind(i) for i in self._player.storage))  # None: a hexagon
    capacity = property(lambda self: self._player.capacity)
    display = property(lambda self: tuple(None if t is None else self._game.kind(t) for t in self._game.display))
    display_agriculture = property(lambda self: tuple(0 if t is None else self._game.tile_types[t]
                                                      for t in self._game.display))
    bonus_supply = property(lambda self: tuple(self._game.bonus_supply))
    colour_claims = property(lambda self: tuple(self._game.colour_claims))
    neutral_left = property(lambda self: len(self._game.supply))
    deck_left = property(lambda self: len(self._game.deck))

    def bonus(self, seat: int) -> tuple[int, ...]:
        return tuple(self._game.players[seat].bonus)

    def hand_size(self, seat: int) -> int:
        return sum(self._game.players[seat].hand)

    def stack_sizes(self, seat: int) -> tuple[int, int, int]:
        return tuple(len(s) for s in self._game.players[seat].stacks)

    def scores(self, seat: int) -> tuple[int, int]:
        """(green, red) of a seat."""
        p = self._game.players[seat]
        return p.green, p.red

    def estate(self, seat: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """(colour per field, covered per field) of a seat's estate."""
        p = self._game.players[seat]
        return p.colours, tuple(p.covered(f) for f in range(ESTATE_FIELDS))

    def legal_fields(self, kind: int | None) -> list[int]:
        return self._player.legal_fields(kind)


class Game:
    """One game: ``Game(...).play()`` plays it; ``setup()`` alone stops before the first turn."""

    def __init__(self, components: Components, rules: RuleSet, strategies, seed: int = 0, game_index: int = 0,
                 seating: str = "fixed"):
        if seating not in SEATINGS:
            raise ValueError(f"seating must be one of {', '.join(SEATINGS)}, got {seating!r}")
        n = rules.players
        if len(strategies) != n:
            raise ValueError(f"{n} players need {n} strategies, got {len(strategies)}")
        per_player = sum(components.player_tiles)
        if per_player < 3 * rules["stack_size"]:
            raise ValueError(f"stack_size={rules['stack_size']} needs {3 * rules['stack_size']} tiles per player; "
                             f"components {components.name} give {per_player} (T10)")
        self.components, self.rules, self.n = components, rules, n
        self.rng, self.game_index = GameRandom(seed, game_index), game_index
        self.seating, self.strategies = seating, list(strategies)
        self.tile_kind: list[int] = []
        self.tile_types: list[int] = []  # T8: agriculture type mask of each tile (0 for other kinds)
        self.tile_owner: list[int] = []  # seat, or -1 for neutral tiles
        for owner in [*range(n), -1]:
            counts = components.player_tiles if owner >= 0 else components.neutral_tiles
            types = components.player_agriculture if owner >= 0 else components.neutral_agriculture
            for kind, count in enumerate(counts):
                for k in range(count):
                    self.tile_kind.append(kind)
                    self.tile_types.append(types[k] if kind == AGRICULTURE else 0)
                    self.tile_owner.append(owner)
        self.players: list[Player] = []
        self.deck: list[int] = []  # region cards by colour, top first
        self.discards: list[int] = []
        self.yield_deck: list[int] = []  # indices into components.yield_cards' expansion
        self.yield_discards: list[int] = []
        self.yield_cards = [card for card in components.yield_cards for _ in range(card.count)]
        self.supply: list[int] = []  # the neutral tiles face down, top first
        self.display: list[int | None] = []
        self.out: list[int] = []  # tiles removed from the game (T14, T16, T17)
        self.bonus_supply = [BONUS_TILES_PER_KIND] * len(BONUS_KINDS)
        self.colour_claims = [0] * N_COLOURS  # T22: players that scored each colour's bonus
        self.phase, self.round = 1, 0
        self.phase_pending = False
        self.phase_end_round = [0] * PHASES
        self.reached_limit = False
        self.refreshes = self.t17_refreshes = 0
        self.over = False

    def kind(self, tile: int) -> int | None:
        return None if tile == HEX else self.tile_kind[tile]

    def view(self, player: Player) -> SeatView:
        return SeatView(self, player.seat)

    def ask(self, player: Player, decision: str, options: list, *extra):
        """The seat's strategy answers one decision; its answer must be one of the options."""
        answer = getattr(player.strategy, decision)(self.view(player), *extra, options)
        if answer not in options:
            raise IllegalDecision(f"strategy {getattr(player.strategy, 'name', player.strategy)!r} at seat "
                                  f"{player.seat + 1} answered {decision} with {answer!r}, not one of its options")
        return answer

    # -- setup (T10-T12) -------------------------------------------------------------------

    def setup(self) -> Game:
        n, rules, comp = self.n, self.rules, self.components
        slots = list(range(n))
        if self.seating == "rotate":
            slots = [(seat + self.game_index) % n for seat in range(n)]
        elif self.seating == "random":
            shuffle(slots, self.rng)
        self.players = [Player(seat, slots[seat], self.strategies[slots[seat]]) for seat in range(n)]
        self.deck = [c for c in range(N_COLOURS) for _ in range(comp.region_cards[c])]
        shuffle(self.deck, self.rng)
        self.yield_deck = list(range(len(self.yield_cards)))
        shuffle(self.yield_deck, self.rng)
        self.supply = [t for t, owner in enumerate(self.tile_owner) if owner == -1]
        shuffle(self.supply, self.rng)
        self.display = [self.supply.pop(0) if self.supply else None for _ in range(rules["display"])]
        self.five_of_a_colour()
        size = rules["stack_size"]
        for p in self.players:
            tiles = [t for t, owner in enumerate(self.tile_owner) if owner == p.seat]
            shuffle(tiles, self.rng)
            p.stacks = [tiles[k * size:(k + 1) * size] for k in range(3)]
            p.box = tiles[3 * size:]
        for p in self.players:
            self.draw_region(p, rules["start_hand"] + p.seat * rules["later_seat_cards"])
        dealt = []
        for board_type in range(3):
            boards = list(comp.boards_of_type(board_type))
            shuffle(boards, self.rng)
            dealt.append(boards)
        for p in self.players:
            p.boards = tuple(dealt[t][p.seat] for t in range(3))
            cells = tuple(b.cells for b in p.boards)
            self.assemble(p, self.ask(p, "assembly", list(legal_assemblies(cells, comp.slot_shift))))
            castle_fields = [f for f in range(ESTATE_FIELDS) if p.colours[f] == CASTLE]
            p.field_item[self.ask(p, "castle_field", castle_fields)] = START_CASTLE  # no effect, no points (T12)
        for p in self.players:
            self.offer_bonus(p)
        return self

    def assemble(self, p: Player, assembly: int) -> None:
        """T9, T12: lay the estate by ``assembly``."""
        p.assembly = assembly
        shift = self.components.slot_shift
        p.colours = estate_colours(tuple(b.cells for b in p.boards), assembly)
        p.neighbours = neighbours(shift)
        p.regions = regions(p.colours, shift)
        for r, region in enumerate(p.regions):
            for f in region:
                p.region_of[f] = r
        p.region_types = [0] * len(p.regions)

    def offer_bonus(self, p: Player) -> None:
        """T12, T25: take a bonus tile of a kind still in supply; +1 storage scores green at once."""
        kinds = [k for k in range(len(BONUS_KINDS)) if self.bonus_supply[k] > 0]
        if not kinds:
            return
        kind = self.ask(p, "bonus", kinds)
        self.bonus_supply[kind] -= 1
        p.bonus[kind] += 1
        if kind == BONUS_STORAGE:
            p.score(self.rules["storage_green"], "storage_bonus")

    # -- cards -------------------------------------------------------------------------------

    def draw_region(self, p: Player, count: int) -> None:
        """T13: draw from the top; an empty deck is the discards shuffled; with both empty the rest is lost."""
        for _ in range(count):
            if not self.deck:
                if not self.discards:
                    return
                self.deck, self.discards = self.discards, []
                shuffle(self.deck, self.rng)
            p.hand[self.deck.pop(0)] += 1
            p.counts["cards_drawn"] += 1

    def draw_yield(self, p: Player) -> None:
        """T6, T30: draw a yield card (an empty deck is its discards shuffled), discard it, take its reward."""
        if not self.yield_deck:
            self.yield_deck, self.yield_discards = self.yield_discards, []
            shuffle(self.yield_deck, self.rng)
        card = self.yield_deck.pop(0)
        self.yield_discards.append(card)
        p.counts["yield_drawn"] += 1
        kind, amount = self.yield_cards[card].kind, self.yield_cards[card].amount
        if kind == YIELD_GREEN:
            p.score(amount, "yield_green")
        elif kind == YIELD_RED:
            p.score(amount, "yield_red")
        elif kind == YIELD_CARDS:
            self.draw_region(p, amount)
        elif kind == YIELD_MARBLE:
            self.gain_marble(p, amount)
        elif kind == YIELD_WORKER:
            self.gain_workers(p, amount)
        elif kind == YIELD_HEXAGON:
            for _ in range(amount):
                self.gain_hexagon(p)

    def gain_marble(self, p: Player, amount: int) -> None:
        p.marble += amount
        p.counts["marble_gained"] += amount

    def gain_workers(self, p: Player, amount: int) -> None:
        p.workers += amount
        p.counts["workers_gained"] += amount

    def gain_hexagon(self, p: Player) -> None:
        """T26: a hexagon goes into a free storage space; with none, it scores red instead."""
        if len(p.storage) < p.capacity:
            p.storage.append(HEX)
        else:
            p.score(self.rules["no_room_red"], "no_room")

    # -- the display (T14-T17) -----------------------------------------------------------------

    def refill(self, p: Player, place: int) -> None:
        """T14: the gap from the player's leftmost non-empty stack, else the neutral supply;
        T15: the last tile of stack n in phase n ends the phase after this round; then T16."""
        for n, stack in enumerate(p.stacks):
            if stack:
                self.display[place] = stack.pop(0)
                if not stack and n + 1 == self.phase:
                    self.phase_pending = True
                break
        else:
            self.display[place] = self.supply.pop(0) if self.supply else None
        self.five_of_a_colour()

    def replace_kind(self, kind: int) -> None:
        """Every display tile of ``kind`` leaves the game; neutral tiles fill those places, ascending."""
        for place, tile in enumerate(self.display):
            if tile is not None and self.tile_kind[tile] == kind:
                self.out.append(tile)
                self.display[place] = self.supply.pop(0) if self.supply else None

    def five_of_a_colour(self) -> None:
        """T16: while five or more display tiles share a colour, replace them all; each time one refresh."""
        while True:
            kinds = [self.tile_kind[t] for t in self.display if t is not None]
            five = [k for k in range(N_COLOURS) if kinds.count(k) >= 5]
            if not five:
                return
            self.replace_kind(five[0])
            self.refreshes += 1

    def placeable(self, p: Player) -> list[int]:
        """Display places whose tile could go into the estate by T19 (payment aside), ascending."""
        return [place for place, t in enumerate(self.display) if t is not None and p.legal_fields(self.tile_kind[t])]

    # -- a turn (T13, T32) ------------------------------------------------------------------------

    def placements(self, p: Player) -> list[tuple[int, int]]:
        """T18-T19: (storage index, field) pairs: a legal field the player can pay for."""
        options = []
        for index, item in enumerate(p.storage):
            for field in p.legal_fields(self.kind(item)):
                if can_pay(p.hand, p.workers, p.colours[field]):
                    options.append((index, field))
        return options

    def legal_actions(self, p: Player) -> list[int]:
        """T39's legal actions: draw always; take with a display tile; place with a payable placement."""
        actions = [DRAW]
        if any(t is not None for t in self.display):
            actions.append(TAKE)
        if self.placements(p):
            actions.append(PLACE)
        return actions

    def turn(self, p: Player) -> None:
        """T13: one action; T32: then a marble may buy one more."""
        self.action(p)
        if p.marble > 0 and p.strategy.marble(self.view(p)):
            p.marble -= 1
            p.counts["marble_used"] += 1
            self.action(p)

    def action(self, p: Player) -> None:
        choice = self.ask(p, "action", self.legal_actions(p))
        if choice == DRAW:
            self.draw_region(p, self.rules["draw"] + p.bonus[BONUS_CARD])
        elif choice == TAKE:
            self.take(p)
        else:
            self.place(p)

    def take(self, p: Player) -> None:
        """T14 (with T17 first when no display tile fits the estate)."""
        options = [place for place, t in enumerate(self.display) if t is not None]
        if not self.placeable(p):
            while not self.placeable(p) and any(t is not None for t in self.display):
                kinds = sorted({self.tile_kind[t] for t in self.display if t is not None})
                kind = self.ask(p, "refresh", [None, *kinds])
                if kind is None:
                    break
                self.replace_kind(kind)
                self.t17_refreshes += 1
                self.five_of_a_colour()
                # T17: having refreshed, take a tile that fits (any tile, if none came)
                options = self.placeable(p) or [place for place, t in enumerate(self.display) if t is not None]
        if not options:
            return
        place = self.ask(p, "take", options)
        if len(p.storage) >= p.capacity:
            removed = p.storage.pop(self.ask(p, "discard", list(range(len(p.storage)))))
            if removed != HEX:  # a hexagon goes back to the pieces (T4)
                self.out.append(removed)
        p.storage.append(self.display[place])
        self.display[place] = None
        self.refill(p, place)

    def place(self, p: Player) -> None:
        """T18: choose a stored item and a payable field, pay, place; then T20."""
        index, field = self.ask(p, "place", self.placements(p))
        colour = p.colours[field]
        paid = self.ask(p, "payment", payments(p.hand, p.workers, colour), colour)
        p.hand[colour] -= paid.cards
        self.discards.extend([colour] * paid.cards)
        for c in paid.pairs:
            p.hand[c] -= 2
            self.discards.extend([c, c])
        p.workers -= paid.workers
        p.counts["workers_used"] += paid.workers
        self.put(p, p.storage.pop(index), field)

    # -- a tile placed (T20-T31) -----------------------------------------------------------------------

    def put(self, p: Player, item: int, field: int) -> None:
        """T20: the item on the field, then region completion, colour bonus, the effect."""
        p.field_item[field] = item
        p.counts["hexagons_placed" if item == HEX else "tiles_placed"] += 1
        region = p.regions[p.region_of[field]]
        if all(p.covered(f) for f in region):  # T21
            p.score(self.rules["region_scores"][len(region) - 1], "regions")
        colour = p.colours[field]
        if all(p.covered(f) for f in range(ESTATE_FIELDS) if p.colours[f] == colour):  # T22
            claims = self.colour_claims[colour]
            if claims < 2:
                p.score(self.components.colour_bonus[colour][claims], "colour_bonus")
            self.colour_claims[colour] += 1
        self.effect(p, colour, item, field)

    def effect(self, p: Player, colour: int, item: int, field: int) -> None:
        """T23-T31: the effect of the field's colour (a hexagon's too)."""
        if colour == CASTLE:
            self.castle(p)
        elif colour == CITY:
            self.offer_bonus(p)
        elif colour == INN:
            self.gain_hexagon(p)
        elif colour == AGRICULTURE:
            region = p.region_of[field]
            if item == HEX:
                p.score(1, "agriculture")  # T27: a hexagon always scores 1
            else:
                types = self.tile_types[item]
                p.score(bin(types & ~p.region_types[region]).count("1"), "agriculture")
                p.region_types[region] |= types
        elif colour == VILLAGE:
            self.gain_workers(p, 1 + p.bonus[BONUS_WORKER])
        elif colour == MONASTERY:
            self.draw_region(p, self.rules["monastery_draw"])
        elif colour == WAGON:
            for _ in range(1 + p.bonus[BONUS_YIELD]):
                self.draw_yield(p)
        elif colour == QUARRY:
            self.gain_marble(p, 1 + p.bonus[BONUS_MARBLE])

    def castle(self, p: Player) -> None:
        """T24: a display tile placed for free, scoring and acting (chains); then its gap refilled."""
        options = [(place, field) for place, t in enumerate(self.display) if t is not None
                   for field in p.legal_fields(self.tile_kind[t])]
        if not options:
            return
        place, field = self.ask(p, "castle", options)
        tile = self.display[place]
        self.display[place] = None
        self.put(p, tile, field)
        self.refill(p, place)

    # -- rounds, phases and the end (T15, T34-T37) -------------------------------------------------------

    def play(self) -> Game:
        if not self.players:
            self.setup()
        while not self.over:
            self.play_round()
        return self

    def play_round(self) -> None:
        """Every seat's turn from the start player (T12); then a phase that ended is scored (T15)."""
        self.round += 1
        for p in self.players:
            self.turn(p)
        if self.phase_pending:  # T15: the round is finished, then the phase is scored
            self.phase_pending = False
            self.phase_end_round[self.phase - 1] = self.round
            self.bank()
            if self.phase == PHASES:
                self.finish()
                return
            self.phase += 1
        if self.round >= self.rules["round_limit"]:  # T37: as if phase 3 had ended
            self.reached_limit = True
            self.bank()
            self.finish()

    def bank(self) -> None:
        """T34: each player adds its green score to its red score."""
        for p in self.players:
            p.score(p.green, "banking")

    def finish(self) -> None:
        """T35: the final scoring, in red."""
        rules = self.rules
        for p in self.players:
            cards = sum(p.hand) // rules["final_cards"] if rules["final_cards"] else 0
            p.score(rules["final_storage"] * len(p.storage) + rules["final_marble"] * p.marble
                    + rules["final_worker"] * p.workers + cards, "final")
        self.over = True

    def winners(self) -> list[int]:
        """T36: most red; ties: most empty fields, fewest green, fewest cards; then shared."""
        def key(p):
            return p.red, p.empty_fields(), -p.green, -sum(p.hand)
        best = max(key(p) for p in self.players)
        return [p.seat for p in self.players if key(p) == best]

    def record(self) -> dict:
        """The finished game: per seat (lists indexed by seat) and per game."""
        seats = {"slot": [p.slot for p in self.players], "red": [p.red for p in self.players],
                 "green": [p.green for p in self.players]}
        for source in GREEN_SOURCES + RED_SOURCES:
            seats[source] = [p.points[source] for p in self.players]
        for count in self.players[0].counts:
            seats[count] = [p.counts[count] for p in self.players]
        seats.update(cards_left=[sum(p.hand) for p in self.players], workers_left=[p.workers for p in self.players],
                     marble_left=[p.marble for p in self.players], storage_left=[len(p.storage) for p in self.players],
                     empty_fields=[p.empty_fields() for p in self.players],
                     bonus_tiles=[sum(p.bonus) for p in self.players])
        winners = self.winners()
        seats["winner_share60"] = [60 // len(winners) if p.seat in winners else 0 for p in self.players]
        return {"seats": seats, "rounds": self.round, "phase_end_round": list(self.phase_end_round),
                "reached_limit": self.reached_limit, "refreshes": self.refreshes,
                "t17_refreshes": self.t17_refreshes}


def play_game(components: Components, rules: RuleSet, strategies, seed: int = 0, game_index: int = 0,
              seating: str = "fixed") -> dict:
    """One game from (seed, game index); its record (Game.record)."""
    return Game(components, rules, strategies, seed, game_index, seating).play().record()
