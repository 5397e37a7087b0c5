"""Tuning a strategy's parameters by self-play, and checking the result on fresh games.

A :class:`TuneTask` is one strategy at one player count under one set of rules. Its
objective is the win rate of the candidate's seat against the opponents (``against``: a
fixed lineup, or copies of the optimiser's current best: self-play), with rotated seating
(R24) so that every candidate sits in every seat equally often. The optimiser
(``study.optimize``) proposes a round of candidates; they all play the *same* game indices
(common random numbers: the same shuffles, so the comparison within a round is not drowned
by deal luck), and each round plays its own indices. Every game depends only on (seed,
game index) (R25), so a tuning is deterministic for its seed, on threads or Dask.

The optimiser's pick is then re-measured beside the default parameters on fresh game
indices that tuning never used, with 95% intervals. Both play each fresh game, one after
the other (``pairing.PreparedPair``), so the improvement's interval comes from each game's
difference of win credits, not from the two rates' variances added. An improvement whose
interval does not exclude zero is reported as none: the recommended parameters are then
the defaults.
"""
from __future__ import annotations

import json
import math
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import accounting as acc
from ..core.arguments import ConfigError, comma_list, file_name, in_api, integer, named, text
from ..core.checkpoint import current_keys
from ..core.driver import (
    MIN_CHUNK,
    SLOW_GAME,
    PreparedRun,
    RunConfig,
    SeatStrategy,
    canonical_rules,
    check_seed,
    chunks,
    format_number,
    seat_strategy,
)
from ..core.output import read_limited
from ..core.pairing import PairedTotals, PreparedPair
from ..core.registry import GAMES, get_game
from ..core.specs import parse_player_counts, parse_strategy_list
from ..core.stats import mean_interval
from .optimize import Box, ReplayMismatch, Round, maximise, rounds_for

ROUND_BLOCK = 1 << 40  # game indices of one round; rounds start at round * ROUND_BLOCK
MAX_ROUNDS = 1 << 20
FRESH_FIRST = 1 << 62  # the fresh games of the final check: far beyond every round's indices
CROSS_FIRST = FRESH_FIRST + (1 << 61)  # the rules' cross check: fresh games of its own
CROSS_COLUMNS = ["game", "strategy", "players", "rules", "own", "other", "games", "own_win_rate", "own_ci_low",
                 "own_ci_high", "fair_share", "own_better", "other_better"]
MAX_GAMES_PER_EVAL = ROUND_BLOCK
STOP_BLOCK = 1 << 17  # games played between two looks at a stop request (Ctrl-C), at most
STOP_SECONDS = 0.25  # ... and about how long they take, however slow a game is
SELF = "self"


class Stopped(Exception):
    """Ctrl-C: the round or check under way is dropped (a resumed tuning plays it again)."""


def tunable_box(game: str, strategy: str) -> Box:
    """The strategy's declared parameters as a search box (ConfigError if it has none)."""
    registry = get_game(game).registry
    if strategy not in registry:
        raise ConfigError(f"unknown strategy {strategy!r} (known: {', '.join(registry)}) in the {game} game")
    if registry[strategy].untunable:
        raise ConfigError(f"strategy {strategy} cannot be tuned: {registry[strategy].untunable}")
    params = registry[strategy].params
    if not params:
        raise ConfigError(f"strategy {strategy} has no parameters to tune")
    try:
        return Box(tuple(params), tuple(p.low for p in params.values()), tuple(p.high for p in params.values()),
                   tuple(p.integer for p in params.values()))
    except ValueError as exc:
        raise ConfigError(f"strategy {strategy}: {exc} (declare low and high in its Param)") from None


def spec(strategy: SeatStrategy) -> str:
    """A ready-to-paste ``--strategies`` entry naming every parameter."""
    return strategy.name + (":" + ",".join(f"{k}={format_number(v)}" for k, v in strategy.params)
                            if strategy.params else "")


@dataclass(frozen=True)
class TuneTask:
    """One strategy tuned at one player count under one set of rules."""

    game: str
    strategy: str
    players: int
    rules: str
    against: tuple[SeatStrategy, ...] | None  # the other seats (players - 1); None: self-play
    evaluations: int
    games_per_eval: int  # a whole number of rotations
    fresh_games: int  # the final check's games, for each of tuned and default (a whole number of rotations)
    seed: int
    popsize: int
    components: object = None
    box: Box = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "box", tunable_box(self.game, self.strategy))
        if self.against is not None and len(self.against) != self.players - 1:
            raise ConfigError(f"{self.players} players need {self.players - 1} opponents, got {len(self.against)}")
        if rounds_for(self.evaluations, self.popsize) > MAX_ROUNDS:
            raise ConfigError(f"{named('evaluations')} {self.evaluations}: more than {MAX_ROUNDS:,} rounds")
        for name, games in (("games_per_eval", self.games_per_eval), ("fresh_games", self.fresh_games)):
            if not 0 < games <= MAX_GAMES_PER_EVAL or games % self.players:
                raise ConfigError(f"{named(name)} must be a positive multiple of the player count up to "
                                  f"{MAX_GAMES_PER_EVAL:,}, got {games}")

    @property
    def rounds(self) -> int:
        return rounds_for(self.evaluations, self.popsize)

    @property
    def label(self) -> str:
        return f"{self.strategy}, {self.players} players, {self.rules}"

    def slot(self, values: Sequence[float]) -> SeatStrategy:
        return seat_strategy(self.strategy, self.game, **dict(zip(self.box.names, values, strict=True)))

    @property
    def default(self) -> SeatStrategy:
        return seat_strategy(self.strategy, self.game)

    def opponents(self, incumbent: Sequence[float] | None) -> tuple[SeatStrategy, ...]:
        """The fixed lineup, or (self-play) copies of the incumbent (the defaults when None)."""
        if self.against is not None:
            return self.against
        return ((self.slot(incumbent) if incumbent is not None else self.default),) * (self.players - 1)

    def against_label(self) -> str:
        return SELF if self.against is None else ",".join(s.label for s in self.against)

    def kernel_strategies(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys([self.strategy, *(s.name for s in self.against or ())]))


class Evaluator:
    """Plays lineups side by side on a runner (threads or Dask): the totals of the first slot."""

    def __init__(self, runner, threads: int, stop: threading.Event | None = None,
                 compiling: Callable | None = None):
        self.runner, self.threads, self.stop, self.compiling = runner, threads, stop, compiling
        self.seconds_per_game: dict = {}  # (game, strategies compiled) -> a game's measured time, once warm

    def first_slot(self, task: TuneTask, lineups: list[tuple[SeatStrategy, ...]], first_game: int,
                   games: int) -> list[np.ndarray]:
        """The first slot's statistics of each lineup over the same games."""
        totals = self._play(task, [PreparedRun(self._config(task, lineup, games)) for lineup in lineups], first_game,
                            games)
        return [total.slot[0].copy() for total in totals]

    def paired(self, task: TuneTask, lineup_a: tuple[SeatStrategy, ...], lineup_b: tuple[SeatStrategy, ...],
               first_game: int, games: int) -> PairedTotals:
        """Two lineups that differ in the first slot's parameters, each game played by both
        (``PairedTotals``: a's and b's totals, and the per-game differences' squares, b minus a)."""
        kernel = PreparedPair(self._config(task, lineup_a, games), self._config(task, lineup_b, games))
        return self._play(task, [kernel], first_game, games)[0]

    def _config(self, task: TuneTask, lineup: tuple[SeatStrategy, ...], games: int) -> RunConfig:
        return RunConfig(task.components, task.players, lineup, games, task.seed, task.rules, "rotate", self.threads,
                         task.game, task.kernel_strategies())

    def _play(self, task: TuneTask, kernels: list, first_game: int, games: int) -> list:
        """Play ``games`` games from ``first_game`` on every kernel (``PreparedRun`` or
        ``PreparedPair``), in blocks that answer a stop request; their totals."""
        key = (task.game, type(kernels[0]).__name__, kernels[0].table_names)
        if key not in self.seconds_per_game:  # compile (or load) once, answering Ctrl-C meanwhile
            if not kernels[0].warm_up(self.stop, self.compiling):
                raise Stopped
            began = time.perf_counter()
            kernels[0].play(first_game, 1)  # one game timed, once per kernel (the blocks play it again)
            self.seconds_per_game[key] = time.perf_counter() - began
        slow = self.seconds_per_game[key] > SLOW_GAME  # milliseconds a game: every thread gets some of a block
        most = max(1, STOP_BLOCK // len(kernels))
        # games per kernel between two looks at a stop request: about STOP_SECONDS of play, measured as it goes
        block = min(most, max(1, int(STOP_SECONDS * self.runner.parts
                                     / (len(kernels) * max(self.seconds_per_game[key], 1e-9)))))
        totals = [k.zeros() for k in kernels]
        start = first_game
        while start < first_game + games:  # block sizes never change the totals (R25: integer sums)
            if self.stop is not None and self.stop.is_set():
                raise Stopped
            n = min(block, first_game + games - start)
            began = time.perf_counter()
            parts = chunks(start, n, self.runner.parts, 1 if slow else MIN_CHUNK)
            results = self.runner.play_tasks([(k, first, count) for k in kernels for first, count in parts])
            for i, total in enumerate(totals):
                for part in results[i * len(parts):(i + 1) * len(parts)]:
                    total.add(part)
            start += n
            block = min(most, max(1, int(n * STOP_SECONDS / max(time.perf_counter() - began, 1e-6))))
        return totals


def win_rate(row: np.ndarray) -> float:
    return float(row[acc.STAT_WIN60]) / (acc.WIN_UNIT * float(row[acc.STAT_GAMES]))


@dataclass
class Fresh:
    """The final check: first-slot statistics of the tuned and the default parameters on the
    same games, and the sum of each game's squared difference of their win credits; the run
    counters of the games under each (the designer metrics, ``study.tune_metrics``) and the
    sums of each game's squared difference of the metric counters (``pairing.paired_metrics``)."""

    tuned: np.ndarray  # [games, win60, win60_sq]
    default: np.ndarray
    difference_sq: int  # sum over games of (tuned credit - default credit) ** 2, in WIN_UNITs squared
    tuned_run: np.ndarray  # Totals.run of the games with the tuned parameters
    default_run: np.ndarray
    metric_sq: np.ndarray  # sum over games of (tuned counter - default counter) ** 2, per paired metric

    @classmethod
    def of(cls, paired: PairedTotals) -> Fresh:
        """The check's figures from its paired totals (a: the defaults, b: the tuned parameters)."""
        return cls(_fresh_row(paired.b.slot[0]), _fresh_row(paired.a.slot[0]), int(paired.cross[0, 0]),
                   paired.b.run.copy(), paired.a.run.copy(), paired.metric_sq.copy())

    def to_list(self) -> dict:
        return {key: int(value) if key == "difference_sq" else [int(v) for v in value]
                for key, value in vars(self).items()}


@dataclass
class TaskResult:
    task: TuneTask
    rounds: list[Round]
    tuned: tuple[float, ...] | None = None  # the optimiser's pick once every round is played
    fresh: Fresh | None = None

    @property
    def complete(self) -> bool:
        return self.fresh is not None

    def check(self) -> tuple:
        """The fresh check: win rates (tuned, default) with 95% intervals, the improvement,
        its half-width, and whether it is significant."""
        fresh = self.fresh
        rate, low, high = _interval(np.stack([fresh.tuned, fresh.default]))
        # the interval of the per-game difference: both played every fresh game (module doc)
        difference, difference_low, _ = mean_interval(fresh.tuned[1] - fresh.default[1], fresh.difference_sq,
                                                      fresh.tuned[0], acc.WIN_UNIT)
        difference, half = float(difference), float(difference - difference_low)
        return rate, low, high, difference, half, difference - half > 0

    def best(self) -> SeatStrategy:
        """The recommendation: the tuned parameters if they beat the defaults on fresh games."""
        return self.task.slot(self.tuned) if self.check()[-1] else self.task.default

    def row(self) -> dict:
        """The task's line of the result table."""
        task = self.task
        rate, low, high, difference, half, significant = self.check()
        return {
            "game": task.game, "strategy": task.strategy, "players": task.players, "rules": task.rules,
            **({get_game(task.game).data_noun: task.components.name} if task.components is not None else {}),
            "against": task.against_label(),
            "evaluations": sum(len(r.candidates) for r in self.rounds),
            "games_per_eval": task.games_per_eval, "fresh_games": task.fresh_games,
            "fair_share": 1 / task.players,
            "default_win_rate": rate[1], "default_ci_low": low[1], "default_ci_high": high[1],
            "tuned_win_rate": rate[0], "tuned_ci_low": low[0], "tuned_ci_high": high[0],
            "improvement": difference, "improvement_ci_low": difference - half,
            "improvement_ci_high": difference + half, "significant": bool(significant),
            "tuned": spec(task.slot(self.tuned)), "best": spec(self.best()),
        }

    def history(self) -> pd.DataFrame:
        task = self.task
        rows = []
        for r, done in enumerate(self.rounds):
            for candidate, score in zip(done.candidates, done.scores, strict=True):
                rows.append({"strategy": task.strategy, "players": task.players, "rules": task.rules,
                             "evaluation": len(rows) + 1, "round": r + 1, "win_rate": score,
                             **dict(zip(task.box.names, candidate, strict=True)),
                             "incumbent": spec(task.slot(done.incumbent))})
        return pd.DataFrame(rows)


def _interval(rows: np.ndarray):
    """Win rates of [games, win60, win60_sq] rows with their 95% intervals."""
    return mean_interval(rows[:, 1], rows[:, 2], rows[:, 0], acc.WIN_UNIT)


def _fresh_row(stats: np.ndarray) -> np.ndarray:
    return np.array([stats[acc.STAT_GAMES], stats[acc.STAT_WIN60], stats[acc.STAT_WIN60_SQ]], np.int64)


def tune_task(task: TuneTask, evaluator: Evaluator, result: TaskResult,
              on_round: Callable[[TaskResult], None] | None = None, stop: threading.Event | None = None) -> None:
    """Play the task's rounds (after the ones ``result`` holds), then its fresh check. Saved
    rounds are replayed, not played: the optimiser must propose exactly them (a finished
    task is replayed too, so a saved answer is always the optimiser's own)."""
    def score_round(index: int, candidates: list[tuple[float, ...]], incumbent: tuple[float, ...]) -> list[float]:
        opponents = task.opponents(incumbent)
        rows = evaluator.first_slot(task, [(task.slot(c), *opponents) for c in candidates],
                                    index * ROUND_BLOCK, task.games_per_eval)
        return [win_rate(row) for row in rows]

    def record(done: Round) -> None:
        result.rounds.append(done)
        if on_round is not None:
            on_round(result)

    rounds, best = maximise(score_round, task.box, _default_values(task), evaluations=task.evaluations,
                            popsize=task.popsize, seed=task.seed, history=list(result.rounds), on_round=record,
                            stop=stop)
    if len(rounds) < task.rounds or (stop is not None and stop.is_set()):
        return
    if result.tuned is not None and result.tuned != best:
        raise ReplayMismatch("the saved tuned parameters are not the optimiser's pick for its saved rounds")
    result.tuned = best
    if result.fresh is not None:  # a finished task, replayed to check what was saved
        return
    opponents = task.opponents(None)  # fresh games: against the lineup, or (self-play) the defaults
    result.fresh = Fresh.of(evaluator.paired(task, (task.default, *opponents), (task.slot(best), *opponents),
                                             FRESH_FIRST, task.fresh_games))
    if on_round is not None:
        on_round(result)


def tune_all(tasks: Sequence[TuneTask], results: list[TaskResult], evaluator: Evaluator,
             on_round: Callable[[TaskResult], None] | None = None, stop: threading.Event | None = None) -> bool:
    """Tune the tasks in order, each from where ``results`` left it; True when all are done."""
    for task, result in zip(tasks, results, strict=True):
        tune_task(task, evaluator, result, on_round, stop)
        if not result.complete:
            return False
    return True


def cross_check(results: Sequence[TaskResult], evaluator: Evaluator,
                stop: threading.Event | None = None) -> pd.DataFrame:
    """Does a rule change the best parameters? For each strategy and player count tuned under
    several rules, under each rule: one seat with that rule's best parameters against the
    other seats with another rule's (fresh games, 95% intervals). Its win rate above the
    fair share (``own_better``) means the rule's own parameters are really better there;
    below it (``other_better``), the other rule's are; neither: the tuned difference does
    not matter. Identical parameters play no games (their rows have 0 games)."""
    done = {(r.task.strategy, r.task.players, r.task.rules): r for r in results if r.complete}
    rows = []
    for (strategy, players, rules), result in done.items():
        for (other_strategy, other_players, other_rules), other in done.items():
            if (other_strategy, other_players) != (strategy, players) or other_rules == rules:
                continue
            if stop is not None and stop.is_set():
                return pd.DataFrame(rows, columns=CROSS_COLUMNS)
            own, theirs = result.best(), other.best()
            if own == theirs:  # nothing to measure
                rate = low = high = math.nan
                games = 0
            else:
                row = _fresh_row(evaluator.first_slot(result.task, [(own, *(theirs,) * (players - 1))], CROSS_FIRST,
                                                      result.task.fresh_games)[0])
                (rate,), (low,), (high,) = _interval(row[None, :])
                games = int(row[0])
            rows.append((result.task.game, strategy, players, rules, spec(own), spec(theirs), games, rate, low,
                         high, 1 / players, bool(low > 1 / players), bool(high < 1 / players)))
    return pd.DataFrame(rows, columns=CROSS_COLUMNS)


def result_table(results: Sequence[TaskResult]) -> pd.DataFrame:
    """One line per finished task: default and tuned win rates on fresh games, the improvement."""
    return pd.DataFrame([r.row() for r in results if r.complete])


def history_table(results: Sequence[TaskResult]) -> pd.DataFrame:
    """Every evaluation of every task: its parameters and win rate."""
    frames = [r.history() for r in results if r.rounds]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def round_table(results: Sequence[TaskResult]) -> pd.DataFrame:
    """Per round: the candidates' mean and best win rates, and the incumbent they started from."""
    rows = []
    for result in results:
        task = result.task
        for r, done in enumerate(result.rounds):
            rows.append({"strategy": task.strategy, "players": task.players, "rules": task.rules,
                         "round": r + 1, "mean_win_rate": float(np.mean(done.scores)),
                         "best_win_rate": max(done.scores), "incumbent": spec(task.slot(done.incumbent))})
    return pd.DataFrame(rows)


def _default_values(task: TuneTask) -> tuple[float, ...]:
    return tuple(v for _, v in task.default.params)


# ---------------------------------------------------------------- tasks as the command line describes them

ALL = "all"


def default_popsize(parameters: int) -> int:
    """CMA-ES's own default population for this many parameters."""
    return 4 + int(3 * math.log(parameters))


def _strategies(spec: str | Sequence[str], game) -> list[str]:
    """``all`` (the built-ins with parameters) or a comma list of strategy names."""
    spec = comma_list(spec, "strategy")
    if spec.strip().lower() == ALL:
        return [name for name in game.built_ins if game.registry[name].params]
    names = [part.strip() for part in spec.split(",")]
    for name in names:
        if ":" in name or "=" in name:
            raise ConfigError(f"tune takes strategy names, got {name!r}: tuning starts from the defaults and "
                              "searches every declared parameter")
        tunable_box(game.name, name)
    if len(set(names)) != len(names):
        raise ConfigError(f"{named('strategy')} {spec!r} names a strategy twice")
    return names


def _rules_played(spec: str | None, game, players: list[int]) -> list[str]:
    """The rule sets to tune under: the spec's (checked at every player count; canonical when it
    names the same rules at all of them, as a preset's name does), or every preset (``all``)."""
    if spec is None:
        return [game.presets[0]]
    if text(spec, "rules").strip().lower() == ALL:
        return list(game.presets)
    canonical = {canonical_rules(game, spec, n) for n in players}
    return [canonical.pop() if len(canonical) == 1 else spec]


def _against(spec: str | Sequence[str], game, players: int):
    if comma_list(spec, "against").strip().lower() == SELF:
        return None
    lineup = parse_strategy_list(spec, game.name, "against")
    if len(lineup) == 1:
        return lineup * (players - 1)
    if len(lineup) != players - 1:
        need = "1 opponent" if players == 2 else f"1 or {players - 1} opponents"
        raise ConfigError(f"{named('against')}: {players} players need {need}, got {len(lineup)}")
    return lineup


def _whole_rotations(games: int, players: int, argument: str) -> int:
    games = integer(games, argument, 1, MAX_GAMES_PER_EVAL, f"{MAX_GAMES_PER_EVAL:,}")
    return -(-games // players) * players  # every seat equally often (R24)


def plan_tasks(game_name: str, strategy_spec: str, players_spec: str | None, rules_asked: str | None,
               against_spec: str, evaluations: int, games_per_eval: int, fresh_games: int, seed: int,
               popsize: int | None, components) -> list[TuneTask]:
    """The tasks of a tuning as the command line (and the API) describe it: strategies (names,
    or all), player counts (None: the game's usual), rules (None: standard; all), opponents."""
    game = get_game(game_name)
    strategies = _strategies(strategy_spec, game)
    counts = parse_player_counts(players_spec, game.name)
    rules_played = _rules_played(rules_asked, game, counts)
    evaluations = integer(evaluations, "evaluations", 1, 2**63 - 1, "2**63-1")
    if popsize is not None:
        popsize = integer(popsize, "popsize", 2, 1000)
    seed = check_seed(seed)
    tasks = []
    for name in strategies:
        size = popsize or default_popsize(len(game.registry[name].params))
        for players in counts:
            for rules in rules_played:
                tasks.append(TuneTask(
                    game.name, name, players, rules, _against(against_spec, game, players), evaluations,
                    _whole_rotations(games_per_eval, players, "games_per_eval"),
                    _whole_rotations(fresh_games, players, "fresh_games"), seed, size, components))
    return tasks



# ---------------------------------------------------------------- tuned parameters, as balance --tuned reads them

SHIPPED = "shipped"
MAX_TUNED_BYTES = 64 << 20


@dataclass(frozen=True)
class TunedParameters:
    """The best parameters of each strategy per (player count, rules): what ``tune --out
    FILE.json`` wrote (its ``tuned`` table; an improvement that did not hold on fresh games
    keeps the defaults there). Where tune's cross check found another rule's parameters
    better under a rule than that rule's own (the tuning of that rule stopped short), those
    are the best known for it, and :meth:`lineup` plays them."""

    source: str  # the file, or "shipped"
    best: dict  # (strategy, players, rules) -> SeatStrategy
    # (strategy, players, rules) -> "own", "other", "neither" or "same": tune's cross check, where
    # the variant's parameters played another rule's under that variant (the file's cross_check table)
    cross: dict = field(default_factory=dict)
    # (strategy, players, rules) -> the other rule's parameters, where they beat the variant's own under it
    better: dict = field(default_factory=dict)

    def missing(self, strategies: Sequence[SeatStrategy], players: int, rules: str) -> list[str]:
        """The strategies with parameters that were never tuned for this player count and rules."""
        return [s.name for s in strategies
                if get_game(s.game).registry[s.name].params and (s.name, players, rules) not in self.best]

    def lineup(self, strategies: Sequence[SeatStrategy], players: int, rules: str) -> tuple[SeatStrategy, ...]:
        """The strategies with their tuned parameters for this player count and rules (a
        strategy without parameters plays as it is); ConfigError for one never tuned there."""
        absent = self.missing(strategies, players, rules)
        if absent:
            raise ConfigError(f"{named('tuned')} {self.source} has no parameters for {absent[0]} at {players} "
                              f"players under the {rules} rules")
        # the best known: its own, or another rule's that beat it there
        return tuple(self.better.get((s.name, players, rules), self.best.get((s.name, players, rules), s))
                     for s in strategies)


def shipped_path(game: str) -> Path:
    """The tuned parameters shipped with the package for a game (``games/GAME/data/tuned/``)."""
    return Path(sys.modules[get_game(game).registry.package].__file__).parent / "data" / "tuned" / "tuned.json"


OLDER_TUNED_KEYS = {"variant": "rules"}  # tune --out files written before, still read  # keep: old name
REPORT = "a tune report"  # the source of tuned parameters the Python API passes as tune's tables


def _tune_file() -> str:
    """What tuned parameters are read from, as the caller knows it."""
    return "a file written by medici-sim tune --out FILE.json" if in_api() else "a file written by tune --out FILE.json"


def load_tuned(spec: str | Mapping, game: str) -> TunedParameters:
    """``--tuned FILE`` (a tune --out JSON file) or ``--tuned shipped``, checked entry by entry;
    in the Python API also tune's tables themselves ({"tuned": rows, "cross_check": rows})."""
    if isinstance(spec, Mapping):
        document, spec = spec, REPORT
    else:
        spec = file_name(spec, "tuned")
        path = shipped_path(game) if spec == SHIPPED else Path(spec)
        if spec == SHIPPED and not path.exists():
            raise ConfigError(f"{named('tuned')} shipped: no tuned parameters are shipped for the {game} game")
        data = read_limited(path, MAX_TUNED_BYTES, named("tuned"))
        try:
            document = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, RecursionError, ValueError) as exc:  # JSONDecodeError is a ValueError
            raise ConfigError(f"{named('tuned')} {spec}: not {_tune_file()} ({exc})") from None
    shown = f"{named('tuned')} {spec}"
    rows = document.get("tuned") if isinstance(document, dict) else None
    if not isinstance(rows, list):
        raise ConfigError(f"{shown}: not {_tune_file()} (no tuned table)")
    best = {}
    for i, row in enumerate(rows):
        where = f"{shown}: entry {i + 1}"
        row = current_keys(row, OLDER_TUNED_KEYS)
        if not isinstance(row, dict) or not all(k in row for k in ("game", "strategy", "players", "rules", "best")):
            raise ConfigError(f"{where} lacks game, strategy, players, rules or best")
        if not isinstance(row["game"], str) or row["game"] not in GAMES:
            raise ConfigError(f"{where}: game {row['game']!r} is not a game medici-sim knows ({', '.join(GAMES)})")
        if row["game"] != game:
            continue
        definition = get_game(game)
        if type(row["players"]) is not int or not definition.min_players <= row["players"] <= definition.max_players \
                or row["rules"] not in definition.presets:
            raise ConfigError(f"{where}: players {row['players']!r} or rules {row['rules']!r} are not the {game} "
                              "game's")
        if not isinstance(row["best"], str) or not row["best"].strip():
            raise ConfigError(f"{where}: best is {row['best']!r}, not a strategy with its parameters")
        try:
            slots = parse_strategy_list(row["best"], game, option=f"{where}: best")
        except ConfigError as exc:  # a parameter's own check does not name the file
            raise ConfigError(str(exc) if str(exc).startswith(where) else f"{where}: {exc}") from None
        if len(slots) != 1:
            raise ConfigError(f"{where}: best {row['best']!r} names {len(slots)} strategies, not one")
        (slot,) = slots
        key = (slot.name, row["players"], row["rules"])
        if slot.name != row["strategy"] or key in best:
            raise ConfigError(f"{where}: {row['best']!r} is not {row['strategy']}'s, or it is tuned twice at "
                              f"{row['players']} players under {row['rules']}")
        best[key] = slot
    if not best:
        raise ConfigError(f"{shown}: no tuned strategies of the {game} game")
    cross, better = {}, {}
    for i, row in enumerate(document.get("cross_check") or ()):
        if not isinstance(row, dict) or row.get("game") != game:
            continue
        key = (row.get("strategy"), row.get("players"), row.get("rules"))
        if not all(k in row for k in CROSS_COLUMNS) or key not in best:
            raise ConfigError(f"{shown}: cross_check entry {i + 1} is not tune's check of a tuned strategy")
        found = "same" if row["games"] == 0 else "own" if row["own_better"] else \
            "other" if row["other_better"] else "neither"
        cross[key] = found
        if found == "other":
            where = f"{shown}: cross_check entry {i + 1}: other"  # what parse_strategy_list's messages name
            better[key], *more = parse_strategy_list(row["other"], game, option=where)
            if more:
                raise ConfigError(f"{where}: {row['other']!r} names {len(more) + 1} strategies, not one")
    return TunedParameters(spec, best, cross, better)
