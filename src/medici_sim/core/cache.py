"""Where numba keeps the compiled kernels, and for how long.

Where: numba caches beside the sources (``__pycache__``) or, when the package is read-only, in
the user's cache directory. When neither can be written (a read-only installation and an
unwritable home), numba would refuse to compile at all; medici-sim then points it at a
private directory under the system's temporary directory, and says so once.

How long: while every source and data file of the package's jitted code is as it was when the
code was cached (:func:`stamp_by_every_source`), not only the function's own file, as numba has it.
"""
from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path


def _writable(directory: Path) -> bool:
    """numba's own test: the directory can be made and a file written in it."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()
        return True
    except OSError:
        return False


def _user_cache_dir() -> Path:
    from numba.misc.appdirs import AppDirs

    return Path(AppDirs(appname="numba", appauthor=False).user_cache_dir)


def configure_numba_cache(package_dir: Path) -> None:
    """Make sure numba can cache the kernels somewhere (call before any kernel is compiled)."""
    if os.environ.get("NUMBA_CACHE_DIR") or _writable(package_dir / "__pycache__") or _writable(_user_cache_dir()):
        return
    fallback = Path(tempfile.gettempdir()) / f"medici-sim-numba-cache-{os.getuid() if hasattr(os, 'getuid') else 0}"
    if not _writable(fallback):
        fallback = Path(tempfile.mkdtemp(prefix="medici-sim-numba-cache-"))
    os.environ["NUMBA_CACHE_DIR"] = str(fallback)
    if "numba" in sys.modules:  # numba read its configuration on import: read it again
        from numba.core import config

        config.reload_config()
    print(f"medici-sim: warning: the installation and the home directory are read-only; compiled kernels "
          f"are cached in {fallback}", file=sys.stderr)


# ---------------------------------------------------------------- cached code never outlives the sources it links

_KERNEL_LAYERS = ("core", "games")  # the package's jitted code lives here only (tests/test_architecture.py)
_DATA_SUFFIXES = (".py", ".json", ".csv")  # sources, and the data kernels compile in as constants
_digests: dict[Path, bytes] = {}


def kernel_sources_digest(package_dir: Path) -> bytes:
    """A hash of every source and data file the package's jitted code may compile in (once a process)."""
    if package_dir not in _digests:
        digest = hashlib.sha256()
        for layer in _KERNEL_LAYERS:
            for path in sorted((package_dir / layer).rglob("*")):
                if path.suffix in _DATA_SUFFIXES and "__pycache__" not in path.parts:
                    digest.update(path.relative_to(package_dir).as_posix().encode())
                    digest.update(path.read_bytes())
        _digests[package_dir] = digest.digest()
    return _digests[package_dir]


def stamp_by_every_source(package_dir: Path) -> None:
    """Make numba's cached code of the package's functions fresh only while *every* source stays as it was.

    numba keys a cached function by its own file's contents; the code it caches links its callees'
    machine code, from other files. Edited, a callee's file changed nothing numba checks: a strategy
    whose helper had changed played the old helper, silently (tests/test_compile.py shows one). A
    locator placed first in numba's list takes the package's functions,
    keeps where numba would cache them (the next locator's answer) and stamps them with
    :func:`kernel_sources_digest`: any edit compiles them all again. Functions already made are
    given a cache of the new kind too (a core module imported before the games)."""
    from numba.core import caching
    from numba.core.dispatcher import Dispatcher

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    if any(getattr(cls, "package_dir", None) == package_dir for cls in impl._locator_classes):
        return
    digest = kernel_sources_digest(package_dir)

    class PackageLocator(caching._CacheLocator):
        def __init__(self, inner):
            self._inner = inner
            self._py_file = inner._py_file  # numba's warnings name it

        def ensure_cache_path(self):
            self._inner.ensure_cache_path()

        def get_cache_path(self):
            return self._inner.get_cache_path()

        def get_source_stamp(self):
            return digest

        def get_disambiguator(self):
            return self._inner.get_disambiguator()

        @classmethod
        def from_function(cls, py_func, py_file):
            if not Path(py_file).resolve().is_relative_to(package_dir):
                return None
            for other in impl._locator_classes:
                if other is not cls and (inner := other.from_function(py_func, py_file)) is not None:
                    return cls(inner)
            return None

    PackageLocator.package_dir = package_dir
    impl._locator_classes.insert(0, PackageLocator)
    prefix = package_dir.name + "."
    for name, module in list(sys.modules.items()):
        if name.startswith(prefix):
            for value in list(vars(module).values()):
                if isinstance(value, Dispatcher) and value._cache.__class__.__name__ == "FunctionCache":
                    value.enable_caching()
