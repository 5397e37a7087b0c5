"""Where numba keeps the compiled kernels, so that a read-only installation still runs.

numba caches beside the sources (``__pycache__``) or, when the package is read-only, in
the user's cache directory. When neither can be written (a read-only installation and an
unwritable home), numba would refuse to compile at all; medici-sim then points it at a
private directory under the system's temporary directory, and says so once.
"""
from __future__ import annotations

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
