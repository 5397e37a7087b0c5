"""medici-sim's games as PettingZoo and Gymnasium environments (docs/frameworks.md).

    from medici_sim.pettingzoo import env, seat_env
    aec = env(game="card", players=4, rules="standard")   # every seat an agent (AEC)
    single = seat_env(game="classic", seat=0, opponents="expert")   # one seat (Gymnasium)
"""
from .frameworks import needs

needs("pettingzoo", "rl", "medici_sim.pettingzoo")
needs("gymnasium", "rl", "medici_sim.pettingzoo")

from pettingzoo.utils import wrappers  # noqa: E402

from .frameworks.aec_env import MediciAEC  # noqa: E402
from .frameworks.gym_env import MediciSeatEnv  # noqa: E402

__all__ = ["MediciAEC", "MediciSeatEnv", "env", "raw_env", "seat_env"]


def raw_env(game: str | None = None, players: int | None = None, rules: str | None = None, returns: str = "florins",
            render_mode: str | None = None) -> MediciAEC:
    """The AEC environment, unwrapped."""
    return MediciAEC(game=game, players=players, rules=rules, returns=returns, render_mode=render_mode)


def env(game: str | None = None, players: int | None = None, rules: str | None = None, returns: str = "florins",
        render_mode: str | None = None):
    """The AEC environment with PettingZoo's usual checks (actions in range, calls in order)."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        raw_env(game=game, players=players, rules=rules, returns=returns, render_mode=render_mode)))


def seat_env(game: str | None = None, players: int | None = None, seat: int = 0, opponents="expert",
             rules: str | None = None, reward: str = "wins", render_mode: str | None = None) -> MediciSeatEnv:
    """One seat against our strategies, as a Gymnasium environment."""
    return MediciSeatEnv(game=game, players=players, seat=seat, opponents=opponents, rules=rules, reward=reward,
                         render_mode=render_mode)
