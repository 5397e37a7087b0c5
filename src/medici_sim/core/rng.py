"""The per-game random-number generator (R25), shared by the kernel and the reference engine.

SplitMix64 keyed by (master seed, game index): see docs/protocol.md. The jitted functions
(``*_nb``) keep the state in a one-element uint64 array; :class:`GameRandom` is the same
generator in plain Python for the reference engine. ``tests/test_rng.py`` holds them equal.
"""
from __future__ import annotations

import numpy as np
from numba import njit

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MUL1 = 0xBF58476D1CE4E5B9
_MUL2 = 0x94D049BB133111EB

# The same constants as uint64 scalars, so numba keeps the arithmetic unsigned and wrapping.
GAMMA_U = np.uint64(_GAMMA)
MUL1_U = np.uint64(_MUL1)
MUL2_U = np.uint64(_MUL2)
LOW32_U = np.uint64(0xFFFFFFFF)
TWO32_U = np.uint64(1 << 32)
S11, S27, S30, S31, S32, S63 = (np.uint64(s) for s in (11, 27, 30, 31, 32, 63))
INV_2_53 = 1.0 / (1 << 53)


def mix64(z: int) -> int:
    z &= _MASK64
    z = ((z ^ (z >> 30)) * _MUL1) & _MASK64
    z = ((z ^ (z >> 27)) * _MUL2) & _MASK64
    return z ^ (z >> 31)


def game_state(seed: int, game_index: int) -> int:
    """The generator state a game starts from: depends on nothing but (seed, index) (R25)."""
    return mix64(mix64(seed) ^ game_index)


class GameRandom:
    """SplitMix64 in plain Python: the reference engine's generator."""

    def __init__(self, seed: int, game_index: int):
        self.state = game_state(seed, game_index)

    def next_u64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK64
        return mix64(self.state)

    def coin(self) -> bool:
        return self.next_u64() >> 63 == 1

    def below(self, n: int) -> int:
        """Uniform on 0..n-1 (Lemire's unbiased multiply-shift)."""
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def uniform(self) -> float:
        return (self.next_u64() >> 11) * INV_2_53


@njit(cache=True)
def mix64_nb(z):
    z = (z ^ (z >> S30)) * MUL1_U
    z = (z ^ (z >> S27)) * MUL2_U
    return z ^ (z >> S31)


@njit(cache=True)
def seed_game_nb(rng, seed, game_index):
    """Set ``rng`` (uint64[1]) to game ``game_index``'s starting state (R25)."""
    rng[0] = mix64_nb(mix64_nb(np.uint64(seed)) ^ np.uint64(game_index))


@njit(cache=True)
def next_u64_nb(rng):
    rng[0] += GAMMA_U
    return mix64_nb(rng[0])


@njit(cache=True)
def coin_nb(rng):
    return (next_u64_nb(rng) >> S63) == np.uint64(1)


@njit(cache=True)
def below_nb(rng, n):
    """Uniform on 0..n-1 (Lemire's unbiased multiply-shift); 1 <= n < 2**32."""
    drawn, rng[0] = below_held_nb(rng[0], n)
    return drawn


@njit(cache=True, inline="always")
def below_held_nb(z, n):
    """:func:`below_nb` on a generator state ``z`` held in a variable: (the draw, the state after it). An
    engine keeps the state so across its own draws: each draw through the record waits for the store
    before it (the compiler cannot tell it from the engine's other stores into the record)."""
    un = np.uint64(n)
    z += GAMMA_U
    m = (mix64_nb(z) >> S32) * un
    low = m & LOW32_U
    if low < un:
        threshold = (TWO32_U - un) % un
        while low < threshold:
            z += GAMMA_U
            m = (mix64_nb(z) >> S32) * un
            low = m & LOW32_U
    return np.int64(m >> S32), z


@njit(cache=True)
def uniform_nb(rng):
    return np.float64(next_u64_nb(rng) >> S11) * INV_2_53
