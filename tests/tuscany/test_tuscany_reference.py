"""The Tuscany reference engine over many canonical random games (T38-T39): invariants checked
after every turn, the game's record, determinism from (seed, game index)."""
from __future__ import annotations

import json

import pytest

from medici_sim.core.rng import GameRandom
from medici_sim.games.tuscany.components import components, parse_components
from medici_sim.games.tuscany.geometry import ESTATE_FIELDS, neighbours
from medici_sim.games.tuscany.reference import GREEN_SOURCES, HEX, RED_SOURCES, START_CASTLE, Game, play_game
from medici_sim.games.tuscany.reference_players import RandomPlayer
from medici_sim.games.tuscany.rules import BONUS_TILES_PER_KIND, RULE_BOOK

GAMES = 40  # per player count: about 1 s each
PINNED = ([22, 45], 46, [14, 26, 46])  # test_a_pinned_game: red per seat, rounds, the round each phase ended


class CheckedGame(Game):
    """Checks the invariants after every turn."""

    def turn(self, p):
        super().turn(p)
        check_invariants(self)


def check_invariants(game: Game) -> None:
    comp = game.components
    per_player = sum(comp.player_tiles)
    where: dict[int, str] = {}

    def seen(tiles, place):
        for t in tiles:
            assert t not in where, f"tile {t} both in {where[t]} and {place}"
            where[t] = place

    seen([t for t in game.display if t is not None], "display")
    seen(game.supply, "supply")
    seen(game.out, "out")
    for p in game.players:
        for stack in p.stacks:
            seen(stack, f"stacks {p.seat}")
        seen(p.box, f"box {p.seat}")
        seen([t for t in p.storage if t != HEX], f"storage {p.seat}")
        seen([t for t in p.field_item if t is not None and t >= 0], f"estate {p.seat}")
        # scores: never negative, each the sum of its sources
        assert p.green == sum(p.points[s] for s in GREEN_SOURCES) >= 0
        assert p.red == sum(p.points[s] for s in RED_SOURCES) >= 0
        assert min(p.hand) >= 0 and p.workers >= 0 and p.marble >= 0
        assert len(p.storage) <= p.capacity
        covered = [f for f in range(ESTATE_FIELDS) if p.field_item[f] is not None]
        assert len(covered) <= ESTATE_FIELDS and p.field_item.count(START_CASTLE) == 1
        assert len(covered) == 1 + p.counts["tiles_placed"] + p.counts["hexagons_placed"]
        for f in covered:  # a tile lies on a field of its colour
            item = p.field_item[f]
            assert item in (HEX, START_CASTLE) or game.tile_kind[item] == p.colours[f]
    # tiles conserved: every tile of the game is in exactly one place
    assert len(where) == len(game.tile_kind) == game.n * per_player + sum(comp.neutral_tiles)
    # cards conserved
    assert len(game.deck) + len(game.discards) + sum(sum(p.hand) for p in game.players) == comp.n_region_cards
    assert len(game.yield_deck) + len(game.yield_discards) == comp.n_yield_cards
    # bonus tiles conserved; colour bonuses claimed at most once per player
    for kind, left in enumerate(game.bonus_supply):
        assert left + sum(p.bonus[kind] for p in game.players) == BONUS_TILES_PER_KIND
    assert all(0 <= claims <= game.n for claims in game.colour_claims)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_after_every_turn_of_random_games(players):
    comp, rules = components(), RULE_BOOK.resolve(None, players)
    for index in range(GAMES):
        game = CheckedGame(comp, rules, [RandomPlayer() for _ in range(players)], seed=11, game_index=index)
        game.setup()
        check_invariants(game)
        game.play()
        record = game.record()
        ends = record["phase_end_round"]
        assert not record["reached_limit"] and 0 < ends[0] < ends[1] < ends[2] == record["rounds"]  # in order
        seats = record["seats"]
        assert sum(seats["winner_share60"]) == 60
        for s in range(players):
            assert seats["banking"][s] >= seats["green"][s]  # green counted at least once (T34)
            assert seats["red"][s] == sum(seats[source][s] for source in RED_SOURCES)


def test_every_phase_scoring_banks_the_green_of_that_moment():
    game = Game(components(), RULE_BOOK.resolve(None, 3), [RandomPlayer() for _ in range(3)], seed=5).setup()
    banked = [0, 0, 0]
    while not game.over:
        greens = [p.green for p in game.players]
        before = [p.points["banking"] for p in game.players]
        game.play_round()
        after = [p.points["banking"] for p in game.players]
        if after != before:
            banked = [a - b for a, b in zip(after, before, strict=True)]
            assert all(b >= g for b, g in zip(banked, greens, strict=True))
            assert banked == [p.green for p in game.players]
    assert game.phase_end_round[2] == game.round


def test_the_same_seed_and_index_play_the_same_game_and_seatings_differ():
    comp, rules = components(), RULE_BOOK.resolve(None, 3)

    def play(index, seating="fixed"):
        return play_game(comp, rules, [RandomPlayer() for _ in range(3)], seed=4, game_index=index, seating=seating)

    assert play(3) == play(3)
    assert play(3) != play(4)
    assert play(4, "rotate")["seats"]["slot"] == [1, 2, 0]
    assert sorted(play(5, "random")["seats"]["slot"]) == [0, 1, 2]


def test_original_rules_draw_fewer_cards():
    comp = components()

    def cards(spec):
        rules = RULE_BOOK.resolve(spec, 2)
        return sum(sum(play_game(comp, rules, [RandomPlayer(), RandomPlayer()], seed=1, game_index=i)["seats"]
                       ["cards_drawn"]) for i in range(10))

    assert cards("original") < cards(None)


def test_a_stack_size_the_components_cannot_fill_is_one_line():
    rules = RULE_BOOK.resolve("stack_size=8", 2)
    with pytest.raises(ValueError, match=r"stack_size=8 needs 24 tiles per player; components reconstructed give 21"):
        Game(components(), rules, [RandomPlayer(), RandomPlayer()])


def test_the_larger_regions_set_plays():
    comp = components("large-regions")
    for players in (2, 4):
        rules = RULE_BOOK.resolve(None, players)
        for index in range(5):
            game = CheckedGame(comp, rules, [RandomPlayer() for _ in range(players)], seed=2, game_index=index)
            game.play()
            assert game.over and not game.reached_limit


def _seen(view, players: int) -> dict:
    """Everything a SeatView answers, for every seat it can ask about."""
    names = [n for n in dir(type(view)) if not n.startswith("_") and n not in ("rng", "legal_fields")]
    seen = {}
    for name in names:
        value = getattr(view, name)
        seen[name] = [value(s) for s in range(players)] if callable(value) else value
    seen["legal_fields"] = [view.legal_fields(kind) for kind in [None, *range(8)]]
    return seen


def test_a_seat_sees_nothing_hidden_decks_stacks_and_rival_hands_permuted_change_no_view():
    """Hidden information: a view is the same whatever the decks' order, the stacks' tiles and
    the rivals' hands (at equal sizes)."""
    comp, rules = components(), RULE_BOOK.resolve(None, 3)
    game = Game(comp, rules, [RandomPlayer() for _ in range(3)], seed=8, game_index=1).setup()
    for _ in range(6):
        game.play_round()
    before = _seen(game.view(game.players[0]), 3)
    for pile in (game.deck, game.yield_deck, game.supply, *(s for p in game.players[1:] for s in p.stacks)):
        pile.reverse()
    for p in game.players[0].stacks:  # a seat does not see its own stacks' tiles either
        p.reverse()
    for p in game.players[1:]:
        size = sum(p.hand)
        p.hand = [0] * 8
        p.hand[7] = size
    assert _seen(game.view(game.players[0]), 3) == before
    game.players[1].hand[7] += 1
    assert _seen(game.view(game.players[0]), 3) != before  # hand sizes are seen


def test_setup_draws_in_the_documented_order():
    """docs/rules-tuscany.md, Randomness: the setup's shuffles rebuilt here from the generator alone."""
    comp, players = components(), 3
    game = Game(comp, RULE_BOOK.resolve(None, players), [RandomPlayer() for _ in range(players)], seed=9,
                game_index=2).setup()
    rng = GameRandom(9, 2)

    def shuffled(items):
        items = list(items)
        for j in range(len(items) - 1, 0, -1):
            r = rng.below(j + 1)
            items[j], items[r] = items[r], items[j]
        return items

    deck = shuffled(c for c in range(8) for _ in range(comp.region_cards[c]))
    yields = shuffled(range(comp.n_yield_cards))
    per_player = sum(comp.player_tiles)
    supply = shuffled(range(players * per_player, players * per_player + sum(comp.neutral_tiles)))
    stacks = [shuffled(range(s * per_player, (s + 1) * per_player)) for s in range(players)]
    boards = [shuffled(comp.boards_of_type(t)) for t in range(3)]
    assert game.display == supply[:8] and game.supply == supply[8:] and game.yield_deck == yields
    assert game.deck == deck[5 * players:]
    for s, p in enumerate(game.players):
        assert p.stacks == [stacks[s][:7], stacks[s][7:14], stacks[s][14:]]
        assert p.hand == [deck[5 * s:5 * s + 5].count(c) for c in range(8)]
        assert p.boards == tuple(boards[t][s] for t in range(3))


def test_a_pinned_game():
    """One game's outcome, pinned: a change here is a change of the draw order or of the rules."""
    record = play_game(components(), RULE_BOOK.resolve(None, 2), [RandomPlayer(), RandomPlayer()], seed=1)
    assert (record["seats"]["red"], record["rounds"], record["phase_end_round"]) == PINNED


def test_a_set_whose_boards_touch_along_three_fields_plays_on_its_own_layout():
    data = json.loads(components().to_json())
    data["slot_shift"] = 2  # T9: the rulebook's picture, 3 fields touching
    comp = parse_components(json.dumps(data), "three-fields")
    game = CheckedGame(comp, RULE_BOOK.resolve(None, 3), [RandomPlayer() for _ in range(3)], seed=3).play()
    assert game.over and all(p.neighbours == neighbours(2) for p in game.players)
