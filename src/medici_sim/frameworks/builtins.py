"""Our strategies deciding on a stepped game: what makes a built-in (or a plug-in) an OpenSpiel
bot, the other seats of a run with an OpenSpiel bot in it, and the Gymnasium environment's
other seats.

A strategy's decision functions (``fn(state, seat, params)``, docs/plugins.md) are called on
the game's own state record, as the batch kernel calls them: they write their seat's
``scratch`` row, which persists through the game (a heuristic's caches, a model of its rivals'
bids), and draw from the game's generator (a baseline's coin flips), exactly as in a kernel game,
so a game they play through the adapter is the kernel's game (tests/test_openspiel.py). A
strategy the engine caches (the heuristics) answers at once; one whose decisions compile apart
(a rollout or learned player) compiles them on first use in a process.
"""
from __future__ import annotations

from ..core.dispatch import ready_rollouts
from ..core.driver import SeatStrategy
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
        strategy = registry[slot.name]
        if registry.origin.get(slot.name) == "built-in" and slot.name not in engine.game.built_ins:
            ready_rollouts(registry)  # a rollout player, called here directly: the table its rollouts dispatch through
        self.params_row = slot.vector()
        self.params = tuple(float(x) for x in self.params_row)
        self.decide = [strategy.decisions[name] for name in engine.game.registry.decisions]

    def action(self, game: SteppedGame) -> int:
        """The action id the strategy answers at ``game``'s decision, decided on the game's own
        record (what the strategy writes there stays, as in the kernel)."""
        seat = game.actor
        if seat < 0:
            raise ValueError("the game is not stopped at a decision (a chance node, or its end)")
        decision = game.event - DECISION
        game.state["seat_params"][seat] = self.params_row
        choice = int(self.decide[decision](game.state, seat, self.params))
        return self.engine.view.action_of(decision, choice)
