"""A game on the jitted engine, stepped decision by decision with its random draws as chance
nodes: what the OpenSpiel game and the PettingZoo environments play on.

The engine is stepped through its decision interface (core.stepping; every seat EXTERNAL), so
the rules are the engine's own. Its randomness is the game's generator (R25, C20): the
adapter seeds it (seed 0, game 0, or a run's seed and game) and turns every draw into a chance
node, without a rule of its own:

- Every engine call is first made on a copy of the state (a probe). If the copy's generator
  did not move, nothing random happened and the copy is the new state.
- If cards were turned face up (the unseen cards lost some), each is a chance node: a card
  drawn uniformly from the unseen ones. Once the outcomes are chosen, the pile is arranged so
  that the engine's own draws (``below(n)`` of the pile, the last card filling the gap:
  docs/protocol.md) turn up exactly those cards, and the call is made on the real state. The
  classic game's cards set aside face down (C5) are never decided: an outcome among them is
  swapped into the deck first (nobody can tell those cards apart, so each face-up card is
  uniform over all unseen cards either way, and the game's outcome never depends on which
  cards lay aside).
- If the call scored a day and drew the next starter among the poorest (R21, C6), that draw
  is a chance node over the tied seats; the generator is set to a state whose draw picks the
  outcome.
- Any other draw (the classic game dealing the next day's face-down cards) stays the
  engine's own: hidden, and decided by the history.

An outcome equal to what the engine itself would have drawn changes nothing, so a game whose
chance nodes take the engine's own draws (:meth:`SteppedGame.natural_outcome`) is the
kernel's game for its seed and game (tests/test_openspiel.py): with our strategies deciding on
the game's own record (frameworks.builtins), record for record. After each call the adapter
checks that the engine dealt exactly the chosen outcomes.
"""
from __future__ import annotations

import importlib
import zlib
from functools import cache

import numpy as np

from ..core.driver import Kernel
from ..core.rng import GameRandom
from ..core.specs import game_named, run_config
from ..core.stepping import DECISION, EXTERNAL, GAME_OVER, NOT_STARTED, STEP_ACTOR
from ..games.medici.days import DAY_OVER  # the frameworks engineer replaces it with the game's chance declaration

SEED, GAME_INDEX = 0, 0  # the engine's generator: every draw that matters is replaced by a chance outcome


class Engine:
    """One game, player count and rule set on the engine: its inputs, strategy table, stepping
    functions (the game's ``stepped.py``) and seat view (its ``seat_view.py``)."""

    def __init__(self, game: str, players: int, rules: str):
        import medici_sim.games  # noqa: F401  (registers the games)

        definition = game_named(game)
        # ``rules`` is handed on as the run's rule set (today the variant's name)
        config = run_config(game=definition.name, players=players, strategies=definition.built_ins[0], games=1,
                            seed=SEED, variant=rules, seating="fixed", threads=1, deck=None)
        self.game = definition
        self.kernel = Kernel(config)
        self.players = config.players
        self.rules = config.variant
        self.stepped = importlib.import_module(f"{definition.registry.package}.stepped")
        self.view = importlib.import_module(f"{definition.registry.package}.seat_view")
        self.external = np.full(self.players, EXTERNAL, np.int64)
        self.n_cards = self.view.n_cards(self.kernel.inputs[0])


@cache
def engine(game: str, players: int, rules: str) -> Engine:
    return Engine(game, players, rules)


class SteppedGame:
    """One game, stopped at a decision (``actor`` >= 0), a chance node (``chance``) or its end.

    ``seed`` and ``index`` start the engine's generator as game ``index`` of a run with that
    seed (R25, C20), ``slot_params`` the run's strategy parameters by slot (the seats' rows of
    ``seat_params``, which only strategies read); the defaults are seed 0, game 0 and the game's
    default parameters, ``seating`` the run's seating (core.seating: fixed, the default, rotate,
    random). ``history`` is every move made, action ids and chance outcomes alike."""

    def __init__(self, engine_: Engine, seed: int = SEED, index: int = GAME_INDEX, slot_params=None, seating: int = 0):
        self.engine = engine_
        self.seed, self.index = int(seed), int(index)
        self.buffer = engine_.kernel.inputs.copy()
        k = engine_.kernel
        engine_.stepped.new_game_nb(self.buffer, self.seed, self.index, seating, engine_.external,
                                    k.slot_params if slot_params is None else slot_params, k.table)
        self.event = NOT_STARTED
        self.pending: tuple | None = None  # the engine call waiting for its chance outcomes: (choice,)
        self.draws = 0  # cards it turns up
        self.tied: list[int] = []  # or: the seats it draws the next starter from
        self.natural: list[int] = []  # the engine's own outcomes for it
        self.outcomes: list[int] = []
        self.history: list[int] = []
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
        game.pending, game.draws, game.tied, game.natural, game.outcomes, game.history = None, 0, [], [], [], []
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
        for name in ("tied", "natural", "outcomes", "history"):
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

    def money(self) -> list[int]:
        return [int(m) for m in self.state[self.engine.view.MONEY][:self.engine.players]]

    def legal_actions(self) -> list[int]:
        """The actor's legal action ids (the engine's own legal choices), ascending."""
        e = self.engine
        decision = self.event - DECISION
        return sorted(e.view.action_of(decision, int(c)) for c in e.stepped.legal_choices_nb(self.buffer,
                                                                                             e.kernel.table))

    def chance_outcomes(self) -> list[int]:
        """The outcomes of the chance node: card ids (an unseen card) or n_cards + a tied seat."""
        if self.tied:
            return [self.engine.n_cards + seat for seat in self.tied]
        taken = set(self.outcomes)
        return sorted(int(c) for c in self._unseen() if c not in taken)

    def natural_outcome(self) -> int:
        """The outcome the engine's own generator draws here."""
        if self.tied:
            return self.engine.n_cards + self.natural[0]
        return self.natural[len(self.outcomes)]

    # ------------------------------------------------------------ moves
    def apply_action(self, action: int) -> None:
        """Make a move: the chance outcome at a chance node, else the actor's action (ValueError,
        in one line, for one the rules do not allow here)."""
        if self.over:
            raise ValueError(f"action {action}: the game is over")
        if self.chance:
            self._chance(action)
            self.history.append(action)
            return
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal here (legal: {self.legal_actions()})")
        self._play_on(self.engine.view.choice_of(action)[1])
        self.history.append(action)

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
                dealt = [int(c) for c in np.setdiff1d(self._unseen(), self._unseen(probe[0]))]
                if dealt:
                    self._await(choice, draws=len(dealt), natural=self._engine_order(dealt))
                    return
                if self.event == DAY_OVER:
                    money = probe[0][self.engine.view.MONEY][:self.engine.players]
                    tied = [int(p) for p in np.flatnonzero(money == money.min())]
                    self._await(choice, tied=tied, natural=[int(probe[0]["step"][STEP_ACTOR])])
                    return
            # nothing random, or hidden (a day's face-down cards): the probe is the game
            self._spare, self.buffer, self.event = self.buffer, probe, event
            if event == GAME_OVER or event >= DECISION:
                return
            choice = None

    def _await(self, choice, draws: int = 0, tied: list[int] | None = None, natural: list[int] | None = None):
        self.pending, self.draws, self.tied, self.natural, self.outcomes = (choice,), draws, tied or [], natural, []

    def _chance(self, outcome: int) -> None:
        if outcome not in self.chance_outcomes():
            raise ValueError(f"chance outcome {outcome} is not possible here")
        self.outcomes.append(outcome)
        if self.tied:
            self._force_starter(outcome - self.engine.n_cards)
        elif len(self.outcomes) < self.draws:
            return
        else:
            self._force_cards(self.outcomes)
        (choice,), self.pending = self.pending, None
        before = set(self._unseen().tolist())
        self.event = self._call(self.buffer, choice)
        if self.tied:
            if int(self.state["step"][STEP_ACTOR]) != outcome - self.engine.n_cards:
                raise RuntimeError("the engine drew another starter than the chance outcome")
        elif before - set(self._unseen().tolist()) != set(self.outcomes):
            raise RuntimeError("the engine dealt other cards than the chance outcomes")
        self.tied = []
        if not self.over and self.event < DECISION:
            self._play_on(None)

    # ------------------------------------------------------------ the engine's draws
    def _unseen(self, s=None) -> np.ndarray:
        """The cards nobody has seen: the pile the engine draws from, and any dealt face down."""
        s = self.state if s is None else s
        view = self.engine.view
        pile = s[view.PILE][:s["counts"][view.PILE_LEN]]
        return np.concatenate((pile, s[view.HIDDEN][:view.hidden_count(s)])) if view.HIDDEN else pile

    def _pile_draws(self, count: int, n: int) -> list[int]:
        """The pile places the engine's next ``count`` draws take, as places of the pile now."""
        rng = GameRandom(0, 0)
        rng.state = int(self.state["rng"][0])
        places = list(range(n))
        taken = []
        for _ in range(count):
            j = rng.below(len(places))
            taken.append(places[j])
            places[j] = places[-1]
            places.pop()
        return taken

    def _engine_order(self, dealt: list[int]) -> list[int]:
        """``dealt`` in the order the engine turns them up."""
        view = self.engine.view
        pile = self.state[view.PILE]
        order = [int(pile[j]) for j in self._pile_draws(len(dealt), int(self.state["counts"][view.PILE_LEN]))]
        if sorted(order) != sorted(dealt):
            raise RuntimeError("the engine's draws are not the pile's (docs/protocol.md)")
        return order

    def _force_cards(self, cards: list[int]) -> None:
        """Arrange the unseen cards so that the engine's next draws turn up ``cards`` in order."""
        view = self.engine.view
        s = self.state
        n = int(s["counts"][view.PILE_LEN])
        pile = s[view.PILE]
        wanted = set(cards)
        if view.HIDDEN:  # C5: a face-down card wanted changes place with a pile card not wanted
            hidden = s[view.HIDDEN]
            spare = [j for j in range(n) if int(pile[j]) not in wanted]
            for i in range(view.hidden_count(s)):
                if int(hidden[i]) in wanted:
                    j = spare.pop()
                    pile[j], hidden[i] = hidden[i], pile[j]
        rest = [int(c) for c in pile[:n] if int(c) not in wanted]
        arranged = [-1] * n
        for place, card in zip(self._pile_draws(len(cards), n), cards, strict=True):
            arranged[place] = card
        rest.reverse()
        pile[:n] = [card if card >= 0 else rest.pop() for card in arranged]

    def _force_starter(self, seat: int) -> None:
        """Set the generator to a state whose draw among the tied seats picks ``seat`` (unless
        the engine's own draw does)."""
        if seat == self.natural[0]:
            return
        want = self.tied.index(seat)
        rng = GameRandom(0, 0)
        for state in range(1 << 20):
            rng.state = state
            if rng.below(len(self.tied)) == want:
                self.state["rng"][0] = state
                return
        raise RuntimeError("no generator state draws that seat")  # unreachable: 1 in len(tied) states do
