"""The designer metrics of reference-engine games, computed here in plain Python (issue 20).

The kernel streams them (core.accounting.record_metrics_nb, each engine's decision counts);
these functions add one reference game's share to totals laid out as the kernel's, written
from the metrics' definitions, so the statistics tests can demand equal arrays.
"""
from __future__ import annotations

import numpy as np

from medici_sim.core import accounting as acc
from medici_sim.games.classic.reference import turn_records
from medici_sim.games.classic.rules import CARD_VALUE
from medici_sim.games.medici.scoring import STAT_TRAILED


def leaders(scores) -> set[int]:
    """The seats with the most florins, all of them when tied."""
    scores = np.asarray(scores)
    return set(np.flatnonzero(scores == scores.max()).tolist())


def add_game_metrics(run, seat, slot, day_scores, seat_slot, length: int) -> None:
    """One game's common metrics: ``day_scores[day]`` the florins after each day (the last row
    the final scores), ``length`` its turns (card) or lots (classic)."""
    final = np.asarray(day_scores[-1])
    winners, after_day1, after_day2 = leaders(final), leaders(day_scores[0]), leaders(day_scores[1])
    changes = sum(leaders(day_scores[d]) != leaders(day_scores[d - 1]) for d in range(1, len(day_scores)))
    others = final[final < final.max()]
    margin = int(final.max() - others.max()) if len(others) else 0
    run[acc.RUN_SHARED_WIN_GAMES] += len(winners) > 1
    run[acc.RUN_COMEBACK_FIRST] += not winners & after_day1
    run[acc.RUN_COMEBACK_SECOND] += not winners & after_day2
    run[acc.RUN_LEAD_CHANGES] += changes
    run[acc.RUN_LEAD_CHANGES_SQ] += changes**2
    run[acc.RUN_MARGIN] += margin
    run[acc.RUN_MARGIN_SQ] += margin**2
    run[acc.RUN_LENGTH] += length
    run[acc.RUN_LENGTH_SQ] += length**2
    run[acc.RUN_MARGIN_HISTOGRAM + min(margin, acc.MARGIN_BINS - 1)] += 1
    for s in range(len(final)):
        trailed = s not in after_day1
        for row in (seat[s], slot[seat_slot[s]]):
            row[STAT_TRAILED] += trailed
            row[STAT_TRAILED + 1] += trailed and s in winners


def card_decisions(turn_log, players: int) -> np.ndarray:
    """Per seat: turns, cards revealed, cards taken, turns with a free take (the card engine's
    state.DECIDED_* order)."""
    out = np.zeros((players, 4), np.int64)
    for turn in turn_log:
        out[turn.seat] += (1, turn.revealed, len(turn.taken), turn.free_take)
    return out


def classic_decisions(record: dict, players: int) -> np.ndarray:
    """Per seat: lots auctioned, cards drawn into them, times asked for a bid, bids, face value
    of the lots bought (the classic engine's state.DECIDED_* order), from the turn log."""
    out = np.zeros((players, 5), np.int64)
    for day_log in record["lots"]:
        for turn in turn_records(day_log):
            out[turn.auctioneer, :2] += (1, len(turn.lot))
            for bidder, amount in turn.bids:
                out[bidder, 2:4] += (1, amount > 0)
            if turn.winner >= 0:
                out[turn.winner, 4] += sum(CARD_VALUE[c] for c in turn.lot)
    return out
