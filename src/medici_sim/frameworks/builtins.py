"""Our strategies deciding on a stepped game: what makes a built-in (or a plug-in) an OpenSpiel
bot, the other seats of a run with an OpenSpiel bot in it, and the Gymnasium environment's
other seats.

A strategy's decision functions (``fn(state, seat, params)``, docs/plugins.md) are called on
the game's own state record, as the batch kernel calls them: they write their seat's
``scratch`` row, which persists through the game (a heuristic's caches, a model of its rivals'
bids), and draw from the game's generator (a baseline's coin flips), exactly as in a kernel game,
so a game they play through the adapter is the kernel's game (tests/test_openspiel.py). They are
called through a strategy table, as a run calls them (core.dispatch.table_decider): the same
compiled wrappers, so a strategy that a run has compiled answers at once, from numba's cache.
"""
from __future__ import annotations

from ..core.dispatch import strategy_table, table_decider
from ..core.driver import SeatStrategy, compile_error, while_compiling
from ..core.resumable import DECISION
from ..core.specs import parse_strategies
from .stepper import Engine, SteppedGame


class BuiltinPlayer:
    """The strategy ``spec`` (a name, with parameters as the command line writes them:
    ``name`` or ``name:param=value``, or a run's slot) deciding for any seat of ``engine``'s game."""

    def __init__(self, engine: Engine, spec: str | SeatStrategy):
        slot = spec if isinstance(spec, SeatStrategy) else parse_strategies([spec], engine.players,
                                                                            engine.game.name)[0]
        self.engine = engine
        self.name = slot.label
        registry = engine.game.registry
        # the strategy's compiled decisions as a run's table holds them (loaded from numba's cache where a run of it
        # compiled them), each called through the game's table_decider for that decision
        try:
            self.table, names = strategy_table(registry, used=(slot.name,))
        except Exception as exc:  # noqa: BLE001  a plug-in numba cannot compile: one line naming it, as a run says it
            told = compile_error(registry, (slot.name,), exc) if while_compiling(exc) else exc
            if told is exc:
                raise
            raise told from exc
        self.strategy_id = names.index(slot.name)
        self.params_row = slot.vector()
        self.decide = [table_decider(registry, kind) for kind in registry.decisions]

    def action(self, game: SteppedGame) -> int:
        """The action id the strategy answers at ``game``'s decision, decided on the game's own
        record (what the strategy writes there stays, as in the kernel)."""
        seat = game.actor
        if seat < 0:
            raise ValueError("the game is not stopped at a decision (a chance node, or its end)")
        decision = game.event - DECISION
        game.state["seat_params"][seat] = self.params_row  # where the decision reads them (core.dispatch.params_nb)
        choice = int(self.decide[decision](self.table, self.strategy_id, game.state, seat))
        return self.engine.view.action_of(decision, choice)
