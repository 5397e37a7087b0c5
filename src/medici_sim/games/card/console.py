"""A person at the card-game table: what the player sees and answers (R6-R22).

The game is played by the engine itself, stepped (core.resumable, driven by
``core.human.GameConsole.play``, games/medici/console.py's ``MediciConsole``): it stops at the
person's decisions and at every event of
the day. :class:`CardConsole` answers the ``human`` seat's decisions (asking the person,
offering only the legal choices, the engine's ``legal_choices_nb``, and re-asking on bad
input) and prints what a player at the table can see: the market, every ship and
warehouse, florins, the deck's size, the day and turn; each bot's turn (from the engine's
turn log, decoded by ``narrate.decode_turn``); each day's scoring explained from the state
and the rule data with the trace narrator's rankings (``core.narration``: places, ties,
pooling and rounding, R13-R19), the next starting player (R21); the final standings (R22).
tests/test_play.py checks that a table plays exactly the engine's games, record for record.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...core import human
from ...core.narration import plural
from ..medici.console import MediciConsole, standings
from ..medici.days import DAY_OVER, DAY_SCORED, DAY_START, TURN_END, TURN_START
from ..medici.narration import paying, rank_places, render_ranking
from . import engine, stepped
from .narrate import FROM_END, card_name, decode_turn
from .rules import (
    GOODS,
    N_GOODS,
    RULE_BONUS,
    RULE_BONUS_MIN,
    RULE_CAPACITY,
)
from .state import DECK_LEN, MARKET_LEN, REVEALED, legal_takes_nb

# ---------------------------------------------------------------- what a player sees

def card_text(s, card: int) -> str:
    """A card as the trace names it (narrate.card_name): 'grain 3', 'spice 0 (2 icons)', 'green fur 0', 'black 7'."""
    return card_name(int(s["card_good"][card]), int(s["card_icons"][card]), int(s["card_value"][card]),
                     bool(s["card_green"][card]))


def cards_text(s, cards) -> str:
    return ", ".join(card_text(s, c) for c in cards) if len(cards) else "nothing"


def legal_takes(s, seat: int) -> list[int]:
    """The take choices R10 allows (bit 0: the 2nd-from-last card, bit 1: the 3rd): the engine's
    own (state.legal_takes_nb)."""
    choices = np.zeros(engine.MAX_TAKES, np.int64)
    return [int(c) for c in choices[:legal_takes_nb(s, seat, choices)]]


def taken_cards(s, choice: int) -> list[int]:
    """The cards a take choice moves to the ship, in the engine's order (last, 2nd, 3rd from last)."""
    n = int(s["counts"][MARKET_LEN])
    market = s["market"]
    cards = [int(market[n - 1])]
    if choice & 1:
        cards.append(int(market[n - 2]))
    if choice & 2:
        cards.append(int(market[n - 3]))
    return cards


class CardConsole(MediciConsole):
    """The Python side of a card game with a person at seat ``human_seat`` (0-based)."""

    engine = stepped

    def __init__(self, kernel, human_seat: int, strategies: list[str], say: Callable[[str], None],
                 ask: Callable[..., object]):
        super().__init__(kernel, human_seat, strategies, say, ask)
        self.rules = kernel.config.rule_set
        self.market_before: list[int] = []  # the market as this turn began
        self.market_seen: list[int] = []  # the market as the person last saw it

    def market(self) -> list[int]:
        s = self.s
        return [int(c) for c in s["market"][:int(s["counts"][MARKET_LEN])]]

    def cards_text(self, cards) -> str:
        return cards_text(self.s, cards)

    # ------------------------------------------------------------ decisions

    def decide(self, decision: int, seat: int) -> int:
        market = self.market()
        if market != self.market_seen:
            new = market[len(self.market_seen):] if market[:len(self.market_seen)] == self.market_seen else []
            if new:
                forced = " (the market was empty: the first card is obligatory)" if not self.market_seen else ""
                self.say(f"You turn up {cards_text(self.s, new)}{forced}.")
            self.say(f"Market: {self.market_line()}")
        return self.ask_reveal(seat) if decision == 0 else self.ask_take(seat)

    def ask_reveal(self, seat: int) -> int:
        """R9: reveal another card? (asked only while the engine allows one)."""
        s = self.s
        done = int(s["counts"][REVEALED])
        last = card_text(s, s["market"][int(s["counts"][MARKET_LEN]) - 1])
        more = plural(self.rules["reveals_per_turn"] - done, "more card", "more cards")
        self.say(f"You may turn up {more} this turn; "
                 f"if you stop, you must take the last card, {last}.")
        return int(self.question("Reveal another card (y/n)", default="n", parse=human.yes_no))

    def ask_take(self, seat: int) -> int:
        """R10: the last card, and which of the two before it; only legal combinations are offered."""
        s = self.s
        market = self.market()
        n = len(market)
        choices = self.legal_choices()
        capacity, used = int(s["rules"][RULE_CAPACITY]), int(s["ship_used"][seat])
        lines = [f"Take: the last card, {card_text(s, market[-1])}, is yours; you may add the 2nd- and "
                 f"3rd-from-last if they fit (your ship holds {used} of {capacity} non-green cards)."]
        for back, bit in ((2, 1), (3, 2)):
            if n >= back and not any(c & bit for c in choices):
                lines.append(f"  The {FROM_END[back]} card, {card_text(s, market[n - back])}, does not fit on your "
                             "ship.")
        if len(choices) == 1:
            self.say("\n".join(lines[1:] + [f"You take {card_text(s, market[-1])}: nothing else can be taken."]))
            return 0
        for number, choice in enumerate(choices, 1):
            cards = taken_cards(s, choice)
            value = sum(int(s["card_value"][c]) for c in cards)
            lines.append(f"  {number}) {cards_text(s, cards)}   (+{value} ship value)")
        self.say("\n".join(lines))
        number = self.question(f"Your choice (1-{len(choices)})", default="1",
                               parse=lambda text: human.number_in(text, 1, len(choices)))
        return choices[int(number) - 1]

    # ------------------------------------------------------------ events

    def event(self, kind: int, seat: int, a: int, b: int) -> None:
        s = self.s
        if kind == DAY_START:
            self.day, self.turn = a, 0
            who = "you start" if seat == self.me else f"{self.names[seat].capitalize()} starts"
            days = self.rules["days"]
            self.say(f"\n=== Day {a + 1} of {days}: {who}; {plural(int(s['counts'][DECK_LEN]), 'card')} in the "
                     "deck ===")
        elif kind == TURN_START:
            self.turn += 1
            self.market_before = self.market()
            if seat == self.me:
                self.say(self.view())
        elif kind == TURN_END:
            self.say(self.turn_line(seat))
        elif kind == DAY_OVER:
            self.sailed = [[int(c) for c in s["ship"][p, :int(s["ship_len"][p])]] for p in range(self.players)]
            full = all(s["ship_used"][p] == s["rules"][RULE_CAPACITY] for p in range(self.players))
            why = ("the deck and the market are empty" if b else "every ship is full" if full
                   else "the last open ship had its one more turn")
            self.say(f"\nDay {a + 1} is over: {why}.")
        elif kind == DAY_SCORED:
            self.say(self.scoring(a, seat))

    def turn_line(self, seat: int) -> str:
        """The turn just played, from the engine's turn log."""
        s = self.s
        day = self.day
        logged, revealed, backs = decode_turn(s["day_turns"][day, int(s["day_turn_count"][day]) - 1])
        if logged != seat:
            raise RuntimeError(f"the turn log names seat {logged + 1}, seat {seat + 1} played")
        before = self.market_before + revealed
        taken = [before[-back] for back in (1, *backs)]
        who = "You" if seat == self.me else self.names[seat].capitalize()
        shown = f"turned up {cards_text(s, revealed)}" if revealed else "turned up nothing"
        full = " (full)" if s["ship_used"][seat] == s["rules"][RULE_CAPACITY] else ""
        return (f"Day {day + 1} turn {self.turn}: {who} {shown}; took {cards_text(s, taken)} "
                f"-> ship value {int(s['ship_value'][seat])}, {int(s['ship_used'][seat])}/"
                f"{int(s['rules'][RULE_CAPACITY])} places{full}.")

    # ------------------------------------------------------------ the table

    def market_line(self) -> str:
        s = self.s
        self.market_seen = self.market()
        return cards_text(s, self.market_seen) + ("  (the last card at the end)" if self.market_seen else "")

    def view(self) -> str:
        """Everything a player at the table can see, as text."""
        s = self.s
        capacity = int(s["rules"][RULE_CAPACITY])
        width = max(len(n) for n in self.names)
        days = self.rules["days"]
        lines = [f"--- Day {self.day + 1} of {days}, turn {self.turn}: your turn (seat {self.me + 1}) --- "
                 f"deck: {plural(int(s['counts'][DECK_LEN]), 'card')}",
                 f"Market: {self.market_line()}",
                 f"  {'':<{width}}  florins  ship  used  " + " ".join(f"{g:>5}" for g in GOODS) + "  cargo"]
        for p in range(self.players):
            icons = " ".join(f"{int(s['warehouse_icons'][p, g]):>5}" for g in range(N_GOODS))
            lines.append(f"  {self.names[p]:<{width}}  {int(s['florins'][p]):>7}  {int(s['ship_value'][p]):>4}  "
                         f"{int(s['ship_used'][p]):>2}/{capacity}  {icons}  "
                         f"{cards_text(s, s['ship'][p, :int(s['ship_len'][p])])}")
        return self.with_legend("\n".join(lines))

    def legend(self) -> str:
        capacity = int(self.s["rules"][RULE_CAPACITY])
        return (f"(ship: the cargo's value; used: places taken of {capacity}, green cards take none; goods: icons "
                f"in the warehouse, which the cargo's join at the day's end; bonus: {self.bonus_rule()})")

    def bonus_rule(self) -> str:
        s = self.s
        rule = f"{int(s['rules'][RULE_BONUS])} florins for {int(s['rules'][RULE_BONUS_MIN])}+ icons of a good"
        if self.rules["big_bonus_min"]:
            named = "bonus20" if self.rules.spec == "bonus20" else "R19"
            rule += f", {self.rules['big_bonus']} instead for {self.rules['big_bonus_min']}+ ({named})"
        return rule

    # ------------------------------------------------------------ scoring

    def scoring(self, day: int, next_starter: int) -> str:
        """Day ``day``'s scoring explained from the state and the rule data (R13-R19, R21)."""
        s = self.s
        players = self.players
        coin, majority_payouts = self.rules["share_coin"], self.rules["majority_payouts"]
        ships, lines = self.ship_ranking(day, coin, "Ships (the value of all cards aboard, green ones too; "
                                         "places pay {payouts}; tied players pool their places, each share rounded "
                                         f"down to a multiple of {coin}):")
        lines.append("Unloading: goods cards go to the warehouses; green 2s and black 7s leave the game.")
        lines.append(f"Goods (most icons {majority_payouts[0]}, second {majority_payouts[1]}, today's included; "
                     f"no icon, no place; ties shared as for ships) and bonuses ({self.bonus_rule()}):")
        icons = s["day_warehouse_icons"][day]
        majority_pay, bonus_pay = [0] * players, [0] * players
        for g in range(N_GOODS):
            counts = [int(icons[p, g]) for p in range(players)]
            if not any(counts):
                lines.append(f"  {GOODS[g]}: nobody has any")
                continue
            ranking = rank_places(counts, majority_payouts, coin, "", [n > 0 for n in counts])
            parts = render_ranking(paying(ranking, len(majority_payouts)), "icons", coin)
            for p in range(players):
                majority_pay[p] += ranking["pay"][p]
                bonus = int(s["day_good_bonus"][day, g, p])  # the engine's R18 / R19 bonus
                if not bonus:
                    continue
                bonus_pay[p] += bonus
                parts.append(f"bonus seat {p + 1}: {bonus}")
            lines.append(f"  {GOODS[g]}: " + "; ".join(parts))
        lines += self.day_paid_lines(day, ("ships", "goods", "bonuses"), (ships["pay"], majority_pay, bonus_pay),
                                     next_starter)
        return "\n".join(lines)

    def standings(self) -> str:
        s = self.s
        p = self.players
        return standings(self.names, [int(f) for f in s["florins"][:p]],
                               {"ships": s["day_ship_pay"][:, :p].sum(axis=0),
                                "goods": s["day_majority_pay"][:, :p].sum(axis=0),
                                "bonuses": s["day_bonus_pay"][:, :p].sum(axis=0)}, self.me)
