"""Checkpoints: a run's configuration and additive statistics, saved after every batch.

A checkpoint is a JSON file written atomically (temporary file, then rename), so a
crash or a kill never leaves half of one. ``--resume`` refuses a checkpoint whose format,
command or configuration (rules, deck contents, strategies and parameters, seed,
seating, games) differs from the command line's, and says what differs.
"""
from __future__ import annotations

import json
from pathlib import Path

from .. import __version__
from .output import atomic_write

FORMAT = 1  # bump when the statistics layout changes: older checkpoints are refused


class CheckpointError(ValueError):
    """A checkpoint that cannot be used for this run; the message says why."""


def strategies_identity(strategies) -> list:
    """Each strategy slot's name and parameter values."""
    return [[s.name, dict(s.params)] for s in strategies]


def deck_identity(deck) -> dict | None:
    """The deck's contents (not its file name: a moved deck file still resumes); None for no deck."""
    if deck is None:
        return None
    return {"cards": deck.n_cards, "fingerprint": deck.fingerprint(), "contents": deck.to_csv()}


def save(path: str | Path, command: str, configuration: dict, progress: dict) -> None:
    document = {"format": FORMAT, "version": __version__, "command": command,
                "configuration": configuration, "progress": progress}
    text = json.dumps(document)
    atomic_write(Path(path), lambda tmp: Path(tmp).write_text(text))


def load(path: str | Path, command: str, configuration: dict) -> dict:
    """The progress saved in ``path``, if it was saved by this command with this configuration."""
    path = Path(path)
    try:
        document = json.loads(path.read_text())
    except OSError as exc:
        raise CheckpointError(f"--resume {path}: cannot read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise CheckpointError(f"--resume {path}: not a medici-sim checkpoint") from None
    if not isinstance(document, dict) or "format" not in document:
        raise CheckpointError(f"--resume {path}: not a medici-sim checkpoint")
    if document["format"] != FORMAT:
        raise CheckpointError(f"--resume {path}: statistics format {document['format']}, "
                              f"this version of medici-sim ({__version__}) uses format {FORMAT}")
    if document.get("command") != command:
        raise CheckpointError(f"--resume {path}: saved by `{document.get('command')}`, not `{command}`")
    saved = document.get("configuration", {})
    for key in sorted(set(saved) | set(configuration)):
        if saved.get(key) != configuration.get(key):
            raise CheckpointError(f"--resume {path}: the {key} differs (checkpoint: {_show(saved.get(key))}; "
                                  f"now: {_show(configuration.get(key))})")
    return document["progress"]


def _show(value) -> str:
    text = json.dumps(value)
    return text if len(text) <= 120 else text[:117] + "..."
