"""Agents of the frameworks as agents of ``medici_sim.tournament`` (core.agent_kernel), one line each:

    from medici_sim.frameworks.agents import openspiel_agent, pettingzoo_agent
    searcher = openspiel_agent(lambda game: mcts.MCTSBot(game, 1.4, 16, PolicyRolloutEvaluator()), name="uct")
    trained = pettingzoo_agent(policy, name="ppo")   # policy({"observation": ..., "action_mask": ...}) -> action

An OpenSpiel bot decides on the ``medici_<game>`` game's state at the decision (as
``play_with_bot`` hands it: the game as it stands, every seat open to its search); one bot is
made per seat it holds, by ``bot_factory(spiel_game)``. A PettingZoo-style policy gets the
observation dict of the AEC environment (``observation``, ``action_mask``).
"""
from __future__ import annotations

import numpy as np


class OpenSpielAgent:
    """An OpenSpiel bot (made by ``bot_factory(spiel_game)``) as a tournament agent.

    The bot is handed the game as an OpenSpiel state with its whole history: the agent keeps a
    copy of each game it sits in, started as the run starts it (its seed, game index, seating),
    and plays it on to each of its decisions as the run did (chance nodes: the engine's own
    draws; built-in seats: their strategies deciding on the copy's record, frameworks.builtins;
    Python agents' seats: their answers, ``Decision.answers``), checking that the copy is the
    run's game. What the bot writes on the state it is handed (a built-in's scratch row) stays
    with it through the game, and its draws from the game's generator (the built-in random's)
    are the run's, as a built-in's are in the kernel: a built-in as a bot (``BuiltinBot``)
    plays exactly the run's games at any seat. A
    state whose earlier moves cannot be known (a copy that is not the run's game) is the run's
    record resumed, without them (``SteppedGame.resumed``: ``from_run``)."""

    def __init__(self, bot_factory, name: str = "openspiel", returns: str | None = None):
        self.bot_factory, self.name, self.returns = bot_factory, name, returns
        self.spiel_game, self.key, self.bots = None, None, {}
        self.copies: dict[int, GameCopy | None] = {}  # by seat: the game the bot sits in there

    def reset(self, start) -> None:
        key = (start.game, start.players, start.rules)
        if key != self.key:  # the game this bot plays (made once per game, player count and rules)
            import pyspiel

            import medici_sim.openspiel  # noqa: F401  registers the games

            from ..core.registry import get_game
            from .spiel import short_name

            returns = self.returns or get_game(start.game).framework.score
            self.spiel_game = pyspiel.load_game(short_name(start.game), {"players": start.players, "rules": start.rules,
                                                                         "returns": returns})
            self.key, self.bots = key, {}
        if start.seat not in self.bots:
            self.bots[start.seat] = self.bot_factory(self.spiel_game)
        self.copies[start.seat] = GameCopy(self.spiel_game, start) if start.lineup else None

    def decide(self, decision) -> int:
        from .spiel import MediciState
        from .stepper import SteppedGame

        copy = self.copies.get(decision.seat)
        state = copy.at(decision) if copy is not None and copy.index == decision.game_index else None
        if state is None:
            self.copies[decision.seat] = None
            state = MediciState(self.spiel_game, SteppedGame.resumed(self.spiel_game.engine, decision.buffer,
                                                                     decision.event))
        g = state.stepped
        moves = len(g.history)
        action = int(self.bots[decision.seat].step(state))
        if len(g.history) != moves:
            raise ValueError("the bot made a move on the state it was handed (a bot decides on the state, or "
                             "searches on a clone)")
        if not g.from_run:  # draws from the game's generator (our random) are the game's, as in the kernel
            decision.state["rng"][:] = g.state["rng"]
        return action


class GameCopy:
    """A copy of one of a run's games, played on as the run plays it (OpenSpielAgent)."""

    IGNORED = ("step", "seat_strategy", "seat_params", "scratch")  # what seats of a copy keep for themselves

    def __init__(self, spiel_game, start):
        from ..core.seating import SEATING_MODES
        from .builtins import BuiltinPlayer
        from .spiel import MediciState
        from .stepper import SteppedGame

        e = spiel_game.engine
        game = SteppedGame(e, start.seed, start.game_index, seating=SEATING_MODES.index(start.seating))
        self.state, self.index, self.used = MediciState(spiel_game, game), start.game_index, 0
        slots = [start.lineup[int(slot)] for slot in game.state["seat_slot"][:e.players]]
        self.players = [None if s is None else BuiltinPlayer(e, s) for s in slots]

    def at(self, decision):
        """The copy played on to ``decision`` (the agents' answers as given), or None where it is
        not the run's game there."""
        state, g = self.state, self.state.stepped  # moves made on the OpenSpiel state: its history records them
        while not g.over and not (g.actor == decision.seat and self.used == len(decision.answers)):
            if g.chance:
                state.apply_action(g.natural_outcome())
            elif self.players[g.actor] is not None:
                state.apply_action(self.players[g.actor].action(g))
            elif self.used < len(decision.answers) and int(decision.answers[self.used]) in g.legal_actions():
                state.apply_action(int(decision.answers[self.used]))
                self.used += 1
            else:
                return None
        ours, theirs = g.state, decision.state
        if g.event != decision.event or any(not np.array_equal(ours[f], theirs[f]) for f in ours.dtype.names
                                            if f not in self.IGNORED):
            return None
        return self.state


class PolicyAgent:
    """A PettingZoo-style policy (``policy(observation_dict) -> action``) as a tournament agent."""

    def __init__(self, policy, name: str = "policy"):
        self.policy, self.name = policy, name

    def decide(self, decision) -> int:
        return self.policy({"observation": decision.observation, "action_mask": decision.action_mask})


def openspiel_agent(bot_factory, name: str = "openspiel", returns: str | None = None) -> OpenSpielAgent:
    """An OpenSpiel bot as a tournament agent: ``bot_factory(spiel_game)`` makes it (once per seat
    it holds); ``returns`` is the game's parameter its search maximises (None, the default: the
    game's score; ``wins``: the win credit). A value the game does not take is refused when the
    agent first sits at a table of it (OpenSpiel's game names what it takes)."""
    if returns is not None and not isinstance(returns, str):
        raise ValueError(f"returns must be the game's score's name or wins, got {returns!r}")
    return OpenSpielAgent(bot_factory, name, returns)


def pettingzoo_agent(policy, name: str = "policy") -> PolicyAgent:
    """A policy of the PettingZoo AEC environment's observations (a dict of ``observation`` and
    ``action_mask``) as a tournament agent."""
    return PolicyAgent(policy, name)
