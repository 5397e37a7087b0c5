"""How the games went: the designer metrics, from the kernel's integer run counters.

The kernel counts them game by game (core.accounting.record_metrics_nb) over the game's
scoring moments (``Game.engine.moment``: a phased game's phase scorings, a game of rounds' rounds, or
the end only): comebacks after the first and the second moment, lead changes, the margin of
victory (its sum, square and a histogram), joint wins and the game's length. Here they become
one row per configuration (rules x players x component set) with 95% intervals: normal ones for means
(from exact sums of squares), Wilson ones for shares (core.stats.wilson_interval); the
margin's quantiles are read off its histogram. Names and words follow the game's moments
(:class:`Moments`: "comeback_after_phase1", "leader after phase 1").
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.accounting import (
    MARGIN_BINS,
    N_COMMON_RUN_STATS,
    RUN_COMEBACK_FIRST,
    RUN_COMEBACK_SECOND,
    RUN_GAMES,
    RUN_LEAD_CHANGES,
    RUN_LEAD_CHANGES_SQ,
    RUN_LENGTH,
    RUN_LENGTH_SQ,
    RUN_MARGIN,
    RUN_MARGIN_HISTOGRAM,
    RUN_MARGIN_SQ,
    RUN_SHARED_WIN_GAMES,
    StatLayout,
    comeback_names,
)
from ..core.contract import GameData
from ..core.narration import plural
from ..core.pairing import paired_metrics
from ..core.registry import GAMES, Game, get_game
from ..core.stats import comeback_column, mean_interval, rule_moments, stat_frame, wilson_interval
from .analysis import paired_interval

MARGIN_QUANTILES = {"margin_p25": 0.25, "margin_p50": 0.5, "margin_p75": 0.75, "margin_p90": 0.9}
METRICS_TABLE = "metrics"  # the table's name in --out files and reports
RAN_OUT_NOTICEABLE = 0.05  # a share of the game's moments that ran out of cards worth a warning
_COMEBACK = re.compile(r"^comeback_after_([a-z]+?)(\d+)$")  # a comeback after a game's k-th moment


@dataclass(frozen=True)
class Moments:
    """A game's scoring moments in words (``Game.engine.moment``: "phase"): the names of the metrics
    counted over them and the words that tell them."""

    name: str = "moment"  # "phase", "round"; "moment" for a game scored at the end only

    @classmethod
    def of(cls, game: Game) -> Moments:
        return cls(game.engine.moment or "moment")

    @classmethod
    def in_columns(cls, columns) -> Moments:
        """The moments a metrics table (comeback_after_phase1) or a table of their changes
        (first_phases) counts, read off its columns (for a table shown without its game at hand)."""
        for column in columns:
            found = _COMEBACK.match(column)
            if found:
                return cls(found.group(1))
        for column in columns:
            if column.startswith("first_") and column.endswith("s") and column != "first_value":
                return cls(column.removeprefix("first_")[:-1])
        return cls()

    @property
    def count(self) -> str:
        """The column holding how many a configuration's games had: "phases"."""
        return f"{self.name}s"

    @property
    def comebacks(self) -> tuple[str, str]:
        """The comebacks after the first and the second: comeback_after_phase1, comeback_after_phase2."""
        return comeback_names("" if self.name == "moment" else self.name)

    @property
    def trailed(self) -> str:
        """compare's column of the games a strategy trailed after the first: trailed_phase1."""
        return f"trailed_{self.name}1"

    @property
    def ran_out(self) -> str:
        """The metric of the share of them that ended because the cards ran out, in a game that counts those in
        its run column :attr:`ran_out_column`: ran_out_phase_share."""
        return f"ran_out_{self.name}_share"

    @property
    def ran_out_column(self) -> str:
        """The run column (``Game.engine.run_columns``) a game counts them in, where it does: ran_out_phases."""
        return f"ran_out_{self.count}"

    def label(self, k: int) -> str:
        """The k-th in words: "phase 1"."""
        return f"{self.name} {k}"

    def games(self, n: int) -> str:
        """Games of ``n`` of them: "1-phase games"."""
        return f"{n}-{self.name} games"

    def later(self, n: int) -> str:
        """The moments whose leaders a lead change compares with the moment before's, in words."""
        return (self.label(2) if n == 2 else f"{self.count} 2 and 3" if n == 3
                else f"{self.count} 2 to {n}")


def needs(metric: str) -> int:
    """The fewest scoring moments a game needs for ``metric`` to mean anything: a game of one has
    no leader after the first other than its winner and no lead to change, a game of two none
    after the second. Under fewer moments such a metric does not apply: n/a (NaN in tables, null
    in files), never a share of 0, and left out of paired changes."""
    found = _COMEBACK.match(metric)
    if found:
        return int(found.group(2)) + 1
    return 2 if metric == "lead_changes" else 1


def applies(metric: str, moments: int) -> bool:
    """Whether ``metric`` means anything in a game of ``moments`` scoring moments (:func:`needs`)."""
    return moments >= needs(metric)


def histogram_quantile(histogram: np.ndarray, q: float) -> float:
    """The ``q`` quantile of the values a histogram counts (bin m: value m): the smallest value
    with at least q of the counts at or below it (numpy's ``inverted_cdf``). The last bin holds
    every value from MARGIN_BINS - 1 up: a quantile falling there is NaN (not known exactly)."""
    total = int(histogram.sum())
    if total == 0:
        return float("nan")
    value = int(np.searchsorted(np.cumsum(histogram), q * total))
    return float("nan") if value >= len(histogram) - 1 else float(value)


def _mean(run: np.ndarray, total: int, square: int, name: str) -> dict:
    mean, low, high = mean_interval(run[total], run[square], run[RUN_GAMES])
    return {name: float(mean), f"{name}_ci_low": float(low), f"{name}_ci_high": float(high)}


def _share(successes: int, n: int, name: str) -> dict:
    low, high = wilson_interval(successes, n)
    return {name: successes / n if n else float("nan"), f"{name}_ci_low": low, f"{name}_ci_high": high}


def _with_interval(name: str) -> list[str]:
    return [name, f"{name}_ci_low", f"{name}_ci_high"]


def metric_columns(game: Game) -> list[str]:
    """The metrics table's columns for ``game``, in order."""
    moments = Moments.of(game)
    first, second = moments.comebacks
    return (["rules", "players", game.data_noun, "games", moments.count] + _with_interval(first)
            + _with_interval(second) + _with_interval("lead_changes") + _with_interval("margin")
            + list(MARGIN_QUANTILES) + _with_interval("shared_win_games")
            + _with_interval(f"{game.presentation.length_unit}_per_game")
            + (_with_interval(moments.ran_out) if moments.ran_out_column in game.engine.run_columns else []))


def metric_row(run: np.ndarray, game: Game, count: int) -> dict:
    """The designer metrics of one configuration's run counters (``Totals.run``), whose games
    had ``count`` scoring moments (the game's: ``Game.engine.moment``): each mean and share with its 95%
    interval; empty when the game's kernel does not count them."""
    games = int(run[RUN_GAMES])
    histogram = np.asarray(run[RUN_MARGIN_HISTOGRAM:RUN_MARGIN_HISTOGRAM + MARGIN_BINS])
    if games == 0 or int(histogram.sum()) != games:
        return {"games": games}
    moments = Moments.of(game)
    first, second = moments.comebacks
    row = {"games": games, moments.count: count,
           **_share(int(run[RUN_COMEBACK_FIRST]), games, first),
           **_share(int(run[RUN_COMEBACK_SECOND]), games, second),
           **_mean(run, RUN_LEAD_CHANGES, RUN_LEAD_CHANGES_SQ, "lead_changes"),
           **_mean(run, RUN_MARGIN, RUN_MARGIN_SQ, "margin"),
           **{name: histogram_quantile(histogram, q) for name, q in MARGIN_QUANTILES.items()},
           **_share(int(run[RUN_SHARED_WIN_GAMES]), games, "shared_win_games"),
           **_mean(run, RUN_LENGTH, RUN_LENGTH_SQ, f"{game.presentation.length_unit}_per_game")}
    if moments.ran_out_column in game.engine.run_columns:
        ran_out = int(run[N_COMMON_RUN_STATS + game.engine.run_columns.index(moments.ran_out_column)])
        row.update(_share(ran_out, count * games, moments.ran_out))
    for metric in (first, second, "lead_changes"):
        if not applies(metric, count):
            row.update(dict.fromkeys(_with_interval(metric), float("nan")))
    return row


def metrics_frame(rows: Sequence[dict]) -> pd.DataFrame:
    """One row per configuration: its identity (rules, players, component set) then its metrics."""
    return pd.DataFrame(list(rows))


def run_metrics(run: np.ndarray, game: Game, rules: str, players: int, components: str) -> pd.DataFrame:
    """The main command's table: its one configuration."""
    count = rule_moments(game, rules, players)
    return metrics_frame([{"rules": rules, "players": players, game.data_noun: components,
                           **metric_row(run, game, count)}])


def study_changes(tournaments: Sequence, components_labels: Sequence[str]) -> pd.DataFrame:
    """balance's metric changes: each pair of tournaments (the second following the first, on
    the same games) that played games (``components_labels``: each tournament's component set)."""
    return changes_frame([row for base, other, label in zip(tournaments[::2], tournaments[1::2], components_labels[::2],
                                                            strict=True)
                          for row in metric_changes(base, other, label)],
                         tournaments[0].game_def if tournaments else None)


def study_metrics(tournaments: Sequence, components_labels: Sequence[str]) -> pd.DataFrame:
    """compare's and balance's table: one row per tournament that played games (``components_labels``:
    each tournament's component set)."""
    return metrics_frame([{"rules": t.rules, "players": t.players, t.game_def.data_noun: label,
                           **metric_row(t.run, t.game_def, tournament_moments(t))}
                          for t, label in zip(tournaments, components_labels, strict=True) if t.games > 0])


STRATEGY_METRICS_TABLE = "strategy_metrics"  # compare: how each strategy played


def strategy_metric_columns(game: Game) -> list[str]:
    """The columns of compare's ``strategy_metrics`` for ``game``, in order (none of the
    comebacks for a game scored at the end only)."""
    comeback = comeback_column(game)
    return (["players", game.data_noun, "strategy", "games",
             *([Moments.of(game).trailed, *_with_interval(comeback)] if comeback else [])]
            + [c.name for c in game.engine.stat_columns])


def strategy_metrics(tournaments: Sequence, components_labels: Sequence[str]) -> pd.DataFrame:
    """compare's per-strategy table: the games each strategy trailed after the game's first
    scoring moment and how often it then won (a Wilson 95% interval on those games), and its
    decision statistics (the game's ``stat_columns``), per tournament that played games."""
    parts = []
    for t, label in zip(tournaments, components_labels, strict=True):
        if t.games == 0:
            continue
        stats = stat_frame(t.strategy_stats, t.game_def, tournament_moments(t))
        trailed = t.strategy_stats[:, StatLayout.of(t.game_def).trailed_first]
        stats = stats.assign(players=t.players, **{t.game_def.data_noun: label}, strategy=t.labels,
                             **{Moments.of(t.game_def).trailed: trailed})
        parts.append(stats[strategy_metric_columns(t.game_def)])
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def strategies_text(frame: pd.DataFrame, game_name: str) -> str:
    """How each strategy played, per configuration: how often it won after trailing on the game's
    first scoring moment, and its decision statistics (the game's ratios: per turn, per
    lot ...). Each rate rests on the games that strategy trailed in, so two strategies' rates are
    separate estimates on different games, not a paired comparison."""
    if frame is None or frame.empty:
        return ""
    game = get_game(game_name)
    moments, comeback = Moments.of(game), comeback_column(game)
    first = moments.label(1)
    decisions = [c.name for c in game.engine.stat_columns if c.kind == "ratio"]
    lines = ["How each strategy played (95% intervals; a strategy's comeback rate rests on the games it "  # one line:
             f"trailed in after {first}: different games for each, so the rates are independent, not paired)"
             if comeback else "How each strategy played"]  # wrapped
    noun = game.data_noun
    for (players, components), group in frame.groupby(["players", noun], sort=False):
        lines.append(f"  {players} players" + (f", {noun} {components}" if components else ""))
        for row in (group.sort_values(comeback, ascending=False) if comeback else group).itertuples(index=False):
            row = pd.Series(row._asdict())
            figures = ", ".join(f"{name.replace('_', ' ')} {row[name]:.2f}" for name in decisions)
            if not comeback:
                lines.append(f"    {row['strategy']:12} {figures}")
                continue
            if pd.isna(row[comeback]):
                lines.append(f"    {row['strategy']:12} comeback n/a ({moments.games(1)}: no trailing after {first})")
            else:
                won = percent_with_interval(row, comeback)
                lines.append(f"    {row['strategy']:12} won {won} "
                             f"of {int(row[moments.trailed]):,} games trailing after {first}")
            if figures:
                lines.append(f"    {'':12} {figures}")
    return "\n".join(lines)


# ---------------------------------------------------------------- in words

def percent_with_interval(row: pd.Series, name: str) -> str:
    """A share with its 95% interval in words: "x% (low-high)", or "n/a" where it does not apply."""
    if pd.isna(row[name]):
        return "n/a"
    return f"{100 * row[name]:.1f}% ({100 * row[name + '_ci_low']:.1f}-{100 * row[name + '_ci_high']:.1f})"


def _number(row: pd.Series, name: str, digits: int = 2) -> str:
    if pd.isna(row[name]):
        return "n/a"
    return f"{row[name]:.{digits}f} ({row[name + '_ci_low']:.{digits}f}-{row[name + '_ci_high']:.{digits}f})"


def margin_quantile(value: float) -> str:
    """A quantile of the margin in words: past the histogram's last bin it is only known to be at least that."""
    return f"{MARGIN_BINS - 1} or more" if pd.isna(value) else f"{value:.0f}"


def _length_column(frame: pd.DataFrame) -> str:
    return next(c for c in frame.columns if c.endswith("_per_game") and not c.endswith(("_ci_low", "_ci_high")))


def data_column(columns) -> str:
    """Which of a table's ``columns`` names the component set of each configuration (the game's word for it,
    ``Game.data_noun``), or "" where none does."""
    nouns = [game.data_noun for game in GAMES.values()] + [GameData.noun]
    return next((c for c in columns if c in nouns), "")


def configuration_label(row: pd.Series) -> str:
    noun = data_column(row.index)
    components = f", {noun} {row[noun]}" if noun and row.get(noun) else ""
    return f"{row['players']} players, {row['rules']} rules{components}"


def _count(row: pd.Series, moments: Moments) -> int:
    """How many scoring moments a configuration's games had (3 in files written before they were kept)."""
    column = moments.count
    return int(row[column]) if column in row and not pd.isna(row[column]) else 3


def _not_applying(count: int, metric: str, moments: Moments) -> str:
    return f"n/a ({moments.games(count)})" if not applies(metric, count) else ""


def _words(frame: pd.DataFrame, game: Game | None) -> tuple[Moments, str]:
    """The moments and the score's unit the words of a metrics table use: the game's, or, without
    it, the moments its columns name and "points"."""
    if game is not None:
        return Moments.of(game), game.presentation.score_unit
    return Moments.in_columns(frame.columns), "points"


def how_the_games_went(frame: pd.DataFrame, game: Game | None = None) -> str:
    """The block "How the games went": per configuration, the few figures a designer reads first.
    The labels follow the game's scoring moments (``game``; without it, the table's) and each
    configuration's count of them; a metric they leave without meaning is n/a."""
    moments, unit = _words(frame, game)
    if moments.comebacks[0] not in frame:
        return ""
    frame = frame[frame["margin"].notna()]
    if frame.empty:
        return ""
    lines = ["How the games went (95% intervals)"]
    for _, row in frame.iterrows():
        if len(frame) > 1:
            lines.append(f"  {configuration_label(row)}, {row['games']:,} games")
        lines += [f"    {label:42} {value}" for label, value in figures(row, moments, unit)]
    return "\n".join(lines)


def figures(row: pd.Series, moments: Moments | None = None, unit: str = "points") -> list[tuple[str, str]]:
    """One configuration's designer metrics in words: (label, value with its 95% interval), the labels
    following its scoring moments (``moments``: by default, those the row names) and the score's
    ``unit``, n/a where its moments leave a metric without meaning."""
    moments = moments or Moments.in_columns(row.index)
    count = _count(row, moments)
    first, second = moments.comebacks
    length = _length_column(row.to_frame().T)
    length_unit = length.removesuffix("_per_game")
    shown = [
            (f"leader after {moments.label(1)} did not win (comeback)",
             _not_applying(count, first, moments) or percent_with_interval(row, first)),
            (f"leader after {moments.label(2)} did not win (comeback)",
             _not_applying(count, second, moments) or percent_with_interval(row, second)),
            ("lead changes per game" + (f" ({moments.later(count)})" if count >= 2 else ""),
             _not_applying(count, "lead_changes", moments) or _number(row, "lead_changes")),
            (f"winning margin in {unit}", f"mean {_number(row, 'margin', 1)}; "
                                          f"median {margin_quantile(row['margin_p50'])}; "
                                          f"90% at most {margin_quantile(row['margin_p90'])}"),
            ("share of games with joint winners", percent_with_interval(row, "shared_win_games")),
            (f"{length_unit} per game", _number(row, length, 1)),
    ]
    if moments.ran_out in row:
        shown.append((f"{moments.count} that ran out of cards", percent_with_interval(row, moments.ran_out)))
    return shown


def metrics_in_words(frame: pd.DataFrame, game: Game | None = None) -> pd.DataFrame:
    """The metrics table as a designer reads it (--report): one row a measure, one column a
    configuration, each value in words with its 95% interval (in ``game``'s terms)."""
    moments, unit = _words(frame, game)
    frame = frame[frame["margin"].notna()] if "margin" in frame else frame.iloc[:0]
    if frame.empty:
        return pd.DataFrame()
    columns = {}
    for _, row in frame.iterrows():
        pairs = figures(row, moments, unit)
        columns.setdefault("measure", [label for label, _ in pairs])
        name = f"{configuration_label(row)}, {row['games']:,} games" if len(frame) > 1 else f"{row['games']:,} games"
        columns[name] = [value for _, value in pairs]
    return pd.DataFrame(columns)


def changes_in_words(changes: pd.DataFrame | None, game: Game | None = None) -> pd.DataFrame:
    """The metrics' paired changes as a designer reads them (--report): what is compared, the
    measure in words, the change in its unit (percentage points, the game's score unit) with its
    95% interval, whether it is clear."""
    if changes is None or changes.empty:
        return pd.DataFrame()
    moments, unit = _words(changes, game)
    noun = data_column(changes.columns)
    keys = [c for c in changes.columns if c not in change_columns(moments, noun) or c == "players"]
    component_sets = changes[noun].nunique() > 1  # one component set: named once, in the summary
    rows = []
    for row in changes.itertuples(index=False):
        words, scale, shown = _change_words(row.metric, unit)
        d, low, high = (scale * v for v in (row.difference, row.difference_ci_low, row.difference_ci_high))
        rows.append({**{k: getattr(row, k) for k in keys}, **({noun: getattr(row, noun)} if component_sets else {}),
                     "compared": f"{row.second} minus {row.first}", "measure": words,
                     "change": f"{d:+.2f} {shown} ({low:+.2f} to {high:+.2f})".replace("  (", " ("),
                     "clear": "yes" if row.significant else "no", "games": f"{row.games:,}"})
    return pd.DataFrame(rows)


def ran_out_warning(frame: pd.DataFrame | None, game: str) -> str | None:
    """One line when a noticeable share of the game's moments ran out of cards (the rules make the component
    set too short for them), naming the configurations; None otherwise, and always in a game where
    such moments are ordinary play (``Game.engine.runs_out_in_play``: the classic game warned on every
    run under the rulebook's own rules)."""
    moments = Moments.of(get_game(game))
    if frame is None or moments.ran_out not in frame or get_game(game).engine.runs_out_in_play:
        return None
    short = frame[frame[moments.ran_out] >= RAN_OUT_NOTICEABLE]
    if short.empty:
        return None
    worst = short.loc[short[moments.ran_out].idxmax()]
    where = configuration_label(worst) if len(frame) > 1 else f"{worst['rules']} rules"
    more = f" and {len(short) - 1} other configuration(s)" if len(short) > 1 else ""
    return (f"{100 * worst[moments.ran_out]:.0f}% of the {moments.count} ran out of cards ({where}{more}): "
            f"the {get_game(game).data_noun} is too short for these rules, so {moments.count} end early")


# ---------------------------------------------------------------- between two rule sets

METRIC_CHANGES_TABLE = "metric_changes"  # each metric's change between two rule sets (balance, sweep)


def change_columns(moments: Moments, noun: str = GameData.noun) -> list[str]:
    """The columns of the metrics' changes between two rule sets (their counts of the game's
    scoring moments: ``first_phases``, ``second_phases``; ``noun``: the game's word for its component set,
    ``Game.data_noun``)."""
    return ["players", noun, "first", "second", "metric", "games", f"first_{moments.count}",
            f"second_{moments.count}", "first_value", "second_value", "difference", "difference_ci_low",
            "difference_ci_high", "paired", "significant"]


# How each paired metric reads in words: (words, scale, unit; None: the score's); the comebacks (after
# the game's k-th scoring moment) and the game's length (turns_per_game, lots_per_game) by their own names.
CHANGE_WORDS = {"lead_changes": ("lead changes per game", 1, ""),
                "margin": ("winning margin", 1, None),
                "shared_win_games": ("share with joint winners", 100, "points")}
_RAN_OUT = re.compile(r"^ran_out_([a-z]+)_share$")  # Moments.ran_out


def tournament_moments(tournament) -> int:
    """The scoring moments of a tournament's games (its rule set's)."""
    return rule_moments(tournament.game_def, tournament.rules, tournament.players)


def metric_changes(base, other, components: str = "") -> list[dict]:
    """Each paired metric's change from tournament ``base`` to ``other``, which played the same
    games under other rules (``other`` follows ``base``: ``Tournament.paired_metric_sq``), with
    its 95% interval from each game's difference (``analysis.paired_interval``)."""
    if other.games != base.games:
        return []
    return [{"players": base.players, base.game_def.data_noun: components, "first": base.rules,
             "second": other.rules, **row}
            for row in paired_changes(base.game_def, base.run, other.run, other.paired_metric_sq, base.games,
                                      tournament_moments(base), tournament_moments(other))]


def paired_changes(game: Game, first_run: np.ndarray, second_run: np.ndarray, metric_sq: np.ndarray, games: int,
                   first_count: int, second_count: int) -> list[dict]:
    """Each paired metric's change from the run counters ``first_run`` to ``second_run`` of the
    same ``games`` games (``metric_sq``: each game's squared difference of each counter, summed;
    ``pairing.paired_metrics``' order), whose games had ``first_count`` and ``second_count`` scoring moments:
    the metric, both values and the difference with its 95% interval. A metric that does not apply
    under either rule set's scoring moments (``applies``) has no change: it is left out."""
    counted = first_run[RUN_MARGIN_HISTOGRAM:RUN_MARGIN_HISTOGRAM + MARGIN_BINS].sum() == games
    if games == 0 or not counted:
        return []  # nothing played, or a game whose kernel counts no metrics
    rows = []
    moments = Moments.of(game)
    count = moments.count
    for (name, counter), square in zip(paired_metrics(game), metric_sq, strict=True):
        if name == moments.ran_out and second_count != first_count:
            continue  # shares of different numbers of moments: no per-game difference of one share
        if not (applies(name, first_count) and applies(name, second_count)):
            continue  # a comeback or lead change that one side's moments cannot have: no change to measure
        per = first_count * games if name == moments.ran_out else games
        first, second = int(first_run[counter]), int(second_run[counter])
        difference, half = (float(x) for x in paired_interval(second - first, int(square), games, per))
        metric = f"{game.presentation.length_unit}_per_game" if name == "length" else name
        rows.append({"metric": metric, "games": games,
                     f"first_{count}": first_count, f"second_{count}": second_count, "first_value": first / per,
                     "second_value": second / per, "difference": difference,
                     "difference_ci_low": difference - half, "difference_ci_high": difference + half,
                     "paired": True, "significant": bool(abs(difference) > half)})
    return rows


def changes_frame(rows: Sequence[dict], game: Game | None) -> pd.DataFrame:
    """The metrics' changes as a table, its columns named after ``game``'s scoring moments."""
    return pd.DataFrame(list(rows), columns=change_columns(Moments.of(game) if game is not None else Moments(),
                                                           game.data_noun if game is not None else GameData.noun))


def _change_words(metric: str, unit: str) -> tuple[str, int, str]:
    """A paired metric's change in words: (words, scale, unit), ``unit`` the score's."""
    if metric.endswith("_per_game"):
        return metric.replace("_", " "), 1, ""
    found = _COMEBACK.match(metric)
    if found:
        return f"comebacks after {found.group(1)} {found.group(2)}", 100, "points"
    found = _RAN_OUT.match(metric)
    if found:
        return f"{found.group(1)}s run out", 100, "points"
    words, scale, shown = CHANGE_WORDS[metric]
    return words, scale, unit if shown is None else shown


def differences_text(changes: pd.DataFrame, game: Game | None = None) -> str:
    """How the metrics differ between two rule sets, per configuration: each difference with
    its 95% interval, paired (``metric_changes``: the same games under both rules), and the
    games it rests on. When the two rule sets play different numbers of the game's scoring
    moments (``game``'s; without it, the table's), it says so (lead changes then count different
    moments)."""
    if changes is None or changes.empty:
        return ""
    moments, unit = _words(changes, game)
    lines = []
    noun = data_column(changes.columns)
    for (players, components, first, second), group in changes.groupby(["players", noun, "first", "second"],
                                                                          sort=False):
        where = f"{players} players" + (f", {noun} {components}" if components else "")
        lines.append(f"  {where}: {second} minus {first}")
        lines.append(f"    {int(group['games'].iloc[0]):,} games, paired: the same games under both")
        first_count, second_count = _change_counts(group, moments)
        if first_count != second_count:
            counted = (f"; lead changes count {moments.later(second_count)} against {moments.later(first_count)}"
                       if min(first_count, second_count) >= 2 else "")
            lines.append(f"    {second} plays {plural(second_count, moments.name)}, {first} "
                         f"{plural(first_count, moments.name)}: "
                         f"a comeback or lead change one of them cannot have is left out{counted}")
        for row in group.itertuples(index=False):
            words, scale, shown = _change_words(row.metric, unit)
            d, low, high = (scale * v for v in (row.difference, row.difference_ci_low, row.difference_ci_high))
            clear = "clear" if row.significant else "not clear"
            lines.append(f"    {words:26} {d:+.2f} {shown} ({low:+.2f} to {high:+.2f}; {clear})".replace("  (", " ("))
    return "How the games went, compared (95% intervals)\n" + "\n".join(lines)


def _change_counts(group: pd.DataFrame, moments: Moments) -> tuple[int, int]:
    """The scoring moments of the two rule sets a group of changes compares (3 each in files
    written before they were kept)."""
    first, second = f"first_{moments.count}", f"second_{moments.count}"
    if first not in group or group[first].isna().all():
        return 3, 3
    return int(group[first].iloc[0]), int(group[second].iloc[0])
