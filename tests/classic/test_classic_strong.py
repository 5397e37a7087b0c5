"""The ``strong`` strategy of the classic game (games/classic/strategies/strong.py,
core/evaluation.py, study/strong_training.py).

- it is a built-in registered after search (the ids before it stay), outside the heuristics'
  default lineups, with a model for each player count (C1) and day (C18);
- its decisions read only what its seat can see: which unseen cards are in the deck and
  which were removed face down (C5), the deck's order and the game's generator never
  change them;
- the games it plays are the reference engine's games given its decisions (C5-C18), keep the
  game's invariants, and give the same totals for any threads and batches (C20), under the
  rulebook's rules and others (days, lot size, holds, money), and write nothing but the
  deciding seat's own scratch row;
- an offered lot is taken, in its features, only by a ship with room for it (C8: the
  auctioneer's own free holds do not limit the lot, C9: they limit its bid);
- (its training's reproduction and its strength: tests/test_strong_training.py).
"""
from __future__ import annotations

import numpy as np
import pytest
from conftest import classic_rules
from test_search import ClassicScript, scripted, totals_bytes

from medici_sim.cli.common import load_game_components, parse_strategies
from medici_sim.core.driver import PreparedRun, RunConfig, simulate
from medici_sim.core.plugin_check import _checked_kernel
from medici_sim.core.registry import get_game
from medici_sim.core.resumable import DECISION, EXTERNAL, GAME_OVER, STEP_ACTOR
from medici_sim.games.classic import reference as classic_reference
from medici_sim.games.classic import stepped
from medici_sim.games.classic.engine import BID_DECISION, DRAW_DECISION
from medici_sim.games.classic.rules import RULE_REMOVED
from medici_sim.games.classic.state import DECK_LEN, LOT_LEN
from medici_sim.games.classic.strategies import expert, strong

CLASSIC = get_game("classic")


def config(players: int, spec: str, games: int, seed: int = 5, seating: str = "rotate", threads: int = 1,
           rules: str = "standard") -> RunConfig:
    return RunConfig(components=load_game_components(CLASSIC, None), game="classic", players=players, games=games,
                     seed=seed,
                     seating=seating, threads=threads, rules=rules,
                     strategies=parse_strategies(spec, players, "classic"))


def test_strong_is_a_built_in_after_search():
    names = list(CLASSIC.registry.strategies)
    assert names.index("strong") > names.index("search") and names[:len(CLASSIC.built_ins)] == list(CLASSIC.built_ins)
    assert CLASSIC.registry.origin["strong"] == "built-in" and "strong" not in CLASSIC.built_ins
    assert list(CLASSIC.registry["strong"].params) == ["bid_levels", "draw_bias", "keep"]  # tune tunes them
    weights = strong.weights_table_nb.read()
    assert weights.shape == (7, 3, len(strong.COLUMNS)) and np.abs(weights[3:]).sum(axis=2).all()  # a model each


def play_stepped(games: int, answer) -> None:
    """Step games 0..games-1 (seed 11, the lineup of every test here: one kernel to compile),
    every seat external: ``answer(buffer, state, seat, decision)`` gives each choice."""
    kernel = PreparedRun(config(4, "strong,expert,collector,expert", 1, seed=11, seating="fixed"))
    external = np.full(4, EXTERNAL, np.int64)
    buffer = kernel.inputs.copy()
    for game_index in range(games):
        stepped.new_game_nb(buffer, 11, game_index, kernel.seating, external, kernel.slot_params, kernel.table)
        event = stepped.advance_nb(buffer, kernel.table)
        while event != GAME_OVER:
            if event < DECISION:
                event = stepped.advance_nb(buffer, kernel.table)
                continue
            state = buffer[0]
            choice = answer(buffer, state, int(state["step"][STEP_ACTOR]), event - DECISION)
            event = stepped.apply_choice_nb(buffer, kernel.table, int(choice))


def expert_answer(state, seat, decision):
    """Expert's answer with its default parameters (the opponents' and the game's go-on)."""
    return (expert.bid_nb if decision == BID_DECISION else expert.draw_nb)(state, seat, strong.EXPERT_PARAMS)


def test_decisions_never_read_the_deck_order_or_the_removed_cards():
    """C5: the unseen cards (the deck and the cards removed face down) are public as a pool,
    not which is where nor their order: the same position with the pool dealt again (as many
    removed, as many in the deck) and another generator state gets the same answers. The
    positions: every decision of a stepped expert game, asked of strong at the deciding seat."""
    rng = np.random.default_rng(0)
    params = [(4.0, 0.0, 0.05), (2.0, 0.1, 0.0)]
    asked = []

    def answer(buffer, state, seat, decision):
        decide = strong.bid_nb if decision == BID_DECISION else strong.draw_nb
        same, shuffled = buffer.copy(), buffer.copy()  # a decision may write its own scratch row
        n, removed = state["counts"][DECK_LEN], state["rules"][RULE_REMOVED]
        pool = rng.permutation(np.concatenate([state["deck"][:n], state["removed"][:removed]]))
        shuffled[0]["deck"][:n], shuffled[0]["removed"][:removed] = pool[:n], pool[n:]
        shuffled[0]["rng"][0] = np.uint64(rng.integers(1 << 62))
        for p in params:
            assert decide(same[0], seat, p) == decide(shuffled[0], seat, p)
        asked.append(decision)
        return expert_answer(state, seat, decision)

    play_stepped(2, answer)
    assert len(asked) > 100


def test_an_offer_is_taken_only_by_a_ship_with_room_for_the_lot():
    """C8, C9: at every draw decision of stepped games (experts' bids; the auctioneers draw at
    every other draw decision, so that lots of every size are sold and part-filled ships meet
    lots bigger than their room: always drawing, or drawing as expert does, never does here),
    offering the lot is judged as the auctioneer taking it only if its ship has room for the
    lot, and the position after the offer never has a ship with fewer than no free holds;
    some auctioneers have no room."""
    features = np.empty((2, strong.N_FEATURES))
    rooms = []

    def answer(buffer, state, seat, decision):
        if decision != DRAW_DECISION:
            return expert_answer(state, seat, decision)
        strong.draw_features_nb(buffer.copy()[0], seat, features)
        room = state["rules"][strong.RULE_HOLDS] - state["ship_len"][seat] >= state["counts"][LOT_LEN]
        assert room or features[0, strong.OFFER_TAKES] == 0
        assert features[:, strong.FREE_HOLDS].min() >= 0 and features[:, strong.RIVAL_FREE_HOLDS].min() >= 0
        rooms.append(room)
        return len(rooms) % 2

    play_stepped(8, answer)
    assert not all(rooms)


@pytest.mark.parametrize("rules,third_place", [("standard", 0.0), ("majority_payouts=10/8", 0.0),
                                                ("majority_payouts=5/10", 0.0)])
def test_the_position_pays_a_third_place_on_a_track_nothing(rules, third_place):
    """C15: the highest level earns the first payout, the second highest the second, lower
    places nothing; ties share the places they fill. Every ship full (C3: no level can still
    move), seats 1 and 2 tied at level 4 on every good, the seat (0) at 2 and seat 3 at 0:
    seats 1 and 2 share the first two places, the seat is third on every track."""
    kernel = PreparedRun(config(4, "strong,expert,collector,expert", 1, seed=11, seating="fixed", rules=rules))
    buffer = kernel.inputs.copy()
    stepped.new_game_nb(buffer, 11, 0, kernel.seating, np.full(4, EXTERNAL, np.int64), kernel.slot_params,
                        kernel.table)
    while stepped.advance_nb(buffer, kernel.table) < DECISION:
        pass
    state = buffer[0]
    state["ship_len"][:4] = state["rules"][strong.RULE_HOLDS]
    state["ship_goods"][:4] = 0
    state["track"][:4] = np.array([2, 4, 4, 0])[:, None]
    out = np.zeros(strong.N_FEATURES)
    strong.position_nb(state, 0, -1, 0, out)
    first, second = state["majority_share"][0, 0], state["majority_share"][1, 0]
    assert out[strong.TRACKS_MARGIN] == pytest.approx(5 * (third_place - (first + second) / 2))


@pytest.mark.parametrize("players,lineup,rules", [
    (4, "strong,expert,strong:bid_levels=2:keep=0,collector", "standard"),
    (3, "strong:draw_bias=0.2,collector,expert", "days=2,lot_size=4,ship_holds=6,starting_money=60"),
])
def test_games_with_strong_are_the_reference_engines_games(players, lineup, rules):
    run = config(players, lineup, 1, seed=12, seating="fixed", rules=rules)
    kernel = PreparedRun(run)
    for game_index in range(3):
        ours = kernel.trace(game_index).record()
        CLASSIC.engine.invariants(ours, run)  # every card in one place, money as the rules move it (C5-C17)
        script = ClassicScript(ours["lots"])
        names = scripted(run)
        theirs = classic_reference.play_game(classic_rules(players, rules), names, 12, game_index, "fixed",
                                             decide=[script if name == "scripted" else None for name in names])
        assert set(ours) == set(theirs)
        for key, b in theirs.items():
            same = (all(np.array_equal(x, y) for x, y in zip(ours[key], b, strict=True)) if isinstance(b, list)
                    else np.array_equal(ours[key], b))
            assert same, f"{key} differs in game {game_index}"


def test_threads_and_batches_never_change_the_results():
    results = {totals_bytes(simulate(config(5, "strong,expert,collector,strong:keep=0,expert", 40, threads=threads),
                                     batch_size=batch).totals)
               for threads, batch in ((1, None), (2, 7))}
    assert len(results) == 1


@pytest.mark.slow  # the checked kernel compiles on its own (about 20 s)
def test_the_checked_kernel_finds_no_write_outside_its_scratch():
    """check-plugin's checked kernel: every decision leaves the state as it was but the
    deciding seat's own scratch row (strong's auctions are played on a copy)."""
    _checked_kernel(config(4, "strong,expert,strong:keep=0,collector", 6, seed=3)).play(0, 6)
