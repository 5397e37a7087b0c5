"""``castle_chainer``: collects castles for their free placements and chains (T24), cities for bonus tiles
(T25) and inns for hexagons (T26).

Its decisions are ``heuristic.py``'s (they read only what the seat sees: its own hand, workers, storage and
bonus tiles, every estate, the display, the colour claims, the bonus and neutral supplies' sizes, the rules
and the phase: the fields heuristic.py and evaluate.py name; never a deck, a stack, a rival's hand or storage); its
style is its parameters: a high ``build`` weight.
"""
from ....core.registry import Strategy
from .evaluate import params
from .heuristic import DECISIONS

STRATEGY = Strategy(
    name="castle_chainer",
    decisions=DECISIONS,
    params=params(region=0.7, colour=0.5, build=2.5, trade=0.5, place_min=0.5, horizon=0, card=0.5, marble_min=1.0),
    summary="Castles and cities first: free placements in chains (T24) and bonus tiles (T25).",
)
