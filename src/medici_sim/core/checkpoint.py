"""Checkpoints: a command's configuration and progress, saved after every batch.

A checkpoint is a JSON document, ``{"format", "version", "command", "configuration",
"progress", "checksum"}``, written atomically (``output.atomic_write``), so a crash or a
kill never leaves half of one. Resuming trusts nothing it reads: :func:`read` checks a
checkpoint completely before any game is played (size, encoding, JSON without NaN,
infinities or repeated keys, the envelope, then the command's own format, which checks
structure, types, ranges and the statistics' consistency), and refuses anything else with
one line starting ``--resume PATH:``. A hand-edited, truncated or corrupted checkpoint is
refused, never half-used.

A checkpoint also records a checksum of its contents, checked after everything else: an
edit that keeps every rule (another seed, a counter nudged, a changed parameter) is refused
too, and any broken rule is named rather than hidden behind the checksum.

- :func:`save`, :func:`read` ``(path, SavedFormat) -> Saved``, :func:`load`.
- :func:`refuse_existing`: ``--checkpoint FILE`` never overwrites a saved run (unless asked
  to) nor a file that is not a checkpoint; :func:`refuse_replacing`: no other output
  (``--out``, ``--plot``) ever overwrites a saved run. One writer per file: ``output.lock``.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .._version import __version__
from .arguments import named
from .output import NotRegularFile, TooLarge, atomic_write, file_kind, read_regular
from .saved import Invalid, as_text, check_keys, one_line, show

FORMAT = 4  # bump when the layout changes: older checkpoints are refused
MAX_CHECKPOINT_BYTES = 64 << 20  # far above any real checkpoint (a few kB); bigger files are not read
DOCUMENT_KEYS = ("format", "version", "command", "configuration", "progress")  # and "checksum", of these
# a configuration's keys that older versions wrote under another name -> today's name (both are read)
OLDER_KEYS = {"deck": "components", "variant": "rules"}  # keep: old name
_COMMAND = re.compile(r"[a-z][a-z-]{0,30}")  # a command's name, shown as it is
_CHECKPOINT_START = re.compile(rb'\s*\{\s*"format"\s*:\s*-?\d+\s*,\s*"version"\s*:')


class CheckpointError(ValueError):
    """A checkpoint that cannot be used for this run; the message says why, in one line."""


@dataclass(frozen=True)
class SavedFormat:
    """What one command saves: its name, and the check of its configuration and progress
    (raising ``saved.Invalid``), written next to the command: ``core.run_saved`` (the main
    run), ``study.tournament_saved`` (compare, balance), ``study.tune_saved`` (tune)."""

    command: str
    check: Callable[[object, object], None]


@dataclass(frozen=True)
class Saved:
    """A checkpoint that passed every check of :func:`read`."""

    command: str  # the SavedFormat's command
    configuration: dict  # as the command saved it (``run_saved.run_configuration``, ``studies.configuration``)
    progress: dict  # {"totals": Totals.to_dict()} or {"tournaments": [Tournament.progress(), ...]}


# ---------------------------------------------------------------- writing

def save(path: str | Path, command: str, configuration: dict, progress: dict, option: str = "--checkpoint") -> None:
    """Save a checkpoint at ``path``, given by ``option`` (``--checkpoint``, or ``--resume`` when
    checkpoints go on to the resumed file): a failed write names it."""
    document = {"format": FORMAT, "version": __version__, "command": command,
                "configuration": configuration, "progress": progress}
    document["checksum"] = _checksum(document)
    text = json.dumps(document, allow_nan=False)
    if len(text) > MAX_CHECKPOINT_BYTES:
        raise CheckpointError(f"{option} {as_text(path)}: the checkpoint would take {len(text)} bytes, "
                              f"more than the {MAX_CHECKPOINT_BYTES} a checkpoint may")
    atomic_write(Path(path), lambda tmp: Path(tmp).write_text(text), option)


def refuse_existing(path: str | Path, resume_path: str | Path | None = None, overwrite: bool = False) -> None:
    """Refuse to start a run whose ``--checkpoint`` would overwrite something.

    A missing or empty file, or the file being resumed, is fine. A saved run is refused
    unless ``overwrite`` (``--overwrite-checkpoint``); a file that is not a medici-sim
    checkpoint, and anything that is not a regular file (directory, FIFO, device), always.
    Nothing but a regular file is ever opened (a FIFO would block).
    """
    shown = as_text(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise CheckpointError(f"--checkpoint {shown}: cannot use it ({getattr(exc, 'strerror', None) or exc})") \
            from None
    if not stat.S_ISREG(info.st_mode):
        raise CheckpointError(f"--checkpoint {shown} is {file_kind(info.st_mode)}, not a regular file; "
                              "refusing to use it")
    if resume_path is not None:
        try:
            resumed = os.stat(resume_path)
        except (OSError, ValueError):
            resumed = None
        if resumed is not None and (resumed.st_dev, resumed.st_ino) == (info.st_dev, info.st_ino):
            return  # the run being continued goes on saving to its own file
    if info.st_size == 0:
        return
    head = _read_head(path, "--checkpoint", shown)
    if not _CHECKPOINT_START.match(head):
        raise CheckpointError(f"--checkpoint {shown} exists and is not a medici-sim checkpoint; "
                              "refusing to overwrite it")
    if not overwrite:
        raise CheckpointError(f"--checkpoint {shown} already holds a run: continue it with --resume {shown}, "
                              "or start over with --overwrite-checkpoint")


def refuse_replacing(option: str, path: str | Path) -> None:
    """Refuse an output other than a run's checkpoint (``--out``, ``--plot``) that would
    replace a saved run: only the run a checkpoint holds writes over it (or
    ``--checkpoint FILE --overwrite-checkpoint``, see :func:`refuse_existing`)."""
    shown = as_text(path)
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return  # nothing there (what else is wrong with the path, output.check_writable says)
    if stat.S_ISREG(info.st_mode) and info.st_size and _CHECKPOINT_START.match(_read_head(path, option, shown)):
        raise CheckpointError(f"{option} {shown} holds a saved medici-sim run (a checkpoint); refusing to overwrite "
                              f"it: continue that run with --resume {shown}, or delete the file first")


def _read_head(path, option: str, shown: str, size: int = 4096) -> bytes:
    try:
        return read_regular(path, size, whole=False)
    except NotRegularFile:  # replaced since the stat
        raise CheckpointError(f"{option} {shown} is not a regular file; refusing to use it") from None
    except OSError as exc:
        raise CheckpointError(f"{option} {shown}: cannot read it ({exc.strerror or exc})") from None


# ---------------------------------------------------------------- reading

def read(path: str | Path, saved_format: SavedFormat) -> Saved:
    """The checkpoint at ``path``, saved by ``saved_format``'s command, checked completely (module doc).

    Anything wrong: CheckpointError ``--resume PATH: what is wrong`` (one line; ``resume= PATH``
    in the Python API)."""
    try:
        try:
            document = _parse(_read_bytes(path))
            return _validate(document, saved_format)
        except RecursionError:  # a value nested almost as deep as the parser allows, compared or shown
            raise Invalid("not a medici-sim checkpoint (JSON nested too deeply)") from None
    except Invalid as exc:
        raise CheckpointError(one_line(f"{named('resume')} {as_text(path)}: {exc}")) from None


def load(path: str | Path, saved_format: SavedFormat, configuration: dict) -> dict:
    """The progress saved in ``path`` (checked by :func:`read`), if it was saved by this
    format's command with exactly this configuration (the behaviour of format 1: every key compared)."""
    saved = read(path, saved_format)
    for key in sorted(set(saved.configuration) | set(configuration)):
        if saved.configuration.get(key) != configuration.get(key):
            raise CheckpointError(one_line(
                f"{named('resume')} {as_text(path)}: the {key} differs "
                f"(checkpoint: {show(saved.configuration.get(key))}; now: {show(configuration.get(key))})"))
    return saved.progress


def _read_bytes(path) -> bytes:
    try:
        return read_regular(path, MAX_CHECKPOINT_BYTES)
    except FileNotFoundError:
        raise Invalid("no such file") from None
    except NotRegularFile as exc:
        raise Invalid(f"{exc.kind}, not a checkpoint file") from None
    except TooLarge as exc:
        raise Invalid(f"{exc.size} bytes, more than any checkpoint ({MAX_CHECKPOINT_BYTES} at most)") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise Invalid(f"cannot read it ({getattr(exc, 'strerror', None) or exc})") from None


def _parse(data: bytes):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Invalid("not a medici-sim checkpoint (not UTF-8 text)") from None
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float, object_pairs_hook=_no_twice)
    except Invalid:
        raise
    except RecursionError:
        raise Invalid("not a medici-sim checkpoint (JSON nested too deeply)") from None
    except json.JSONDecodeError as exc:
        raise Invalid(f"not a medici-sim checkpoint (not JSON: {exc.msg} at byte {exc.pos})") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise Invalid(f"not a medici-sim checkpoint (not JSON: {exc})") from None


def _no_constant(name: str):
    raise Invalid(f"{name} in the checkpoint: a checkpoint holds finite numbers only")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Invalid(f"{show(text)} in the checkpoint: a checkpoint holds finite numbers only")
    return value


def _no_twice(pairs: list) -> dict:
    out = {}
    for key, value in pairs:
        if key in out:
            raise Invalid(f"the key {show(key)} appears twice in one object")
        out[key] = value
    return out


def _validate(document, saved_format: SavedFormat) -> Saved:
    command = saved_format.command
    if not isinstance(document, dict) or "format" not in document:
        raise Invalid("not a medici-sim checkpoint")
    if type(document["format"]) is not int or document["format"] != FORMAT:
        raise Invalid(f"statistics format {show(document['format'])}, this version of medici-sim ({__version__}) "
                      f"uses format {FORMAT}")
    if document.get("command") != command:
        saved = document.get("command")
        raise Invalid(f"saved by `{saved if _COMMAND.fullmatch(str(saved)) else show(saved)}`, not `{command}`")
    check_keys(document, "the checkpoint", (*DOCUMENT_KEYS, "checksum"))
    if type(document["version"]) is not str or len(document["version"]) > 100:
        raise Invalid(f"version is {show(document['version'])}, not a version string")
    configuration, progress = _renamed(document["configuration"]), document["progress"]
    saved_format.check(configuration, progress)
    if document["checksum"] != _checksum(document):  # last: a broken rule is named first
        raise Invalid("its checksum does not match its contents: the file was edited or corrupted")
    return Saved(command, configuration, progress)


def _renamed(configuration):
    """A configuration with the keys older versions wrote under other names (``OLDER_KEYS``) renamed: its own and
    those of its entries (a study's tournaments and a tuning's tasks in lists, a design's tournament; not a
    component set's own document); nothing deeper, so that a value nested deep is the format check's to refuse.
    The checksum is of the file as written."""
    if not isinstance(configuration, dict):
        return configuration
    return current_keys({key: [current_keys(e) for e in value] if isinstance(value, list)
                         else current_keys(value) if OLDER_KEYS.get(key, key) != "components" else value
                         for key, value in configuration.items()})


def current_keys(entry, older: dict[str, str] = OLDER_KEYS):
    """A saved entry (a dict; anything else as it is) with the keys ``older`` names under today's names; as it
    is where it holds both names of one key (its format's check refuses it)."""
    if not isinstance(entry, dict) or not older.keys() & entry.keys():
        return entry
    new = {older.get(key, key): value for key, value in entry.items()}
    return new if len(new) == len(entry) else entry


def _checksum(document: dict) -> str:
    """A hash of the document's contents (not of its layout: key order and spacing do not count)."""
    text = json.dumps({key: document[key] for key in DOCUMENT_KEYS}, sort_keys=True, separators=(",", ":"),
                      allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()
