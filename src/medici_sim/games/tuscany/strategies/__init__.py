"""The Castles of Tuscany's strategies: named sets of jitted decision functions, registered by name.

A Tuscany strategy is one ``@njit`` function per decision of ``state.DECISIONS``, each
``fn(state, seat, params)``: an option decision returns the index of its choice among
``state.options[:state.counts[N_OPTIONS]]``, ``payment_nb`` a payment code
(``state.payment_code``), ``marble_nb`` a bool (state.py documents each and what a strategy
may read). Register one with ``register(Strategy(name, decisions={...}))``; the engine
dispatches through a table built from :data:`REGISTRY` (core/dispatch.py). Built-ins:
``random`` (T38-T39); the heuristics ``builder``, ``colour_racer``, ``castle_chainer``,
``trader`` and ``expert`` (``heuristic.py``'s decisions, each with its own parameters); ``search``
(``search.py``: flat Monte Carlo over each action with its tile or placement, the heuristics in its rollouts);
``strong`` (``strong.py``: search's candidates judged by a learned evaluation, trained on search's rollouts);
``mcts`` (``mcts.py``: a tree search over the seat's own actions, on search's candidates and rollouts).
"""
from __future__ import annotations

from ....core.registry import Param, Strategy
from .base import BUILT_INS, REGISTRY, register
from .builder import STRATEGY as BUILDER
from .castle_chainer import STRATEGY as CASTLE_CHAINER
from .colour_racer import STRATEGY as COLOUR_RACER
from .expert import STRATEGY as EXPERT
from .random import STRATEGY as RANDOM
from .trader import STRATEGY as TRADER

__all__ = ["REGISTRY", "Param", "Strategy", "register", "BUILT_INS"]

for _strategy in (RANDOM, BUILDER, COLOUR_RACER, CASTLE_CHAINER, TRADER, EXPERT):
    register(_strategy)
# ``search`` (after the heuristics: their ids stay; a built-in, not in BUILT_INS: default lineups leave it out,
# far slower) plays them in its rollouts, so it is imported once they are registered.
from .search import SEARCH  # noqa: E402

register(SEARCH)
# ``strong`` (search's candidates judged by a learned evaluation; its id after search's) reads search's candidates.
from .strong import STRATEGY as STRONG  # noqa: E402

register(STRONG)
# ``mcts`` (after strong: the ids before it stay), the tree search over search's candidates, as slow as search.
from .mcts import STRATEGY as MCTS  # noqa: E402

register(MCTS)
