"""One self-contained HTML page that answers a command's question (``--report FILE.html``).

Any command hands :class:`Report` its question, the answer in plain words, its sections
(text, tables, figures) and what reproduces it; :func:`write_report` writes the page
atomically. Nothing on the page loads from elsewhere: figures are base64 PNG (each figure is
a PNG writer, ``write(path)``, as study.plots makes them), the style sheet is inline, there is
no script. The answer is a short list; tables are in words (``with_intervals``: a value and its
95% interval, columns ``X``, ``X_ci_low``, ``X_ci_high``, in one cell; shares in percent, changes
in percentage points). Cells and text wrap, so a page 1,200 pixels wide needs no sideways
scrolling; it reads on a phone (tables scroll there) and prints (no backgrounds).
"""
from __future__ import annotations

import base64
import html
import os
import platform
import re
import shlex
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.output import OutputError, atomic_write, read_limited
from ..core.registry import GAMES
from ..core.stats import score_columns

MAX_FIGURE_BYTES = 64 << 20  # a figure the page inlines (a few hundred kB)

STYLE = """
:root { color-scheme: light; }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a;
       max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: 0.2rem 0 0.8rem; }
h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #ccc; }
.question { font-size: 1.1rem; color: #444; }
.answer { font-size: 1.1rem; background: #eef5ee; border-left: 4px solid #2e7d32; padding: 0.6rem 1rem; }
.answer ul { margin: 0.3rem 0 0; padding-left: 1.2rem; } .answer li { margin: 0.2rem 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 0.5rem 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.5rem; text-align: right; }
th { font-weight: 600; vertical-align: bottom; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f3f3f3; }
img { max-width: 100%; height: auto; }
pre { white-space: pre-wrap; font-size: 0.85rem; background: #f6f6f6; padding: 0.5rem; }
dt { font-weight: 600; } dd { margin: 0 0 0.4rem 1rem; font-family: monospace; word-break: break-all; }
@media (max-width: 40rem) { body { font-size: 15px; padding: 0.5rem; } h1 { font-size: 1.3rem; }
                            pre { font-size: 0.7rem; } }
@media print { body { max-width: none; font-size: 11pt; } .answer, thead th { background: none; }
               h2 { break-after: avoid; } table, img { break-inside: avoid; } .scroll { overflow: visible; }
               pre { white-space: pre-wrap; } }
"""


@dataclass
class Section:
    """A part of the page: a heading, then text, tables and figures (PNG writers)."""

    heading: str
    text: str = ""
    tables: Sequence[tuple[str, pd.DataFrame]] = ()  # (caption, table)
    figures: Sequence[Callable[[str], None]] = ()


@dataclass
class Report:
    """What a command hands the page: its question, the answer in words, sections, and what
    reproduces it (``reproduce``: seed, rules, component set ...; the command and versions are added)."""

    title: str
    question: str
    answer: str | Sequence[str]  # a short list of points a designer reads in seconds (or one sentence)
    sections: list[Section] = field(default_factory=list)
    reproduce: dict = field(default_factory=dict)
    note: str = ""  # a caution beside the answer (a strategy played under rules it was not fitted to)


def versions() -> dict[str, str]:
    """The versions a result depends on."""
    import numba

    from .._version import __version__

    return {"medici-sim": __version__, "python": platform.python_version(), "numpy": np.__version__,
            "numba": numba.__version__, "pandas": pd.__version__}


def command_line() -> str:
    """The command as given: the options the command line set (click records where each value
    came from), command by command, quoted for a shell; outside a command, the process's arguments."""
    import click
    from click.core import ParameterSource

    context = click.get_current_context(silent=True)
    if context is None:
        return " ".join(map(shlex.quote, sys.argv))
    chain = []
    while context is not None:
        chain.insert(0, context)
        context = context.parent
    words = ["medici-sim"]
    for depth, ctx in enumerate(chain):
        if depth:
            words.append(ctx.info_name)
        for param in ctx.command.params:
            if ctx.get_parameter_source(param.name) != ParameterSource.COMMANDLINE or not param.opts:
                continue
            value = ctx.params[param.name]
            if getattr(param, "is_flag", False):
                words.append(param.opts[0])
            else:
                words += [w for v in (value if param.multiple else [value]) for w in (param.opts[0], str(v))]
    return " ".join(map(shlex.quote, words))


# Columns as a designer reads them: shares as percentages, changes of shares in percentage points,
# headers in words (the --out files keep the names and the fractions).
HEADERS = {"shared_win_games": "joint winners", "margin": "winning margin",
           "margin_p25": "margin: a quarter at most", "margin_p50": "margin: median",
           "margin_p75": "margin: three quarters at most", "margin_p90": "margin: 90% at most",
           "seat1_win_rate": "seat 1 wins", "fair_win_rate": "fair share", "variant_decided_rate": "variant decided",
           "seat1_change": "seat 1's change", "above_rate": "finishes above", "mean_score": "score",
           "significant": "clear", "value": "change", "rules": "rules"}
# Headers named after a game's scoring moments (Game.engine.moment: comeback_after_phase1 -> "comeback after phase 1").
MOMENT_HEADERS = ((re.compile(r"^comeback_after_([a-z]+)(\d+)$"), r"comeback after \1 \2"),
                  (re.compile(r"^comeback_when_trailing_([a-z]+)(\d+)$"), r"won after trailing on \1 \2"),
                  (re.compile(r"^trailed_([a-z]+)(\d+)$"), r"games trailing after \1 \2"),
                  (re.compile(r"^ran_out_([a-z]+)_share$"), r"\1s run out"))


def score_headers() -> dict[str, str]:
    """The headers of every game's score columns, in its own terms (``Game.presentation.score_unit``,
    ``Game.presentation.score_sources``): mean_points -> "points", mean_region_points -> "points from regions"."""
    headers = {}
    for game in GAMES.values():
        names, unit = score_columns(game), game.presentation.score_unit
        headers |= {names["mean"]: unit, names["std"]: f"{unit}' standard deviation",
                    **{names[s.name]: f"{unit} from {s.shown}" for s in game.presentation.score_sources}}
    return headers


def header(column: str) -> str:
    """A column's header in words."""
    if column in HEADERS:
        return HEADERS[column]
    for pattern, words in MOMENT_HEADERS:
        if pattern.match(column):
            return pattern.sub(words, column)
    return score_headers().get(column, column.replace("_", " "))
POINTS = ("difference", "change", "improvement", "seat1_change", "seat_advantage", "value")  # changes of shares
PERCENTS = ("shared_win_games", "seat_spread", "strategy_spread", "fair_share")


def _kind(name: str) -> str:
    """How a column's numbers read: "points" (a change of a share), "percent" (a share) or "number"."""
    if name in POINTS or name.endswith("_change"):
        return "points"
    if (name in PERCENTS or name.endswith(("win_rate", "_share", "_rate"))
            or name.startswith(("comeback", "win_rate"))):
        return "percent"
    return "number"


def _cell(value, kind: str = "number") -> str:
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, int | np.integer):
        return f"{value:,}"
    if isinstance(value, float | np.floating):
        if np.isnan(value):
            return "n/a"
        if kind == "percent":
            return f"{100 * value:.1f}%"
        if kind == "points":
            return f"{100 * value:+.1f}".replace("-", "−")
        return f"{value:,.2f}".rstrip("0").rstrip(".") if abs(value) < 1000 else f"{value:,.1f}"
    return str(value)


def _bounds(frame: pd.DataFrame, column: str) -> tuple[str, str] | None:
    """The columns holding ``column``'s 95% interval (X_ci_low, or seat1_ci_low for seat1_win_rate)."""
    for stem in (column, column.removesuffix("_win_rate")):
        if f"{stem}_ci_low" in frame and f"{stem}_ci_high" in frame:
            return f"{stem}_ci_low", f"{stem}_ci_high"
    return None


def with_intervals(frame: pd.DataFrame) -> pd.DataFrame:
    """The table in words: headers in words, each ``X`` beside its interval as "x (low-high)", shares
    in percent, changes of shares in percentage points, yes and no, n/a where a value does not apply."""
    bounds = {column: _bounds(frame, column) for column in frame.columns}
    hidden = {name for pair in bounds.values() if pair for name in pair}
    out = {}
    for column in frame.columns:
        if column in hidden:
            continue
        kind = _kind(column)
        values = [_cell(v, kind) for v in frame[column]]
        if bounds[column]:
            low, high = bounds[column]
            sep = " to " if kind == "points" else "–"
            values = [f"{v} ({_cell(lo, kind).removesuffix('%')}{sep}{_cell(hi, kind).removesuffix('%')})"
                      if v != "n/a" else v for v, lo, hi in zip(values, frame[low], frame[high], strict=True)]
        numeric = pd.api.types.is_numeric_dtype(frame[column]) and not pd.api.types.is_bool_dtype(frame[column])
        out[header(column) + (" (points)" if kind == "points" and numeric else "")] = values
    return pd.DataFrame(out)


def _table(caption: str, frame: pd.DataFrame) -> str:
    body = with_intervals(frame).to_html(index=False, border=0, escape=True)
    return f"<p><strong>{html.escape(caption)}</strong></p>\n<div class=\"scroll\">{body}</div>"


def _figure(write: Callable[[str], None]) -> str:
    """A figure as an inline PNG (written to a temporary file by its writer, then read back)."""
    handle, path = tempfile.mkstemp(suffix=".png")
    os.close(handle)
    try:
        write(path)
        data = base64.b64encode(read_limited(path, MAX_FIGURE_BYTES, "--report's figure")).decode("ascii")
    finally:
        os.unlink(path)
    return f"<p><img alt=\"figure\" src=\"data:image/png;base64,{data}\"></p>"


def _answer(answer: str | Sequence[str]) -> str:
    if isinstance(answer, str):
        return f"<div class=\"answer\" id=\"answer\"><strong>Answer:</strong> {html.escape(answer)}</div>"
    points = "".join(f"<li>{html.escape(point)}</li>" for point in answer)
    return f"<div class=\"answer\" id=\"answer\"><strong>Answer:</strong><ul>{points}</ul></div>"


def render(report: Report) -> str:
    """The page's HTML."""
    parts = [f"<h1>{html.escape(report.title)}</h1>",
             f"<p class=\"question\"><strong>Question:</strong> {html.escape(report.question)}</p>",
             _answer(report.answer)]
    if report.note:
        parts.append(f"<p class=\"note\"><strong>Note:</strong> {html.escape(report.note)}</p>")
    for section in report.sections:
        parts.append(f"<h2>{html.escape(section.heading)}</h2>")
        if section.text:
            parts.append(f"<pre>{html.escape(section.text)}</pre>")
        parts += [_table(caption, frame) for caption, frame in section.tables if frame is not None and len(frame)]
        parts += [_figure(write) for write in section.figures]
    reproduce = {"command": command_line(), **report.reproduce, **versions()}
    parts.append("<h2>How to reproduce it</h2>\n<dl>" + "".join(
        f"<dt>{html.escape(str(k))}</dt><dd>{html.escape(str(v))}</dd>" for k, v in reproduce.items()) + "</dl>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(report.title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(parts) + "\n</body>\n</html>\n")


def write_report(path: str | Path, report: Report) -> None:
    """Write the page to ``path`` all at once (a temporary file renamed into place)."""
    atomic_write(Path(path), report_writer(report), "--report")


def check_report_path(path: str | Path) -> Path:
    """``--report``: an .html file name, and matplotlib installed for its figures (checked before any game)."""
    path = Path(path)
    if path.suffix.lower() not in (".html", ".htm"):
        raise OutputError(f"--report {path}: the file name must end in .html")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OutputError("--report needs matplotlib for its figures: pip install 'medici-sim[analysis]'") from None
    return path


def report_writer(report: Report) -> Callable[[str], None]:
    """The page's writer, ``write(path)``, for a command's set of files written all or none
    (core.output.atomic_write_all)."""
    text = render(report)
    return lambda tmp: Path(tmp).write_text(text, encoding="utf-8")
