"""A person at the classic-game table: what the player sees and answers (C3-C18).

The game is played by the engine itself, stepped (core.resumable, driven by
``core.human.GameConsole.play``, games/medici/console.py's ``MediciConsole``): it stops at the
person's decisions and at every event of
the day. :class:`ClassicConsole` answers the ``human`` seat's decisions (draw another card
into the lot? how much to bid?), offering only legal answers and re-asking on bad input,
and prints what a player at the table can see: the lot, every ship, every track level,
money, the cards left in the deck, the bids so far, the highest bid and who bids after;
the bots' auctions (from the engine's own turn log, read with ``reference.turn_records``);
each day's scoring explained from the state and the rule data with the trace narrator's
rankings (``core.narration``: places, ties and rounding, C13-C16), the next starting
player (C6); the final standings (C18). tests/test_play.py checks that a table plays
exactly the engine's games, record for record.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...core import human
from ...core.narration import plural
from ..medici.console import MediciConsole, standings
from ..medici.days import DAY_OVER, DAY_SCORED, DAY_START, TURN_END, TURN_START
from ..medici.narration import paying, rank_places, render_ranking
from . import stepped
from .narrate import card_name
from .reference import turn_records
from .rules import GOODS, N_GOODS, RULE_REMOVED, RULE_START_MONEY
from .state import (
    AUCTIONEER,
    DECK_LEN,
    HIGH_BIDDER,
    HIGHEST,
    LOT_LEN,
    LOT_VALUE,
    MAX_FREE,
    TURN_ID,
)

# ---------------------------------------------------------------- what a player sees

def card_text(s, card: int) -> str:
    """A card as the trace names it (narrate.card_name): 'grain 3', 'gold 10' (C2)."""
    return card_name(int(s["card_good"][card]), int(s["card_value"][card]))


def cards_text(s, cards) -> str:
    return ", ".join(card_text(s, c) for c in cards) if len(cards) else "nothing"


class ClassicConsole(MediciConsole):
    """The Python side of a classic game with a person at seat ``human_seat``."""

    engine = stepped
    money = "money"

    def __init__(self, kernel, human_seat: int, strategies: list[str], say: Callable[[str], None],
                 ask: Callable[..., object]):
        super().__init__(kernel, human_seat, strategies, say, ask)
        self.rules = kernel.config.rule_set
        self.holds = self.rules["ship_holds"]
        self.turn_shown = -1  # the TURN_ID whose table the person has seen
        self.lot_shown = 0  # the lot's size when they last saw it
        self.last_free = -1  # the seat filled for free by the last auction (C11), else -1
        self.track_before = np.zeros((self.players, N_GOODS), np.int64)

    def cards_text(self, cards) -> str:
        return cards_text(self.s, cards)

    # ------------------------------------------------------------ decisions

    def decide(self, decision: int, seat: int) -> int:
        return self.ask_draw(seat) if decision == 0 else self.ask_bid(seat)

    def show_table(self) -> None:
        """The whole table at the person's first decision of an auction; after that, the lot when it grew."""
        s = self.s
        turn_id, lot_len = int(s["counts"][TURN_ID]), int(s["counts"][LOT_LEN])
        if self.turn_shown != turn_id:
            self.say(self.view())
        elif self.lot_shown != lot_len:
            self.say(f"Lot: {self.lot_line()}")
        self.turn_shown, self.lot_shown = turn_id, lot_len

    def ask_draw(self, seat: int) -> int:
        """C8: draw another card into the lot? (asked only while C8 allows one)."""
        self.show_table()
        s = self.s
        lot_len = int(s["counts"][LOT_LEN])
        lot_size = self.rules["lot_size"]
        biggest = min(lot_size, int(s["counts"][MAX_FREE]))
        self.say(f"The lot has {plural(lot_len, 'card')} and may grow to {biggest}: {lot_size} at most, and some ship "
                 f"must have room for it (the most free holds: {int(s['counts'][MAX_FREE])}).")
        return int(self.question("Draw another card into the lot (y/n)", default="n", parse=human.yes_no))

    def ask_bid(self, seat: int) -> int:
        """C9: 0 to pass, or a whole number from the lowest bid (the highest bid + 1) to your money."""
        self.show_table()
        legal = self.legal_choices()  # the engine's: 0 (pass), then from the lowest bid to the seat's money
        lowest, money = legal[1], legal[-1]
        self.say(self.bidding_line(seat))
        return int(self.question(f"Your bid: 0 to pass, or {lowest} to {money}", default="0",
                                 parse=lambda text: human.number_in(text, lowest, money, also=0)))

    def bidding_line(self, seat: int) -> str:
        """Who said what so far on this lot, the highest bid, and who speaks after ``seat``."""
        s = self.s
        players = self.players
        auctioneer = int(s["counts"][AUCTIONEER])
        lot_len = int(s["counts"][LOT_LEN])
        order = [(auctioneer + k) % players for k in range(1, players + 1)]  # C9: from the left, auctioneer last
        at = order.index(seat)
        said = []
        for p in order[:at]:
            bid = int(s["turn_bid"][p])
            if bid < 0:
                why = "no room" if self.holds - int(s["ship_len"][p]) < lot_len else "not enough florins"
                said.append(f"{self.names[p]} cannot bid ({why})")
            else:
                said.append(f"{self.names[p]} " + ("passed" if bid == 0 else f"bid {bid}"))
        high_bidder = int(s["counts"][HIGH_BIDDER])
        highest = (f"{int(s['counts'][HIGHEST])} by {self.names[high_bidder]}" if high_bidder >= 0
                   else "none yet")
        after = [f"{self.names[p]}{' (auctioneer)' if p == auctioneer else ''}"
                 for p in order[at + 1:] if self.holds - int(s["ship_len"][p]) >= lot_len]
        return (f"Bidding (one chance each, from the auctioneer's left; the auctioneer last): "
                f"{'; '.join(said) if said else 'you speak first'}.\n"
                f"Highest bid: {highest}. "
                + (f"After you: {', '.join(after) if after else 'nobody'}. " if seat != auctioneer
                   else "You are the auctioneer: you speak last. ")
                + f"You have {plural(int(s['money'][seat]), 'florin')} and "
                  f"{plural(self.holds - int(s['ship_len'][seat]), 'free hold')}.")

    # ------------------------------------------------------------ events

    def event(self, kind: int, seat: int, a: int, b: int) -> None:
        s = self.s
        if kind == DAY_START:
            self.day, self.turn = a, 0
            who = "you start" if seat == self.me else f"{self.names[seat].capitalize()} starts"
            removed = int(s["rules"][RULE_REMOVED])
            deck = plural(int(s["counts"][DECK_LEN]), "card")
            self.say(f"\n=== Day {a + 1} of {self.rules['days']}: {who}; {deck} in the deck, {removed} set aside "
                     "unseen ===")
        elif kind == TURN_START:
            self.turn += 1
        elif kind == TURN_END:
            self.say(self.auction_text())
        elif kind == DAY_OVER:
            self.sailed = [[int(c) for c in s["ship"][p, :int(s["ship_len"][p])]] for p in range(self.players)]
            self.track_before = s["track"][:self.players].copy()
            if b:
                why = "the deck is empty"
            elif self.last_free >= 0:
                why = "the last open ship was filled"
            else:
                why = "every ship is full"
            self.say(f"\nDay {a + 1} is over: {why}.")
        elif kind == DAY_SCORED:
            self.say(self.scoring(a, seat))

    def auction_text(self) -> str:
        """The auction just played, from the engine's turn log (reference.turn_records reads it)."""
        s = self.s
        turn = turn_records(s["day_log"][self.day, :int(s["day_log_len"][self.day])])[-1]
        self.last_free = turn.free_seat
        me = self.me
        names = ["You" if p == me else n.capitalize() for p, n in enumerate(self.names)]  # as a sentence's subject
        value = sum(int(s["card_value"][c]) for c in turn.lot)
        text = (f"Day {self.day + 1} turn {self.turn}: {names[turn.auctioneer]} "
                f"{'auction' if turn.auctioneer == me else 'auctions'} {cards_text(s, turn.lot)} (value {value}). ")
        said = [("you pass" if p == me else f"{self.names[p]} passes") if bid == 0
                else f"{'you' if p == me else self.names[p]} {bid}" for p, bid in turn.bids]
        text += ("Bids: " + ", ".join(said) + ". ") if said else "Nobody can bid. "
        if turn.winner >= 0:
            w = turn.winner
            text += (f"{names[w]} {'buy' if w == me else 'buys'} it for {turn.price} "
                     f"({plural(int(s['money'][w]), 'florin')} left; ship {int(s['ship_len'][w])}/{self.holds}, value "
                     f"{int(s['ship_value'][w])}).")
        else:
            text += "Nobody bought it: the lot is put aside."
        if turn.free_seat >= 0:
            f = turn.free_seat
            text += (f"\n  {names[f]} {'have' if f == me else 'has'} the last open ship and "
                     f"{'fill' if f == me else 'fills'} it for free: {cards_text(s, turn.free)}.")
        return text

    # ------------------------------------------------------------ the table

    def lot_line(self) -> str:
        s = self.s
        n = int(s["counts"][LOT_LEN])
        return f"{cards_text(s, s['lot'][:n])} (value {int(s['counts'][LOT_VALUE])})"

    def view(self) -> str:
        """Everything a player at the table can see, as text."""
        s = self.s
        auctioneer = int(s["counts"][AUCTIONEER])
        width = max(len(n) for n in self.names)
        whose = "you auction" if auctioneer == self.me else f"{self.names[auctioneer].capitalize()} auctions"
        lines = [f"--- Day {self.day + 1} of {self.rules['days']}, turn {self.turn}: {whose} --- deck: "
                 f"{plural(int(s['counts'][DECK_LEN]), 'card')} left",
                 f"Lot: {self.lot_line()}",
                 f"  {'':<{width}}  money  ship  free  " + " ".join(f"{g:>5}" for g in GOODS) + "  cargo",
                 ]
        for p in range(self.players):
            n = int(s["ship_len"][p])
            levels = " ".join(f"{int(s['track'][p, g]):>5}" for g in range(N_GOODS))
            lines.append(f"  {self.names[p]:<{width}}  {int(s['money'][p]):>5}  {int(s['ship_value'][p]):>4}  "
                         f"{self.holds - n:>4}  {levels}  {cards_text(s, s['ship'][p, :n])}")
        return self.with_legend("\n".join(lines))

    def paying_levels(self) -> tuple[list[int], list[int]]:
        """C16: the track levels that pay a bonus, and their bonuses (5, 6, 7 pay 5, 10, 20)."""
        levels = [level for level, pay in enumerate(self.rules["track_bonus"]) if pay]
        return levels, [self.rules["track_bonus"][level] for level in levels]

    def legend(self) -> str:
        levels, pays = self.paying_levels()
        return (f"(ship: the cargo's value; free: empty holds of {self.holds}; goods: track levels, which the cargo "
                f"raises at the day's end; levels {'/'.join(map(str, levels))} pay {'/'.join(map(str, pays))} a day)")

    # ------------------------------------------------------------ scoring

    def scoring(self, day: int, next_starter: int) -> str:
        """Day ``day``'s scoring explained from the state and the rule data (C13-C16, C6)."""
        s = self.s
        players = self.players
        coin, majority_payouts = self.rules["share_coin"], self.rules["majority_payouts"]
        rounded = "a whole florin" if coin == 1 else f"a multiple of {coin}"
        ships, lines = self.ship_ranking(day, coin, "Ships (places pay {payouts}; an empty ship ranks too; "
                                         f"tied players share their places, each share rounded down to {rounded}):")
        track = s["track"][:players]
        rises = []
        for p in range(players):
            moved = [f"{GOODS[g]} {int(self.track_before[p, g])}->{int(track[p, g])}" for g in range(N_GOODS)
                     if track[p, g] != self.track_before[p, g]]
            if moved:
                rises.append(f"seat {p + 1}: {', '.join(moved)}")
        lines.append(f"Tracks rise one step per card of the good aboard, up to {self.rules['track_max']}: "
                     + ("; ".join(rises) if rises else "no change") + ".")
        bonus_levels, bonuses = self.paying_levels()
        lines.append(f"Majorities (highest level {majority_payouts[0]}, second {majority_payouts[1]}; "
                     f"everyone ranks, level 0 too) and bonuses (level {', '.join(map(str, bonus_levels))} pay "
                     f"{', '.join(map(str, bonuses))}, never shared):")
        majority_pay, bonus_pay = [0] * players, [0] * players
        for g in range(N_GOODS):
            levels = [int(track[p, g]) for p in range(players)]
            ranking = rank_places(levels, majority_payouts, coin, "")
            parts = render_ranking(paying(ranking, len(majority_payouts)), "level", coin)
            for p in range(players):
                majority_pay[p] += ranking["pay"][p]
                bonus = self.rules["track_bonus"][levels[p]]
                if bonus:
                    bonus_pay[p] += bonus
                    parts.append(f"bonus seat {p + 1}: {bonus} (level {levels[p]})")
            lines.append(f"  {GOODS[g]}: " + "; ".join(parts))
        lines += self.day_paid_lines(day, ("ships", "majorities", "bonuses"),
                                     (ships["pay"], majority_pay, bonus_pay), next_starter)
        return "\n".join(lines)

    def standings(self) -> str:
        s = self.s
        p = self.players
        start = int(s["rules"][RULE_START_MONEY])
        return standings(self.names, [int(m) for m in s["money"][:p]],
                               {"start": [start] * p, "spent": -s["spent"][:p],
                                "ships": s["day_ship_pay"][:, :p].sum(axis=0),
                                "majorities": s["day_majority_pay"][:, :p].sum(axis=0),
                                "bonuses": s["day_bonus_pay"][:, :p].sum(axis=0)}, self.me)
