"""The Medici games' rollout player (``search``), on core.rollout: its horizon of a day, and its parameters
in the Medici games' words (days, florins).

A rollout plays to the end of the game, or (``horizon`` 1) to the end of the day the decision is in, judged
by that day's florins: the day is the Medici games' scoring moment, which core does not know.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.registry import Param
from ...core.rollout import HORIZON, OPPONENTS, POLICY, ROLLOUTS, rollout_params

HORIZON_DAY = 1  # the horizon parameter: 0 the end of the game, 1 the end of the day


@njit(cache=True, inline="always")
def rollout_plan_nb(params, day, days):
    """What a search player's ``params`` ask of its rollouts: how many, the policy's and the
    opponents' strategy ids, and the last day a rollout plays (today, ``day``, with the day's
    horizon; else the last of the rule set's ``days``)."""
    last_day = day if params[HORIZON] == HORIZON_DAY else days - 1
    return np.int64(params[ROLLOUTS]), np.int64(params[POLICY]), np.int64(params[OPPONENTS]), last_day


def search_params(policies: tuple[str, ...], default_policy: str, tried: str, confidence: float,
                  extra: dict | None = None) -> dict:
    """search's parameters (core.rollout.rollout_params), its horizon the game's end or the day's."""
    horizon = Param(0, 0, 1, integer=True,
                    help="0: roll out to the end of the game; 1: to the end of the day, judged by its florins")
    return rollout_params(policies, default_policy, tried, confidence, horizon=horizon, margin="florin margin",
                          extra=extra)
