"""Our strategies deciding on a stepped game: what makes a built-in (or a plug-in) an OpenSpiel
bot, and the Gymnasium environment's other seats.

A strategy's decision functions (``fn(state, seat, params)``, docs/plugins.md) are called on
the game's own state record, as the engine calls them: they may write their seat's
``scratch`` row and draw from the game's generator (``random`` does), exactly as in a kernel
game, so a game they play through the adapter is the kernel's game (tests/test_openspiel.py).
A strategy the engine caches (the heuristics) answers at once; ``search`` compiles its
decisions on first use in a process (a minute or so).
"""
from __future__ import annotations

from ..core.specs import parse_strategies
from ..core.stepping import DECISION
from .stepper import Engine, SteppedGame


class BuiltinPlayer:
    """The strategy ``spec`` (a name, with parameters as the command line writes them:
    ``greedy`` or ``greedy:take_min=3``) deciding for any seat of ``engine``'s game."""

    def __init__(self, engine: Engine, spec: str):
        seat_strategy = parse_strategies([spec], engine.players, engine.game.name)[0]
        self.engine = engine
        self.name = spec
        strategy = engine.game.registry[seat_strategy.name]
        self.params_row = seat_strategy.vector()
        self.params = tuple(float(x) for x in self.params_row)
        self.decide = [strategy.decisions[name] for name in engine.game.registry.decisions]

    def action(self, game: SteppedGame) -> int:
        """The action id the strategy answers at ``game``'s decision."""
        seat = game.actor
        if seat < 0:
            raise ValueError("the game is not stopped at a decision")
        decision = game.event - DECISION
        game.state["seat_params"][seat] = self.params_row
        choice = int(self.decide[decision](game.state, seat, self.params))
        return self.engine.view.action_of(decision, choice)
