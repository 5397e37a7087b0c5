"""What a front end asks the API to watch and to open while it plays: progress, Ctrl-C, the checkpoint saved
after every batch, and the Dask cluster the games run on.

A command's options travel down once: the command line puts its --checkpoint, --scheduler and --cluster into a
:class:`Watch`, and the API (``api.play_run``, ``play_study``, ``play_sweep``, ``play_design``, ``play_tuning``)
starts the cluster, saves the checkpoints and closes what it opened; the command line opens neither itself.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

from .core import checkpoint
from .core.checkpoint import CheckpointError  # noqa: F401  what a front end catches of a checkpoint refused


@dataclass(frozen=True)
class Watch:
    """How a front end watches and steers what the API plays (nothing, for a notebook).

    ``progress(games)`` after each batch (and ``progress(0)`` as the games begin); ``stop``: once set, play
    ends early with what it has; ``on_more(games)`` with the games a study's next --precision round plays;
    ``compiling(kernel, seconds)`` while a kernel compiles; ``on_batch`` when the totals are consistent (a run's
    with the batch's totals, a study's with none, a sweep's or design's with (configuration, progress), a
    tuning's with the task's result), after the checkpoint is saved.

    What the API opens for it: ``checkpoint``, the file the command's checkpoint is saved in after every batch
    (``checkpoint_option``: the option that named it, for messages); ``scheduler`` (a Dask scheduler's
    address) or ``cluster`` (``local:N``): where the games play, the workers loading the plug-in files
    ``plugins``; or ``runner``, a runner already started (threads here when none is given)."""

    progress: Callable[[int], None] | None = None
    stop: threading.Event | None = None
    on_batch: Callable | None = None
    on_more: Callable[[int], None] | None = None
    runner: object = None
    compiling: Callable | None = None
    checkpoint: str | PathLike | None = None
    checkpoint_option: str = "--checkpoint"
    scheduler: str | None = None
    cluster: str | None = None
    plugins: Sequence[str] = ()

    def __post_init__(self):
        """The cluster's options checked at once, before any word of the command's (``opened`` starts it)."""
        from .core.arguments import ConfigError, named
        from .core.cluster import parse_cluster

        if self.scheduler is not None and self.cluster is not None:
            raise ConfigError(f"{named('scheduler')} and {named('cluster')} cannot be used together")
        if self.cluster is not None:
            parse_cluster(self.cluster)

    def save(self, command: str, configuration: dict, progress: dict) -> None:
        """Save ``command``'s checkpoint (its configuration and progress so far), if one was asked for."""
        if self.checkpoint is not None:
            checkpoint.save(self.checkpoint, command, configuration, progress, self.checkpoint_option)

    def saving(self, command: str, configuration: dict, progress: Callable[[], dict]) -> Callable | None:
        """``on_batch()`` for a study: its checkpoint saved with ``progress()``, then the front end's ``on_batch``;
        None when there is neither."""
        if self.checkpoint is None:
            return self.on_batch

        def on_batch(*args) -> None:
            self.save(command, configuration, progress())
            if self.on_batch is not None:
                self.on_batch(*args)
        return on_batch

    def saving_each(self, command: str) -> Callable | None:
        """``on_batch(configuration, progress)`` for a sweep or a design: saved, then the front end's."""
        if self.checkpoint is None:
            return self.on_batch

        def on_batch(configuration: dict, progress: dict) -> None:
            self.save(command, configuration, progress)
            if self.on_batch is not None:
                self.on_batch(configuration, progress)
        return on_batch


@contextmanager
def opened(watch: Watch) -> Iterator[object]:
    """The runner the games play on: ``watch.runner``, the cluster it names (started here, closed after), or
    None (threads)."""
    if watch.runner is not None or (watch.scheduler is None and watch.cluster is None):
        yield watch.runner
        return
    from .core.cluster import connect

    with connect(watch.scheduler, watch.cluster, tuple(str(Path(p).resolve()) for p in watch.plugins)) as runner:
        yield runner


def check_checkpoint_files(outputs: list[tuple[str, Path]], where: str | None, resume: str | None,
                           overwrite: bool) -> None:
    """Before any game: no output but the checkpoint replaces a saved run (``checkpoint.refuse_replacing``), and
    the checkpoint file ``where`` (--checkpoint) replaces no saved run unless ``overwrite`` (nor anything that
    is not a checkpoint: ``checkpoint.refuse_existing``)."""
    for option, path in outputs:
        if option not in ("--checkpoint", "--resume"):  # a saved run is replaced by its own checkpoints only
            checkpoint.refuse_replacing(option, path)
    if where:
        checkpoint.refuse_existing(where, resume, overwrite)
