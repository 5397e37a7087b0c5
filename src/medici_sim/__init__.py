"""medici-sim: a fast Monte Carlo simulator for Reiner Knizia's Medici games.

The games are listed by :func:`list_games` (``docs/`` has their rules). The Python API
mirrors the command line and returns pandas DataFrames:

- :func:`simulate` -- one configuration, many games (``medici-sim --games N``);
- :func:`compare` -- which strategy is best (``medici-sim compare``);
- :func:`tournament` -- compare's tournament with Python agents among the strategies;
- :func:`balance` -- does a game's rule variant change the balance (``tuned=``: under each
  rule's tuned parameters);
- :func:`tune` -- a strategy's best parameters, by self-play, checked on fresh games;
- :func:`trace` -- one game of a run told turn by turn (``medici-sim trace``);
- :func:`strategies`, :func:`rules`, :func:`list_games` -- what there is to play, and by which rules.

Every answer shows as its tables in a notebook. Bad arguments raise ``ValueError`` subclasses
with the command line's one-line messages, naming the argument (``games=``).

Importing the package does nothing else: each name below is imported when first used
(PEP 562), and with it numba and the games.
"""
from __future__ import annotations

from ._version import __version__

# each public name, and the module that defines it
_PUBLIC = {
    **dict.fromkeys(("simulate", "compare", "tournament", "balance", "tune", "trace", "strategies", "rules",
                     "list_games", "RunReport",
                     "CompareReport", "BalanceReport", "TuneReport", "TraceReport"), "api"),
    **dict.fromkeys(("sweep", "design", "SweepReport", "DesignReport"), "api"),
    **dict.fromkeys(("ConfigError", "IllegalDecision", "StrategyCompileError", "StrategyError"), "core.driver"),
    **dict.fromkeys(("AgentError", "GameStart", "Decision"), "core.agent_kernel"),
    **dict.fromkeys(("ComponentsError", "DeckError"), "core.arguments"),
    "MediciWarning": "core.arguments",
    "PluginError": "core.plugins",
    "OutputError": "core.output",
    "CheckpointError": "core.checkpoint",
}

__all__ = [*_PUBLIC, "__version__"]
_OLDER = {"DeckError": "ComponentsError"}  # older public names, still answered: the name they now have


def __getattr__(name: str):
    if name not in _PUBLIC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import api  # the front door first: the games and numba, ready
    from .core import agent_kernel, arguments, checkpoint, driver, output, plugins

    modules = {"api": api, "core.agent_kernel": agent_kernel, "core.driver": driver, "core.plugins": plugins,
               "core.output": output, "core.checkpoint": checkpoint, "core.arguments": arguments}
    value = getattr(modules[_PUBLIC[name]], _OLDER.get(name, name))
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})
