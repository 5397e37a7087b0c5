"""The package's build: setuptools' own (pyproject.toml), and the kernels compiled while it builds.

After the sources are copied to the build directory, ``medici-sim compile`` runs there: numba compiles the
kernels of the commands a new user runs first and caches their machine code beside the sources, and the wheel
carries it (numba's cache is keyed by the sources' contents, this machine's CPU and numba's version, so it is
found after installation, and is ignored, never wrong, anywhere else). The build does not fail when the
compile does: the kernels are then compiled on first use, as numba always does.

MEDICI_SIM_COMPILE_AHEAD=0 (or no, false, off) builds without compiling (a wheel for other machines), and a
comma list of labels (``medici-sim compile --help``) compiles those commands only; an editable install never
compiles ahead (its kernels are cached beside the sources on first use).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyCompiled(build_py):
    """setuptools' build_py, then the kernels compiled ahead in the build directory."""

    def run(self):
        super().run()
        build_lib = os.path.abspath(self.build_lib)
        for cached in Path(build_lib, "medici_sim").rglob("__pycache__/*.nb[ic]"):  # an earlier build's, stale
            cached.unlink()
        chosen = os.environ.get("MEDICI_SIM_COMPILE_AHEAD", "").strip().lower()
        if self.editable_mode or chosen in ("0", "no", "false", "off"):
            return
        labels = [] if chosen in ("", "1", "yes", "true", "on") else [label.strip() for label in chosen.split(",")]
        only = [arg for label in labels if label for arg in ("--only", label)]
        # numba's cache beside the sources, compiled as a user's runs are: numba's settings other than the CPU's
        # (NUMBA_OPT, bounds checks: not in its cache key) and medici-sim's own left out
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "MEDICI_SIM_"))
               or k in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (build_lib, env.get("PYTHONPATH")) if p)  # pip's build env
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # pip compiles the bytecode when it installs
        print("medici-sim: compiling the kernels of the first commands (a few minutes of CPU, once)", flush=True)
        try:
            done = subprocess.run([sys.executable, "-m", "medici_sim", "compile", *only], env=env, cwd=build_lib)
        except OSError as error:
            done = error
        if not isinstance(done, subprocess.CompletedProcess) or done.returncode != 0:
            print("medici-sim: warning: compiling ahead failed; the kernels will be compiled on first use", flush=True)


setup(cmdclass={"build_py": BuildPyCompiled})
