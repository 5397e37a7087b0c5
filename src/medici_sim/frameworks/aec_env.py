"""A medici-sim game as a PettingZoo AEC environment, on the jitted engine (frameworks.stepper).

Agents ``seat_1`` .. ``seat_N`` take turns as the game asks them (a seat may decide several
times running: reveal, reveal, take). Each agent's observation is a dict: ``observation``, the
table as the seat sees it (the game's ``seat_view``: everything face up, never the deck's
order), a fixed-size float32 vector, and ``action_mask``, the legal action ids (all zero when
it is not the agent's turn). Chance nodes (cards turned up, a tied starter) are drawn by the
environment's generator, seeded by ``reset(seed=...)``. Rewards come at the end: each seat's
florins (``returns="florins"``, R22 / C18) or its win credit (``"wins"``: 1 shared among the
richest). ``render()`` returns the game so far in words, move by move, then the table.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from .spiel import RETURNS, win_credit
from .stepper import SteppedGame, engine


class MediciAEC(AECEnv):
    metadata = {"name": "medici_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str | None = None, players: int | None = None, rules: str | None = None,
                 returns: str = "florins", render_mode: str | None = None):
        super().__init__()
        self.engine = make_engine(game, players, rules)
        if returns not in RETURNS:
            raise ValueError(f"returns must be one of {', '.join(RETURNS)}, got {returns!r}")
        self.returns_kind = returns
        self.render_mode = render_mode
        view = self.engine.view
        self.metadata = {**self.metadata, "name": f"medici_{self.engine.game.name}_v0"}
        self.possible_agents = [f"seat_{p + 1}" for p in range(self.engine.players)]
        size = view.observation_size(self.engine.kernel.inputs[0])
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-1.0, float(view.MAX_MONEY), (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (view.N_ACTIONS,), np.int8)})
        self._action_space = spaces.Discrete(view.N_ACTIONS)
        self.np_random, _ = seeding.np_random(None)
        self.game: SteppedGame | None = None
        self.log: list[str] = []

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.game = SteppedGame(self.engine)
        self.log = []
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._draw_chance()
        self.agent_selection = self.possible_agents[self.game.actor]

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
        self._cumulative_rewards[agent] = 0.0
        self.log.append(f"{agent}: {g.engine.view.action_text(g.state, int(action))}")
        g.apply_action(int(action))
        self._draw_chance()
        if g.over:
            money = g.money()
            final = win_credit(money) if self.returns_kind == "wins" else [float(m) for m in money]
            self.rewards = dict(zip(self.possible_agents, final, strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[g.actor]
        self._accumulate_rewards()

    def _draw_chance(self) -> None:
        g = self.game
        while g.chance:
            outcomes = g.chance_outcomes()
            outcome = int(outcomes[self.np_random.integers(len(outcomes))])
            n = g.engine.n_cards
            self.log.append(f"seat {outcome - n + 1} starts the next day" if outcome >= n
                            else g.engine.view.chance_text(g.state, outcome))
            g.apply_action(outcome)

    def render(self):
        g = self.game
        table = g.engine.view.observation_text(g.state, max(g.actor, 0), g.actor)
        return "\n".join([*self.log, table])

    def close(self):
        pass


def make_engine(game: str | None, players: int | None, rules: str | None):
    """The engine of ``game`` (default: the default game) for ``players`` (its default) under
    ``rules`` (its standard rules)."""
    import medici_sim.games  # noqa: F401

    from ..core.specs import game_named

    definition = game_named(game)
    return engine(definition.name, players or definition.default_players, rules or definition.variants[0])
