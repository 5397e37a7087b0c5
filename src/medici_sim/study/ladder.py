"""The skill ladder (``balance --ladder``, ``compare --ladder``): the same question asked at
every level of play, and in words whether each finding grows, shrinks or holds as play gets
stronger.

The levels, weakest first, as the game's study policy names them (core.contract.StudyPolicy):
everyone playing its ``weakest`` (balance only: the seats); the heuristics with their default
parameters; the heuristics with their shipped tuned parameters; each heuristic as the rollout
policy of its ``searcher`` at two small budgets; and, where the game declares one, its
``strongest`` (balance: every seat strongest, so its findings are the seats'; compare: the
strongest among the heuristics, so its edge is one more finding). The cheap levels play the
games asked for, the searcher and strongest levels a share of them (their intervals say so). A
further level is one entry in :data:`EXTRA_LEVELS`.

A finding is balance's effect of the other rules on a strategy's win rate (a strategy keeps its
name at every level: the searcher with a heuristic's policy is that heuristic) or on seat 1's, or
compare's edge of a strategy over the fair share (its win rate minus 1 / players).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.registry import Game

SEARCHER_BUDGETS = (4, 16)  # rollouts per choice of the two searcher levels
SEARCHER_GAMES_SHARE = (0.02, 0.005)  # the share of --games each searcher level plays (at least MIN_SEARCHER_GAMES)
MIN_SEARCHER_GAMES = 120
STRONGEST_GAMES_SHARE = 0.25  # the share of --games the strongest level plays (at least MIN_SEARCHER_GAMES)


@dataclass(frozen=True)
class Level:
    """One rung: its strategies (specs) and, for each, the heuristic it stands for."""

    name: str
    strategies: tuple[str, ...]
    stands_for: tuple[str, ...]
    games: int
    tuned: bool = False


def level_strategies(game: Game) -> tuple[str, ...]:
    """The strategies the study policy names for levels of their own (not heuristics)."""
    study = game.study
    return tuple(name for name in (study.weakest, study.searcher, study.strongest) if name) if study else ()


def _searcher_level(game: Game, heuristics: Sequence[str], rollouts: int, games: int) -> Level:
    searcher = game.study.searcher
    specs = tuple(f"{searcher}:policy={game.built_ins.index(h)},rollouts={rollouts}" for h in heuristics)
    return Level(f"{searcher}-{rollouts}", specs, tuple(heuristics), games)


def strongest_level(game: Game, heuristics: Sequence[str], games: int, alone: bool) -> Level | None:
    """The strongest level where the game declares one: every seat its ``strongest`` (``alone``:
    balance, whose findings are then the seats'), or it among the heuristics (compare)."""
    strongest = game.study.strongest
    if not strongest or strongest not in game.registry:
        return None
    strategies = (strongest,) if alone else (*heuristics, strongest)
    return Level(strongest, strategies, strategies, max(MIN_SEARCHER_GAMES, int(games * STRONGEST_GAMES_SHARE)))


# The single place to add a level: functions (game, heuristics, games, alone) -> Level, or None
# where the level cannot be played (``alone``: balance, where one strategy may fill every seat);
# they come after the searcher levels, strongest last.
EXTRA_LEVELS: list[Callable[[Game, Sequence[str], int, bool], Level | None]] = [strongest_level]


def ladder_levels(game: Game, strategies: Sequence[str] | None, games: int, tuned_shipped: bool,
                  with_random: bool = True) -> list[Level]:
    """The ladder's levels for ``strategies`` (names; None: the game's built-ins); ``with_random``:
    begin with everyone playing random (balance's seats; compare has nothing to compare there)."""
    study = game.study
    if study is None:
        raise ValueError(f"--ladder needs the game's study policy: the {game.name} game declares none")
    names = [s.split(":")[0] for s in (strategies or game.built_ins)]
    others = level_strategies(game)
    heuristics = [n for n in dict.fromkeys(names) if n not in others and n in game.built_ins]
    if len(heuristics) < 2:
        raise ValueError("--ladder needs at least two of the game's heuristics among --strategies "
                         f"(built-ins other than {' and '.join(others)})")
    levels = [Level(study.weakest, (study.weakest,), (study.weakest,), games)] if with_random and study.weakest \
        else []
    levels.append(Level("heuristics", tuple(heuristics), tuple(heuristics), games))
    if tuned_shipped:
        levels.append(Level("tuned", tuple(heuristics), tuple(heuristics), games, tuned=True))
    levels += [_searcher_level(game, heuristics, rollouts, max(MIN_SEARCHER_GAMES, int(games * share)))
               for rollouts, share in zip(SEARCHER_BUDGETS, SEARCHER_GAMES_SHARE, strict=True) if study.searcher]
    levels += [level for extra in EXTRA_LEVELS if (level := extra(game, heuristics, games, with_random)) is not None]
    return levels


LADDER_COLUMNS = ["level", "players", "finding", "value", "value_ci_low", "value_ci_high", "significant", "games"]


def stands_for(names: dict[str, str], label: str) -> str:
    """The heuristic a table's strategy ``label`` stands for (``names``: the level's strategies'
    labels to it). A tuned level's tables label each strategy with its tuned parameters
    (``NAME:PARAMETER=VALUE,...``): it stands for what its name stands for, so the
    finding is the same row at every level (compare --ladder made each tuned strategy a finding of
    its own, left the tuned level out of the others' trends and said they held at every level)."""
    return names.get(label) or names.get(label.partition(":")[0], label)


def balance_rows(level: Level, names: dict[str, str], per_strategy: pd.DataFrame,
                 per_rules: pd.DataFrame) -> list[dict]:
    """A balance level's findings: the other rules' effect on each strategy (``names``: the
    heuristic each table label stands for) and on seat 1."""
    other = [c for c in per_strategy.columns if c.startswith("win_rate_") and not c.endswith(("_low", "_high"))][-1]
    rows = []
    for _, row in per_strategy.iterrows():
        if len(set(level.strategies)) == 1:
            continue  # one strategy in every seat (the weakest, the strongest): its row is it against itself
        rows.append({"level": level.name, "players": row["players"],
                     "finding": f"{other.removeprefix('win_rate_')} on {stands_for(names, row['strategy'])}",
                     "value": row["difference"], "value_ci_low": row["difference_ci_low"],
                     "value_ci_high": row["difference_ci_high"], "significant": bool(row["significant"]),
                     "games": level.games})
    for players, rules in per_rules.groupby("players", sort=True):
        row = rules.iloc[-1]
        rows.append({"level": level.name, "players": players, "finding": f"{row['rules']} on seat 1",
                     "value": row["seat1_change"], "value_ci_low": row["seat1_change_ci_low"],
                     "value_ci_high": row["seat1_change_ci_high"],
                     "significant": bool(row["seat1_change_ci_low"] > 0 or row["seat1_change_ci_high"] < 0),
                     "games": level.games})
    return rows


def compare_rows(level: Level, names: dict[str, str], per_strategy: pd.DataFrame) -> list[dict]:
    """A compare level's findings: each strategy's win rate above (or below) the fair share."""
    rows = []
    for _, row in per_strategy.iterrows():
        fair = 1 / row["players"]
        rows.append({"level": level.name, "players": row["players"],
                     "finding": f"{stands_for(names, row['strategy'])}'s edge",
                     "value": row["win_rate"] - fair, "value_ci_low": row["win_rate_ci_low"] - fair,
                     "value_ci_high": row["win_rate_ci_high"] - fair,
                     "significant": bool(row["win_rate_ci_low"] > fair or row["win_rate_ci_high"] < fair),
                     "games": level.games})
    return rows


def ladder_frame(rows: Sequence[dict]) -> pd.DataFrame:
    return pd.DataFrame(list(rows), columns=LADDER_COLUMNS)


def ladder_grid(table: pd.DataFrame) -> pd.DataFrame:
    """The ladder as a grid for the report: a row a finding, a column a level, each cell its value in
    percentage points with its 95% interval, then the games each level played."""
    levels = list(dict.fromkeys(table["level"]))
    rows = []
    for (players, finding), group in table.groupby(["players", "finding"], sort=False):
        cells = {row.level: f"{100 * row.value:+.1f} ({100 * row.value_ci_low:+.1f} to {100 * row.value_ci_high:+.1f})"
                 + ("" if row.significant else ", not clear") for row in group.itertuples(index=False)}
        rows.append({"players": players, "finding": finding, **{lv: cells.get(lv, "") for lv in levels}})
    games = table.drop_duplicates("level").set_index("level")["games"]
    rows.append({"players": "", "finding": "games per configuration", **{lv: f"{int(games[lv]):,}" for lv in levels}})
    return pd.DataFrame(rows)


def ladder_shown(table: pd.DataFrame) -> pd.DataFrame:
    """The ladder as people read it (the terminal, --report): each finding's value in percentage points
    with its 95% interval, clear or not, and the games it rests on (``--wide`` and --out: the numbers)."""
    return pd.DataFrame({
        "level": table["level"], "players": table["players"], "finding": table["finding"],
        "percentage points [95% CI]": [f"{100 * v:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]" for v, lo, hi in
                                       zip(table["value"], table["value_ci_low"], table["value_ci_high"], strict=True)],
        "clear": ["yes" if s else "no" for s in table["significant"]],
        "games": [f"{int(g):,}" for g in table["games"]]})


# ---------------------------------------------------------------- in words

def trend(values: pd.DataFrame) -> str:
    """How one finding moves from its weakest level to its strongest (rows in level order):
    "holds", "grows", "shrinks", "shrinks to nothing", "appears", "reverses" or "turns unclear"
    (clear at the weakest level, not at the strongest, and not smaller there). A change counts
    only when it is larger than the two levels' intervals allow (half-widths added in quadrature)."""
    first, last = values.iloc[0], values.iloc[-1]
    half = np.hypot((first["value_ci_high"] - first["value_ci_low"]) / 2,
                    (last["value_ci_high"] - last["value_ci_low"]) / 2)
    if first["significant"] and last["significant"] and np.sign(first["value"]) != np.sign(last["value"]):
        return "reverses"
    if first["significant"] and not last["significant"]:
        shrunk = abs(last["value"]) < abs(first["value"]) and np.sign(last["value"]) != -np.sign(first["value"])
        return "shrinks to nothing" if shrunk else "turns unclear"
    if last["significant"] and not first["significant"]:
        return "appears"
    change = abs(last["value"]) - abs(first["value"])
    if abs(last["value"] - first["value"]) <= half:
        return "holds"
    return "grows" if change > 0 else "shrinks"


def _points(row: pd.Series, unit: str = "") -> str:
    clear = "" if row["significant"] else " (not clear)"
    return f"{100 * row['value']:+.1f}{unit}{clear}"


def ladder_words(table: pd.DataFrame) -> str:
    """The ladder in words: per player count and finding, its value at each level (percentage
    points), and whether it grows, shrinks or holds as play gets stronger; then the findings
    that hold at every level (clear, with the same sign, at each level that measures them)."""
    if table.empty:
        return "The ladder played no games."
    levels = list(dict.fromkeys(table["level"]))
    lines = [f"As play gets stronger ({' -> '.join(levels)}), in percentage points with 95% intervals:"]
    everywhere = []
    for (players, finding), rows in table.groupby(["players", "finding"], sort=False):
        rows = rows.set_index("level").reindex([lv for lv in levels if lv in set(rows["level"])]).reset_index()
        steps = " -> ".join(_points(row) for _, row in rows.iterrows())
        lines.append(f"  {players} players, {finding}: {steps}: {trend(rows)}.")
        signs = set(np.sign(rows["value"]))
        if rows["significant"].all() and len(signs) == 1 and len(rows) > 1:
            everywhere.append(f"{finding} ({players} players, {'up' if signs == {1.0} else 'down'})")
    if everywhere:
        lines.append("Holds at every level: " + "; ".join(everywhere) + ".")
    else:
        lines.append("No finding holds at every level.")
    return "\n".join(lines)


def ladder_answer(table: pd.DataFrame) -> list[str]:
    """The ladder's answer in a few points: each finding's trend from the weakest level to the
    strongest (its value at both ends, percentage points), then what holds at every level (ladder_words)."""
    levels = list(dict.fromkeys(table["level"]))
    counts = sorted(set(table["players"]))
    parts = []
    for (players, finding), rows in table.groupby(["players", "finding"], sort=False):
        rows = rows.set_index("level").reindex([lv for lv in levels if lv in set(rows["level"])]).reset_index()
        first, last = rows.iloc[0], rows.iloc[-1]
        where = f" ({players} players)" if len(counts) > 1 else ""
        parts.append(f"{finding}{where} {trend(rows)}: {_points(first, ' points')} at {first['level']}, "
                     f"{_points(last)} at {last['level']}")
    return [*parts, ladder_words(table).splitlines()[-1]]


def ladder_figure(table: pd.DataFrame):
    """Each finding's value by level, with its 95% interval (a PNG writer, study.plots')."""
    from .plots import _pyplot, _writer, error_bars

    plt = _pyplot()
    levels = list(dict.fromkeys(table["level"]))
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for (players, finding), rows in table.groupby(["players", "finding"], sort=False):
        x = [levels.index(lv) for lv in rows["level"]]
        y = 100 * rows["value"].to_numpy()
        errors = error_bars(y, 100 * rows["value_ci_low"].to_numpy(), 100 * rows["value_ci_high"].to_numpy())
        ax.errorbar(x, y, yerr=errors, marker="o", capsize=3, label=f"{finding} ({players}p)")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(levels)), levels)
    ax.set_ylabel("percentage points (95% intervals)")
    ax.set_xlabel("level of play, weakest first")
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return _writer(fig)


LADDER_TABLE = "ladder"  # the table's name in --out files


def ladder_section(table: pd.DataFrame, words: str):
    """The ladder as a part of a --report page (study.report)."""
    from .report import Section

    return Section("The ladder of skill", words,
                   [("Each finding at each level, in percentage points (95% intervals; not clear: the interval "
                     "holds 0)", ladder_grid(table))],
                   [ladder_figure(table)] if len(table) else [])
