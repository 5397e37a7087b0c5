"""Rule tests for the classic reference engine (docs/rules-classic.md, points C1-C21).

Three kinds of test: the scoring rules as pure functions (exact numbers, the rulebook's
examples and every tie shape); constructed situations played turn by turn with scripted
strategies; and invariants checked on ~300 random games by replaying each day's turn log
independently of the engine.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest
from conftest import classic_rules

from medici_sim.core.rng import GameRandom
from medici_sim.games.classic import rules
from medici_sim.games.classic.reference import (
    LOC_DECK,
    LOC_DISCARDED,
    LOC_REMOVED,
    LOC_SHIP,
    STRATEGIES,
    ClassicGame,
    RandomStrategy,
    Strategy,
    TurnRecord,
    majority_payouts,
    play_game,
    raise_track,
    share_places,
    ship_payouts,
    ship_value,
    track_bonus,
    turn_records,
)

# A few card ids by good and value (protocol: card 7*g + k has value (0,1,2,3,4,5,5)[k]).
GRAIN, SPICE, FUR, DYE, CLOTH = range(5)


def card(good: int, k: int) -> int:
    return 7 * good + k


GOLD = rules.GOLD_CARD


# --------------------------------------------------------------------------------------
# Rule data (C1-C5, C13-C16)
# --------------------------------------------------------------------------------------

def test_cards_c2():
    assert rules.N_CARDS == 36 and len(rules.CARD_GOOD) == 36 and len(rules.CARD_VALUE) == 36
    for good in range(5):
        ids = [c for c in range(36) if rules.CARD_GOOD[c] == good]
        assert ids == list(range(7 * good, 7 * good + 7))
        assert [rules.CARD_VALUE[c] for c in ids] == [0, 1, 2, 3, 4, 5, 5]
    assert rules.CARD_GOOD[35] == rules.NO_GOOD == -1 and rules.CARD_VALUE[35] == 10
    assert sum(rules.CARD_VALUE) == 5 * 20 + 10
    good, value = rules.card_arrays()
    assert good.dtype == np.int64 and value.dtype == np.int64
    assert good.tolist() == list(rules.CARD_GOOD) and value.tolist() == list(rules.CARD_VALUE)


def test_constants():
    assert rules.GOODS == ("grain", "spice", "fur", "dye", "cloth") and rules.N_GOODS == 5
    assert (rules.MIN_PLAYERS, rules.MAX_PLAYERS, rules.DAYS) == (3, 6, 3)  # C1, C18
    assert (rules.HOLDS, rules.MAX_LOT, rules.TRACK_MAX) == (5, 3, 7)  # C3, C8, C14
    assert rules.MAJORITY_PAYOUTS == (10, 5)  # C15
    assert rules.TRACK_BONUS == (0, 0, 0, 0, 0, 5, 10, 20)  # C16
    assert rules.SHIP_PAYOUTS == {3: (30, 15, 0), 4: (30, 20, 10, 0), 5: (30, 20, 10, 5, 0),
                                  6: (30, 20, 15, 10, 5, 0)}  # C13


@pytest.mark.parametrize("players, money", [(3, 40), (4, 40), (5, 30), (6, 30)])
def test_starting_money_c4(players, money):
    assert rules.starting_money(players) == money
    game = ClassicGame(classic_rules(players), ["random"] * players, 1, 0)
    assert game.money == [money] * players


@pytest.mark.parametrize("players, removed", [(3, 18), (4, 12), (5, 6), (6, 0)])
def test_removed_cards_c5(players, removed):
    assert rules.removed_cards(players) == removed
    rec = play_game(classic_rules(players), ["random"] * players, 5, 3)
    assert rec["removed"].shape == (3, removed)
    for day in range(3):
        assert len(set(rec["removed"][day].tolist())) == removed
        assert (rec["card_location"][day] == LOC_REMOVED).sum() == removed
        assert sorted(np.flatnonzero(rec["card_location"][day] == LOC_REMOVED).tolist()) == \
            sorted(rec["removed"][day].tolist())


@pytest.mark.parametrize("players", [2, 7, 0])
def test_player_count_c1(players):
    for fn in (rules.starting_money, rules.removed_cards, lambda n: rules.rule_arrays(classic_rules(n))):
        with pytest.raises(ValueError):
            fn(players)
    with pytest.raises(ValueError):
        play_game(classic_rules(players), ["random"] * players, 1, 0)


def test_rule_arrays():
    r, pay, _ = rules.rule_arrays(classic_rules(5))
    assert r.dtype == np.int64 and pay.dtype == np.int64
    assert len(r) == rules.N_RULES
    assert (r[rules.RULE_PLAYERS], r[rules.RULE_START_MONEY], r[rules.RULE_REMOVED]) == (5, 30, 6)
    assert pay.tolist() == [30, 20, 10, 5, 0, 0]
    r, pay, _ = rules.rule_arrays(classic_rules(3))
    assert (r[rules.RULE_PLAYERS], r[rules.RULE_START_MONEY], r[rules.RULE_REMOVED]) == (3, 40, 18)
    assert pay.tolist() == [30, 15, 0, 0, 0, 0]
    assert rules.rule_arrays(classic_rules(6))[1].tolist() == [30, 20, 15, 10, 5, 0]


# --------------------------------------------------------------------------------------
# Scoring as pure functions (C13-C16)
# --------------------------------------------------------------------------------------

def test_rulebook_ship_example_c13():
    # C13: 5 players, ships 23, 20, 16, 16, 14 pay 30, 20, 7, 7, 0.
    assert ship_payouts([23, 20, 16, 16, 14], classic_rules(5)) == [30, 20, 7, 7, 0]
    # The same in another seat order.
    assert ship_payouts([16, 14, 23, 16, 20], classic_rules(5)) == [7, 0, 30, 7, 20]


@pytest.mark.parametrize("values, players, expected", [
    ([10, 5, 0], 3, [30, 15, 0]),
    ([0, 5, 10], 3, [0, 15, 30]),
    ([10, 10, 5], 3, [22, 22, 0]),  # tie for first with 3 players: (30 + 15) // 2
    ([10, 5, 5], 3, [30, 7, 7]),  # tie at the bottom: (15 + 0) // 2
    ([4, 4, 4], 3, [15, 15, 15]),  # all tied: 45 // 3
    ([0, 0, 0], 3, [15, 15, 15]),  # empty ships still take places
    ([9, 9, 9, 9], 4, [15, 15, 15, 15]),  # 60 // 4
    ([9, 9, 9, 1], 4, [20, 20, 20, 0]),  # 60 // 3
    ([9, 3, 3, 3], 4, [30, 10, 10, 10]),  # 30 // 3
    ([10, 8, 3, 3], 4, [30, 20, 5, 5]),  # (10 + 0) // 2
    ([10, 10, 3, 3], 4, [25, 25, 5, 5]),
    ([9, 8, 7, 2, 2], 5, [30, 20, 10, 2, 2]),  # (5 + 0) // 2
    ([1, 1, 1, 1, 1], 5, [13, 13, 13, 13, 13]),  # 65 // 5
    ([9, 8, 8, 8, 0], 5, [30, 11, 11, 11, 0]),  # 35 // 3
    ([5, 5, 5, 2, 2, 1], 6, [21, 21, 21, 7, 7, 0]),  # 65 // 3, 15 // 2
    ([9, 7, 7, 7, 7, 0], 6, [30, 12, 12, 12, 12, 0]),  # 50 // 4
    ([9, 8, 8, 5, 4, 3], 6, [30, 17, 17, 10, 5, 0]),  # 35 // 2
    ([3, 3, 3, 3, 3, 3], 6, [13, 13, 13, 13, 13, 13]),  # 80 // 6
    ([9, 8, 7, 6, 5, 5], 6, [30, 20, 15, 10, 2, 2]),
    ([9, 9, 9, 9, 9, 0], 6, [16, 16, 16, 16, 16, 0]),  # 80 // 5
])
def test_ship_payout_ties_c13(values, players, expected):
    assert ship_payouts(values, classic_rules(players)) == expected


def test_ship_payouts_need_every_player():
    with pytest.raises(ValueError):
        ship_payouts([1, 2], classic_rules(3))


def test_share_places_past_the_table():
    # Places past the table pay 0; a group straddling the end shares only the listed places.
    assert share_places([5, 4, 3, 2], [10, 5]) == [10, 5, 0, 0]
    assert share_places([5, 4, 4, 4], [10, 5]) == [10, 1, 1, 1]
    assert share_places([1, 1], [10, 5]) == [7, 7]  # the rulebook's 10 + 5 shared by two
    assert share_places([], [10, 5]) == []


@pytest.mark.parametrize("levels, expected", [
    ([3, 1, 1, 1], [10, 1, 1, 1]),  # C15 rulebook: S first, then B, N, D tied: 5 // 3
    ([0, 0, 0, 0], [3, 3, 3, 3]),  # C15, our own example: nobody bought, 4 players: 15 // 4
    ([0, 0, 0], [5, 5, 5]),
    ([0, 0, 0, 0, 0], [3, 3, 3, 3, 3]),
    ([0, 0, 0, 0, 0, 0], [2, 2, 2, 2, 2, 2]),
    ([4, 0, 0], [10, 2, 2]),  # one buyer; the rest tie for second at level 0
    ([4, 0, 0, 0], [10, 1, 1, 1]),
    ([4, 2, 0, 0], [10, 5, 0, 0]),
    ([4, 4, 0, 0], [7, 7, 0, 0]),  # tie for first takes both places
    ([4, 4, 4, 0], [5, 5, 5, 0]),
    ([7, 7, 7], [5, 5, 5]),
    ([1, 6, 3, 6, 2, 0], [0, 7, 0, 7, 0, 0]),  # two first: the third level gets nothing
])
def test_majority_payouts_c15(levels, expected):
    assert majority_payouts(levels, classic_rules(4)) == expected


def test_track_bonus_c16():
    assert [track_bonus(level, classic_rules(4)) for level in range(8)] == [0, 0, 0, 0, 0, 5, 10, 20]
    for bad in (-1, 8):
        with pytest.raises(ValueError):
            track_bonus(bad, classic_rules(4))


def test_track_cap_c14():
    assert raise_track(0, 0, rules.TRACK_MAX) == 0
    assert raise_track(0, 5, rules.TRACK_MAX) == 5
    assert raise_track(3, 4, rules.TRACK_MAX) == 7
    assert raise_track(5, 4, rules.TRACK_MAX) == 7  # capped
    assert raise_track(7, 1, rules.TRACK_MAX) == 7
    assert raise_track(6, 5, rules.TRACK_MAX) == 7


def test_ship_value_c13():
    assert ship_value([]) == 0
    assert ship_value([GOLD]) == 10
    assert ship_value([card(SPICE, 5), card(SPICE, 6), GOLD, card(DYE, 0), card(FUR, 3)]) == 5 + 5 + 10 + 0 + 3


# --------------------------------------------------------------------------------------
# Constructed situations
# --------------------------------------------------------------------------------------

class Scripted(Strategy):
    """A test strategy: draws while ``wants`` says so; bids by ``amount(game, seat)``
    (an int or a callable). Counts the questions it is asked."""

    name = "scripted"

    def __init__(self, wants=False, amount=0):
        super().__init__()
        self.wants = wants
        self.amount = amount
        self.draw_questions = 0
        self.bid_questions = 0

    def wants_card(self, game, seat):
        self.draw_questions += 1
        return self.wants(game, seat) if callable(self.wants) else self.wants

    def bid(self, game, seat):
        self.bid_questions += 1
        return self.amount(game, seat) if callable(self.amount) else self.amount


def scripted_game(players, scripts, seed=7):
    """A game whose seats (fixed seating) play the given Scripted objects, mid-day."""
    game = ClassicGame(classic_rules(players), ["scripted"] * players, seed, 0, decide=scripts)
    game.start_day(0)
    return game


def place_the_rest(game):
    """Put every card not on a ship into the removed pile (as many as C5 removes), then the deck."""
    rest = [c for c in range(36) if all(c not in ship for ship in game.ships)]
    n_removed = rules.removed_cards(game.players)
    game.removed, game.deck, game.discarded = rest[:n_removed], rest[n_removed:], []


def test_lot_limited_by_free_holds_c8():
    # Seats 0 and 1 have 1 free hold, seat 2 has 2: a lot may grow to 2 cards, never 3,
    # and the auctioneer is asked only while another card is allowed.
    s = [Scripted(wants=True), Scripted(amount=0), Scripted(amount=1)]
    game = scripted_game(3, s)
    game.ships = [[0, 1, 2, 3], [7, 8, 9, 10], [14, 15, 16]]
    game.play_turn(0)
    (turn,) = turn_records(game.log)
    assert len(turn.lot) == 2
    assert s[0].draw_questions == 1
    # C9: seats 0 and 1 (one free hold) must pass unasked; seat 2 buys.
    assert turn.bids == ((2, 1),)
    assert s[0].bid_questions == 0 and s[1].bid_questions == 0
    assert turn.winner == 2 and game.ships[2] == [14, 15, 16, *turn.lot]


def test_lot_limit_counts_only_open_ships_c8():
    # Auctioneer 0 has one free hold; seat 1 is full; seat 2 has 3 free: a lot of 3 is allowed.
    s = [Scripted(wants=True), Scripted(), Scripted(amount=2)]
    game = scripted_game(3, s)
    game.ships = [[0, 1, 2, 3], [7, 8, 9, 10, 11], [14, 15]]
    game.play_turn(0)
    (turn,) = turn_records(game.log)
    assert len(turn.lot) == 3 and s[0].draw_questions == 2  # asked after cards 1 and 2, not 3
    assert turn.bids == ((2, 2),) and turn.winner == 2 and turn.price == 2
    # C11: the sale filled seat 2; seat 0 is the last open ship and takes one card free.
    assert turn.free_seat == 0 and len(turn.free) == 1 and len(game.ships[0]) == 5


def test_lot_stops_at_three_and_when_the_deck_is_empty_c8():
    s = [Scripted(wants=True), Scripted(), Scripted()]
    game = scripted_game(3, s)
    game.play_turn(0)
    assert len(turn_records(game.log)[0].lot) == 3 and s[0].draw_questions == 2
    s = [Scripted(wants=True), Scripted(), Scripted()]
    game = scripted_game(3, s)
    game.deck = [4, 5]
    game.play_turn(0)
    assert sorted(turn_records(game.log)[0].lot) == [4, 5] and s[0].draw_questions == 1


def test_no_draw_question_for_a_lot_nobody_could_take_bigger_c8():
    # Every open ship has exactly one free hold: the auctioneer is never asked.
    s = [Scripted(wants=True) for _ in range(4)]
    game = scripted_game(4, s)
    game.ships = [[0, 1, 2, 3], [7, 8, 9, 10], [14, 15, 16, 17], [21, 22, 23, 24]]
    game.play_turn(1)
    assert len(turn_records(game.log)[0].lot) == 1 and s[1].draw_questions == 0


def test_bidding_order_auctioneer_last_c9():
    order = []

    def note(game, seat):
        order.append(seat)
        return 0

    s = [Scripted(amount=note) for _ in range(5)]
    game = scripted_game(5, s)
    game.play_turn(2)
    assert order == [3, 4, 0, 1, 2]
    (turn,) = turn_records(game.log)
    assert turn.bids == ((3, 0), (4, 0), (0, 0), (1, 0), (2, 0))
    # C10: everyone passed: the lot is discarded, nobody pays.
    assert turn.winner == -1 and turn.price == 0
    assert game.discarded == list(turn.lot) and game.lots_discarded == [0, 0, 1, 0, 0]
    assert game.money == [30] * 5


def test_bids_must_rise_and_money_limits_c9():
    # Seat 1 bids 12; seat 2 has only 12 florins and may not bid (passes unasked);
    # seat 3 is full; the auctioneer (0) bids 13 last and wins.
    s = [Scripted(amount=13), Scripted(amount=12), Scripted(amount=5), Scripted(amount=20)]
    game = scripted_game(4, s)
    game.money = [40, 40, 12, 40]
    game.ships[3] = [0, 1, 2, 3, 4]
    game.play_turn(0)
    (turn,) = turn_records(game.log)
    assert turn.bids == ((1, 12), (0, 13))
    assert s[2].bid_questions == 0 and s[3].bid_questions == 0
    assert (turn.winner, turn.price) == (0, 13)
    # C10: the winner pays the bank and loads the lot in lot order.
    assert game.money == [27, 40, 12, 40]
    assert game.ships[0] == list(turn.lot)
    assert (game.spent, game.lots_bought, game.cards_bought) == ([13, 0, 0, 0], [1, 0, 0, 0],
                                                                 [len(turn.lot), 0, 0, 0])


def test_a_pass_keeps_the_high_bid_c9():
    s = [Scripted(amount=0), Scripted(amount=3), Scripted(amount=0)]
    game = scripted_game(3, s)
    game.play_turn(0)
    (turn,) = turn_records(game.log)
    assert turn.bids == ((1, 3), (2, 0), (0, 0)) and (turn.winner, turn.price) == (1, 3)


def test_no_money_no_bid_c4():
    s = [Scripted(amount=1), Scripted(amount=1), Scripted(amount=1)]
    game = scripted_game(3, s)
    game.money = [0, 0, 0]
    game.play_turn(0)
    (turn,) = turn_records(game.log)
    assert turn.bids == () and turn.winner == -1
    assert all(x.bid_questions == 0 for x in s)


@pytest.mark.parametrize("amount", [41, -1, 5, 2.5, True, "3", None])
def test_illegal_bid_is_an_error_c9(amount):
    # Seat 1 bids 5 first; seat 2 then answers something illegal (41 > money, 5 not above 5, ...).
    s = [Scripted(), Scripted(amount=5), Scripted(amount=amount)]
    game = scripted_game(3, s)
    with pytest.raises(ValueError, match=r"strategy scripted at seat 2"):
        game.play_turn(0)


def test_illegal_bid_names_the_strategy_and_seat():
    class Greedy(Strategy):
        name = "overbid"

        def wants_card(self, game, seat):
            return False

        def bid(self, game, seat):
            return game.money[seat] + 1

    with pytest.raises(ValueError, match=r"strategy overbid at seat 1 bid 41"):
        play_game(classic_rules(3), ["random", "overbid", "random"], 1, 0, decide=[None, Greedy(), None])


def test_last_ship_takes_free_cards_c11():
    # Seat 0 full; seat 1 buys a one-card lot that fills it; seat 2 (one card aboard)
    # is the last open ship and takes 4 cards from the deck for free; the day ends.
    s = [Scripted(), Scripted(amount=1), Scripted(amount=0)]
    game = scripted_game(3, s)
    game.ships = [[0, 1, 2, 3, 4], [7, 8, 9, 10], [14]]
    game.deck = [20, 21, 22, 23, 24, 25, 26]
    assert game.play_turn(1) is True
    (turn,) = turn_records(game.log)
    assert (turn.winner, turn.price, turn.free_seat) == (1, 1, 2)
    assert len(turn.free) == 4 and game.ships[2] == [14, *turn.free]
    assert game.deck_len == 2 and game.free_cards == [0, 0, 4]
    assert game.money == [40, 39, 40]  # free cards cost nothing


def test_last_ship_stops_when_the_deck_is_empty_c11():
    s = [Scripted(), Scripted(amount=1), Scripted(amount=0)]
    game = scripted_game(3, s)
    game.ships = [[0, 1, 2, 3, 4], [7, 8, 9, 10], [14]]
    game.deck = [20, 21, 22]  # one for the lot, two left for the last ship
    assert game.play_turn(1) is True
    (turn,) = turn_records(game.log)
    assert turn.free_seat == 2 and len(turn.free) == 2 and len(game.ships[2]) == 3
    assert game.deck_len == 0


def test_last_ship_not_after_a_discard_and_not_with_two_open_c11():
    # Two ships open after the sale: no free cards, the day goes on.
    s = [Scripted(), Scripted(amount=1), Scripted(amount=0), Scripted(amount=0)]
    game = scripted_game(4, s)
    game.ships = [[0, 1, 2, 3, 4], [7, 8, 9, 10], [14], []]
    assert game.play_turn(1) is False
    assert turn_records(game.log)[0].free_seat == -1
    # A sale that fills the last two open ships at once is impossible; a sale that fills
    # every ship ends the day without free cards.
    s = [Scripted(), Scripted(amount=1), Scripted()]
    game = scripted_game(3, s)
    game.ships = [[0, 1, 2, 3, 4], [7, 8, 9, 10], [14, 15, 16, 17, 18]]
    assert game.play_turn(1) is True
    assert turn_records(game.log)[0].free_seat == -1 and game.open_seats() == []


def test_running_out_ends_the_day_c12():
    # A 2-card deck, everyone passes: two discarded lots, then the deck is empty at the
    # start of a turn and the day ends with every ship as it is.
    s = [Scripted() for _ in range(3)]
    game = scripted_game(3, s)
    game.deck = [5, 6]
    assert game.play_day(1) is True
    turns = turn_records(game.log)
    assert [t.auctioneer for t in turns] == [1, 2]
    assert all(t.winner == -1 for t in turns) and sorted(game.discarded) == [5, 6]


def test_turns_skip_full_ships_c7():
    s = [Scripted() for _ in range(4)]
    game = scripted_game(4, s)
    game.ships[1] = [0, 1, 2, 3, 4]
    game.deck = [10, 11, 12, 13]
    game.play_day(3)
    assert [t.auctioneer for t in turn_records(game.log)] == [3, 0, 2, 3]


def test_day_scoring_c13_to_c16():
    # 4 players. Seat 0: grain 5,5,4 + gold (value 24); seat 1: spice cards (value 6);
    # seat 2: nothing; seat 3: grain 0 and spice 0 (value 0).
    s = [Scripted() for _ in range(4)]
    game = scripted_game(4, s)
    game.ships = [[card(GRAIN, 5), card(GRAIN, 6), card(GRAIN, 4), GOLD],
                  [card(SPICE, 1), card(SPICE, 2), card(SPICE, 3)],
                  [],
                  [card(GRAIN, 0), card(SPICE, 0)]]
    place_the_rest(game)
    game.track = [[3, 0, 0, 0, 0], [0, 3, 0, 0, 0], [0, 0, 6, 0, 0], [0, 0, 0, 0, 0]]
    game.money = [10, 20, 30, 40]
    game.score_day()
    rec = game.record
    assert rec["ship_value"][0].tolist() == [24, 6, 0, 0]
    assert rec["ship_pay"][0].tolist() == [30, 20, 5, 5]  # C13: the two empty-ish ships share 10
    # C14: grain 3+3=6, spice 3+3=6, seat 3 grain 1 spice 1; gold moves nothing.
    assert rec["track"][0].tolist() == [[6, 0, 0, 0, 0], [0, 6, 0, 0, 0], [0, 0, 6, 0, 0], [1, 1, 0, 0, 0]]
    # C15 per good: grain [6,0,0,1] -> 10,0,0,5; spice [0,6,0,1] -> 0,10,0,5;
    # fur [0,0,6,0] -> 1,1,10,1 (5 // 3); dye and cloth all 0 -> 3 each (15 // 4).
    assert rec["majority_pay"][0].tolist() == [10 + 1 + 6, 10 + 1 + 6, 10 + 6, 5 + 5 + 1 + 6]
    assert rec["bonus_pay"][0].tolist() == [10, 10, 10, 0]  # C16: level 6 pays 10
    assert rec["money"][0].tolist() == [10 + 30 + 17 + 10, 20 + 20 + 17 + 10, 30 + 5 + 16 + 10, 40 + 5 + 17]


def test_track_bonus_levels_and_cap_c14_c16():
    s = [Scripted() for _ in range(3)]
    game = scripted_game(3, s)
    # Dye: seat 0 has 5 cards aboard on level 6 -> 7 (capped, C14); seat 1 one card on
    # level 4 -> 5; seat 2 one card on level 5 -> 6. Seat 1 also carries one cloth card.
    game.ships = [[card(DYE, k) for k in range(5)], [card(DYE, 6), card(CLOTH, 0)], [card(DYE, 5)]]
    game.track = [[0, 0, 0, 6, 0], [0, 0, 0, 4, 0], [0, 0, 0, 5, 0]]
    place_the_rest(game)
    game.money = [0, 0, 0]
    game.score_day()
    rec = game.record
    assert rec["track"][0][:, DYE].tolist() == [7, 5, 6]
    assert rec["track"][0][:, CLOTH].tolist() == [0, 1, 0]
    assert rec["bonus_pay"][0].tolist() == [20, 5, 10]  # C16: levels 7, 5, 6
    # C15: dye [7, 5, 6] -> 10, 0, 5; cloth [0, 1, 0] -> 2 (5 // 2), 10, 2;
    # grain, spice and fur all at 0 -> 15 // 3 = 5 each, three times.
    assert rec["majority_pay"][0].tolist() == [10 + 2 + 15, 0 + 10 + 15, 5 + 2 + 15]
    assert rec["ship_value"][0].tolist() == [10, 5, 5]
    assert rec["ship_pay"][0].tolist() == [30, 7, 7]
    assert rec["money"][0].tolist() == [30 + 27 + 20, 7 + 25 + 5, 7 + 22 + 10]


def test_next_starter_c6():
    game = ClassicGame(classic_rules(4), ["random"] * 4, 11, 2)
    game.money = [10, 5, 7, 6]
    state = game.rng.state
    assert game.next_starter() == 1 and game.rng.state == state  # one poorest: no draw
    game.money = [10, 5, 5, 6]
    expected = GameRandom(11, 2)
    expected.state = game.rng.state
    assert game.next_starter() == [1, 2][expected.below(2)]
    assert game.rng.state == expected.state
    # With every seat tied, all are candidates; over many draws each one starts.
    seen = set()
    for _ in range(200):
        game.money = [3, 3, 3, 3]
        seen.add(game.next_starter())
    assert seen == {0, 1, 2, 3}


def test_winner_shares_c18():
    game = ClassicGame(classic_rules(4), ["random"] * 4, 1, 0)
    game.money = [50, 50, 50, 10]
    game.finish()
    assert game.record["winner_share60"].tolist() == [20, 20, 20, 0]
    game = ClassicGame(classic_rules(3), ["random"] * 3, 1, 0)
    game.money = [50, 40, 50]
    game.finish()
    assert game.record["winner_share60"].tolist() == [30, 0, 30]
    game = ClassicGame(classic_rules(6), ["random"] * 6, 1, 0)
    game.money = [1, 2, 3, 4, 5, 9]
    game.finish()
    assert game.record["winner_share60"].tolist() == [0, 0, 0, 0, 0, 60]


# --------------------------------------------------------------------------------------
# The random strategy, seating and determinism (C19, C20)
# --------------------------------------------------------------------------------------

def test_random_strategy_draws_per_protocol_c19():
    game = ClassicGame(classic_rules(3), ["random"] * 3, 42, 9)
    game.start_day(0)
    game.lot = [game.draw()]
    strategy = RandomStrategy()
    for highest, money in [(0, 40), (7, 12), (30, 31), (0, 3)]:
        game.highest = highest
        game.money = [money] * 3
        mirror = copy.deepcopy(game.rng)
        answer = strategy.bid(game, 1)
        if mirror.coin():
            expected = highest + 1 + mirror.below(min(money, highest + 10) - highest)
        else:
            expected = 0
        assert answer == expected and game.rng.state == mirror.state
        mirror = copy.deepcopy(game.rng)
        assert strategy.wants_card(game, 1) == mirror.coin() and game.rng.state == mirror.state


def test_random_strategy_has_no_parameters():
    with pytest.raises(ValueError, match="no parameter"):
        play_game(classic_rules(3), ["random"] * 3, 1, 0, params=[{"x": 1}, None, None])
    assert STRATEGIES["random"] is RandomStrategy


def test_random_bids_are_spread_c19():
    # Bids by random players over many games: every increment 1..10 above the highest occurs,
    # never more.
    increments = set()
    for i in range(40):
        rec = play_game(classic_rules(4), ["random"] * 4, 3, i)
        for day in range(3):
            for t in turn_records(rec["lots"][day]):
                highest = 0
                for _, amount in t.bids:
                    if amount:
                        increments.add(amount - highest)
                        highest = amount
    assert increments == set(range(1, 11))


def test_unknown_names_and_seatings():
    with pytest.raises(ValueError, match="unknown strategy"):
        play_game(classic_rules(3), ["random", "nope", "random"], 1, 0)
    with pytest.raises(ValueError, match="unknown seating"):
        play_game(classic_rules(3), ["random"] * 3, 1, 0, seating="shuffled")
    with pytest.raises(ValueError):
        play_game(classic_rules(3), ["random"] * 4, 1, 0)


def test_seating_c20():
    assert play_game(classic_rules(4), ["random"] * 4, 1, 0)["seat_slot"].tolist() == [0, 1, 2, 3]
    assert play_game(classic_rules(4), ["random"] * 4, 1, 5, seating="rotate")["seat_slot"].tolist() == [1, 2, 3, 0]
    rng = GameRandom(1, 5)
    perm = list(range(5))
    for j in range(4, 0, -1):
        r = rng.below(j + 1)
        perm[j], perm[r] = perm[r], perm[j]
    assert play_game(classic_rules(5), ["random"] * 5, 1, 5, seating="random")["seat_slot"].tolist() == perm


def test_first_draws_of_a_game_follow_the_protocol():
    # Fixed seating: the first draws are the removed cards (lazy shuffle of 0..35), then the
    # first lot card.
    rng = GameRandom(99, 4)
    deck = list(range(36))
    dealt = []
    for _ in range(13):
        j = rng.below(len(deck))
        dealt.append(deck[j])
        deck[j] = deck[-1]
        deck.pop()
    rec = play_game(classic_rules(4), ["random"] * 4, 99, 4)
    assert rec["removed"][0].tolist() == dealt[:12]
    first = turn_records(rec["lots"][0])[0]
    assert first.auctioneer == 0 and first.lot[0] == dealt[12]


def test_deterministic_c20():
    a = play_game(classic_rules(5), ["random"] * 5, 123, 77, seating="random")
    b = play_game(classic_rules(5), ["random"] * 5, 123, 77, seating="random")
    c = play_game(classic_rules(5), ["random"] * 5, 123, 78, seating="random")
    assert a.keys() == b.keys()
    for key in a:
        if key == "lots":
            assert all(np.array_equal(x, y) for x, y in zip(a[key], b[key], strict=True))
        else:
            assert np.array_equal(a[key], b[key]), key
    assert not all(np.array_equal(x, y) for x, y in zip(a["lots"], c["lots"], strict=True))


def test_turn_log_round_trip():
    t = TurnRecord(2, (5, 35), ((3, 0), (0, 4), (1, 0), (2, 9)), 2, 9, 1, (7, 8))
    assert turn_records(t.flat()) == [t]
    assert turn_records(t.flat() + t.flat()) == [t, t]
    with pytest.raises(ValueError):
        turn_records(t.flat()[:-1])


# --------------------------------------------------------------------------------------
# Invariants over random games, checked by replaying the turn log
# --------------------------------------------------------------------------------------

def replay_and_check(players: int, rec: dict) -> dict:
    """Replay every day of a game from its record and assert the rules hold. Returns counts."""
    holds = rules.HOLDS
    money = [rules.starting_money(players)] * players
    track = np.zeros((players, 5), np.int64)
    spent = np.zeros(players, np.int64)
    lots_bought = np.zeros(players, np.int64)
    cards_bought = np.zeros(players, np.int64)
    lots_discarded = np.zeros(players, np.int64)
    free_cards = np.zeros(players, np.int64)
    counts = {"c11": 0, "c12": 0, "asked": 0}
    for day in range(3):
        # C6
        if day == 0:
            assert rec["starter"][0] == 0
        else:
            prev = rec["money"][day - 1]
            assert prev[rec["starter"][day]] == prev.min()
        ships = [[] for _ in range(players)]
        discarded = []
        deck_len = 36 - rules.removed_cards(players)
        turns = turn_records(rec["lots"][day])
        assert turns, "a day has at least one turn"
        expected_auctioneer = int(rec["starter"][day])
        for n_turn, t in enumerate(turns):
            is_open = [len(s) < holds for s in ships]
            # C7: turns go clockwise from the starter, skipping full ships.
            assert t.auctioneer == expected_auctioneer
            assert is_open[t.auctioneer]
            assert deck_len > 0  # C12: no turn starts on an empty deck
            # C8: 1-3 cards, never more than the largest free holds among open ships.
            free_before = [holds - len(s) for s in ships]
            assert 1 <= len(t.lot) <= 3
            assert len(t.lot) <= max(free_before)
            assert len(t.lot) <= deck_len
            deck_len -= len(t.lot)
            # C9: exactly the seats that may bid are asked, clockwise from the auctioneer's
            # left, the auctioneer last; each bid beats the high bid and fits the bidder's money.
            highest, high_bidder = 0, -1
            expected_asked = []
            for step in range(1, players + 1):
                seat = (t.auctioneer + step) % players
                if is_open[seat] and free_before[seat] >= len(t.lot) and money[seat] > highest:
                    expected_asked.append(seat)
                    amount = dict(t.bids)[seat] if seat in dict(t.bids) else None
                    assert amount is not None, f"seat {seat} was not asked"
                    if amount:
                        assert highest < amount <= money[seat]
                        assert amount <= highest + 10  # C19
                        highest, high_bidder = amount, seat
            assert [seat for seat, _ in t.bids] == expected_asked
            counts["asked"] += len(t.bids)
            # C10
            assert (t.winner, t.price) == (high_bidder, highest)
            if t.winner >= 0:
                money[t.winner] -= t.price
                assert money[t.winner] >= 0  # C4
                ships[t.winner] += list(t.lot)
                assert len(ships[t.winner]) <= holds  # C3
                spent[t.winner] += t.price
                lots_bought[t.winner] += 1
                cards_bought[t.winner] += len(t.lot)
            else:
                discarded += list(t.lot)
                lots_discarded[t.auctioneer] += 1
            # C11
            still_open = [s for s in range(players) if len(ships[s]) < holds]
            if t.winner >= 0 and len(still_open) == 1:
                assert t.free_seat == still_open[0]
                take = min(holds - len(ships[t.free_seat]), deck_len)
                assert len(t.free) == take
                ships[t.free_seat] += list(t.free)
                deck_len -= take
                free_cards[t.free_seat] += take
                assert n_turn == len(turns) - 1  # the day ends
                counts["c11"] += 1
            else:
                assert t.free_seat == -1 and t.free == ()
            still_open = [s for s in range(players) if len(ships[s]) < holds]
            if n_turn < len(turns) - 1:
                assert still_open
                nxt = next((t.auctioneer + k) % players for k in range(1, players + 1)
                           if (t.auctioneer + k) % players in still_open)
                expected_auctioneer = nxt
        # How the day ended: all full, C11, or C12 (>= 2 ships open and the deck empty).
        still_open = [s for s in range(players) if len(ships[s]) < holds]
        ran_out = len(still_open) >= 2
        if ran_out:
            assert deck_len == 0
            counts["c12"] += 1
        assert rec["ran_out"][day] == int(ran_out)
        # Every card is accounted for once: deck + removed + discarded + ships = 36.
        loc = rec["card_location"][day]
        assert (loc == LOC_DECK).sum() == deck_len
        assert sorted(np.flatnonzero(loc == LOC_REMOVED).tolist()) == sorted(rec["removed"][day].tolist())
        assert sorted(np.flatnonzero(loc == LOC_DISCARDED).tolist()) == sorted(discarded)
        all_ship_cards = []
        for seat in range(players):
            assert sorted(np.flatnonzero(loc == LOC_SHIP + seat).tolist()) == sorted(ships[seat])
            row = rec["ship_cards"][day, seat]
            assert row[: len(ships[seat])].tolist() == ships[seat] and (row[len(ships[seat]):] == -1).all()
            all_ship_cards += ships[seat]
        assert deck_len + len(rec["removed"][day]) + len(discarded) + len(all_ship_cards) == 36
        assert len(set(rec["removed"][day].tolist()) | set(discarded) | set(all_ship_cards)) == \
            36 - deck_len
        # Scoring, recomputed from the replayed ships (C13-C16).
        values = [sum(rules.CARD_VALUE[c] for c in s) for s in ships]
        assert rec["ship_value"][day].tolist() == values
        assert rec["ship_pay"][day].tolist() == ship_payouts(values, classic_rules(players))
        before = track.copy()
        for seat in range(players):
            for c in ships[seat]:
                if rules.CARD_GOOD[c] >= 0:
                    track[seat, rules.CARD_GOOD[c]] += 1
        track = np.minimum(track, 7)
        assert (track >= before).all() and (track <= 7).all()
        assert np.array_equal(rec["track"][day], track)
        majority = np.zeros(players, np.int64)
        bonus = np.zeros(players, np.int64)
        for good in range(5):
            majority += majority_payouts(track[:, good].tolist(), classic_rules(players))
            bonus += [rules.TRACK_BONUS[level] for level in track[:, good]]
        assert rec["majority_pay"][day].tolist() == majority.tolist()
        assert rec["bonus_pay"][day].tolist() == bonus.tolist()
        paid_today = rec["ship_pay"][day] + majority + bonus
        money = [int(money[s] + paid_today[s]) for s in range(players)]
        assert rec["money"][day].tolist() == money
        assert min(money) >= 0
    # Totals (C21) and money conservation.
    for key, expected in [("spent", spent), ("lots_bought", lots_bought), ("cards_bought", cards_bought),
                          ("lots_discarded", lots_discarded), ("free_cards", free_cards)]:
        assert rec[key].tolist() == expected.tolist(), key
    paid = (rec["ship_pay"] + rec["majority_pay"] + rec["bonus_pay"]).sum(axis=0)
    assert np.array_equal(rec["money"][-1], rules.starting_money(players) - rec["spent"] + paid)
    # C18
    final = rec["money"][-1]
    winners = final == final.max()
    assert rec["winner_share60"].tolist() == np.where(winners, 60 // winners.sum(), 0).tolist()
    return counts


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_invariants_over_random_games(players):
    totals = {"c11": 0, "c12": 0, "asked": 0}
    seatings = ("fixed", "rotate", "random")
    for i in range(75):
        rec = play_game(classic_rules(players), ["random"] * players, 2024, i, seating=seatings[i % 3])
        assert sorted(rec["seat_slot"].tolist()) == list(range(players))
        for key, value in replay_and_check(players, rec).items():
            totals[key] += value
    # Both special day ends occur with random players (so their checks ran).
    assert totals["c11"] > 0
    assert totals["c12"] > 0
    assert totals["asked"] > 0


def test_record_shapes():
    rec = play_game(classic_rules(4), ["random"] * 4, 1, 1)
    shapes = {key: value.shape for key, value in rec.items() if key != "lots"}
    assert shapes == {
        "seat_slot": (4,), "starter": (3,), "ran_out": (3,), "removed": (3, 12),
        "card_location": (3, 36), "ship_cards": (3, 4, 5), "ship_value": (3, 4), "ship_pay": (3, 4),
        "majority_pay": (3, 4), "bonus_pay": (3, 4), "track": (3, 4, 5), "money": (3, 4),
        "spent": (4,), "lots_bought": (4,), "cards_bought": (4,), "lots_discarded": (4,),
        "free_cards": (4,), "winner_share60": (4,),
    }
    assert all(value.dtype == np.int64 for key, value in rec.items() if key != "lots")
    assert len(rec["lots"]) == 3 and all(x.dtype == np.int64 and x.ndim == 1 for x in rec["lots"])
