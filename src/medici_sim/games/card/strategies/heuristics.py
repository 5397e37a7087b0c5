"""The card game's heuristics: the built-ins besides ``search``, registered when this module
is imported, in the order of ``BUILT_INS`` (their ids; search's rollouts play them by id)."""
from __future__ import annotations

from . import cautious, collector, expert, gambler, greedy, random
from .base import BUILT_INS, register

_DEFINED = {module.STRATEGY.name: module.STRATEGY for module in (cautious, collector, expert, gambler, greedy, random)}
HEURISTICS = tuple(register(_DEFINED[name]) for name in BUILT_INS)
