"""The jitted generator (core.rng's ``*_nb``, what engines and plug-ins draw from) and the
reference engines' GameRandom give the same draws, game by game (R25, C20)."""
from __future__ import annotations

import numpy as np
from numba import njit

from medici_sim.core.rng import GameRandom, below_nb, coin_nb, seed_game_nb, uniform_nb


@njit(cache=True)
def _draws_nb(seed, game_index, bounds):
    rng = np.zeros(1, np.uint64)
    seed_game_nb(rng, seed, game_index)
    coins, belows, uniforms = np.zeros(len(bounds), np.bool_), np.zeros(len(bounds), np.int64), np.zeros(len(bounds))
    for i in range(len(bounds)):
        coins[i] = coin_nb(rng)
        belows[i] = below_nb(rng, bounds[i])
        uniforms[i] = uniform_nb(rng)
    return coins, belows, uniforms


def test_the_jitted_generator_draws_what_the_reference_draws():
    bounds = np.array([1, 2, 3, 5, 7, 36, 110, 2**31 + 11, 2**32 - 1] * 20, np.int64)
    for seed, game_index in [(0, 0), (1, 7), (2**63 - 1, 2**62), (12345, 99)]:
        coins, belows, uniforms = _draws_nb(seed, game_index, bounds)
        reference = GameRandom(seed, game_index)
        expected = [(reference.coin(), reference.below(int(n)), reference.uniform()) for n in bounds]
        assert [(bool(c), int(b), float(u)) for c, b, u in zip(coins, belows, uniforms, strict=True)] == expected
        assert ((0 <= uniforms) & (uniforms < 1)).all() and ((0 <= belows) & (belows < bounds)).all()
