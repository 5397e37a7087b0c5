"""The reference engine: Medici: The Card Game in plain, readable Python.

This is an independent implementation of the rules in docs/rules-card.md (points R1..R25, cited in
the comments) that follows the randomness contract of docs/protocol.md to the letter, so
that for the same (seed, game index) it plays exactly the same game as the jitted kernel in
``engine.py``. It shares only the generator (``medici_sim.core.rng``), the deck data
(``deck.py``), the rule set's values (``rules.py``'s rule book) and the strategies' parameter
declarations (defaults and ranges, from ``medici_sim.games.card.strategies.REGISTRY``) with the kernel;
the game logic is written here from the rules text, and the built-in strategies bar ``expert``
are written afresh as plain classes over this engine's objects, making the same decisions as
the kernel's down to the tie-breaks. Speed does not matter here; clarity does.

Entry points:

* :func:`play_game` plays one game and returns its record as numpy arrays;
* :func:`run_game` plays one game and returns the finished :class:`Game` (for tests that
  want to look at the turn log);
* :func:`ship_payouts`, :func:`majority_payouts`, :func:`bonus_payouts` are the scoring
  rules (R14-R19) as small pure functions.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...core.rng import GameRandom
from ...core.rules import RuleSet
from .deck import Deck
from .rules import GOODS, NO_GOOD

# Where a card is (the "card_location" record): ship of seat s = LOC_SHIP + s,
# warehouse of seat s = LOC_WAREHOUSE + s.
LOC_DECK, LOC_MARKET, LOC_OUT, LOC_SHIP, LOC_WAREHOUSE = 0, 1, 2, 3, 9

# What a strategy's choose_take returns (protocol: bit 0 = 2nd-from-last, bit 1 = 3rd-from-last).
TAKE_SECOND = 1
TAKE_THIRD = 2

SEATINGS = ("fixed", "rotate", "random")
N_GOODS = len(GOODS)


# --------------------------------------------------------------------------------------
# Scoring rules as pure functions (R14-R19)
# --------------------------------------------------------------------------------------

def round_down(amount: int, coin: int) -> int:
    """R15: the coin (5 florins in the rulebook) is the smallest payment; shares are rounded down to it."""
    return (amount // coin) * coin


def share_places(scores, place_payouts, coin: int, takes_part=None) -> list[int]:
    """Pay places by score, highest first, sharing tied places (R15).

    ``scores[i]`` is player i's score; ``place_payouts[r]`` is what place r+1 pays (places
    past the end of the table pay 0). Players with ``takes_part[i]`` false take no place and
    are paid nothing (R17). A group of k tied players occupying places r..r+k-1 adds the
    payouts of those places, divides by k and rounds each share down to a multiple of ``coin``.
    """
    n = len(scores)
    if takes_part is None:
        takes_part = [True] * n
    ranked = sorted((i for i in range(n) if takes_part[i]), key=lambda i: -scores[i])
    pay = [0] * n
    place = 0  # 0-based place of the first player of the current group
    while place < len(ranked):
        group = [i for i in ranked if scores[i] == scores[ranked[place]]]
        total = sum(place_payouts[r] for r in range(place, place + len(group)) if r < len(place_payouts))
        # R15: a tie's shares are rounded down to the coin; a player alone takes the place's payout
        share = total if len(group) == 1 else round_down(total // len(group), coin)
        for i in group:
            pay[i] = share
        place += len(group)
    return pay


def ship_payouts(values, rules: RuleSet) -> list[int]:
    """R14 + R15: florins for each player's ship, given every player's ship value."""
    if len(values) != rules.players:
        raise ValueError(f"expected {rules.players} ship values, got {len(values)}")
    # R14: every player takes a place, even with an empty ship.
    return share_places(list(values), rules["ship_payouts"], rules["share_coin"])


def majority_payouts(icons, rules: RuleSet) -> list[int]:
    """R17 (+ R15 ties): florins for ONE good, given every player's icon count of it.

    Most icons 10, second most 5 (the rule set's ``majority_payouts``). A player with no icon
    of the good takes no place, so with one holder the holder gets 10 and nobody gets 5.
    """
    if len(icons) != rules.players:
        raise ValueError(f"expected {rules.players} icon counts, got {len(icons)}")
    return share_places(list(icons), rules["majority_payouts"], rules["share_coin"], takes_part=[n > 0 for n in icons])


def bonus_payouts(icons, rules: RuleSet) -> list[int]:
    """R18/R19: bonus for ONE good, given every player's icon count of it. Never shared.

    R18: at least ``bonus_min`` icons (5; 7 with 2 players) pay ``bonus`` (10). R19 (a big
    bonus, bonus20's): at least ``big_bonus_min`` icons (8; 10 with 2 players) pay
    ``big_bonus`` (20) instead (not in addition); ``big_bonus_min`` 0: no big bonus.
    """
    if len(icons) != rules.players:
        raise ValueError(f"expected {rules.players} icon counts, got {len(icons)}")
    pay = []
    for n in icons:
        if rules["big_bonus_min"] and n >= rules["big_bonus_min"]:
            pay.append(rules["big_bonus"])  # R19: replaces the bonus
        elif n >= rules["bonus_min"]:
            pay.append(rules["bonus"])  # R18
        else:
            pay.append(0)
    return pay


# --------------------------------------------------------------------------------------
# Cards, ships, warehouses, the deck pile and the market
# --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Card:
    """R1: a card's attributes. ``id`` follows the deck file's rows (protocol: Cards)."""
    id: int
    good: int  # index into GOODS, or NO_GOOD
    icons: int
    value: int
    green: bool

    @property
    def has_good(self) -> bool:
        return self.good != NO_GOOD


def cards_of(deck: Deck) -> list[Card]:
    """Card ids 0..N-1: the deck file's rows in file order, each row repeated ``count`` times."""
    cards = []
    for kind in deck.kinds:
        for _ in range(kind.count):
            cards.append(Card(len(cards), kind.good, kind.icons, kind.value, kind.green))
    return cards


def card_fits(non_green_aboard: int, chosen: list[Card], card: Card, capacity: int) -> bool:
    """R10: a green card always fits; a non-green card fits while the ship, counting the
    cards already chosen this turn, holds fewer than ``capacity`` non-green cards."""
    if card.green:
        return True
    return non_green_aboard + sum(1 for c in chosen if not c.green) < capacity


class Ship:
    def __init__(self, capacity: int):
        self.capacity = capacity  # R6
        self.cards: list[Card] = []

    @property
    def non_green(self) -> int:
        return sum(1 for c in self.cards if not c.green)

    @property
    def is_full(self) -> bool:
        # R10: green cards take no space.
        return self.non_green >= self.capacity

    @property
    def value(self) -> int:
        # R13: the sum of all card values aboard, green cards included.
        return sum(c.value for c in self.cards)

    def icons(self, good: int) -> int:
        """Icons of ``good`` aboard (green-banner goods cards included)."""
        return sum(c.icons for c in self.cards if c.good == good)


class Warehouse:
    def __init__(self):
        self.cards: list[Card] = []

    def icons(self, good: int) -> int:
        # R17: icons count, not cards.
        return sum(c.icons for c in self.cards if c.good == good)


class DrawPile:
    """The face-down deck, shuffled lazily (protocol: "The deck as a pile").

    Drawing picks a uniformly random card of the pile: ``j = below(len)``, the card at j is
    replaced by the pile's last card, and the pile shrinks by one. Returned cards are put
    at the end of the pile array.
    """

    def __init__(self, cards: list[Card]):
        self.cards = list(cards)

    def __len__(self) -> int:
        return len(self.cards)

    def draw(self, rng: GameRandom) -> Card:
        j = rng.below(len(self.cards))
        card = self.cards[j]
        self.cards[j] = self.cards[-1]
        self.cards.pop()
        return card

    def put_back(self, cards: list[Card]) -> None:
        self.cards.extend(cards)


@dataclass
class Player:
    seat: int
    slot: int  # which strategy slot plays at this seat (R24)
    strategy: object
    ship: Ship
    warehouse: Warehouse = field(default_factory=Warehouse)
    florins: int = 0


@dataclass
class Turn:
    """One turn in the game's log (for tests and debugging)."""
    day: int
    seat: int
    revealed: int
    taken: list[int]  # card ids in the order they went aboard
    final: bool  # the R11 final turn
    free_take: bool = False  # more than one legal take (R10): the 2nd- or 3rd-from-last card fitted too


# --------------------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------------------

class RandomStrategy:
    """R23, the canonical `random` strategy; every decision is one fair coin (protocol)."""

    def __init__(self, params: dict | None = None):
        self.params = dict(params or {})

    def wants_reveal(self, game: Game, seat: int) -> bool:
        # Asked only when the market is not empty, fewer than 3 cards were revealed this turn
        # and the deck is not empty (the engine handles the obligatory first reveal).
        return game.rng.coin()

    def choose_take(self, game: Game, seat: int) -> int:
        market = game.market
        chosen = [market[-1]]  # the last card is always taken (R10)
        flags = 0
        if len(market) >= 2 and game.fits(seat, market[-2], chosen):
            if game.rng.coin():
                flags |= TAKE_SECOND
                chosen.append(market[-2])
        if len(market) >= 3 and game.fits(seat, market[-3], chosen):
            if game.rng.coin():
                flags |= TAKE_THIRD
        return flags


def registered_params(name: str, params: dict | None) -> dict[str, float]:
    """The parameter values strategy ``name`` plays with, as the kernel gets them.

    The defaults are read from the kernel's strategy registry (the one place they are
    written); ``params`` (name -> value, or None) overrides some of them. As in
    ``simulate.seat_strategy``, an unknown name or an out-of-range value is a ValueError.
    """
    from .strategies import REGISTRY  # imported here: the game logic above needs no numba

    spec = REGISTRY[name].params
    given = dict(params or {})
    unknown = sorted(set(given) - set(spec))
    if unknown:
        raise ValueError(f"strategy {name} has no parameter {unknown[0]!r} (its parameters: "
                         f"{', '.join(spec) or 'none'})")
    return {key: p.check(name, key, float(given.get(key, p.default))) for key, p in spec.items()}


def take_by_score(game: Game, seat: int, score, min_score: float) -> int:
    """R10 take flags: the 2nd-/3rd-from-last cards whose ``score(card)`` is at least ``min_score``.

    Each must fit next to the last card. If both qualify but only one more card fits,
    the one with the higher score is taken (the 2nd-from-last on a tie).
    """
    market = game.market
    last = market[-1]
    want_second = len(market) >= 2 and score(market[-2]) >= min_score and game.fits(seat, market[-2], [last])
    want_third = len(market) >= 3 and score(market[-3]) >= min_score and game.fits(seat, market[-3], [last])
    if want_second and want_third:
        if game.fits(seat, market[-3], [last, market[-2]]):
            return TAKE_SECOND | TAKE_THIRD
        return TAKE_SECOND if score(market[-2]) >= score(market[-3]) else TAKE_THIRD
    return (TAKE_SECOND if want_second else 0) | (TAKE_THIRD if want_third else 0)


def takeable_cards(game: Game, seat: int) -> list[Card]:
    """The cards this seat could take now: the last card, and each of the 2nd- and
    3rd-from-last that fits next to the last card (each on its own)."""
    market = game.market
    cards = [market[-1]]
    for card in market[-2:-4:-1]:  # 2nd-, then 3rd-from-last, where they exist
        if game.fits(seat, card, [market[-1]]):
            cards.append(card)
    return cards


class ParametrisedStrategy:
    """A strategy with named float parameters, defaults from the kernel's registry."""

    name = ""

    def __init__(self, params: dict | None = None):
        self.params = registered_params(self.name, params)


class GreedyStrategy(ParametrisedStrategy):
    """``greedy``: ship value first. Reveals while no card it could take is worth
    ``reveal_below``; takes each earlier card worth at least ``take_min``."""

    name = "greedy"

    def wants_reveal(self, game: Game, seat: int) -> bool:
        best = max(card.value for card in takeable_cards(game, seat))
        return best < self.params["reveal_below"]

    def choose_take(self, game: Game, seat: int) -> int:
        return take_by_score(game, seat, lambda card: card.value, self.params["take_min"])


class GamblerStrategy(ParametrisedStrategy):
    """``gambler``: always reveals (the engine stops at three or an empty deck, R9);
    takes each earlier card worth at least ``take_min``."""

    name = "gambler"

    def wants_reveal(self, game: Game, seat: int) -> bool:
        return True

    def choose_take(self, game: Game, seat: int) -> int:
        return take_by_score(game, seat, lambda card: card.value, self.params["take_min"])


class CautiousStrategy(ParametrisedStrategy):
    """``cautious``: a card is acceptable if worth at least ``accept_min``, or with two
    icons, or green. Reveals only while the last card is unacceptable and fewer than
    ``max_reveals`` cards were revealed this turn (an obligatory reveal counts);
    takes the acceptable earlier cards (the 2nd-from-last if only one fits)."""

    name = "cautious"

    def acceptable(self, card: Card) -> bool:
        return card.value >= self.params["accept_min"] or card.icons == 2 or card.green

    def wants_reveal(self, game: Game, seat: int) -> bool:
        return (game.revealed_this_turn < self.params["max_reveals"]
                and not self.acceptable(game.market[-1]))

    def choose_take(self, game: Game, seat: int) -> int:
        return take_by_score(game, seat, lambda card: 1 if self.acceptable(card) else 0, 1)


class CollectorStrategy(ParametrisedStrategy):
    """``collector``: concentrates on its ``focus`` best goods for majorities and the bonus.

    Goods are ranked by icons held (warehouse + ship), then by icons on offer among the
    market's last three cards, then by good index (lowest first); the first ``focus``
    are its focus goods. A card scores ``value_weight`` per point of value plus, per icon,
    4 for a focus good it holds fewer than the bonus target of (R18; R19's threshold under
    bonus20), 1 for a focus good at or past it, 0.5 for any other good. Reveals while no
    card among the last three is of a focus good; takes earlier cards scoring at least 4.
    """

    name = "collector"
    FOCUS_WEIGHT, DONE_WEIGHT, OTHER_WEIGHT = 4.0, 1.0, 0.5  # score per icon

    def focus_goods(self, game: Game, seat: int) -> list[int]:
        on_offer = [0] * N_GOODS
        for card in game.market[-3:]:
            if card.has_good:
                on_offer[card.good] += card.icons
        ranking = sorted(range(N_GOODS), key=lambda good: (-game.held_icons(seat, good), -on_offer[good], good))
        return [good for rank, good in enumerate(ranking) if rank < self.params["focus"]]

    def score(self, game: Game, seat: int, card: Card, focus: list[int]) -> float:
        score = self.params["value_weight"] * card.value
        if card.has_good:
            if card.good in focus:
                done = game.held_icons(seat, card.good) >= game.bonus_target()
                score += card.icons * (self.DONE_WEIGHT if done else self.FOCUS_WEIGHT)
            else:
                score += card.icons * self.OTHER_WEIGHT
        return score

    def wants_reveal(self, game: Game, seat: int) -> bool:
        focus = self.focus_goods(game, seat)
        return not any(card.has_good and card.good in focus for card in game.market[-3:])

    def choose_take(self, game: Game, seat: int) -> int:
        focus = self.focus_goods(game, seat)
        return take_by_score(game, seat, lambda card: self.score(game, seat, card, focus), self.FOCUS_WEIGHT)


# The kernel's built-ins, bar ``expert`` (not ported).
REFERENCE_STRATEGIES: dict[str, type] = {
    "random": RandomStrategy,
    "greedy": GreedyStrategy,
    "cautious": CautiousStrategy,
    "gambler": GamblerStrategy,
    "collector": CollectorStrategy,
}


# --------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------

class Game:
    def __init__(self, deck: Deck, rules: RuleSet, strategies: list[str], seed: int,
                 game_index: int, seating: str = "fixed", params: list[dict | None] | None = None):
        players = rules.players  # R6: checked with the rule set
        if len(strategies) != players:
            raise ValueError(f"expected {players} strategies, got {len(strategies)}")
        for name in strategies:
            if name not in REFERENCE_STRATEGIES:
                raise ValueError(f"unknown strategy {name!r} (known: {', '.join(REFERENCE_STRATEGIES)})")
        if seating not in SEATINGS:
            raise ValueError(f"unknown seating {seating!r} (known: {', '.join(SEATINGS)})")
        if params is not None and len(params) != players:
            raise ValueError(f"expected {players} parameter dicts, got {len(params)}")

        self.players_count = players
        self.rules = rules
        self.days = rules["days"]  # R22
        self.capacity = rules["ship_capacity"]  # R6
        self.params = params
        self.rng = GameRandom(seed, game_index)  # R25: the game's only source of randomness

        # R24 / protocol "Seating": done before anything else.
        seat_slot = self._seat_slots(players, seating, game_index)
        self.players: list[Player] = []
        for seat in range(players):
            slot = seat_slot[seat]
            strategy = REFERENCE_STRATEGIES[strategies[slot]](params[slot] if params else None)
            self.players.append(Player(seat, slot, strategy, Ship(self.capacity)))

        self.cards = cards_of(deck)
        self.pile = DrawPile(self.cards)  # R7: day 1 starts with the whole deck, [0..N-1]
        self.market: list[Card] = []
        self.out_of_game: list[Card] = []
        self.day = 0
        self.revealed_this_turn = 0  # cards revealed so far in the current turn (R9)
        self.turn_log: list[Turn] = []

        n = len(self.cards)
        self.record = {
            "seat_slot": np.array(seat_slot, np.int64),
            "starter": np.zeros(self.days, np.int64),
            "ran_out": np.zeros(self.days, np.int64),
            "ship_value": np.zeros((self.days, players), np.int64),
            "ship_pay": np.zeros((self.days, players), np.int64),
            "majority_pay": np.zeros((self.days, players), np.int64),
            "bonus_pay": np.zeros((self.days, players), np.int64),
            "florins": np.zeros((self.days, players), np.int64),
            "warehouse_icons": np.zeros((self.days, players, N_GOODS), np.int64),
            "card_location": np.zeros((self.days, n), np.int64),
            "winner_share60": np.zeros(players, np.int64),
        }

    def _seat_slots(self, players: int, seating: str, game_index: int) -> list[int]:
        if seating == "fixed":
            return list(range(players))
        if seating == "rotate":
            return [(seat + game_index) % players for seat in range(players)]
        # "random": a Fisher-Yates permutation, drawn first thing in the game.
        perm = list(range(players))
        for j in range(players - 1, 0, -1):
            r = self.rng.below(j + 1)
            perm[j], perm[r] = perm[r], perm[j]
        return perm

    # -- helpers strategies may use -----------------------------------------------------

    def fits(self, seat: int, card: Card, chosen: list[Card]) -> bool:
        """R10: would ``card`` fit on this seat's ship next to the cards ``chosen`` this turn?"""
        return card_fits(self.players[seat].ship.non_green, chosen, card, self.capacity)

    def held_icons(self, seat: int, good: int) -> int:
        """Icons of ``good`` this seat holds: its warehouse plus today's ship (R17)."""
        player = self.players[seat]
        return player.warehouse.icons(good) + player.ship.icons(good)

    def bonus_target(self) -> int:
        """Icons of one good worth collecting: the R19 threshold with a big bonus, else R18's."""
        return self.rules["big_bonus_min"] or self.rules["bonus_min"]

    def open_seats(self) -> list[int]:
        """Seats whose ship is not full."""
        return [p.seat for p in self.players if not p.ship.is_full]

    # -- playing ------------------------------------------------------------------------

    def play(self) -> dict[str, np.ndarray]:
        starter = 0  # R7: seat 0 is the day-1 starting player
        for day in range(self.days):
            self.day = day
            self.record["starter"][day] = starter
            self.record["ran_out"][day] = int(self.play_day(starter))
            self.record["card_location"][day] = self.card_locations()
            self.score_day(day)
            self.end_day()
            if day < self.days - 1:
                starter = self.next_starter()  # R21 (no draw after the last day)
        self.decide_winners()
        return self.record

    def play_day(self, starter: int) -> bool:
        """Play one day's turns (R8-R12). Returns True if the day ended by running out (R12)."""
        seat = starter
        final_turn = False
        while True:
            # R12: market and deck both empty at the start of a turn -> the day ends at once.
            if not self.market and len(self.pile) == 0:
                return True
            self.play_turn(seat, final_turn)
            if final_turn:
                return False  # R11: the day ends after the final turn, full ship or not
            open_seats = self.open_seats()
            if not open_seats:
                return False  # R11: with all ships full the day ends at once
            if len(open_seats) == 1:
                # R11: exactly one ship is left open: its player takes one more (normal) turn.
                final_turn = True
                seat = open_seats[0]
            else:
                seat = self.next_open_seat(seat)  # R8: clockwise, skipping full ships

    def next_open_seat(self, seat: int) -> int:
        n = self.players_count
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if not self.players[candidate].ship.is_full:
                return candidate
        raise AssertionError("no open ship")

    def play_turn(self, seat: int, final: bool) -> None:
        player = self.players[seat]
        strategy = player.strategy

        # R9: reveal up to 3 cards (``reveals_per_turn``), one at a time; obligatory while the market is empty;
        # stops early when the deck is empty.
        # Strategies may read revealed_this_turn (the obligatory reveal counts).
        self.revealed_this_turn = 0
        while self.revealed_this_turn < self.rules["reveals_per_turn"] and len(self.pile) > 0:
            if self.market and not strategy.wants_reveal(self, seat):
                break
            self.market.append(self.pile.draw(self.rng))
            self.revealed_this_turn += 1
        revealed = self.revealed_this_turn

        # R10: take the last card, and optionally the 2nd- and/or 3rd-from-last.
        free_take = any(len(self.market) >= back and self.fits(seat, self.market[-back], [self.market[-1]])
                        for back in (2, 3))
        flags = strategy.choose_take(self, seat)
        if flags & ~(TAKE_SECOND | TAKE_THIRD):
            raise ValueError(f"strategy returned unknown take flags {flags}")
        taken_positions = [1]  # 1 = last, 2 = 2nd-from-last, 3 = 3rd-from-last
        if flags & TAKE_SECOND:
            taken_positions.append(2)
        if flags & TAKE_THIRD:
            taken_positions.append(3)
        chosen: list[Card] = []
        for pos in taken_positions:
            if pos > len(self.market):
                raise ValueError(f"seat {seat} tried to take the card {pos} from the end of a market of "
                                 f"{len(self.market)} (R10)")
            card = self.market[-pos]
            if not self.fits(seat, card, chosen):
                raise ValueError(f"seat {seat} tried to take card {card.id}, which does not fit (R10)")
            chosen.append(card)
        # Remove from the back so the earlier positions stay valid; the rest keep their order.
        for pos in sorted(taken_positions, reverse=True):
            del self.market[len(self.market) - pos]
        player.ship.cards.extend(chosen)  # aboard in the order last, 2nd, 3rd (protocol)
        self.turn_log.append(Turn(self.day, seat, revealed, [c.id for c in chosen], final, free_take))

    def card_locations(self) -> np.ndarray:
        """Where every card is; checks that each card is in exactly one place."""
        location = np.full(len(self.cards), -1, np.int64)

        def put(cards, code):
            for card in cards:
                if location[card.id] != -1:
                    raise AssertionError(f"card {card.id} is in two places")
                location[card.id] = code

        put(self.pile.cards, LOC_DECK)
        put(self.market, LOC_MARKET)
        put(self.out_of_game, LOC_OUT)
        for p in self.players:
            put(p.ship.cards, LOC_SHIP + p.seat)
            put(p.warehouse.cards, LOC_WAREHOUSE + p.seat)
        if (location == -1).any():
            raise AssertionError(f"cards {np.flatnonzero(location == -1).tolist()} are nowhere")
        return location

    def score_day(self, day: int) -> None:
        rec = self.record
        n = self.players_count
        # R13, R14, R15: ship values and payouts.
        values = [p.ship.value for p in self.players]
        ship_pay = ship_payouts(values, self.rules)
        # R16: unload goods cards into the warehouse; no-good cards leave the game.
        for p in self.players:
            for card in p.ship.cards:
                if card.has_good:
                    p.warehouse.cards.append(card)
                else:
                    self.out_of_game.append(card)
            p.ship.cards = []
        # R17, R18, R19: goods majorities and bonuses, this day's cargo included.
        majority_pay = [0] * n
        bonus_pay = [0] * n
        for good in range(N_GOODS):
            icons = [p.warehouse.icons(good) for p in self.players]
            for seat, amount in enumerate(majority_payouts(icons, self.rules)):
                majority_pay[seat] += amount
            for seat, amount in enumerate(bonus_payouts(icons, self.rules)):
                bonus_pay[seat] += amount
            rec["warehouse_icons"][day, :, good] = icons
        for p in self.players:
            p.florins += ship_pay[p.seat] + majority_pay[p.seat] + bonus_pay[p.seat]
        rec["ship_value"][day] = values
        rec["ship_pay"][day] = ship_pay
        rec["majority_pay"][day] = majority_pay
        rec["bonus_pay"][day] = bonus_pay
        rec["florins"][day] = [p.florins for p in self.players]

    def end_day(self) -> None:
        """R20: market cards go back into the deck (appended in market order); the deck is
        'reshuffled' by the lazy draw. Ships were emptied when unloading (R16)."""
        self.pile.put_back(self.market)
        self.market = []

    def next_starter(self) -> int:
        """R21: the fewest florins starts; among several, one chosen at random
        (protocol: tied seats in ascending order, ``tied[below(k)]``; no draw for one)."""
        fewest = min(p.florins for p in self.players)
        tied = [p.seat for p in self.players if p.florins == fewest]
        if len(tied) == 1:
            return tied[0]
        return tied[self.rng.below(len(tied))]

    def decide_winners(self) -> None:
        """R22: most florins wins; k joint winners are each credited 60/k."""
        most = max(p.florins for p in self.players)
        winners = [p.seat for p in self.players if p.florins == most]
        for seat in winners:
            self.record["winner_share60"][seat] = 60 // len(winners)


def run_game(deck: Deck, rules: RuleSet, strategies: list[str], seed: int, game_index: int,
             seating: str = "fixed", params: list[dict | None] | None = None) -> Game:
    """Play one game and return the finished Game (its ``record`` and ``turn_log``)."""
    game = Game(deck, rules, strategies, seed, game_index, seating, params)
    game.play()
    return game


def play_game(deck: Deck, rules: RuleSet, strategies: list[str], seed: int, game_index: int,
              seating: str = "fixed", params: list[dict | None] | None = None) -> dict[str, np.ndarray]:
    """Play game ``game_index`` of master seed ``seed`` and return its record (see module doc).

    ``strategies`` and ``params`` are per strategy slot (R24): ``params[slot]`` maps the
    slot's parameter names to values (None or a missing name: the registry's default).

    ``rules`` is the rule set played (its player count, days, payouts, bonuses...: the
    card game's ``RULE_BOOK.resolve(spec, players)``).

    Keys (int64 arrays; P players, D days, N cards): seat_slot (P,), starter (D,), ran_out (D,),
    ship_value / ship_pay / majority_pay / bonus_pay / florins (D, P), warehouse_icons
    (D, P, 5), card_location (D, N), winner_share60 (P,).
    """
    return run_game(deck, rules, strategies, seed, game_index, seating, params).record
