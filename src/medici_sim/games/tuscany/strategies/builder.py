"""``builder``: places whenever it can, and completes small regions first (T18-T21).

Its decisions are ``heuristic.py``'s (they read only what the seat sees: its own hand, workers, storage and
bonus tiles, every estate, the display, the colour claims, the bonus and neutral supplies' sizes, the rules
and the phase: the fields heuristic.py and evaluate.py name; never a deck, a stack, a rival's hand or storage); its
style is its parameters: a high ``region`` weight and a ``place_min`` so low that any payable placement
beats taking or drawing.
"""
from ....core.registry import Strategy
from .evaluate import params
from .heuristic import DECISIONS

STRATEGY = Strategy(
    name="builder",
    decisions=DECISIONS,
    params=params(region=2.0, colour=0.5, build=0.7, trade=0.7, place_min=-10, horizon=0, card=0.5, marble_min=0.5),
    summary="Places whenever it can, completing small regions first (T18-T21).",
)
