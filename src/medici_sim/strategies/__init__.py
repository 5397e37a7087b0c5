"""Strategies: named pairs of jitted decision functions, registered by name.

A strategy is two ``@njit`` functions with these signatures (``state`` is the engine's
GameState, ``seat`` the deciding seat, ``params`` its float64 parameter vector):

- ``reveal_nb(state, seat, params) -> bool``: reveal another card? (R9; only asked when
  the market is not empty, fewer than 3 cards were revealed this turn and the deck is not empty)
- ``take_nb(state, seat, params) -> int``: besides the last card, which of the
  2nd-from-last (bit 0) and 3rd-from-last (bit 1) cards to take (R10; must fit)

Register one with :func:`register`; the engine dispatches on strategy ids through a
table built from this registry (``dispatch.py``), so neither the engine loop nor any
other strategy changes. Built-ins are registered when this package is imported.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import MAX_PARAMS


@dataclass(frozen=True)
class Strategy:
    name: str
    reveal_nb: object
    take_nb: object
    params: dict[str, float] = field(default_factory=dict)  # name -> default, in vector order
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


from . import random as _random  # noqa: E402,F401  (registers the built-ins)
