"""The ``medici-sim`` command line: one module per command, shared parts in ``common``, the
command group in ``app``.

:func:`main` is the command's entry point (``medici-sim``, ``python -m medici_sim``). It
imports the command line only once it answers Ctrl-C: numba's import takes a second or two,
and a Ctrl-C (or SIGTERM) meanwhile quits quietly with the usual code.
"""
from __future__ import annotations

import os
import signal

from ..core.numba_setup import JIT_OFF


def _quit_starting(signum, frame) -> None:
    os.write(2, b"medici-sim: interrupted\n" if signum == signal.SIGINT else b"medici-sim: terminated\n")
    os._exit(128 + signum)


def _stderr_to_devnull() -> None:
    """A command started with stderr closed (``2>&-``): its notices go nowhere, and must neither
    fail the run (a warning's write was EBADF: the summary was lost, exit 1, without a word) nor
    leave descriptor 2 free for the first file the command opens (stderr's writes would land in it)."""
    try:
        os.fstat(2)
        import fcntl  # not on Windows: there, a descriptor that is open is taken as writable

        writable = fcntl.fcntl(2, fcntl.F_GETFL) & os.O_ACCMODE != os.O_RDONLY  # a launcher's file read-only
    except ImportError:
        writable = True
    except OSError:
        writable = False
    if not writable:
        null = os.open(os.devnull, os.O_WRONLY)
        if null != 2:
            os.dup2(null, 2)
            os.close(null)


def main(argv: list[str] | None = None) -> None:
    """Run the command (``argv``: its arguments; None: the process's command line, the
    command's process: see ``app.main``)."""
    if argv is None:
        _stderr_to_devnull()
        # until app.main answers them its own way (cli.signals)
        for stop_signal in (signal.SIGINT, signal.SIGTERM):
            signal.signal(stop_signal, _quit_starting)
    try:
        from .app import main as run_command
    except ImportError as exc:  # numba's compiler switched off, or a game of one's own that does not load
        from ..core.registry import GameModuleError  # only now: nothing but the handlers before them

        if str(exc) != JIT_OFF and not isinstance(exc, GameModuleError):
            raise
        os.write(2, f"medici-sim: error: {exc}\n".encode())
        raise SystemExit(2) from None
    run_command(argv)


def __getattr__(name: str):
    if name == "cli":  # the click command group, for click's own tools (and tests)
        from .app import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["cli", "main"]
