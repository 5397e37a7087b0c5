"""The classic game's rules as data (docs/rules-classic.md, "Rule parameters"): every number a
designer may change is a rule parameter with the rulebook's value as its default (C3, C4, C8,
C9, C13-C16, C18), a range, and a refusal in one line for a spec that names no playable rule set.
Under non-default rule sets the kernel and the reference engine play the same games, and the
game's invariants hold.
"""
from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from conftest import classic_rules, run

from medici_sim.core.accounting import STAT_SCORE
from medici_sim.core.arguments import ConfigError
from medici_sim.core.driver import PreparedRun, RunConfig, seat_strategy, simulate
from medici_sim.core.registry import get_game
from medici_sim.core.rules import RulesError
from medici_sim.games.classic import reference
from medici_sim.games.classic.rules import MAX_PLAYERS, MIN_PLAYERS, RULE_BOOK
from medici_sim.games.medici.scoring import STAT_BONUS, STAT_MAJORITY, STAT_SHIP

# The rulebook's values written out by hand (C3, C4, C8, C9, C13-C16, C18).
EXPLICIT = {3: "starting_money=40,ship_payouts=30/15/0", 4: "starting_money=40,ship_payouts=30/20/10/0",
            5: "starting_money=30,ship_payouts=30/20/10/5/0", 6: "starting_money=30,ship_payouts=30/20/15/10/5/0"}
COMMON = ("days=3,ship_holds=5,lot_size=3,min_bid=1,share_coin=1,majority_payouts=10/5,track_max=7,"
          "track_bonus=0/0/0/0/0/5/10/20")


def config(players: int, spec: str | None, games: int = 1, names: tuple[str, ...] | None = None,
           seating: str = "rotate", seed: int = 5) -> RunConfig:
    names = names or ("random",) * players
    return RunConfig(components=None, game="classic", players=players, games=games, seed=seed, seating=seating,
                     rules=spec, threads=1, strategies=tuple(seat_strategy(n, game="classic") for n in names))


def test_the_parameters_and_their_defaults():
    assert RULE_BOOK.names == ("days", "starting_money", "ship_holds", "lot_size", "min_bid", "ship_payouts",
                               "share_coin", "majority_payouts", "track_max", "track_bonus")
    assert tuple(RULE_BOOK.presets) == ("standard",)  # the rulebook describes no variant
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        rules = classic_rules(players)
        assert rules.spec == "standard"
        assert rules["starting_money"] == (40 if players <= 4 else 30)  # C4
        assert len(rules["ship_payouts"]) == players  # C13
        assert (rules["days"], rules["ship_holds"], rules["lot_size"], rules["min_bid"]) == (3, 5, 3, 1)
        assert rules["track_bonus"] == (0, 0, 0, 0, 0, 5, 10, 20)  # C16
    points = {row["name"]: row["point"] for row in classic_rules(4).table()}
    assert points == {"days": "C18", "starting_money": "C4", "ship_holds": "C3", "lot_size": "C8", "min_bid": "C9",
                      "ship_payouts": "C13", "share_coin": "C13", "majority_payouts": "C15", "track_max": "C14",
                      "track_bonus": "C16"}


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_explicit_defaults_are_the_standard_rules(players):
    spec = f"{COMMON},{EXPLICIT[players]}"
    assert RULE_BOOK.resolve(spec, players) == classic_rules(players)
    assert config(players, spec).rules == config(players, None).rules == "standard"


def test_explicit_defaults_play_the_default_run():
    """The rulebook's values written out (C3-C18) give exactly the default run's tables."""
    ours = simulate(config(4, f"{COMMON},{EXPLICIT[4]}", games=300)).totals
    theirs = simulate(config(4, None, games=300)).totals
    for name in ("seat", "slot", "pairs", "run"):
        assert np.array_equal(getattr(ours, name), getattr(theirs, name)), name


@pytest.mark.parametrize("param", RULE_BOOK.params, ids=lambda p: p.name)
def test_each_range_is_enforced(param):
    """Each parameter's every value lies in its range: the ends play, one past them is refused."""
    players = 6
    # a lot of 8 cards needs ships of 8 holds, and ships of 1 hold lots of 1 (C8)
    base = {"lot_size": "ship_holds=8", "ship_holds": "lot_size=1"}.get(param.name, "")

    def spec(number: int) -> str:
        if param.length is None:
            value = str(number)
        else:
            length = param.length(players, RULE_BOOK.defaults(players))
            value = "/".join([str(number)] * length)
        return ",".join(filter(None, (base, f"{param.name}={value}")))

    for number in (param.low, param.high):
        extra = ",track_bonus=" + "/".join(["0"] * (number + 1)) if param.name == "track_max" else ""
        value = RULE_BOOK.resolve(spec(number) + extra, players)[param.name]
        assert set(value if isinstance(value, tuple) else (value,)) == {number}
    for number in (param.low - 1, param.high + 1):
        with pytest.raises(RulesError, match="out of range"):
            RULE_BOOK.resolve(spec(number), players)


@pytest.mark.parametrize("spec,message", [
    ("holds=6", "unknown rule 'holds' in the classic game; did you mean ship_holds?"),
    ("ship_capacity=6", "ship_capacity is a rule of the card game, not of the classic game"),
    ("bonus20", "bonus20 is a rule of the card game"),
    ("days=0", "days=0 is out of range: each value 1-5 (C18)"),
    ("min_bid=0", "min_bid=0 is out of range"),
    ("ship_payouts=30/20/10", "ship_payouts needs 4 values at 4 players (one per place, C13), got 3"),
    ("track_max=5", "track_bonus needs 6 values at 4 players (one per level 0..track_max, C16), got 8"),
    ("majority_payouts=10", "majority_payouts needs 2 values"),
    ("days=2/3", "days is one number (C18)"),
    ("lot_size=6", "lot_size=6 can never be reached: a lot grows only while some ship has room for it (C8)"),
    ("days=two", "days='two' is not a whole number"),
])
def test_bad_specs_are_refused_in_one_line(capsys, spec, message):
    with pytest.raises(ConfigError) as refused:
        config(4, spec)
    assert message in str(refused.value) and "\n" not in str(refused.value)
    code, out, err = run(capsys, "--game", "classic", "-p", "4", "-n", "10", "--rules", spec, "-q")
    assert code == 2 and not out and message in err and err.count("\n") == 1, err


# Non-default rule sets, each with a player count and a lineup of the reference's strategies.
RULE_SETS = [
    ("days=1", 3, ("random", "value", "bargain")),
    ("days=5,starting_money=20", 5, ("random", "collector", "value", "bargain", "random")),
    ("ship_payouts=50/25/10/0,share_coin=5,majority_payouts=20/0", 4, ("collector", "value", "bargain", "random")),
    ("track_max=5,track_bonus=0/0/0/5/10/20", 4, ("collector", "collector", "random", "bargain")),
    ("track_max=10,track_bonus=0/0/0/0/0/5/10/20/30/40/50", 6, ("collector", "random") * 3),
    ("ship_holds=8,lot_size=5", 3, ("random", "collector", "value")),
    ("ship_holds=3,lot_size=2", 6, ("random", "bargain", "value", "collector", "random", "random")),
    ("min_bid=6,lot_size=1,starting_money=100", 4, ("random", "value", "collector", "bargain")),
    ("starting_money=0", 4, ("random", "value", "collector", "bargain")),
]
GAMES_PER_SET = 40  # 9 rule sets x 40 = 360 games in both engines


@cache
def kernel(spec: str, players: int, names: tuple[str, ...]) -> PreparedRun:
    return PreparedRun(config(players, spec, names=names, seed=77))


@pytest.mark.parametrize("spec,players,names", RULE_SETS, ids=[s for s, _, _ in RULE_SETS])
def test_the_engines_play_the_same_games_under_other_rules(spec, players, names):
    """Days (C18), payouts (C13, C15), tracks (C14, C16), money (C4), holds (C3), lots (C8) and
    the lowest bid (C9) as the rule set says: the kernel's game is the reference engine's, and
    every invariant of a classic game holds (cards, holds, tracks, money conserved)."""
    game = get_game("classic")
    run_config = kernel(spec, players, names).config
    rules = run_config.rule_set
    assert rules.spec != "standard"
    bought = 0
    for game_index in range(GAMES_PER_SET):
        ours = kernel(spec, players, names).trace(game_index).record()
        theirs = reference.play_game(rules, list(names), 77, game_index, "rotate")
        assert set(ours) == set(theirs)
        for key, expected in theirs.items():
            same = (all(np.array_equal(a, b) for a, b in zip(ours[key], expected, strict=True))
                    if isinstance(expected, list) else np.array_equal(ours[key], expected))
            assert same, f"{key} differs under {spec} in game {game_index}"
        game.engine.invariants(ours, run_config)
        assert len(ours["money"]) == rules["days"]
        lots = [t.lot for day in ours["lots"] for t in reference.turn_records(day)]
        assert max(map(len, lots)) <= rules["lot_size"]  # C8
        prices = [t.price for day in ours["lots"] for t in reference.turn_records(day) if t.winner >= 0]
        assert all(price >= rules["min_bid"] for price in prices)  # C9
        bought += len(prices)
    assert bought > 0


def test_the_kernels_totals_follow_the_rules():
    """Five days (C18) and other money (C4): the run's totals are the reference games' sums."""
    spec, players, names = "days=5,starting_money=20", 5, ("random", "collector", "value", "bargain", "random")
    result = simulate(config(players, spec, games=GAMES_PER_SET, names=names, seed=77))
    totals = np.zeros((players, 4), np.int64)
    for game_index in range(GAMES_PER_SET):
        rec = reference.play_game(classic_rules(players, spec), list(names), 77, game_index, "rotate")
        totals += np.stack([rec["money"][-1], rec["ship_pay"].sum(0), rec["majority_pay"].sum(0),
                            rec["bonus_pay"].sum(0)], axis=1)
    assert np.array_equal(result.totals.seat[:, [STAT_SCORE, STAT_SHIP, STAT_MAJORITY, STAT_BONUS]], totals)
