"""Tests of the reference engine alone (src/medici_sim/reference.py).

Test names and docstrings cite the points of docs/rules-card.md (R1..R25) they check.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import card_rules

from medici_sim.core.rng import GameRandom
from medici_sim.games.card.deck import default_deck, parse_deck
from medici_sim.games.card.reference import (
    LOC_DECK,
    LOC_MARKET,
    LOC_OUT,
    LOC_SHIP,
    LOC_WAREHOUSE,
    REFERENCE_STRATEGIES,
    TAKE_SECOND,
    TAKE_THIRD,
    Card,
    Game,
    RandomStrategy,
    bonus_payouts,
    card_fits,
    majority_payouts,
    play_game,
    run_game,
    ship_payouts,
)
from medici_sim.games.card.rules import BONUS20, NO_GOOD, SHIP_PAYOUTS, STANDARD, ship_capacity

HEADER = "count,good,icons,value,green\n"
KEYS = {"seat_slot", "starter", "ran_out", "ship_value", "ship_pay", "majority_pay", "bonus_pay",
        "florins", "warehouse_icons", "card_location", "winner_share60"}


def tiny(rows: str):
    return parse_deck(HEADER + rows, "tiny")


# -- scripted strategies for hand-checked scenarios ---------------------------------------

class Greedy:
    """Reveals whenever asked; takes the 2nd- and 3rd-from-last whenever they fit."""

    def __init__(self, params=None):
        pass

    def wants_reveal(self, game, seat):
        return True

    def choose_take(self, game, seat):
        market, chosen, flags = game.market, [game.market[-1]], 0
        if len(market) >= 2 and game.fits(seat, market[-2], chosen):
            flags |= TAKE_SECOND
            chosen.append(market[-2])
        if len(market) >= 3 and game.fits(seat, market[-3], chosen):
            flags |= TAKE_THIRD
        return flags


class Slow:
    """Reveals only when obliged; takes only the last card."""

    def __init__(self, params=None):
        pass

    def wants_reveal(self, game, seat):
        return False

    def choose_take(self, game, seat):
        return 0


class Hoarder(Greedy):
    """Reveals whenever asked; takes only the last card."""

    def choose_take(self, game, seat):
        return 0


class Grabby(Greedy):
    """Always asks for all three cards, whether they fit or not (illegal under R10)."""

    def choose_take(self, game, seat):
        return TAKE_SECOND | TAKE_THIRD


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setitem(REFERENCE_STRATEGIES, "greedy", Greedy)
    monkeypatch.setitem(REFERENCE_STRATEGIES, "slow", Slow)
    monkeypatch.setitem(REFERENCE_STRATEGIES, "grabby", Grabby)


# -- R14/R15 ship payouts -------------------------------------------------------------------

def test_r15_rulebook_ship_example_20_16_16_13():
    """R15: ships 20, 16, 16, 13 with 4 players pay 30, 15, 15, 0."""
    assert ship_payouts([20, 16, 16, 13], card_rules(4)) == [30, 15, 15, 0]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_r14_distinct_ship_values_pay_the_table(players):
    """R14: distinct ship values pay the table by place, highest first."""
    values = [10 * (players - i) for i in range(players)]
    assert ship_payouts(values, card_rules(players)) == list(SHIP_PAYOUTS[players])
    assert ship_payouts(values[::-1], card_rules(players)) == list(SHIP_PAYOUTS[players])[::-1]


def test_r15_ship_ties_share_and_round_down_to_5():
    """R15: tied players share the places they occupy, each share rounded down to 5."""
    assert ship_payouts([9, 9], card_rules(2)) == [10, 10]  # (20 + 0) / 2
    assert ship_payouts([9, 9, 9], card_rules(3)) == [15, 15, 15]  # (30 + 15 + 0) / 3
    assert ship_payouts([9, 9, 1], card_rules(3)) == [20, 20, 0]  # (30 + 15) / 2 = 22.5 -> 20
    assert ship_payouts([9, 5, 5], card_rules(3)) == [30, 5, 5]  # (15 + 0) / 2 = 7.5 -> 5
    assert ship_payouts([1, 5, 5, 5, 9], card_rules(5)) == [0, 10, 10, 10, 30]  # (20 + 10 + 5) / 3 = 11.67 -> 10
    assert ship_payouts([0, 0, 0, 0, 0, 0], card_rules(6)) == [10] * 6  # 80 / 6 = 13.3 -> 10
    assert ship_payouts([3, 3, 8, 8, 1, 0], card_rules(6)) == [10, 10, 25, 25, 5, 0]  # (15+10)/2 -> 10, (30+20)/2


# -- R17 goods majorities -------------------------------------------------------------------

def test_r15_rulebook_three_player_majority_ties():
    """R15 (rulebook example 2): two tied for most share 10 + 5, each gets 5; the third gets
    nothing; two tied for 2nd share 5 + 0, each gets 0."""
    assert majority_payouts([3, 3, 1], card_rules(3)) == [5, 5, 0]  # dye: Simon and Jen tie for most
    assert majority_payouts([1, 3, 1], card_rules(3)) == [0, 10, 0]  # grain: Jen most, Simon and Phil tie 2nd


def test_r17_single_holder_gets_10_and_nobody_gets_5():
    """R17: a player with no icon takes no place; a lone holder gets 10, nobody gets 5."""
    assert majority_payouts([4, 0, 0], card_rules(3)) == [10, 0, 0]
    assert majority_payouts([0, 1], card_rules(2)) == [0, 10]
    assert majority_payouts([0, 0, 0, 0], card_rules(4)) == [0, 0, 0, 0]


def test_r17_icons_most_10_second_5_with_ties():
    """R17 + R15: most icons 10, second most 5; zero holders take no place."""
    assert majority_payouts([2, 5, 0, 1], card_rules(4)) == [5, 10, 0, 0]
    assert majority_payouts([2, 2, 2], card_rules(3)) == [5, 5, 5]  # (10 + 5 + 0) / 3
    assert majority_payouts([2, 2, 0], card_rules(3)) == [5, 5, 0]  # (10 + 5) / 2 = 7.5 -> 5
    assert majority_payouts([6, 2, 2, 0], card_rules(4)) == [10, 0, 0, 0]  # (5 + 0) / 2 = 2.5 -> 0
    assert majority_payouts([6, 2, 0, 0], card_rules(4)) == [10, 5, 0, 0]


# -- R18/R19 bonuses ------------------------------------------------------------------------

def test_r18_bonus_threshold_two_players():
    """R18: with 2 players at least 7 icons of a good pay 10 (standard rules: never 20)."""
    assert bonus_payouts([6, 7], card_rules(2, STANDARD)) == [0, 10]
    assert bonus_payouts([10, 14], card_rules(2, STANDARD)) == [10, 10]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_r18_bonus_threshold_three_to_six_players(players):
    """R18: with 3-6 players at least 5 icons pay 10, not shared (everyone above is paid)."""
    icons = [4, 5, 9] + [5] * (players - 3)
    assert bonus_payouts(icons, card_rules(players, STANDARD)) == [0, 10, 10] + [10] * (players - 3)


def test_r19_bonus20_two_players():
    """R19: bonus20 with 2 players: at least 10 icons pay 20 instead of 10; 7-9 still pay 10."""
    assert bonus_payouts([6, 7], card_rules(2, BONUS20)) == [0, 10]
    assert bonus_payouts([9, 10], card_rules(2, BONUS20)) == [10, 20]
    assert bonus_payouts([12, 0], card_rules(2, BONUS20)) == [20, 0]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_r19_bonus20_three_to_six_players(players):
    """R19: bonus20 with 3-6 players: at least 8 icons pay 20 (replacing the 10); 5-7 pay 10."""
    icons = [4, 7, 8] + [11] * (players - 3)
    assert bonus_payouts(icons, card_rules(players, BONUS20)) == [0, 10, 20] + [20] * (players - 3)
    assert bonus_payouts(icons, card_rules(players, STANDARD)) == [0, 10, 10] + [10] * (players - 3)


# -- R10 capacity and green cards -----------------------------------------------------------

def test_r10_card_fits_counts_cards_chosen_this_turn():
    """R10: a non-green card fits while non-green aboard (counting this turn's) < capacity;
    a green card always fits."""
    plain = Card(0, 0, 1, 3, False)
    green = Card(1, 0, 1, 0, True)
    assert card_fits(4, [], plain, 5)
    assert not card_fits(5, [], plain, 5)
    assert not card_fits(4, [plain], plain, 5)
    assert card_fits(4, [green], plain, 5)
    assert card_fits(5, [plain], green, 5)
    assert card_fits(99, [plain, plain], green, 5)


def test_r6_r10_ship_capacity():
    """R6: capacity 7 with 2 players, 5 with 3-6."""
    assert ship_capacity(2) == 7
    assert all(ship_capacity(p) == 5 for p in range(3, 7))


def test_r10_green_cards_take_no_space(scripted):
    """R10: an all-green deck never fills a ship, so ships take cards past capacity and the
    day ends only by running out (R12)."""
    game = run_game(tiny("30,grain,1,1,yes\n"), card_rules(2, STANDARD), ["greedy", "greedy"], 1, 0)
    loc = game.record["card_location"][0]
    assert game.record["ran_out"][0] == 1
    assert (loc == LOC_SHIP + 0).sum() == 15 and (loc == LOC_SHIP + 1).sum() == 15  # > 7 each
    assert all(len(t.taken) == 3 for t in game.turn_log if t.day == 0)


def test_r10_taking_a_card_that_does_not_fit_is_refused(scripted):
    """R10: a strategy that asks for a non-green card with no space left is an error."""
    with pytest.raises(ValueError, match="does not fit"):
        run_game(tiny("40,grain,1,1,no\n"), card_rules(2, STANDARD), ["grabby", "grabby"], 1, 0)


def test_r10_green_card_fits_on_a_nearly_full_ship(scripted):
    """R10: with the last card filling the ship, green cards before it still fit."""
    # Day 1, 2 players, seat 0 greedy: 3 + 3 non-green cards, then one more non-green fills the
    # ship; greens never count. Deck mixes both; every turn the greedy seat takes what fits.
    deck = tiny("20,grain,1,1,no\n20,spice,1,1,yes\n")
    for index in range(20):
        rec = play_game(deck, card_rules(2, STANDARD), ["greedy", "greedy"], 3, index)
        green = deck.card_arrays()[3].astype(bool)
        for day in range(3):
            for seat in range(2):
                aboard = rec["card_location"][day] == LOC_SHIP + seat
                assert (aboard & ~green).sum() <= 7


# -- R11 end of the day ---------------------------------------------------------------------

def test_r11_last_open_ship_gets_exactly_one_final_turn_two_players(scripted):
    """R11: when seat 0 fills its ship, seat 1 (the only open ship) takes one final normal
    turn and the day ends although seat 1's ship is not full."""
    game = run_game(tiny("20,grain,1,1,no\n"), card_rules(2, STANDARD), ["greedy", "slow"], 5, 0)
    day1 = [t for t in game.turn_log if t.day == 0]
    assert [t.seat for t in day1] == [0, 1, 0, 1, 0, 1]
    assert [len(t.taken) for t in day1] == [3, 1, 3, 1, 1, 1]
    assert [t.final for t in day1] == [False] * 5 + [True]
    assert day1[-1].revealed == 0  # a normal turn: the market was not empty, no reveal wanted
    loc = game.record["card_location"][0]
    assert (loc == LOC_SHIP + 0).sum() == 7
    assert (loc == LOC_SHIP + 1).sum() == 3
    assert (loc == LOC_MARKET).sum() == 1
    assert (loc == LOC_DECK).sum() == 9
    rec = game.record
    assert rec["ran_out"][0] == 0
    # R13-R18 on this day: ships 7 vs 3; grain 7 vs 3 icons; 2-player bonus at 7 icons.
    assert rec["ship_value"][0].tolist() == [7, 3]
    assert rec["ship_pay"][0].tolist() == [20, 0]
    assert rec["majority_pay"][0].tolist() == [10, 5]
    assert rec["bonus_pay"][0].tolist() == [10, 0]
    assert rec["florins"][0].tolist() == [40, 5]
    assert rec["starter"][1] == 1  # R21: fewest florins


def test_r11_final_turn_only_when_exactly_one_ship_is_open(scripted):
    """R11: with 3 players, the first full ship does not end the day; when the second fills,
    the last open ship gets one final turn."""
    game = run_game(tiny("40,grain,1,1,no\n"), card_rules(3, STANDARD), ["greedy", "greedy", "slow"], 5, 0)
    day1 = [t for t in game.turn_log if t.day == 0]
    assert [t.seat for t in day1] == [0, 1, 2, 0, 1, 2]
    assert [len(t.taken) for t in day1] == [3, 3, 1, 2, 2, 1]
    assert [t.final for t in day1] == [False] * 5 + [True]
    loc = game.record["card_location"][0]
    assert [(loc == LOC_SHIP + s).sum() for s in range(3)] == [5, 5, 2]


def test_r11_all_ships_full_ends_the_day_at_once(scripted):
    """R11: when the final player fills the ship in the final turn, or all ships are full,
    the day ends; no more turns are taken."""
    game = run_game(tiny("60,grain,1,1,no\n"), card_rules(3, STANDARD), ["greedy"] * 3, 5, 0)
    day1 = [t for t in game.turn_log if t.day == 0]
    # 3 + 2 per seat: the third seat's second turn is the final turn and fills its ship.
    assert [t.seat for t in day1] == [0, 1, 2, 0, 1, 2]
    assert [t.final for t in day1] == [False] * 5 + [True]
    loc = game.record["card_location"][0]
    assert [(loc == LOC_SHIP + s).sum() for s in range(3)] == [5, 5, 5]


# -- R12 running out ------------------------------------------------------------------------

def test_r12_running_out_with_a_tiny_deck():
    """R12: with market and deck both empty at the start of a turn, the day ends at once and
    ships score as they are."""
    deck = tiny("4,grain,1,3,no\n")
    for index in range(20):
        rec = play_game(deck, card_rules(3, STANDARD), ["random"] * 3, 11, index)
        assert rec["ran_out"].tolist() == [1, 1, 1]
        loc = rec["card_location"][0]
        assert ((loc >= LOC_SHIP) & (loc < LOC_SHIP + 3)).all()  # all 4 cards went aboard
        assert rec["ship_value"][0].sum() == 12
        # Days 2 and 3: nothing left to reveal: all ships empty, all tied: (30+15+0)/3 = 15.
        for day in (1, 2):
            assert rec["ship_value"][day].tolist() == [0, 0, 0]
            assert rec["ship_pay"][day].tolist() == [15, 15, 15]
            assert (rec["card_location"][day] >= LOC_WAREHOUSE).all()


def test_r12_empty_deck_turns_go_on_from_the_market(scripted, monkeypatch):
    """R9/R12: once the deck is empty, turns go on taking from the market without reveals;
    the day ends by running out only when the market is empty too."""
    monkeypatch.setitem(REFERENCE_STRATEGIES, "hoarder", Hoarder)
    game = run_game(tiny("6,grain,1,1,no\n"), card_rules(2, STANDARD), ["hoarder", "slow"], 2, 0)
    day1 = [t for t in game.turn_log if t.day == 0]
    # seat 0 reveals 3 and takes 1; seat 1 takes 1; seat 0 reveals the last 3 and takes 1;
    # then the deck is empty and the three market cards are taken one per turn.
    assert [t.seat for t in day1] == [0, 1, 0, 1, 0, 1]
    assert [t.revealed for t in day1] == [3, 0, 3, 0, 0, 0]
    assert game.record["ran_out"][0] == 1
    loc = game.record["card_location"][0]
    assert [(loc == LOC_SHIP + s).sum() for s in range(2)] == [3, 3]


# -- R7/R21 starting players ----------------------------------------------------------------

def test_r21_next_starter_is_a_seat_with_the_fewest_florins():
    """R7: seat 0 starts day 1. R21: the fewest florins starts the next day; all tied seats
    get chosen sometimes."""
    deck = default_deck()
    chosen_among_ties = set()
    for index in range(200):
        players = 2 + index % 5
        rec = play_game(deck, card_rules(players, STANDARD), ["random"] * players, 21, index)
        assert rec["starter"][0] == 0
        for day in (0, 1):
            florins = rec["florins"][day]
            tied = np.flatnonzero(florins == florins.min())
            assert rec["starter"][day + 1] in tied
            if len(tied) > 1:
                chosen_among_ties.add(int(np.searchsorted(tied, rec["starter"][day + 1])))
    assert chosen_among_ties >= {0, 1}


def test_r21_tie_break_draws_below_k_among_tied_seats_in_seat_order():
    """R21 / protocol: tied seats in ascending order, starter = tied[below(k)]; one: no draw."""
    game = Game(default_deck(), card_rules(4), ["random"] * 4, 9, 3)
    for florins, tied in (([10, 5, 20, 5], [1, 3]), ([5, 5, 5, 5], [0, 1, 2, 3]), ([7, 6, 8, 9], [1])):
        for p, f in zip(game.players, florins, strict=True):
            p.florins = f
        twin = GameRandom(0, 0)
        twin.state = game.rng.state
        expected = tied[twin.below(len(tied))] if len(tied) > 1 else tied[0]
        before = game.rng.state
        assert game.next_starter() == expected
        assert game.rng.state == (twin.state if len(tied) > 1 else before)  # one draw, or none


# -- protocol: the order of random draws -----------------------------------------------------

@pytest.mark.parametrize("index", range(8))
def test_protocol_first_turn_draws_in_the_documented_order(index):
    """docs/protocol.md (R9, R10, R23): the day-1 first turn, replayed draw by draw by hand:
    obligatory reveal, coin before each further reveal, coins for the 2nd- then 3rd-from-last."""
    deck = default_deck()
    rng = GameRandom(99, index)
    pile = list(range(deck.n_cards))
    market = []

    def reveal():
        j = rng.below(len(pile))
        market.append(pile[j])
        pile[j] = pile[-1]
        pile.pop()

    reveal()  # the market is empty: obligatory, no coin
    while len(market) < 3 and rng.coin():
        reveal()
    taken = [market[-1]]
    # On an empty 5-card ship every card fits, so each existing candidate costs one coin.
    take_second = len(market) >= 2 and rng.coin()
    if take_second:
        taken.append(market[-2])
    if len(market) >= 3 and rng.coin():
        taken.append(market[-3])
    game = run_game(deck, card_rules(4, STANDARD), ["random"] * 4, 99, index)
    first = game.turn_log[0]
    assert (first.seat, first.revealed, first.taken) == (0, len(market), taken)


# -- R22-R25 ---------------------------------------------------------------------------------

def test_r24_seatings():
    """R24 / protocol: fixed = identity, rotate = (seat + game index) % P, random = permutation."""
    deck = default_deck()
    for index in range(6):
        assert play_game(deck, card_rules(4), ["random"] * 4, 1, index, "fixed")["seat_slot"].tolist() == [0, 1, 2, 3]
        assert play_game(deck, card_rules(4), ["random"] * 4, 1, index, "rotate")["seat_slot"].tolist() == \
            [(k + index) % 4 for k in range(4)]
    perms = {tuple(play_game(deck, card_rules(3), ["random"] * 3, 1, i, "random")["seat_slot"]) for i in range(60)}
    assert perms == set(itertools.permutations(range(3)))


def test_r24_random_seating_is_drawn_first():
    """Protocol: the random seating's Fisher-Yates permutation is the game's first draws."""
    rng = GameRandom(77, 5)
    perm = list(range(5))
    for j in range(4, 0, -1):
        r = rng.below(j + 1)
        perm[j], perm[r] = perm[r], perm[j]
    assert play_game(default_deck(), card_rules(5), ["random"] * 5, 77, 5, "random")["seat_slot"].tolist() == perm


def test_r25_same_seed_and_index_same_game():
    """R25: a game depends on (seed, game index) alone."""
    deck = default_deck()
    a = play_game(deck, card_rules(5, BONUS20), ["random"] * 5, 123, 42, "random")
    b = play_game(deck, card_rules(5, BONUS20), ["random"] * 5, 123, 42, "random")
    c = play_game(deck, card_rules(5, BONUS20), ["random"] * 5, 123, 43, "random")
    assert all(np.array_equal(a[k], b[k]) for k in KEYS)
    assert not all(np.array_equal(a[k], c[k]) for k in KEYS)


def test_bad_arguments_are_refused():
    deck = default_deck()
    with pytest.raises(ValueError):
        play_game(deck, card_rules(3, STANDARD), ["random"] * 4, 1, 0)  # one strategy per seat
    with pytest.raises(ValueError, match="unknown strategy"):
        play_game(deck, card_rules(2, STANDARD), ["random", "nonesuch"], 1, 0)
    with pytest.raises(ValueError):
        play_game(deck, card_rules(7, STANDARD), ["random"] * 7, 1, 0)
    with pytest.raises(ValueError):
        play_game(deck, card_rules(2, "bonus50"), ["random"] * 2, 1, 0)
    with pytest.raises(ValueError):
        play_game(deck, card_rules(2, STANDARD), ["random"] * 2, 1, 0, seating="sideways")
    assert REFERENCE_STRATEGIES["random"] is RandomStrategy


# -- invariants over a few hundred random games ---------------------------------------------

def _check_game(rec, deck, players, variant):
    good, icons, value, green = deck.card_arrays()
    green = green.astype(bool)
    has_good = good != NO_GOOD
    n = len(good)
    cap = ship_capacity(players)
    assert set(rec) == KEYS
    for key, arr in rec.items():
        assert arr.dtype == np.int64, key
    assert sorted(rec["seat_slot"].tolist()) == list(range(players))
    ships = [LOC_SHIP + s for s in range(players)]
    houses = [LOC_WAREHOUSE + s for s in range(players)]
    valid = {LOC_DECK, LOC_MARKET, LOC_OUT, *ships, *houses}
    table_sum = sum(SHIP_PAYOUTS[players])
    florins = np.zeros(players, np.int64)
    prev_loc = None
    for day in range(3):
        loc = rec["card_location"][day]
        assert loc.shape == (n,)
        # Every card is in exactly one valid place.
        assert set(loc.tolist()) <= valid
        # R16: only goods cards are in warehouses; only no-good cards are out of the game.
        assert has_good[np.isin(loc, houses)].all()
        assert (~has_good[loc == LOC_OUT]).all()
        if prev_loc is None:
            assert not np.isin(loc, houses + [LOC_OUT]).any()
        else:
            # R16/R20: yesterday's ships were unloaded; warehouses keep everything.
            for s in range(players):
                was = (prev_loc == LOC_WAREHOUSE + s) | ((prev_loc == LOC_SHIP + s) & has_good)
                assert np.array_equal(loc == LOC_WAREHOUSE + s, was)
            assert np.array_equal(loc == LOC_OUT, (prev_loc == LOC_OUT) | (np.isin(prev_loc, ships) & ~has_good))
        prev_loc = loc
        # R10: no ship holds more non-green cards than its capacity; R11: unless the day ran
        # out (R12), at most one ship is not full at the day's end.
        non_green = [int(((loc == LOC_SHIP + s) & ~green).sum()) for s in range(players)]
        assert max(non_green) <= cap
        if not rec["ran_out"][day]:
            assert sum(1 for x in non_green if x < cap) <= 1
        else:
            assert not np.isin(loc, [LOC_MARKET, LOC_DECK]).any()  # R12
        # R13: ship value is the sum of card values aboard, green included.
        for s in range(players):
            assert rec["ship_value"][day, s] == value[loc == LOC_SHIP + s].sum()
        # R17: warehouse icons after unloading = icons in warehouse + this day's cargo.
        for s in range(players):
            mine = (loc == LOC_WAREHOUSE + s) | (loc == LOC_SHIP + s)
            for g in range(5):
                assert rec["warehouse_icons"][day, s, g] == icons[mine & (good == g)].sum()
        # R14/R15/R17-R19 payouts match the pure scoring functions.
        assert rec["ship_pay"][day].tolist() == ship_payouts(rec["ship_value"][day].tolist(), card_rules(players))
        maj = np.zeros(players, np.int64)
        bon = np.zeros(players, np.int64)
        for g in range(5):
            maj += majority_payouts(rec["warehouse_icons"][day, :, g].tolist(), card_rules(players))
            bon += bonus_payouts(rec["warehouse_icons"][day, :, g].tolist(), card_rules(players, variant))
        assert rec["majority_pay"][day].tolist() == maj.tolist()
        assert rec["bonus_pay"][day].tolist() == bon.tolist()
        # Every payout is a multiple of 5.
        for key in ("ship_pay", "majority_pay", "bonus_pay"):
            assert (rec[key][day] % 5 == 0).all()
        # R14/R15: the ship payouts add up to the table's sum, except where tied shares are
        # rounded down: each tied group of k loses less than 5 per player.
        values = rec["ship_value"][day]
        _, counts = np.unique(values, return_counts=True)
        tied_players = int(counts[counts > 1].sum())
        paid = int(rec["ship_pay"][day].sum())
        if tied_players == 0:
            assert paid == table_sum
        else:
            assert table_sum - 5 * tied_players < paid <= table_sum
        florins += rec["ship_pay"][day] + rec["majority_pay"][day] + rec["bonus_pay"][day]
        assert rec["florins"][day].tolist() == florins.tolist()
    # R22: winners have the most florins and share 60.
    final = rec["florins"][2]
    winners = final == final.max()
    assert rec["winner_share60"].sum() == 60
    assert (rec["winner_share60"][winners] == 60 // winners.sum()).all()
    assert (rec["winner_share60"][~winners] == 0).all()


def test_invariants_over_random_games():
    """Every card in exactly one place each day (R16, R20); R10-R13 and R14-R19 hold;
    payouts are multiples of 5 (R15); R14 sums; R22 winners."""
    deck = default_deck()
    seatings = ("fixed", "rotate", "random")
    for index in range(300):
        players = 2 + index % 5
        variant = (index // 5) % 2
        seating = seatings[index % 3]
        rec = play_game(deck, card_rules(players, variant), ["random"] * players, 2024, index, seating)
        _check_game(rec, deck, players, variant)


def test_invariants_with_a_small_deck_that_runs_out():
    """R12 handled in every day: the same invariants with a deck too small for 6 ships."""
    deck = tiny("6,grain,1,2,no\n6,spice,2,0,no\n3,fur,1,0,yes\n2,none,0,7,no\n2,none,0,2,yes\n")
    ran_out = 0
    for index in range(100):
        players = 2 + index % 5
        rec = play_game(deck, card_rules(players, index % 2), ["random"] * players, 5, index, "random")
        _check_game(rec, deck, players, index % 2)
        ran_out += rec["ran_out"].sum()
    assert ran_out > 0


def test_r23_random_strategy_turns_are_legal():
    """R9/R23: at most 3 reveals per turn, at least one when the market was empty (the first
    turn of every day), 1 to 3 cards taken."""
    deck = default_deck()
    for index in range(30):
        game = run_game(deck, card_rules(4, STANDARD), ["random"] * 4, 8, index)
        for t in game.turn_log:
            assert 0 <= t.revealed <= 3
            assert 1 <= len(t.taken) <= 3
        for day in range(3):
            first = next(t for t in game.turn_log if t.day == day)
            assert first.revealed >= 1
            assert first.seat == game.record["starter"][day]
