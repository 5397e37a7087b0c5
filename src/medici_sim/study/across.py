"""balance on several component sets: the findings of each set's verdict, and on how
many sets each holds (the table ``across_table``, in the game's words for its sets: ``Game.data_plural``)."""
from __future__ import annotations

import math

import pandas as pd

from ..core.registry import Game
from .analysis import decided_rate, points, rule_names, seat_changed


def across_table(game: Game) -> str:
    """balance on several component sets: the table of on how many each finding holds (``across_<plural>``, in the
    game's words: ``Game.data_plural``)."""
    return f"across_{game.data_plural}"


def across_columns(game: Game) -> list[str]:
    """That table's columns: each finding per player count, on how many sets it holds, of how many, which."""
    return ["players", "finding", f"{game.data_plural}_holding", game.data_plural, "holds_on"]


def findings(per_strategy: pd.DataFrame, per_rules: pd.DataFrame) -> dict[int, dict]:
    """What ``analysis.verdict`` says for each player count, as data, by the verdict's own
    rules: the headline (the largest significant change: ("raises" or "lowers", strategy),
    or ("none", "") when no change is significant: a change within the noise is never one),
    whether the seat advantage changed, and the share of games the variant decided."""
    _, other = rule_names(per_strategy)
    out = {}
    for players, rows in per_strategy.groupby("players", sort=True):
        rules = per_rules[per_rules["players"] == players].set_index("rules")
        significant = rows[rows["significant"]]
        if len(significant):
            biggest = significant.loc[significant["difference"].abs().idxmax()]
            headline = ("raises" if biggest["difference"] > 0 else "lowers", biggest["strategy"])
        else:
            headline = ("none", "")
        out[int(players)] = {"headline": headline, "seat": "changed" if seat_changed(rules) else "unchanged",
                             "decided": decided_rate(rules, *rule_names(per_strategy))[0], "rows": rows}
    return out


def _holds(finding: tuple[str, str], found: dict) -> bool:
    """Whether a finding holds on one component set at one player count (its tables, the verdict's rules)."""
    kind, what = finding
    rows = found["rows"]
    if kind == "seat":
        return found["seat"] == what
    if kind == "none":
        return not rows["significant"].any()
    mine = rows[rows["strategy"] == what]
    sign = 1 if kind == "raises" else -1
    return bool((mine["significant"] & (sign * mine["difference"] > 0)).any())


def _finding_text(finding: tuple[str, str], other: str) -> str:
    kind, what = finding
    if kind == "seat":
        return f"seat advantage {what}"
    if kind == "none":
        return f"{other} changes no strategy's win rate significantly"
    return f"{other} {kind} {what}'s win rate"


def across_component_sets(per_components: list[tuple[str, dict[str, pd.DataFrame]]], game: Game) -> pd.DataFrame:
    """One row per finding of any component set's verdict (its headline, and whether the seat advantage
    changed), per player count: on how many of the component sets that played that count it holds."""
    found = [(label, findings(tables["strategies"], tables["rules"])) for label, tables in per_components]
    _, other = rule_names(per_components[0][1]["strategies"])
    rows = []
    for players in sorted({p for _, f in found for p in f}):
        here = [(label, f[players]) for label, f in found if players in f]
        said = [f["headline"] for _, f in here] + [("seat", f["seat"]) for _, f in here]
        for finding in dict.fromkeys(said):
            holding = [label for label, f in here if _holds(finding, f)]
            rows.append((players, _finding_text(finding, other), len(holding), len(here), ", ".join(holding)))
    return pd.DataFrame(rows, columns=across_columns(game))


def across_lines(across: pd.DataFrame, per_components: list[tuple[str, dict[str, pd.DataFrame]]],
                 game: Game) -> list[str]:
    """The across table in words (in ``game``'s words for its component sets), and the range of games the variant
    decided (where a side has it)."""
    plural = game.data_plural_words
    base, other = rule_names(per_components[0][1]["strategies"])
    lines = []
    for players, rows in across.groupby("players", sort=True):
        here = [(label, tables["rules"]) for label, tables in per_components
                if players in set(tables["rules"]["players"])]
        for _, finding, held, of, holds_on in rows.itertuples(index=False):
            holding = holds_on.split(", ") if holds_on else []
            missing = [label for label, _ in here if label not in holding]
            note = ("" if not missing else f" ({', '.join(holding)})" if len(holding) <= len(missing)
                    else f" (all but {', '.join(missing)})")
            lines.append(f"{finding} at {players} players: {held} of {of} {plural}{note}")
        decided = [rate for _, rules in here
                   if not math.isnan(rate := decided_rate(rules[rules["players"] == players].set_index("rules"),
                                                          base, other)[0])]
        if decided:
            lines.append(f"the variant decided {points(min(decided))}% to {points(max(decided))}% of games at "
                         f"{players} players, by {game.data_noun}")
    return lines
