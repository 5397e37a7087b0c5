"""The Medici games' score in their own terms: florins, from three sources (ships, majorities,
bonuses: R13-R19, C13-C17), counted over days, the scoring moments of their designer metrics
("leader after day 1").

Both games declare these to core in their ``Game`` records (:data:`SCORE`, :data:`MOMENTS`); their kernels
add each seat's florins from a source to its column of core.accounting (``STAT_SHIP``, ...
below) and hand ``record_metrics_nb`` the florins after each day.
"""
from __future__ import annotations

from ...core.accounting import STAT_SOURCE, n_common_stats, trailed_column
from ...core.contract import ScoreSource

# Where the florins come from, in the kernel's source columns' order (core.accounting.STAT_SOURCE + k).
SOURCES = (ScoreSource("ship", "ships"), ScoreSource("majority", "majorities"), ScoreSource("bonus", "bonuses"))
STAT_SHIP, STAT_MAJORITY, STAT_BONUS = (STAT_SOURCE + k for k in range(len(SOURCES)))
# The designer metrics' per-seat columns (record_metrics_nb's ``trailed``) and where the games' own columns start.
STAT_TRAILED, N_COMMON_STATS = trailed_column(len(SOURCES)), n_common_stats(len(SOURCES))

# What both games' Game records declare of their score (core.contract: Presentation's score_unit and
# score_sources; Engine's moment, moment_rule and moments).
SCORE = {"score_unit": "florins", "score_sources": SOURCES}
MOMENTS = {"moment": "day", "moment_rule": "days", "moments": 3}
