"""numba's cache locators for medici-sim's functions and its plug-ins': where their compiled code is kept, and
while what it is fresh.

numba picks a function's locator when the function is decorated, the first of its list that takes it, and keys
the cached code by that locator's source stamp: by default the function's own file. But the machine code it
caches links its callees' code, from other files: edited, a callee's file changed nothing numba checks, and a
strategy whose helper had changed played the old helper, silently (tests/test_compile.py shows one). The two
locators here, first in numba's list, take numba's own answer for where (:class:`Wrapped`) and stamp the code
with the package's sources too (``cache.kernel_sources_digest``: every source and data file of core/ and games/):

- :class:`PackageLocator`: the package's own functions;
- :class:`PluginLocator`: a plug-in's (``core.plugins``), which link the package's helpers, in a sub-directory
  named after the plug-in's module (numba's cached code names the module it was compiled in, and loading it
  imports that module: a plug-in file also imported under its own name, by its own tests say, would find the
  other's entries and fail to load them), stamped with the plug-in's file and the package's sources.

A plug-in's helpers in other files of its own are outside both: numba's stamp, the plug-in file's, is all there is.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy
from numba.core import caching

from .cache import kernel_sources_digest

CACHE_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # its name before numba 0.68
PACKAGE_DIR = Path(__file__).resolve().parents[1]
PLUGIN_PREFIX = "medici_plugin_"  # a plug-in's module name (core.plugins)


class Wrapped(caching._CacheLocator):
    """numba's own locator of a function, wrapped: a subclass names the functions it takes (:meth:`claims`: the
    sub-directory to keep them in, "" for none, or None) and their stamp."""

    def __init__(self, inner: caching._CacheLocator, subdirectory: str):
        self._inner = inner
        self._subdirectory = subdirectory
        self._py_file = getattr(inner, "_py_file", "")  # numba's warnings name it

    def get_cache_path(self) -> str:
        path = self._inner.get_cache_path()
        return os.path.join(path, self._subdirectory) if self._subdirectory else path

    def get_source_stamp(self):
        # numpy's version too: the cache may be made in pip's build environment (setup.py), whose numpy may not
        # be the installation's
        return self._inner.get_source_stamp(), kernel_sources_digest(PACKAGE_DIR), numpy.__version__

    def get_disambiguator(self) -> str:
        return self._inner.get_disambiguator()

    @classmethod
    def claims(cls, py_func, py_file: str) -> str | None:
        raise NotImplementedError

    @classmethod
    def from_function(cls, py_func, py_file):
        subdirectory = cls.claims(py_func, py_file)
        if subdirectory is None:
            return None  # numba's own locators, as ever
        for numba_locator in CACHE_IMPL._locator_classes:
            inner = None if issubclass(numba_locator, Wrapped) else numba_locator.from_function(py_func, py_file)
            if inner is not None:
                locator = cls(inner, subdirectory)
                try:
                    locator.ensure_cache_path()
                except OSError:
                    continue
                return locator
        return None


class PackageLocator(Wrapped):
    """The package's functions, where numba would cache them, fresh while every source of the package is."""

    @classmethod
    def claims(cls, py_func, py_file: str) -> str | None:
        return "" if Path(py_file).resolve().is_relative_to(PACKAGE_DIR) else None


class PluginLocator(Wrapped):
    """A plug-in's functions, in a sub-directory of their module's name, fresh while the plug-in file and every
    source of the package are."""

    @classmethod
    def claims(cls, py_func, py_file: str) -> str | None:
        module = getattr(py_func, "__module__", None) or ""
        return module if module.startswith(PLUGIN_PREFIX) else None


def install() -> None:
    """Put both locators first in numba's list (once; before the functions they take are decorated). A function
    of the package decorated before (a core module imported before the games) is given a cache of the new kind."""
    from numba.core.dispatcher import Dispatcher

    locators = CACHE_IMPL._locator_classes
    if PackageLocator in locators:
        return
    locators[:0] = [PackageLocator, PluginLocator]
    prefix = PACKAGE_DIR.name + "."
    for name, module in list(sys.modules.items()):
        if name.startswith(prefix):
            for value in list(vars(module).values()):
                impl = getattr(getattr(value, "_cache", None), "_impl", None)  # None: not cached
                if isinstance(value, Dispatcher) and impl is not None and not isinstance(impl.locator, Wrapped):
                    value.enable_caching()
