"""Loading plug-in strategies: a Python file that registers one or more strategies."""
from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

from .strategies import REGISTRY


class PluginError(ValueError):
    """A plug-in file that cannot be loaded; the message says which and why."""


def load_plugin(path: str | Path) -> list[str]:
    """Import a plug-in file (it calls ``register``); return the strategy names it added."""
    path = Path(path)
    if not path.is_file():
        raise PluginError(f"--plugin {path}: no such file")
    # a stable module name per file content, so numba can cache the plug-in's functions
    name = "medici_plugin_" + hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    before = set(REGISTRY)
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise PluginError(f"--plugin {path}: not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # a broken plug-in is the user's input: report it in one line
            del sys.modules[name]
            raise PluginError(f"--plugin {path}: {type(exc).__name__}: {exc}".replace("\n", " ")) from None
    added = sorted(set(REGISTRY) - before)
    if not added and not any(REGISTRY[n].reveal_nb.py_func.__module__ == name for n in REGISTRY):
        raise PluginError(f"--plugin {path}: registered no strategy (call medici_sim.strategies.register)")
    return added
