"""The linter's verdict is part of the suite, so CI runs it with the tests (its rules: pyproject's [tool.ruff])."""
from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    done = subprocess.run([ruff, "check", "--no-cache", "src", "tests", "benchmarks", "examples"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]


# Names a reader outside the repository uses though nothing inside it does: the strategies' helpers
# that docs/plugins.md offers plug-in authors ("helpers such as ...").
FOR_PLUGINS = {"lot_size_nb"}


def _defined_names(path: Path) -> list[tuple[int, str]]:
    """A module's top-level names: assigned one by one (not an enumeration unpacked from a tuple),
    and functions and classes that no decorator registers."""
    found = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found += [(node.lineno, t.id) for t in targets if isinstance(t, ast.Name)]
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not any(
                isinstance(d, ast.Call) and getattr(d.func, "id", "") == "overload" for d in node.decorator_list):
            found.append((node.lineno, node.name))
    return [(line, name) for line, name in found if not name.startswith("__") and name not in FOR_PLUGINS]


def test_every_name_the_package_defines_is_used():
    """A top-level name of the package that nothing else names (no code, test, script,
    benchmark, example or page) is dead: remove it."""
    sources = [p for folder in ("src", "tests", "scripts", "benchmarks", "examples", "docs")
               for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md")] + [ROOT / "README.md"]
    uses = Counter(re.findall(r"\b[A-Za-z_]\w*\b", "\n".join(p.read_text() for p in sources)))
    unused = [f"{path.relative_to(ROOT)}:{line} {name}" for path in sorted((ROOT / "src").rglob("*.py"))
              for line, name in _defined_names(path) if uses[name] <= 1]
    assert unused == []
