"""One seat of a medici-sim game as a Gymnasium environment: the agent plays ``seat`` and our
strategies the others (frameworks.builtins), on the jitted engine (frameworks.stepper).

The observation is the seat's view (the game's seat view, framework facts), the action an action id of the
game (``Discrete``); ``info["action_mask"]`` and ``action_masks()`` (sb3-contrib's maskable
PPO) mark the legal ones. An action outside the action space is refused (ValueError). One
inside it that the rules forbid here is, with ``illegal="nearest"`` (the default, so that an
agent without masks can learn), replaced by the nearest legal id (where ids count an amount, as
bids do, the nearest amount allowed) and ``info["replaced"]`` says so; ``illegal="refuse"``
refuses it (ValueError). The return comes at the end: the seat's score (``returns=`` the
game's score, its framework facts' ``score``, the default, as in the AEC environment and
OpenSpiel) or its win credit (``"wins"``). Chance nodes are drawn by the environment's generator
(``reset(seed=...)``), or are the engine's own draws in one of a run's games
(``reset(options={"run_seed": S, "game_index": I})``). The other seats decide on the game's own
record, as in the batch kernel (frameworks.builtins): an agent that plays as a built-in would,
in a run's game, plays exactly the game ``trace`` shows for the same seed, game and lineup.
Stepping before ``reset`` or after the end raises Gymnasium's
``ResetNeeded``.

Importing ``medici_sim.pettingzoo`` registers ``medici_sim/Medici<Game>-v0`` (for example
``medici_sim/MediciCard-v0``) with Gymnasium (:func:`register_all`).
"""
from __future__ import annotations

import numbers
import warnings

import gymnasium
import numpy as np
from gymnasium.error import ResetNeeded

from .aec_env import (
    RENDER_FPS,
    RENDER_MODES,
    ByName,
    check_render_mode,
    check_returns,
    draw_chance,
    make_engine,
    new_game,
    outcome,
    seat_spaces,
)
from .builtins import BuiltinPlayer
from .stepper import SteppedGame

ILLEGAL = ("nearest", "refuse")
NAMESPACE = "medici_sim"


class MediciSeatEnv(ByName, gymnasium.Env):
    metadata = {"render_modes": RENDER_MODES, "render_fps": RENDER_FPS}

    def __init__(self, game: str | None = None, players: int | None = None, seat: int = 0,
                 opponents: str | list[str] | None = None, rules: str | None = None, returns: str | None = None,
                 render_mode: str | None = None, illegal: str = "nearest", reward: str | None = None):
        self.engine = make_engine(game, players, rules)
        count = self.engine.players
        if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < count:
            raise ValueError(f"seat must be a whole number from 0 to {count - 1}, got {seat!r}")
        if reward is not None:  # the old name of returns (its default was wins)
            if returns not in (None, reward):
                raise ValueError(f"returns={returns!r} and reward={reward!r}: give returns= alone (reward= is its "
                                 "old name)")
            warnings.warn("seat_env's reward= is now returns= (default the game's score, as env()'s and OpenSpiel's)",
                          DeprecationWarning, stacklevel=3)
            returns = check_returns(reward, self.engine, "reward")
        self.returns_kind = check_returns(returns, self.engine)
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, got {illegal!r}")
        self.illegal = illegal
        self.opponents = _opponents(opponents, self.engine)
        self.seat = int(seat)
        self.render_mode = check_render_mode(render_mode)
        self.players = self._players()
        self.observation_space, self.action_space = seat_spaces(self.engine)
        self.game: SteppedGame | None = None
        self.run = False  # reset to one of a run's games (aec_env.new_game)

    def _players(self) -> list[BuiltinPlayer | None]:
        others = [BuiltinPlayer(self.engine, spec) for spec in self.opponents]
        return others[:self.seat] + [None] + others[self.seat:]

    def __getstate__(self):  # the opponents by their specs (their compiled decisions are rebuilt)
        return {**super().__getstate__(), "players": None}

    def __setstate__(self, saved):
        super().__setstate__(saved)
        self.players = self._players()

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.game, self.run = new_game(self.engine, options)
        self._play_on()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action):
        if self.game is None or self.game.over:
            raise ResetNeeded("the game is over: call reset() before step()" if self.game is not None
                              else "call reset() before step()")
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is not an action id of the {self.engine.game.name} game "
                             f"(0 to {self.action_space.n - 1})")
        legal = self.game.legal_actions()
        chosen = min(legal, key=lambda a: (abs(a - int(action)), a))
        if chosen != action and self.illegal == "refuse":
            raise ValueError(f"action {int(action)} is not legal here (legal: {', '.join(map(str, legal))}; "
                             "info['action_mask'] and action_masks() mark them)")
        self.game.apply_action(chosen)
        self._play_on()
        reward = outcome(self.game.scores(), self.returns_kind)[self.seat] if self.game.over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self.game.over, False, {**self._info(), "replaced": chosen != action}

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's MaskablePPO asks for them); none at the end."""
        mask = np.zeros(self.action_space.n, bool)
        if self.game is not None and not self.game.over:
            mask[self.game.legal_actions()] = True
        return mask

    def _play_on(self) -> None:
        """Chance and the other seats, until the agent's seat decides or the game ends."""
        g = self.game
        while not g.over and g.actor != self.seat:
            if g.chance:
                g.apply_action(draw_chance(g, self.run, self.np_random))
            else:
                g.apply_action(self.players[g.actor].action(g))

    def _observation(self) -> np.ndarray:
        vector = np.zeros(self.observation_space.shape, np.float32)
        self.engine.view.observe(self.game.state, self.seat, self.game.actor, vector)
        return vector

    def _info(self) -> dict:
        return {"action_mask": self.action_masks().astype(np.int8)}

    def render(self):
        """The table as the seat sees it, in words (``render_mode="human"``: printed)."""
        if self.game is None:
            return None
        g = self.game
        text = g.engine.view.observation_text(g.state, self.seat, g.actor)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _opponents(opponents, engine) -> list[str]:
    """The other seats' strategies, as specs: one for every other seat, or one each (a list, or a
    comma list as the command line writes them; None: the game's strongest heuristic, its last built-in);
    refused in one line naming ``opponents=`` (a comma list was refused as '--strategies: 4 players need 1
    or 4 strategies, got 3')."""
    from ..core.arguments import ConfigError, naming
    from ..core.specs import parse_strategy_list

    others = engine.players - 1
    opponents = engine.game.built_ins[-1] if opponents is None else opponents
    with naming(api=True):
        slots = parse_strategy_list(opponents, engine.game.name, "opponents")
    if len(slots) == 1:
        slots *= others
    if len(slots) != others:
        raise ConfigError(f"opponents=: {engine.players} players need 1 or {others} opponents, got {len(slots)}")
    return [slot.label for slot in slots]


def env_id(game: str) -> str:
    """The Gymnasium id of ``game``'s one-seat environment: ``medici_sim/MediciCard-v0``."""
    return f"{NAMESPACE}/Medici{game.title()}-v0"


def register_all() -> list[str]:
    """Register every game with framework facts with Gymnasium (``gymnasium.make(env_id(game), players=...,
    opponents=...)``); their ids."""
    import medici_sim.games  # noqa: F401

    from ..core.registry import GAMES
    from .stepper import offered

    ids = []
    for definition in GAMES.values():
        if not offered(definition):
            continue
        ids.append(env_id(definition.name))
        if ids[-1] not in gymnasium.registry:
            gymnasium.register(ids[-1], entry_point=f"{__name__}:MediciSeatEnv", kwargs={"game": definition.name})
    return ids
