"""The jitted classic engine and the classic reference engine play the same games.

For every (seed, game index) both engines must produce identical records: each day's
removed cards (C5), the turn log (lots, everyone asked and their bids, winners, prices,
free cards: C8-C11), where every card is, ship cards and values, each kind of payout
(C13-C16), tracks, money, starting players (C6), C12 days, the C21 totals and the winners
(C18). The two share only the generator and the rule data (docs/protocol-classic.md).

Then the statistics: the kernel's accumulated totals over a run (``simulate``, several
threads and batches) equal the sums computed from the reference engine's records of the
same games, column for column.
"""
from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest
from conftest import classic_rules
from metrics_reference import add_game_metrics, classic_decisions

from medici_sim.core.accounting import (
    N_COMMON_RUN_STATS,
    RUN_GAMES,
    RUN_WIN_MARGIN,
    STAT_GAMES,
    STAT_OUTRIGHT,
    STAT_SCORE,
    STAT_SCORE_SQ,
    STAT_SHARED,
    STAT_WIN60,
    STAT_WIN60_SQ,
)
from medici_sim.core.driver import PreparedRun, RunConfig, seat_strategy, simulate
from medici_sim.core.registry import get_game
from medici_sim.games.classic import engine, reference
from medici_sim.games.medici.scoring import N_COMMON_STATS, STAT_BONUS, STAT_MAJORITY, STAT_SHIP

SEATINGS = ("fixed", "rotate", "random")
CASES = list(itertools.product(range(3, 7), SEATINGS))
GAMES_PER_CASE = 200  # 4 player counts x 3 seatings x 200 = 2,400 games


@cache
def kernel(players: int, seating: str, seed: int, strategies: tuple[str, ...] | None = None) -> PreparedRun:
    names = strategies or ("random",) * players
    slots = tuple(seat_strategy(name, game="classic") for name in names)
    return PreparedRun(RunConfig(components=None, game="classic", players=players, strategies=slots, games=1, seed=seed,
                            seating=seating, threads=1))


@cache
def mixed_kernel(players: int, seating: str, seed: int, strategies: tuple[str, ...],
                 params: tuple[tuple, ...]) -> PreparedRun:
    slots = tuple(seat_strategy(name, game="classic", **dict(p)) for name, p in zip(strategies, params, strict=True))
    return PreparedRun(RunConfig(components=None, game="classic", players=players, strategies=slots, games=1, seed=seed,
                            seating=seating, threads=1))


def assert_same_game(players: int, seating: str, seed: int, game_index: int,
                     strategies: tuple[str, ...] | None = None, params: tuple[tuple, ...] | None = None) -> dict:
    """One game in both engines, compared field by field. ``strategies`` and ``params`` are
    per slot (``params[slot]`` a tuple of (name, value) pairs); the default is all random."""
    if strategies is None:
        ours = kernel(players, seating, seed).trace(game_index).record()
        theirs = reference.play_game(classic_rules(players), ["random"] * players, seed, game_index, seating)
    else:
        ours = mixed_kernel(players, seating, seed, strategies, params).trace(game_index).record()
        theirs = reference.play_game(classic_rules(players), list(strategies), seed, game_index, seating,
                                     params=[dict(p) for p in params])
    assert set(ours) == set(theirs)
    where = f"players={players} seating={seating} seed={seed} game={game_index} strategies={strategies}"
    for day in range(3):
        a, b = ours["lots"][day], theirs["lots"][day]
        if not np.array_equal(a, b):
            turns = list(zip(reference.turn_records(a), reference.turn_records(b), strict=False))
            first = next((k for k, (x, y) in enumerate(turns) if x != y), len(turns))
            detail = turns[first] if first < len(turns) else "(one log is longer)"
            raise AssertionError(f"turn log of day {day + 1} differs at turn {first}: {where}\n"
                                 f"kernel, reference: {detail}")
    for key, expected in theirs.items():
        if key != "lots":
            assert np.array_equal(ours[key], expected), (
                f"{key} differs: {where}\nkernel:\n{ours[key]}\nreference:\n{expected}")
    return theirs


@pytest.mark.parametrize("players,seating", CASES)
def test_random_games_identical(players, seating):
    seed = 1_000 * players + len(seating)
    # game indices far apart and near 2**40 as well as small ones
    indices = [i for i in range(GAMES_PER_CASE // 2)] + [(1 << 40) + 7919 * i for i in range(GAMES_PER_CASE // 2)]
    ran_out = free = discarded = shared = 0
    for game_index in indices:
        record = assert_same_game(players, seating, seed, game_index)
        ran_out += record["ran_out"].sum()
        free += record["free_cards"].sum()
        discarded += record["lots_discarded"].sum()
        shared += (record["winner_share60"] % 60 != 0).any()
    # the games compared reach the rules' corners: C11, C12, discards (C10) and shared wins (C18)
    assert free > 0 and discarded > 0
    if players >= 4:  # with 3 players the deck holds 18 cards for 15 holds: C12 is rare
        assert ran_out > 0
    assert shared > 0


@pytest.mark.parametrize("seed", [0, 1, 2**31 - 1, 2**63 - 1, 123_456_789_012])
def test_extreme_seeds_identical(seed):
    for players in range(3, 7):
        for game_index in (0, 1, 10**12, 10**15 - 1):
            assert_same_game(players, "random", seed, game_index)


def test_strategy_slots_follow_the_seating():
    """Traced seat_slot and the per-seat money agree with the reference in every seating."""
    for seating in SEATINGS:
        for game_index in range(5):
            ours = kernel(5, seating, 9).trace(game_index)
            theirs = reference.play_game(classic_rules(5), ["random"] * 5, 9, game_index, seating)
            assert ours.seat_slot.tolist() == theirs["seat_slot"].tolist()


# -- the heuristic strategies (value, collector, bargain) against the reference's ----------------

# Non-default parameters (each differs from its default), as (name, value) pairs per slot.
VALUE_ALT = (("per_point", 0.9), ("per_card", 0.5), ("draw_below", 3.0))
COLLECTOR_ALT = (("focus", 1.0), ("track_weight", 0.4), ("level_worth", 1.5), ("future_weight", 0.8),
                 ("value_weight", 0.35), ("other_weight", 0.5))
BARGAIN_ALT = (("per_point", 1.5), ("per_card", 2.0), ("discount", 0.8), ("reserve", 4.0), ("wait_ships", 3.0),
               ("draw_below", 3.5))
MIXES = {  # per player count: strategy and parameters of each slot (defaults and alternatives mixed)
    3: (("value", VALUE_ALT), ("collector", ()), ("bargain", BARGAIN_ALT)),
    4: (("random", ()), ("collector", COLLECTOR_ALT), ("bargain", ()), ("value", ())),
    5: (("bargain", BARGAIN_ALT), ("value", ()), ("collector", COLLECTOR_ALT), ("random", ()), ("bargain", ())),
    6: (("collector", ()), ("value", VALUE_ALT), ("bargain", BARGAIN_ALT), ("collector", COLLECTOR_ALT),
        ("random", ()), ("value", ())),
}
MIXED_GAMES_PER_CASE = 60  # 4 player counts x 3 seatings x 60 = 720 games


@pytest.mark.parametrize("players,seating", CASES)
def test_mixed_strategy_games_identical(players, seating):
    """The kernel's value, collector and bargain decide exactly as the reference's, with
    default and other parameters, among each other and random, in every seating."""
    names = tuple(name for name, _ in MIXES[players])
    params = tuple(p for _, p in MIXES[players])
    seed = 500 + 10 * players + len(seating)
    half = MIXED_GAMES_PER_CASE // 2
    indices = list(range(half)) + [(1 << 33) + 104_729 * i for i in range(half)]
    bought = np.zeros(players, np.int64)
    free = discarded = 0
    for game_index in indices:
        record = assert_same_game(players, seating, seed, game_index, names, params)
        for seat in range(players):
            bought[record["seat_slot"][seat]] += record["lots_bought"][seat]
        free += record["free_cards"].sum()
        discarded += record["lots_discarded"].sum()
    # every slot's strategy bought lots (its bids were compared, not only its passes); C10 and C11 happened
    assert (bought > 0).all(), bought
    assert free > 0 and discarded > 0


def test_reference_strategies_have_the_kernels_defaults():
    """The reference's parameter defaults are the registered ones, name for name, in order."""
    for name, cls in reference.STRATEGIES.items():
        registered = get_game("classic").registry[name].params
        assert list(cls.PARAMS) == list(registered), name
        assert all(cls.PARAMS[k] == registered[k].default for k in registered), name


# -- statistics -------------------------------------------------------------------------------------

def reference_totals(players: int, seating: str, seed: int, games: int) -> dict[str, np.ndarray]:
    """The run's totals (seat, slot, pairs, pair_diff_sq, run), summed from the reference's records."""
    game = get_game("classic")
    n_stats = N_COMMON_STATS + len(game.engine.stat_columns)
    seat = np.zeros((players, n_stats), np.int64)
    slot = np.zeros((players, n_stats), np.int64)
    pairs = np.zeros((players, players), np.int64)
    diff_sq = np.zeros((players, players), np.int64)
    run = np.zeros(N_COMMON_RUN_STATS + len(game.engine.run_columns), np.int64)
    for game_index in range(games):
        rec = reference.play_game(classic_rules(players), ["random"] * players, seed, game_index, seating)
        money = rec["money"][-1]
        share = rec["winner_share60"]
        winners = int((share > 0).sum())
        run[RUN_GAMES] += 1
        if winners == 1:
            run[RUN_WIN_MARGIN] += money.max() - np.sort(money)[-2]
        run[N_COMMON_RUN_STATS] += rec["ran_out"].sum()  # ran_out_days (C12)
        decisions = classic_decisions(rec, players)
        add_game_metrics(run, seat, slot, rec["money"], rec["seat_slot"], decisions[:, 0].sum())  # designer metrics
        for a in range(players):
            for b in range(players):
                if a != b:
                    points = 2 * (money[a] > money[b]) + (money[a] == money[b])
                    pairs[rec["seat_slot"][a], rec["seat_slot"][b]] += points
                    diff_sq[rec["seat_slot"][a], rec["seat_slot"][b]] += (share[a] - share[b]) ** 2
        for s in range(players):
            row = np.zeros(n_stats, np.int64)
            row[STAT_GAMES] = 1
            row[STAT_WIN60] = share[s]
            row[STAT_WIN60_SQ] = share[s] ** 2
            row[STAT_OUTRIGHT] = share[s] == 60
            row[STAT_SHARED] = 0 < share[s] < 60
            row[STAT_SCORE] = money[s]
            row[STAT_SCORE_SQ] = money[s] ** 2
            row[STAT_SHIP] = rec["ship_pay"][:, s].sum()
            row[STAT_MAJORITY] = rec["majority_pay"][:, s].sum()
            row[STAT_BONUS] = rec["bonus_pay"][:, s].sum()
            row[engine.STAT_SPENT] = rec["spent"][s]
            row[engine.STAT_LOTS_BOUGHT] = rec["lots_bought"][s]
            row[engine.STAT_CARDS_BOUGHT] = rec["cards_bought"][s]
            row[engine.STAT_LOTS_DISCARDED] = rec["lots_discarded"][s]
            row[engine.STAT_FREE_CARDS] = rec["free_cards"][s]
            row[engine.STAT_PRICE_SPENT] = rec["spent"][s]
            row[engine.STAT_DECIDED:engine.STAT_PRICE_PER_FACE] = decisions[s]
            row[engine.STAT_PRICE_PER_FACE] = rec["spent"][s]
            seat[s] += row
            slot[rec["seat_slot"][s]] += row
    return {"seat": seat, "slot": slot, "pairs": pairs, "pair_diff_sq": diff_sq, "run": run}


@pytest.mark.parametrize("players,seating,games", [(3, "random", 300), (4, "rotate", 500),
                                                   (5, "fixed", 300), (6, "random", 500)])
def test_statistics_equal_the_reference_sums(players, seating, games):
    """1,600 games in all: every per-seat, per-slot, pair and run total is exact."""
    seed = 31 + players
    slots = tuple(seat_strategy("random", game="classic") for _ in range(players))
    config = RunConfig(components=None, game="classic", players=players, strategies=slots, games=games, seed=seed,
                       seating=seating, threads=2)
    result = simulate(config, batch_size=games // 3 + 1)  # several batches, two chunks each
    expected = reference_totals(players, seating, seed, games)
    columns = [c.name for c in get_game("classic").engine.stat_columns]
    for name, want in expected.items():
        got = getattr(result.totals, name)
        assert got.shape == want.shape, name
        if not np.array_equal(got, want):
            bad = np.argwhere(got != want)[0]
            col = bad[-1] - N_COMMON_STATS if name in ("seat", "slot") else None
            label = columns[col] if col is not None and col >= 0 else f"index {tuple(bad)}"
            raise AssertionError(f"{name} totals differ at {label}:\nkernel\n{got}\nreference\n{want}")
    assert result.totals.games == games
    assert expected["run"][N_COMMON_RUN_STATS] > 0 or players == 3
