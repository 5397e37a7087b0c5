"""Writing result tables: CSV, Parquet or JSON by extension, always atomically.

A run's tables are written in one go: JSON holds every table and the run summary in one
object; CSV and Parquet hold the first (main) table at the given path and each further
table, the run summary last, beside it as ``<stem>-<table>.<ext>``. Every file goes to a temporary name in the
same directory first and is renamed into place, so no reader ever sees half a file.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pandas as pd

FORMATS = (".csv", ".parquet", ".json")


class OutputError(ValueError):
    """An output path that cannot be written."""


def check_writable(option: str, path: Path) -> Path:
    if path.is_dir():
        raise OutputError(f"{option} {path}: is a directory")
    directory = path.parent if str(path.parent) else Path(".")
    try:
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".medici-sim-probe-"):
            pass
    except OSError as exc:
        raise OutputError(f"{option} {path}: cannot write in {directory} ({exc.strerror or exc})") from None
    return path


def check_output_path(path: str | Path) -> Path:
    """Fail early (before any games are played) if ``path`` cannot be written."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise OutputError(f"--out {path}: the extension must be one of {', '.join(FORMATS)}")
    if path.suffix.lower() == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise OutputError("--out *.parquet needs pyarrow: pip install 'medici-sim[parquet]'") from None
    return check_writable("--out", path)


def check_plot_path(path: str | Path) -> Path:
    """Fail early if ``path`` is not a writable .png file name."""
    path = Path(path)
    if path.suffix.lower() != ".png":
        raise OutputError(f"--plot {path}: the file name must end in .png")
    return check_writable("--plot", path)


def atomic_write(path: Path, write) -> None:
    """Write through ``write(temporary_path)`` and rename into place."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def table_paths(path: str | Path, names: list[str]) -> dict[str, Path]:
    """Where each table goes: the first at ``path``, the others beside it (CSV, Parquet)."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        return {name: path for name in names}
    return {name: path if i == 0 else path.with_name(f"{path.stem}-{name}{path.suffix}")
            for i, name in enumerate(names)}


def write_tables(path: str | Path, tables: dict[str, pd.DataFrame], summary: dict) -> list[Path]:
    """Write ``tables`` (the first is the main one) and return the files written."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        document = {"summary": summary, **{name: json.loads(t.to_json(orient="records", double_precision=15))
                                           for name, t in tables.items()}}
        atomic_write(path, lambda tmp: Path(tmp).write_text(json.dumps(document, indent=2) + "\n"))
        return [path]
    tables = {**tables, "summary": pd.DataFrame([summary])}
    written = []
    for name, target in table_paths(path, list(tables)).items():
        table = tables[name]
        if suffix == ".csv":
            atomic_write(target, lambda tmp, t=table: t.to_csv(tmp, index=False))
        else:
            atomic_write(target, lambda tmp, t=table: t.to_parquet(tmp, index=False))
        written.append(target)
    return written
