"""``colour_racer``: goes for the colour bonuses first (T22), taking and placing the tiles of the colours it
is closest to completing before a rival claims the front value.

Its decisions are ``heuristic.py``'s (they read only what the seat sees: its own hand, workers, storage and
bonus tiles, every estate, the display, the colour claims, the bonus and neutral supplies' sizes, the rules
and the phase: the fields heuristic.py and evaluate.py name; never a deck, a stack, a rival's hand or storage); its
style is its parameters: a high ``colour`` weight.
"""
from ....core.registry import Strategy
from .evaluate import params
from .heuristic import DECISIONS

STRATEGY = Strategy(
    name="colour_racer",
    decisions=DECISIONS,
    params=params(region=0.5, colour=2.5, build=0.7, trade=0.7, place_min=0.5, horizon=0, card=0.5, marble_min=1.0),
    summary="Races for the colour bonuses (T22): the colours closest to complete first.",
)
