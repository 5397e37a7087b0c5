"""Telling that a kernel compiles: the notice's words and estimate, the timer that tells it.

A first run of a new set of strategies compiles its kernel (seconds to a minute); later runs
load it from numba's cache in a fraction of a second. Whatever compiles one (a run, a study, a
tuning, trace, play, check-plugin) does it through :func:`timed`, which tells a notice
(``compiling(kernel, seconds)``) every ``TICK`` seconds while the compilation lasts. The
default notice, :class:`Notice`, says so once through the ``medici_sim`` logger at WARNING
level: Python prints it on stderr when the program configured no logging, and
``logging.getLogger("medici_sim").setLevel(logging.ERROR)`` silences it. The command line's
notice (``cli.common.CompileNotice``) says it on stderr itself, with a timer on a terminal.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager

from numba.core import event

LOGGER = logging.getLogger("medici_sim")
TICK = 0.5  # seconds: how often a slow start (compiling) is told
AFTER = 2.0  # seconds: loading a cached kernel takes well under this, even on a busy machine


def estimate(game, strategies) -> str:
    """The notice's estimate for a kernel of ``strategies`` (the game's ``compile_seconds``: CPU
    seconds with an empty numba cache, measured by benchmarks/bench_compile.py; one core
    compiles, so an idle machine waits about this long, a busy one longer)."""
    if game.engine.compile_seconds is None:
        return "not measured for this game"
    (low, high), rollouts = game.engine.compile_seconds
    searcher = game.study.searcher if game.study is not None else ""  # the game's rollout player (StudyPolicy)
    return f"about {rollouts} s" if searcher and searcher in strategies else f"{low}-{high} s"


def notice_text(kernel) -> str:
    """What the notice says of ``kernel`` (its ``game`` and ``table_names``), in one line."""
    return (f"medici-sim: compiling the {kernel.game.name} engine for {', '.join(kernel.table_names)} "
            f"(once: {estimate(kernel.game, kernel.table_names)}, longer on a busy machine; later runs load it "
            "from the cache)")


class Notice:
    """Says once that a kernel compiles, when it takes ``AFTER`` seconds or more (module doc; never
    while a kernel only loads from numba's cache: :func:`timed` calls it once numba compiles);
    ``tell`` and ``tick`` are what a notice of its own (the command line's) changes."""

    def __init__(self):
        self.told = False

    def __call__(self, kernel, seconds: float) -> None:
        if seconds < AFTER or not self.ready():
            return
        if not self.told:
            self.told = True
            self.tell(notice_text(kernel))
        self.tick()

    def ready(self) -> bool:
        """Whether to tell anything at all."""
        return True

    def tell(self, text: str) -> None:
        LOGGER.warning(text)

    def tick(self) -> None:
        """Called every TICK seconds once told, while the compilation lasts."""

    def close(self) -> None:
        """The compilation is over (or abandoned)."""


class Compiles(event.Listener):
    """Whether numba began a compilation (its ``numba:compile`` event: never a load from the cache)
    while :meth:`listening`: a notice speaks only then, so a slow load on a busy machine says nothing."""

    started = False

    @contextmanager
    def listening(self):
        with event.install_listener("numba:compile", self):
            yield self

    def on_start(self, event_) -> None:
        self.started = True

    def on_end(self, event_) -> None:
        pass


def timed(work: Callable[[], object], kernel, stop: threading.Event | None = None,
          compiling: Callable | None = None):
    """``work()`` (which compiles ``kernel``, or loads it from the cache) on a thread of its own,
    so that a stop request (Ctrl-C) is answered at once, telling ``compiling(kernel, seconds)``
    (None: a :class:`Notice`) every TICK seconds while it lasts. ``(True, work's result)``, or
    ``(False, None)`` if stopped first; what ``work`` raises is raised here."""
    outcome: list = []
    notice = Notice() if compiling is None else compiling

    def run() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as exc:  # handed to the calling thread below
            outcome.append((False, exc))

    worker = threading.Thread(target=run, name="medici-sim-compile", daemon=True)
    began = time.perf_counter()
    ticks = 0
    try:
        with Compiles().listening() as compiles:
            worker.start()
            while worker.is_alive():
                worker.join(0.05)
                if stop is not None and stop.is_set():
                    return False, None
                elapsed = time.perf_counter() - began
                if elapsed >= (ticks + 1) * TICK:
                    ticks += 1
                    if compiles.started:  # loading from the cache, however slow on a busy machine, is no compile
                        notice(kernel, elapsed)
    finally:
        if compiling is None:
            notice.close()
    done, result = outcome[0]
    if not done:
        raise result
    return True, result
