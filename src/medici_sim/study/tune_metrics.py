"""How tune's fresh check went: the designer metrics (``study.metrics``) of its games under the
tuned and under the default parameters, and each metric's paired change from default to tuned
(both played every fresh game: ``tuning.Fresh``)."""
from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..core.registry import Game, get_game
from ..core.stats import rule_moments
from .metrics import Moments, change_columns, metric_row, metrics_frame, paired_changes
from .tuning import TaskResult, spec


def tune_change_columns(game: Game) -> list[str]:
    """The columns of tune's metric changes for ``game``."""
    return ["strategy", "rules", *change_columns(Moments.of(game), game.data_noun)]


def _configuration(result: TaskResult) -> dict:
    task = result.task
    return {"strategy": task.strategy, "rules": task.rules, "players": task.players,
            get_game(task.game).data_noun: task.components.name if task.components is not None else ""}


def tune_metrics(results: Sequence[TaskResult]) -> pd.DataFrame:
    """Two rows per finished task: the fresh games under the default parameters and under the
    tuned ones (``parameters``: which; ``spec``: they themselves), each metric with its 95% interval."""
    rows = []
    for result in (r for r in results if r.complete):
        task, fresh = result.task, result.fresh
        game = get_game(task.game)
        for which, strategy, run in (("default", task.default, fresh.default_run),
                                     ("tuned", task.slot(result.tuned), fresh.tuned_run)):
            rows.append({"strategy": task.strategy, "parameters": which, "spec": spec(strategy),
                         **_configuration(result), **metric_row(run, game, rule_moments(game, task.rules,
                                                                                        task.players))})
    return metrics_frame(rows)


def tune_metric_changes(results: Sequence[TaskResult]) -> pd.DataFrame:
    """Per finished task and metric: its paired change on the fresh games from the default
    parameters (``first``) to the tuned ones (``second``), with its 95% interval."""
    rows, game = [], None
    for result in (r for r in results if r.complete):
        task, fresh = result.task, result.fresh
        game = get_game(task.game)
        moments = rule_moments(game, task.rules, task.players)
        rows += [{**_configuration(result), "first": "default", "second": "tuned", **row}
                 for row in paired_changes(game, fresh.default_run, fresh.tuned_run, fresh.metric_sq,
                                           task.fresh_games, moments, moments)]
    game = game or (get_game(results[0].task.game) if results else None)
    return pd.DataFrame(rows, columns=tune_change_columns(game) if game is not None else None)
