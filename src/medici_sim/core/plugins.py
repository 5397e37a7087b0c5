"""Loading plug-in strategies: a Python file that registers one or more strategies.

A plug-in is imported under a module name of its own, ``medici_plugin_<hash of its
contents>``: stable, so that numba can cache its functions from run to run, and never one
that shadows another module (its file name may be anything, ``random.py`` included).
numba keeps those caches in a sub-directory of their own (:class:`PluginCacheLocator`).
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path

from numba.core import caching

from .arguments import in_api, named
from .output import OutputError, read_limited
from .registry import GAMES, RegistrationError

MAX_PLUGIN_BYTES = 1 << 22  # a plug-in is a small Python file
MODULE_PREFIX = "medici_plugin_"
_CACHE_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # its name before numba 0.68


class PluginError(ValueError):
    """A plug-in file that cannot be loaded; the message says which and why."""


class PluginCacheLocator(caching._CacheLocator):
    """numba's cache of a plug-in's ``cache=True`` functions: where numba would keep it
    anyway (beside the file, or NUMBA_CACHE_DIR, or the user's cache), in a sub-directory
    named after the plug-in's module.

    numba finds a function's cache by the path of its file, but what it stores names the
    module the function was compiled in, and loading it imports that module. A plug-in file
    may be both loaded here and imported under its own name (by its own unit tests, say):
    sharing one cache, each would find the other's entries and fail to load them ("No module
    named ..."). Importing plug-ins under their own names is not safe (module names collide),
    so the two keep apart caches; a sub-directory per content also never serves stale code.
    """

    def __init__(self, inner: caching._CacheLocator, module: str):
        self._inner = inner
        self._module = module

    def get_cache_path(self) -> str:
        return os.path.join(self._inner.get_cache_path(), self._module)

    def get_source_stamp(self):
        return self._inner.get_source_stamp()

    def get_disambiguator(self) -> str:
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func, py_file):
        module = getattr(py_func, "__module__", None) or ""
        if not module.startswith(MODULE_PREFIX):
            return None  # numba's own locators, as ever
        for locator_class in _CACHE_IMPL._locator_classes:
            inner = None if locator_class is cls else locator_class.from_function(py_func, py_file)
            if inner is not None:
                locator = cls(inner, module)
                try:
                    locator.ensure_cache_path()
                except OSError:
                    continue
                return locator
        return None


def _separate_plugin_caches() -> None:
    """Put :class:`PluginCacheLocator` first among numba's locators (once; before a plug-in's
    functions are defined: numba picks a function's locator when it is decorated)."""
    locators = _CACHE_IMPL._locator_classes
    if PluginCacheLocator not in locators:
        locators.insert(0, PluginCacheLocator)


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
    name = MODULE_PREFIX + hashlib.sha256(source).hexdigest()[:16]  # see the module doc
    if name not in sys.modules:
        _separate_plugin_caches()
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
