"""Tune's checkpoint: its tasks (:func:`task_configuration`) and each task's rounds, pick
and fresh check (:func:`task_progress`; with the fresh games' metric counters), checked as
``checkpoint.read`` reads them (:data:`TUNE`)."""
from __future__ import annotations

import math

import numpy as np

from ..core import accounting as acc
from ..core.accounting import N_COMMON_RUN_STATS, WIN_UNIT
from ..core.checkpoint import SavedFormat
from ..core.driver import ConfigError
from ..core.identity import (
    components_identity,
    saved_components,
    saved_strategies,
    strategies_identity,
    valid_components,
    valid_game,
    valid_players,
    valid_rules,
    valid_strategies,
)
from ..core.pairing import paired_metrics
from ..core.registry import GAMES, get_game
from ..core.saved import MAX_INT, Invalid, check_keys, int_vector, show, whole_number
from ..core.stats import rule_moments
from ..core.totals_check import TotalsCheck, check_paired_metric_sq
from .optimize import Round
from .tuning import Fresh, TaskResult, TuneTask


def task_configuration(task: TuneTask) -> dict:
    """What a checkpoint records of a task, and a resumed tuning must match."""
    return {"game": task.game, "strategy": task.strategy, "players": task.players, "rules": task.rules,
            "against": None if task.against is None else strategies_identity(task.against),
            "evaluations": task.evaluations, "games_per_eval": task.games_per_eval,
            "fresh_games": task.fresh_games, "seed": task.seed, "popsize": task.popsize,
            "components": components_identity(task.components),
            "identity": strategies_identity([task.default])}


def task_from_configuration(saved: dict) -> TuneTask:
    game = get_game(saved["game"])
    against = None if saved["against"] is None else saved_strategies(saved["against"], game.name)
    name = saved["identity"][0][0]
    if saved["strategy"] != name:
        raise ConfigError(f"strategy is {saved['strategy']!r}, but its identity names {name!r}")
    return TuneTask(game.name, name, saved["players"], saved["rules"], against, saved["evaluations"],
                    saved["games_per_eval"], saved["fresh_games"], saved["seed"], saved["popsize"],
                    saved_components(saved["components"], game))


def task_progress(result: TaskResult) -> dict:
    g = acc.WIN_UNIT * result.task.games_per_eval
    return {"rounds": [{"candidates": [list(c) for c in r.candidates], "win60": [round(s * g) for s in r.scores],
                        "incumbent": list(r.incumbent)} for r in result.rounds],
            "tuned": None if result.tuned is None else list(result.tuned),
            "fresh": None if result.fresh is None else result.fresh.to_list()}


def task_result(task: TuneTask, saved: dict) -> TaskResult:
    """A task's progress as a validated checkpoint holds it."""
    g = acc.WIN_UNIT * task.games_per_eval
    rounds = [Round(tuple(tuple(c) for c in r["candidates"]), tuple(w / g for w in r["win60"]),
                    tuple(r["incumbent"])) for r in saved["rounds"]]
    fresh = saved["fresh"]
    return TaskResult(task, rounds, None if saved["tuned"] is None else tuple(saved["tuned"]),
                      None if fresh is None else Fresh(**{key: value if key == "difference_sq"
                                                          else np.array(value, np.int64)
                                                          for key, value in fresh.items()}))


TUNE_TASK_KEYS = ("game", "strategy", "players", "rules", "against", "evaluations", "games_per_eval",
                  "fresh_games", "seed", "popsize", "components", "identity")
TUNE_PROGRESS_KEYS = ("rounds", "tuned", "fresh")
FRESH_KEYS = ("tuned", "default", "difference_sq", "tuned_run", "default_run", "metric_sq")  # Fresh.to_list's
ROUND_KEYS = ("candidates", "win60", "incumbent")
MAX_TUNE_TASKS = 10_000


def check_tune(configuration, progress) -> None:
    """Tasks as ``tuning.TuneTask`` builds them; rounds as the optimiser asked them (each
    candidate a valid set of parameters, each win credit possible for its games); a task's
    fresh check only once its rounds are complete; tasks done in order. Whether the rounds
    are what the optimiser proposes for the seed is checked when they are replayed."""
    check_keys(configuration, "configuration", ("tasks",))
    saved = configuration["tasks"]
    if type(saved) is not list or not 0 < len(saved) <= MAX_TUNE_TASKS:
        raise Invalid(f"configuration.tasks is {show(saved)}, not a list of tuning tasks")
    tasks = []
    for i, entry in enumerate(saved):
        where = f"configuration.tasks[{i}]"
        check_keys(entry, where, TUNE_TASK_KEYS)
        game = valid_game(entry["game"], f"{where}.game")
        players = valid_players(entry["players"], f"{where}.players", game)
        valid_strategies(entry["identity"], f"{where}.identity", game, 1)
        if entry["against"] is not None:
            valid_strategies(entry["against"], f"{where}.against", game, players - 1)
        valid_components(entry["components"], f"{where}.components", game)
        valid_rules(entry["rules"], f"{where}.rules", game, players)
        for key, high in (("evaluations", MAX_INT), ("games_per_eval", MAX_INT), ("fresh_games", MAX_INT),
                          ("seed", MAX_INT), ("popsize", 1000)):
            whole_number(entry[key], f"{where}.{key}", 2 if key == "popsize" else 0 if key == "seed" else 1, high)
        try:
            task = task_from_configuration(entry)
        except (ConfigError, ValueError) as exc:
            raise Invalid(f"{where}: {exc}") from None
        if any((t.strategy, t.players, t.rules) == (task.strategy, task.players, task.rules) for t in tasks):
            raise Invalid(f"{where} tunes {task.label} a second time")
        tasks.append(task)
    check_keys(progress, "progress", ("tasks",))
    done = progress["tasks"]
    if type(done) is not list or len(done) != len(tasks):
        raise Invalid(f"progress.tasks is {show(done)}, not one entry per task ({len(tasks)})")
    unfinished = None
    for i, (task, entry) in enumerate(zip(tasks, done, strict=True)):
        where = f"progress.tasks[{i}]"
        check_keys(entry, where, TUNE_PROGRESS_KEYS)
        rounds = entry["rounds"]
        if type(rounds) is not list or len(rounds) > task.rounds:
            raise Invalid(f"{where}.rounds is {show(rounds)}, not a list of at most {task.rounds} rounds")
        if rounds and unfinished is not None:
            raise Invalid(f"{where} has rounds, but task {unfinished + 1} before it is not finished")
        for r, saved_round in enumerate(rounds):
            _tune_round(saved_round, f"{where}.rounds[{r}]", task)
        tuned, fresh = entry["tuned"], entry["fresh"]
        if (tuned is not None or fresh is not None) and len(rounds) < task.rounds:
            raise Invalid(f"{where} has a result, but only {len(rounds)} of its {task.rounds} rounds")
        if tuned is not None:
            _tune_values(tuned, f"{where}.tuned", task)
        if fresh is not None:
            if tuned is None:
                raise Invalid(f"{where}.fresh is given without {where}.tuned")
            check_keys(fresh, f"{where}.fresh", FRESH_KEYS)
            for key in ("tuned", "default"):
                _win_moments(fresh[key], f"{where}.fresh.{key}", task.fresh_games)
            _difference_moments(fresh, f"{where}.fresh", task.fresh_games)
            _fresh_metrics(fresh, f"{where}.fresh", task)
        if fresh is None and unfinished is None:
            unfinished = i


def _tune_round(saved, where: str, task) -> None:
    check_keys(saved, where, ROUND_KEYS)
    candidates, win60 = saved["candidates"], saved["win60"]
    if type(candidates) is not list or len(candidates) != task.popsize:
        raise Invalid(f"{where}.candidates is {show(candidates)}, not {task.popsize} candidates")
    for j, candidate in enumerate(candidates):
        _tune_values(candidate, f"{where}.candidates[{j}]", task)
    _tune_values(saved["incumbent"], f"{where}.incumbent", task)
    if type(win60) is not list or len(win60) != task.popsize:
        raise Invalid(f"{where}.win60 is {show(win60)}, not {task.popsize} win credits")
    # every game's credit is 60 (an outright win), a k-way share or 0: a multiple of their gcd
    unit = math.gcd(WIN_UNIT, TotalsCheck(GAMES[task.game], task.players, task.rules).share_gcd)
    for j, credit in enumerate(win60):
        whole_number(credit, f"{where}.win60[{j}]", 0, WIN_UNIT * task.games_per_eval)
        if credit % unit:
            raise Invalid(f"{where}.win60[{j}] is {credit}, not a sum of {task.players}-player win credits "
                          f"(multiples of {unit})")


def _tune_values(values, where: str, task) -> None:
    names = task.box.names
    if type(values) is not list or len(values) != len(names) or any(type(v) is not float for v in values):
        raise Invalid(f"{where} is {show(values)}, not {len(names)} parameter values of {task.strategy}")
    try:
        task.slot(values)
    except ConfigError as exc:
        raise Invalid(f"{where}: {exc}") from None


def _win_moments(value, where: str, games: int) -> None:
    """[games, win60, win60_sq] of one slot over ``games`` games: shares of 60 // k each."""
    if type(value) is not list or len(value) != 3:
        raise Invalid(f"{where} is {show(value)}, not [games, win credit, its squares]")
    n = whole_number(value[0], f"{where}[0]", games, games)
    w = whole_number(value[1], f"{where}[1]", 0, WIN_UNIT * n)
    q = whole_number(value[2], f"{where}[2]", 0, WIN_UNIT * WIN_UNIT * n)
    if w * w > q * n or q > WIN_UNIT * w:
        raise Invalid(f"{where}: win credits {w} with squares {q} are impossible in {n} games")


def _difference_moments(fresh: dict, where: str, games: int) -> None:
    """The squared per-game differences of two slots' win credits over the same ``games``
    games: at most the sum of both slots' squares (credits are never negative), at least
    what the difference of their sums implies (Cauchy-Schwarz)."""
    square = whole_number(fresh["difference_sq"], f"{where}.difference_sq", 0, WIN_UNIT * WIN_UNIT * games)
    difference = fresh["tuned"][1] - fresh["default"][1]
    if difference * difference > square * games or square > fresh["tuned"][2] + fresh["default"][2]:
        raise Invalid(f"{where}.difference_sq is {square}, impossible beside the two win credits "
                      f"{fresh['tuned'][1]} and {fresh['default'][1]} over {games} games")


def _fresh_metrics(fresh: dict, where: str, task: TuneTask) -> None:
    """The run counters of the fresh games under each parameter set, and the squares of each
    game's difference of the metric counters (tuned minus default), as ``core.totals_check``
    proves a run's and a pairing's (the check saves no seat rows: ``TotalsCheck.run_alone``)."""
    game, games = GAMES[task.game], task.fresh_games
    rules = TotalsCheck(game, task.players, task.rules)
    runs = []
    for key in ("default_run", "tuned_run"):
        runs.append(int_vector(fresh[key], f"{where}.{key}", N_COMMON_RUN_STATS + len(game.engine.run_columns),
                               f"the {game.name} game's run counters"))
        rules.run_alone(runs[-1], f"{where}.{key}", games)
    metric_sq = int_vector(fresh["metric_sq"], f"{where}.metric_sq", len(paired_metrics(game)),
                           f"the {game.name} game's paired metrics")
    check_paired_metric_sq(metric_sq, f"{where}.metric_sq", *runs, games, game,
                           rule_moments(game, task.rules, task.players))


TUNE = SavedFormat("tune", check_tune)
