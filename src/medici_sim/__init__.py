"""medici-sim: a fast Monte Carlo simulator for Reiner Knizia's Medici games.

Two games: Medici: The Card Game (``game="card"``, rules R1-R25 in docs/rules-card.md) and
the 1995 auction game (``game="classic"``, rules C1-C21 in docs/rules-classic.md).

The Python API mirrors the command line and returns pandas DataFrames:

- :func:`simulate` -- one configuration, many games (``medici-sim --games N``);
- :func:`compare` -- which strategy is best (``medici-sim compare``);
- :func:`balance` -- does the card game's bonus20 variant change the balance (``tuned=``:
  under each rule's tuned parameters);
- :func:`tune` -- a strategy's best parameters, by self-play, checked on fresh games;
- :func:`strategies`, :func:`list_games` -- what there is to play.

Bad options raise ``ValueError`` subclasses with the command line's one-line messages.
"""

__version__ = "0.2.0"

import os as _os  # noqa: E402
import signal as _signal  # noqa: E402
import sys as _sys  # noqa: E402


def _starting_the_command() -> bool:
    """Whether this import starts ``medici-sim`` or ``python -m medici_sim`` (whose argv[0]
    is "-m" while the package imports; orig_argv names the module run)."""
    if _sys.argv and _os.path.basename(_sys.argv[0]) == "medici-sim":
        return True
    run = _sys.orig_argv
    return _sys.argv[:1] == ["-m"] and "-m" in run and run[run.index("-m") + 1:][:1] == ["medici_sim"]


if _starting_the_command():
    # numba's import takes a second or two: Ctrl-C meanwhile quits quietly with the usual code;
    # cli.main restores Python's handler once it runs
    _signal.signal(_signal.SIGINT, lambda signum, frame: (_os.write(2, b"medici-sim: interrupted\n"), _os._exit(130)))

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
    TuneReport,
    balance,
    compare,
    list_games,
    simulate,
    strategies,
    tune,
)
from .core.checkpoint import CheckpointError  # noqa: E402
from .core.driver import ConfigError, IllegalDecision, StrategyCompileError  # noqa: E402
from .core.output import OutputError  # noqa: E402
from .core.plugins import PluginError  # noqa: E402
from .games.card.deck import DeckError  # noqa: E402

__all__ = [
    "simulate", "compare", "balance", "tune", "strategies", "list_games",
    "RunReport", "CompareReport", "BalanceReport", "TuneReport",
    "ConfigError", "DeckError", "PluginError", "OutputError", "CheckpointError", "IllegalDecision",
    "StrategyCompileError", "__version__",
]
