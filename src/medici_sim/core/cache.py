"""Where numba keeps the compiled kernels, and for how long.

Where: numba caches beside the sources (``__pycache__``) or, when the package is read-only, in
the user's cache directory. When neither can be written (a read-only installation and an
unwritable home), numba would refuse to compile at all; medici-sim then points it at a
private directory under the system's temporary directory, and says so once.

How long: while every source and data file of the package's jitted code is as it was when the
code was cached (:func:`kernel_sources_digest`, core.locators), not only the function's own file, as numba has it.
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


def _set_cache_dir(directory: str | None) -> None:
    """Point numba at ``directory`` (None: its own choice), whether or not it has read its configuration."""
    if directory is None:
        os.environ.pop("NUMBA_CACHE_DIR", None)
    else:
        os.environ["NUMBA_CACHE_DIR"] = directory
    if "numba" in sys.modules:  # numba read its configuration on import: read it again
        from numba.core import config

        config.reload_config()


def configure_numba_cache(package_dir: Path) -> None:
    """Make sure numba can cache the kernels somewhere (call before any kernel is compiled). A NUMBA_CACHE_DIR
    that cannot be written (numba would refuse to compile, or quietly cache elsewhere) is left out, with a warning."""
    asked = os.environ.get("NUMBA_CACHE_DIR")
    if asked:
        if _writable(Path(asked)):
            return
        _set_cache_dir(None)
        print(f"medici-sim: warning: NUMBA_CACHE_DIR={asked} cannot be written; it is ignored", file=sys.stderr)
    if _writable(package_dir / "__pycache__") or _writable(_user_cache_dir()):
        return
    fallback = Path(tempfile.gettempdir()) / f"medici-sim-numba-cache-{os.getuid() if hasattr(os, 'getuid') else 0}"
    if not _writable(fallback):
        fallback = Path(tempfile.mkdtemp(prefix="medici-sim-numba-cache-"))
    _set_cache_dir(str(fallback))
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
