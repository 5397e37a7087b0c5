"""A game on the jitted engine, stepped decision by decision with its random draws as chance
nodes: what the OpenSpiel game and the PettingZoo environments play on.

The engine is stepped through its decision interface (core.resumable; every seat EXTERNAL), so
the rules are the engine's own. Its randomness is the game's generator: the adapter seeds it
(seed 0, game 0, or a run's seed and game) and turns every draw a seat sees into a chance node,
as the game declares it (its framework facts, core.contract.FrameworkFacts: the seat view's
``chance_event``, core.chance), without a rule of its own:

- Every engine call is first made on a copy of the state (a probe). If the copy's generator
  did not move, nothing random happened and the copy is the new state.
- If it moved, the game's seat view says what the call drew: a chance event (items revealed
  from a pool, one of a few options picked, or one of the game's own kinds), whose outcomes
  are chance nodes, one a draw. Once they are chosen, the state is arranged so that the
  engine's own draws make exactly them (the event's ``force``), the call is made on the real
  state, and the adapter checks that it made them.
- A draw the seat view calls no chance event (one no seat sees) stays the engine's own:
  hidden, and decided by the history.

An outcome equal to what the engine itself would have drawn changes nothing, so a game whose
chance nodes take the engine's own draws (:meth:`SteppedGame.natural_outcome`) is the
kernel's game for its seed and game (tests/test_openspiel.py): with our strategies deciding on
the game's own record (frameworks.builtins), record for record. ``seen`` records, move by
move, which seat saw it (-1: every seat; a chance outcome may be seen by one seat alone, a
card drawn into a hidden hand): what a seat's information state holds (frameworks.spiel).
"""
from __future__ import annotations

import zlib
from functools import cache

import numpy as np

from ..core.chance import EVERY_SEAT
from ..core.driver import PreparedRun
from ..core.resumable import DECISION, EXTERNAL, GAME_OVER, NOT_STARTED, STEP_ACTOR
from ..core.specs import game_named, run_config

SEED, GAME_INDEX = 0, 0  # the engine's generator: every draw that matters is replaced by a chance outcome


class NotInFrameworks(ValueError):
    """A game that declares no framework facts (core.contract.Game.framework)."""


def offered(definition) -> bool:
    """Whether a game declares its framework facts (``Game.framework``), so the adapters offer it."""
    return definition.framework is not None


class Engine:
    """One game, player count and rule set on the engine: its inputs, strategy table, stepping
    functions and seat view (what the game declares: ``Engine.stepping``, ``FrameworkFacts.seat_view``)."""

    def __init__(self, game: str, players: int, rules: str):
        import medici_sim.games  # noqa: F401  (registers the games)

        definition = game_named(game)
        if definition.framework is None:
            why = definition.no_framework or "it declares no framework facts (what each seat sees, its chance events)"
            raise NotInFrameworks(f"the {definition.name} game is in no game-AI framework: {why}")
        # ``rules`` is handed on as the run's rule set (its name, canonical)
        config = run_config(game=definition.name, players=players, strategies=definition.built_ins[0], games=1,
                            seed=SEED, rules=rules, seating="fixed", threads=1, components=None)
        self.game = definition
        self.kernel = PreparedRun(config, every_part=True)  # the seats answered from outside may read any part
        self.players = config.players
        self.rules = config.rules
        self.stepped = definition.engine.stepping  # the game's declared stepping functions (core.contract)
        self.view = definition.seat_view  # its declared seat view (ValueError saying why it has none)
        self.information = definition.framework.information
        self.external = np.full(self.players, EXTERNAL, np.int64)
        self.chance_outcome_count = self.view.chance_outcome_count(self.kernel.inputs[0])


@cache
def engine(game: str, players: int, rules: str) -> Engine:
    return Engine(game, players, rules)


class SteppedGame:
    """One game, stopped at a decision (``actor`` >= 0), a chance node (``chance``) or its end.

    ``seed`` and ``index`` start the engine's generator as game ``index`` of a run with that
    seed (R25, C20), ``slot_params`` the run's strategy parameters by slot (the seats' rows of
    ``seat_params``, which only strategies read); the defaults are seed 0, game 0 and the game's
    default parameters, ``seating`` the run's seating (core.seating: fixed, the default, rotate,
    random). ``history`` is every move made, action ids and chance outcomes alike, ``seen`` who
    saw each (-1: every seat)."""

    def __init__(self, engine_: Engine, seed: int = SEED, index: int = GAME_INDEX, slot_params=None, seating: int = 0):
        self.engine = engine_
        self.seed, self.index = int(seed), int(index)
        self.buffer = engine_.kernel.inputs.copy()
        k = engine_.kernel
        engine_.stepped.new_game_nb(self.buffer, self.seed, self.index, seating, engine_.external,
                                    k.slot_params if slot_params is None else slot_params, k.table)
        self.event = NOT_STARTED
        self.pending: tuple | None = None  # the engine call waiting for its chance outcomes: (choice,)
        self.drawn = None  # and its chance event (core.chance; never changed: copies share it)
        self.outcomes: list[int] = []  # the event's outcomes chosen so far
        self.history: list[int] = []
        self.seen: list[int] = []
        self.from_run = False  # resumed from a run's record: its moves before are not in ``history``
        self._spare = None  # a buffer kept for the next probe
        self._play_on(None)

    @classmethod
    def resumed(cls, engine_: Engine, buffer: np.ndarray, event: int) -> SteppedGame:
        """A copy of the game of a medici-sim run stopped at a decision (``buffer``, at ``event``),
        every seat answered by the caller from here on (a bot of a framework searching on). Its
        ``history`` holds only the moves made from here (``from_run``: the run's moves before
        are not known), and what is written on it stays on the copy: a bot that must play a
        run's games exactly is seated by play_with_bot, on the run's own record."""
        game = object.__new__(cls)
        game.engine, game.buffer, game.event = engine_, buffer.copy(), event
        game.state["seat_strategy"][:engine_.players] = EXTERNAL
        game.seed, game.index, game.from_run = SEED, GAME_INDEX, True
        game.pending, game.drawn, game.outcomes, game.history, game.seen = None, None, [], [], []
        game._spare = None
        return game

    def __getstate__(self):  # pickled: the engine by name, the record compressed
        e = self.engine
        return {**self.__dict__, "engine": (e.game.name, e.players, e.rules),
                "buffer": zlib.compress(self.buffer.tobytes()), "_spare": None}

    def __setstate__(self, saved):
        self.__dict__.update(saved)
        self.engine = engine(*saved["engine"])
        self.buffer = np.frombuffer(zlib.decompress(saved["buffer"]), self.engine.kernel.inputs.dtype).copy()

    def __deepcopy__(self, memo):
        twin = object.__new__(SteppedGame)
        twin.__dict__.update(self.__dict__)
        twin.buffer = self.buffer.copy()
        twin._spare = None
        for name in ("outcomes", "history", "seen"):
            setattr(twin, name, list(getattr(self, name)))
        return twin

    # ------------------------------------------------------------ where it stands
    @property
    def state(self):
        return self.buffer[0]

    @property
    def over(self) -> bool:
        return self.event == GAME_OVER

    @property
    def chance(self) -> bool:
        return self.pending is not None

    @property
    def actor(self) -> int:
        """The seat to decide; -1 at a chance node or the end."""
        if self.chance or self.event < DECISION:
            return -1
        return int(self.state["step"][STEP_ACTOR])

    def scores(self) -> list[int]:
        """Each seat's score (the game's own: its seat view's ``scores``)."""
        return self.engine.view.scores(self.state)

    def legal_actions(self) -> list[int]:
        """The actor's legal action ids (the engine's own legal choices), ascending."""
        e = self.engine
        decision = self.event - DECISION
        return sorted(e.view.action_of(decision, int(c)) for c in e.stepped.legal_choices_nb(self.buffer,
                                                                                             e.kernel.table))

    def chance_outcomes(self) -> list[int]:
        """The outcomes of the chance node, each equally likely (ids of the game's chance outcomes)."""
        return self.drawn.outcomes(self.state, self.outcomes)

    def natural_outcome(self) -> int:
        """The outcome the engine's own generator draws here."""
        return self.drawn.natural[len(self.outcomes)]

    # ------------------------------------------------------------ moves
    def apply_action(self, action: int) -> None:
        """Make a move: the chance outcome at a chance node, else the actor's action (ValueError,
        in one line, for one the rules do not allow here)."""
        if self.over:
            raise ValueError(f"action {action}: the game is over")
        if self.chance:
            seen_by = self.drawn.seen_by
            self._chance(action)
            self.history.append(action)
            self.seen.append(seen_by)
            return
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal here (legal: {self.legal_actions()})")
        self._play_on(self.engine.view.choice_of(action)[1])
        self.history.append(action)
        self.seen.append(EVERY_SEAT)

    def _call(self, buffer, choice) -> int:
        k = self.engine.kernel
        if choice is None:
            return int(self.engine.stepped.advance_nb(buffer, k.table))
        return int(self.engine.stepped.apply_choice_nb(buffer, k.table, choice))

    def _play_on(self, choice) -> None:
        """Make the engine call (an answer ``choice``, or None to play on) and go on to the next
        decision, chance node or the end."""
        while True:
            probe = self._spare if self._spare is not None else np.empty_like(self.buffer)
            np.copyto(probe, self.buffer)  # into a kept buffer: a fresh 200 kB one costs more than the call
            event = self._call(probe, choice)
            if probe[0]["rng"][0] != self.state["rng"][0]:
                drawn = self.engine.view.chance_event(self.state, probe[0], self.event)
                if drawn is not None:
                    self.pending, self.drawn, self.outcomes = (choice,), drawn, []
                    return
            # nothing random, or a draw no seat sees: the probe is the game
            self._spare, self.buffer, self.event = self.buffer, probe, event
            if event == GAME_OVER or event >= DECISION:
                return
            choice = None

    def _chance(self, outcome: int) -> None:
        if outcome not in self.chance_outcomes():
            raise ValueError(f"chance outcome {outcome} is not possible here")
        self.outcomes.append(outcome)
        drawn = self.drawn
        if len(self.outcomes) < drawn.count:
            return
        drawn.force(self.state, self.outcomes)
        (choice,), self.pending = self.pending, None
        self.event = self._call(self.buffer, choice)
        drawn.check(self.state, self.outcomes)  # RuntimeError unless the engine made the outcomes chosen
        self.drawn = None
        if not self.over and self.event < DECISION:
            self._play_on(None)
