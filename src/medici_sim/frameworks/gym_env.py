"""One seat of a medici-sim game as a Gymnasium environment: the agent plays ``seat`` and our
strategies the others (frameworks.builtins), on the jitted engine (frameworks.stepper).

The observation is the seat's view (the game's ``seat_view``), the action an action id of the
game (``Discrete``); ``info["action_mask"]`` marks the legal ones. An action the rules forbid
is replaced by the nearest legal id (a bid above the seat's money becomes its highest legal
bid) and ``info["replaced"]`` says so. The reward comes at the end: the seat's win credit
(``reward="wins"``, R22 / C18) or its florins. Chance nodes are drawn by the environment's
generator (``reset(seed=...)``).
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from .aec_env import make_engine
from .builtins import BuiltinPlayer
from .spiel import RETURNS, win_credit
from .stepper import SteppedGame


class MediciSeatEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str | None = None, players: int | None = None, seat: int = 0,
                 opponents: str | list[str] = "expert", rules: str | None = None, reward: str = "wins",
                 render_mode: str | None = None):
        self.engine = make_engine(game, players, rules)
        count = self.engine.players
        if not 0 <= seat < count:
            raise ValueError(f"seat must be 0 to {count - 1}, got {seat}")
        if reward not in RETURNS:
            raise ValueError(f"reward must be one of {', '.join(RETURNS)}, got {reward!r}")
        specs = [opponents] * (count - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != count - 1:
            raise ValueError(f"{count} players need {count - 1} opponents, got {len(specs)}")
        others = [BuiltinPlayer(self.engine, spec) for spec in specs]
        self.players = others[:seat] + [None] + others[seat:]
        self.seat = seat
        self.reward_kind = reward
        self.render_mode = render_mode
        view = self.engine.view
        size = view.observation_size(self.engine.kernel.inputs[0])
        self.observation_space = spaces.Box(-1.0, float(view.MAX_MONEY), (size,), np.float32)
        self.action_space = spaces.Discrete(view.N_ACTIONS)
        self.game: SteppedGame | None = None

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.game = SteppedGame(self.engine)
        self._play_on()
        return self._observation(), self._info()

    def step(self, action):
        legal = self.game.legal_actions()
        chosen = min(legal, key=lambda a: (abs(a - int(action)), a))
        self.game.apply_action(chosen)
        self._play_on()
        reward = 0.0
        if self.game.over:
            money = self.game.money()
            reward = win_credit(money)[self.seat] if self.reward_kind == "wins" else float(money[self.seat])
        return self._observation(), reward, self.game.over, False, {**self._info(), "replaced": chosen != action}

    def _play_on(self) -> None:
        """Chance and the other seats, until the agent's seat decides or the game ends."""
        g = self.game
        while not g.over and g.actor != self.seat:
            if g.chance:
                outcomes = g.chance_outcomes()
                g.apply_action(int(outcomes[self.np_random.integers(len(outcomes))]))
            else:
                g.apply_action(self.players[g.actor].action(g))

    def _observation(self) -> np.ndarray:
        vector = np.zeros(self.observation_space.shape, np.float32)
        self.engine.view.observe(self.game.state, self.seat, self.game.actor, vector)
        return vector

    def _info(self) -> dict:
        mask = np.zeros(self.action_space.n, np.int8)
        if not self.game.over:
            mask[self.game.legal_actions()] = 1
        return {"action_mask": mask}

    def render(self):
        g = self.game
        return g.engine.view.observation_text(g.state, self.seat, g.actor)
