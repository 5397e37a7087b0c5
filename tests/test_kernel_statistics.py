"""The kernel's own statistics equal the reference engine's results, game by game (R22, R24, R25).

``simulate`` accumulates win credits, outright and shared wins, florins and their squares,
the florin sources, head-to-head pair counts, winning margins, days run out and games the
bonus20 variant decided, all inside the jitted kernel. Here the same game indices are played
one by one by the independent reference engine, and those totals are summed in plain Python
from its records: every counter must be equal.
"""
from __future__ import annotations

import numpy as np
import pytest
from conftest import SMALL_DECK, card_rules, tiny_deck
from metrics_reference import add_game_metrics, card_decisions

from medici_sim.core import accounting as acc
from medici_sim.core.driver import RunConfig, seat_strategy, simulate
from medici_sim.core.registry import get_game
from medici_sim.games.card import engine, reference
from medici_sim.games.card.rules import BIG_BONUS, BONUS, BONUS20, VARIANTS, big_bonus_threshold
from medici_sim.games.medici.scoring import STAT_BONUS, STAT_MAJORITY, STAT_SHIP

GAMES = 400


def reference_totals(deck, players, variant, names, seed, seating, first, n):
    """The totals a kernel run must produce, summed from the reference engine's records."""
    n_stats = acc.StatLayout.of(get_game("card")).width
    seat = np.zeros((players, n_stats), np.int64)
    slot = np.zeros((players, n_stats), np.int64)
    pairs = np.zeros((players, players), np.int64)
    diff_sq = np.zeros((players, players), np.int64)
    run = np.zeros(acc.N_COMMON_RUN_STATS + 2, np.int64)
    for index in range(first, first + n):
        played = reference.run_game(deck, card_rules(players, variant), names, seed, index, seating)
        record, decisions = played.record, card_decisions(played.turn_log, players)
        florins = record["florins"][-1]
        best = florins.max()
        winners = int((florins == best).sum())
        run[acc.RUN_GAMES] += 1
        if winners == 1:
            run[acc.RUN_WIN_MARGIN] += best - florins[florins < best].max()
        run[engine.RUN_RAN_OUT_DAYS] += record["ran_out"].sum()
        # bonus20 pays 20 instead of 10 (R19) for each good at the big threshold, every day
        big = record["warehouse_icons"] >= big_bonus_threshold(players)
        extra = (big.sum(axis=(0, 2)) * (BIG_BONUS - BONUS)) if variant == BONUS20 else np.zeros(players, int)
        standard = florins - extra
        run[engine.RUN_VARIANT_DECIDED] += bool(((florins == best) != (standard == standard.max())).any())
        slots = record["seat_slot"]
        add_game_metrics(run, seat, slot, record["florins"], slots, decisions[:, 0].sum())  # the designer metrics
        for a in range(players):
            for b in range(players):
                if a != b:
                    pairs[slots[a], slots[b]] += 2 if florins[a] > florins[b] else int(florins[a] == florins[b])
                    shares = record["winner_share60"]
                    diff_sq[slots[a], slots[b]] += (int(shares[a]) - int(shares[b])) ** 2
        for s in range(players):
            share = record["winner_share60"][s]
            won = florins[s] == best
            row = np.zeros(n_stats, np.int64)
            row[acc.STAT_GAMES] = 1
            row[acc.STAT_WIN60] = share
            row[acc.STAT_WIN60_SQ] = share * share
            row[acc.STAT_OUTRIGHT] = won and winners == 1
            row[acc.STAT_SHARED] = won and winners > 1
            row[acc.STAT_SCORE] = florins[s]
            row[acc.STAT_SCORE_SQ] = florins[s] ** 2
            row[STAT_SHIP] = record["ship_pay"][:, s].sum()
            row[STAT_MAJORITY] = record["majority_pay"][:, s].sum()
            row[STAT_BONUS] = record["bonus_pay"][:, s].sum()
            row[engine.STAT_DECIDED:] = decisions[s]
            seat[s] += row
            slot[slots[s]] += row
    return seat, slot, pairs, diff_sq, run


@pytest.mark.parametrize("players,variant,seating,names,small", [
    (2, BONUS20, "rotate", ["random", "greedy"], False),
    (4, BONUS20, "random", ["random", "collector", "cautious", "gambler"], False),
    (5, 0, "fixed", ["random"] * 5, True),
    (6, BONUS20, "rotate", ["collector", "random", "greedy", "cautious", "gambler", "random"], False),
])
def test_kernel_statistics_equal_the_reference_games(deck, players, variant, seating, names, small):
    deck = tiny_deck(SMALL_DECK) if small else deck
    seed, first = 17, 1000
    config = RunConfig(components=deck, players=players, strategies=tuple(seat_strategy(n) for n in names),
                       games=GAMES, seed=seed, rules=VARIANTS[variant], seating=seating, threads=2)
    totals = simulate(config, batch_size=GAMES // 3, first_game=first).totals
    seat, slot, pairs, diff_sq, run = reference_totals(deck, players, variant, names, seed, seating, first, GAMES)
    assert np.array_equal(totals.seat, seat)
    assert np.array_equal(totals.slot, slot)
    assert np.array_equal(totals.pairs, pairs)
    assert np.array_equal(totals.pair_diff_sq, diff_sq)
    assert np.array_equal(totals.run, run)
    assert run[acc.RUN_WIN_MARGIN] > 0 and seat[:, acc.STAT_SHARED].sum() > 0  # the counters were exercised
    if variant == BONUS20 and not small:
        assert run[engine.RUN_VARIANT_DECIDED] > 0
    if small:
        assert run[engine.RUN_RAN_OUT_DAYS] > 0
