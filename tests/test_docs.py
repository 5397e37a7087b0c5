"""The documentation cannot go stale: every output it shows is produced by a script and checked here.

``docs/generate_outputs.py`` runs every command marked in the README, CONTRIBUTING.md and
docs/ (``<!-- output: COMMAND -->`` before a ```console block) and rewrites the blocks. The
quick tests check that the markers parse, that every shown output is marked, that shown
source files are the repository's, and that every relative link leads to a file (and
heading) of the repository; the slow test runs every marked command again (``--check``)
and names each block whose output differs.
"""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import medici_sim.games  # noqa: F401  (the games register themselves)
from medici_sim.core.registry import GAMES

ROOT = Path(__file__).parents[1]
SCRIPT = ROOT / "docs" / "generate_outputs.py"
_spec = importlib.util.spec_from_file_location("generate_outputs", SCRIPT)
docs = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = docs  # dataclasses look their module up there
_spec.loader.exec_module(docs)

FILES = docs.doc_files()
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)
CODE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|home|tmp|Users|root|opt|var|mnt)/")


def ids(paths):
    return [str(p.relative_to(ROOT)) for p in paths]


def test_the_documentation_files_are_found():
    names = set(ids(FILES))
    assert {"README.md", "CONTRIBUTING.md", "docs/README.md", "docs/architecture.md"} <= names


@pytest.mark.parametrize("path", FILES, ids=ids(FILES))
def test_markers_parse_and_every_shown_output_is_marked(path):
    docs.parse(path)  # raises, naming the line, on a marker without its block
    assert docs.unmarked_console_blocks(path) == [], (
        f"{path.relative_to(ROOT)}: ```console blocks at these lines have no output marker; mark them "
        "(<!-- output: COMMAND -->) or show the commands alone in a ```bash block")


def test_a_marker_without_its_block_is_refused(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("<!-- output: medici-sim --games 10 -->\n\nsome text\n```console\n```\n")
    with pytest.raises(ValueError, match="must be followed at once by a fenced block"):
        docs.parse(page, page.read_text())
    page.write_text("<!-- output: medici-sim --games 10 -->\n```python\n```\n")
    with pytest.raises(ValueError, match="not ```console"):
        docs.parse(page, page.read_text())


def test_an_unmarked_console_block_is_found(tmp_path, monkeypatch):
    monkeypatch.setattr(docs, "ROOT", tmp_path)
    page = tmp_path / "page.md"
    page.write_text("text\n```console\n$ medici-sim\nmade up\n```\n"
                    "<!-- output: medici-sim -->\n```console\n$ medici-sim\n```\n")
    assert docs.unmarked_console_blocks(page) == [2]


@pytest.mark.parametrize("path", FILES, ids=ids(FILES))
def test_shown_sources_are_the_repository_files(path):
    text = path.read_text(encoding="utf-8")
    for block in docs.parse(path):
        if block.kind == "source":
            assert docs.body(text, block) == docs.produce(block), f"{block.name}: run docs/generate_outputs.py"


def test_what_varies_between_runs_is_masked():
    shown = docs.normalise("Run\n  threads            2\n  elapsed_seconds    0.655\n  games_per_second   152740  \n"
                           "  seed               0\nwrote /scratch/x/r.csv\n", ("/scratch/x",))
    assert shown == ("Run\n  threads            …\n  elapsed_seconds    …\n  games_per_second   …\n"
                     "  seed               0\nwrote ./r.csv")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(h) for h in HEADING.findall(CODE.sub("", path.read_text(encoding="utf-8")))}


@pytest.mark.parametrize("path", FILES, ids=ids(FILES))
def test_relative_links_lead_into_the_repository(path):
    text = CODE.sub("", path.read_text(encoding="utf-8"))
    problems = []
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        file_part, _, anchor = target.partition("#")
        resolved = (path.parent / file_part).resolve() if file_part else path
        if not resolved.is_relative_to(ROOT):
            problems.append(f"{target}: outside the repository")
        elif not resolved.exists():
            problems.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            problems.append(f"{target}: no heading #{anchor}")
    assert problems == [], f"{path.relative_to(ROOT)}: " + "; ".join(problems)


@pytest.mark.parametrize("path", FILES, ids=ids(FILES))
def test_no_page_names_a_path_of_a_machine(path):
    found = [line for line in path.read_text(encoding="utf-8").splitlines() if MACHINE_PATH.search(line)]
    assert found == []


def test_the_readme_starts_with_the_two_commands_and_stays_short():
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(readme) <= 250
    ci = (ROOT / ".ci" / "run").read_text().splitlines()[-1]
    head = readme[:12]
    assert ci in head, "the README's test command must be exactly what .ci/run runs"
    assert any(line.startswith("pip install . && medici-sim") for line in head)
    assert any("3.11" in line and "venv" in line for line in head)


@pytest.mark.slow
def test_every_shown_output_is_what_its_command_prints():
    """Runs every marked command (about a minute with warm kernels, a few from a cold cache).
    On a difference: run ``python docs/generate_outputs.py`` and read the diff before committing."""
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], cwd=ROOT, capture_output=True, text=True,
                          timeout=1800)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]


def _commands():
    """Every medici-sim command, the main one first: (name, click command)."""
    import click

    from medici_sim.cli.app import cli

    return [("medici-sim", cli), *((name, command) for name, command in cli.commands.items()
                                   if isinstance(command, click.Command))]


def _long_options(command) -> set[str]:
    return {o for p in command.params for o in (*p.opts, *p.secondary_opts) if o.startswith("--")} | {"--help"}


def test_the_run_guide_option_table_names_every_option_of_the_main_command():
    """docs/guide/run.md's table against the main command's --help: every option it has is
    in the table (by its first long name), and the table names no option it has not."""
    from medici_sim.cli.app import cli

    table = [line for line in (ROOT / "docs" / "guide" / "run.md").read_text().splitlines() if line.startswith("| `-")]
    named = {o for row in table for o in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", row.split(" | ")[0])}
    options = _long_options(cli)
    first = {next(o for o in p.opts if o.startswith("--")) for p in cli.params
             if not getattr(p, "hidden", False) and any(o.startswith("--") for o in p.opts)}
    assert first <= named, sorted(first - named)
    assert named <= options, sorted(named - options)


def test_every_option_a_guide_names_exists():
    """An option written in a guide page is an option of some medici-sim command (Dask's own
    dask-scheduler/dask-worker options excepted)."""
    options = set().union(*(_long_options(command) for _, command in _commands())) | {"--nthreads", "--nworkers"}
    for page in sorted((ROOT / "docs" / "guide").glob("*.md")):
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", page.read_text()))
        assert named <= options, (page.name, sorted(named - options))


def test_the_help_names_the_extras_an_option_needs():
    """--report and --plot need matplotlib, design optuna: their help says which extra; the main
    command's --out names every table it writes; balance's --game offers every game."""
    from medici_sim.cli.app import cli
    from medici_sim.cli.run import TABLES

    for name, command in _commands():
        for param in command.params:
            if param.name in ("report_path", "plot_path"):
                assert 'pip install "medici-sim[analysis]"' in param.help, (name, param.name)
            if param.name == "out_path":
                assert 'pip install "medici-sim[parquet]"' in param.help, name
    assert 'pip install "medici-sim[design]"' in cli.commands["design"].help
    out = next(p for p in cli.params if p.name == "out_path").help
    assert all(f"FILE-{table}.EXT" in out for table in TABLES[1:]), out
    game = next(p for p in cli.commands["balance"].params if p.name == "game_name")
    assert set(game.type.choices) == set(GAMES) and game.metavar is None  # it showed [card]


@pytest.mark.parametrize("args", [("--report", "r.html"), ("compare", "--report", "r.html"),
                                  ("sweep", "--rule", "bonus=10..20:10", "--plot", "s.png"),
                                  ("tune", "greedy", "--plot", "t.png", "-m")])
def test_a_missing_extra_is_one_line_naming_it(capsys, monkeypatch, tmp_path, args):
    from conftest import run

    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # not installed
    code, out, err = run(capsys, *args, *(("10",) if args[-1] == "-m" else ("-n", "10")))
    assert code == 2 and out == "" and err.count("\n") == 1 and "pip install 'medici-sim[analysis]'" in err, err
