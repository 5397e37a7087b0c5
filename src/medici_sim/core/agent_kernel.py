"""Python agents at seats of a run: the agent interface, and the kernel that seats them.

An **agent** is any Python object that answers a seat's decisions (a trained policy, an
OpenSpiel bot through ``frameworks.agents``, a few lines of code):

- ``agent(observation, legal_actions) -> action``: ``observation`` is the seat's view, the
  float32 vector of PettingZoo's and Gymnasium's environments (the game's ``seat_view``);
  ``legal_actions`` the legal action ids, ascending (the ids of docs/frameworks.md); the
  answer one of them;
- or, instead, ``agent.decide(decision) -> action``, handed a :class:`Decision` (the same
  observation and legal actions, and the seat, the game index, the action mask, the table in
  words, the engine's record): what the adapters of ``frameworks.agents`` use;
- optionally ``agent.reset(start)``, called before each game the agent plays, with a
  :class:`GameStart` (the game, players, rules, its seat, the game index and the seed, and the
  run's lineup and seating, from which, with the agents' answers, every move can be replayed:
  what ``frameworks.agents`` hands an OpenSpiel bot, a state with its history): an
  agent that draws random numbers seeds them from ``(start.seed, start.game_index)``, so the
  same seed plays the same games. An agent holding several seats of one game (a tournament
  of fewer entries than seats) is reset once per seat.

:class:`AgentKernel` plays a run's games with the agents' slots EXTERNAL seats of the
engine's stepping interface (core.resumable): the engine stops at each of their decisions and
plays every other seat itself, on its own state, at its own speed; each game is then counted
by the game's own accumulation, as in the batch kernel. A run without agents is its batch
kernel's (``tests/test_agent_tournament.py`` plays the same games both ways and finds the
same totals). An agent's exception or an illegal answer is an :class:`AgentError`: one line
naming the agent, the game index and the seat.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from .accounting import add_seat_rows_nb
from .arguments import ConfigError, named
from .driver import PreparedRun, RunConfig
from .kernel import compiled_for
from .registry import Game
from .resumable import DECISION, EXTERNAL, GAME_OVER, STEP_ACTOR


class AgentError(ValueError):
    """A Python agent failed in a game: raised, or answered an action the rules do not allow
    (``agent``: its name; ``game``: the game index; ``seat``: from 1)."""

    def __init__(self, message: str, agent: str, game: int, seat: int):
        super().__init__(message)
        self.agent, self.game, self.seat = agent, game, seat


@dataclass(frozen=True)
class GameStart:
    """What an agent's ``reset`` is told before a game: where it sits in which game."""

    game: str  # the game's name: card, classic
    players: int
    rules: str  # the rule set, canonical
    seat: int  # from 0 (seat 0 is the first to play)
    game_index: int  # the game's index in the run: with the seed, all its randomness (R25, C20)
    seed: int
    # the run's strategies by slot (core.driver.SeatStrategy), None at the slots Python agents hold, and its seating
    # (core.seating): with the seed, game index and the agents' answers (Decision.answers), every move of the game
    lineup: tuple = ()
    seating: str = "fixed"


@dataclass
class Decision:
    """One decision of an agent's seat, as ``agent.decide`` is handed it."""

    start: GameStart  # the game and the agent's seat in it
    decision: int  # which of the game's decisions (its registry's order: the card game's reveal, take)
    legal_actions: list[int]  # ascending action ids
    # the engine's record (``buffer[0]``), live: read it, never write it (frameworks.agents' OpenSpiel adapter writes
    # back only the game's generator, which a built-in as a bot draws from, as it does in the kernel)
    buffer: np.ndarray
    event: int  # the stepping interface's event (core.resumable.DECISION + decision)
    view: object  # the game's seat view (FrameworkFacts.seat_view)
    answers: tuple = ()  # every Python agent's answer so far in this game (any seat's), in order

    @property
    def seat(self) -> int:
        return self.start.seat

    @property
    def game_index(self) -> int:
        return self.start.game_index

    @property
    def state(self):
        """The engine's record of the game (read only)."""
        return self.buffer[0]

    @cached_property
    def observation(self) -> np.ndarray:
        """The seat's view: the observation vector of the PettingZoo and Gymnasium environments."""
        vector = np.zeros(self.view.observation_size(self.state), np.float32)
        self.view.observe(self.state, self.seat, self.seat, vector)
        return vector

    @property
    def action_mask(self) -> np.ndarray:
        """The legal actions as an int8 mask over every action id under the rules in force
        (``action_count``: PettingZoo's ``action_mask``)."""
        mask = np.zeros(self.view.action_count(self.state), np.int8)
        mask[self.legal_actions] = 1
        return mask

    @property
    def text(self) -> str:
        """The table as the seat sees it, in words."""
        return self.view.observation_text(self.state, self.seat, self.seat)

    def action_text(self, action: int) -> str:
        return self.view.action_text(self.state, action)


class SeatedAgent:
    """A Python agent under its name, called as the interface says, its failures named."""

    def __init__(self, name: str, agent):
        decide = getattr(agent, "decide", None)
        if not callable(decide) and not callable(agent):
            hint = ("; an OpenSpiel bot sits through medici_sim.frameworks.agents.openspiel_agent"
                    if callable(getattr(agent, "step", None)) else "")
            raise ConfigError(f"{named('agents')}: agent {name} ({type(agent).__name__}) is neither a callable "
                              f"agent(observation, legal_actions) nor has a decide(decision) method{hint}")
        self.name, self.agent = name, agent
        self.decide_on = decide if callable(decide) else None
        reset = getattr(agent, "reset", None)
        self.reset = reset if callable(reset) else None

    def start(self, start: GameStart) -> None:
        if self.reset is not None:
            self._calling(start, lambda: self.reset(start))

    def answer(self, decision: Decision) -> int:
        """The agent's action, checked against the rules (the legal actions as the engine gave them,
        whatever the agent did to what it was handed)."""
        legal_actions = tuple(decision.legal_actions)
        if self.decide_on is not None:
            action = self._calling(decision.start, lambda: self.decide_on(decision))
        else:
            action = self._calling(decision.start, lambda: self.agent(decision.observation,
                                                                      list(decision.legal_actions)))
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool) and action in legal_actions:
            return int(action)
        legal = ", ".join(map(str, legal_actions))
        raise AgentError(f"agent {self.name} answered {action!r} in game {decision.game_index} at seat "
                         f"{decision.seat + 1}: not a legal action (legal: {legal})", self.name, decision.game_index,
                         decision.seat + 1)

    def _calling(self, start: GameStart, call):
        try:
            return call()
        except Exception as exc:  # noqa: BLE001  whatever an agent raises, named in one line
            first = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
            raise AgentError(f"agent {self.name} raised {type(exc).__name__}" + (f": {first}" if first else "")
                             + f" in game {start.game_index} at seat {start.seat + 1}", self.name,
                             start.game_index, start.seat + 1) from exc


def stepping_parts(game: Game) -> tuple:
    """The game's stepping functions and seat view (``Engine.stepping``, ``FrameworkFacts.seat_view``):
    what seating an agent needs of it; ConfigError saying why where the game declares no seat view."""
    try:
        return game.engine.stepping, game.seat_view
    except ValueError as exc:
        raise ConfigError(f"the {game.name} game cannot seat Python agents: {str(exc).partition(': ')[2]}") from None


def _count_game(buffer, table, rows, seat_stats, slot_stats, pair_stats, run_stats):
    """Add a finished stepped game to the totals, as the batch kernel adds its games
    (``table``: the run's strategy table, in the signature so that numba caches this per game)."""
    state = buffer[0]
    accumulate_game_nb(state, rows, pair_stats, run_stats)  # noqa: F821
    add_seat_rows_nb(rows, state.seat_slot, seat_stats, slot_stats)


@cache
def count_game_nb(game_name: str, accumulate_game_nb):
    return compiled_for(_count_game, "count_game_nb", {**globals(), "accumulate_game_nb": accumulate_game_nb})


class AgentKernel(PreparedRun):
    """A run's kernel whose ``agents`` (slot -> SeatedAgent) answer their slots' decisions;
    the other slots play their strategies in the engine. One thread: agents are Python."""

    def __init__(self, config: RunConfig, agents: dict[int, SeatedAgent]):
        super().__init__(config, every_part=True)  # an agent may read any part of the state
        self.stepped, self.view = stepping_parts(self.game)
        self.count = count_game_nb(self.game.name, self.stepped.accumulate_game_nb)
        self.agents = agents
        self.external = self.slot_strategy.copy()
        self.external[list(agents)] = EXTERNAL

    def play(self, first_game: int, n_games: int):
        with self.naming_failures(first_game, n_games, passing=(AgentError,)):
            return self._play(first_game, n_games, self.table)

    def _play(self, first_game: int, n_games: int, table):
        totals = self.zeros()
        if n_games == 0:  # warm_up: compile every stepping function on a game nobody counts
            self._game(0, table, self.zeros(), lambda decision: decision.legal_actions[0])
            return totals
        for index in range(first_game, first_game + n_games):
            self._game(index, table, totals, None)
        return totals

    def _game(self, index: int, table, totals, answer) -> None:
        """Play game ``index`` and add it to ``totals``; ``answer(decision)``, if given, answers for every agent."""
        c = self.config
        buffer = self.inputs.copy()
        stepped = self.stepped
        stepped.new_game_nb(buffer, c.seed, index, self.seating, self.external, self.slot_params, table)
        state = buffer[0]
        seat_of = {int(state["seat_slot"][seat]): seat for seat in range(c.players)}
        lineup = tuple(None if slot in self.agents else s for slot, s in enumerate(c.strategies))
        starts = {slot: GameStart(c.game, c.players, c.rules, seat_of[slot], index, c.seed, lineup, c.seating)
                  for slot in self.agents}
        answers: list[int] = []
        if answer is None:
            for slot, agent in self.agents.items():
                agent.start(starts[slot])
        event = int(stepped.advance_nb(buffer, table))
        while event != GAME_OVER:
            if event < DECISION:
                event = int(stepped.advance_nb(buffer, table))
                continue
            slot = int(state["seat_slot"][int(state["step"][STEP_ACTOR])])
            decision = event - DECISION
            legal = [self.view.action_of(decision, int(c)) for c in stepped.legal_choices_nb(buffer, table)]
            asked = Decision(starts[slot], decision, legal, buffer, event, self.view, tuple(answers))
            action = answer(asked) if answer is not None else self.agents[slot].answer(asked)
            answers.append(action)
            event = int(stepped.apply_choice_nb(buffer, table, self.view.choice_of(action)[1]))
        self.count(buffer, table, np.zeros_like(totals.seat), totals.seat, totals.slot, totals.pair_stats, totals.run)
