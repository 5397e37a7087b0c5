"""The jitted engine against the reference engine (issue 32): the same (seed, game index) plays the
same game in both, record for record (scores by source, rounds, phase ends, tiles placed,
refreshes...), at 2, 3 and 4 players, under every seating, both shipped component sets and
other rule sets; and the batch kernel's statistics (game.accumulate_game_nb) are the sums of
the reference's records. A second strategy (``tester``) takes the paths `random` never takes:
T17's refreshes, payment by pairs before cards, never a marble.
"""
from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from numba import njit

from medici_sim.core.accounting import (
    MARGIN_BINS,
    RUN_GAMES,
    RUN_LENGTH,
    RUN_MARGIN,
    RUN_MARGIN_HISTOGRAM,
    RUN_SHARED_WIN_GAMES,
    RUN_WIN_MARGIN,
    STAT_GAMES,
    STAT_OUTRIGHT,
    STAT_SCORE,
    STAT_SHARED,
    STAT_WIN60,
    WIN_UNIT,
)
from medici_sim.core.dispatch import strategy_table
from medici_sim.core.registry import ILLEGAL, MAX_PARAMS, Strategy
from medici_sim.core.rng import below_nb
from medici_sim.games.tuscany.components import components, parse_components
from medici_sim.games.tuscany.game import (
    N_RUN_STATS,
    N_STATS,
    RUN_PHASE_END,
    RUN_REACHED_LIMIT,
    RUN_REFRESHES,
    STAT_GREEN,
    STAT_POINTS,
    STAT_TALLY,
    STAT_TRAILED,
    build_estate_nb,
    play_games_nb,
)
from medici_sim.games.tuscany.geometry import legal_assemblies
from medici_sim.games.tuscany.recording import TALLY_NAMES, Games, record
from medici_sim.games.tuscany.reference import GREEN_SOURCES, RED_SOURCES, Game, play_game
from medici_sim.games.tuscany.reference_players import Payment, RandomPlayer
from medici_sim.games.tuscany.rules import N_COLOURS, RULE_BOOK
from medici_sim.games.tuscany.state import N_OPTIONS, PAY_COLOUR, payment_code
from medici_sim.games.tuscany.strategies import REGISTRY, register
from medici_sim.games.tuscany.strategies.random import STRATEGY as RANDOM
from medici_sim.games.tuscany.tables import new_state

GAMES = 40  # per case of the quick comparison (the reference plays ~40 games a second)
USED = ("random", "tester", "wrong_action")  # one table, one compiled kernel, for every lineup here


# ---------------------------------------------------------------- the tester, in both engines

def richest_pairs(hand, colour, count):
    """``count`` pairs, each from the highest other colour still holding two cards (not T39's rule)."""
    left, pairs = list(hand), []
    for _ in range(count):
        best = max(c for c in range(N_COLOURS) if c != colour and left[c] >= 2)
        left[best] -= 2
        pairs.append(best)
    return pairs


class Tester(RandomPlayer):
    """The reference's tester: uniform choices as `random`, but T17 always (the first kind shown),
    pairs before workers before cards, and never a marble."""

    name = "tester"

    def refresh(self, view, options):
        return options[1] if len(options) > 1 else None

    def payment(self, view, colour, options):
        hand = view.hand
        pair_units = min(2, sum(hand[c] // 2 for c in range(N_COLOURS) if c != colour))
        workers = min(view.workers, 2 - pair_units)
        return Payment(2 - pair_units - workers, workers, tuple(sorted(richest_pairs(hand, colour, pair_units))))

    def marble(self, view):
        return False


@njit(cache=True)
def always_refresh_nb(state, seat, params):
    return 1 if state.counts[N_OPTIONS] > 1 else 0


@njit(cache=True)
def highest_pair_nb(hand, colour, taken):
    for c in range(N_COLOURS - 1, -1, -1):
        if c != colour and hand[c] - 2 * (c == taken) >= 2:
            return c
    return -1


@njit(cache=True)
def pairs_first_nb(state, seat, params):
    colour, hand = state.counts[PAY_COLOUR], state.hand[seat]
    pairs = 0
    for c in range(N_COLOURS):
        pairs += hand[c] // 2 if c != colour else 0
    pairs = min(pairs, 2)
    workers = min(state.workers[seat], 2 - pairs)
    first = highest_pair_nb(hand, colour, -1) if pairs > 0 else -1
    second = highest_pair_nb(hand, colour, first) if pairs > 1 else -1
    low, high = (min(first, second), max(first, second)) if pairs > 1 else (-1, first)
    return payment_code(2 - pairs - workers, workers, low, high)


@njit(cache=True)
def never_nb(state, seat, params):
    return False


@njit(cache=True)
def wrong_action_nb(state, seat, params):
    """Answers an action outside its options (the engine must refuse it)."""
    return state.counts[N_OPTIONS] + below_nb(state.rng, 2)


register(Strategy("tester", {**RANDOM.decisions, "refresh_nb": always_refresh_nb, "payment_nb": pairs_first_nb,
                             "marble_nb": never_nb}, summary="a test strategy: T17 always, pairs first, no marble"))
register(Strategy("wrong_action", {**RANDOM.decisions, "action_nb": wrong_action_nb},
                  summary="a test strategy answering an illegal action"))
REFERENCE_PLAYERS = {"random": RandomPlayer, "tester": Tester}


def compare(players, lineup=None, spec=None, seating="fixed", component_set=None, seed=3, games=GAMES):
    """Play ``games`` games in both engines; the first differing record (None: all equal)."""
    lineup = lineup or ["random"] * players
    comp, rules = components(component_set), RULE_BOOK.resolve(spec, players)
    jitted = Games(comp, rules, lineup, seating, used=USED)
    records = []
    for index in range(games):
        mine = record(jitted.play(seed, index))
        theirs = play_game(comp, rules, [REFERENCE_PLAYERS[name]() for name in lineup], seed, index, seating)
        if mine != theirs:
            return index, {k: (theirs[k], mine[k]) for k in theirs if theirs[k] != mine[k]}
        records.append(theirs)
    return records


# ---------------------------------------------------------------- the tests

@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_jitted_engine_plays_the_reference_engines_games(players):
    for seating in ("fixed", "rotate", "random"):
        result = compare(players, seating=seating, seed=players)
        assert isinstance(result, list), f"{players} players, seating {seating}: game {result[0]} differs: {result[1]}"


@pytest.mark.parametrize("spec, component_set", [("original", None), (None, "large-regions"),
                                                 ("stack_size=3,display=5,round_limit=12,draw=1", None),
                                                 ("region_scores=2/5/9,no_room_red=5,final_cards=0", None),
                                                 ("later_seat_cards=2", "other-values")])
def test_other_rules_and_components_play_the_same_games(spec, component_set):
    for players in (2, 4):
        result = compare(players, spec=spec, component_set=component_set, games=GAMES // 2)
        assert isinstance(result, list), f"{spec}, {component_set}: game {result[0]} differs: {result[1]}"


def test_t17_payments_by_pairs_and_no_marble_play_the_same_games():
    result = compare(3, lineup=["tester", "random", "tester"], games=GAMES)
    assert isinstance(result, list), f"game {result[0]} differs: {result[1]}"
    assert sum(r["t17_refreshes"] for r in result) > 0  # T17 was used
    assert all(r["seats"]["marble_used"][0] == 0 for r in result)


class ChainDepth(Game):
    """The reference engine, noting the deepest castle chain (T24) of the game."""

    depth = deepest = 0

    def castle(self, p):
        self.depth += 1
        self.deepest = max(self.deepest, self.depth)
        super().castle(p)
        self.depth -= 1


def test_t24_a_castle_chain_refills_the_innermost_gap_first_in_both_engines():
    comp, rules = components(), RULE_BOOK.resolve(None, 2)
    reference = ChainDepth(comp, rules, [RandomPlayer(), RandomPlayer()], seed=2, game_index=121).play()
    assert reference.deepest >= 2  # a castle placed by a castle: two gaps open (1 game in about 600)
    assert record(Games(comp, rules, ["random"] * 2, used=USED).play(2, 121)) == reference.record()


def test_a_decision_outside_its_options_is_an_illegal_decision():
    comp, rules = components(), RULE_BOOK.resolve(None, 2)
    player = Games(comp, rules, ["random", "wrong_action"], used=USED)
    with pytest.raises(ValueError) as raised:
        player.play(1, 0)
    assert raised.value.args[:2] == (ILLEGAL, 1) and raised.value.args[3] == "action"


@njit
def build_estate(state, seat, assembly):
    build_estate_nb(state, seat, assembly)


ESTATE = ("colour", "colour_mask", "colour_left", "field_item", "covered", "frontier", "region_of", "region_size",
          "region_left", "region_types", "assembly")


def more_boards():
    """The reconstructed set with two more boards a type (A5, A6, ...): more legal estates than the table holds."""
    data = json.loads(components().to_json())
    for name, rows in list(data["boards"].items()):
        if name[1] in "12":
            data["boards"][f"{name[0]}{int(name[1]) + 4}"] = [rows[1][::-1], rows[0][::-1]]  # the board turned
    return parse_components(json.dumps(data), "six boards a type")


@pytest.mark.parametrize("component_set", ["reconstructed", "large-regions", "other-values", "more"])
def test_every_legal_estate_from_the_runs_table_is_the_one_built(component_set):
    comp = more_boards() if component_set == "more" else components(component_set)
    held = new_state(comp, RULE_BOOK.resolve(None, 4))[0]
    built = held.copy()
    built["estate_first"] = -1  # no triple held: each estate built (game.lay_out_estate_nb)
    by_type = [comp.boards_of_type(t) for t in range(3)]
    in_table = 0
    for triple in itertools.product(*(range(len(boards)) for boards in by_type)):
        in_table += held["estate_first"][triple] >= 0
        for assembly in legal_assemblies(tuple(by_type[t][b].cells for t, b in enumerate(triple)), comp.slot_shift):
            for state in (held, built):
                for name in ESTATE:
                    state[name][1] = 7  # left by an earlier game
                state["boards"][1] = triple
                build_estate(state, 1, assembly)
            for name in ESTATE:
                assert np.array_equal(held[name][1], built[name][1]), (triple, assembly, name)
    n_triples = np.prod([len(boards) for boards in by_type])
    assert in_table == n_triples if component_set != "more" else 0 < in_table < n_triples


def batch_totals(players, games, seed):
    """The batch kernel's per-seat and run statistics over games 0 .. games - 1 of `random`."""
    inputs = new_state(components(), RULE_BOOK.resolve(None, players))
    table, names = strategy_table(REGISTRY, set(USED))
    seat_stats = np.zeros((players, N_STATS), np.int64)
    slot_stats, run_stats = seat_stats.copy(), np.zeros(N_RUN_STATS, np.int64)
    pair_stats = np.zeros((players, players, 2), np.int64)
    play_games_nb(seed, 0, games, inputs, 0, np.full(players, names.index("random"), np.int64),
                  np.zeros((players, MAX_PARAMS)), seat_stats, slot_stats, pair_stats, run_stats, table)
    return seat_stats, run_stats, pair_stats


def t36_order(record) -> list[tuple[int, int, int, int]]:
    """T36 from a record: most red, then most empty fields, fewest green, fewest cards; per seat."""
    seats = record["seats"]
    return [(seats["red"][s], seats["empty_fields"][s], -seats["green"][s], -seats["cards_left"][s])
            for s in range(len(seats["red"]))]


def check_outcomes(records, seat_stats, run_stats, pair_stats):
    """Wins, shared wins, pairs and margins follow T36's order (the rank key), not red alone: a win is shared
    only where every tie-break ties, and a tie-break's win over an equal red score has margin 0."""
    players = len(seat_stats)
    outright, shared, joint, margin, histogram = [0] * players, [0] * players, 0, 0, [0] * MARGIN_BINS
    above = np.zeros((players, players), np.int64)
    for r in records:
        keys, red = t36_order(r), r["seats"]["red"]
        won = [s for s in range(players) if keys[s] == max(keys)]
        for s in won:
            (outright if len(won) == 1 else shared)[s] += 1
        joint += len(won) > 1
        others = [red[s] for s in range(players) if s not in won]
        m = max(red) - max(others) if others else 0
        margin += m if len(won) == 1 else 0
        histogram[min(m, MARGIN_BINS - 1)] += 1
        for a in range(players):
            for b in range(players):
                above[a, b] += 2 if keys[a] > keys[b] else (1 if keys[a] == keys[b] else 0)
    assert list(seat_stats[:, STAT_OUTRIGHT]) == outright and list(seat_stats[:, STAT_SHARED]) == shared
    assert run_stats[RUN_SHARED_WIN_GAMES] == joint and run_stats[RUN_WIN_MARGIN] == margin
    assert list(run_stats[RUN_MARGIN_HISTOGRAM:RUN_MARGIN_HISTOGRAM + MARGIN_BINS]) == histogram
    assert run_stats[RUN_MARGIN] == sum(m * n for m, n in enumerate(histogram))
    assert (pair_stats[:, :, 0] == above * (1 - np.eye(players, dtype=np.int64))).all()
    assert (seat_stats[:, STAT_TRAILED + 1] <= seat_stats[:, STAT_TRAILED]).all()


def check_statistics(players, games, seed):
    """The batch kernel's statistics are the sums of the reference engine's records."""
    records = compare(players, seed=seed, games=games)
    assert isinstance(records, list), f"game {records[0]} differs: {records[1]}"
    seat_stats, run_stats, pair_stats = batch_totals(players, games, seed)
    check_outcomes(records, seat_stats, run_stats, pair_stats)

    def total(key):
        return [sum(r["seats"][key][s] for r in records) for s in range(players)]

    assert list(seat_stats[:, STAT_GAMES]) == [games] * players
    assert list(seat_stats[:, STAT_SCORE]) == total("red")
    assert list(seat_stats[:, STAT_GREEN]) == total("green")
    assert list(seat_stats[:, STAT_WIN60]) == total("winner_share60")
    assert seat_stats[:, STAT_WIN60].sum() == WIN_UNIT * games
    for k, source in enumerate(GREEN_SOURCES + RED_SOURCES):
        assert list(seat_stats[:, STAT_POINTS + k]) == total(source), source
    for k, name in enumerate(TALLY_NAMES):
        assert list(seat_stats[:, STAT_TALLY + k]) == total(name), name
    assert run_stats[RUN_GAMES] == games
    assert run_stats[RUN_LENGTH] == sum(r["rounds"] for r in records)
    for phase in range(3):
        assert run_stats[RUN_PHASE_END + phase] == sum(r["phase_end_round"][phase] for r in records)
    assert run_stats[RUN_REACHED_LIMIT] == sum(r["reached_limit"] for r in records)
    assert run_stats[RUN_REFRESHES] == sum(r["refreshes"] for r in records)
    return records


@pytest.mark.parametrize("players", [2, 4])
def test_the_batch_kernels_statistics_are_the_reference_records_sums(players):
    check_statistics(players, GAMES, seed=9)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_thousand_games_each_and_their_statistics_agree(players):
    records = check_statistics(players, 1000, seed=2026)
    mean_red = [np.mean([r["seats"]["red"][s] for r in records]) for s in range(players)]
    assert all(20 < m < 200 for m in mean_red)  # sane scores (the reference's own scale)


def test_a_stepped_game_raises_the_illegal_decision_as_the_kernel_does():
    """core.replaying catches its stops, not a strategy's illegal decision: played again outside its try, the
    stepped game raises the kernel's ValueError(ILLEGAL, seat, ...), which core.driver turns into one line."""
    from medici_sim.games.tuscany.stepped import STEPPING

    g = Games(components(), RULE_BOOK.resolve(None, 2), ["random", "wrong_action"], used=USED)
    with pytest.raises(ValueError) as raised:
        STEPPING.trace_game_nb(1, 0, g.buffer, g.seating, g.slot_strategy, g.slot_params, g.table)
    assert raised.value.args[:2] == (ILLEGAL, 1) and raised.value.args[3] == "action"


def test_the_engine_compiles_wrappers_only_for_what_python_calls_and_the_kernel_links_no_engine():
    """docs/performance.md, "Tuscany's first compile, less code linked": each jitted function's CPython and C
    wrappers are code to lower and for LLVM to compile at every first compile, so the engine's functions that only
    jitted code calls go without (state.inner, state.forced); and the batch kernel reaches the game through an
    address (game.kernel_loop_nb, core.dispatch.runtime_loop), so its functions do not link the engine's code."""
    from numba.core.registry import CPUDispatcher

    from medici_sim.games.tuscany import display, engine, game, pieces

    called_from_python = {"start_game_nb", "restart_game_nb", "accumulate_game_nb", "play_one_nb", "kernel_loop_nb"}
    wrapped = {name for module in (display, engine, game, pieces) for name, value in vars(module).items()
               if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__
               and value.targetoptions.get("inline") != "always" and not value.targetoptions.get("no_cpython_wrapper")}
    assert wrapped == called_from_python
    assert game.play_game_in_nb.py_func.__globals__["play_game_nb"] is game.kernel_game_nb
    assert "turn_nb" not in game.kernel_game_nb.py_func.__code__.co_names
