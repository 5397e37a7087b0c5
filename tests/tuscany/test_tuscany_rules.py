"""Rule tests of the Tuscany reference engine (docs/rules-tuscany.md, T10-T37), on positions
built by hand (tuscany_positions.py draws the estate every test uses)."""
from __future__ import annotations

import pytest
from tuscany_positions import CASTLE_FIELD, Scripted, colour, cover, new_game, tile

from medici_sim.games.tuscany.components import YIELD_HEXAGON, components
from medici_sim.games.tuscany.reference import HEX, START_CASTLE, Game, can_pay, payments
from medici_sim.games.tuscany.reference_players import Payment, RandomPlayer, canonical_payment
from medici_sim.games.tuscany.rules import (
    BONUS_CARD,
    BONUS_MARBLE,
    BONUS_STORAGE,
    BONUS_WORKER,
    BONUS_YIELD,
    DRAW,
    PLACE,
    RULE_BOOK,
    TAKE,
)

CL, CO, CY, CW, CG, CD, CR, CU = (colour(c) for c in "LOYWGDRU")


def hand(**counts) -> list[int]:
    cards = [0] * 8
    for letter, n in counts.items():
        cards[colour(letter)] = n
    return cards


# -- T12, T13: setup and drawing ------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_t12_setup_hands_castle_and_one_bonus_tile_each(players):
    fresh = Game(components(), RULE_BOOK.resolve(None, players), [RandomPlayer() for _ in range(players)],
                 seed=3).setup()
    for p in fresh.players:
        assert sum(p.hand) == 5 and sum(p.bonus) == 1
        assert [p.colours[f] for f, item in enumerate(p.field_item) if item == START_CASTLE] == [CD]
        assert p.green == 2 * p.bonus[BONUS_STORAGE] and p.red == 0  # T12: +1 storage scores 2 green
        assert [len(s) for s in p.stacks] == [7, 7, 7]
    assert sum(fresh.bonus_supply) == 25 - players


def test_t13_draw_counts_card_bonus_tiles_and_reshuffles_the_discards():
    game = new_game()
    p = game.players[0]
    p.bonus[BONUS_CARD] = 1
    game.deck, game.discards = [CL, CL], [CO, CO, CO]
    game.action(p)  # draws 3 + 1
    assert p.hand == hand(L=2, O=2) and len(game.deck) == 1 and game.discards == []


def test_t13_with_deck_and_discards_empty_the_rest_of_the_draw_is_lost():
    game = new_game()
    p = game.players[0]
    game.deck, game.discards = [CY], []
    assert game.legal_actions(p)[0] == DRAW
    game.action(p)
    assert p.hand == hand(Y=1) and game.deck == [] == game.discards


# -- T14, T15: taking and the stacks ---------------------------------------------------------------------

def test_t14_take_refills_from_the_leftmost_non_empty_stack_then_the_supply():
    game = new_game(strategies=[Scripted(action=TAKE), Scripted()])
    p = game.players[0]
    a, x, y = tile(game, "O", 0), tile(game, "W"), tile(game, "G")
    p.stacks = [[], [a], []]
    game.display = [x, y, None, None, None, None, None, None]
    game.supply = []
    game.action(p)
    assert p.storage == [x] and game.display[0] == a and not game.phase_pending  # stack 2 in phase 1: nothing
    p.bonus[BONUS_STORAGE] = 1
    game.action(p)  # all stacks empty, supply empty: the gap stays empty
    assert p.storage == [x, a] and game.display[0] is None


def test_t14_with_storage_full_a_stored_item_leaves_the_game_first():
    game = new_game(strategies=[Scripted(action=TAKE, take=[1], discard=[1]), Scripted()])
    p = game.players[0]
    x, y, s0, s1 = tile(game, "W"), tile(game, "G"), tile(game, "O"), tile(game, "Y")
    p.bonus[BONUS_STORAGE] = 1
    p.storage = [s0, s1]
    p.stacks = [[tile(game, "R", 0)], [], []]
    game.display = [x, y] + [None] * 6
    game.action(p)
    assert p.storage == [s0, y] and game.out == [s1]


def _take_last_of_stack(game, seat: int, stack: int):
    p = game.players[seat]
    p.stacks = [[], [], []]
    p.stacks[stack] = [tile(game, "O", seat)]
    game.display = [tile(game, "W")] + [None] * 7


def test_t15_the_last_tile_of_stack_n_in_phase_n_ends_the_phase_after_the_round():
    game = new_game(3, strategies=[Scripted(action=[TAKE]), Scripted(), Scripted(action=[PLACE])])
    _take_last_of_stack(game, 0, 0)
    late = game.players[2]  # plays after the trigger, in the same round: scores 1 green (T21)
    late.storage, late.hand = [tile(game, "G")], hand(G=2)
    game.play_round()
    assert game.phase == 2 and game.phase_end_round == [1, 0, 0] and not game.phase_pending
    assert sum(game.players[1].hand) == 3  # the round was finished
    assert late.points["regions"] == 1 and late.red == late.green == 1  # banked after its turn
    assert [p.red for p in game.players] == [p.green for p in game.players]


def test_t15_emptying_a_stack_below_the_phase_ends_nothing():
    game = new_game(strategies=[Scripted(action=TAKE), Scripted()])
    game.phase = 2
    _take_last_of_stack(game, 0, 0)
    game.play_round()
    assert game.phase == 2 and game.phase_end_round == [0, 0, 0]


def test_t15_stack_3_in_phase_3_ends_the_game_after_the_round():
    game = new_game(strategies=[Scripted(action=TAKE), Scripted()])
    game.phase = 3
    _take_last_of_stack(game, 0, 2)
    game.play_round()
    assert game.over and game.phase_end_round == [0, 0, 1] and sum(game.players[1].hand) == 3


# -- T16, T17: the display -----------------------------------------------------------------------------

def test_t16_five_of_a_colour_leave_and_the_check_repeats():
    game = new_game(strategies=[Scripted(action=TAKE, take=[4]), Scripted()])
    p = game.players[0]
    oranges = [tile(game, "O", nth=k) for k in range(4)]
    yellows = [tile(game, "Y", nth=k) for k in range(4)] + [tile(game, "Y", 1)]
    p.stacks = [[tile(game, "O", 0), tile(game, "R", 0)], [], []]
    game.display = oranges + [tile(game, "W"), tile(game, "G"), tile(game, "R"), tile(game, "U")]
    game.supply = yellows + [tile(game, "L", nth=k) for k in range(4)] + [tile(game, "D")]
    game.action(p)  # the refill shows a fifth O: O out, five Y in; five Y: Y out, L and D in
    assert game.refreshes == 2
    assert [game.tile_kind[t] for t in game.display] == [CL, CL, CL, CL, CD, CG, CR, CU]
    assert sorted(game.out) == sorted(oranges + [tile(game, "O", 0)] + yellows)


def test_t16_a_place_stays_empty_with_the_supply_empty():
    game = new_game(strategies=[Scripted(action=TAKE, take=[4]), Scripted()])
    p = game.players[0]
    p.stacks = [[tile(game, "O", 0)], [tile(game, "W", 0)], []]
    game.display = [tile(game, "O", nth=k) for k in range(4)] + [tile(game, "W")] + [None] * 3
    game.supply = [tile(game, "G")]
    game.action(p)
    assert game.refreshes == 1 and game.display[:5] == [tile(game, "G"), None, None, None, None]


def test_t17_with_no_placeable_tile_a_kind_may_be_replaced_and_a_fitting_tile_must_be_taken():
    game = new_game(strategies=[Scripted(action=TAKE, refresh=[CR]), Scripted()])
    p = game.players[0]
    p.stacks = [[tile(game, "Y", 0)], [], []]
    game.display = [tile(game, "R", nth=k) for k in range(3)] + [None] * 5  # R fields 2, 14, 29 touch nothing
    game.supply = [tile(game, "U"), tile(game, "G")]  # U fields 8, 24 touch nothing; G field 10 does
    game.action(p)
    asked = [(d, options) for d, options, _ in p.strategy.asked if d in ("refresh", "take")]
    assert asked == [("refresh", [None, CR]), ("take", [1])]
    assert game.t17_refreshes == 1 and p.storage == [tile(game, "G")]


def test_t17_the_random_player_never_uses_it():
    assert RandomPlayer().refresh(None, [None, CR]) is None


# -- T18, T19: placing --------------------------------------------------------------------------------

def test_t18_every_payment_is_listed_and_pairs_come_from_other_colours():
    options = payments(hand(Y=1, O=2, L=4), 1, CY)
    assert set(options) == {Payment(1, 1, ()), Payment(1, 0, (CL,)), Payment(1, 0, (CO,)), Payment(0, 1, (CL,)),
                            Payment(0, 1, (CO,)), Payment(0, 0, (CL, CL)), Payment(0, 0, (CL, CO))}
    assert len(options) == len(set(options))
    assert payments(hand(Y=4), 0, CY) == [Payment(2, 0, ())]  # a pair of the field's own colour is not a unit


def test_t18_means_to_pay():
    assert can_pay(hand(Y=1), 1, CY) and can_pay(hand(O=2, L=2), 0, CY) and can_pay(hand(), 2, CY)
    assert not can_pay(hand(O=1, L=1, G=1, W=1, Y=0), 1, CY) and not can_pay(hand(Y=1, O=1), 0, CY)


def test_t39_payment_matching_cards_then_workers_then_pairs_from_the_largest_colour():
    assert canonical_payment(hand(Y=1, L=3, O=3), 1, CY) == Payment(1, 1, ())
    assert canonical_payment(hand(Y=1, L=3, O=3), 0, CY) == Payment(1, 0, (CL,))  # tie: L before O
    assert canonical_payment(hand(W=1, L=3, O=3), 1, CY) == Payment(0, 1, (CL,))
    assert canonical_payment(hand(L=4, O=3), 0, CY) == Payment(0, 0, (CL, CO))  # "at that moment": 4 then 2 < 3
    assert canonical_payment(hand(Y=5, L=9), 2, CY) == Payment(2, 0, ())


def test_t18_placing_pays_cards_to_the_discards_and_returns_workers():
    game = new_game(strategies=[Scripted(action=PLACE, place=[(0, 16)],
                                         payment=lambda view, options: Payment(0, 1, (CO,))), Scripted()])
    p = game.players[0]
    p.storage, p.hand, p.workers = [tile(game, "W")], hand(O=3, W=1), 2
    game.yield_deck = [0]  # the wagon's card: 3 green (reconstructed deck)
    game.action(p)
    assert p.field_item[16] is not None and p.storage == []
    assert p.hand == hand(O=1, W=1) and p.workers == 1 and p.counts["workers_used"] == 1
    assert game.discards == [CO, CO]


def test_t19_a_tile_touches_the_estate_and_matches_its_field_a_hexagon_any_colour():
    game = new_game()
    p = game.players[0]
    assert p.legal_fields(CW) == [16, 21]  # touching the starting castle (field 15); field 5 and 26 do not
    assert p.legal_fields(None) == [10, 11, 16, 20, 21]  # a hexagon: any colour
    assert p.legal_fields(CR) == []
    cover(game, 0, 16)
    assert p.legal_fields(CW) == [21]


def test_t19_a_hexagon_counts_as_its_fields_colour_and_gives_its_effect():
    game = new_game()
    p = game.players[0]
    game.put(p, HEX, 20)  # an O field: a village
    assert p.workers == 1 and p.counts["hexagons_placed"] == 1 and p.points["regions"] == 1


# -- T20-T22: scoring in order ----------------------------------------------------------------------------

def test_t20_region_then_colour_bonus_then_the_effect():
    game = new_game(strategies=[Scripted(castle=[(0, 21)]), Scripted()])
    p = game.players[0]
    cover(game, 0, 20, 9)  # 20 lets field 25 touch the estate; 9 and the castle leave 25 the last D field
    game.display = [tile(game, "W")] + [None] * 7
    p.stacks = [[tile(game, "R", 0)], [], []]
    game.put(p, tile(game, "D", 0), 25)
    decision, _, facts = p.strategy.asked[-1]
    assert decision == "castle" and facts["green"] == 1 + 2  # region (T21) and D's front value (T22) first
    assert p.points["regions"] == 1 and p.points["colour_bonus"] == 2  # the W on 21 completes nothing


def test_t21_region_scores_by_size():
    game = new_game()
    p = game.players[0]
    for field in (16, 21):
        game.put(p, HEX, field)
        assert p.points["regions"] == 0
    game.put(p, HEX, 26)
    assert p.points["regions"] == 6  # a region of 3 fields (W 16+21+26)
    game.put(p, HEX, 10)
    assert p.points["regions"] == 7  # a region of 1 field


@pytest.mark.parametrize("claims, scored", [(0, 3), (1, 2), (2, 0), (3, 0)])
def test_t22_front_for_the_first_back_for_the_second_nothing_later(claims, scored):
    game = new_game(3)
    p = game.players[0]
    game.colour_claims[CW] = claims
    cover(game, 0, 5, 16, 21)
    game.put(p, HEX, 26)  # the last W field
    assert p.points["colour_bonus"] == scored and game.colour_claims[CW] == claims + 1


# -- T24-T31: the effects ---------------------------------------------------------------------------------

def test_t24_castle_chain_sees_the_gap_open_and_refills_after_the_chain():
    game = new_game(strategies=[Scripted(castle=[(0, 9), (1, 16)]), Scripted()])
    p = game.players[0]
    cover(game, 0, 20, 14)  # 25 and 9 now touch the estate
    a, b = tile(game, "O", 0), tile(game, "Y", 0)
    p.stacks = [[a, b], [], []]
    game.display = [tile(game, "D"), tile(game, "W")] + [None] * 6
    game.put(p, tile(game, "D", 0), 25)
    castles = [facts for d, _, facts in p.strategy.asked if d == "castle"]
    assert len(castles) == 2 and castles[1]["display"][0] is None  # the chain's castle sees the gap open
    assert game.display[:2] == [b, a]  # the inner gap (place 1) refilled first
    assert p.field_item[9] is not None and p.field_item[16] is not None
    assert p.counts["yield_drawn"] == 1  # the W placed by the chain acted (T30)


def test_t24_the_castles_refill_may_end_the_phase():
    game = new_game(strategies=[Scripted(castle=[(0, 16)]), Scripted()])
    p = game.players[0]
    cover(game, 0, 20)
    p.stacks = [[tile(game, "O", 0)], [tile(game, "Y", 0)], []]
    game.display = [tile(game, "W")] + [None] * 7
    game.yield_deck = [0]
    game.put(p, tile(game, "D", 0), 25)
    assert game.display[0] == tile(game, "O", 0) and game.phase_pending  # T15 through T24's refill


def test_t24_with_no_placeable_display_tile_the_castle_is_lost():
    game = new_game(strategies=[Scripted(), Scripted()])
    p = game.players[0]
    cover(game, 0, 20)
    game.display = [tile(game, "R")] + [None] * 7
    game.put(p, tile(game, "D", 0), 25)
    assert "castle" not in [d for d, _, _ in p.strategy.asked] and game.display[0] == tile(game, "R")


def test_t25_city_takes_a_bonus_tile_storage_scores_green():
    game = new_game(strategies=[Scripted(bonus=[BONUS_STORAGE]), Scripted()])
    p = game.players[0]
    game.bonus_supply[BONUS_MARBLE] = 0
    cover(game, 0, 19)
    game.put(p, tile(game, "R", 0), 14)
    asked = [options for d, options, _ in p.strategy.asked if d == "bonus"]
    assert asked == [[0, 1, 3, 4]] and p.bonus[BONUS_STORAGE] == 1 and p.capacity == 2
    assert p.points["storage_bonus"] == 2


def test_t26_an_inn_from_storage_leaves_room_for_its_hexagon():
    game = new_game(strategies=[Scripted(action=PLACE, place=[(0, 24)]), Scripted()])
    p = game.players[0]
    cover(game, 0, 19)
    p.storage, p.hand = [tile(game, "U", 0)], hand(U=2)
    game.action(p)
    assert p.storage == [HEX] and p.red == 0


def test_t26_a_hexagon_without_room_scores_red():
    game = new_game(strategies=[Scripted(castle=[(0, 24)]), Scripted()])
    p = game.players[0]
    cover(game, 0, 19, 20)
    p.storage = [tile(game, "W")]  # full
    game.display = [tile(game, "U")] + [None] * 7
    game.put(p, tile(game, "D", 0), 25)  # a castle places the inn: no space left by it
    assert p.storage == [tile(game, "W")] and p.points["no_room"] == 2 and p.red == 2


def test_t26_a_yield_hexagon_without_room_scores_red():
    game = new_game()
    p = game.players[0]
    hexagon = next(i for i, c in enumerate(game.yield_cards) if c.kind == YIELD_HEXAGON)
    p.storage = [tile(game, "W")]
    game.yield_deck = [hexagon]
    game.draw_yield(p)
    assert p.points["no_room"] == 2 and p.storage == [tile(game, "W")]


def test_t27_agriculture_scores_types_new_to_the_region_a_hexagon_one():
    game = new_game()
    p = game.players[0]
    cover(game, 0, 19)
    game.put(p, tile(game, "L", 0, types=0b0011), 18)  # olives, grapes: both new
    assert p.points["agriculture"] == 2
    game.put(p, tile(game, "L", 0, types=0b0110), 23)  # grapes, grain: grain new
    assert p.points["agriculture"] == 3 and p.points["regions"] == 3
    cover(game, 0, 11)
    game.put(p, HEX, 12)  # a hexagon on an L field
    assert p.points["agriculture"] == 4


@pytest.mark.parametrize("letter, field, bonus, check", [
    ("O", 20, BONUS_WORKER, lambda p: p.workers == 2),  # T28
    ("Y", 11, BONUS_CARD, lambda p: sum(p.hand) == 3),  # T29: +1 card does not apply
    ("W", 16, BONUS_YIELD, lambda p: p.counts["yield_drawn"] == 2),  # T30
    ("G", 10, BONUS_MARBLE, lambda p: p.marble == 2),  # T31
])
def test_t28_t31_village_monastery_wagon_quarry(letter, field, bonus, check):
    game = new_game()
    p = game.players[0]
    p.bonus[bonus] = 1
    game.put(p, tile(game, letter), field)
    assert check(p)


def test_t32_a_marble_buys_one_more_action_once_per_turn():
    game = new_game(strategies=[Scripted(marble=True), Scripted()])
    p = game.players[0]
    p.marble = 2
    game.turn(p)
    assert sum(p.hand) == 6 and p.marble == 1 and p.counts["marble_used"] == 1
    assert [d for d, _, _ in p.strategy.asked].count("marble") == 1


# -- T34-T37: scoring and the end ---------------------------------------------------------------------------

def test_t34_green_is_banked_into_red_at_each_phase_end_and_not_reset():
    game = new_game()
    p = game.players[0]
    p.green = p.points["regions"] = 5
    for phase in (1, 2, 3):
        game.phase_pending = True
        game.play_round()
        assert p.points["banking"] == 5 * phase and p.green == 5
    assert game.over and game.phase_end_round == [1, 2, 3]
    assert p.points["final"] == 9 // 3 and p.red == 15 + 3  # T35: 9 cards drawn in three rounds


def test_t35_final_scoring():
    game = new_game()
    p = game.players[0]
    p.storage, p.marble, p.workers, p.hand = [HEX, tile(game, "W")], 1, 2, hand(L=5, O=3)
    game.finish()
    assert p.points["final"] == 2 + 1 + 2 + 8 // 3 and p.red == 7


def test_t36_tie_breaks_empty_fields_then_fewest_green_then_fewest_cards_then_shared():
    game = new_game(3)
    a, b, c = game.players
    for p in game.players:
        p.red = 20
    cover(game, 0, 16)
    assert game.winners() == [1, 2]  # seat 0 has fewer empty fields
    b.green = 4
    assert game.winners() == [2]  # most green loses the tie
    c.green, c.hand = 4, hand(L=1)
    assert game.winners() == [1]  # then most cards loses
    b.hand = hand(O=1)
    assert game.winners() == [1, 2]
    record = game.record()
    assert record["seats"]["winner_share60"] == [0, 30, 30]


def test_t37_a_game_reaching_the_round_limit_ends_as_if_phase_3_ended():
    game = new_game(rules="round_limit=3")
    p = game.players[0]
    p.green = p.points["regions"] = 2
    game.play()
    assert game.round == 3 and game.reached_limit and game.phase_end_round == [0, 0, 0]
    assert p.points["banking"] == 2 and p.points["final"] == 3


@pytest.mark.parametrize("players", [2, 4])
def test_t40_later_seat_cards_a_start_bonus_for_the_later_seats_off_by_default(players):
    """The designer's knob for the start player's edge (T12, T40): seat k draws (k - 1) x later_seat_cards more
    region cards at setup; its default, 0, is the printed rule."""
    assert RULE_BOOK.resolve(None, players)["later_seat_cards"] == 0
    fresh = Game(components(), RULE_BOOK.resolve("later_seat_cards=2", players),
                 [RandomPlayer() for _ in range(players)], seed=3).setup()
    assert [sum(p.hand) for p in fresh.players] == [5 + 2 * k for k in range(players)]


def test_t40_the_original_preset_draws_two():
    game = new_game(rules="original")
    game.action(game.players[0])
    assert sum(game.players[0].hand) == 2


def test_a_strategy_answering_outside_its_options_is_refused():
    game = new_game(strategies=[Scripted(action=7), Scripted()])
    with pytest.raises(ValueError, match="seat 1 answered action with 7"):
        game.action(game.players[0])


def test_the_start_castle_field_is_the_known_one():
    assert new_game().players[0].field_item[CASTLE_FIELD] == START_CASTLE
