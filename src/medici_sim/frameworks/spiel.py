"""Every game with a seat view as an OpenSpiel game (``medici_<game>``), driven by the jitted
engine (frameworks.stepper), and the strategy bridge both ways: our strategies as OpenSpiel
bots, and an OpenSpiel bot at a seat of a medici-sim game.

Parameters: ``players`` and ``rules`` (the rule set, handed on to the run as its rules: the
variant's name today), and ``returns``: ``florins`` (each seat's money at the end, R22 / C18)
or ``wins`` (the win credit: 1 shared among the richest, what ``search`` plays for).

As modelled, each game is one of perfect information with chance: every chance outcome is a
card turned face up or a starter drawn, which all see; the deck's order and the classic
game's face-down cards are never part of the state a player reads (frameworks.stepper). So
every seat's information state is the public history, and its observation the public table.
The information-state tensor is the observation tensor: the table is a sufficient statistic
of the history for play, though not a record of it (the string is).
"""
from __future__ import annotations

import numpy as np
import pyspiel

from ..core.driver import Kernel
from ..core.registry import GAMES
from ..core.specs import run_config
from ..core.stepping import DECISION, EXTERNAL, GAME_OVER
from .builtins import BuiltinPlayer
from .stepper import SteppedGame, engine

RETURNS = ("florins", "wins")
PREFIX = "medici_"


def short_name(game: str) -> str:
    return PREFIX + game


def game_type(definition) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(definition.name), long_name=definition.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=definition.max_players, min_num_players=definition.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": definition.default_players, "rules": definition.variants[0],
                                 "returns": RETURNS[0]})


class MediciGame(pyspiel.Game):
    """One game of medici-sim as OpenSpiel sees it (a subclass per game names its ``definition``:
    pyspiel must be given a class, register_all)."""

    definition = None  # the game's registry record (core.registry.Game)

    def __init__(self, params=None):
        definition = self.definition
        params = {**game_type(definition).parameter_specification, **(params or {})}
        if params["returns"] not in RETURNS:
            raise ValueError(f"returns must be one of {', '.join(RETURNS)}, got {params['returns']!r}")
        self.engine = engine(definition.name, int(params["players"]), str(params["rules"]))
        self.returns_kind = params["returns"]
        e = self.engine
        s = e.kernel.inputs[0]
        view = e.view
        wins = self.returns_kind == "wins"
        # a bound on a game's moves: each day has at most a turn per card (each turn takes or
        # turns up one), each turn at most 4 own decisions, a bid per seat and 5 cards turned up
        longest = 3 * e.n_cards * (4 + e.players + 5) + 3
        super().__init__(game_type(definition), pyspiel.GameInfo(
            num_distinct_actions=view.N_ACTIONS, max_chance_outcomes=e.n_cards + e.players, num_players=e.players,
            min_utility=0.0, max_utility=1.0 if wins else float(view.MAX_MONEY),
            utility_sum=1.0 if wins else None, max_game_length=longest), params)
        self.observation_length = view.observation_size(s)

    def new_initial_state(self):
        return MediciState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return MediciObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class MediciState(pyspiel.State):
    """A game stopped at a decision, a chance node or its end, on the engine."""

    def __init__(self, game: MediciGame, stepped: SteppedGame | None = None):
        super().__init__(game)
        self.stepped = stepped if stepped is not None else SteppedGame(game.engine)
        self.wins = game.returns_kind == "wins"

    def current_player(self):
        g = self.stepped
        if g.over:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if g.chance else g.actor

    def _legal_actions(self, player):
        return self.stepped.legal_actions()

    def chance_outcomes(self):
        outcomes = self.stepped.chance_outcomes()
        return [(o, 1.0 / len(outcomes)) for o in outcomes]

    def _apply_action(self, action):
        self.stepped.apply_action(int(action))

    def _action_to_string(self, player, action):
        g = self.stepped
        if player == pyspiel.PlayerId.CHANCE:
            n = g.engine.n_cards
            return f"seat {action - n + 1} starts the next day" if action >= n else g.engine.view.chance_text(g.state,
                                                                                                              action)
        return g.engine.view.action_text(g.state, action)

    def is_terminal(self):
        return self.stepped.over

    def returns(self):
        if not self.stepped.over:
            return [0.0] * self.stepped.engine.players
        return win_credit(self.stepped.money()) if self.wins else [float(m) for m in self.stepped.money()]

    def __str__(self):
        g = self.stepped
        return g.engine.view.observation_text(g.state, max(g.actor, 0), g.actor)


def win_credit(money: list[int]) -> list[float]:
    """R22, C18: the richest win, sharing the win when tied."""
    best = max(money)
    winners = money.count(best)
    return [1.0 / winners if m == best else 0.0 for m in money]


class MediciObserver:
    """What a seat sees (OpenSpiel's PyObserver): the public table as a vector and text; with
    perfect recall, the public history as text (the vector stays the table)."""

    def __init__(self, game: MediciGame, iig_obs_type):
        self.tensor = np.zeros(game.observation_length, np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = iig_obs_type.perfect_recall

    def set_from(self, state: MediciState, player: int):
        g = state.stepped
        g.engine.view.observe(g.state, player, g.actor, self.tensor)

    def string_from(self, state: MediciState, player: int):
        g = state.stepped
        if self.perfect_recall:
            return f"seat {player + 1}: " + " ".join(map(str, state.history()))
        return g.engine.view.observation_text(g.state, player, g.actor)


class BuiltinBot(pyspiel.Bot):
    """One of our strategies (``spec``: ``expert``, ``greedy:take_min=3`` ...) as an OpenSpiel
    bot of a ``medici_<game>`` game."""

    def __init__(self, game: MediciGame, player_id: int, spec: str):
        pyspiel.Bot.__init__(self)
        self.player = BuiltinPlayer(game.engine, spec)
        self.player_id = player_id

    def step(self, state: MediciState):
        return self.player.action(state.stepped)

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_policy(self):
        return False


class PolicyRolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS (``open_spiel.python.algorithms.mcts``) whose rollouts
    play our strategy ``spec`` at every seat (chance drawn uniformly), as ``search``'s rollouts
    play a built-in: the returns at the end of one such game. Priors are uniform."""

    def __init__(self, spec: str = "expert", random_state: np.random.RandomState | None = None):
        self.spec = spec
        self.random_state = random_state or np.random.RandomState()
        self.players: dict = {}

    def evaluate(self, state: MediciState) -> np.ndarray:
        game = state.stepped.__deepcopy__(None)
        player = self.players.get(id(game.engine)) or self.players.setdefault(id(game.engine),
                                                                            BuiltinPlayer(game.engine, self.spec))
        while not game.over:
            if game.chance:
                outcomes = game.chance_outcomes()
                game.apply_action(outcomes[self.random_state.randint(len(outcomes))])
            else:
                game.apply_action(player.action(game))
        rolled = MediciState(state.get_game(), game)
        return np.array(rolled.returns())

    def prior(self, state: MediciState):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def play_with_bot(game: str, bot_factory, *, bot_seat: int, strategies, games: int, seed: int = 0,
                  players: int | None = None, rules: str | None = None, returns: str = "florins") -> np.ndarray:
    """Games ``0 .. games - 1`` of a medici-sim run (``strategies`` at the seats, fixed seating,
    ``seed``: R25, C20) with an OpenSpiel bot deciding for ``bot_seat``: ``bot_factory(spiel_game)``
    makes it for the ``medici_<game>`` game it searches on. Each decision of that seat stops
    the engine (core.stepping's EXTERNAL seat) and hands the bot the game as it stands, every
    seat then open to its search; the others are the engine's strategies, as in any run.
    The bot decides on a copy of the game: what it writes there (a strategy's scratch row, a
    draw from the generator) stays there. Returns each game's money by seat, a (games, players)
    array. A Python bot plays a few games a second at most: mind the count."""
    import medici_sim.games  # noqa: F401

    names = list(strategies) if not isinstance(strategies, str) else [strategies]
    count = players or len(names)
    config = run_config(game=game, players=count, strategies=names, games=games, seed=seed, variant=rules,
                        seating="fixed", threads=1, deck=None)
    spiel_game = pyspiel.load_game(short_name(config.game), {"players": config.players, "rules": config.variant,
                                                             "returns": returns})
    e = spiel_game.engine
    # the run's own kernel: its table holds the seats' strategies (the engine's table serves the bot's search)
    kernel = Kernel(config)
    bot = bot_factory(spiel_game)
    slot_strategy = kernel.slot_strategy.copy()
    slot_strategy[bot_seat] = EXTERNAL
    results = np.zeros((games, config.players), np.int64)
    for index in range(games):
        buffer = kernel.inputs.copy()
        e.stepped.new_game_nb(buffer, config.seed, index, 0, slot_strategy, kernel.slot_params, kernel.table)
        event = int(e.stepped.advance_nb(buffer, kernel.table))
        while event != GAME_OVER:
            if event >= DECISION:
                state = MediciState(spiel_game, SteppedGame.resumed(e, buffer, event))
                _, choice = e.view.choice_of(int(bot.step(state)))
                event = int(e.stepped.apply_choice_nb(buffer, kernel.table, choice))
            else:
                event = int(e.stepped.advance_nb(buffer, kernel.table))
        results[index] = buffer[0][e.view.MONEY][:config.players]
    return results


def register_all() -> list[str]:
    """Register ``medici_<game>`` with pyspiel for every registered game with a seat view; their names."""
    import importlib.util

    import medici_sim.games  # noqa: F401

    names = []
    for definition in GAMES.values():
        if importlib.util.find_spec(f"{definition.registry.package}.seat_view") is None:
            continue
        name = short_name(definition.name)
        if name not in pyspiel.registered_names():
            # a class, not a function: pyspiel would free a function after Python, at exit
            game_class = type(f"Medici{definition.name.title()}Game", (MediciGame,), {"definition": definition})
            pyspiel.register_game(game_type(definition), game_class)
        names.append(name)
    return names
