"""Agents of the frameworks as agents of ``medici_sim.tournament`` (core.agent_kernel), one line each:

    from medici_sim.frameworks.agents import openspiel_agent, pettingzoo_agent
    searcher = openspiel_agent(lambda game: mcts.MCTSBot(game, 1.4, 16, PolicyRolloutEvaluator("expert")), name="mcts")
    trained = pettingzoo_agent(policy, name="ppo")   # policy({"observation": ..., "action_mask": ...}) -> action

An OpenSpiel bot decides on the ``medici_<game>`` game's state at the decision (as
``play_with_bot`` hands it: the game as it stands, every seat open to its search); one bot is
made per seat it holds, by ``bot_factory(spiel_game)``. A PettingZoo-style policy gets the
observation dict of the AEC environment (``observation``, ``action_mask``).
"""
from __future__ import annotations


class OpenSpielAgent:
    """An OpenSpiel bot (made by ``bot_factory(spiel_game)``) as a tournament agent."""

    def __init__(self, bot_factory, name: str = "openspiel", returns: str = "florins"):
        self.bot_factory, self.name, self.returns = bot_factory, name, returns
        self.spiel_game, self.key, self.bots = None, None, {}

    def reset(self, start) -> None:
        key = (start.game, start.players, start.rules)
        if key != self.key:  # the game this bot plays (made once per game, player count and rules)
            import pyspiel

            import medici_sim.openspiel  # noqa: F401  registers the games

            from .spiel import short_name

            self.spiel_game = pyspiel.load_game(short_name(start.game), {"players": start.players, "rules": start.rules,
                                                                         "returns": self.returns})
            self.key, self.bots = key, {}
        if start.seat not in self.bots:
            self.bots[start.seat] = self.bot_factory(self.spiel_game)

    def decide(self, decision) -> int:
        from .spiel import MediciState
        from .stepper import SteppedGame

        state = MediciState(self.spiel_game, SteppedGame.resumed(self.spiel_game.engine, decision.buffer,
                                                                 decision.event))
        return int(self.bots[decision.seat].step(state))


class PolicyAgent:
    """A PettingZoo-style policy (``policy(observation_dict) -> action``) as a tournament agent."""

    def __init__(self, policy, name: str = "policy"):
        self.policy, self.name = policy, name

    def decide(self, decision) -> int:
        return self.policy({"observation": decision.observation, "action_mask": decision.action_mask})


def openspiel_agent(bot_factory, name: str = "openspiel", returns: str = "florins") -> OpenSpielAgent:
    """An OpenSpiel bot as a tournament agent: ``bot_factory(spiel_game)`` makes it (once per seat
    it holds); ``returns`` is the game's parameter its search maximises (``florins``, ``wins``)."""
    if returns not in ("florins", "wins"):
        raise ValueError(f"returns must be one of florins, wins, got {returns!r}")
    return OpenSpielAgent(bot_factory, name, returns)


def pettingzoo_agent(policy, name: str = "policy") -> PolicyAgent:
    """A policy of the PettingZoo AEC environment's observations (a dict of ``observation`` and
    ``action_mask``) as a tournament agent."""
    return PolicyAgent(policy, name)
