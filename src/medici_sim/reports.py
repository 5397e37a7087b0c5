"""What the Python API answers: each command's tables as one object (``medici_sim.api``'s
functions return these). Each shows as its tables in a notebook (``_repr_html_``)."""
from __future__ import annotations

import html
import json
from dataclasses import dataclass, field, fields

import pandas as pd

from .core.driver import Totals
from .study import metrics, studies


class _Answer:
    """What every answer shares: in a notebook it shows as its tables, text and summary."""

    def _repr_html_(self) -> str:
        parts = [f"<h3>medici_sim.{type(self).__name__}</h3>"]
        for entry in fields(self):
            value = getattr(self, entry.name)
            if entry.name.startswith("_") or value is None or not entry.metadata.get("shown", True):
                continue
            parts.append(f"<h4>{entry.name}</h4>")
            if isinstance(value, pd.DataFrame):
                parts.append(value.to_html(index=False, max_rows=40, float_format=lambda x: f"{x:.4f}"))
            elif isinstance(value, dict):  # the summary: one row per entry
                parts.append(pd.Series({k: str(v) for k, v in value.items()}, dtype=object)
                             .to_frame().to_html(header=False))
            else:
                parts.append(f"<pre>{html.escape(str(value))}</pre>")
        return "\n".join(parts)


@dataclass(frozen=True)
class RunReport(_Answer):
    """The main command's answer: per seat, per strategy, and the run's summary."""

    seats: pd.DataFrame
    strategies: pd.DataFrame
    summary: dict
    _totals: Totals = field(repr=False)  # the additive statistics the tables come from (internal)
    metrics: pd.DataFrame | None = None  # how the games went (study.metrics): one row

    @property
    def complete(self) -> bool:
        """False when the run was stopped (Ctrl-C) before all its games were played."""
        return not self.summary["partial"]


@dataclass(frozen=True)
class CompareReport(_Answer):
    """``compare``'s answer: win rates, Bradley-Terry ratings, head to head, and the summary
    (with several component sets, each table has a first column naming the set, in the game's word for it:
    ``deck`` in the card game)."""

    strategies: pd.DataFrame
    ratings: pd.DataFrame
    head_to_head: pd.DataFrame
    summary: dict
    metrics: pd.DataFrame | None = None  # how the games went (study.metrics): one row per configuration
    strategy_metrics: pd.DataFrame | None = None  # how each strategy played: comebacks when trailing, decisions


@dataclass(frozen=True)
class BalanceReport(_Answer):
    """``balance``'s answer: win rates under both rules, the seat advantage and the score's
    sources per rules, the verdict in words, and the summary. With several component sets (the card game's
    decks) the tables have a first column naming the set (``deck``), the verdict goes set by set and ends with
    the lines "Across N decks", and ``across`` says on how many sets each finding holds (``across_decks``, its
    older name, is the same table)."""

    strategies: pd.DataFrame
    rules: pd.DataFrame
    verdict: str
    summary: dict
    across: pd.DataFrame | None = None  # several component sets only
    parameters: pd.DataFrame | None = None  # tuned play only: each strategy's parameters under each rule
    metrics: pd.DataFrame | None = None  # how the games went (study.metrics): one row per configuration
    metric_changes: pd.DataFrame | None = None  # each metric's change between the rules, paired (study.metrics)

    @property
    def across_decks(self) -> pd.DataFrame | None:
        """``across`` by its older name."""
        return self.across


@dataclass(frozen=True)
class TuneReport(_Answer):
    """``tune``'s answer: per task the default and tuned win rates on fresh games with the
    improvement (``tuned``; its ``best`` column is a ready ``strategies`` entry), every
    evaluation (``history``), each round (``rounds``), each rule's best parameters against
    another rule's (``cross_check``, when several rules were tuned), and the summary. Pass
    it as ``tuned=`` to ``compare`` or ``balance`` to play its parameters."""

    tuned: pd.DataFrame
    history: pd.DataFrame
    rounds: pd.DataFrame
    cross_check: pd.DataFrame
    summary: dict
    metrics: pd.DataFrame | None = None  # how the fresh games went under the default and the tuned parameters
    metric_changes: pd.DataFrame | None = None  # each metric's change on the fresh games, tuned minus default, paired

    def _document(self) -> dict:
        """The tables as ``tune --out FILE.json`` holds them (what ``tuned=`` reads)."""
        return {name: json.loads(getattr(self, name).to_json(orient="records")) for name in ("tuned", "cross_check")}


@dataclass(frozen=True)
class SweepReport(_Answer):
    """``sweep``'s answer: per point and strategy (``strategies``), per point (``points``), how the
    games went at each point (``metrics``) and each metric's paired change from the previous
    point along the first rule (``metric_changes``)."""

    strategies: pd.DataFrame
    points: pd.DataFrame
    summary: dict
    metrics: pd.DataFrame | None = None
    metric_changes: pd.DataFrame | None = None


@dataclass(frozen=True)
class DesignReport(_Answer):
    """``design``'s answer: base and best rules on fresh games (``remeasured``, ``scores``,
    ``verdict``), and the search's ``trials``."""

    remeasured: pd.DataFrame
    scores: pd.DataFrame
    verdict: str
    trials: pd.DataFrame
    summary: dict
    metrics: pd.DataFrame | None = None  # how the fresh games went under the base and the best rules
    metric_changes: pd.DataFrame | None = None  # each metric's change on the fresh games, best minus base, paired


@dataclass(frozen=True)
class TraceReport(_Answer):
    """``trace``'s answer: one game told turn by turn (``text``, as ``medici-sim trace``
    prints it) and the same as data (``data``, as ``medici-sim trace --format json``)."""

    text: str
    data: dict = field(repr=False, metadata={"shown": False})

    def __str__(self) -> str:
        return self.text


# ---------------------------------------------------------------- a played study's answer

def compare_report(study: studies.Study, tournaments: list, complete: bool) -> CompareReport:
    """``compare``'s answer from its played tournaments (those that played games)."""
    tables = studies.compare_answer(tournaments, study)
    played = [t for t in tournaments if t.games > 0]
    return CompareReport(**tables, summary=studies.summary(played, study, complete),
                         metrics=_study_metrics(study, tournaments),
                         strategy_metrics=metrics.strategy_metrics(tournaments, _components_labels(study, tournaments)))


def _study_metrics(study: studies.Study, tournaments: list) -> pd.DataFrame:
    """The designer metrics of a study: one row per configuration that played games (study.metrics)."""
    return metrics.study_metrics(tournaments, _components_labels(study, tournaments))


def _components_labels(study: studies.Study, tournaments: list) -> list[str]:
    """Each tournament's component set in the metrics tables ("" for a game without component sets)."""
    return [label if study.component_sets[0] is not None else ""
            for label, block in studies.by_components(tournaments, study) for _ in block]


def balance_report(study: studies.Study, tournaments: list, complete: bool) -> BalanceReport:
    """``balance``'s answer from its played tournaments: tables, verdict and summary."""
    tables, text = studies.balance_answer(tournaments, study)
    played = [t for t in tournaments if t.games > 0]
    return BalanceReport(**tables, verdict=text, summary={**studies.summary(played, study, complete), "verdict": text},
                         metrics=_study_metrics(study, tournaments),
                         metric_changes=metrics.study_changes(tournaments, _components_labels(study, tournaments)))
