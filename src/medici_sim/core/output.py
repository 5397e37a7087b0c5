"""The user's files: bounded reads, checked paths and atomic writes.

- Reads are bounded (:func:`read_limited`): a file far larger than any real one, or one
  that is not a regular file (a FIFO would block, a device never ends), is refused.
- Every file a run will write is checked before the first game (:func:`check_plan`): it
  must be a regular file or not exist yet, a file that can be written where it goes (the
  very temporary file its write will use is made and removed), and it must be neither an
  input of the run (a component set, a plug-in) nor another output of it, nor named like
  medici-sim's own lock and temporary files.
- One writer per file: a run holds a lock on every file it writes (:func:`lock_all`) from
  before its first game to its end, so no two runs write one file (two runs with one
  ``--out``, or one's ``--out`` another's ``--checkpoint``).
- Writes are atomic (:func:`atomic_write`, :func:`write_tables`): each file goes to a
  temporary name beside it and is renamed into place, a set of files only once every one
  of them is written. New files get the user's usual permissions (umask); an existing
  file keeps its mode. A failure (a full disk) leaves no file half-written and names the path.

Result tables: JSON holds every table and the run summary in one object; CSV and Parquet
hold the first (main) table at the given path and each further table, the run summary
last, beside it as ``<stem>-<table>.<ext>``.
"""
from __future__ import annotations

import fcntl
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from .arguments import named

if TYPE_CHECKING:  # pandas is loaded only by what writes tables (the engines read files through here)
    import pandas as pd

FORMATS = (".csv", ".parquet", ".json")
_WORKING_FILE = re.compile(r"\..+\.(lock|tmp)")  # lock_path's and _temporary_beside's names


class OutputError(ValueError):
    """A path that cannot be read or written as asked; the message names it."""


class NotRegularFile(OSError):
    """A path that names something other than a regular file (``kind`` says what)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


class TooLarge(OSError):
    """A file of more bytes than the reader takes (``size``: as many as were seen)."""

    def __init__(self, size: int):
        super().__init__(f"{size} bytes")
        self.size = size


def file_kind(mode: int) -> str:
    """What a stat mode names, in words ("a directory", "a FIFO", ...)."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def read_regular(path: str | Path, limit: int, whole: bool = True) -> bytes:
    """The bytes of regular file ``path``: all of them (``whole``; more than ``limit``:
    TooLarge), or its first ``limit``. Nothing but a regular file is ever read: its opening
    never blocks (a FIFO would), and one replaced since it was looked at is refused too
    (NotRegularFile). Other failures are the OSError (or, for a NUL in the name, ValueError)."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise NotRegularFile(file_kind(info.st_mode))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(file_kind(info.st_mode))
        if whole and info.st_size > limit:
            raise TooLarge(info.st_size)
        chunks, size = [], 0
        while size <= limit - (not whole):
            chunk = os.read(fd, min(1 << 20, limit + whole - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if whole and size > limit:  # grew while we read
            raise TooLarge(size)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_limited(path: str | Path, limit: int, option: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, else OutputError."""
    path = Path(path)
    try:
        return read_regular(path, limit)
    except NotRegularFile:
        raise OutputError(f"{option} {path}: not a regular file") from None
    except TooLarge:
        raise OutputError(f"{option} {path}: larger than {limit:,} bytes; not a medici-sim file") from None
    except OSError as exc:
        raise OutputError(f"{option} {path}: cannot read ({exc.strerror or exc})") from None


def same_file(a: Path, b: Path) -> bool:
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_writable(option: str, path: Path) -> Path:
    """``path`` can be created or replaced by a regular file: fail early if not."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise OutputError(f"{option} {path}: cannot use ({getattr(exc, 'strerror', None) or exc})") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{option} {path}: is a directory")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise OutputError(f"{option} {path}: not a regular file; refusing to replace it")
    if _WORKING_FILE.fullmatch(Path(path).name):
        raise OutputError(f"{option} {path}: medici-sim names its lock and temporary files so (.NAME.lock, "
                          ".NAME.*.tmp); choose another name")
    target = Path(os.path.realpath(path))
    try:  # the write's own temporary file: a name too long for the file system fails here, not after the run
        os.unlink(_temporary_beside(target))
    except OSError as exc:
        raise OutputError(f"{option} {path}: cannot write in {target.parent} ({exc.strerror or exc})") from None
    return path


def check_out_path(path: str | Path) -> Path:
    """``--out``: a known format whose library is installed."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise OutputError(f"{named('out')} {path}: the extension must be one of {', '.join(FORMATS)}")
    if path.suffix.lower() == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise OutputError(f"{named('out')} *.parquet needs pyarrow: pip install 'medici-sim[parquet]'") from None
    return path


def check_plot_path(path: str | Path) -> Path:
    """``--plot``: a .png file name, and matplotlib installed (checked before any game)."""
    path = Path(path)
    if path.suffix.lower() != ".png":
        raise OutputError(f"{named('plot')} {path}: the file name must end in .png")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OutputError(f"{named('plot')} needs matplotlib: pip install 'medici-sim[analysis]'") from None
    return path


def check_plan(outputs: list[tuple[str, Path]], inputs: list[tuple[str, Path]]) -> None:
    """Refuse, before any game, a run whose outputs (option, path) cannot all be written, or
    would replace one of its inputs (option, path) or each other."""
    for k, (option, path) in enumerate(outputs):
        check_writable(option, path)
        for other_option, other in inputs:
            if same_file(path, other):
                raise OutputError(f"{option} {path} is the run's {other_option} file; refusing to overwrite it")
        for other_option, other in outputs[:k]:
            if same_file(path, other):
                raise OutputError(f"{option} {path} is also written as {other_option}; give them different files")


def lock_path(path: str | Path) -> Path:
    """The sidecar file :func:`lock` locks: ``.NAME.lock`` beside the file written (the one
    a symbolic link points to)."""
    target = Path(os.path.realpath(path))
    return target.with_name(f".{target.name}.lock")


@contextmanager
def lock(option: str, path: str | Path) -> Iterator[Path]:
    """Hold an exclusive lock on output ``path`` for the whole run (a sidecar file,
    ``flock``ed, holding this process's id; removed on exit). Another process holding it:
    OutputError naming its pid."""
    try:
        sidecar = lock_path(path)
    except ValueError as exc:  # a NUL in the name
        raise OutputError(f"{option} {path}: cannot use it ({exc})") from None
    while True:
        try:
            fd = os.open(sidecar, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
        except (OSError, ValueError) as exc:
            raise OutputError(f"{option} {path}: cannot create the lock file {sidecar} "
                              f"({getattr(exc, 'strerror', None) or exc})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            pid = pid if pid.isdigit() else "unknown"
            raise OutputError(f"{option} {path} is being written by another medici-sim run (pid {pid})") from None
        except OSError as exc:
            os.close(fd)
            raise OutputError(f"{option} {path}: cannot lock {sidecar} ({exc.strerror or exc})") from None
        if _is_open_file(fd, sidecar):  # the holder before us may have removed it between our open and our lock
            break
        os.close(fd)
    if not os.read(fd, 64).strip().isdigit() and os.fstat(fd).st_size:  # not one of ours: someone's file
        os.close(fd)
        raise OutputError(f"{option} {path}: {sidecar} is in the way of its lock file and is not one; refusing to "
                          "replace it")
    try:
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError as exc:  # a full disk
            raise OutputError(f"{option} {path}: cannot write the lock file {sidecar} ({exc.strerror or exc})") \
                from None
        yield sidecar
    finally:
        if _is_open_file(fd, sidecar):  # never another file put in its place
            os.unlink(sidecar)
        os.close(fd)


def _is_open_file(fd: int, path: Path) -> bool:
    try:
        held, there = os.fstat(fd), os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    return (held.st_dev, held.st_ino) == (there.st_dev, there.st_ino)


@contextmanager
def lock_all(outputs: list[tuple[str, Path]]) -> Iterator[None]:
    """Hold :func:`lock` on every (option, path) for the block."""
    with ExitStack() as stack:
        for option, path in outputs:
            stack.enter_context(lock(option, path))
        yield


def _new_file_mode(path: Path) -> int:
    """An existing file keeps its mode; a new one gets the user's umask, as ``open`` would."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _temporary_beside(path: Path) -> str:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    os.chmod(tmp, _new_file_mode(path))
    return tmp


def atomic_write_all(writes: list[tuple[str, Path, Callable[[str], None]]]) -> None:
    """Write a set of files (option, path, write(temporary path)): every file goes to a
    temporary name first, and they are renamed into place only once all are written."""
    done: list[tuple[str, Path]] = []
    try:
        for option, path, write in writes:
            target = Path(os.path.realpath(path))  # a symbolic link keeps pointing at the new file
            done.append((_temporary_beside(target), target))
            try:
                write(done[-1][0])
            except OSError as exc:
                raise OutputError(f"{option} {path}: cannot write ({exc.strerror or exc})") from None
        for (tmp, target), (option, path, _) in zip(done, writes, strict=True):
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise OutputError(f"{option} {path}: cannot write ({exc.strerror or exc})") from None
    finally:
        for tmp, _ in done:
            if os.path.exists(tmp):
                os.unlink(tmp)


def atomic_write(path: Path, write: Callable[[str], None], option: str) -> None:
    """Write one file through ``write(temporary_path)`` and rename it into place (``option``: the
    option or argument that named the file, for the message of a failed write)."""
    atomic_write_all([(option, Path(path), write)])


def table_paths(path: str | Path, names: list[str]) -> dict[str, Path]:
    """Where each table goes: the first at ``path``, the others beside it (CSV, Parquet)."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        return {name: path for name in names}
    return {name: path if i == 0 else path.with_name(f"{path.stem}-{name}{path.suffix}")
            for i, name in enumerate(names)}


def out_files(path: str | Path, names: list[str]) -> list[tuple[str, Path]]:
    """Every (option, path) ``write_tables`` will write for tables ``names`` (summary included)."""
    paths = table_paths(path, [*names, "summary"])
    return [("--out", p) for p in dict.fromkeys(paths.values())]


def table_writes(path: str | Path, tables: dict[str, pd.DataFrame], summary: dict) -> list[tuple]:
    """The (option, path, write) set that writes ``tables`` (the first is the main one)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        document = {"summary": summary, **{name: json.loads(t.to_json(orient="records", double_precision=15))
                                           for name, t in tables.items()}}
        text = json.dumps(document, indent=2) + "\n"
        return [("--out", path, lambda tmp: Path(tmp).write_text(text))]
    import pandas as pd

    tables = {**tables, "summary": pd.DataFrame([summary])}
    writes = []
    for name, target in table_paths(path, list(tables)).items():
        table = tables[name]
        if suffix == ".csv":
            writes.append(("--out", target, lambda tmp, t=table: t.to_csv(tmp, index=False)))
        else:
            writes.append(("--out", target, lambda tmp, t=table: t.to_parquet(tmp, index=False)))
    return writes


def write_tables(path: str | Path, tables: dict[str, pd.DataFrame], summary: dict) -> list[Path]:
    """Write ``tables`` as one set of files; return the files written."""
    writes = table_writes(path, tables, summary)
    atomic_write_all(writes)
    return [target for _, target, _ in writes]
