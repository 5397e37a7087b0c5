"""``expert``: weighs every worth in this phase: a green point is banked once per phase scoring still to
come (T34), so regions, colour bonuses and agriculture early count up to three times, while cards, workers,
marble and the effects that pay off later fall toward their end values (T35) as the game ends.

Its decisions are ``heuristic.py``'s (they read only what the seat sees: its own hand, workers, storage and
bonus tiles, every estate, the display, the colour claims, the bonus supply, the rules and the phase); what
sets it apart is ``horizon`` 1 and weights balanced between the four styles.
"""
from ....core.registry import Strategy
from .evaluate import params
from .heuristic import DECISIONS, priced_take_nb

STRATEGY = Strategy(
    name="expert",
    decisions={**DECISIONS, "take_nb": priced_take_nb},
    params=params(region=1.0, colour=1.0, build=1.0, trade=1.0, place_min=0.0, horizon=1, card=0.6, marble_min=1.0),
    summary="Weighs regions, colour bonuses, effects and cards by the phase scorings left (T34).",
)
