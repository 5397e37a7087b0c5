"""Which rule values balance a game: ``design`` as a computation.

The search runs optuna's TPE sampler (seeded: the same options give the same trials) over
the box the ``--rule`` ranges span, whole numbers on each range's grid. Every trial plays its
tournament on the same game indices (common random numbers), so two trials differ by their
rules, not by their luck, and a trial's score is a function of its values. The base rules'
values, when they lie in the box, are the first trial.

The search's best score is biased low (the best of many noisy scores), so the answer comes
from fresh games, a block of game indices the search never played: the best values and the
base rules' play the same fresh games together (``core.pairing``), each strategy's and each
seat's change is paired game by game, and the best values count as closer to the target only
when the gain exceeds its paired 95% margin.
"""
from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core import accounting as acc
from ..core import checkpoint
from ..core.arguments import ConfigError, integer, named, text
from ..core.driver import check_games, rule_set
from ..core.registry import fitted_summary
from ..core.rules import same_games
from . import design_saved
from .analysis import AnalysisDependencyError, _rules_change, _win_rates, paired_change, points, strategy_table
from .metrics import METRIC_CHANGES_TABLE, METRICS_TABLE, changes_frame, metric_changes, study_metrics
from .sweep import Sweep, spread
from .tournament import Tournament

TARGET_KINDS = ("strategies", "seats")  # or STRATEGY=RATE
SEARCH_BLOCK, FRESH_BLOCK = 0, 1  # the configuration blocks of game indices: the search's, the fresh games'
NO_RULE_SET = design_saved.WORST_SCORE  # a trial's score where its values make no rule set


Trial = tuple[tuple[int, ...], float, int]  # a trial: its values, its score, the games it played


class DesignDependencyError(AnalysisDependencyError):
    """optuna, which ``design`` searches with, is not installed."""


@dataclass(frozen=True)
class Target:
    """What the rules should achieve: ``strategies`` (the smallest spread of win rates),
    ``seats`` (the smallest seat spread), or one strategy's win rate (``strategy`` at ``rate``)."""

    kind: str
    strategy: str = ""
    rate: float = 0.0

    @property
    def spec(self) -> str:
        """The target as --target writes it."""
        return self.kind if self.kind in TARGET_KINDS else f"{self.strategy}={self.rate}"

    def words(self) -> str:
        return {"strategies": "the spread of the strategies' win rates", "seats": "the seat spread"}.get(
            self.kind, f"{self.strategy}'s distance from a {points(self.rate)}% win rate")

    def measure(self, tournament: Tournament) -> tuple[float, float, float]:
        """The score (0 is the target met), with its 95% interval (conservative for a spread)."""
        if self.kind == "seats":
            return spread(*_win_rates(tournament.seat_stats))
        rows = strategy_table(tournament)
        rates = [rows[c].to_numpy() for c in ("win_rate", "win_rate_ci_low", "win_rate_ci_high")]
        if self.kind == "strategies":
            return spread(*rates)
        k = tournament.labels.index(self.strategy)
        rate, low, high = (float(r[k]) for r in rates)
        far = max(abs(low - self.rate), abs(high - self.rate))
        return abs(rate - self.rate), 0.0 if low <= self.rate <= high else min(abs(low - self.rate),
                                                                               abs(high - self.rate)), far


def parse_target(spec: str | None, labels: list[str]) -> Target:
    """strategies, seats, or STRATEGY=RATE with the strategy among ``labels`` and 0 <= RATE <= 1."""
    example = f"e.g. {labels[-1] if labels else 'STRATEGY'}=0.25"  # one of the strategies played
    if spec is None:
        raise ConfigError(f"{named('target')} is needed: strategies, seats or STRATEGY=RATE ({example})")
    spec = text(spec, "target").strip()
    if spec in TARGET_KINDS:
        if spec == "strategies" and len(labels) < 2:
            raise ConfigError(f"{named('target')} strategies needs at least two strategies, got {', '.join(labels)}")
        return Target(spec)
    name, sep, rate = spec.partition("=")
    if not sep:
        raise ConfigError(f"{named('target')} must be strategies, seats or STRATEGY=RATE ({example}), "
                          f"got {spec!r}")
    if name.strip() not in labels:
        raise ConfigError(f"{named('target')} {spec!r}: {name.strip()!r} is not one of the strategies played "
                          f"({', '.join(labels)})")
    try:
        value = float(rate)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 1:
        raise ConfigError(f"{named('target')} {spec!r}: the win rate must be a number from 0 to 1")
    return Target("rate", name.strip(), value)


@dataclass(frozen=True)
class Design:
    """A design question: the box (``sweep``: one player count, its rules' ranges), the target,
    how many trials the search plays (each ``sweep.study.games`` games), and the fresh games."""

    sweep: Sweep
    target: Target
    trials: int
    fresh_games: int

    @property
    def players(self) -> int:
        return self.sweep.study.counts[0]

    def tournament(self, spec: str, block: int, runner=None, compiling=None) -> Tournament:
        study = self.sweep.study
        played = Tournament(study.component_sets[0], self.players, study.strategies, spec, study.seed, study.threads,
                            config_index=block, game=study.game.name)
        played.runner, played.compiling = runner, compiling
        return played

    def planned_games(self) -> int:
        """The games of every trial (a repeated one is not played again) and of the fresh check."""
        played = self.tournament(self.sweep.base(self.players), SEARCH_BLOCK)
        per_trial = len(played.lineups) * played.per_lineup(self.sweep.study.games)
        return self.trials * per_trial + 2 * len(played.lineups) * played.per_lineup(self.fresh_games)

    def base_values(self) -> tuple[int, ...] | None:
        """The base rules' values of the swept parameters, if they lie on the box's grid."""
        values = self.sweep.base_values(self.players)
        return values if all(v in r.values for r, v in zip(self.sweep.rules, values, strict=True)) else None


def new_design(sweep: Sweep, target: str, trials: int, fresh_games: int) -> Design:
    """A design question, every option checked: one player count, a target among the strategies played."""
    if len(sweep.study.counts) != 1:
        raise ConfigError(f"{named('players')}: design answers for one player count, got "
                          f"{', '.join(map(str, sweep.study.counts))}")
    labels = list(dict.fromkeys(s.label for s in sweep.study.strategies))
    return Design(sweep, parse_target(target, labels), integer(trials, "trials", 1, 10_000),
                  check_games(fresh_games, "fresh_games"))


def _optuna():
    try:
        import optuna
    except ImportError:
        raise DesignDependencyError("design needs optuna: pip install 'medici-sim[design]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def search(design: Design, progress: Callable[[int], None] | None = None, stop: threading.Event | None = None,
           runner=None, compiling=None, done: Sequence[Trial] = (),
           on_trial: Callable[[list[Trial]], None] | None = None) -> pd.DataFrame:
    """The trials, in order: the values, the rule set, the score on the search's games.

    ``done``: a resumed search's trials, told to the optimiser without being played again;
    ``on_trial(trials)`` after each trial (to checkpoint). Each trial's sampler is seeded by
    the seed and the trial's number, so a resumed search asks for exactly the trials an
    uninterrupted one would have asked for."""
    optuna = _optuna()
    rules, study = design.sweep.rules, design.sweep.study
    labels = [r.label for r in rules]
    trials = optuna.create_study(direction="minimize")
    box = {r.label: optuna.distributions.IntDistribution(r.values[0], r.values[-1], step=r.step) for r in rules}
    history = list(done)
    scores = {values: (score, games) for values, score, games in history}  # a repeat is the same games: not replayed
    for values, score, _ in history:
        trials.add_trial(optuna.trial.create_trial(params=dict(zip(labels, values, strict=True)), distributions=box,
                                                   value=score))
    base = design.base_values()
    if base is not None and not history:
        trials.enqueue_trial(dict(zip(labels, base, strict=True)))

    def score(values: tuple[int, ...]) -> bool:
        """Play a trial's values unless known (a repeat is the same games); False if stopped during it."""
        if values not in scores:
            spec = _spec(design, values)
            if spec is None:
                scores[values] = (NO_RULE_SET, 0)
            else:
                played = design.tournament(spec, SEARCH_BLOCK, runner, compiling)
                played.play(study.games, progress, stop)
                if stop is not None and stop.is_set():
                    return False
                scores[values] = (design.target.measure(played)[0], played.games)
        return True

    # ask and tell, not optimize(): a stop request leaves the trial unfinished and unsaved, where an
    # exception out of optimize's objective is logged by optuna as a failed trial with its traceback
    while len(history) < design.trials and not (stop is not None and stop.is_set()):
        trials.sampler = optuna.samplers.TPESampler(seed=(study.seed * 1_000_003 + len(history)) % 2**32)
        trial = trials.ask()
        values = tuple(trial.suggest_int(r.label, r.values[0], r.values[-1], step=r.step) for r in rules)
        if not score(values):
            break
        trials.tell(trial, scores[values][0])
        history.append((values, *scores[values]))
        if on_trial is not None:
            on_trial(history)
    rows = [(n, *values, _spec(design, values) or "no rule set", score, games)
            for n, (values, score, games) in enumerate(history)]
    return pd.DataFrame(rows, columns=["trial", *labels, "rules", "score", "games"])


def _spec(design: Design, values: tuple[int, ...]) -> str | None:
    """The rule set of a point of the box, None where its values make none."""
    try:
        return design.sweep.spec(design.players, values)
    except ConfigError:
        return None


def best(history: pd.DataFrame, design: Design) -> tuple[int, ...]:
    """The best trial's values (the first of equal scores: the base rules' when they tie)."""
    row = history.loc[history["score"].idxmin()]
    return tuple(int(row[r.label]) for r in design.sweep.rules)


def remeasure(design: Design, values: tuple[int, ...], progress=None, stop=None, runner=None,
              compiling=None) -> tuple[Tournament, Tournament]:
    """The base rules and ``values`` on the same fresh games (a block the search never played)."""
    base = design.tournament(design.sweep.base(design.players), FRESH_BLOCK, runner, compiling)
    chosen = design.tournament(design.sweep.spec(design.players, values), FRESH_BLOCK, runner, compiling)
    chosen.follow(base)
    base.play(design.fresh_games, progress, stop)
    return base, chosen


def _seat_changes(base: Tournament, chosen: Tournament):
    games = np.full(chosen.players, chosen.games)
    win = acc.STAT_WIN60
    return paired_change(chosen.seat_stats[:, win] - base.seat_stats[:, win], chosen.paired_seat_sq, games, games)


def margin(design: Design, base: Tournament, chosen: Tournament) -> float:
    """The paired 95% margin of the score's change: the change of the target strategy's win
    rate; for a spread, the two widest of the changes of its ends (top and bottom under
    either rule set) added, a conservative bound."""
    target = design.target
    if target.kind == "seats":
        rates = [_win_rates(t.seat_stats)[0] for t in (base, chosen)]
        half = _seat_changes(base, chosen)[1]
    else:
        rates = [_win_rates(t.strategy_stats)[0] for t in (base, chosen)]
        half = _rules_change(base, chosen)[0][1]
        if target.kind == "rate":
            return float(half[base.labels.index(target.strategy)])
    ends = sorted({int(f(r)) for r in rates for f in (np.argmax, np.argmin)}, key=lambda k: -half[k])
    return float(sum(half[k] for k in ends[:2]))


def answer(design: Design, values: tuple[int, ...], base: Tournament, chosen: Tournament) -> tuple[dict, str]:
    """The fresh games' tables (``remeasured``: per strategy and rule set, with the paired
    change; ``scores``: the target's score under each; ``metrics``: how the games went under
    each; ``metric_changes``: each metric's paired change, best minus base) and the answer in words."""
    sweep, target = design.sweep, design.target
    rows = []
    change, half = _rules_change(base, chosen)[0]
    for name, t in (("base", base), ("best", chosen)):
        table = strategy_table(t)
        rows.append(pd.DataFrame({"rules": name, "spec": t.rules, "strategy": table["strategy"],
                                  "games": table["games"], **{c: table[c] for c in
                                                              ("win_rate", "win_rate_ci_low", "win_rate_ci_high")},
                                  "change": change if t is chosen else np.nan,
                                  "change_ci_low": change - half if t is chosen else np.nan,
                                  "change_ci_high": change + half if t is chosen else np.nan}))
    scores = pd.DataFrame([(name, t.rules, t.games, *target.measure(t)) for name, t in (("base", base),
                                                                                          ("best", chosen))],
                          columns=["rules", "spec", "games", "score", "score_ci_low", "score_ci_high"])
    (before, *_), (after, *_) = scores[["score"]].to_numpy()
    gain, sure = before - after, margin(design, base, chosen)
    setting = ", ".join(f"{r.label}={v}" for r, v in zip(sweep.rules, values, strict=True))
    where = (f"on {chosen.games:,} fresh games at {design.players} players, the same games under both rule sets; "
             f"score intervals 95%{', conservative' if target.kind != 'rate' else ''}")
    base_words = f"the base rules ({base.rules})"
    if values == sweep.base_values(design.players):
        text = (f"No better value: {base_words} are the best of the {design.trials} trials for {target.words()} "
                f"({points(before)} points, {where}).")
    elif gain > sure:
        text = (f"{setting} brings {target.words()} from {points(before)} points under {base_words} to "
                f"{points(after)} points: {points(gain)} points closer to the target, beyond the paired 95% margin "
                f"of ±{points(sure)} points ({where}).")
    else:
        text = (f"No better value: the best values found, {setting}, give {target.words()} of {points(after)} "
                f"points against {points(before)} under {base_words}, a gain of {points(gain)} points within the "
                f"paired 95% margin of ±{points(sure)} ({where}).")
    components = design.sweep.study.component_sets[0]
    label = components.name if components is not None else ""
    # the base rules are the best, or rules that play their very games (a change of an inert parameter,
    # core.rules.same_games): one configuration, nothing changed
    same = chosen.rules == base.rules or bool(same_games(*(rule_set(sweep.study.game, t.rules, t.players)
                                                               for t in (base, chosen))))
    tournaments = (base,) if same else (base, chosen)
    metrics = study_metrics(tournaments, [label] * len(tournaments))
    return {"remeasured": pd.concat(rows, ignore_index=True), "scores": scores, METRICS_TABLE: metrics,
            METRIC_CHANGES_TABLE: changes_frame([] if same else metric_changes(base, chosen, label),
                                                       base.game_def)}, text


def run(design: Design, progress=None, stop=None, runner=None, compiling=None,
        save: Callable[[dict, dict], None] | None = None, resume=None) -> dict | None:
    """Search, then re-measure: ``api.DesignReport``'s fields; None when stopped before the answer.
    ``save(configuration, progress)`` after every trial; ``resume``: a checkpoint of this very design."""
    started = time.perf_counter()
    conf = design_saved.configuration(design)
    done = [] if resume is None else design_saved.trials(checkpoint.load(resume, design_saved.DESIGN, conf))
    on_trial = None if save is None else (lambda history: save(conf, design_saved.progress(history)))
    trials = search(design, progress, stop, runner, compiling, done, on_trial)
    if len(trials) < design.trials or (stop is not None and stop.is_set()):
        return None
    values = best(trials, design)
    base, chosen = remeasure(design, values, progress, stop, runner, compiling)
    if stop is not None and stop.is_set():
        return None
    tables, text = answer(design, values, base, chosen)
    study = design.sweep.study
    summary = {"game": study.game.name, "players": design.players, "base_rules": base.rules,
               "best_rules": chosen.rules, "target": design.target.words(), "optimiser": "TPE (optuna)",
               "trials": len(trials), "games_per_trial": int(trials["games"].max()), "fresh_games": chosen.games,
               "seed": study.seed, "threads": study.threads,
               "elapsed_seconds": round(time.perf_counter() - started, 2),
               **fitted_summary(study.game, [s.name for s in study.strategies], [base.rules, chosen.rules]),
               "verdict": text}
    return {**tables, "verdict": text, "trials": trials, "summary": summary}
