"""A person at the table: the ``human`` strategy and the table driver every game's table shares.

A game with a person at it is a stepped game (core.stepping): the person's seat is
EXTERNAL, so the game's engine stops at each of its decisions, and at every event of the
day (a day's start, each turn's start and end, the day's end and its scoring), and
:meth:`GameTable.play` answers or tells it. One play loop, the engine's, plays it: the
table has none of its own. The answers come from the Python object seated with
:func:`seated` (a game's table in ``games/*/table.py``, or a wrapper of it), which reads the
live game from the state buffer the engine plays on, asks the person, checks the answer
against the rules (the engine's ``legal_choices_nb``) and re-asks until it is legal.

``human`` joins a game's registry only when :func:`register_human` puts it there
(``medici-sim play`` does, once it has read the bots; nothing else does), with one
function for each of the game's decisions (its registry's ``decisions``, however many),
and it is never a built-in: its functions live outside the games' packages, so
``dispatch.strategy_table`` leaves it out of every table but those of runs that seat it
(registry.origin). Normal runs never compile it and never see its name (``--strategies
human`` is an unknown strategy there). The engine never calls those functions: the table
driver seats the person as EXTERNAL.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Protocol

from numba import njit

from .narration import plural, rank_places, render_ranking
from .registry import HUMAN, Game, Strategy
from .stepping import DAY_OVER, DECISION, EXTERNAL, GAME_OVER, STEP_ACTOR, STEP_DAY

ORIGIN = "medici-sim play"  # what registry.origin says of it: not "built-in"


class Seat(Protocol):
    """What :func:`seated` takes: the Python side of the table."""

    def decide(self, decision: int, seat: int) -> int:
        """Answer the game's ``decision``-th decision (its registry's order) for ``seat``; only legal answers."""

    def event(self, kind: int, seat: int, a: int, b: int) -> None:
        """Something happened at the table (core.stepping's DAY_START, ...; ``seat`` the seat it
        concerns, ``a`` the day, ``b`` for DAY_OVER 1 if the day ran out)."""


_seated: list[Seat] = []  # the current table (a stack: one at a time in practice)


@contextmanager
def seated(table: Seat):
    """Let ``table`` answer the human's decisions and hear the events while the block runs."""
    _seated.append(table)
    try:
        yield table
    finally:
        _seated.remove(table)


@njit(cache=True)
def external_nb(state, seat, params):
    """A decision of the person: the engine asks the table instead (core.stepping.EXTERNAL).
    It answers a whole number, as every decision may, so its dispatch types as the others'."""
    if seat >= 0:
        raise RuntimeError("the human strategy plays only at a table (medici-sim play)")
    return 0


def register_human(game: Game) -> Strategy:
    """Register ``human`` in a game's registry (one function for each of its decisions)."""
    strategy = Strategy(HUMAN, decisions=dict.fromkeys(game.registry.decisions, external_nb),
                        summary="you, at the keyboard (medici-sim play)")
    return game.registry.register(strategy, origin=ORIGIN)


# ---------------------------------------------------------------- what a person is told
# Plain Python shared by the games' tables (games/*/table.py).

LEGEND_AGAIN = "?"  # typed at any question, shows the table's legend again


class GameTable:
    """The Python side of one game with a person at seat ``human_seat`` (0-based): what every
    game's table shares. A game's table (``games/*/table.py``) sets ``engine`` (its
    ``stepped`` module: the engine's stepping functions, core.stepping), ``money`` (the state field of each
    seat's florins) and ``legend()`` (what the table's columns mean), and adds its
    decisions (``decide``), events and views. A table speaks plain words: the rule points
    are in the docs (``Game.rules_page``), which the command names as the game starts.
    """

    engine: ModuleType  # the game's stepping functions (games/*/stepped.py): new_game_nb, advance_nb, ...
    money = "florins"

    def __init__(self, kernel, human_seat: int, strategies: Sequence[str], say: Callable[[str], None],
                 ask: Callable[..., object]):
        self.kernel = kernel
        self.buffer = kernel.inputs.copy()  # the state the engine plays on, which the table reads
        self.me = human_seat
        self.say = say
        self.ask = ask
        self.players = kernel.config.players
        self.names = [f"you (seat {p + 1})" if p == human_seat else f"seat {p + 1} {strategies[p]}"
                      for p in range(self.players)]
        self.day = 0
        self.turn = 0  # turns played today
        self.sailed: list[list[int]] = []  # each ship's cards when the day's turns ended
        self.legend_shown = False

    @property
    def s(self):
        """The live game state (the record the jitted game plays on)."""
        return self.buffer[0]

    def legend(self) -> str:
        """What the table's columns mean (the game's own)."""
        raise NotImplementedError

    def with_legend(self, view: str) -> str:
        """The table ``view``, with the legend under it the first time only: it is there again
        when the person types ? at a question."""
        if self.legend_shown:
            return view
        self.legend_shown = True
        return f"{view}\n{self.legend()}\n(Type {LEGEND_AGAIN} at any question to see this again.)"

    def question(self, question: str, default: str, parse: Callable[[str], int]) -> int:
        """Ask the person until ``parse`` takes the answer; ? shows the legend and asks again."""
        while True:
            answer = self.ask(question, default=default, parse=lambda text: None if text.strip() == LEGEND_AGAIN
                              else parse(text))
            if answer is not None:
                return answer
            self.say(self.legend())

    def play(self) -> None:
        """Play the game stepped on the engine (core.stepping): the seated table (this one, or
        what wraps it) answers the person's decisions and hears every event."""
        k = self.kernel
        engine = self.engine
        listener = _seated[-1] if _seated else self
        slot_strategy = k.slot_strategy.copy()
        for slot, strategy in enumerate(slot_strategy):
            if k.table_names[strategy] == HUMAN:
                slot_strategy[slot] = EXTERNAL
        engine.new_game_nb(self.buffer, k.config.seed, 0, k.seating, slot_strategy, k.slot_params, k.table)
        event = engine.advance_nb(self.buffer, k.table)
        while event != GAME_OVER:
            step = self.s["step"]
            actor, day = int(step[STEP_ACTOR]), int(step[STEP_DAY])
            if event >= DECISION:
                choice = listener.decide(int(event) - DECISION, actor)
                event = engine.apply_choice_nb(self.buffer, k.table, int(choice))
            else:
                listener.event(int(event), actor, day, int(self.s["day_ran_out"][day]) if event == DAY_OVER else 0)
                event = engine.advance_nb(self.buffer, k.table)

    def legal_choices(self) -> list[int]:
        """The answers the rules allow at the decision the game is stopped at (the engine's own list)."""
        return [int(c) for c in self.engine.legal_choices_nb(self.buffer, self.kernel.table)]

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


def yes_no(text: str) -> int:
    """A y/n answer as 1/0, or ValueError."""
    answer = text.strip().lower()
    if answer in ("y", "yes"):
        return 1
    if answer in ("n", "no"):
        return 0
    raise ValueError("answer y or n")


def number_in(text: str, low: int, high: int, *, also: int | None = None) -> int:
    """A whole number from ``low`` to ``high`` (or exactly ``also``), or ValueError saying which."""
    allowed = (f"{also}, or " if also is not None else "") + (f"{low}" if low == high else f"{low} to {high}")
    try:
        number = int(text.strip())
    except ValueError:
        raise ValueError(f"type {allowed}") from None
    if number != also and not low <= number <= high:
        raise ValueError(f"type {allowed}")
    return number
