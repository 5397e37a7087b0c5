"""Shared places (R14-R15, R17; C13, C15): rank scores and split tied places' payouts.

Tied players add the payouts of all the places they occupy and divide by their number;
each share of a tie is rounded down to a multiple of the game's smallest unit of score (5 in
the card game, R15; 1 in the classic game, C13). Scoring looks shares up in a table built
once per run (:func:`share_table`, in the state every game starts from) instead of dividing
per player.
"""
from __future__ import annotations

import numpy as np
from numba import njit


def tied_share(payouts, place: int, tied: int, coin: int) -> int:
    """The share of each of ``tied`` players occupying places ``place`` onward (places
    past the table pay 0), rounded down to a multiple of ``coin``; a player alone on a place
    shares nothing and is paid the place in full (the rulebooks' payouts are all whole coins)."""
    pool = int(sum(payouts[place:place + tied]))
    return pool if tied == 1 else pool // tied // coin * coin


def share_table(payouts, coin: int, size: int) -> np.ndarray:
    """``table[place, others]``: tied_share(payouts, place, others + 1, coin), as a
    (size + 1, size + 1) int64 table."""
    return np.array([[tied_share(payouts, place, others + 1, coin) for others in range(size + 1)]
                     for place in range(size + 1)], np.int64)


@njit(cache=True, inline="always")
def pay_places_nb(scores, n, share, min_score, paid):
    """Rank ``scores[:n]`` (highest first) and add each one's share to ``paid``.

    ``share`` is a share_table of the payouts by place. Players with a score below
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
