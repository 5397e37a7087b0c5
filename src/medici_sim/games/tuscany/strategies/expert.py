"""``expert``: weighs every worth in this phase: a green point is banked once per phase scoring still to
come (T34), so regions, colour bonuses and agriculture early count up to three times, while cards, workers,
marble and the effects that pay off later fall toward their end values (T35) as the game ends.

Its decisions are ``heuristic.py``'s (they read only what the seat sees: its own hand, workers, storage and
bonus tiles, every estate, the display, the colour claims, the bonus and neutral supplies' sizes, the rules
and the phase: the fields heuristic.py and evaluate.py name; never a deck, a stack, a rival's hand or storage), but
its take is priced (``heuristic.priced_take_nb``: a tile it can pay for from its hand now before one it
cannot), and its ``horizon`` is high. Its defaults were found by a local random search against the four
styles at 2-4 players (seeds apart from the strength test's), then checked on fresh games.
"""
from ....core.registry import Strategy
from .evaluate import params
from .heuristic import DECISIONS, priced_take_nb

STRATEGY = Strategy(
    name="expert",
    decisions={**DECISIONS, "take_nb": priced_take_nb},
    params=params(region=1.55, colour=0.3, build=0.65, trade=0.7, place_min=1.0, horizon=0.75, card=0.65,
                  marble_min=0.5),
    summary="Weighs regions, colour bonuses, effects and cards by the phase scorings left (T34).",
)
