"""The jitted classic engine on its own: invariants over many games, what strategies see,
illegal bids, determinism, the statistics table, and one compiled kernel for every mix.

The invariants replay each traced day's turn log independently of both engines (C3-C18).
"""
from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from medici_sim.core.accounting import N_COMMON_RUN_STATS, STAT_SCORE
from medici_sim.core.dispatch import strategy_table
from medici_sim.core.driver import IllegalDecision, PreparedRun, RunConfig, Totals, seat_strategy, simulate
from medici_sim.core.registry import Param, Strategy, StrategyRegistry, get_game
from medici_sim.core.rng import below_nb, coin_nb
from medici_sim.core.stats import strategy_columns, strategy_frame
from medici_sim.games.classic import engine, rules
from medici_sim.games.classic.reference import turn_records
from medici_sim.games.classic.state import (
    AUCTIONEER,
    DECISIONS,
    DECK_LEN,
    GOLD_ROW,
    HIGH_BIDDER,
    HIGHEST,
    LOC_DECK,
    LOC_DISCARDED,
    LOC_REMOVED,
    LOC_SHIP,
    LOT_LEN,
    LOT_VALUE,
    MAX_FREE,
    OPEN_SHIPS,
    UNSEEN,
    UNSEEN_BY_VALUE,
    UNSEEN_CARDS,
    UNSEEN_VALUE,
    bid_order_nb,
    free_holds_nb,
    is_open_nb,
    may_bid_nb,
    may_draw_nb,
    players_nb,
    unseen_cards_nb,
)
from medici_sim.games.classic.strategies import REGISTRY

GAME = get_game("classic")
HOLDS = rules.HOLDS


@cache
def kernel(players: int, seating: str = "random", seed: int = 5) -> PreparedRun:
    slots = tuple(seat_strategy("random", game="classic") for _ in range(players))
    return PreparedRun(RunConfig(components=None, game="classic", players=players, strategies=slots, games=1, seed=seed,
                            seating=seating, threads=1))


# -- invariants over many traced games -------------------------------------------------------------

def check_game(players: int, t) -> dict:
    """Replay a traced game's turn logs and check every rule the log shows (C3-C18)."""
    value = rules.CARD_VALUE
    good_of = rules.CARD_GOOD
    money = [rules.starting_money(players)] * players
    track = np.zeros((players, rules.N_GOODS), np.int64)
    spent = np.zeros(players, np.int64)
    seen = {"free": 0, "discards": 0, "ran_out": 0}
    for day in range(rules.DAYS):
        if day == 0:
            assert t.starter[0] == 0  # C6
        else:
            assert money[t.starter[day]] == min(money)  # C6: the fewest florins start
        ships: list[list[int]] = [[] for _ in range(players)]
        discarded: list[int] = []
        deck = 6 * players  # C5
        turns = turn_records(t.lots[day])
        for k, turn in enumerate(turns):
            a = turn.auctioneer
            assert len(ships[a]) < HOLDS and deck > 0  # C7, C12
            lot_len = len(turn.lot)
            assert 1 <= lot_len <= rules.MAX_LOT  # C8
            most_free = max(HOLDS - len(s) for s in ships)
            assert lot_len == 1 or most_free >= lot_len  # C8: someone could buy it
            order = [(a + step) % players for step in range(1, players + 1)]
            asked = dict(turn.bids)
            assert [s for s, _ in turn.bids] == [s for s in order if s in asked]  # C9: clockwise, auctioneer last
            highest, bidder = 0, -1
            for seat in order:
                eligible = HOLDS - len(ships[seat]) >= lot_len and money[seat] > highest
                assert eligible == (seat in asked), (seat, eligible)  # C9: asked exactly when it may bid
                if seat in asked and asked[seat] != 0:
                    assert highest < asked[seat] <= money[seat]  # C9, C4
                    highest, bidder = asked[seat], seat
            assert (turn.winner, turn.price) == (bidder, highest)  # C10
            deck -= lot_len
            if bidder >= 0:
                money[bidder] -= highest
                spent[bidder] += highest
                ships[bidder] += list(turn.lot)
                assert len(ships[bidder]) <= HOLDS
            else:
                discarded += list(turn.lot)
                seen["discards"] += 1
            open_seats = [s for s in range(players) if len(ships[s]) < HOLDS]
            if bidder >= 0 and len(open_seats) == 1:  # C11
                assert turn.free_seat == open_seats[0]
                assert len(turn.free) == min(HOLDS - len(ships[turn.free_seat]), deck)
                ships[turn.free_seat] += list(turn.free)
                deck -= len(turn.free)
                seen["free"] += len(turn.free)
                assert k == len(turns) - 1  # the day ends
            else:
                assert (turn.free_seat, turn.free) == (-1, ())
        if t.ran_out[day]:  # C12
            assert deck == 0 and turns[-1].free_seat == -1
            seen["ran_out"] += 1
        else:
            assert turns[-1].free_seat >= 0
        assert min(money) >= 0  # C4: never negative
        # ships, card locations (C5, C10: every card in exactly one place)
        for seat in range(players):
            cards = t.ship_cards[day, seat]
            assert cards[: len(ships[seat])].tolist() == ships[seat] and (cards[len(ships[seat]):] == -1).all()
            assert t.ship_value[day, seat] == sum(value[c] for c in ships[seat])  # C13
        location = t.card_location[day]
        assert (location >= 0).all()
        assert (location == LOC_DECK).sum() == deck
        assert sorted(np.flatnonzero(location == LOC_REMOVED)) == sorted(t.removed[day].tolist())
        assert len(t.removed[day]) == rules.removed_cards(players)
        assert sorted(np.flatnonzero(location == LOC_DISCARDED)) == sorted(discarded)
        for seat in range(players):
            assert sorted(np.flatnonzero(location == LOC_SHIP + seat)) == sorted(ships[seat])
        # scoring: tracks (C14), payouts add up (C13, C15, C16)
        for seat in range(players):
            for good in range(rules.N_GOODS):
                track[seat, good] = min(7, track[seat, good] + sum(good_of[c] == good for c in ships[seat]))
        assert np.array_equal(t.track[day], track) and (track <= 7).all()
        assert t.ship_pay[day].sum() <= sum(rules.SHIP_PAYOUTS[players])
        assert t.majority_pay[day].sum() <= 15 * rules.N_GOODS
        paid = t.ship_pay[day] + t.majority_pay[day] + t.bonus_pay[day]
        money = [m + int(p) for m, p in zip(money, paid, strict=True)]
        assert t.money[day].tolist() == money
    # money is conserved: start - spent + payouts (C4, C10, C13-C16)
    payouts = (t.ship_pay + t.majority_pay + t.bonus_pay).sum()
    assert sum(money) == rules.starting_money(players) * players - spent.sum() + payouts
    assert np.array_equal(t.spent, spent)
    assert (np.array(money) >= 0).all()
    best = max(money)  # C18
    assert t.winner_share60.tolist() == [60 // money.count(best) if m == best else 0 for m in money]
    return seen


@pytest.mark.parametrize("players", range(3, 7))
def test_invariants_over_many_games(players):
    totals = {"free": 0, "discards": 0, "ran_out": 0}
    for game_index in range(400):
        for key, n in check_game(players, kernel(players).trace(game_index)).items():
            totals[key] += n
    assert totals["free"] > 0 and totals["discards"] > 0
    assert totals["ran_out"] > 0 or players == 3


# -- what strategies see, and illegal bids: a registry of test strategies -----------------------------

@njit(cache=True)
def check_state_nb(state):
    """Everything state.py documents, recomputed from the engine's own fields."""
    players = players_nb(state)
    deck_len = state.counts[DECK_LEN]
    removed = state.rules[rules.RULE_REMOVED]
    composition = np.zeros(state.unseen.shape, np.int64)
    for i in range(deck_len + removed):
        card = state.deck[i] if i < deck_len else state.removed[i - deck_len]
        row = state.card_row[card]
        composition[row, UNSEEN_CARDS] += 1
        composition[row, UNSEEN_VALUE] += state.card_value[card]
        composition[row, UNSEEN_BY_VALUE + state.card_value[card]] += 1
    if unseen_cards_nb(state) != deck_len + removed or state.counts[UNSEEN] != deck_len + removed:
        raise ValueError("probe: counts[UNSEEN]")
    for r in range(composition.shape[0]):
        for c in range(composition.shape[1]):
            if composition[r, c] != state.unseen[r, c]:
                raise ValueError("probe: unseen")
    lot_value = 0
    for i in range(state.counts[LOT_LEN]):
        lot_value += state.card_value[state.lot[i]]
    if lot_value != state.counts[LOT_VALUE] or not 1 <= state.counts[LOT_LEN] <= 3:
        raise ValueError("probe: lot")
    open_ships = 0
    max_free = 0
    for p in range(players):
        open_ships += is_open_nb(state, p)
        max_free = max(max_free, free_holds_nb(state, p))
        value = 0
        goods = np.zeros(rules.N_GOODS, np.int64)
        for i in range(state.ship_len[p]):
            card = state.ship[p, i]
            value += state.card_value[card]
            if state.card_good[card] >= 0:
                goods[state.card_good[card]] += 1
        if value != state.ship_value[p]:
            raise ValueError("probe: ship_value")
        for g in range(rules.N_GOODS):
            if goods[g] != state.ship_goods[p, g] or state.track[p, g] > 7:
                raise ValueError("probe: ship_goods or track")
        if state.money[p] < 0:
            raise ValueError("probe: money")
    if open_ships != state.counts[OPEN_SHIPS] or max_free != state.counts[MAX_FREE] or open_ships < 2:
        raise ValueError("probe: open ships")
    highest = 0
    bidder = -1
    for order in range(players):
        seat = (state.counts[AUCTIONEER] + 1 + order) % players
        if bid_order_nb(state, seat) != order:
            raise ValueError("probe: bid_order_nb")
        if state.turn_bid[seat] > 0:
            if state.turn_bid[seat] <= highest:
                raise ValueError("probe: turn_bid")
            highest = state.turn_bid[seat]
            bidder = seat
    if highest != state.counts[HIGHEST] or bidder != state.counts[HIGH_BIDDER]:
        raise ValueError("probe: highest")
    if not GOLD_ROW == rules.N_GOODS:
        raise ValueError("probe: gold row")


@njit(cache=True)
def probe_draw_nb(state, seat, params):
    check_state_nb(state)
    if seat != state.counts[AUCTIONEER] or not may_draw_nb(state) or not is_open_nb(state, seat):
        raise ValueError("probe: asked to draw when C8 forbids it")
    return coin_nb(state.rng)  # as random (C19)


@njit(cache=True)
def probe_bid_nb(state, seat, params):
    check_state_nb(state)
    if not may_bid_nb(state, seat) or state.turn_bid[seat] != -1:
        raise ValueError("probe: asked to bid when C9 forbids it")
    for other in range(players_nb(state)):  # nobody after this seat has spoken yet
        if bid_order_nb(state, other) > bid_order_nb(state, seat) and state.turn_bid[other] != -1:
            raise ValueError("probe: bidding order")
    if not coin_nb(state.rng):  # as random (C19)
        return 0
    highest = state.counts[HIGHEST]
    top = min(state.money[seat], highest + 10)
    return highest + 1 + below_nb(state.rng, top - highest)


@njit(cache=True)
def bad_draw_nb(state, seat, params):
    return False


@njit(cache=True)
def bad_bid_nb(state, seat, params):
    """params[0]: 0 bids more than its money, 1 bids the highest bid again, 2 bids -1."""
    mode = params[0]
    if mode == 0:
        return state.money[seat] + 1
    if mode == 1:
        return state.counts[HIGHEST] if state.counts[HIGHEST] > 0 else 1
    return -1


TEST_REGISTRY = StrategyRegistry("classic", DECISIONS, "medici_sim.games.classic")
TEST_REGISTRY.register(REGISTRY["random"])
TEST_REGISTRY.register(Strategy("probe", {"draw_nb": probe_draw_nb, "bid_nb": probe_bid_nb}))
TEST_REGISTRY.register(Strategy("bad", {"draw_nb": bad_draw_nb, "bid_nb": bad_bid_nb},
                                {"mode": Param(0, 0, 2, integer=True)}))


def test_kernel(players: int, names: list[str], seed: int, seating: str = "rotate", mode: float = 0.0) -> PreparedRun:
    """A PreparedRun playing the test registry's strategies (kept apart from the game's registry)."""
    k = PreparedRun(RunConfig(components=None, game="classic", players=players, games=1, seed=seed, seating=seating,
                         strategies=tuple(seat_strategy("random", game="classic") for _ in range(players))),
                    every_part=True)  # the test strategies read every part of the state
    k._table, k.table_names = strategy_table(TEST_REGISTRY, set(names))
    k.slot_strategy = np.array([k.table_names.index(n) for n in names], np.int64)
    k.slot_params[:, 0] = mode
    return k


test_kernel.__test__ = False  # a helper, not a test


@pytest.mark.parametrize("players", range(3, 7))
def test_strategies_see_a_consistent_state(players):
    """A probe strategy checks the documented fields at every decision; it draws like
    random, so its games are random's games, totals and all."""
    probed = test_kernel(players, ["probe"] * players, 8).play(0, 3_000)
    slots = tuple(seat_strategy("random", game="classic") for _ in range(players))
    plain = simulate(RunConfig(components=None, game="classic", players=players, strategies=slots, games=3_000,
                               seed=8, seating="rotate", threads=1)).totals
    for name in ("seat", "slot", "pairs", "run"):
        assert np.array_equal(getattr(probed, name), getattr(plain, name)), name


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_illegal_bid_is_an_error_c9(mode):
    """An illegal bid stops the run with a message naming the strategy, the seat and C9."""
    k = test_kernel(4, ["random", "bad", "bad", "bad"], 1, seating="fixed", mode=float(mode))
    with pytest.raises(IllegalDecision, match=r"^strategy bad at seat [234] bid out of range: .*\(C9\)$"):
        k.play(0, 10)
    with pytest.raises(IllegalDecision, match=r"^strategy bad at seat [234] bid out of range"):
        k.trace(0)


# -- determinism, statistics table, compilation, memory -------------------------------------------

def run(players: int, names, games: int, seating="rotate", threads=1, batch=None, seed=3, kernel_strategies=()):
    slots = tuple(seat_strategy(n, game="classic") for n in names)
    config = RunConfig(components=None, game="classic", players=players, strategies=slots, games=games, seed=seed,
                       seating=seating, threads=threads, kernel_strategies=kernel_strategies)
    return simulate(config, batch_size=batch)


def test_threads_and_batches_do_not_change_results():
    one = run(4, ["random"] * 4, 20_000, threads=1).totals
    for threads, batch in ((2, None), (2, 4_097), (1, 12_345)):
        other = run(4, ["random"] * 4, 20_000, threads=threads, batch=batch).totals
        for name in ("seat", "slot", "pairs", "run"):
            assert np.array_equal(getattr(one, name), getattr(other, name))


def test_a_game_is_the_same_alone_or_in_a_batch():
    k = kernel(4, "random", 21)
    whole = k.play(0, 50)
    parts = k.play(0, 20)
    parts.add(k.play(20, 30))
    assert np.array_equal(whole.seat, parts.seat) and np.array_equal(whole.run, parts.run)
    single = Totals.zeros(4, GAME)
    for i in range(50):
        single.add(k.play(i, 1))
    assert np.array_equal(whole.slot, single.slot) and np.array_equal(whole.pairs, single.pairs)
    trace = k.trace(17)
    alone = k.play(17, 1)
    assert alone.seat[:, STAT_SCORE].tolist() == trace.money[-1].tolist()  # STAT_SCORE: final money


def test_statistics_table_has_the_classic_columns():
    result = run(5, ["random"] * 5, 4_000)
    frame = strategy_frame(result)
    assert list(frame.columns) == strategy_columns(GAME)
    c21 = list(frame.columns).index("mean_spent")  # the C21 columns, then the decision statistics (issue 20)
    assert list(frame.columns)[c21:c21 + 6] == ["mean_spent", "mean_lots_bought", "mean_cards_bought",
                                               "mean_lots_discarded", "mean_free_cards", "price_per_card"]
    row = frame.iloc[0]
    assert row.games == 20_000
    assert row.price_per_card == pytest.approx(row.mean_spent / row.mean_cards_bought)
    assert 0 < row.price_per_card < 11 and row.mean_free_cards > 0 and row.mean_lots_discarded > 0
    assert row.mean_cards_bought + row.mean_free_cards <= 3 * HOLDS  # C3: five holds a day
    assert GAME.engine.run_columns == ("ran_out_days",) and result.totals.run[N_COMMON_RUN_STATS] > 0


def test_a_new_mix_compiles_nothing():
    """One compiled kernel for every mix of a set of classic strategies, seats, players and seatings."""
    names = GAME.built_ins  # the heuristics (a search player's kernel is compiled apart, test_search.py)
    run(4, ["random"] * 4, 2_000, kernel_strategies=names)
    signatures = list(engine.play_games_nb.signatures)
    compiled = sum(engine.play_games_nb.stats.cache_misses.values())
    for players, seating in ((3, "fixed"), (5, "random"), (6, "rotate"), (4, "random")):
        mix = [names[(i * 7 + players) % len(names)] for i in range(players)]
        run(players, mix, 2_000, seating=seating, kernel_strategies=names)
    assert engine.play_games_nb.signatures == signatures
    assert sum(engine.play_games_nb.stats.cache_misses.values()) == compiled


def test_kernel_never_touches_freed_memory():
    """The GameState record must not outlive its array: with glibc returning every large
    block to the system at once, a use-after-free is a crash instead of a silent read."""
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "4096", "MALLOC_TRIM_THRESHOLD_": "0"}
    done = subprocess.run([sys.executable, "-m", "medici_sim", "--game", "classic", "--games", "3000",
                           "--strategies", "random", "--quiet"], env=env, capture_output=True, text=True,
                          timeout=300, cwd=Path(__file__).parent)
    assert done.returncode == 0, done.stderr[-2000:]


def test_classic_takes_no_deck():
    from medici_sim.core.driver import ConfigError
    from medici_sim.games.card.deck import default_deck

    with pytest.raises(ConfigError, match="takes no deck"):
        RunConfig(components=default_deck(), game="classic", players=4, games=1,
                  strategies=tuple(seat_strategy("random", game="classic") for _ in range(4)))
