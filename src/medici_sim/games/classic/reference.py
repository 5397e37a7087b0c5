"""The classic reference engine: Medici, the 1995 auction game, in plain, readable Python.

An independent implementation of docs/rules-classic.md (points C1-C21, cited in the
comments) that follows the randomness contract of docs/protocol-classic.md to the letter,
so that for the same (seed, game index) it plays exactly the same game as the jitted
classic engine. It shares only the generator (``medici_sim.core.rng.GameRandom``) and the
rule data (``medici_sim.games.classic.rules``: the cards, and the rule set's values) with it.
Speed does not matter here; clarity does.

Entry points
------------

* :func:`play_game` plays one game under a rule set (``rules.RULE_BOOK.resolve(spec, players)``)
  and returns its record (see below);
* :func:`run_game` plays one game and returns the finished :class:`ClassicGame`;
* :func:`share_places`, :func:`ship_payouts`, :func:`majority_payouts`, :func:`track_bonus`
  are the scoring rules (C13-C16) as small pure functions;
* :func:`turn_records` reads a day's flat turn log back into :class:`TurnRecord` tuples.

Strategies
----------

A strategy is an object with two methods, each given the game and the deciding seat:

* ``wants_card(game, seat) -> bool``: the auctioneer is asked whether to draw another card
  into the lot (asked only when C8 allows one, see the protocol);
* ``bid(game, seat) -> int``: a seat that may bid (C9) answers 0 to pass, or a whole
  number from ``game.lowest_bid()`` (``game.highest + 1``) to ``game.money[seat]``. Anything
  else is a ValueError.

:data:`STRATEGIES` maps names to classes; a class is built with the slot's ``params``
(a dict, or None). Strategies read the public game state: ``lot``, ``highest``,
``high_bidder``, ``auctioneer``, ``money``, ``ships``, ``track``, ``deck_len``, ``day``,
``players``, ``rules``, ``free_holds(seat)``, ``is_open(seat)``, and draw randomness only from ``game.rng``.

The record
----------

:func:`play_game` returns a dict. P is the player count, D the days (3), H the holds (5),
R = 36 - 6P removed cards. Arrays are int64 and indexed by seat (seat 0 is the day-1 starting player, C6):

* ``seat_slot`` (P,): the strategy slot playing at each seat (C20);
* ``starter`` (D,): the day's starting seat (C6);
* ``ran_out`` (D,): 1 if the day ended because the deck was empty at the start of a turn (C12);
* ``removed`` (D, R): the cards removed face down (C5), in the order they were dealt;
* ``lots``: a list of D flat int64 arrays, each day's turn log (format below);
* ``card_location`` (D, 36): where every card was when the day ended: ``LOC_DECK``,
  ``LOC_REMOVED``, ``LOC_DISCARDED``, or ``LOC_SHIP + seat``;
* ``ship_cards`` (D, P, H): each ship's cards in loading order, -1 for an empty hold;
* ``ship_value`` (D, P): each ship's value (C13);
* ``ship_pay``, ``majority_pay``, ``bonus_pay`` (D, P): the day's payouts (C13, C15, C16;
  majorities and bonuses summed over the goods);
* ``track`` (D, P, 5): goods track levels after the day's rise (C14);
* ``money`` (D, P): florins after the day's scoring;
* ``spent`` (P,): florins paid for lots over the game (C10);
* ``lots_bought`` (P,), ``cards_bought`` (P,): lots and cards bought at auction (C10);
* ``lots_discarded`` (P,): lots nobody bid on, counted for the seat that auctioned them (C10);
* ``free_cards`` (P,): cards taken for free by the last ship (C11);
* ``winner_share60`` (P,): 60 // k for each of k joint winners, 0 for the others (C18).

The turn log (one flat int list per day)
----------------------------------------

Every turn of the day appends, in order::

    auctioneer, L, lot[0], ..., lot[L-1],          # the lot in drawing order (C8)
    A, seat_1, bid_1, ..., seat_A, bid_A,          # the A seats asked, in asking order (C9);
                                                   #   bid 0 = pass
    winner, price,                                 # -1, 0 when the lot was discarded (C10)
    free_seat, F, free[0], ..., free[F-1]          # C11: -1, 0 unless this sale left one ship open

Only seats that were asked appear among the bids: a full ship, too few free holds or too
little money (C9) means a seat passes without being asked. :func:`turn_records` parses it.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from medici_sim.core.rng import GameRandom
from medici_sim.core.rules import RuleSet

from .rules import CARD_GOOD, CARD_VALUE, N_CARDS, N_GOODS, NO_GOOD, removed_cards

SEATINGS = ("fixed", "rotate", "random")

# Codes of the ``card_location`` record.
LOC_DECK, LOC_REMOVED, LOC_DISCARDED, LOC_SHIP = 0, 1, 2, 3  # ship of seat s: LOC_SHIP + s


# --------------------------------------------------------------------------------------
# Scoring rules as pure functions (C13-C16)
# --------------------------------------------------------------------------------------

def share_places(scores: Sequence[int], place_payouts: Sequence[int], coin: int = 1) -> list[int]:
    """Pay every player by place, highest score first, sharing tied places (C13, C15).

    ``scores[i]`` is player i's score and ``place_payouts[r]`` what place r+1 pays; places
    past the end of the table pay 0. Every player takes a place. A group of k tied players
    occupying places r..r+k-1 adds up those places' payouts and each member gets the sum
    divided by k, rounded down to a whole florin (to a multiple of ``coin``, the rule set's
    ``share_coin``).
    """
    n = len(scores)
    ranked = sorted(range(n), key=lambda i: -scores[i])
    pay = [0] * n
    place = 0  # 0-based place of the first player of the current tie group
    while place < n:
        group = [i for i in ranked if scores[i] == scores[ranked[place]]]
        occupied = range(place, place + len(group))
        total = sum(place_payouts[r] for r in occupied if r < len(place_payouts))
        for i in group:
            # a tie's shares round down to the coin; a player alone on a place takes it in full
            pay[i] = total if len(group) == 1 else total // len(group) // coin * coin
        place += len(group)
    return pay


def ship_payouts(values: Sequence[int], rules: RuleSet) -> list[int]:
    """C13: florins for each player's ship, given every player's ship value.

    An empty ship is worth 0 and still takes a place.
    """
    if len(values) != rules.players:
        raise ValueError(f"expected {rules.players} ship values, got {len(values)}")
    return share_places(list(values), rules["ship_payouts"], rules["share_coin"])


def majority_payouts(levels: Sequence[int], rules: RuleSet) -> list[int]:
    """C15: florins for ONE good, given every player's level on its track.

    All players are ranked, level 0 included: highest 10, second 5, shared when tied.
    """
    return share_places(list(levels), rules["majority_payouts"], rules["share_coin"])


def track_bonus(level: int, rules: RuleSet) -> int:
    """C16: the bonus one track level pays at each day's scoring (5, 10, 20 at 5, 6, 7)."""
    if not 0 <= level <= rules["track_max"]:
        raise ValueError(f"track level must be 0-{rules['track_max']}, got {level}")
    return rules["track_bonus"][level]


def ship_value(cards: Sequence[int]) -> int:
    """C13: the sum of the values of a ship's cards (gold is worth 10)."""
    return sum(CARD_VALUE[c] for c in cards)


def raise_track(level: int, goods_aboard: int, track_max: int) -> int:
    """C14: a track rises by the good's cards aboard, never above its top (7)."""
    return min(track_max, level + goods_aboard)


# --------------------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------------------

class Strategy:
    """Base class of the reference strategies.

    ``PARAMS`` maps each parameter name to its default; the slot's ``params`` dict (or None)
    overrides some of them, and an unknown name is a ValueError. Subclasses implement
    ``wants_card`` and ``bid`` (see the module doc).
    """

    name = ""
    PARAMS: dict[str, float] = {}

    def __init__(self, params: dict | None = None):
        given = dict(params or {})
        unknown = sorted(set(given) - set(self.PARAMS))
        if unknown:
            raise ValueError(f"strategy {self.name} has no parameter {unknown[0]!r} "
                             f"(its parameters: {', '.join(self.PARAMS) or 'none'})")
        self.params = {**self.PARAMS, **given}

    def wants_card(self, game: ClassicGame, seat: int) -> bool:
        raise NotImplementedError

    def bid(self, game: ClassicGame, seat: int) -> int:
        raise NotImplementedError


class RandomStrategy(Strategy):
    """C19, the canonical ``random`` strategy, drawing exactly as the protocol says."""

    name = "random"

    def wants_card(self, game: ClassicGame, seat: int) -> bool:
        # Asked only when C8 allows another card: one fair coin.
        return game.rng.coin()

    def bid(self, game: ClassicGame, seat: int) -> int:
        # Asked only when the seat may bid (C9). One coin; on "yes" a bid uniform on
        # highest+1 .. min(money, highest+10).
        if not game.rng.coin():
            return 0
        lowest = game.lowest_bid()
        top = min(game.money[seat], lowest + 9)
        return lowest + game.rng.below(top - lowest + 1)


# The heuristic strategies below are the kernel's ``value``, ``collector`` and ``bargain``
# (``strategies/*.py``) written again from their descriptions, reading only the public game
# state: the same decisions down to the tie-breaks, and the same floating-point operations
# in the same order, so that the differential tests can compare mixed games exactly.

def _later_days(game: ClassicGame) -> int:
    """Days still to be played after this one (C18)."""
    return game.rules["days"] - 1 - game.day


def _level_at_day_end(game: ClassicGame, seat: int, good: int) -> int:
    """C14: the seat's level in ``good`` if the day ended now (what is aboard counted), capped."""
    aboard = sum(1 for card in game.ships[seat] if CARD_GOOD[card] == good)
    return raise_track(game.track[seat][good], aboard, game.rules["track_max"])


def _scoring_for_good(game: ClassicGame, seat: int, good: int, level: int) -> int:
    """C15 + C16: what this day's scoring would pay ``seat`` for ``good`` at ``level``, every
    other seat ending the day with what it holds now."""
    levels = [_level_at_day_end(game, s, good) for s in range(game.players)]
    levels[seat] = level
    return majority_payouts(levels, game.rules)[seat] + track_bonus(level, game.rules)


def _lot_value(game: ClassicGame) -> int:
    return sum(CARD_VALUE[card] for card in game.lot)


def _lot_count(game: ClassicGame, good: int) -> int:
    return sum(1 for card in game.lot if CARD_GOOD[card] == good)


def _room_for_more(game: ClassicGame, seat: int) -> bool:
    """Its own ship could take the lot with one more card (C3, C8)."""
    return len(game.lot) < game.free_holds(seat)


def _bid_up_to(game: ClassicGame, seat: int, limit: int) -> int:
    """C9 with a price limit (capped by its money): pass unless it reaches the lowest bid;
    the auctioneer (last to speak) then bids the lowest bid, anyone else its limit."""
    limit = min(limit, game.money[seat])
    if limit < game.lowest_bid():
        return 0
    if seat == game.auctioneer:
        return game.lowest_bid()
    return limit


class ValueStrategy(Strategy):
    """``value``: a fixed price per point of card value and per card; draws while the lot is
    cheap per card."""

    name = "value"
    PARAMS = {"per_point": 0.5, "per_card": 0.0, "draw_below": 2.0}

    def wants_card(self, game: ClassicGame, seat: int) -> bool:
        return _room_for_more(game, seat) and _lot_value(game) < self.params["draw_below"] * len(game.lot)

    def bid(self, game: ClassicGame, seat: int) -> int:
        limit = math.floor(self.params["per_point"] * _lot_value(game) + self.params["per_card"] * len(game.lot))
        return _bid_up_to(game, seat, int(limit))


class CollectorStrategy(Strategy):
    """``collector``: values a lot by the majorities and bonuses its goods bring (C15, C16),
    weighted for the days left, plus a price per level climbed; goods outside its focus
    (its highest levels) count for less. Draws until a card of a focus good is in the lot."""

    name = "collector"
    PARAMS = {"focus": 2.0, "track_weight": 0.15, "level_worth": 0.5, "future_weight": 0.5,
              "value_weight": 0.2, "other_weight": 0.3}

    def focus_rank(self, game: ClassicGame, seat: int, good: int) -> int:
        """How many goods rank above ``good``: a higher day-end level, then more cards of it
        in the lot, then a lower good number."""
        def key(g):
            return (-_level_at_day_end(game, seat, g), -_lot_count(game, g), g)
        return sorted(range(N_GOODS), key=key).index(good)

    def in_focus(self, game: ClassicGame, seat: int, good: int) -> bool:
        return self.focus_rank(game, seat, good) < self.params["focus"]

    def worth(self, game: ClassicGame, seat: int) -> float:
        p = self.params
        day_weight = p["track_weight"] * (1.0 + p["future_weight"] * _later_days(game))
        worth = p["value_weight"] * _lot_value(game)
        for good in range(N_GOODS):
            extra = _lot_count(game, good)
            if extra == 0:
                continue
            level = _level_at_day_end(game, seat, good)
            after = raise_track(level, extra, game.rules["track_max"])
            paid = _scoring_for_good(game, seat, good, after) - _scoring_for_good(game, seat, good, level)
            gain = paid * day_weight + p["level_worth"] * (after - level)
            if not self.in_focus(game, seat, good):
                gain = gain * p["other_weight"]
            worth = worth + gain
        return worth

    def wants_card(self, game: ClassicGame, seat: int) -> bool:
        if not _room_for_more(game, seat):
            return False
        return not any(CARD_GOOD[card] != NO_GOOD and self.in_focus(game, seat, CARD_GOOD[card])
                       for card in game.lot)

    def bid(self, game: ClassicGame, seat: int) -> int:
        return _bid_up_to(game, seat, int(math.floor(self.worth(game, seat))))


class BargainStrategy(Strategy):
    """``bargain``: bids only the lowest legal bid, only on lots cheap against its estimate,
    keeping a reserve; waits for the last ship's free cards (C11) when few ships are open
    and its own is the emptiest."""

    name = "bargain"
    PARAMS = {"per_point": 2.0, "per_card": 1.0, "discount": 0.6, "reserve": 10.0, "wait_ships": 2.0,
              "draw_below": 2.5}

    def waiting(self, game: ClassicGame, seat: int) -> bool:
        if len(game.open_seats()) > self.params["wait_ships"]:
            return False
        mine = game.free_holds(seat)
        return all(game.free_holds(other) < mine for other in range(game.players) if other != seat)

    def wants_card(self, game: ClassicGame, seat: int) -> bool:
        if self.waiting(game, seat):
            # fill the others faster, as long as another ship could take the bigger lot
            return any(game.free_holds(other) > len(game.lot) for other in range(game.players) if other != seat)
        return _room_for_more(game, seat) and _lot_value(game) < self.params["draw_below"] * len(game.lot)

    def bid(self, game: ClassicGame, seat: int) -> int:
        if self.waiting(game, seat):
            return 0
        p = self.params
        price = game.lowest_bid()
        estimate = p["per_point"] * _lot_value(game) + p["per_card"] * len(game.lot)
        if price <= p["discount"] * estimate and game.money[seat] - price >= p["reserve"]:
            return price
        return 0


STRATEGIES: dict[str, type[Strategy]] = {
    "random": RandomStrategy,
    "value": ValueStrategy,
    "collector": CollectorStrategy,
    "bargain": BargainStrategy,
}


# --------------------------------------------------------------------------------------
# The turn log
# --------------------------------------------------------------------------------------

class TurnRecord(NamedTuple):
    """One turn of a day, as read back from the flat turn log."""
    auctioneer: int
    lot: tuple[int, ...]  # card ids in drawing order (C8)
    bids: tuple[tuple[int, int], ...]  # (seat, amount) in asking order, 0 = pass (C9)
    winner: int  # -1: nobody bid, the lot was discarded (C10)
    price: int
    free_seat: int  # C11: the last open ship's seat, or -1
    free: tuple[int, ...]  # the cards it took for free, in order

    def flat(self) -> list[int]:
        out = [self.auctioneer, len(self.lot), *self.lot, len(self.bids)]
        for seat, amount in self.bids:
            out += [seat, amount]
        out += [self.winner, self.price, self.free_seat, len(self.free), *self.free]
        return out


def turn_records(flat: Sequence[int]) -> list[TurnRecord]:
    """Parse one day's flat turn log (the record's ``lots[day]``) into TurnRecords."""
    flat = [int(x) for x in flat]
    turns = []
    i = 0
    while i < len(flat):
        auctioneer, n_lot = flat[i], flat[i + 1]
        i += 2
        lot = tuple(flat[i:i + n_lot])
        i += n_lot
        n_asked = flat[i]
        i += 1
        bids = tuple((flat[i + 2 * k], flat[i + 2 * k + 1]) for k in range(n_asked))
        i += 2 * n_asked
        winner, price, free_seat, n_free = flat[i:i + 4]
        i += 4
        free = tuple(flat[i:i + n_free])
        i += n_free
        turns.append(TurnRecord(auctioneer, lot, bids, winner, price, free_seat, free))
    if i != len(flat):
        raise ValueError("turn log ends in the middle of a turn")
    return turns


# --------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------

class ClassicGame:
    """One game's state. Build it, then :meth:`play`; tests may also set up a day by hand
    (``deck``, ``ships``, ``money``) and call :meth:`play_turn` directly."""

    def __init__(self, rules: RuleSet, strategies: Sequence[str], seed: int, game_index: int,
                 seating: str = "fixed", params: Sequence[dict | None] | None = None,
                 decide: Sequence[object | None] | None = None):
        players = rules.players  # C1: checked with the rule set
        if len(strategies) != players:
            raise ValueError(f"expected {players} strategies, got {len(strategies)}")
        if seating not in SEATINGS:
            raise ValueError(f"unknown seating {seating!r} (known: {', '.join(SEATINGS)})")
        if params is not None and len(params) != players:
            raise ValueError(f"expected {players} parameter dicts, got {len(params)}")
        if decide is not None and len(decide) != players:
            raise ValueError(f"expected {players} decide entries, got {len(decide)}")

        self.players = players
        self.rules = rules
        self.days = rules["days"]  # C18
        self.holds = rules["ship_holds"]  # C3
        self.rng = GameRandom(seed, game_index)  # C20: the game's only source of randomness

        # C20 / protocol "Seating": done before anything else.
        self.seat_slot = self._seat_slots(seating, game_index)
        # Strategy objects and names by slot; seat s plays slot seat_slot[s].
        slot_strategies = []
        for slot in range(players):
            given = decide[slot] if decide is not None else None
            if given is not None:
                slot_strategies.append(given)
                continue
            name = strategies[slot]
            if name not in STRATEGIES:
                raise ValueError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
            slot_strategies.append(STRATEGIES[name](params[slot] if params is not None else None))
        self.strategy = [slot_strategies[self.seat_slot[s]] for s in range(players)]
        self.strategy_name = [str(strategies[self.seat_slot[s]]) for s in range(players)]

        # Game-long state.
        self.money = [rules["starting_money"]] * players  # C4
        self.track = [[0] * N_GOODS for _ in range(players)]  # C14: every track starts at 0
        self.spent = [0] * players
        self.lots_bought = [0] * players
        self.cards_bought = [0] * players
        self.lots_discarded = [0] * players
        self.free_cards = [0] * players

        # The day's state (C5, C17), set by start_day.
        self.day = 0
        self.deck: list[int] = []  # the face-down pile, drawn lazily (protocol)
        self.removed: list[int] = []
        self.discarded: list[int] = []
        self.ships: list[list[int]] = [[] for _ in range(players)]
        self.log: list[int] = []  # the day's flat turn log (module doc)

        # The current turn's state, read by the strategies.
        self.auctioneer = -1
        self.lot: list[int] = []
        self.highest = 0
        self.high_bidder = -1

        self.record = self._empty_record()

    def _seat_slots(self, seating: str, game_index: int) -> list[int]:
        n = self.players
        if seating == "fixed":
            return list(range(n))
        if seating == "rotate":
            return [(seat + game_index) % n for seat in range(n)]
        # "random": a Fisher-Yates permutation, drawn first thing in the game.
        perm = list(range(n))
        for j in range(n - 1, 0, -1):
            r = self.rng.below(j + 1)
            perm[j], perm[r] = perm[r], perm[j]
        return perm

    def _empty_record(self) -> dict:
        n, days = self.players, self.days
        return {
            "seat_slot": np.array(self.seat_slot, np.int64),
            "starter": np.zeros(days, np.int64),
            "ran_out": np.zeros(days, np.int64),
            "removed": np.zeros((days, removed_cards(n)), np.int64),
            "lots": [np.zeros(0, np.int64) for _ in range(days)],
            "card_location": np.zeros((days, N_CARDS), np.int64),
            "ship_cards": np.full((days, n, self.holds), -1, np.int64),
            "ship_value": np.zeros((days, n), np.int64),
            "ship_pay": np.zeros((days, n), np.int64),
            "majority_pay": np.zeros((days, n), np.int64),
            "bonus_pay": np.zeros((days, n), np.int64),
            "track": np.zeros((days, n, N_GOODS), np.int64),
            "money": np.zeros((days, n), np.int64),
            "spent": np.zeros(n, np.int64),
            "lots_bought": np.zeros(n, np.int64),
            "cards_bought": np.zeros(n, np.int64),
            "lots_discarded": np.zeros(n, np.int64),
            "free_cards": np.zeros(n, np.int64),
            "winner_share60": np.zeros(n, np.int64),
        }

    # -- state helpers (strategies may use them) -----------------------------------------

    @property
    def deck_len(self) -> int:
        """C5: players know how many cards the deck holds (not which)."""
        return len(self.deck)

    def free_holds(self, seat: int) -> int:
        return self.holds - len(self.ships[seat])  # C3

    def is_open(self, seat: int) -> bool:
        """C3: a ship with free holds; a full ship's player is out for the rest of the day."""
        return self.free_holds(seat) > 0

    def open_seats(self) -> list[int]:
        return [s for s in range(self.players) if self.is_open(s)]

    def lowest_bid(self) -> int:
        """C9: a bid beats the highest so far and is at least the rule set's ``min_bid`` (1)."""
        return max(self.highest + 1, self.rules["min_bid"])

    def may_bid(self, seat: int) -> bool:
        """C9: an open ship with room for the whole lot, and money for the lowest bid."""
        return (self.is_open(seat) and self.free_holds(seat) >= len(self.lot)
                and self.money[seat] >= self.lowest_bid())

    def may_grow_lot(self) -> bool:
        """C8: another card may be drawn into the lot (protocol step 2's three conditions; the
        rule set's ``lot_size`` is the most cards, 3)."""
        return (len(self.lot) < self.rules["lot_size"] and self.deck_len > 0
                and any(self.free_holds(s) >= len(self.lot) + 1 for s in self.open_seats()))

    # -- playing ------------------------------------------------------------------------

    def draw(self) -> int:
        """Take the top card of the shuffled deck: a uniformly random card of the pile,
        the last card of the pile filling its place (protocol "The day's deck")."""
        j = self.rng.below(len(self.deck))
        card = self.deck[j]
        self.deck[j] = self.deck[-1]
        self.deck.pop()
        return card

    def play(self) -> dict:
        starter = 0  # C6: seat 0 starts day 1
        for day in range(self.days):
            self.record["starter"][day] = starter
            self.start_day(day)
            self.record["ran_out"][day] = int(self.play_day(starter))
            self.score_day()
            if day < self.days - 1:
                starter = self.next_starter()  # C6 (no draw after the last day)
        self.finish()
        return self.record

    def start_day(self, day: int) -> None:
        """C5, C17: all 36 cards back in the pile, ships empty, the removed cards dealt first."""
        self.day = day
        self.deck = list(range(N_CARDS))
        self.ships = [[] for _ in range(self.players)]
        self.discarded = []
        self.log = []
        self.removed = [self.draw() for _ in range(removed_cards(self.players))]

    def play_day(self, starter: int) -> bool:
        """C7-C12: play the day's turns. True if the day ended by running out (C12)."""
        seat = starter
        while True:
            if self.deck_len == 0:
                return True  # C12: empty deck at the start of a turn; every ship sails as it is
            if self.play_turn(seat):
                return False  # C11 (or no open ship left): the day is over
            seat = self.next_open_seat(seat)  # C7: clockwise, skipping full ships

    def next_open_seat(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.is_open(candidate):
                return candidate
        raise AssertionError("no open ship")

    def play_turn(self, auctioneer: int) -> bool:
        """One auction (C8-C11) with ``auctioneer`` drawing the lot. Returns True when the
        day ends after it (C11 last ship, or every ship full)."""
        if not self.is_open(auctioneer):
            raise AssertionError(f"seat {auctioneer} has a full ship and gets no turn (C3)")
        if self.deck_len == 0:
            raise AssertionError("a turn needs a card in the deck (C12)")
        self.auctioneer = auctioneer
        self.highest = 0
        self.high_bidder = -1

        # C8: the first card is obligatory; each further card is the auctioneer's choice,
        # asked only while the lot is below 3 cards, the deck is not empty, and some open
        # ship could still hold the bigger lot.
        self.lot = [self.draw()]
        while self.may_grow_lot():
            if not self.strategy[auctioneer].wants_card(self, auctioneer):
                break
            self.lot.append(self.draw())

        # C9: one chance each, starting left of the auctioneer; the auctioneer decides last.
        asked: list[tuple[int, int]] = []
        for step in range(1, self.players + 1):
            seat = (auctioneer + step) % self.players
            if not self.may_bid(seat):
                continue  # full ship, too few free holds or too little money: passes unasked
            amount = self._checked_bid(seat)
            asked.append((seat, amount))
            if amount > 0:
                self.highest = amount
                self.high_bidder = seat

        # C10: the sale, or the discard.
        winner, price = self.high_bidder, self.highest
        if winner >= 0:
            self.money[winner] -= price  # to the bank
            self.ships[winner].extend(self.lot)  # loaded in lot order, never moved
            self.spent[winner] += price
            self.lots_bought[winner] += 1
            self.cards_bought[winner] += len(self.lot)
        else:
            self.discarded.extend(self.lot)
            self.lots_discarded[auctioneer] += 1

        # C11: a sale that leaves exactly one open ship fills it for free from the deck.
        free_seat, free = -1, []
        open_seats = self.open_seats()
        if winner >= 0 and len(open_seats) == 1:
            free_seat = open_seats[0]
            while self.is_open(free_seat) and self.deck_len > 0:
                card = self.draw()
                self.ships[free_seat].append(card)
                free.append(card)
            self.free_cards[free_seat] += len(free)

        self.log += TurnRecord(auctioneer, tuple(self.lot), tuple(asked), winner, price,
                               free_seat, tuple(free)).flat()
        self.lot = []
        return free_seat >= 0 or not open_seats

    def _checked_bid(self, seat: int) -> int:
        """Ask ``seat`` for its bid and reject an illegal answer (C4, C9)."""
        amount = self.strategy[seat].bid(self, seat)
        name = self.strategy_name[seat]
        if isinstance(amount, bool) or not isinstance(amount, (int, np.integer)):
            raise ValueError(f"strategy {name} at seat {seat} bid {amount!r}, not a whole number of florins")
        amount = int(amount)
        if amount != 0 and not self.lowest_bid() <= amount <= self.money[seat]:
            raise ValueError(f"strategy {name} at seat {seat} bid {amount}: a bid must be 0 (pass) or "
                             f"from {self.lowest_bid()} (above the highest bid, at least the lowest bid) to "
                             f"{self.money[seat]} (its money) (C9)")
        return amount

    def card_locations(self) -> np.ndarray:
        """Where every card is; checks that each card is in exactly one place."""
        location = np.full(N_CARDS, -1, np.int64)

        def put(cards, code):
            for card in cards:
                if location[card] != -1:
                    raise AssertionError(f"card {card} is in two places")
                location[card] = code

        put(self.deck, LOC_DECK)
        put(self.removed, LOC_REMOVED)
        put(self.discarded, LOC_DISCARDED)
        for seat, ship in enumerate(self.ships):
            if len(ship) > self.holds:
                raise AssertionError(f"seat {seat}'s ship holds {len(ship)} cards (C3)")
            put(ship, LOC_SHIP + seat)
        if (location == -1).any():
            raise AssertionError(f"cards {np.flatnonzero(location == -1).tolist()} are nowhere")
        return location

    def score_day(self) -> None:
        """C13-C16, in this order: ships, tracks rise, majorities, bonuses."""
        n, day, rec = self.players, self.day, self.record
        rec["removed"][day] = self.removed
        rec["lots"][day] = np.array(self.log, np.int64)
        rec["card_location"][day] = self.card_locations()
        for seat, ship in enumerate(self.ships):
            rec["ship_cards"][day, seat, : len(ship)] = ship

        # C13: every ship takes a place, empty or not.
        values = [ship_value(ship) for ship in self.ships]
        ship_pay = ship_payouts(values, self.rules)

        # C14: each track rises by that good's cards aboard, capped at its top (7); gold moves none.
        for seat, ship in enumerate(self.ships):
            for good in range(N_GOODS):
                aboard = sum(1 for c in ship if CARD_GOOD[c] == good)
                self.track[seat][good] = raise_track(self.track[seat][good], aboard, self.rules["track_max"])

        # C15: majorities per good, in good order, on the risen levels. C16: bonuses.
        majority_pay = [0] * n
        bonus_pay = [0] * n
        for good in range(N_GOODS):
            levels = [self.track[seat][good] for seat in range(n)]
            for seat, amount in enumerate(majority_payouts(levels, self.rules)):
                majority_pay[seat] += amount
            for seat in range(n):
                bonus_pay[seat] += track_bonus(levels[seat], self.rules)

        for seat in range(n):
            self.money[seat] += ship_pay[seat] + majority_pay[seat] + bonus_pay[seat]
        rec["ship_value"][day] = values
        rec["ship_pay"][day] = ship_pay
        rec["majority_pay"][day] = majority_pay
        rec["bonus_pay"][day] = bonus_pay
        rec["track"][day] = self.track
        rec["money"][day] = self.money

    def next_starter(self) -> int:
        """C6: the fewest florins starts the next day; among k > 1 such seats (ascending),
        ``tied[below(k)]`` (protocol); with one, no draw."""
        fewest = min(self.money)
        tied = [seat for seat in range(self.players) if self.money[seat] == fewest]
        if len(tied) == 1:
            return tied[0]
        return tied[self.rng.below(len(tied))]

    def finish(self) -> None:
        """C18: most money wins; k joint winners are each credited 60 // k. C21 totals."""
        rec = self.record
        most = max(self.money)
        winners = [seat for seat in range(self.players) if self.money[seat] == most]
        for seat in winners:
            rec["winner_share60"][seat] = 60 // len(winners)
        rec["spent"][:] = self.spent
        rec["lots_bought"][:] = self.lots_bought
        rec["cards_bought"][:] = self.cards_bought
        rec["lots_discarded"][:] = self.lots_discarded
        rec["free_cards"][:] = self.free_cards


def run_game(rules: RuleSet, strategies: Sequence[str], seed: int, game_index: int, seating: str = "fixed",
             params: Sequence[dict | None] | None = None,
             decide: Sequence[object | None] | None = None) -> ClassicGame:
    """Play one game and return the finished ClassicGame (its ``record`` included)."""
    game = ClassicGame(rules, strategies, seed, game_index, seating, params, decide)
    game.play()
    return game


def play_game(rules: RuleSet, strategies: Sequence[str], seed: int, game_index: int, seating: str = "fixed",
              params: Sequence[dict | None] | None = None,
              decide: Sequence[object | None] | None = None) -> dict:
    """Play game ``game_index`` of master seed ``seed`` under the rule set ``rules`` (its player
    count, days, holds, payouts...) and return its record (module doc).

    ``strategies``, ``params`` and ``decide`` are per strategy slot (C20): ``strategies[slot]``
    names a class of :data:`STRATEGIES`, built with ``params[slot]`` (a dict or None).
    ``decide[slot]``, when given and not None, is a ready strategy object (any object with
    ``wants_card`` and ``bid``) that plays the slot instead, ``strategies[slot]`` then being
    only its name in error messages; tests use it to script decisions.
    """
    return run_game(rules, strategies, seed, game_index, seating, params, decide).record
