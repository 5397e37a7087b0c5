"""One self-contained HTML page that answers a command's question (``--report FILE.html``).

Any command hands :class:`Report` its question, the answer in plain words, its sections
(text, tables, figures) and what reproduces it; :func:`write_report` writes the page
atomically. Nothing on the page loads from elsewhere: figures are base64 PNG (each figure is
a PNG writer, ``write(path)``, as study.plots makes them), the style sheet is inline, there is
no script. Tables join a value and its 95% interval (columns ``X``, ``X_ci_low``,
``X_ci_high``) into one cell. The style reads on a phone (one column, tables scroll sideways)
and prints (no backgrounds, tables kept whole where they fit).
"""
from __future__ import annotations

import base64
import html
import os
import platform
import shlex
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.output import OutputError, atomic_write, read_limited

MAX_FIGURE_BYTES = 64 << 20  # a figure the page inlines (a few hundred kB)

STYLE = """
:root { color-scheme: light; }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a;
       max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: 0.2rem 0 0.8rem; }
h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #ccc; }
.question { font-size: 1.1rem; color: #444; }
.answer { font-size: 1.1rem; background: #eef5ee; border-left: 4px solid #2e7d32; padding: 0.6rem 1rem;
          white-space: pre-wrap; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 0.5rem 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f3f3f3; }
img { max-width: 100%; height: auto; }
pre { white-space: pre; overflow-x: auto; font-size: 0.85rem; background: #f6f6f6; padding: 0.5rem; }
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
    reproduces it (``reproduce``: seed, rules, deck ...; the command and versions are added)."""

    title: str
    question: str
    answer: str
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


def _cell(value) -> str:
    if isinstance(value, float | np.floating):
        if np.isnan(value):
            return ""
        return f"{value:,.4f}".rstrip("0").rstrip(".") if abs(value) < 1000 else f"{value:,.1f}"
    return str(value)


def with_intervals(frame: pd.DataFrame) -> pd.DataFrame:
    """The table as text, each ``X`` beside its ``X_ci_low`` and ``X_ci_high`` as "x (low-high)"."""
    out = {}
    for column in frame.columns:
        if column.endswith(("_ci_low", "_ci_high")) and column.rsplit("_ci_", 1)[0] in frame:
            continue
        values = [_cell(v) for v in frame[column]]
        if f"{column}_ci_low" in frame and f"{column}_ci_high" in frame:
            values = [f"{v} ({_cell(lo)}–{_cell(hi)})" if v else v
                      for v, lo, hi in zip(values, frame[f"{column}_ci_low"], frame[f"{column}_ci_high"], strict=True)]
        out[column] = values
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


def render(report: Report) -> str:
    """The page's HTML."""
    parts = [f"<h1>{html.escape(report.title)}</h1>",
             f"<p class=\"question\"><strong>Question:</strong> {html.escape(report.question)}</p>",
             f"<div class=\"answer\" id=\"answer\"><strong>Answer:</strong> {html.escape(report.answer)}</div>"]
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
