"""Every game that declares framework facts as an OpenSpiel game (``medici_<game>``), driven by
the jitted engine (frameworks.stepper), and the strategy bridge both ways: our strategies as
OpenSpiel bots, and an OpenSpiel bot at a seat of a medici-sim game.

Parameters: ``players``, ``rules`` (the rule set, handed on to the run as its rules: a preset's
name or a spec, core.rules; the game string writes a spec's ``=`` and ``,`` as ``:`` and ``;``,
which OpenSpiel's game strings cannot hold) and ``returns``: the game's score (its framework
facts' ``score``, the default: each seat's final score, general-sum) or ``wins`` (the win
credit: 1 shared among the highest scores; constant-sum, 1); ``information``: what the game
declares (below), or ``imperfect`` for a game of perfect information that algorithms for
imperfect information (ISMCTS) should take as one (every seat's information state is then
still the history).

What each seat sees is the game's own declaration (its framework facts' ``information``,
core.contract.Information). A game that hides nothing from one seat that another sees is one of
perfect information: what is hidden from every seat (an order of cards) is decided only as the
game reveals it, a chance outcome every seat sees (frameworks.stepper), and is part of no
string or tensor. Every seat's information state is then the history (every move, chance
outcomes included), its observation the table as the seat view shows it. A game that hides
things from rivals (a hand) is one of imperfect information: a seat's information state is the
history as that seat saw it (a chance outcome only another seat saw, a card drawn into a rival's
hand, is written ``?``), its observation what the seat view shows that seat. The
information-state tensor is the observation tensor followed by the history, one number a move.
"""
from __future__ import annotations

import re

import numpy as np
import pyspiel

from ..core.arguments import naming
from ..core.chance import EVERY_SEAT
from ..core.contract import RIVALS
from ..core.driver import ConfigError, PreparedRun
from ..core.registry import GAMES, get_game
from ..core.specs import run_config
from .builtins import BuiltinPlayer
from .stepper import SteppedGame, engine, offered

WINS = "wins"  # returns= for the win credit; its other value is the game's score (FrameworkFacts.score)
INFORMATION = ("perfect", "imperfect")
PARAMETERS = ("players", "rules", "returns", "information")
PREFIX = "medici_"
_SPEC_TO_STRING = str.maketrans("=,", ":;")  # a rule spec in a game string (whose parameters split at = and ,)
_STRING_TO_SPEC = str.maketrans(":;", "=,")


def short_name(game: str) -> str:
    return PREFIX + game


def returns_values(definition) -> tuple[str, str]:
    """What ``returns=`` takes for the game: its score (the default), or the win credit."""
    return definition.framework.score, WINS


def declared_information(definition) -> str:
    """What the game declares (its framework facts): ``perfect`` or ``imperfect`` information."""
    return INFORMATION[0] if definition.framework.information.perfect else INFORMATION[1]


def game_type(definition, returns: str | None = None, information: str | None = None) -> pyspiel.GameType:
    declared = declared_information(definition)
    return pyspiel.GameType(
        short_name=short_name(definition.name), long_name=definition.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION if (information or declared) == INFORMATION[0]
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM if returns == WINS else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=definition.max_players, min_num_players=definition.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": definition.default_players, "rules": definition.presets[0],
                                 "returns": definition.framework.score, "information": declared})


class MediciGame(pyspiel.Game):
    """One game of medici-sim as OpenSpiel sees it (a subclass per game names its ``definition``:
    pyspiel must be given a class, register_all)."""

    definition = None  # the game's registry record (core.registry.Game)

    def __init__(self, params=None):
        definition = self.definition
        name = short_name(definition.name)
        params = {**game_type(definition).parameter_specification, **(params or {})}
        unknown = sorted(set(params) - set(PARAMETERS))
        if unknown:
            raise ValueError(f"{name}: unknown parameter {unknown[0]} (parameters: {', '.join(PARAMETERS)})")
        for key, allowed in (("returns", returns_values(definition)), ("information", INFORMATION)):
            if params[key] not in allowed:
                raise ValueError(f"{name}: {key} must be one of {', '.join(allowed)}, got {params[key]!r}")
        rules = params["rules"]
        if not isinstance(rules, str):
            raise ValueError(f"{name}: rules must be a rule set's name or spec, got {rules!r}")
        if not rules.endswith(".toml"):
            rules = rules.translate(_STRING_TO_SPEC)
        try:
            with naming(api=True, players="players", rules="rules"):
                self.engine = engine(definition.name, params["players"], rules)
        except ConfigError as exc:
            raise ValueError(f"{name}: {exc}") from None
        self.returns_kind, information = params["returns"], params["information"]
        if information == INFORMATION[0] and declared_information(definition) != INFORMATION[0]:
            hidden = "; ".join(h.what for h in definition.framework.information.hidden_from(RIVALS))
            raise ValueError(f"{name}: information must be imperfect: the game hides things from rivals ({hidden})")
        e = self.engine
        s = e.kernel.inputs[0]
        view = e.view
        wins = self.returns_kind == WINS
        self.most_decisions, self.most_chance_nodes = view.most_moves(s)
        super().__init__(game_type(definition, self.returns_kind, information), pyspiel.GameInfo(
            num_distinct_actions=view.action_count(s), max_chance_outcomes=e.chance_outcome_count,
            num_players=e.players, min_utility=0.0, max_utility=1.0 if wins else float(view.most_score(s)),
            utility_sum=1.0 if wins else None, max_game_length=self.most_decisions),
            {"players": e.players, "rules": e.rules.translate(_SPEC_TO_STRING), "returns": self.returns_kind,
             "information": information})
        self.observation_length = view.observation_size(s)
        self.history_length = self.most_decisions + self.most_chance_nodes

    def new_initial_state(self):
        return MediciState(self)

    def max_chance_nodes_in_history(self):
        return self.most_chance_nodes

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"{self}: the observer takes no parameters, got {params}")
        return MediciObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))

    def __reduce__(self):  # pickled as its game string
        return game_from_string, (str(self),)


def game_from_string(text: str) -> MediciGame:
    """``pyspiel.load_game(text)`` for one of our games (registering them first)."""
    register_all()
    if not isinstance(text, str) or not text.startswith(PREFIX):
        raise ValueError(f"not a medici-sim game string: {text!r}")
    return pyspiel.load_game(text)


class MediciState(pyspiel.State):
    """A game stopped at a decision, a chance node or its end, on the engine."""

    def __init__(self, game: MediciGame, stepped: SteppedGame | None = None):
        super().__init__(game)
        self.stepped = stepped if stepped is not None else SteppedGame(game.engine)

    def __setattr__(self, name, value):
        # OpenSpiel sets the Python side of a deserialised state on a new initial state of the
        # game its text names: refuse one of another game (a hand-edited text), in one line
        if name == "stepped" and "stepped" in self.__dict__:
            mine = self.__dict__["stepped"].engine
            theirs = getattr(value, "engine", None)
            if theirs is not mine:
                raise ValueError(f"the state is not one of {self.get_game()}: it was played with "
                                 + (f"{theirs.players} players, rules {theirs.rules} ({theirs.game.name} game)"
                                    if theirs is not None else f"{type(value).__name__}"))
            history = self.history()
            if history and history != value.history:  # deserialised: the text's history is the state's
                raise ValueError("the state's history does not match the moves its record played")
        super().__setattr__(name, value)

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
        e = g.engine
        if player == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < e.chance_outcome_count:
                raise ValueError(f"chance outcome {action} is not one of the game's (0-{e.chance_outcome_count - 1})")
            return e.view.chance_text(g.state, action)
        if not 0 <= player < e.players:
            raise ValueError(f"player {player} is not a seat of the game (0-{e.players - 1}) or chance (-1)")
        if not 0 <= action < self.num_distinct_actions():
            raise ValueError(f"action {action} is not one of the game's (0-{self.num_distinct_actions() - 1})")
        return e.view.action_text(g.state, action)

    def is_terminal(self):
        return self.stepped.over

    def returns(self):
        g = self.stepped
        if not g.over:
            return [0.0] * g.engine.players
        return win_credit(g.scores()) if self.get_game().returns_kind == WINS else [float(m) for m in g.scores()]

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state drawn among those ``player_id`` cannot tell from this one. In a game of perfect
        information, this one (what is hidden from every seat is decided only as it is revealed,
        frameworks.stepper); else a copy with what the game hides from ``player_id``'s rivals dealt
        again (each ``Hidden.redeal``, drawn with ``probability_sampler``'s numbers where given). The
        copy's later moves are played on that deal; its history is this state's."""
        twin = self.clone()
        hidden = self.stepped.engine.information.hidden_from(RIVALS)
        if hidden:
            seed = None if probability_sampler is None else int(probability_sampler() * 2**32)
            generator = np.random.default_rng(seed)
            for thing in hidden:
                thing.redeal(twin.stepped.state, player_id, generator)
        return twin

    def __reduce__(self):  # pickled as OpenSpiel serialises it (its record, pickled)
        return state_from_serialized, (pyspiel.serialize_game_and_state(self.get_game(), self),)

    def __str__(self):
        g = self.stepped
        return g.engine.view.observation_text(g.state, max(g.actor, 0), g.actor)


def state_from_serialized(text: str) -> MediciState:
    """``pyspiel.deserialize_game_and_state(text)``'s state, our games registered first. The text
    holds a pickle: never feed it text you did not write (state_from_text reads only text)."""
    register_all()
    return pyspiel.deserialize_game_and_state(text)[1]


_TEXT = re.compile(r"(?P<game>medici_\w+\([^()\n]*\))\nseed (?P<seed>\d+) game (?P<index>\d+)\n"
                   r"history(?P<history>( \d+)*)\n?")


def state_to_text(state: MediciState) -> str:
    """The state as plain text: its game string, the engine's seed and game, and every move
    (state_from_text plays them again). No pickle: safe to read from anywhere."""
    g = state.stepped
    if g.from_run:
        raise ValueError("the state was resumed from a run's record, whose earlier moves it does not hold")
    return f"{state.get_game()}\nseed {g.seed} game {g.index}\nhistory" + "".join(f" {a}" for a in g.history) + "\n"


def state_from_text(text: str) -> MediciState:
    """The state ``state_to_text`` wrote, its moves played again on the engine; ValueError, in one
    line, for a text that is not one, or whose moves the rules do not allow."""
    match = _TEXT.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError("not a medici-sim state: want three lines, 'medici_<game>(...)', 'seed S game G' "
                         "and 'history' with the moves' ids")
    game = game_from_string(match["game"])
    seed, index = int(match["seed"]), int(match["index"])
    if seed >= 2**63 or index >= 2**63:
        raise ValueError("the state's seed and game must be below 2**63")
    state = MediciState(game, SteppedGame(game.engine, seed, index))
    for number, move in enumerate(match["history"].split(), 1):
        if state.is_terminal() or int(move) not in state.legal_actions():
            raise ValueError(f"move {number} of the history ({move}) is not a legal move there")
        state.apply_action(int(move))
    return state


def win_credit(scores: list[int]) -> list[float]:
    """The win credit: the highest scores win, sharing the win when tied."""
    best = max(scores)
    winners = scores.count(best)
    return [1.0 / winners if m == best else 0.0 for m in scores]


class MediciObserver:
    """What a seat sees (OpenSpiel's PyObserver): the table as the seat view shows the seat, as a
    vector and text; with perfect recall (the information state), also the history as the seat
    saw it: every move (text: the moves' ids, ``?`` for a chance outcome only another seat saw;
    vector: after the table, one number a move, an action id + 1 or a chance outcome + 1 + the
    number of action ids, a chance outcome not seen the number after all of those, 0 after the
    end)."""

    def __init__(self, game: MediciGame, iig_obs_type):
        self.perfect_recall = iig_obs_type.perfect_recall
        self.table = game.observation_length
        self.n_actions = game.num_distinct_actions()
        self.unseen = 1 + self.n_actions + game.max_chance_outcomes()  # a chance outcome the seat did not see
        self.tensor = np.zeros(self.table + (game.history_length if self.perfect_recall else 0), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MediciState, player: int):
        g = state.stepped
        g.engine.view.observe(g.state, player, g.actor, self.tensor[:self.table])
        if self.perfect_recall:
            moves = self.tensor[self.table:]
            moves[:] = 0
            for i, (move, seen) in enumerate(zip(state.full_history(), seen_moves(g, player), strict=True)):
                moves[i] = self.unseen if not seen else move.action + 1 + (self.n_actions if move.player < 0 else 0)

    def string_from(self, state: MediciState, player: int):
        g = state.stepped
        if self.perfect_recall:
            return f"seat {player + 1}: " + " ".join(str(move) if seen else "?"
                                                      for move, seen in zip(g.history, seen_moves(g, player),
                                                                            strict=True))
        return g.engine.view.observation_text(g.state, player, g.actor)


def seen_moves(game: SteppedGame, player: int) -> list[bool]:
    """Whether ``player`` saw each move of the game's history (frameworks.stepper's ``seen``)."""
    return [seen in (EVERY_SEAT, player) for seen in game.seen]


class BuiltinBot(pyspiel.Bot):
    """One of our strategies (``spec``: a name, with parameters as ``name:param=value``) as an OpenSpiel
    bot of a ``medici_<game>`` game. It decides on the state's own record, as the engine's
    strategies do: what it writes there (its scratch row, draws from the game's generator)
    stays with the game, so at a seat of a game it plays that strategy's own game."""

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
    play our strategy ``spec`` at every seat (chance drawn uniformly; None: the game's strongest heuristic, its
    last built-in), as a rollout player's rollouts play a built-in: the returns at the end of one such game.
    Priors are uniform."""

    def __init__(self, spec: str | None = None, random_state: np.random.RandomState | None = None):
        self.spec = spec
        self.random_state = random_state or np.random.RandomState()
        self.players: dict = {}

    def evaluate(self, state: MediciState) -> np.ndarray:
        game = state.stepped.__deepcopy__(None)
        player = self.players.get(id(game.engine))
        if player is None:
            spec = game.engine.game.built_ins[-1] if self.spec is None else self.spec
            player = self.players.setdefault(id(game.engine), BuiltinPlayer(game.engine, spec))
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
                  players: int | None = None, rules: str | None = None, returns: str | None = None) -> np.ndarray:
    """Games ``0 .. games - 1`` of a medici-sim run (``strategies`` at the seats, fixed seating,
    ``seed``: R25, C20) with an OpenSpiel bot deciding for ``bot_seat``: ``bot_factory(spiel_game)``
    makes it for the ``medici_<game>`` game it plays. The game is played move by move as an
    OpenSpiel state (chance nodes take the engine's own draws, so the deals are the run's):
    the bot gets that state, with its whole history, at each of its seat's decisions; the other
    seats are the run's strategies, deciding on the same record as in the batch kernel. A bot
    that is one of our strategies (``BuiltinBot``) therefore plays exactly the run's games.
    ``returns``: the game's parameter (its score, the default, or ``wins``). Returns each game's
    score by seat (the game's own, its seat view's ``scores``), a (games, players) array. This is Python, a few games a
    second: mind the count."""
    import medici_sim.games  # noqa: F401

    names = list(strategies) if not isinstance(strategies, str) else [strategies]
    count = players or len(names)
    config = run_config(game=game, players=count, strategies=names, games=games, seed=seed, rules=rules,
                        seating="fixed", threads=1, components=None)
    if isinstance(bot_seat, bool) or not isinstance(bot_seat, int) or not 0 <= bot_seat < config.players:
        raise ValueError(f"bot_seat must be a seat, 0 to {config.players - 1}, got {bot_seat!r}")
    spiel_game = pyspiel.load_game(short_name(config.game), {
        "players": config.players, "rules": config.rules.translate(_SPEC_TO_STRING),
        "returns": returns or get_game(config.game).framework.score})
    e = spiel_game.engine
    slot_params = PreparedRun(config).slot_params  # the run's strategy parameters, as its kernel holds them
    bot = bot_factory(spiel_game)
    seats = [BuiltinPlayer(e, slot) for slot in config.strategies]
    results = np.zeros((config.games, config.players), np.int64)
    for index in range(config.games):
        state = MediciState(spiel_game, SteppedGame(e, config.seed, index, slot_params))
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.stepped.natural_outcome())
            elif state.current_player() == bot_seat:
                moves = len(state.stepped.history)
                action = int(bot.step(state))
                if len(state.stepped.history) != moves:
                    raise ValueError(f"the bot at seat {bot_seat} made a move on the state it was handed "
                                     "(a bot decides on the state, or searches on a clone)")
                state.apply_action(action)
            else:
                state.apply_action(seats[state.current_player()].action(state.stepped))
        results[index] = state.stepped.scores()
    return results


def register_all() -> list[str]:
    """Register ``medici_<game>`` with pyspiel for every registered game with framework facts; their names."""
    import medici_sim.games  # noqa: F401

    names = []
    for definition in GAMES.values():
        if not offered(definition):
            continue
        name = short_name(definition.name)
        if name not in pyspiel.registered_names():
            # a class, not a function: pyspiel would free a function after Python, at exit; named in this
            # module, so that pickle finds it
            class_name = f"Medici{definition.name.title()}Game"
            game_class = type(class_name, (MediciGame,), {"definition": definition, "__module__": __name__})
            globals()[class_name] = game_class
            pyspiel.register_game(game_type(definition), game_class)
        names.append(name)
    return names
