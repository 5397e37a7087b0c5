"""medici-sim: a fast Monte Carlo simulator for Reiner Knizia's Medici games.

Two games: Medici: The Card Game (``game="card"``, rules R1-R25 in docs/rules-card.md) and
the 1995 auction game (``game="classic"``, rules C1-C21 in docs/rules-classic.md).

The Python API mirrors the command line and returns pandas DataFrames:

- :func:`simulate` -- one configuration, many games (``medici-sim --games N``);
- :func:`compare` -- which strategy is best (``medici-sim compare``);
- :func:`balance` -- does the card game's bonus20 variant change the balance (``tuned=``:
  under each rule's tuned parameters);
- :func:`tune` -- a strategy's best parameters, by self-play, checked on fresh games;
- :func:`trace` -- one game of a run told turn by turn (``medici-sim trace``);
- :func:`strategies`, :func:`list_games` -- what there is to play.

Every answer shows as its tables in a notebook. Bad arguments raise ``ValueError`` subclasses
with the command line's one-line messages, naming the argument (``games=``).
"""

__version__ = "0.2.0"

import os as _os  # noqa: E402
import signal as _signal  # noqa: E402
import sys as _sys  # noqa: E402


def _starting_the_command() -> bool:
    """Whether this import starts ``medici-sim`` or ``python -m medici_sim`` (whose argv[0]
    is "-m" while the package imports; orig_argv names the module run). A process that only
    inherited the command's argv (a worker of a local Dask cluster: multiprocessing copies it)
    is not the command: its own command line (orig_argv) does not name the script."""
    run = _sys.orig_argv
    if _sys.argv and _os.path.basename(_sys.argv[0]) == "medici-sim":
        return _sys.argv[0] in run
    return _sys.argv[:1] == ["-m"] and "-m" in run and run[run.index("-m") + 1:][:1] == ["medici_sim"]


def _quit_starting(signum, frame) -> None:
    _os.write(2, b"medici-sim: interrupted\n" if signum == _signal.SIGINT else b"medici-sim: terminated\n")
    _os._exit(128 + signum)


if _starting_the_command():
    # numba's import takes a second or two: Ctrl-C (or SIGTERM) meanwhile quits quietly with the
    # usual code; cli.main answers them its own way once it runs (cli.signals)
    for _stop_signal in (_signal.SIGINT, _signal.SIGTERM):
        _signal.signal(_stop_signal, _quit_starting)

from numba.core import config as _numba_config  # noqa: E402

if _numba_config.DISABLE_JIT:  # numba's debugging switch (NUMBA_DISABLE_JIT=1, or its config file)
    _JIT_OFF = ("NUMBA_DISABLE_JIT is set, and medici-sim cannot run without numba's compiler: its kernels "
                "dispatch to strategies through code numba generates as it compiles; unset it (to find a "
                "strategy's mistakes, run `medici-sim check-plugin FILE`)")
    if _starting_the_command():
        _os.write(2, f"medici-sim: error: {_JIT_OFF}\n".encode())
        raise SystemExit(2)
    raise ImportError(_JIT_OFF)

from pathlib import Path  # noqa: E402

from .core.cache import configure_numba_cache  # noqa: E402
from .core.specialize import compile_by_type  # noqa: E402

configure_numba_cache(Path(__file__).parent)
compile_by_type()

from . import games  # noqa: E402,F401  registers the games
from .api import (  # noqa: E402
    BalanceReport,
    CompareReport,
    RunReport,
    TraceReport,
    TuneReport,
    balance,
    compare,
    list_games,
    simulate,
    strategies,
    trace,
    tune,
)
from .core.checkpoint import CheckpointError  # noqa: E402
from .core.driver import ConfigError, IllegalDecision, StrategyCompileError, StrategyError  # noqa: E402
from .core.output import OutputError  # noqa: E402
from .core.plugins import PluginError  # noqa: E402
from .games.card.deck import DeckError  # noqa: E402

__all__ = [
    "simulate", "compare", "balance", "tune", "trace", "strategies", "list_games",
    "RunReport", "CompareReport", "BalanceReport", "TuneReport", "TraceReport",
    "ConfigError", "DeckError", "PluginError", "OutputError", "CheckpointError", "IllegalDecision",
    "StrategyCompileError", "StrategyError", "__version__",
]
