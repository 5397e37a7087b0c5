"""A medici-sim game as a PettingZoo AEC environment, on the jitted engine (frameworks.stepper).

Agents ``seat_1`` .. ``seat_N`` take turns as the game asks them (a seat may decide several
times running). Each agent's observation is a dict: ``observation``, the table as that seat
sees it (the game's seat view, framework facts: only what the game shows that seat, nothing it
declares hidden from it), a fixed-size float32 vector, and ``action_mask``, the legal action ids
(all zero when it is not the agent's turn). Chance nodes (the game's chance events) are drawn by
the environment's generator, seeded by ``reset(seed=...)``, or are the engine's own draws in one
of a run's games (``reset(options={"run_seed": S, "game_index": I})``: new_game). Rewards come at the end: each seat's
score (``returns=`` the game's score, its framework facts' ``score``, the default) or its win
credit (``"wins"``: 1 shared among the highest scores). ``render()`` returns the game so far
in words, move by move, then the table; ``render_mode="human"`` prints it as the game goes.
An action the rules forbid is refused (ValueError naming the agent and the legal actions).

What both environments share is here too: the engine by name, the checks of ``returns`` and
``render_mode``, and pickling (``copy.deepcopy`` and ``pickle`` copy a game in play: the
engine record by value, the compiled engine by name).
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..core.chance import EVERY_SEAT
from .spiel import WINS, returns_values, win_credit
from .stepper import SteppedGame, engine

RENDER_MODES = ["ansi", "human"]  # ansi: render() returns the text; human: printed as the game goes
RENDER_FPS = 4  # Gymnasium asks for one; text has no frame rate of its own


def check_returns(returns: str | None, engine_, argument: str = "returns") -> str:
    """``returns`` (None: the game's score), or ValueError naming what the game's ``returns`` takes."""
    allowed = returns_values(engine_.game)
    if returns is None:
        return allowed[0]
    if returns not in allowed:
        raise ValueError(f"{argument} must be one of {', '.join(allowed)}, got {returns!r}")
    return returns


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} (or None), got {render_mode!r}")
    return render_mode


def seat_spaces(engine_) -> tuple[spaces.Box, spaces.Discrete]:
    """What a seat sees and what it may answer under the rules in force (the game's seat view, as
    OpenSpiel's game reads them): the observation vector, bounded by the seat view's
    ``observation_bound`` (which follows the rules in force); the action ids (``action_count``,
    which may follow them too)."""
    s, view = engine_.kernel.inputs[0], engine_.view
    high = view.observation_bound(s)
    return (spaces.Box(-1.0, high, (view.observation_size(s),), np.float32),
            spaces.Discrete(view.action_count(s)))


RUN_OPTIONS = ("run_seed", "game_index")


def new_game(engine_, options) -> tuple[SteppedGame, bool]:
    """``reset``'s game, and whether it is a run's game. ``options`` may name one of a run's
    games, ``{"run_seed": S, "game_index": I}`` (either defaults to 0): the game is then game
    ``I`` of a run with seed ``S`` (R25, C20), its chance nodes taking the engine's own draws, so
    seats playing as our strategies would (the seat_env's other seats do) play exactly the game
    ``trace --seed S --index I`` shows for that lineup. Without them, chance nodes are drawn by
    the environment's generator. Other options are ignored, as PettingZoo's ``api_test`` expects
    (it resets with an option of its own)."""
    options = {key: value for key, value in (options or {}).items() if key in RUN_OPTIONS}  # others ignored (below)
    for key, value in options.items():
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < 2**63:
            raise ValueError(f"reset: option {key} must be a whole number from 0 below 2**63, got {value!r}")
    if not options:
        return SteppedGame(engine_), False
    return SteppedGame(engine_, options.get("run_seed", 0), options.get("game_index", 0)), True


def draw_chance(game: SteppedGame, run: bool, np_random) -> int:
    """A chance node's outcome: the engine's own draw in a run's game, else drawn by ``np_random``."""
    if run:
        return game.natural_outcome()
    outcomes = game.chance_outcomes()
    return int(outcomes[np_random.integers(len(outcomes))])


def outcome(scores: list[int], returns: str) -> list[float]:
    """Each seat's return at the end: its score, or its win credit."""
    return win_credit(scores) if returns == WINS else [float(m) for m in scores]


class ByName:
    """Pickling of an environment: the compiled engine (``self.engine``) by name, the rest
    (the game in play, the generator) by value, so ``copy.deepcopy`` and ``pickle`` copy a
    game in play exactly."""

    def __getstate__(self):
        e = self.engine
        return {**self.__dict__, "engine": (e.game.name, e.players, e.rules)}

    def __setstate__(self, saved):
        self.__dict__.update(saved)
        self.engine = engine(*saved["engine"])


class MediciAEC(ByName, AECEnv):
    metadata = {"name": "medici_v0", "render_modes": RENDER_MODES, "render_fps": RENDER_FPS,
                "is_parallelizable": False}

    def __init__(self, game: str | None = None, players: int | None = None, rules: str | None = None,
                 returns: str | None = None, render_mode: str | None = None):
        super().__init__()
        self.engine = make_engine(game, players, rules)
        self.returns_kind = check_returns(returns, self.engine)
        self.render_mode = check_render_mode(render_mode)
        self.metadata = {**self.metadata, "name": f"medici_{self.engine.game.name}_v0"}
        self.possible_agents = [f"seat_{p + 1}" for p in range(self.engine.players)]
        observation, self._action_space = seat_spaces(self.engine)
        self._observation_space = spaces.Dict({
            "observation": observation, "action_mask": spaces.Box(0, 1, (self._action_space.n,), np.int8)})
        self.np_random, _ = seeding.np_random(None)
        self.game: SteppedGame | None = None
        self.run = False  # reset to one of a run's games (new_game)
        self.log: list[str] = []
        self._shown = 0  # log lines printed so far (render_mode "human")

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.game, self.run = new_game(self.engine, options)
        self.log, self._shown = [], 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._draw_chance()
        self.agent_selection = self.possible_agents[self.game.actor]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        g = self.game
        vector = np.zeros(self._observation_space["observation"].shape, np.float32)
        g.engine.view.observe(g.state, seat, g.actor, vector)
        mask = np.zeros(self._action_space.n, np.int8)
        if g.actor == seat:
            mask[g.legal_actions()] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        legal = g.legal_actions()
        if action not in legal:
            raise ValueError(f"{agent}: action {action!r} is not legal here (legal: {', '.join(map(str, legal))}; "
                             "observation['action_mask'] marks them)")
        self._cumulative_rewards[agent] = 0.0
        self.log.append(f"{agent}: {g.engine.view.action_text(g.state, int(action))}")
        g.apply_action(int(action))
        self._draw_chance()
        if g.over:
            self.rewards = dict(zip(self.possible_agents, outcome(g.scores(), self.returns_kind), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[g.actor]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _draw_chance(self) -> None:
        g = self.game
        while g.chance:
            outcome = draw_chance(g, self.run, self.np_random)
            seen_by = g.drawn.seen_by  # an outcome one seat alone sees (a card into its hand) is not told
            self.log.append(g.engine.view.chance_text(g.state, outcome) if seen_by == EVERY_SEAT
                            else f"seat_{seen_by + 1} gets what only it sees")
            g.apply_action(outcome)

    def render(self):
        """The game so far in words, then the table (``render_mode="human"``: printed, only
        the moves since the last print)."""
        g = self.game
        if g is None:
            return None
        table = g.engine.view.observation_text(g.state, max(g.actor, 0), g.actor)
        if self.render_mode == "human":
            print("\n".join([*self.log[self._shown:], table]))
            self._shown = len(self.log)
            return None
        return "\n".join([*self.log, table])

    def close(self):
        pass


def make_engine(game: str | None, players: int | None, rules: str | None):
    """The engine of ``game`` (default: the default game) for ``players`` (its default) under
    ``rules`` (its standard rules); bad arguments are named as the Python API names them
    (``players=``), and only None means the default (``players=0`` was 4 players)."""
    import medici_sim.games  # noqa: F401

    from ..core.arguments import naming, whole
    from ..core.specs import game_named

    with naming(api=True, rules="rules="):  # the environments' rule set is rules=
        definition = game_named(game)
        players = definition.default_players if players is None else whole(players, "players")
        return engine(definition.name, players, definition.presets[0] if rules is None else rules)
