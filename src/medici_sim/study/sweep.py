"""How the balance moves along a rule: ``sweep`` as a computation.

A sweep plays one tournament (``study.tournament``) at every point of one or two rule ranges
(``--rule NAME=LO..HI[:STEP]``) over a base rule set. Every point of a player count plays the
same game indices (common random numbers, R25), so the curves are smooth and the difference
between two neighbouring points is paired game by game: neighbours along the first rule are
played together through ``core.pairing`` (each game under both rule sets), and a change's
interval comes from each game's difference (``analysis.paired_change``). A point between two
neighbours is therefore played twice, once beside each; both plays are the same games and
give the same totals, and its row is taken from the first.

A list parameter is swept one element at a time: ``payouts[0]=20..40`` changes the first
place's payout and keeps the base rule set's others.
"""
from __future__ import annotations

import contextlib
import itertools
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..core import checkpoint
from ..core.arguments import ConfigError, named, text, warn
from ..core.contract import GameData
from ..core.driver import canonical_rules, rule_set
from ..core.registry import fitted_summary
from ..core.rules import RulesError, format_value
from ..core.specs import warn_unfitted
from ..core.stats import within
from . import sweep_saved
from .analysis import _rules_change, _win_rates, max_half_width, strategy_table
from .metrics import (
    METRIC_CHANGES_TABLE,
    METRICS_TABLE,
    Moments,
    change_columns,
    metric_changes,
    metric_row,
    tournament_moments,
)
from .studies import MAX_PRECISION_GAMES, Study, new_study
from .tournament import Tournament

MAX_RULES = 2  # --rule options a sweep takes
MAX_POINTS = 400  # points a sweep (all its rules together) plays at most
_RULE_RANGE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[\s*(\d+)\s*\])?\s*=\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*"
                         r"(?::\s*(-?\d+)\s*)?$")
RANGE_SYNTAX = "NAME=LO..HI or NAME=LO..HI:STEP (a list's element: NAME[I]=LO..HI)"


@dataclass(frozen=True)
class SweptRule:
    """One rule parameter (or one element of a list parameter) and the values it takes."""

    name: str
    index: int | None  # the element of a list parameter; None: a single number
    values: tuple[int, ...]

    @property
    def label(self) -> str:
        """The parameter's name in the tables (``payouts[0]`` for an element)."""
        return self.name if self.index is None else f"{self.name}[{self.index}]"

    @property
    def written(self) -> str:
        """The range as ``--rule`` writes it."""
        return f"{self.label}={self.values[0]}..{self.values[-1]}:{self.step}"

    @property
    def step(self) -> int:
        return self.values[1] - self.values[0] if len(self.values) > 1 else 1

    def item(self, base: dict, value: int) -> str:
        """The spec item that sets this parameter to ``value`` over the ``base`` values."""
        if self.index is None:
            return f"{self.name}={value}"
        numbers = list(base[self.name])
        numbers[self.index] = value
        return f"{self.name}={format_value(tuple(numbers))}"


def example_range(book) -> str:
    """A range of the game's own to show in a message: its first single-number rule, over all its values."""
    param = next(book.param(name) for name in book.names if book.param(name).length is None)
    return f"{param.name}={param.low}..{param.high}"


def parse_rule(spec: str, game) -> SweptRule:
    """``NAME=LO..HI[:STEP]`` checked against the game's rule book (names, ranges, lists)."""
    book = game.rule_book
    if book is None:
        raise ConfigError(f"the {game.name} game has no rule parameters to sweep")
    match = _RULE_RANGE.match(text(spec, "rule"))
    if match is None:
        raise ConfigError(f"{named('rule')} {spec!r}: write {RANGE_SYNTAX}, e.g. {example_range(book)}")
    name, index, low, high, step = match.groups()
    if name not in book.names:
        raise ConfigError(f"{named('rule')} {spec!r}: the {game.name} game has no rule {name!r} (its rules: "
                          f"{', '.join(book.names)})")
    param = book.param(name)
    if param.length is None and index is not None:
        raise ConfigError(f"{named('rule')} {spec!r}: {name} is one number ({param.point}); write {name}=LO..HI")
    if param.length is not None and index is None:
        raise ConfigError(f"{named('rule')} {spec!r}: {name} is a list ({param.length_help}, {param.point}); sweep "
                          f"one element of it, e.g. {name}[0]=LO..HI")
    low, high, step = int(low), int(high), 1 if step is None else int(step)
    if step <= 0:
        raise ConfigError(f"{named('rule')} {spec!r}: the step must be a positive whole number, got {step}")
    if low > high:
        raise ConfigError(f"{named('rule')} {spec!r}: LO must not exceed HI")
    if low < param.low or high > param.high:
        raise ConfigError(f"{named('rule')} {spec!r}: {name} ranges over {param.low}-{param.high} ({param.point})")
    return SweptRule(name, None if index is None else int(index), tuple(range(low, high + 1, step)))


def parse_rules(specs: str | Sequence[str], game, max_points: int | None = MAX_POINTS) -> tuple[SweptRule, ...]:
    """One or two ``--rule`` ranges, of different parameters, with at most ``max_points`` points."""
    if not isinstance(specs, str) and (not isinstance(specs, Sequence) or isinstance(specs, bytes)):
        raise ConfigError(f"{named('rule')} must be a range ({RANGE_SYNTAX}) or a list of them, got {specs!r}")
    specs = [specs] if isinstance(specs, str) else list(specs)
    if not 1 <= len(specs) <= MAX_RULES:
        raise ConfigError(f"give one or two {named('rule')} ranges ({RANGE_SYNTAX}), got {len(specs)}")
    rules = tuple(parse_rule(spec, game) for spec in specs)
    if len({r.label for r in rules}) < len(rules):
        raise ConfigError(f"{named('rule')}: {rules[0].label} is given twice")
    if max_points is not None and int(np.prod([len(r.values) for r in rules])) > max_points:
        raise ConfigError(f"{named('rule')}: {' x '.join(str(len(r.values)) for r in rules)} points; at most "
                          f"{max_points} (use a step)")
    return rules


@dataclass(frozen=True)
class Sweep:
    """What a sweep plays: a study (game, player counts, strategies, seed, component set, games,
    precision, threads; its ``rules`` is the base rules' spec) and the rules it sweeps."""

    study: Study
    rules: tuple[SweptRule, ...]

    @property
    def points(self) -> list[tuple[int, ...]]:
        """Every combination of the rules' values, the first rule varying fastest."""
        return [tuple(reversed(values)) for values in itertools.product(*(r.values for r in reversed(self.rules)))]

    def base(self, players: int) -> str:
        """The base rules at ``players``, canonical (a spec of presets and items, never a file)."""
        return canonical_rules(self.study.game, self.study.rules or self.study.game.presets[0], players)

    def spec(self, players: int, values: Sequence[int]) -> str:
        """The canonical rule set of one point at ``players`` (ConfigError naming the point if it is none)."""
        base = self.base(players)
        start = rule_set(self.study.game, base, players).values
        bad = next((r for r in self.rules if r.index is not None and r.index >= len(start[r.name])), None)
        if bad is not None:  # checked before any element is set: an element past the list's end is no rule
            param = self.study.game.rule_book.param(bad.name)
            raise ConfigError(f"{named('rule')} {bad.written}: {bad.name} has {len(start[bad.name])} values at "
                              f"{players} players ({param.length_help}, {param.point}), so no element {bad.index} "
                              f"(elements 0-{len(start[bad.name]) - 1})")
        items = [rule.item(start, value) for rule, value in zip(self.rules, values, strict=True)]
        try:
            return rule_set(self.study.game, ",".join([base, *items]), players).spec
        except RulesError as exc:
            point = ", ".join(f"{r.label}={v}" for r, v in zip(self.rules, values, strict=True))
            raise ConfigError(f"{named('rule')}: the point {point} at {players} players is no rule set: "
                              f"{exc}") from None

    def base_values(self, players: int) -> tuple[int, ...]:
        """The swept parameters' values under the base rules at ``players``."""
        values = rule_set(self.study.game, self.base(players), players).values
        return tuple(values[r.name] if r.index is None else values[r.name][r.index] for r in self.rules)

    def check(self, every_point: bool = True) -> None:
        """The study's options, and (``every_point``) that every point is a rule set."""
        replace(self.study, rules=None).check("sweep")  # the base rules are checked here, at each count
        if self.study.several_component_sets:
            raise ConfigError(f"{named('components')}: a sweep plays one {self.study.game.data_noun}, got "
                              f"{len(self.study.component_sets)} "
                              f"({', '.join(self.study.labels)})")
        specs = [self.spec(players, values) for players in self.study.counts
                 for values in (self.points if every_point else [self.points[0]])]
        if not every_point:  # a design's box: its far corner too, where it is a rule set
            with contextlib.suppress(ConfigError):
                specs += [self.spec(players, self.points[-1]) for players in self.study.counts]
        warn_unfitted(self.study.game, [s.name for s in self.study.strategies], specs)
        self.check_acts()

    def check_acts(self) -> None:
        """A swept rule that its switch leaves inert at every point (a prize's size while its
        threshold is 0, core.rules.Dependency) measures nothing: refused when no swept
        rule acts anywhere, said in a warning when one of two does not."""
        book = self.study.game.rule_book
        idle = []
        for k, rule in enumerate(self.rules):
            dependency = book.dependency(rule.name)
            if dependency is None:
                continue
            others = [r for j, r in enumerate(self.rules) if j != k]  # its own value never switches it on
            if not any(dependency.active(self._values(players, others, values)) for players in self.study.counts
                       for values in itertools.product(*(r.values for r in others))):
                idle.append(f"{rule.label} changes nothing at any point under the base rules "
                            f"({', '.join(dict.fromkeys(self.base(n) for n in self.study.counts))}): "
                            f"{dependency.why(rule.name)}")
        if idle and len(idle) == len(self.rules):
            raise ConfigError(f"{named('rule')}: {'; '.join(idle)}; nothing would be measured")
        for words in idle:
            warn(f"{named('rule')}: {words}")

    def _values(self, players: int, rules: Sequence[SweptRule], values: Sequence[int]) -> dict:
        """The base rules' values at ``players`` with ``rules`` set to ``values``."""
        found = dict(rule_set(self.study.game, self.base(players), players).values)
        for rule, value in zip(rules, values, strict=True):
            if rule.index is None:
                found[rule.name] = value
            else:
                found[rule.name] = tuple(value if i == rule.index else v for i, v in enumerate(found[rule.name]))
        return found


def new_sweep(ranges: str | Sequence[str], max_points: int | None, **study) -> Sweep:
    """A sweep of the rule parameters' ``ranges`` (NAME=LO..HI[:STEP]) over a study (``studies.new_study``'s
    arguments; ``rules``: the base rules), every option checked; every point a rule set unless ``max_points`` is
    None."""
    base = new_study(**study)
    swept = Sweep(base, parse_rules(ranges, base.game, max_points))
    swept.check(every_point=max_points is not None)
    return swept


@dataclass
class Point:
    """One point of one player count: its values, rule set, and the tournaments that play it
    (``own``: whose totals its row shows; ``paired``: this point played beside the previous
    point along the first rule, following it, for the paired change; None at a chain's start)."""

    players: int
    values: tuple[int, ...]
    rules: str
    own: Tournament
    paired: Tournament | None = None


def plan(sweep: Sweep) -> tuple[list[Point], list[Tournament]]:
    """Every point's tournaments: along the first rule, each neighbour pair played together
    (the second following the first); a chain of one point plays alone. Every point of a
    player count has the same game indices (the player count's configuration block)."""
    study = sweep.study
    components = study.component_sets[0]
    points, tournaments = [], []
    for i, players in enumerate(study.counts):

        def tournament(spec: str, players=players, i=i) -> Tournament:
            return Tournament(components, players, study.strategies, spec, study.seed, study.threads,
                              config_index=i, game=study.game.name)

        chains: dict[tuple, list[tuple[int, ...]]] = {}
        for values in sweep.points:
            chains.setdefault(values[1:], []).append(values)
        for chain in chains.values():
            specs = [sweep.spec(players, values) for values in chain]
            if len(chain) == 1:
                alone = tournament(specs[0])
                tournaments.append(alone)
                points.append(Point(players, chain[0], specs[0], alone))
                continue
            beside = None  # this point played beside the previous one (following it)
            for k, (values, spec) in enumerate(zip(chain, specs, strict=True)):
                own = beside
                if k + 1 < len(chain):  # this point leads the pair with its next neighbour
                    own, follower = tournament(spec), tournament(specs[k + 1])
                    follower.follow(own)
                    tournaments += [own, follower]
                points.append(Point(players, values, spec, own, beside))
                beside = follower if k + 1 < len(chain) else None
    return points, tournaments


def leaders(tournaments: list[Tournament]) -> list[Tournament]:
    return [t for t in tournaments if t.leader is None]


def planned_games(tournaments: list[Tournament], games: int) -> int:
    """The games one round of ``play`` plays (both rule sets of a pair counted)."""
    return sum(len(t.lineups) * t.per_lineup(games) * (2 if t.follower else 1) for t in leaders(tournaments))


def play(tournaments: list[Tournament], study: Study, progress: Callable[[int], None] | None = None,
         stop: threading.Event | None = None, on_more: Callable[[int], None] | None = None,
         on_batch: Callable[[], None] | None = None) -> bool:
    """Play every tournament ``study.games`` (a resumed one: up to its saved target); with a
    precision, every tournament another round while any win rate's half-width is not below it
    (all points keep the same games). ``on_batch()`` when the totals are consistent. True if complete."""
    stopped = stop.is_set if stop is not None else (lambda: False)
    for t in leaders(tournaments):
        if t.target == 0:
            t.play(study.games, progress, stop, on_batch)
        else:
            t.catch_up(progress, stop, on_batch)
    while study.precision is not None and not stopped():
        if max(max_half_width(t) for t in tournaments) < study.precision:
            break
        if max(t.games for t in tournaments) >= MAX_PRECISION_GAMES:
            raise ConfigError(f"{named('precision')} {study.precision}: not reached after {MAX_PRECISION_GAMES:.0e} "
                              "games")
        if on_more is not None:
            on_more(planned_games(tournaments, study.games))
        for t in leaders(tournaments):
            t.play(study.games, progress, stop, on_batch)
    return not stopped()


def seat_spread(tournament: Tournament) -> tuple[float, float, float]:
    """The largest seat win rate minus the smallest, with a conservative 95% interval (the two
    seats' half-widths added: the seats of one game are not independent)."""
    return spread(*_win_rates(tournament.seat_stats))


def spread(rates: np.ndarray, low: np.ndarray, high: np.ndarray) -> tuple[float, float, float]:
    """max - min of ``rates`` with the half-widths of the two added (a conservative interval)."""
    top, bottom = int(np.argmax(rates)), int(np.argmin(rates))
    value = float(rates[top] - rates[bottom])
    half = float((high[top] - rates[top]) + (rates[bottom] - low[bottom]))
    low, high = within(value - half, value, value + half, 0.0, 1.0)
    return value, float(low), float(high)


def whole(point: Point) -> Tournament | None:
    """The tournament holding all the point's games: its own, or the one it played beside the previous
    point (the same lineups and games); None when a stop left both unfinished."""
    return next((t for t in (point.own, point.paired) if t is not None and t.games > 0 and t.complete), None)


def paired_whole(point: Point) -> bool:
    """Whether the point's pair with the previous one (its paired changes) played all its games."""
    return point.paired is not None and point.paired.games > 0 and point.paired.complete


STRATEGY_COLUMNS = ["games", "win_rate", "win_rate_ci_low", "win_rate_ci_high", "change", "change_ci_low",
                    "change_ci_high"]
POINT_COLUMNS = ["games", "seat1_win_rate", "seat1_ci_low", "seat1_ci_high", "seat_spread", "seat_spread_ci_low",
                 "seat_spread_ci_high", "strategy_spread", "strategy_spread_ci_low", "strategy_spread_ci_high"]


def tables(points: list[Point], rules: tuple[SweptRule, ...], components: str = "") -> dict[str, pd.DataFrame]:
    """``strategies``: one row per point and strategy (the swept parameters as columns), the
    win rate and its change from the previous point along the first rule (paired, NaN at a
    chain's first point); ``points``: one row per point, seat 1's win rate, the seat spread
    and the spread of the strategies' win rates; ``metrics``: one row per point, how the games
    went (study.metrics); ``metric_changes``: each metric's change from the previous point
    along the first rule (paired, the same games), per point after a chain's first. A point a stop
    left unfinished is left out (``whole``): its figures would rest on part of its lineups."""
    per_strategy, per_point, per_metrics, changes = [], [], [], []
    # the game's scoring moments, which name the changes' columns
    moments = Moments.of(points[0].own.game_def) if points else Moments()
    noun = points[0].own.game_def.data_noun if points else GameData.noun  # the game's word for its component set
    for point in points:
        own = whole(point)
        if own is None:
            continue  # stopped before this point played all its games
        where = {"players": point.players, **{r.label: v for r, v in zip(rules, point.values, strict=True)},
                 "rules": point.rules}
        rows = strategy_table(own)
        change = np.full(len(rows), np.nan), np.full(len(rows), np.nan)
        if paired_whole(point):
            change = _rules_change(point.paired.leader, point.paired)[0]
        per_strategy.append(pd.DataFrame({**where, "strategy": rows["strategy"], "games": rows["games"],
                                          **{c: rows[c] for c in STRATEGY_COLUMNS[1:4]},
                                          "change": change[0], "change_ci_low": change[0] - change[1],
                                          "change_ci_high": change[0] + change[1]}))
        seat1 = [float(x[0]) for x in _win_rates(own.seat_stats[:1])]
        strategies = spread(*(rows[c].to_numpy() for c in STRATEGY_COLUMNS[1:4]))
        per_metrics.append({**where, noun: components,
                            **metric_row(own.run, own.game_def, tournament_moments(own))})
        if paired_whole(point):
            swept = {r.label: v for r, v in zip(rules, point.values, strict=True)}
            changes += [{**swept, **row} for row in metric_changes(point.paired.leader, point.paired, components)]
        per_point.append({**where, "games": own.games, "seat1_win_rate": seat1[0],
                          **dict(zip(POINT_COLUMNS[2:4], map(float, within(seat1[1], seat1[0], seat1[2], 0, 1)),
                                     strict=True)),
                          **dict(zip(POINT_COLUMNS[4:7], seat_spread(own), strict=True)),
                          **dict(zip(POINT_COLUMNS[7:], strategies, strict=True))})
    swept_columns = [r.label for r in rules]
    return {"strategies": pd.concat(per_strategy, ignore_index=True), "points": pd.DataFrame(per_point),
            METRICS_TABLE: pd.DataFrame(per_metrics),
            METRIC_CHANGES_TABLE: pd.DataFrame(changes, columns=["players", *swept_columns,
                                                                   *change_columns(moments, noun)[1:]])}


def summary(points: list[Point], tournaments: list[Tournament], sweep: Sweep, complete: bool) -> dict:
    study = sweep.study
    played = [whole(p) for p in points if whole(p) is not None]
    elapsed = sum(t.elapsed for t in tournaments)
    games = sum(t.games for t in tournaments)
    return {
        "partial": not complete, "game": study.game.name, "players": ",".join(map(str, study.counts)),
        "base_rules": ",".join(dict.fromkeys(sweep.base(n) for n in study.counts)),
        "swept": "; ".join(r.written for r in sweep.rules),
        "points": len(points), "unfinished_points": len(points) - len(played),
        "games_per_point": min((t.games for t in played), default=0),
        "games_played": games, "precision": study.precision if study.precision is not None else "",
        **({study.game.data_noun: study.component_sets[0].name} if study.component_sets[0] is not None else {}),
        "seed": study.seed, "threads": study.threads, "elapsed_seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed) if elapsed > 0 else None,
        **fitted_summary(study.game, [s.name for s in study.strategies], [p.rules for p in points]),
    }


def run(sweep: Sweep, progress=None, stop=None, on_more=None, runner=None, compiling=None,
        save: Callable[[dict, dict], None] | None = None, resume=None) -> dict | None:
    """Play a sweep: its tables and summary (``api.SweepReport``'s fields), None when stopped
    before any game. ``save(configuration, progress)`` after every batch (to checkpoint);
    ``resume``: a checkpoint of this very sweep (``sweep_saved``) to continue."""
    points, tournaments = plan(sweep)
    for t in tournaments:
        t.runner, t.compiling = runner, compiling
    conf = sweep_saved.configuration([r.written for r in sweep.rules], sweep.study.games, sweep.study.precision,
                                     tournaments)
    if resume is not None:
        for t, saved in zip(tournaments, checkpoint.load(resume, sweep_saved.SWEEP, conf)["tournaments"],
                            strict=True):
            t.restore(saved)
    on_batch = None if save is None else (lambda: save(conf, sweep_saved.progress(tournaments)))
    complete = play(tournaments, sweep.study, progress, stop, on_more, on_batch)
    if all(whole(p) is None for p in points):
        return None  # stopped before any point was whole: nothing to show
    components = sweep.study.component_sets[0]
    return {**tables(points, sweep.rules, components.name if components is not None else ""),
            "summary": summary(points, tournaments, sweep, complete)}
