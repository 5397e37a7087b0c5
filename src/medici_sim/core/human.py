"""A person at the table: the ``human`` strategy and the table driver every game's table shares.

A game with a person at it is a stepped game (core.resumable): the person's seat is
EXTERNAL, so the game's engine stops at each of its decisions, and at every event of the
game (a turn's start and end and the game's own), and
:meth:`GameConsole.play` answers or tells it. One play loop, the engine's, plays it: the
table has none of its own. The answers come from the Python object seated with
:func:`seated` (a game's table in ``games/*/console.py``, or a wrapper of it), which reads the
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

from collections.abc import Callable, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Protocol

from numba import njit

from .registry import HUMAN, Game, Strategy
from .resumable import DECISION, EXTERNAL, GAME_OVER, STEP_ACTOR, STEP_MOMENT

ORIGIN = "medici-sim play"  # what registry.origin says of it: not "built-in"


class Seat(Protocol):
    """What :func:`seated` takes: the Python side of the table."""

    def decide(self, decision: int, seat: int) -> int:
        """Answer the game's ``decision``-th decision (its registry's order) for ``seat``; only legal answers."""

    def event(self, kind: int, seat: int, a: int, b: int) -> None:
        """Something happened at the table (an event of core.resumable or the game's own; ``seat``
        the seat it concerns, ``a`` the game's scoring moment in play, ``b`` what the game's
        table says of the event, :meth:`GameConsole.event_detail`)."""


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
    """A decision of the person: the engine asks the table instead (core.resumable.EXTERNAL).
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
# Plain Python shared by the games' tables (games/*/console.py).

LEGEND_AGAIN = "?"  # typed at any question, shows the table's legend again


class GameConsole:
    """The Python side of one game with a person at seat ``human_seat`` (0-based): what every
    game's table shares. A game's table (``games/*/console.py``) sets ``engine`` (its
    ``stepped`` module: the engine's stepping functions, core.resumable) and ``legend()`` (what
    the table's columns mean), and adds its decisions (``decide``), events and views. A
    table speaks plain words: the rule points are in the docs (``Game.presentation.rules_page``), which
    the command names as the game starts.
    """

    engine: ModuleType  # the game's stepping functions (games/*/stepped.py): new_game_nb, advance_nb, ...

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
        """Play the game stepped on the engine (core.resumable): the seated table (this one, or
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
            actor, moment = int(step[STEP_ACTOR]), int(step[STEP_MOMENT])
            if event >= DECISION:
                choice = listener.decide(int(event) - DECISION, actor)
                event = engine.apply_choice_nb(self.buffer, k.table, int(choice))
            else:
                listener.event(int(event), actor, moment, self.event_detail(int(event), moment))
                event = engine.advance_nb(self.buffer, k.table)

    def event_detail(self, event: int, moment: int) -> int:
        """What the table tells its listener of ``event`` besides the seat and the moment (the
        game's own: 0 here)."""
        return 0

    def legal_choices(self) -> list[int]:
        """The answers the rules allow at the decision the game is stopped at (the engine's own list)."""
        return [int(c) for c in self.engine.legal_choices_nb(self.buffer, self.kernel.table)]


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
