"""The Python API: the command line's runs as functions that return pandas DataFrames.

The options, defaults, determinism and checks are the command line's (the same code serves
both); a bad option raises one of the command line's errors (``ConfigError``, ``ComponentsError``,
``PluginError``, ...: all ``ValueError``) instead of exiting. Results depend only on the
options and the seed (R25, C20): the thread count never changes them. ``game=None`` plays
the default game (``core.registry.default_game``).

>>> import medici_sim
>>> run = medici_sim.simulate(games=20_000, players=4, strategies="expert,random,random,random")
>>> run.strategies[["strategy", "win_rate"]]          # doctest: +SKIP
"""
from __future__ import annotations

import functools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from os import PathLike

import pandas as pd

from . import games as _games  # noqa: F401  the games register themselves
from .core import checkpoint
from .core.arguments import file_names, in_command_line, named, naming
from .core.driver import ConfigError, RunConfig, ThreadRunner, Totals, canonical_rules, check_players, rule_set
from .core.driver import simulate as simulate_games
from .core.plugins import load_plugin
from .core.registry import GAMES, get_game
from .core.run_saved import RUN, run_configuration, saved_run
from .core.specs import default_threads, game_named, run_config
from .core.stats import seat_frame, strategy_frame, summary
from .core.tracing import narrate_game, trace_config
from .reports import (  # noqa: F401  compare_report, balance_report: the API's answers to a played study
    BalanceReport,
    CompareReport,
    DesignReport,
    RunReport,
    SweepReport,
    TraceReport,
    TuneReport,
    balance_report,
    compare_report,
)
from .study import design as designs
from .study import metrics, resume, studies, tune_saved, tuning
from .study import sweep as sweeps
from .study.tournament_saved import BALANCE, COMPARE
from .study.tune_metrics import tune_metric_changes, tune_metrics
from .study.tune_saved import TUNE
from .watch import Watch, opened

NOTHING = Watch()  # a notebook's: nothing watched, nothing opened

# ---------------------------------------------------------------- requests: what every front end asks for

@dataclass(frozen=True)
class RunRequest:
    """One run (the main command, :func:`simulate`) as asked: its options, checked by ``config``;
    or, with ``resume``, the run a checkpoint holds (``start``), the options in ``given`` checked
    against it."""

    games: int = 100_000
    game: str | None = None
    players: int | None = None  # None: the game's usual count (Game.default_players)
    strategies: str | Sequence[str] | None = None  # None: the game's baseline (its first built-in) at every seat
    rules: str | None = None
    seating: str = "fixed"
    seed: int = 0
    threads: int | None = None
    components: str | PathLike | None = None
    resume: str | PathLike | None = None  # a checkpoint to continue: its run, not these options
    given: frozenset[str] = frozenset()  # with resume: the options asked for, each checked against it
    plugins: str | PathLike | Sequence[str | PathLike] = ()  # files registering strategies: loaded first

    def config(self) -> RunConfig:
        """The run, every option checked (plug-ins loaded first: their strategies are named here)."""
        _load(self.plugins)
        return run_config(game=self.game, players=self.players, strategies=self.strategies, games=self.games,
                          seed=self.seed, rules=self.rules, seating=self.seating, threads=self.threads,
                          components=self.components)

    def start(self) -> tuple[RunConfig, Totals | None]:
        """The run, and with ``resume`` the totals of its games played before (the checkpoint's)."""
        _load(self.plugins)
        if self.resume is None:
            return self.config(), None
        saved = checkpoint.read(self.resume, RUN)
        conf = saved.configuration
        if self.given & set(resume.CHECKED):
            asked = (self if "game" in self.given else replace(self, game=conf["game"])).config()
            resume.check_matches(self.resume, conf, run_configuration(asked), self.given)
        return saved_run(conf, default_threads(self.threads)), Totals.from_dict(saved.progress["totals"])


def play_run(config: RunConfig, watch: Watch = NOTHING, done: Totals | None = None) -> RunReport | None:
    """Play a run (``done``: the totals of its first games, played before: a resumed run) and
    make its tables; None when it was stopped before any game finished (nothing to report).
    The checkpoint ``watch`` names is saved after every batch, on the cluster it names (``watch.opened``)."""
    on_batch = watch.on_batch
    if watch.checkpoint is not None:
        configuration, running = run_configuration(config), Totals.zeros(config.players, get_game(config.game))
        if done is not None:
            running.add(done)

        def on_batch(batch: Totals) -> None:
            running.add(batch)
            watch.save("run", configuration, {"totals": running.to_dict()})
            if watch.on_batch is not None:
                watch.on_batch(batch)
    with opened(watch) as runner:
        result = simulate_games(config, progress=watch.progress, stop=watch.stop, done=done, on_batch=on_batch,
                                runner=runner, compiling=watch.compiling)
    if result.totals.games == 0:
        return None
    return RunReport(seat_frame(result), strategy_frame(result), summary(result), result.totals,
                     metrics=_run_metrics(config, result.totals))


def _run_metrics(config: RunConfig, totals: Totals) -> pd.DataFrame:
    """The designer metrics of a run's one configuration (study.metrics)."""
    components = config.components.name if config.components is not None else ""
    return metrics.run_metrics(totals.run, get_game(config.game), config.rules, config.players, components)


@dataclass(frozen=True)
class StudyRequest:
    """One study (``compare``, ``balance``) as asked: its options, checked by ``study`` and ``start``.

    ``players``: all, a count or counts (None: the game's usual count); ``strategies``: None for the game's built-ins;
    ``components``: None, names or files, or all (``components_argument``: the option that gave them);
    ``tuned``: a file, ``shipped``, a tune document, or None; ``resume``: a checkpoint to
    continue (its study; the options in ``given`` must agree with it)."""

    command: str  # compare or balance
    games: int = 100_000
    game: str | None = None
    players: str | int | Sequence[int] = "all"
    strategies: str | Sequence[str] | None = None
    rules: str | None = None
    seed: int = 0
    threads: int | None = None
    components: str | PathLike | Sequence[str | PathLike] | None = None
    precision: float | None = None
    tuned: str | PathLike | Mapping | None = None
    components_argument: str = "components"
    resume: str | PathLike | None = None
    given: frozenset[str] = frozenset()
    vs: str | None = None  # balance: the rule set compared with ``rules``'s
    plugins: str | PathLike | Sequence[str | PathLike] = ()  # files registering strategies: loaded first

    def study(self) -> studies.Study:
        """The study, every option checked on its own (``Study.check`` checks them together)."""
        _load(self.plugins)
        return studies.new_study(game=self.game, players=self.players, strategies=self.strategies,
                                 rules=self.rules, seed=self.seed, components=self.components, games=self.games,
                                 precision=self.precision, threads=self.threads, tuned=self.tuned,
                                 components_argument=self.components_argument, vs=self.vs)

    def start(self) -> tuple[studies.Study, list]:
        """The study, checked, and its tournaments (``studies.plan``; a resumed study's restored)."""
        _load(self.plugins)
        saved = None
        if self.resume is not None:
            saved = checkpoint.read(self.resume, {"compare": COMPARE, "balance": BALANCE}[self.command])
        study = self._resumed(saved) if saved is not None else self.study()
        study.check(self.command)
        tournaments = studies.plan(study, self.command)
        if saved is not None:
            if studies.configuration(study, tournaments) != saved.configuration:  # the file's study, exactly
                raise checkpoint.CheckpointError(f"{named('resume')} {self.resume}: its study cannot be "
                                                 "rebuilt exactly")
            for t, progress in zip(tournaments, saved.progress["tournaments"], strict=True):
                t.restore(progress)
        return study, tournaments

    def _resumed(self, saved: checkpoint.Saved) -> studies.Study:
        """The study checkpoint ``saved`` holds; the options given with it must agree with it."""
        conf = saved.configuration
        study = resume.saved_study(conf, self.command, default_threads(self.threads))
        if "tuned" in self.given:
            resume.check_tuned_matches(self.resume, self.tuned, conf, study)
        asked = None
        if self.given - {"threads", "tuned", "resume"}:
            asked = replace(self, resume=None, **({} if "game" in self.given else {"game": study.game.name})).study()
        return resume.check_study_matches(self.resume, conf, study, self.given, asked, self.command)


def play_study(study: studies.Study, tournaments: list, watch: Watch = NOTHING, command: str = "compare") -> bool:
    """Play a study's tournaments (``studies.plan``; a resumed study's restored); True if complete.
    ``command``'s checkpoint (compare or balance) is saved where ``watch`` says, on the cluster it names."""
    on_batch = watch.saving(command, studies.configuration(study, tournaments),
                            lambda: {"tournaments": [t.progress() for t in tournaments]})
    with opened(watch) as runner:
        for t in tournaments:
            t.runner, t.compiling = runner, watch.compiling
        return studies.play(tournaments, study, watch.progress, watch.stop, on_batch, watch.on_more)


@dataclass(frozen=True)
class SweepRequest:
    """A sweep (``sweep``): ``rule`` one or two ranges NAME=LO..HI[:STEP], ``rules`` the base rules."""

    rule: str | Sequence[str]
    games: int = 20_000
    game: str | None = None
    players: str | int | Sequence[int] | None = None  # None: the game's usual count
    strategies: str | Sequence[str] | None = None
    rules: str | None = None
    seed: int = 0
    threads: int | None = None
    components: str | PathLike | None = None
    precision: float | None = None
    plugins: str | PathLike | Sequence[str | PathLike] = ()  # files registering strategies: loaded first

    def sweep(self, max_points: int | None = sweeps.MAX_POINTS) -> sweeps.Sweep:
        """The sweep, every option checked (every point a rule set: ``max_points`` None skips that)."""
        _load(self.plugins)
        return sweeps.new_sweep(self.rule, max_points, game=self.game, players=self.players,
                                strategies=self.strategies, rules=self.rules, seed=self.seed,
                                components=self.components,
                                games=self.games, precision=self.precision, threads=self.threads, tuned=None)


def play_sweep(swept: sweeps.Sweep, watch: Watch = NOTHING, resume: str | PathLike | None = None) -> SweepReport | None:
    """A sweep played (``resume``: its checkpoint; the one ``watch`` names saved after every point), or None."""
    with opened(watch) as runner:
        answer = sweeps.run(swept, watch.progress, watch.stop, watch.on_more, runner, watch.compiling,
                            watch.saving_each("sweep"), resume)
    return None if answer is None else SweepReport(**answer)


@dataclass(frozen=True)
class DesignRequest(SweepRequest):
    """A design question (``design``): the box ``rule`` spans, ``target``, ``trials`` of ``games`` each."""

    target: str = "strategies"
    trials: int = 40
    fresh_games: int = 100_000

    def design(self) -> designs.Design:
        return designs.new_design(self.sweep(max_points=None), self.target, self.trials, self.fresh_games)


def play_design(question: designs.Design, watch: Watch = NOTHING, resume: str | PathLike | None = None):
    """A design answered (``resume``, ``watch.on_batch`` as ``play_sweep``'s), or None: stopped before it."""
    with opened(watch) as runner:
        answer = designs.run(question, watch.progress, watch.stop, runner, watch.compiling,
                             watch.saving_each("design"), resume)
    return None if answer is None else DesignReport(**answer)


@dataclass(frozen=True)
class TuneRequest:
    """One tuning (``tune``) as asked: its options, checked by ``tasks``. ``strategy``: names, a
    comma list or all; ``players``: None (the game's usual count), a count or counts;
    ``rules``: None (standard), a rule or all; ``components``: one component set, a name or a file;
    ``resume``: a checkpoint to continue (its tasks; the options in ``given`` must agree with it)."""

    strategy: str | Sequence[str] | None
    game: str | None = None
    players: str | int | Sequence[int] | None = None
    rules: str | None = None
    against: str | Sequence[str] = "self"
    evaluations: int = 200
    games_per_eval: int = 8000
    fresh_games: int = 100_000
    popsize: int | None = None
    seed: int = 0
    components: str | PathLike | None = None
    resume: str | PathLike | None = None
    given: frozenset[str] = frozenset()
    plugins: str | PathLike | Sequence[str | PathLike] = ()  # files registering strategies: loaded first

    def tasks(self) -> list[tuning.TuneTask]:
        """The tuning's tasks, every option checked."""
        _load(self.plugins)
        definition = game_named(self.game)
        return tuning.plan_tasks(definition.name, self.strategy, self.players, self.rules, self.against,
                                 self.evaluations, self.games_per_eval, self.fresh_games, self.seed, self.popsize,
                                 studies.load_components(definition, self.components))

    def start(self) -> list[tuning.TaskResult]:
        """Each task with its result so far: none, or with ``resume`` the checkpoint's rounds."""
        _load(self.plugins)
        if self.resume is None:
            return [tuning.TaskResult(task, []) for task in self.tasks()]
        saved = checkpoint.read(self.resume, TUNE)
        tasks = resume.saved_tuning(saved.configuration)
        if self.given & set(tune_saved.TUNE_TASK_KEYS):
            named_tasks = {k: v for k, v in resume.tuning_arguments(tasks).items() if k not in self.given}
            asked = replace(self, resume=None, **named_tasks).tasks()
            resume.check_tuning_matches(self.resume, saved.configuration, asked, self.given)
        return [tune_saved.task_result(t, entry) for t, entry in zip(tasks, saved.progress["tasks"], strict=True)]


def _evaluations(results: Sequence[tuning.TaskResult]) -> int:
    return sum(len(r.rounds) * r.task.popsize for r in results)


def play_tuning(results: list[tuning.TaskResult], threads: int, watch: Watch = NOTHING) -> TuneReport:
    """Tune each task from where its result left it (a resumed tuning's are restored), then
    cross-check the rules' picks (once every task is complete), and report; on ``threads`` threads or the
    cluster ``watch`` names, its checkpoint saved after each round (then ``watch.on_batch(result)``);
    ``watch.stop`` ends it early."""
    configuration = {"tasks": [tune_saved.task_configuration(r.task) for r in results]}
    on_round = watch.saving("tune", configuration, lambda: {"tasks": [tune_saved.task_progress(r) for r in results]})
    with opened(watch) as cluster, cluster or ThreadRunner(threads) as runner:
        return _tuned(results, tuning.Evaluator(runner, threads, watch.stop, watch.compiling), threads, watch,
                      on_round)


def _tuned(results: list[tuning.TaskResult], evaluator, threads: int, watch: Watch, on_round) -> TuneReport:
    stopped = watch.stop.is_set if watch.stop is not None else (lambda: False)
    began, done_before = time.perf_counter(), _evaluations(results)
    try:
        complete = tuning.tune_all([r.task for r in results], results, evaluator, on_round, watch.stop)
        rules = tuning.cross_check(results, evaluator, watch.stop) if complete else None
    except tuning.Stopped:
        complete, rules = False, None
    elapsed, played = time.perf_counter() - began, _evaluations(results) - done_before
    tasks = [r.task for r in results]
    summary = {"partial": not (complete and not stopped()), "game": tasks[0].game, "tasks": len(tasks),
               "tasks_done": sum(r.complete for r in results), "evaluations": _evaluations(results),
               "games": sum(len(r.rounds) * r.task.popsize * r.task.games_per_eval
                            + (2 * r.task.fresh_games if r.complete else 0) for r in results),
               **({get_game(tasks[0].game).data_noun: tasks[0].components.name}
                  if tasks[0].components is not None else {}),
               "optimiser": "CMA-ES (cma)", "seed": tasks[0].seed, "threads": threads,
               "elapsed_seconds": round(elapsed, 2),
               "evaluations_per_minute": round(60 * played / elapsed, 1) if played and elapsed > 0 else None}
    return TuneReport(tuning.result_table(results), tuning.history_table(results), tuning.round_table(results),
                      rules if rules is not None else pd.DataFrame(columns=tuning.CROSS_COLUMNS), summary,
                      tune_metrics(results), tune_metric_changes(results))


@dataclass(frozen=True)
class TraceRequest:
    """One game of a run to tell (``trace``): game ``index`` of the run these options describe."""

    index: int = 0
    game: str | None = None
    players: int | None = None  # None: the game's usual count (Game.default_players)
    strategies: str | Sequence[str] | None = None  # None: the game's baseline (its first built-in) at every seat
    seed: int = 0
    seating: str = "fixed"
    rules: str | None = None
    components: str | PathLike | None = None
    plugins: str | PathLike | Sequence[str | PathLike] = ()  # files registering strategies: loaded first


def tell(request: TraceRequest) -> TraceReport:
    """The game told turn by turn, every option checked first."""
    _load(request.plugins)
    config = trace_config(request.game, request.players, request.strategies, request.seed, request.index,
                          request.seating, request.rules, request.components)
    data, text = narrate_game(config, request.index)
    return TraceReport(text, data)


# ---------------------------------------------------------------- the functions

def _api(function):
    """An API function: its messages name its arguments (``games=``), not the command
    line's options (``--games``); the checks are the command line's (``core.arguments``)."""
    @functools.wraps(function)
    def checked(*args, **kwargs):
        older = "deck" in kwargs  # components= by its older name (deprecated; the same argument)
        if older:
            if kwargs.get("components") is not None:
                raise ConfigError("components= and deck= are one argument (deck= is its older name): give "
                                  "components= only")
            kwargs["components"] = kwargs.pop("deck")
        if in_command_line():  # a command calls it: the messages name its options
            return function(*args, **kwargs)
        with naming(api=True, rules="variant=" if "variant" in kwargs else "rules=",  # keep: old name
                    components="deck=" if older else "components="):
            return function(*args, **kwargs)
    return checked


def _rules(rules: str | PathLike | None, older: str | PathLike | None) -> str | None:
    """The rule set asked for: ``rules=`` (``variant=``, its older name, the same: ``older``), not both."""
    if rules is not None and older is not None:
        raise ConfigError("rules= and variant= are one argument (variant= is its older name): give rules= only")
    spec = rules if rules is not None else older
    return str(spec) if isinstance(spec, PathLike) else spec


def _load(plugins: str | PathLike | Sequence[str | PathLike]) -> None:
    for plugin in file_names(plugins, "plugins"):
        load_plugin(plugin)


@_api
def simulate(games: int = 100_000, *, game: str | None = None, players: int | None = None,
             strategies: str | Sequence[str] | None = None, rules: str | PathLike | None = None,
             seating: str = "fixed", seed: int = 0, threads: int | None = None,
             components: str | PathLike | None = None,
             plugins: Sequence[str | PathLike] = (), variant: str | None = None) -> RunReport:  # keep: old name
    """Play ``games`` games of one configuration (the main command, ``medici-sim --games N``).

    Every function takes ``rules``: the rule set to play, as ``--rules`` writes it (presets and
    name=value items, or a TOML file; None: the game's standard rules); ``variant`` is its older name.

    ``players``: None for the game's usual count (``Game.default_players``); ``strategies``: one
    for every seat, or one per seat (``"a,b,b,b"`` or a list), parameters as ``name:param=value``
    (None: the game's baseline, its first built-in, at every seat); ``seating``: fixed, rotate or random (R24);
    ``components``: a shipped component set's name or a component set file (card game, R3-R5), None for the default;
    ``plugins``: files that
    register strategies (a list, or one file).
    """
    rules = _rules(rules, variant)  # keep: old name
    return play_run(RunRequest(games, game, players, strategies, rules, seating, seed, threads, components,
                               plugins=plugins).config())


def _study(command: str, games: int, game: str, players: str | int | Sequence[int],
           strategies: str | Sequence[str] | None, rules: str | None, seed: int, threads: int | None,
           components: str | Sequence[str] | None, precision: float | None, plugins: Sequence[str],
           tuned: str | TuneReport | None, vs: str | None = None):
    study, tournaments = StudyRequest(command, games, game, players, strategies, rules, seed, threads, components,
                                      precision, tuned._document() if isinstance(tuned, TuneReport) else tuned,
                                      vs=vs, plugins=plugins).start()
    return study, tournaments, play_study(study, tournaments)


@_api
def compare(games: int = 100_000, *, game: str | None = None, players: str | int | Sequence[int] = "all",
            strategies: str | Sequence[str] | None = None, rules: str | PathLike | None = None, seed: int = 0,
            threads: int | None = None, components: str | PathLike | Sequence[str | PathLike] | None = None,
            precision: float | None = None, plugins: Sequence[str | PathLike] = (),
            tuned: str | PathLike | TuneReport | None = None,
            variant: str | None = None) -> CompareReport:  # keep: old name
    """Which strategy is best, and by how much (``medici-sim compare``): every combination of
    the strategies at each player count, each lineup rotated through the seats (R24).

    ``players``: "all", a count, or counts (None: the game's usual count); ``strategies``: default the game's built-ins;
    ``precision``: instead of a fixed number of games, play batches of ``games`` until every
    win rate's 95% interval half-width is below it; ``components``: a shipped component set's name or a component set
    file (card game; None: the default component set), a list of them, or "all" (every shipped component set),
    each component set playing its own games; ``tuned``: a :func:`tune` report, a file written by
    ``medici-sim tune --out FILE.json``, or ``"shipped"``: every strategy with its parameters
    tuned for the rules and each player count.
    """
    rules = _rules(rules, variant)  # keep: old name
    study, tournaments, complete = _study("compare", games, game, players, strategies, rules, seed, threads,
                                          components, precision, plugins, tuned)
    return compare_report(study, tournaments, complete)


@_api
def tournament(agents, games: int = 1_000, *, game: str | None = None,
               players: str | int | Sequence[int] | None = None,
               rules: str | PathLike | None = None, seed: int = 0, threads: int | None = None,
               components: str | PathLike | Sequence[str | PathLike] | None = None, precision: float | None = None,
               plugins: Sequence[str | PathLike] = (), variant: str | None = None) -> CompareReport:  # keep: old name
    """compare's tournament of any mix of built-in strategies and Python agents: the same
    lineups, rotated through the seats in the same blocks of game indices, and the same tables,
    intervals and ratings (a tournament of built-ins alone is exactly ``compare``'s).

    ``agents``: a list of strategy names (as ``strategies`` gives them) and agents, or a
    mapping of names to agents. An agent is ``agent(observation, legal_actions) -> action`` or
    has ``decide(decision)``, and optionally ``reset(start)`` before each game
    (core.agent_kernel; docs/guide/python-api.md). The engine plays every built-in seat, at its
    own speed; an agent's lineups play on one thread, as fast as the agent answers. An agent's
    failure is an ``AgentError`` naming it, the game index and the seat."""
    from .study.agent_tournament import agent_study

    rules = _rules(rules, variant)  # keep: old name
    _load(plugins)
    study, tournaments = agent_study(agents, game=game, players=players, rules=rules, seed=seed,
                                     components=components,
                                     games=games, precision=precision, threads=threads)
    return compare_report(study, tournaments, play_study(study, tournaments))


@_api
def balance(games: int = 100_000, *, game: str | None = None, players: str | int | Sequence[int] = "all",
            strategies: str | Sequence[str] | None = None, seed: int = 0, threads: int | None = None,
            components: str | PathLike | Sequence[str | PathLike] | None = None, precision: float | None = None,
            plugins: Sequence[str | PathLike] = (), tuned: str | PathLike | TuneReport | None = None,
            rules: str | PathLike | None = None, vs: str | PathLike | None = None,
            variant: str | None = None) -> BalanceReport:  # keep: old name
    """Does a change of rules change the balance (``medici-sim balance``)? The rule sets
    ``rules`` and ``vs`` (rules specs; by default the game's ``balance_rules``: its standard rules
    and its variant; given one, the other is the variant, or the standard rules where the one
    given is the variant) in the same tournaments, side by side, with a verdict in
    words. ``components``
    as in ``compare``: with several component sets, one table per component set (a ``components`` column) and the
    count of component sets on which each finding of the verdict holds. ``tuned`` as in ``compare``
    (tune with ``rules="all"``): every strategy plays each rule and player count with its
    own tuned parameters (the table ``parameters``)."""
    rules = _rules(rules, variant)  # keep: old name
    study, tournaments, complete = _study("balance", games, game, players, strategies, rules, seed, threads,
                                          components,
                                          precision, plugins, tuned, _rules(vs, None))
    return balance_report(study, tournaments, complete)


@_api
def sweep(rule: str | Sequence[str], games: int = 20_000, *, game: str | None = None,
          players: str | int | Sequence[int] | None = None, strategies: str | Sequence[str] | None = None,
          rules: str | PathLike | None = None, seed: int = 0, threads: int | None = None,
          components: str | PathLike | None = None, precision: float | None = None,
          plugins: Sequence[str | PathLike] = (),
          variant: str | None = None) -> SweepReport:  # keep: old name
    """How the balance moves along a rule (``medici-sim sweep``): a tournament at every point
    of one or two ranges (``"name=0..40:5"``, a list's element ``"name[0]=20..40"``)
    over the base rules ``rules``, every point on the same games (common random numbers)."""
    rules = _rules(rules, variant)  # keep: old name
    return play_sweep(SweepRequest(rule, games, game, players, strategies, rules, seed, threads, components,
                                   precision, plugins=plugins).sweep())


@_api
def design(rule: str | Sequence[str], target: str = "strategies", *, trials: int = 40, games: int = 20_000,
           fresh_games: int = 100_000, game: str | None = None, players: int | None = None,
           strategies: str | Sequence[str] | None = None, rules: str | PathLike | None = None, seed: int = 0,
           threads: int | None = None, components: str | PathLike | None = None,
           plugins: Sequence[str | PathLike] = (), variant: str | None = None) -> DesignReport:  # keep: old name
    """Which rule values in the box ``rule`` spans best meet ``target`` (``medici-sim design``):
    ``strategies`` (the smallest spread of win rates), ``seats`` (of seats) or ``"STRATEGY=0.25"`` (one
    played: its win rate nearest 0.25);
    optuna's TPE search, then the best and the base rules (``rules``) on ``fresh_games`` fresh games."""
    rules = _rules(rules, variant)  # keep: old name
    return play_design(DesignRequest(rule, games, game, players, strategies, rules, seed, threads, components,
                                     plugins=plugins, target=target, trials=trials, fresh_games=fresh_games).design())


@_api
def tune(strategy: str | Sequence[str], *, game: str | None = None,
         players: str | int | Sequence[int] | None = None,
         rules: str | PathLike | None = None, against: str | Sequence[str] = "self", evaluations: int = 200,
         games_per_eval: int = 8000, fresh_games: int = 100_000, popsize: int | None = None, seed: int = 0,
         threads: int | None = None, components: str | PathLike | None = None,
         plugins: Sequence[str | PathLike] = (), variant: str | None = None) -> TuneReport:  # keep: old name
    """Tune a strategy's parameters by self-play (``against="self"``) or against a lineup
    (``medici-sim tune``): CMA-ES over the ranges its parameters declare, every candidate of a
    round on the same games, the pick checked beside the defaults on fresh games. ``strategy``:
    a name, a comma list (or a list of names), or ``"all"``; ``rules``: None (standard), a
    rule, or ``"all"`` (each rule tuned, then each rule's pick played against the others');
    ``components``: one component set, a shipped component set's name or a file (card game; None: the default)."""
    rules = _rules(rules, variant)  # keep: old name
    results = TuneRequest(strategy, game, players, rules, against, evaluations, games_per_eval, fresh_games,
                          popsize, seed, components, plugins=plugins).start()
    return play_tuning(results, default_threads(threads))


@_api
def trace(index: int = 0, *, game: str | None = None, players: int | None = None,
          strategies: str | Sequence[str] | None = None,
          seed: int = 0, seating: str = "fixed", rules: str | PathLike | None = None,
          components: str | PathLike | None = None, plugins: Sequence[str | PathLike] = (),
          variant: str | None = None) -> TraceReport:  # keep: old name
    """Tell game ``index`` of the run with ``seed`` turn by turn (``medici-sim trace``): the
    very game the simulation plays for that seed and index (R25, C20), with the same
    strategies and seating, every payout explained from the rules."""
    rules = _rules(rules, variant)  # keep: old name
    return tell(TraceRequest(index, game, players, strategies, seed, seating, rules, components, plugins))


@_api
def strategies(game: str | None = None) -> pd.DataFrame:
    """A game's strategies: name, one-line summary, parameters with defaults and ranges (and ``choices``: the
    names a parameter's whole numbers stand for, where it has them: search's policy and opponents)."""
    rows = []
    for name, strategy in game_named(game).registry.items():
        params = {k: {"default": p.default, "low": p.low, "high": p.high, "integer": p.integer, "help": p.help,
                      **({"choices": list(p.choices)} if p.choices else {})} for k, p in strategy.params.items()}
        rows.append({"strategy": name, "summary": strategy.summary, "parameters": params})
    return pd.DataFrame(rows)


@_api
def rules(game: str | None = None, *, players: int | None = None, rules: str | PathLike | None = None,
          variant: str | None = None) -> pd.DataFrame:  # keep: old name
    """A game's rule parameters at ``players`` (None: the game's usual count) under the rule set
    ``rules`` (a rules spec: presets and name=value items, or a TOML file; None: standard):
    name, value, default, range, rule point and meaning; ``.attrs["rules"]``: the canonical spec."""
    rules = _rules(rules, variant)  # keep: old name
    definition = game_named(game)
    if definition.rule_book is None:
        raise ConfigError(f"the {definition.name} game has no rule parameters (its rules: "
                          f"{', '.join(definition.presets)})")
    count = check_players(definition, definition.default_players if players is None else players)
    spec = canonical_rules(definition, definition.presets[0] if rules is None else rules, count)
    table = pd.DataFrame(rule_set(definition, spec, count).table())
    table.attrs.update(rules=spec, players=count, title=definition.title)
    table.attrs["presets"] = dict(definition.rule_book.preset_help)
    return table


def list_games() -> list[str]:
    """The games medici-sim plays."""
    return sorted(GAMES)
