"""Checking a plug-in's strategies before they are trusted with a long run (``medici-sim check-plugin``).

Every strategy a plug-in registers is played at every player count its game allows, alone
(at every seat) and rotated among the game's built-ins, and each configuration's games are
played four ways:

1. in the *checked* kernel (``dispatch.strategy_table(..., checked=...)``): every decision of
   the plug-in's strategy (not of the built-ins it plays with) is wrapped in a comparison of
   the state record before and after it, so a decision that writes anything but its own
   seat's ``scratch`` row or the game's ``rng`` is caught at once (before the engine acts on a
   corrupted state), and so is any decision the rules forbid (the engine's illegal-decision
   errors);
2. in the normal kernel, on one thread in one batch;
3. on 3 threads, in small batches;
4. in two halves, the second half first, then added;
5. where the strategy says it reads only some of the optional parts of its game's state
   (``Strategy.reads``: the others are left stale in its games), on one thread with every part kept.

Every game's randomness depends only on (seed, game index) and the statistics are integer
sums, so 2-4 must give the same totals to the bit; a difference means the strategy carries
something from game to game (e.g. it reads ``counts`` that run on from game to game); and so
must 5: a difference there means it reads a part it does not declare.
A strategy whose code numba cannot compile is a finding too (the other strategies are
still checked). Nothing here names a game.
"""
from __future__ import annotations

import math
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from .checked import STATE_CHANGED
from .driver import (
    IllegalDecision,
    PreparedRun,
    RunConfig,
    StrategyCompileError,
    StrategyError,
    ThreadRunner,
    Totals,
    error_text,
    seat_strategy,
    simulate,
    usable_cores,
)
from .plugins import load_plugin
from .registry import Game, get_game

DEFAULT_GAMES = 4_000  # games per strategy, over all its configurations
MIN_GAMES_PER_CONFIGURATION = 24  # enough for 3 threads x several batches to differ from one batch
THREADS = 3  # threads of the threaded pass
BATCHES = 4  # batches of the threaded pass
MIXED_WITH = 2  # built-ins the plug-in strategy is rotated among: the game's first and last (simplest, strongest)

ILLEGAL_KIND, STATE_KIND, THREADS_KIND, COMPILE_KIND, ERROR_KIND = "illegal", "state", "threads", "compile", "error"
READS_KIND = "reads"
_NAMED = re.compile(r"^strategy (?P<strategy>\S+) at seat (?P<seat>\d+) (?P<what>.*)$", re.S)


_LABELS = {ILLEGAL_KIND: "illegal decision", STATE_KIND: "state changed", THREADS_KIND: "depends on threads or batches",
           COMPILE_KIND: "does not compile", ERROR_KIND: "failed", READS_KIND: "reads what it does not declare"}


@dataclass
class Finding:
    """One problem, in plain words; its repeats in later configurations are counted, not listed."""

    kind: str
    strategy: str
    text: str  # what happened, naming the strategy
    where: str  # the first configuration (seat, game) it happened in; "" if it is not about one
    repeats: int = 0

    def line(self) -> str:
        details = [self.where] if self.where else []
        if self.repeats:
            details.append(f"and in {self.repeats} other configuration{'s' if self.repeats > 1 else ''}")
        return f"{_LABELS[self.kind]}: {self.text}" + (f" ({'; '.join(details)})" if details else "")


@dataclass
class StrategyReport:
    game: str
    strategy: str
    configurations: int = 0
    games: int = 0  # games checked (each played four ways)
    findings: list[Finding] = field(default_factory=list)
    tracebacks: list[str] = field(default_factory=list)  # of compile failures, for --debug

    def add(self, kind: str, text: str, where: str) -> None:
        for finding in self.findings:
            if finding.kind == kind and finding.text == text:
                finding.repeats += 1
                return
        self.findings.append(Finding(kind, self.strategy, text, where))


@dataclass
class PluginReport:
    path: str
    strategies: list[StrategyReport]

    @property
    def findings(self) -> list[Finding]:
        return [f for s in self.strategies for f in s.findings]

    @property
    def games(self) -> int:
        return sum(s.games for s in self.strategies)

    def summary(self) -> str:
        n = len(self.strategies)
        problems = len(self.findings)
        verdict = "no problems found" if problems == 0 else f"{problems} problem{'s' if problems > 1 else ''}"
        return f"check-plugin {self.path}: {n} strateg{'ies' if n != 1 else 'y'}, {self.games:,} games, {verdict}"


@dataclass(frozen=True)
class Configuration:
    config: RunConfig
    described: str  # "card game, 4 players, green_lover at every seat"


def configurations(game: Game, strategy: str, games: int, seed: int) -> list[Configuration]:
    """Every player count, the strategy at every seat (fixed) and among built-ins (rotated)."""
    built_ins = [name for name in game.built_ins  # the heuristics: fast partners (a searcher is slow)
                 if game.registry.origin.get(name) == "built-in" and name != strategy]
    partners = list(dict.fromkeys([built_ins[0], built_ins[-1]]))[:MIXED_WITH] if built_ins else []
    counts = range(game.min_players, game.max_players + 1)
    plans = []
    for players in counts:
        plans.append(([strategy] * players, "fixed", f"{strategy} at every seat"))
        if partners:
            others = [partners[i % len(partners)] for i in range(players - 1)]
            plans.append(([strategy, *others], "rotate",
                          f"{strategy} with {', '.join(others)}, seats rotated every game"))
    per = max(MIN_GAMES_PER_CONFIGURATION, math.ceil(games / len(plans)))
    compiled_for = (strategy, *partners)  # one kernel (and one checked kernel) serves every configuration
    out = []
    for names, seating, text in plans:
        slots = tuple(seat_strategy(name, game.name) for name in names)
        config = RunConfig(components=None, players=len(names), strategies=slots, games=per, seed=seed,
                           rules=game.presets[0], seating=seating, threads=1, game=game.name,
                           kernel_strategies=compiled_for)
        out.append(Configuration(config, f"{game.name} game, {len(names)} players, {text}"))
    return out


def _checked_kernel(config: RunConfig) -> PreparedRun:
    kernel = PreparedRun(config)
    # its table, made at its first game, holds the plug-in's checked decisions (its partners, built-ins, play as
    # in the normal kernel: their decisions are checked by the test suite, and compiled once already)
    kernel.checked = {s.name for s in config.strategies if kernel.game.registry.origin.get(s.name) != "built-in"}
    return kernel


class _FineRunner(ThreadRunner):
    """Threads playing each chunk cut again into ``parts`` pieces (the driver does not split
    a batch of fewer than MIN_CHUNK games per thread; here every thread must play some)."""

    def play(self, kernel: PreparedRun, ranges: list[tuple[int, int]]) -> list[Totals]:
        pieces = []
        for first, n in ranges:
            bounds = np.linspace(first, first + n, min(self.parts, n) + 1).astype(np.int64)
            pieces += [(int(a), int(b - a)) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]
        return list(self._pool.map(lambda r: kernel.play(*r), pieces))


def _same(a: Totals, b: Totals) -> bool:
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("seat", "slot", "pair_stats", "run"))


def compile_failure(error: BaseException, strategy) -> str:
    """numba's report of a compile failure, as one line: its innermost message, and which
    decision function (and line of the plug-in) it is about where numba says."""
    text = _without_records(error_text(error))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if _ERROR_LINE.match(line) and not line.startswith(_NUMBA_FRAMING)]
    message = next(iter(errors), next((line for line in lines if not line.startswith(_NUMBA_FRAMING)), ""))
    if isinstance(error, KeyError) and any(frame.f_code.co_name == "resolve_getattr"
                                           for frame, _ in traceback.walk_tb(error.__traceback__)):
        message = f"unknown attribute {error}"
    if not message:
        message = f"{type(error).__name__}: {error}"
    functions = [fn.py_func for fn in strategy.decisions.values() if repr(fn.py_func) in text]
    where = [f"in {fn.__name__}" for fn in functions[:1]]
    files = {fn.py_func.__code__.co_filename for fn in strategy.decisions.values()}
    lines_in_plugin = [(path, line) for path, line in re.findall(r'File "([^"]+)", line (\d+)', text)
                       if any(Path(path).name == Path(f).name for f in files)]
    if lines_in_plugin:
        where.append(f"{Path(lines_in_plugin[0][0]).name} line {lines_in_plugin[0][1]}")
    return message + (f" ({', '.join(where)})" if where else "")


_NUMBA_FRAMING = ("Failed in ", "During:", "File ", "<source", "There are ", "- Of which", "Overload ", "With argument",
                  "Rejected as", "raised from", "^", "No implementation of function", ">>>", "Known signatures",
                  "* (", "Current values", "TypingError: Failed in ", "No match")
_ERROR_LINE = re.compile(r"^[A-Za-z]*(Error|Exception): ")


def _without_records(text: str) -> str:
    """numba's text with every record type (the state's spans pages) shortened to ``Record(...)``."""
    out, at = [], 0
    while (start := text.find("Record(", at)) >= 0:
        out.append(text[at:start] + "Record(...)")
        depth, at = 0, start + len("Record")
        while at < len(text):
            depth += {"(": 1, ")": -1}.get(text[at], 0)
            at += 1
            if depth == 0:
                break
    out.append(text[at:])
    return "".join(out)


def check_strategy(game: Game, strategy: str, games: int, seed: int,
                   progress: Callable[[str], None] | None = None) -> StrategyReport:
    report = StrategyReport(game.name, strategy)
    plans = configurations(game, strategy, games, seed)
    report.configurations = len(plans)
    for plan in plans:
        if progress is not None:
            progress(plan.described)
        if not _check_configuration(report, game, strategy, plan):
            break  # it does not compile: no configuration will
        report.games += plan.config.games
    return report


def _check_configuration(report: StrategyReport, game: Game, strategy: str, plan: Configuration) -> bool:
    """Play one configuration every way; False if the strategy does not compile."""
    config, n = plan.config, plan.config.games
    checked = _checked_kernel(config)
    try:
        checked.warm_up()  # compile (or load from numba's cache) here, not on a pool's thread: the notice told
        with _FineRunner(usable_cores()) as runner:  # the slow pass: on every core this process may use
            runner.play(checked, [(0, n)])
    except IllegalDecision as exc:
        first = checked.first_failing_game(0, n)
        _add_illegal(report, str(exc), plan.described + (f", game {first}" if first is not None else ""))
        return True  # the other passes would only repeat it
    except Exception as exc:  # noqa: BLE001  whatever a plug-in does is reported, not raised
        return _failed(report, game, strategy, plan, exc)
    batch = max(1, math.ceil(n / BATCHES))
    half = n // 2
    try:
        PreparedRun(config).warm_up()  # compile the normal kernel (a failure is the strategy's, as above)
        one = simulate(config, batch_size=n).totals
        threaded = simulate(replace(config, threads=THREADS), batch_size=batch, runner=_FineRunner(THREADS)).totals
        halves = simulate(replace(config, games=n - half), first_game=half, batch_size=n).totals
        if half:
            halves.add(simulate(replace(config, games=half), first_game=0, batch_size=n).totals)
    except IllegalDecision as exc:  # not in the checked pass: it depends on batches too
        _add_illegal(report, str(exc), plan.described + ", only when played in batches or on threads")
        return True
    except Exception as exc:  # noqa: BLE001
        return _failed(report, game, strategy, plan, exc)
    differ = []
    if not _same(one, threaded):
        differ.append(f"on {THREADS} threads in batches of {batch}")
    if not _same(one, halves):
        differ.append("in two halves, the second half first")
    if differ:
        report.add(THREADS_KIND, f"strategy {strategy} gives other totals for the same games when they are "
                                 "played differently: does it carry something from one game into the next?",
                   f"{plan.described}, {n} games: other totals {' and '.join(differ)} than on one thread "
                   "in one batch")
    unkept = sorted(set(game.registry.optional_parts) - game.registry.kept_parts(s.name for s in config.strategies))
    if unkept:
        try:
            kept = simulate(config, batch_size=n, kernel=PreparedRun(config, every_part=True)).totals
        except Exception as exc:  # noqa: BLE001
            return _failed(report, game, strategy, plan, exc)
        if not _same(one, kept):
            report.add(READS_KIND, f"strategy {strategy} plays other games when the state's {', '.join(unkept)} "
                                   f"{'is' if len(unkept) == 1 else 'are'} kept up to date: it reads "
                                   f"{'it' if len(unkept) == 1 else 'them'}, so its reads= must name "
                                   f"{'it' if len(unkept) == 1 else 'them'} (or be left out: every part)",
                       f"{plan.described}, {n} games")
    return True


def _failed(report: StrategyReport, game: Game, strategy: str, plan: Configuration, exc: Exception) -> bool:
    """A compile failure (False: no configuration will compile) or an error a game raised (True)."""
    if isinstance(exc, StrategyCompileError):
        numba_report = exc.__cause__ or exc
        report.add(COMPILE_KIND, f"strategy {strategy} ({game.name} game, {game.registry.origin[strategy]}): "
                                 f"{compile_failure(numba_report, game.registry[strategy])}", "")
        report.tracebacks.append("".join(traceback.format_exception(numba_report)))
        return False
    if isinstance(exc, StrategyError):  # the seat goes with the configuration, as an illegal decision's
        where = ([f"at seat {exc.seat}"] if exc.seat else []) + [plan.described]
        report.add(ERROR_KIND, f"strategy {strategy} raised {exc.raised}",
                   ", ".join(where) + (f", game {exc.game}" if exc.game is not None else ""))
        return True
    report.add(ERROR_KIND, f"strategy {strategy} raised {type(exc).__name__}: {exc}", plan.described)
    return True


def _add_illegal(report: StrategyReport, message: str, where: str) -> None:
    named = _NAMED.match(message)
    if named is None:
        report.add(ILLEGAL_KIND, message, where)
        return
    kind = STATE_KIND if named["what"].startswith(STATE_CHANGED) else ILLEGAL_KIND
    # the seat goes with the configuration: one problem at several seats is one finding
    report.add(kind, f"strategy {named['strategy']} {named['what']}", f"at seat {named['seat']}, {where}")


def check_plugin(path: str | Path, games: int = DEFAULT_GAMES, seed: int = 0,
                 progress: Callable[[str], None] | None = None) -> PluginReport:
    """Load a plug-in and check every strategy it registers (PluginError if it cannot be loaded)."""
    added = load_plugin(path)
    reports = []
    for game_name, strategy in added:
        game = get_game(game_name)
        if progress is not None:
            progress(f"{strategy} ({game_name} game)")
        reports.append(check_strategy(game, strategy, games, seed,
                                      None if progress is None else (lambda text: progress(f"  {text}"))))
    return PluginReport(str(path), reports)

