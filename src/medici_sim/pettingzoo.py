"""medici-sim's games as PettingZoo and Gymnasium environments (docs/frameworks.md).

    from medici_sim.pettingzoo import env, seat_env
    aec = env(game="card", players=4, rules="standard")   # every seat an agent (AEC)
    single = seat_env(game="classic", seat=0, opponents="expert")   # one seat (Gymnasium)
    single = gymnasium.make("medici_sim/MediciClassic-v0", seat=0, opponents="expert")   # the same, registered

Importing this module registers the one-seat environments with Gymnasium
(``medici_sim/MediciCard-v0``, ``medici_sim/MediciClassic-v0``: ``GYMNASIUM_IDS``).
"""
from .frameworks import needs

needs("pettingzoo", "rl", "medici_sim.pettingzoo")
needs("gymnasium", "rl", "medici_sim.pettingzoo")

from dataclasses import replace  # noqa: E402

import gymnasium  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from .frameworks.aec_env import MediciAEC  # noqa: E402
from .frameworks.gym_env import MediciSeatEnv, env_id, register_all  # noqa: E402

GYMNASIUM_IDS = register_all()

__all__ = ["GYMNASIUM_IDS", "MediciAEC", "MediciSeatEnv", "env", "raw_env", "seat_env"]


def raw_env(game: str | None = None, players: int | None = None, rules: str | None = None, returns: str | None = None,
            render_mode: str | None = None) -> MediciAEC:
    """The AEC environment, unwrapped."""
    return MediciAEC(game=game, players=players, rules=rules, returns=returns, render_mode=render_mode)


def env(game: str | None = None, players: int | None = None, rules: str | None = None, returns: str | None = None,
        render_mode: str | None = None):
    """The AEC environment with PettingZoo's usual checks (actions in range, calls in order)."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        raw_env(game=game, players=players, rules=rules, returns=returns, render_mode=render_mode)))


def seat_env(game: str | None = None, players: int | None = None, seat: int = 0, opponents=None,
             rules: str | None = None, returns: str | None = None, render_mode: str | None = None,
             illegal: str = "nearest", reward: str | None = None) -> MediciSeatEnv:
    """One seat against our strategies, as a Gymnasium environment (unwrapped, with its ``spec``:
    ``gymnasium.make(single.spec)`` makes another); ``opponents`` None: the game's strongest heuristic (its last
    built-in) at every other seat. ``reward=`` is the old name of ``returns=``."""
    single = MediciSeatEnv(game=game, players=players, seat=seat, opponents=opponents, rules=rules, returns=returns,
                           render_mode=render_mode, illegal=illegal, reward=reward)
    kwargs = {"game": single.engine.game.name, "players": single.engine.players, "seat": seat,
              "opponents": single.opponents, "rules": single.engine.rules, "returns": single.returns_kind,
              "render_mode": render_mode, "illegal": illegal}
    single.spec = replace(gymnasium.spec(env_id(single.engine.game.name)), kwargs=kwargs)
    return single
