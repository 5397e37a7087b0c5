"""``trader``: builds wagons, villages, quarries and monasteries for yield cards, workers, marble and cards
(T28-T31), and takes the bonus tiles that multiply them.

Its decisions are ``heuristic.py``'s (they read only what the seat sees: its own hand, workers, storage and
bonus tiles, every estate, the display, the colour claims, the bonus and neutral supplies' sizes, the rules
and the phase: the fields heuristic.py and evaluate.py name; never a deck, a stack, a rival's hand or storage); its
style is its parameters: a high ``trade`` weight.
"""
from ....core.registry import Strategy
from .evaluate import params
from .heuristic import DECISIONS

STRATEGY = Strategy(
    name="trader",
    decisions=DECISIONS,
    params=params(region=0.5, colour=0.5, build=0.7, trade=2.5, place_min=0.5, horizon=0, card=0.5, marble_min=1.0),
    summary="Wagons, villages, quarries: yield cards, workers and marble (T28-T31).",
)
