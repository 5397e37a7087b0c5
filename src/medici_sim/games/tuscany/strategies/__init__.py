"""The Castles of Tuscany's strategies: named sets of jitted decision functions, registered by name.

A Tuscany strategy is one ``@njit`` function per decision of ``state.DECISIONS``, each
``fn(state, seat, params)``: an option decision returns the index of its choice among
``state.options[:state.counts[N_OPTIONS]]``, ``payment_nb`` a payment code
(``state.payment_code``), ``marble_nb`` a bool (state.py documents each and what a strategy
may read). Register one with ``register(Strategy(name, decisions={...}))``; the engine
dispatches through a table built from :data:`REGISTRY` (core/dispatch.py). Built-ins:
``random`` (T38-T39).
"""
from __future__ import annotations

from ....core.registry import Param, Strategy
from .base import BUILT_INS, REGISTRY, register
from .random import STRATEGY as RANDOM

__all__ = ["REGISTRY", "Param", "Strategy", "register", "BUILT_INS"]

register(RANDOM)
