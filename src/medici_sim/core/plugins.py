"""Loading plug-in strategies: a Python file that registers one or more strategies.

A plug-in is imported under a module name of its own, ``medici_plugin_<hash of its
contents>``: stable, so that numba can cache its functions from run to run, and never one
that shadows another module (its file name may be anything, ``random.py`` included).
numba keeps those caches in a sub-directory of their own, fresh while the file and the package's sources are
(core.locators.PluginLocator).
"""
from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

from .arguments import in_api, named
from .locators import PLUGIN_PREFIX, install
from .output import OutputError, read_limited
from .registry import GAMES, RegistrationError

MAX_PLUGIN_BYTES = 1 << 22  # a plug-in is a small Python file


class PluginError(ValueError):
    """A plug-in file that cannot be loaded; the message says which and why."""


def _strategies_from(module_name: str) -> list[tuple[str, str]]:
    return [(game.name, name) for game in GAMES.values() for name, strategy in game.registry.items()
            if any(fn.py_func.__module__ == module_name for fn in strategy.decisions.values())]


def load_plugin(path: str | Path) -> list[tuple[str, str]]:
    """Import a plug-in file (it calls a game's ``register``); return the (game, strategy)
    pairs it registered."""
    path = Path(path)
    try:
        source = read_limited(path, MAX_PLUGIN_BYTES, named("plugins"))
    except OutputError as exc:
        raise PluginError(str(exc)) from None
    name = PLUGIN_PREFIX + hashlib.sha256(source).hexdigest()[:16]  # see the module doc
    if name not in sys.modules:
        install()  # numba's cache of its functions: core.locators.PluginLocator
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise PluginError(f"{named('plugins')} {path}: not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        before = {game.name: (dict(game.registry.strategies), dict(game.registry.origin)) for game in GAMES.values()}
        try:
            spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:  # a broken plug-in is the user's input: report it in one line
            del sys.modules[name]
            for game in GAMES.values():  # what it registered before failing goes too
                game.registry.strategies, game.registry.origin = before[game.name]
            if isinstance(exc, RegistrationError):  # a name taken, a bad parameter: the message says it all
                raise PluginError(f"{named('plugins')} {path}: {exc}") from exc
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise PluginError(f"{named('plugins')} {path}: cannot load it: {type(exc).__name__}: {first} "
                              f"({'its __cause__ holds' if in_api() else '--debug shows'} the full trace)") from exc
    added = sorted(_strategies_from(name))
    if not added:
        raise PluginError(f"{named('plugins')} {path}: registered no strategy (call a game's register, "
                          f"medici_sim.games.GAME.strategies.register, for one of {', '.join(GAMES)})")
    for game, strategy in added:
        GAMES[game].registry.origin[strategy] = str(path)
    return added
