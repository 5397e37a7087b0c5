"""Noisy black-box maximisation: CMA-ES (the ``cma`` library) over a box of parameters.

Why CMA-ES, and why ``cma``: a strategy's parameters are a handful of continuous numbers
(a few whole ones) whose effect on a win rate is smooth but seen through sampling noise.
CMA-ES adapts its search distribution from the *ranking* of a population, so a constant
offset or a monotone distortion of the noise costs it nothing, it needs no gradient, and
its population maps directly onto rounds of games played on common random numbers (every
candidate of a round plays the same game indices). ``cma`` is its reference implementation,
maintained by CMA-ES's author, pure Python over numpy, with box constraints built in.

The optimiser is deterministic for a seed: its sampling draws from a generator of its own
(never numpy's global one), and its input is the win rates, which are exact integer sums
(R25). So a run is replayed exactly from its recorded history (:func:`maximise`'s
``history``): a resumed tuning asks the optimiser again, checks that it proposes the
recorded candidates, and tells it the recorded results without playing them again.
"""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

SIGMA0 = 0.25  # initial step size, as a share of each parameter's range
INTEGER_MIN_STEP = 0.25  # a whole-number parameter's step size never falls below this share of one unit


class ReplayMismatch(ValueError):
    """A recorded history that the optimiser does not reproduce."""


@dataclass(frozen=True)
class Box:
    """The parameters searched: names, bounds and which are whole numbers.

    Candidates are searched in the unit cube (folded over the whole space: ``_reflect``);
    :meth:`values` maps a point to parameter
    values (whole numbers rounded, others rounded to 1/10,000 of their range, so that
    the values read well and a default maps back to itself exactly).
    """

    names: tuple[str, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    integer: tuple[bool, ...]

    def __post_init__(self):
        for name, low, high in zip(self.names, self.low, self.high, strict=True):
            if not (math.isfinite(low) and math.isfinite(high) and low < high and math.isfinite(high - low)):
                raise ValueError(f"parameter {name}: the search needs a finite range, got {low:g} to {high:g}")

    @property
    def size(self) -> int:
        return len(self.names)

    def values(self, point: Sequence[float]) -> tuple[float, ...]:
        out = []
        for x, low, high, whole in zip(point, self.low, self.high, self.integer, strict=True):
            value = low + _reflect(float(x)) * (high - low)
            if whole:
                value = float(round(value))
            else:
                digits = max(0, 4 - math.floor(math.log10(high - low)))
                value = round(value, digits)
            out.append(min(max(value, low), high))
        return tuple(out)

    def point(self, values: Sequence[float]) -> np.ndarray:
        return np.array([(v - low) / (high - low) for v, low, high in zip(values, self.low, self.high, strict=True)])


def _reflect(x: float) -> float:
    """The unit interval folded over the real line (0.25 -> 0.25, 1.25 -> 0.75, -0.25 -> 0.25):
    a point outside the box stands for its mirror image inside, so the search never sees a
    flat plateau beyond a face."""
    y = x % 2.0
    return 2.0 - y if y > 1.0 else y


@dataclass(frozen=True)
class Round:
    """One round: the candidates asked (parameter values) and the score of each."""

    candidates: tuple[tuple[float, ...], ...]
    scores: tuple[float, ...]
    incumbent: tuple[float, ...]  # the optimiser's best estimate when the round began


class Optimiser:
    """CMA-ES in the unit cube, started at ``start`` (parameter values)."""

    def __init__(self, box: Box, start: Sequence[float], seed: int, popsize: int):
        import cma

        rng = np.random.default_rng(seed)
        steps = [INTEGER_MIN_STEP / (high - low) if whole else 0.0
                 for low, high, whole in zip(box.low, box.high, box.integer, strict=True)]
        options = {
            "seed": np.nan,  # leave numpy's global generator alone: sampling uses ``rng`` only
            "randn": lambda lam, n: rng.standard_normal((lam, n)),
            # the box is kept by reflection at its faces (``_reflect``), not by cma's "bounds",
            # which fails in one dimension
            "popsize": popsize, "minstd": steps if len(steps) > 1 else steps[0],
            "verbose": -9, "verb_log": 0, "verb_disp": 0,
            # the budget is the number of rounds asked for: no early stop on a flat or noisy landscape
            "tolfun": 0, "tolfunhist": 0, "tolx": 0, "tolflatfitness": 10**9, "tolstagnation": 10**9,
        }
        self.box = box
        self.es = cma.CMAEvolutionStrategy(list(box.point(start)), SIGMA0, options)

    def ask(self) -> list[np.ndarray]:
        return self.es.ask()

    def tell(self, points: list[np.ndarray], scores: Sequence[float]) -> None:
        self.es.tell(points, [-s for s in scores])  # cma minimises

    def best(self) -> tuple[float, ...]:
        """The current best estimate: the distribution's mean (robust to noise, unlike the
        best score seen, which favours lucky candidates)."""
        return self.box.values(self.es.result.xfavorite)


def rounds_for(evaluations: int, popsize: int) -> int:
    return -(-evaluations // popsize)


def maximise(score_round: Callable[[int, list[tuple[float, ...]], tuple[float, ...]], Sequence[float]],
             box: Box, start: Sequence[float], *, evaluations: int, popsize: int, seed: int,
             history: Sequence[Round] = (), on_round: Callable[[Round], None] | None = None,
             stop: threading.Event | None = None) -> tuple[list[Round], tuple[float, ...]]:
    """Maximise ``score_round(round_index, candidates, incumbent) -> scores`` over ``box``.

    ``evaluations`` candidates in all, ``popsize`` per round (the last round is whole). The
    rounds of ``history`` are replayed (not scored again); a history the optimiser does not
    reproduce raises :class:`ReplayMismatch`. ``on_round(round)`` after each new round;
    ``stop`` is checked between rounds. Returns (all rounds, the best estimate).
    """
    optimiser = Optimiser(box, start, seed, popsize)
    rounds = []
    for index in range(rounds_for(evaluations, popsize)):
        points = optimiser.ask()
        candidates = tuple(box.values(p) for p in points)
        incumbent = optimiser.best()
        if index < len(history):
            saved = history[index]
            if saved.candidates != candidates or saved.incumbent != incumbent:
                raise ReplayMismatch(f"round {index + 1} of the saved history is not what the optimiser proposes "
                                     "with this seed")
            done = saved
        else:
            if stop is not None and stop.is_set():
                break
            done = Round(candidates, tuple(float(s) for s in score_round(index, list(candidates), incumbent)),
                         incumbent)
            if on_round is not None:
                on_round(done)
        rounds.append(done)
        optimiser.tell(points, done.scores)
    if len(history) > len(rounds):
        raise ReplayMismatch(f"the saved history has {len(history)} rounds, more than the run asks for")
    return rounds, optimiser.best()
