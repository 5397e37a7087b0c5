"""Python agents in a tournament with the built-in strategies (docs/guide/python-api.md):
compare's rotated, paired tournament, tables and ratings, with two small Python agents.

Run it:  python docs/examples/agent_tournament.py
"""
import numpy as np

import medici_sim


class Coin:
    """A Python agent: a legal action at random, from its own generator, seeded per game."""

    name = "coin"

    def reset(self, start):  # before each game: its seat, the game index and the seed
        self.rng = np.random.default_rng([start.seed, start.game_index, start.seat])

    def __call__(self, observation, legal_actions):
        return int(self.rng.choice(legal_actions))


def most(observation, legal_actions):
    """A Python agent as a function: always the highest action id (the card game: take the most cards)."""
    return legal_actions[-1]


report = medici_sim.tournament(["expert", "greedy", Coin(), most], games=800, game="card", players=4, seed=1)
print(report.strategies[["strategy", "games", "win_rate", "win_rate_ci_low", "win_rate_ci_high"]].round(3))
print(report.ratings[["strategy", "rating", "rating_ci_low", "rating_ci_high"]].round(2))

# An agent that breaks the rules stops the tournament with one line naming it, the game and the seat.
try:
    medici_sim.tournament({"expert": "expert", "cheat": lambda observation, legal_actions: 99}, games=8,
                          game="card", players=2)
except medici_sim.AgentError as error:
    print(f"AgentError: {error}")
