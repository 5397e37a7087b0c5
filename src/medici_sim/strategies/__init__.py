"""Strategies: named pairs of jitted decision functions, registered by name.

A strategy is two ``@njit`` functions with these signatures (``state`` is the engine's
GameState, ``seat`` the deciding seat, ``params`` its parameters: a tuple of
``MAX_PARAMS`` floats in the order they are declared, indexed like an array):

- ``reveal_nb(state, seat, params) -> bool``: reveal another card? (R9; only asked when
  the market is not empty, fewer than 3 cards were revealed this turn and the deck is not empty)
- ``take_nb(state, seat, params) -> int``: besides the last card, which of the
  2nd-from-last (bit 0) and 3rd-from-last (bit 1) cards to take (R10; must fit)

Register one with :func:`register`; the engine dispatches on strategy ids through a
table built from this registry (``dispatch.py``), so neither the engine loop nor any
other strategy changes. Built-ins are registered when this package is imported.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..engine import MAX_PARAMS


@dataclass(frozen=True)
class Param:
    """A strategy parameter: its default, the values it accepts, and what it means."""

    default: float
    low: float = -math.inf
    high: float = math.inf
    integer: bool = False
    help: str = ""

    def check(self, strategy: str, name: str, value: float) -> float:
        """The value, or ValueError saying why it is not acceptable."""
        if not math.isfinite(value) or not self.low <= value <= self.high:
            raise ValueError(f"parameter {name} of {strategy} must be between {self.low:g} and "
                             f"{self.high:g}, got {value:g}")
        if self.integer and value != int(value):
            raise ValueError(f"parameter {name} of {strategy} must be a whole number, got {value:g}")
        return float(value)


@dataclass(frozen=True)
class Strategy:
    name: str
    reveal_nb: object
    take_nb: object
    params: dict[str, Param] = field(default_factory=dict)  # in the order of the params vector
    summary: str = ""


REGISTRY: dict[str, Strategy] = {}


def register(strategy: Strategy) -> Strategy:
    """Add a strategy to the registry under its name (replacing one of the same name)."""
    if not strategy.name.isidentifier():
        raise ValueError(f"strategy name must be an identifier, got {strategy.name!r}")
    if len(strategy.params) > MAX_PARAMS:
        raise ValueError(f"strategy {strategy.name} has more than {MAX_PARAMS} parameters")
    for fn in (strategy.reveal_nb, strategy.take_nb):
        if not hasattr(fn, "py_func"):
            raise TypeError(f"strategy {strategy.name}: {fn!r} is not a numba @njit function")
    REGISTRY[strategy.name] = strategy
    return strategy


def strategy_id(name: str) -> int:
    return list(REGISTRY).index(name)


BUILT_INS = ("random", "greedy", "collector", "cautious", "gambler", "expert")
# Registers the built-ins, in this order (their ids).
from . import random, greedy, collector, cautious, gambler, expert  # noqa: E402,F401,I001  isort: skip
