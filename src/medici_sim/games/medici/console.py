"""What the Medici games' consoles (games/card/console.py, games/classic/console.py) share
beyond core's table driver (core.human.GameConsole): the day and its turns, a day's ships ranked
and its payouts checked against the engine's, who starts the next day (the poorest: R21, C6)
and the final standings (R22, C18). The tables speak plain words: the rule points are in the
docs.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core.human import GameConsole
from ...core.narration import plural
from .days import DAY_OVER
from .narration import rank_places, render_ranking


class MediciConsole(GameConsole):
    """A Medici game's table: core's table driver, with the day it is in (``day``, ``turn``:
    the turns played today, ``sailed``: each ship's cards when the day's turns ended) and
    ``money``, the state field of each seat's florins."""

    money = "florins"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.day = 0
        self.turn = 0  # turns played today
        self.sailed: list[list[int]] = []  # each ship's cards when the day's turns ended

    def event_detail(self, event: int, moment: int) -> int:
        """For DAY_OVER, 1 if the day ran out (its cards did), else 0."""
        return int(self.s["day_ran_out"][moment]) if event == DAY_OVER else 0

    def ship_ranking(self, day: int, coin: int, heading: str) -> tuple[dict, list[str]]:
        """Day ``day``'s ships ranked by the engine's values, and the scoring's first lines:
        ``heading`` (its ``{payouts}``: what the places pay), the ranking, each ship's cargo."""
        s, players = self.s, self.players
        values = [int(v) for v in s["day_ship_value"][day, :players]]
        payouts = [int(v) for v in s["ship_payouts"][:players]]
        ships = rank_places(values, payouts, coin, "")
        lines = [f"--- Scoring day {day + 1} (you are seat {self.me + 1}) ---",
                 heading.format(payouts=" / ".join(map(str, payouts)))]
        lines += [f"  {line}" for line in render_ranking(ships, "value", coin)]
        for p in range(players):
            if self.sailed and self.sailed[p]:
                lines.append(f"    {self.names[p]}: {self.cards_text(self.sailed[p])}")
        return ships, lines

    def cards_text(self, cards) -> str:
        """Cards in words (the game's own names)."""
        raise NotImplementedError

    def check_pays(self, day: int, ship_pay, majority_pay, bonus_pay) -> list[list[int]]:
        """The explanation must add up to what the engine paid; if not, say so: the engine's figures stand."""
        s, p = self.s, self.players
        engine = [[int(x) for x in s[field][day, :p]] for field in ("day_ship_pay", "day_majority_pay",
                                                                   "day_bonus_pay")]
        if [list(ship_pay), list(majority_pay), list(bonus_pay)] != engine:
            self.say("(note: this explanation disagrees with the engine's payouts; the engine's are shown)")
        return engine

    def day_paid_lines(self, day: int, paid_for: tuple[str, str, str], pays, next_starter: int) -> list[str]:
        """The day's payouts per seat (``pays``: ships, majorities, bonuses as the scoring
        worked them out, checked against the engine's) and who starts the next day."""
        s, names = self.s, self.names
        paid = self.check_pays(day, *pays)
        money = [int(m) for m in s[self.money][:self.players]]
        lines = [f"The day's florins ({' + '.join(paid_for)} = paid; {self.money} now):"]
        width = max(len(n) for n in names)
        for p in range(self.players):
            lines.append(f"  {names[p]:<{width}}  {paid[0][p]:>3} + {paid[1][p]:>3} + {paid[2][p]:>3} "
                         f"= {sum(x[p] for x in paid):>3}   {money[p]:>4}")
        if next_starter >= 0:
            lines.append(next_starter_text(names, money, next_starter, self.me))
        return lines


def standings(names: Sequence[str], money: Sequence[int], breakdown: Mapping[str, Sequence[int]], me: int) -> str:
    """The final standings, richest first, each seat's florins as the sum of ``breakdown``'s
    parts ("40 start - 25 spent + 30 ships ..."; a part that is paid out is negative), and
    the winners; ``me``: the person's seat."""
    order = sorted(range(len(names)), key=lambda p: (-money[p], p))
    width = max(len(n) for n in names)
    best = max(money)
    lines = ["=== Final standings (the richest wins; players tied for the most share the win) ==="]
    for p in order:
        rank = 1 + sum(m > money[p] for m in money)
        tied = sum(m == money[p] for m in money) > 1
        (first, first_name), *terms = [(int(v[p]), k) for k, v in breakdown.items()]
        parts = f"{first} {first_name}" + "".join(f" {'-' if v < 0 else '+'} {abs(v)} {k}" for v, k in terms)
        place = str(rank) + ("=" if tied else ".")
        lines.append(f"  {place:<3} {names[p]:<{width}}  {money[p]:>4} florins   = {parts}")
    winners = [p for p in order if money[p] == best]
    if len(winners) == 1:
        lines.append("You win!" if winners[0] == me else f"{names[winners[0]].capitalize()} wins.")
    else:
        lines.append("Shared win: " + ", ".join(names[p] for p in winners) + (" (you among them)." if me in winners
                                                                              else "."))
    return "\n".join(lines)


def next_starter_text(names: Sequence[str], money: Sequence[int], starter: int, me: int) -> str:
    """Who starts the next day and why: the least money; a tie drawn at random."""
    fewest = min(money)
    tied = [p for p, m in enumerate(money) if m == fewest]
    who = "You start" if starter == me else f"{names[starter].capitalize()} starts"
    if len(tied) == 1:
        return f"{who} the next day: the least money ({plural(fewest, 'florin')})."
    among = ", ".join(names[p] for p in tied)
    return f"{who} the next day: drawn at random among the least money ({plural(fewest, 'florin')}): {among}."
