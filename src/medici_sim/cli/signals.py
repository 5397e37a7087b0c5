"""Ctrl-C (SIGINT) and SIGTERM (what ``kill``, ``timeout`` and systemd send), alike for every command.

- The first signal asks the run under way (:func:`interruptible`) to stop after its batch:
  its checkpoint is saved and its partial result reported. Outside a run it interrupts the
  command (KeyboardInterrupt: one line, nothing half-written).
- A second signal quits at once.
- A first signal the main thread does not answer while it runs for ``ANSWER_S`` seconds
  quits at once too: the main thread is then inside the engine (a strategy's decision that
  may never return), where no Python handler runs. A watcher thread hears every signal as it
  arrives (``signal.set_wakeup_fd``) to see to both, wherever the main thread is.

The exit code is 128 + the first signal's number (130 after Ctrl-C, 143 after SIGTERM), as
a shell reports a process that signal ended.
"""
from __future__ import annotations

import os
import select
import signal
import threading
import time
from contextlib import contextmanager, suppress

import click

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_WORDS = {signal.SIGINT: ("interrupted", "Ctrl-C again"), signal.SIGTERM: ("terminated", "a second SIGTERM")}
ANSWER_S = 1.0  # seconds of CPU time the main thread may run without answering a signal (module doc)

_received: list[int] = []  # the stop signals the command's main thread answered, in order
_stopping: list[threading.Event] = []  # the run under way (interruptible), if any


def reset() -> None:
    """A new command: no signal received yet (in-process callers run several commands)."""
    _received.clear()


def interrupted_code() -> int:
    """The exit code of a command a signal stopped: 128 + the signal's number."""
    return 128 + (_received[0] if _received else signal.SIGINT)


def interrupted_word() -> str:
    """"interrupted" (Ctrl-C) or "terminated" (SIGTERM): what stopped the command."""
    return _WORDS[signal.Signals(_received[0]) if _received else signal.SIGINT][0]


def _quit_now(signum: int, why: str) -> None:
    """Leave at once: threads still inside the engine cannot be waited for. Every file is
    written atomically, so none is left half-written; the last checkpoint stays."""
    with suppress(OSError):  # a closed stderr must not keep the process from leaving
        os.write(2, f"medici-sim: {_WORDS[signal.Signals(signum)][0]}{why}: quitting at once\n".encode())
    os._exit(128 + (_received[0] if _received else signum))


def _answer(signum, frame) -> None:
    """The main thread's handler of SIGINT and SIGTERM (see the module doc)."""
    _received.append(signum)
    if len(_received) > 1:
        _quit_now(signum, " again")
    if not _stopping:
        raise KeyboardInterrupt
    _stopping[-1].set()
    what, again = _WORDS[signal.Signals(signum)]
    with suppress(OSError):  # a closed stderr (its reader gone) must not break the run where it stands
        click.echo(f"medici-sim: {what}: stopping after this batch ({again} quits at once)", err=True)


def _main_thread_cpu():
    """A clock of the CPU time the main thread uses (wall time where it cannot be read)."""
    try:
        clock = time.pthread_getcpuclockid(threading.main_thread().ident)
        time.clock_gettime(clock)
    except (AttributeError, OSError):
        return time.monotonic
    return lambda: time.clock_gettime(clock)


def _watch(fd: int) -> None:
    """The watcher thread: a second signal quits; so does a first that the main thread leaves
    unanswered while it runs for ANSWER_S seconds of CPU time (inside the engine, not answering;
    a main thread merely kept waiting for a core on a busy machine is not that). It hears the
    signals through the wake-up fd, so it blocks them itself: they go to the main thread, whose
    waits they interrupt (a signal taken by another thread would leave a wait unended)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    main_cpu = _main_thread_cpu()
    heard = 0
    while True:
        data = os.read(fd, 64)
        if not data:  # the command is over
            os.close(fd)
            return
        for signum in data:
            if signum not in STOP_SIGNALS:
                continue
            heard += 1
            if heard > 1:
                _quit_now(signum, " again")
            began = main_cpu()
            while not _received and not select.select([fd], [], [], 0.05)[0]:  # answered, or another signal
                if main_cpu() - began >= ANSWER_S:
                    _quit_now(signum, " while the engine was running")


@contextmanager
def answering(ignored_after: bool = False):
    """SIGINT and SIGTERM answered as the module doc says while the command runs; afterwards
    the previous handlers again, or (``ignored_after``) none: the command's process, its work
    done and written, has nothing left to stop, and Python's exit would restore the default
    handlers and die of a signal."""
    reset()
    read, write = os.pipe()
    os.set_blocking(write, False)
    previous_fd = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    previous = {s: signal.signal(s, _answer) for s in STOP_SIGNALS}
    threading.Thread(target=_watch, args=(read,), name="medici-sim-signals", daemon=True).start()
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, signal.SIG_IGN if ignored_after else handler)
        signal.set_wakeup_fd(previous_fd)
        os.close(write)  # ends the watcher


@contextmanager
def interruptible():
    """A stop request for the run: set by the first SIGINT or SIGTERM (module doc)."""
    stop = threading.Event()
    previous = {s: signal.signal(s, _answer) for s in STOP_SIGNALS}  # also when called outside ``answering``
    _stopping.append(stop)
    try:
        yield stop
    finally:
        _stopping.remove(stop)
        for s, handler in previous.items():
            signal.signal(s, handler)
