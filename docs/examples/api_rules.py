"""Rule sets in the Python API: rules=, balance's vs, sweep and design (docs/guide/python-api.md).

Run it:  python docs/examples/api_rules.py   (design needs optuna: pip install ".[design]")
"""
import medici_sim

lineup = "greedy,collector,random"

# Every function plays other rules with rules= (the command line's --rules): presets and name=value items.
table = medici_sim.rules(players=3, rules="bonus20,big_bonus=30").set_index("name")
print(table.loc[["big_bonus_min", "big_bonus"], ["value", "default"]])

# balance: rules= against vs=, on the same games. Give one and the other follows it: the game's
# variant (bonus20), or its standard rules where the one given is the variant.
report = medici_sim.balance(20_000, players=3, strategies=lineup, rules="bonus20")
print(report.verdict)

# A change that cannot act under the rules in force is refused before any game, naming its switch.
try:
    medici_sim.balance(1_000, players=3, strategies=lineup, vs="big_bonus=30")
except ValueError as error:
    print(f"{type(error).__name__}: {error}")

# sweep: a tournament at every point of a rule's range, every point on the same games.
swept = medici_sim.sweep("ship_capacity=4..6", 5_000, players=3, strategies=lineup)
print(swept.points[["ship_capacity", "seat1_win_rate", "strategy_spread"]].round(3))

# design: which values in a box best meet a target (optuna's search, then a check on fresh games).
answer = medici_sim.design("bonus=5..20:5", "strategies", trials=6, games=2_000, fresh_games=5_000, players=3,
                           strategies=lineup)
print(answer.verdict)
