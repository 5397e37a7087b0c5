"""Tables as people read them on a terminal: the main columns in its width (100 in a pipe).

By default each table shows its main columns — win rate as a percentage with its 95%
interval, the mean score in the game's unit, where the score came from (the game's
``score_unit`` and ``score_sources``) — formatted and aligned, best first
where the order is free. ``--wide`` prints every column at full precision; ``--out`` files
always hold every column.
"""
from __future__ import annotations

import shutil

import click
import pandas as pd

from ..core.contract import Game, StatColumn
from ..core.registry import FITTED_KEY, GAMES, unfitted_names
from ..core.stats import score_columns
from ..study.analysis import change_numbers, rule_names
from .common import wrapped

WIDTH = 100  # the width the default tables fit where the terminal's cannot be known (a pipe, a file)
# a row's identity (with the column naming its component set, in each game's word: Game.data_noun)
KEYS = ("players", "rules", "seat", "strategy", "opponent", "level", "under", "finding")
_started = False  # whether this command has printed anything on stdout yet


def width() -> int:
    """The terminal's width (the COLUMNS variable first), or WIDTH when it cannot be known."""
    return max(shutil.get_terminal_size((WIDTH, 24)).columns, 40)


def start_output() -> None:
    """A new command: its first section starts stdout, with no blank line above it."""
    global _started
    _started = False


def section(text: str) -> None:
    """Print ``text`` as a section of the output: a blank line above it, except at the start of stdout
    (``medici-sim ... | head -1`` shows the first title)."""
    global _started
    click.echo(f"\n{text}" if _started else text)
    _started = True


def print_text(text: str, wide: bool) -> None:
    """A block of text as a section, its long lines wrapped between words to the terminal (``wide``: as it is)."""
    section(text if wide else wrapped(text, hang=4, width=width()))


def shown_value(key: str, value) -> str:
    """A summary value as people read it: counts with thousands separators (as the tables write
    them), lists of counts too; a value that was not given or does not apply is "none"."""
    if value is None or value == "":
        return "none"
    if isinstance(value, bool) or key == "seed":
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, str) and value.replace(",", "").isdigit() and "," in value:
        return ", ".join(f"{int(part):,}" for part in value.split(","))
    return str(value)


def print_summary(title: str, summary: dict, skip: tuple[str, ...] = (), pad: int = 25) -> None:
    """The run's summary (what --out files hold as ``summary``), one line a key, its value from column
    ``pad`` + 2 (or after the key and a space, for a longer key)."""
    keys = [key for key in summary if key not in skip]
    pad = max(pad, *(len(key) + 1 for key in keys))
    section(title)
    for key in keys:
        click.echo(wrapped(f"  {key:{pad}}{shown_value(key, summary[key])}", hang=pad, width=width()))


def first_seat(game: Game) -> str:
    """Which seat plays first, in words: "seat 1 starts phase 1" (the game's first scoring moment,
    ``Game.engine.moment``), or "seat 1 plays first"."""
    return f"seat 1 starts {game.engine.moment} 1" if game.engine.moment else "seat 1 plays first"


def source_words(game: Game) -> str:
    """The sources of a game's score in a heading: "point sources" (``Game.presentation.score_unit``)."""
    return f"{game.presentation.score_unit.removesuffix('s')} sources"


def warn_ran_out(metrics: pd.DataFrame | None, game: str) -> None:
    """One line on stderr when the rules made a noticeable share of ``game``'s scoring moments run out of cards."""
    from ..study.metrics import ran_out_warning

    warning = ran_out_warning(metrics, game)
    if warning:
        click.echo(f"medici-sim: warning: {warning}", err=True)


def fit(frame: pd.DataFrame, keys: list[str] | None = None, limit: int | None = None) -> str:
    """``frame`` as text in ``limit`` columns (the terminal's): when its columns do not fit side by
    side, they are printed in blocks, each repeating the row's identity (``keys``: by default the
    columns before ``games`` where it comes early, as in sweep's tables, whose swept rules identify
    a row; else the leading columns named in KEYS)."""
    limit = limit or width()
    text = frame.to_string(index=False)
    if max(map(len, text.splitlines()), default=0) <= limit or frame.empty:
        return text
    if keys is None and "games" in list(frame.columns)[1:6]:
        keys = list(frame.columns[:list(frame.columns).index("games")])
    if keys is None:
        keys = []
        for column in frame.columns:
            if column not in KEYS and column not in {g.data_noun for g in GAMES.values()}:
                break
            keys.append(column)
    rest = [c for c in frame.columns if c not in keys]
    blocks, block = [], []
    for column in rest:
        candidate = frame[[*keys, *block, column]].to_string(index=False)
        if block and max(map(len, candidate.splitlines())) > limit:
            blocks.append(block)
            block = []
        block.append(column)
    blocks.append(block)
    return "\n\n".join(frame[[*keys, *b]].to_string(index=False) for b in blocks)


def _pct(value: float) -> str:
    return "" if pd.isna(value) else f"{100 * value:.1f}%"


def _interval(mean: pd.Series, low: pd.Series, high: pd.Series) -> list[str]:
    """``25.3% [24.9, 25.7]`` from rates."""
    return [f"{_pct(m)} [{100 * lo:.1f}, {100 * hi:.1f}]" if not pd.isna(m) else ""
            for m, lo, hi in zip(mean, low, high, strict=True)]


def _number(series: pd.Series, digits: int = 1) -> list[str]:
    return ["" if pd.isna(v) else f"{v:,.{digits}f}" for v in series]


def _scored(frame: pd.DataFrame) -> Game | None:
    """The game whose score the frame's columns hold (its ``mean_<unit>``, each source's mean or
    share), or None (a table of no game's score: ``mean_score`` alone)."""
    for game in GAMES.values():
        names = score_columns(game)
        means = [names[source.name] for source in game.presentation.score_sources]
        shares = [f"{source.name}_share" for source in game.presentation.score_sources]
        if names["mean"] in frame and (all(c in frame for c in means) or all(c in frame for c in shares)):
            return game
    return None


def _per_source(game: Game | None, frame: pd.DataFrame) -> bool:
    """Whether the frame holds the mean score from each of the game's sources (else their shares)."""
    return game is not None and all(score_columns(game)[s.name] in frame for s in game.presentation.score_sources)


def _sources(frame: pd.DataFrame, game: Game | None) -> dict[str, list[str]]:
    """The mean score from each of the game's sources (``Game.presentation.score_sources``), or their shares,
    whichever the table has, under each source's heading."""
    if game is None:
        return {}
    if _per_source(game, frame):
        return {s.shown: _number(frame[score_columns(game)[s.name]]) for s in game.presentation.score_sources}
    return {s.shown: [_pct(v) for v in frame[f"{s.name}_share"]] for s in game.presentation.score_sources}


def _results(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per seat or per strategy: who, win rate with interval, the mean score (in the game's unit), the sources."""
    game = _scored(frame)
    shown = {key: frame[key] for key in keys if key in frame}
    shown["games"] = _number(frame["games"], 0)
    shown["win rate [95% CI]"] = _interval(frame["win_rate"], frame["win_rate_ci_low"], frame["win_rate_ci_high"])
    unit = game.presentation.score_unit if game is not None else "score"
    shown[unit] = _number(frame[f"mean_{unit}"])
    shown.update(_sources(frame, game))
    for column in _game_columns(frame):
        shown[column.shown] = _number(frame[column.name], column.digits)
    return pd.DataFrame(shown)


def _game_columns(frame: pd.DataFrame) -> list[StatColumn]:
    """The statistics of the frame's game that its tables show besides the common ones."""
    return [c for game in GAMES.values() for c in game.engine.stat_columns if c.shown and c.name in frame]


def compact(name: str, frame: pd.DataFrame) -> pd.DataFrame:
    """The main columns of table ``name``, formatted for reading."""
    if name in ("seats", "strategies") and "win_rate" in frame:
        if "players" in frame:  # compare: best first within each player count
            frame = frame.sort_values(["players", "win_rate"], ascending=[True, False], kind="stable")
        return _results(frame, ["players", "rules", "seat", "strategy"])
    if name == "ratings":
        frame = frame.sort_values(["players", "rating"], ascending=[True, False], kind="stable")
        return pd.DataFrame({"players": frame["players"], "strategy": frame["strategy"],
                             "rating": _number(frame["rating"], 2),
                             "95% CI": [f"[{lo:.2f}, {hi:.2f}]" for lo, hi in
                                        zip(frame["rating_ci_low"], frame["rating_ci_high"], strict=True)]})
    if name == "head_to_head":
        return pd.DataFrame({"players": frame["players"], "strategy": frame["strategy"],
                             "opponent": frame["opponent"], "meetings": _number(frame["meetings"], 0),
                             "finishes above": [_pct(v) for v in frame["above_rate"]]})
    if name == "strategies":  # balance: win rate under each rule, and the change
        half = frame["difference_ci_high"] - frame["difference"]
        return pd.DataFrame({
            "players": frame["players"], "strategy": frame["strategy"],
            **{rules: _interval(frame[f"win_rate_{rules}"], frame[f"win_rate_{rules}_ci_low"],
                                frame[f"win_rate_{rules}_ci_high"]) for rules in rule_names(frame)},
            "change": [change_numbers(d, h) for d, h in zip(frame["difference"], half, strict=True)],
            "significant": ["yes" if s else "no" for s in frame["significant"]]})
    if name == "rules":
        return pd.DataFrame({
            "players": frame["players"], "rules": frame["rules"],
            "seat 1 wins [95% CI]": _interval(frame["seat1_win_rate"], frame["seat1_ci_low"], frame["seat1_ci_high"]),
            "fair": [_pct(v) for v in frame["fair_win_rate"]], **_sources(frame, _shared_by(frame)),
            "margin": _number(frame["margin"]),
            "variant decided": [_pct(v) if not pd.isna(v) else "n/a" for v in frame["variant_decided_rate"]]})
    if name == "tuned":
        half = frame["improvement_ci_high"] - frame["improvement"]
        return pd.DataFrame({
            "strategy": frame["strategy"], "players": frame["players"], "rules": frame["rules"],
            "default [95% CI]": _interval(frame["default_win_rate"], frame["default_ci_low"],
                                          frame["default_ci_high"]),
            "tuned [95% CI]": _interval(frame["tuned_win_rate"], frame["tuned_ci_low"], frame["tuned_ci_high"]),
            "change": [change_numbers(d, h) for d, h in zip(frame["improvement"], half, strict=True)],
            "significant": ["yes" if s else "no" for s in frame["significant"]]})
    if name == "cross_check":  # tune's: each rule's parameters against another rule's
        return pd.DataFrame({
            "strategy": frame["strategy"], "players": frame["players"], "under": frame["rules"],
            "its own parameters [95% CI]": _interval(frame["own_win_rate"], frame["own_ci_low"], frame["own_ci_high"]),
            "fair": [_pct(v) for v in frame["fair_share"]],
            "verdict": [cross_verdict(row) for row in frame.itertuples(index=False)]})
    if name == "rounds":
        return pd.DataFrame({"round": frame["round"], "mean": [_pct(v) for v in frame["mean_win_rate"]],
                             "best": [_pct(v) for v in frame["best_win_rate"]], "incumbent": frame["incumbent"]})
    return frame


def cross_verdict(row) -> str:
    """One line of tune's cross check in words."""
    if row.games == 0:
        return "same parameters"
    return "its own are better" if row.own_better else "the other's are better" if row.other_better else \
        "no significant difference"


def _shared_by(frame: pd.DataFrame) -> Game | None:
    """The game whose score sources' shares the frame holds (balance's per-rules table), or None."""
    return next((game for game in GAMES.values() if game.presentation.score_sources
                 and all(f"{s.name}_share" in frame for s in game.presentation.score_sources)), None)


def caption(name: str, frame: pd.DataFrame) -> str | None:
    """What the compact table's score columns hold, in words (the headers stay short), in the
    game's own terms: its unit and its sources (``Presentation.score_unit``, ``score_sources``)."""
    game = _scored(frame) if name in ("seats", "strategies") else _shared_by(frame) if name == "rules" else None
    if name in ("seats", "strategies") and "win_rate" in frame and "games" in frame:
        unit = game.presentation.score_unit if game is not None else "score"
        sources = ", ".join(s.shown for s in game.presentation.score_sources) if game is not None else ""
        text = f"{unit}: mean final {unit}"
        if sources:
            each = f"mean {unit} from each" if _per_source(game, frame) else f"the share of the {unit} from each"
            text += f"; {sources}: {each}"
        for column in _game_columns(frame):
            text += f"; {column.shown}: {column.caption}"
        return f"({text})"
    if name == "rules":
        unit = game.presentation.score_unit if game is not None else "points"
        shown = ", ".join(s.shown for s in game.presentation.score_sources) if game is not None else ""
        sources = f"{shown}: the share of all {unit} from each; " \
            if game is not None else ""
        return (f"({sources}margin: the winning margin, "
                f"the winners' mean lead over the best non-winner in {unit}, as in How the games went; "
                f"variant decided: games whose winners change when the variant's extra {unit} are taken away, "
                "n/a under rules without it)")
    return None


def print_table(title: str, frame: pd.DataFrame, name: str, wide: bool, explain: bool = True,
                keys: list[str] | None = None, summary: dict | None = None) -> None:
    """A titled table: its main columns in the terminal's width (``fit``), under their ``caption``
    (``explain``: the first table of its kind a command prints), or every column with ``wide``. A
    strategy played under rules it was not fitted to (the run's ``summary`` says which) is marked
    ``*``, with a footnote."""
    section(title if wide else wrapped(title, hang=1, width=width()))
    fitted = (summary or {}).get(FITTED_KEY, "")
    marked = [str(s).split(":")[0] in unfitted_names(fitted) for s in frame["strategy"]] if "strategy" in frame else []
    if fitted and any(marked):
        frame = frame.assign(strategy=[f"{s}*" if m else s for s, m in zip(frame["strategy"], marked, strict=True)])
    if wide:
        click.echo(frame.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    else:
        note = caption(name, frame) if explain else None
        if note:
            click.echo(wrapped(note, hang=1, width=width()))
        click.echo(fit(compact(name, frame), keys))
    if fitted and any(marked):
        click.echo(wrapped(f"* {fitted}", hang=2, width=width()))
