"""Shared places (R14-R15, R17; C13, C15): rank scores and split tied places' payouts.

Tied players add the payouts of all the places they occupy and divide by their number;
each share is rounded down to a multiple of the game's smallest coin (5 florins in the
card game, R15; 1 in the classic game, C13). Scoring looks shares up in a table built
once per state instead of dividing per player.
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def tied_share_nb(payouts, place, tied, coin):
    """The share of each of ``tied`` players occupying places ``place`` onward (places
    past the table pay 0), rounded down to a multiple of ``coin``."""
    total = 0
    for k in range(place, min(place + tied, len(payouts))):
        total += payouts[k]
    return total // tied // coin * coin


@njit(cache=True)
def share_table_nb(payouts, coin, table):
    """Fill ``table[place, others]`` with tied_share_nb(payouts, place, others + 1, coin)."""
    for place in range(table.shape[0]):
        for others in range(table.shape[1]):
            table[place, others] = tied_share_nb(payouts, place, others + 1, coin)


def share_table(payouts, coin: int, size: int) -> np.ndarray:
    """share_table_nb for a sequence of payouts by place, as a (size + 1, size + 1) table."""
    table = np.zeros((size + 1, size + 1), np.int64)
    share_table_nb(np.asarray(payouts, np.int64), coin, table)
    return table


@njit(cache=True)
def pay_places_nb(scores, n, share, min_score, paid):
    """Rank ``scores[:n]`` (highest first) and add each one's share to ``paid``.

    ``share`` is a share_table_nb of the payouts by place. Players with a score below
    ``min_score`` take no place (R17: no icon, no place). Tied players share the payouts
    of all the places they occupy.
    """
    for p in range(n):
        score = scores[p]
        if score < min_score:
            continue
        place = 0
        tied = 0
        for q in range(n):  # whoever scores at least `score` has at least min_score too
            place += scores[q] > score
            tied += scores[q] == score
        paid[p] += share[place, tied - 1]
