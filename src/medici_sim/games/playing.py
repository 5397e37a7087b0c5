"""The small public game API: ``medici_sim.games.load(name)``, what plug-in authors and notebooks
use instead of the games' deep paths.

>>> from medici_sim.games import load
>>> game = load("card")                      # any registered game, by name
>>> position = game.new_game(players=3, seed=1)
>>> while not position.over:
...     position.apply(position.legal_choices()[0])
>>> position.returns(), position.winners()    # the seats' scores and the winning seats

A position is one game stepped through its engine (core.contract's ``Engine.stepping``): it
stops at each decision of a seat the caller answers (every seat by default; ``strategies``
names a strategy for the seats that play one) and plays on through the rest. Seats are
numbered from 0 in the order of play the rules give (from 1 in texts, as the rules and tables
number them).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.contract import Game
from ..core.driver import PreparedRun
from ..core.registry import Strategy, get_game
from ..core.resumable import DECISION, EXTERNAL, GAME_OVER, STEP_ACTOR
from ..core.specs import run_config


class LoadedGame:
    """A registered game: who plays it, its decisions and strategies, and new games of it."""

    def __init__(self, definition: Game):
        self.definition = definition
        self.name: str = definition.name
        self.title: str = definition.title
        self.players: tuple[int, int, int] = (definition.min_players, definition.default_players,
                                              definition.max_players)  # fewest, default, most
        self.rules: tuple[str, ...] = definition.presets  # the named rule sets, the default first
        self.decisions: tuple[str, ...] = definition.registry.decisions  # what a strategy decides, in order

    @property
    def strategies(self) -> tuple[str, ...]:
        """The names of its strategies (built-ins, then any registered since)."""
        return tuple(self.definition.registry)

    def register(self, strategy: Strategy) -> Strategy:
        """Add a strategy (a plug-in's) to the game (``StrategyRegistry.register``: a name taken is refused)."""
        return self.definition.registry.register(strategy)

    def new_game(self, players: int | None = None, *, seed: int = 0, index: int = 0, rules: str | None = None,
                 strategies: Sequence[str | None] | None = None) -> Position:
        """Game ``index`` of a run with ``seed`` (the same game the batch kernel plays there), at
        ``players`` (None: the game's default) under ``rules`` (None: the default rule set).
        ``strategies``: per seat, a strategy (a name, with parameters as the command line writes
        them) or None for a seat the caller answers (None, the default: every seat)."""
        players = self.definition.default_players if players is None else players
        seats = list(strategies) if strategies is not None else [None] * players
        if len(seats) != players:
            raise ValueError(f"strategies names {len(seats)} seats for a {players}-player game")
        filler = self.definition.built_ins[0]
        config = run_config(game=self.name, players=players, strategies=[s or filler for s in seats], games=1,
                            seed=seed, rules=rules, seating="fixed", threads=1, components=None)
        kernel = PreparedRun(config, every_part=True)  # the seats answered here may read any part of the state
        return Position(self.definition, kernel, index, [k for k, s in enumerate(seats) if s is None])


class Position:
    """One game, stopped at a decision of a seat the caller answers (``seat``, ``decision``) or over."""

    def __init__(self, definition: Game, kernel: PreparedRun, index: int, answered: list[int]):
        self.definition, self.kernel = definition, kernel
        self.stepping = definition.engine.stepping
        if self.stepping is None:
            why = definition.engine.no_stepping or "it declares no stepping functions"
            raise ValueError(f"the {definition.name} game cannot be played move by move yet: {why}")
        slot_strategy = kernel.slot_strategy.copy()
        slot_strategy[answered] = EXTERNAL  # seating "fixed": slot k sits at seat k
        self.buffer = kernel.inputs.copy()
        self.stepping.new_game_nb(self.buffer, kernel.config.seed, index, kernel.seating, slot_strategy,
                                  kernel.slot_params, kernel.table)
        self.event = GAME_OVER
        self._play_on(int(self.stepping.advance_nb(self.buffer, kernel.table)))

    def _play_on(self, event: int) -> None:
        """Advance past the events nobody answers, to a decision or the end."""
        while event != GAME_OVER and event < DECISION:
            event = int(self.stepping.advance_nb(self.buffer, self.kernel.table))
        self.event = event

    @property
    def state(self):
        """The game's state record (its fields: the game's ``state.py``); read it, do not write it."""
        return self.buffer[0]

    @property
    def over(self) -> bool:
        return self.event == GAME_OVER

    @property
    def seat(self) -> int | None:
        """The seat to decide (None once the game is over)."""
        return None if self.over else int(self.state["step"][STEP_ACTOR])

    @property
    def decision(self) -> str | None:
        """The decision asked (one of the game's ``decisions``), or None once the game is over."""
        return None if self.over else self.definition.registry.decisions[self.event - DECISION]

    def legal_choices(self) -> list[int]:
        """The answers the rules allow at this decision ([] once the game is over)."""
        if self.over:
            return []
        return [int(c) for c in self.stepping.legal_choices_nb(self.buffer, self.kernel.table)]

    def apply(self, choice: int) -> None:
        """Answer the decision with ``choice`` (ValueError unless it is legal) and play on to the
        next decision of a seat the caller answers, or the end."""
        if self.over:
            raise ValueError("the game is over: there is no decision to answer")
        if int(choice) not in self.legal_choices():
            raise ValueError(f"{choice} is not a legal choice at {self.decision} (legal: {self.legal_choices()})")
        self._play_on(int(self.stepping.apply_choice_nb(self.buffer, self.kernel.table, int(choice))))

    def returns(self) -> list[int]:
        """Each seat's score in the game's own unit (final once the game is over: its returns)."""
        return [int(x) for x in self.definition.engine.scores(self.state, self.kernel.config.players)]

    def winners(self) -> list[int]:
        """The seats with the highest score (they share the win); meaningful once the game is over."""
        scores = np.array(self.returns())
        return [int(k) for k in np.flatnonzero(scores == scores.max())]

    def text(self) -> str:
        """The position in words: what the seat to decide sees (the game's seat view, where it
        declares one), or its scores."""
        players = self.kernel.config.players
        if self.definition.framework is not None:
            seat = self.seat if self.seat is not None else 0
            return self.definition.seat_view.observation_text(self.state, seat, -1 if self.over else seat)
        scores = ", ".join(f"seat {k + 1} {score}" for k, score in enumerate(self.returns()))
        where = "over" if self.over else f"seat {self.seat + 1} to answer {self.decision}"
        return f"{self.definition.title}, {players} players: {where}; scores {scores}"


def load(name: str) -> LoadedGame:
    """The registered game ``name`` (``medici_sim.list_games()`` names them): UnknownGame (a
    ValueError) naming the known games otherwise."""
    return LoadedGame(get_game(name))
