"""Every command output the documentation shows, produced by running the command.

The markdown files mark what they show:

    <!-- output: medici-sim compare --games 20000 -->
    ```console
    $ medici-sim compare --games 20000
    ... what the command printed ...
    ```

A marker may hold several commands, one a line; they run in order in one shell, in one
scratch directory, so a later command sees the files and the exit code (`echo $?`) of an
earlier one. The block shows each command after `$ ` and its output (stdout and stderr
together). `medici-sim` is this checkout's command (`python -m medici_sim`); `examples/`,
`docs/` and `scripts/` are reachable under their own names.

    <!-- source: examples/green_lover.py -->
    ```python
    ... the file, verbatim ...
    ```

What varies from run to run is normalised before it is written or compared: the values of
`threads`, `elapsed_seconds`, `games_per_second` and `evaluations_per_minute` in the run
summaries become `…` (they depend on the machine and its load), and the scratch directory's
path becomes `.`. Tables are 100 columns wide (COLUMNS=100), as in a pipe. Commands run with
``MEDICI_SIM_KERNEL=all`` unless it is set (one kernel per game for every mix of built-ins:
fewer compilations, the same results).

    python docs/generate_outputs.py            # rewrite every block
    python docs/generate_outputs.py --check    # exit 1 naming every block that differs (tests/test_docs.py)
    python docs/generate_outputs.py --only compare   # only markers whose command contains 'compare'
"""
from __future__ import annotations

import argparse
import difflib
import functools
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MASKED = "…"
# summary rows whose values depend on the machine or its load, not on the seed
VARYING = ("threads", "elapsed_seconds", "games_per_second", "evaluations_per_minute")
VARYING_ROW = re.compile(r"^(\s*(?:" + "|".join(VARYING) + r")\s+)\S.*$", re.MULTILINE)
MARKER = re.compile(r"^<!-- (output|source):(.*?)-->\n```(\w*)\n(.*?)^```\n", re.MULTILINE | re.DOTALL)
ANY_MARKER = re.compile(r"^<!-- (?:output|source):", re.MULTILINE)  # at a line's start: a marker
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.MULTILINE | re.DOTALL)
SEPARATOR = "\x1e"  # between commands' outputs in one shell run
TIMEOUT_S = 900


@dataclass(frozen=True)
class Block:
    """One marked block of a markdown file."""
    path: Path
    line: int
    kind: str  # "output" or "source"
    argument: str  # the commands (output) or the file (source)
    fence: str
    start: int  # the block's span in the file's text (marker to closing fence)
    body_start: int  # where the lines inside the fence begin
    end: int

    @property
    def commands(self) -> list[str]:
        return [line.strip() for line in self.argument.strip().splitlines() if line.strip()]

    @property
    def name(self) -> str:
        return f"{where(self.path)}:{self.line} ({self.kind}: {' / '.join(self.commands)})"


def where(path: Path) -> str:
    """A file as messages name it: from the repository's root."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def doc_files() -> list[Path]:
    """The markdown files whose blocks are checked: the README, CONTRIBUTING and docs/."""
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [f for f in files if f.exists()]


def parse(path: Path, text: str | None = None) -> list[Block]:
    """The file's marked blocks (in ``text``, the file's contents by default); a marker not
    followed at once by a fenced block is an error."""
    text = path.read_text(encoding="utf-8") if text is None else text
    blocks = []
    for match in MARKER.finditer(text):
        kind, argument, fence = match.group(1), match.group(2), match.group(3)
        line = text.count("\n", 0, match.start()) + 1
        block = Block(path, line, kind, argument.strip(), fence, match.start(), match.start(4), match.end())
        wanted = "console" if kind == "output" else "python"
        if fence != wanted:
            raise ValueError(f"{block.name}: a {kind} marker is followed by a ```{fence} block, not ```{wanted}")
        if not block.commands:
            raise ValueError(f"{block.name}: the marker names nothing")
        blocks.append(block)
    if len(blocks) != len(ANY_MARKER.findall(text)):
        found = {b.line for b in blocks}
        for match in ANY_MARKER.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            if line not in found:
                raise ValueError(f"{where(path)}:{line}: a marker must be followed at once by a fenced "
                                 "block (```console for output, ```python for source)")
    return blocks


def unmarked_console_blocks(path: Path) -> list[int]:
    """Lines of ```console blocks (shown output) that no output marker produces."""
    text = path.read_text(encoding="utf-8")
    marked = {b.start for b in parse(path)}
    lines = []
    for match in FENCE.finditer(text):
        if match.group(1) != "console":
            continue
        before = text.rfind("<!--", 0, match.start())
        preceding = text[before:match.start()] if before >= 0 else ""
        if not (before in marked and preceding.rstrip().endswith("-->")):
            lines.append(text.count("\n", 0, match.start()) + 1)
    return lines


COMPILE_NOTICE = "medici-sim: compiling the "  # core.compiling.notice_text's first words


def normalise(output: str, scratch_paths: tuple[str, ...]) -> str:
    """What a reader may compare: no machine's paths, no timings, no trailing blanks, no compile
    notice (said on stderr only when this machine's cache lacks the kernel)."""
    for path in (*scratch_paths, str(ROOT)):
        output = output.replace(path, ".")
    output = VARYING_ROW.sub(lambda m: m.group(1) + MASKED, output)
    return "\n".join(line.rstrip() for line in output.split("\n")
                     if not line.startswith(COMPILE_NOTICE)).strip("\n")


SOURCE_SUFFIXES = (".py", ".json", ".csv")  # what a run of the package reads


def _sources(package: Path) -> dict[str, bytes]:
    return {path.relative_to(package).as_posix(): path.read_bytes() for path in package.rglob("*")
            if path.suffix in SOURCE_SUFFIXES and "__pycache__" not in path.parts}


@functools.cache
def checkout_path() -> tuple[str, ...]:
    """What PYTHONPATH must begin with for `medici-sim` to run this checkout: nothing when the package
    Python imports is this checkout's sources (installed from it, as CI does: its kernels are cached
    there, shared with the tests), else src/ (a checkout whose installed package is older or elsewhere)."""
    import importlib.util

    spec = importlib.util.find_spec("medici_sim")
    checkout = ROOT / "src" / "medici_sim"
    if spec is not None and spec.origin is not None:
        installed = Path(spec.origin).resolve().parent
        if installed == checkout.resolve() or _sources(installed) == _sources(checkout):
            return ()
    return (str(ROOT / "src"),)


def run_output(block: Block) -> str:
    """Run the block's commands in one shell in a scratch directory; the console text."""
    with tempfile.TemporaryDirectory(prefix="medici-docs-") as scratch:
        bin_dir = Path(scratch, ".bin")
        bin_dir.mkdir()
        shim = bin_dir / "medici-sim"
        shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m medici_sim "$@"\n')
        shim.chmod(0o755)
        python = bin_dir / "python"
        python.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
        python.chmod(0o755)
        for name in ("examples", "docs", "scripts"):
            os.symlink(ROOT / name, Path(scratch, name))
        script = ["exec 2>&1"]
        for command in block.commands:
            script += [command, f"__rc=$?; printf '\\n{SEPARATOR}\\n'; (exit $__rc)"]
        env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", COLUMNS="100",
                   LINES="24", PYTHONPATH=os.pathsep.join(filter(None, [*checkout_path(),
                                                                        os.environ.get("PYTHONPATH")])),
                   PYTHONIOENCODING="utf-8", MEDICI_SIM_KERNEL=os.environ.get("MEDICI_SIM_KERNEL", "all"))
        env.pop("NO_COLOR", None)
        done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=scratch, env=env, capture_output=True,
                              text=True, encoding="utf-8", timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
        outputs = done.stdout.split(f"\n{SEPARATOR}\n")[:len(block.commands)]
        parts = []
        for command, output in zip(block.commands, outputs, strict=True):
            parts.append(f"$ {command}")
            shown = normalise(output, (os.path.realpath(scratch), scratch))
            if shown:
                parts.append(shown)
        return "\n".join(parts) + "\n"


def produce(block: Block) -> str:
    """The block's body as it should read."""
    if block.kind == "source":
        return (ROOT / block.argument).read_text(encoding="utf-8")
    return run_output(block)


def produce_timed(block: Block) -> tuple[str, float]:
    began = time.perf_counter()
    return produce(block), time.perf_counter() - began


def body(text: str, block: Block) -> str:
    """What the block's fence holds now."""
    return text[block.body_start:block.end - len("```\n")]


def keys(blocks: list[Block]) -> list[tuple]:
    """Each block as found again in its file after edits elsewhere in it: its file, kind and
    argument, and how many blocks before it in that file have the same."""
    seen: dict[tuple, int] = {}
    found = []
    for block in blocks:
        name = (block.path, block.kind, block.argument)
        seen[name] = seen.get(name, -1) + 1
        found.append((*name, seen[name]))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a block differs")
    parser.add_argument("--only", default=None, help="only markers whose commands or file contain this text")
    parser.add_argument("--jobs", type=int, default=2, help="blocks run at once (default 2)")
    parser.add_argument("--list", action="store_true", help="list the markers and exit")
    args = parser.parse_args(argv)

    every = [b for path in doc_files() for b in parse(path)]
    chosen = [(k, b) for k, b in zip(keys(every), every, strict=True) if args.only is None or args.only in b.argument]
    if args.list:
        for _, block in chosen:
            print(block.name)
        return 0
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        timed = list(pool.map(produce_timed, [b for _, b in chosen]))
    produced = {k: new_body for (k, _), (new_body, _) in zip(chosen, timed, strict=True)}
    differing = []
    for path in sorted({b.path for _, b in chosen}):
        text = path.read_text(encoding="utf-8")  # parsed again: the file may have been edited meanwhile
        now = parse(path, text)
        pieces, done = [], 0
        for name, block in zip(keys(now), now, strict=True):
            new_body = produced.get(name)
            old_body = body(text, block)
            if new_body is None or old_body == new_body:
                continue
            differing.append((block, old_body, new_body))
            pieces += [text[done:block.body_start], f"{new_body}```\n"]
            done = block.end
        if not args.check and pieces:
            path.write_text("".join(pieces) + text[done:], encoding="utf-8")
    for block, old_body, new_body in sorted(differing, key=lambda d: (str(d[0].path), d[0].line)):
        verb = "differs from what it shows" if args.check else "rewritten"
        print(f"{block.name}: {verb}")
        if args.check:
            diff = difflib.unified_diff(old_body.splitlines(), new_body.splitlines(), "shown", "produced",
                                        lineterm="", n=1)
            print("\n".join(list(diff)[:40]))
    slowest = sorted(zip((t for _, t in timed), (b.name for _, b in chosen), strict=True), reverse=True)[:3]
    print("slowest: " + "; ".join(f"{seconds:.0f} s {name[:70]}" for seconds, name in slowest))
    print(f"{len(chosen)} blocks, {len(differing)} {'differ' if args.check else 'rewritten'}")
    return 1 if args.check and differing else 0


if __name__ == "__main__":
    sys.exit(main())
