"""A tour of the Python API: the runs of the command line as DataFrames (docs/guide/python-api.md).

Run it:  python docs/examples/api_tour.py
"""
import medici_sim

print(medici_sim.list_games())

# The card game: expert against greedy and two random players, seats rotated (R24).
run = medici_sim.simulate(20_000, players=4, strategies="expert,greedy,random,random", seating="rotate")
print(run.strategies[["strategy", "games", "win_rate", "win_rate_ci_low", "win_rate_ci_high", "mean_florins"]])
print(f"{run.summary['games']:,} games, seating {run.summary['seating']}, seed {run.summary['seed']}")

# The classic game: a tournament of four strategies at 4 players, rated against random.
report = medici_sim.compare(20_000, game="classic", players=4, strategies=["random", "value", "bargain", "expert"])
print(report.ratings.round(2))
print(report.strategies.set_index("strategy")[["win_rate", "mean_florins"]].round(3))

# A strategy's parameters and their defaults.
classic = medici_sim.strategies("classic").set_index("strategy")
print({name: p["default"] for name, p in classic.loc["bargain", "parameters"].items()})

# Bad options raise ValueError subclasses with the command line's one-line messages.
try:
    medici_sim.simulate(1_000, game="classic", players=2)
except ValueError as error:
    print(f"{type(error).__name__}: {error}")
