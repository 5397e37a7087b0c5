"""The package's structure: layers, import circles, file sizes, game names, import side effects.

The import graph is read from the sources with ``ast``: every import, at module level or
inside a function, is an edge, and so is the package ``__init__`` each import runs on the
way (``from .x import y`` runs ``x``'s ancestors that the importer is not inside of).
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import medici_words
import pytest

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "src" / "medici_sim"
MAX_LINES = 600
MAX_REFERENCE_LINES = 800  # a reference engine, read top to bottom
GAME_NAMES = ("card", "classic", "bonus20")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _imported(name: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The package's modules an import statement in module ``name`` names."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in MODULES]
    if node.level:
        here = name if _is_package(name) else name.rpartition(".")[0]
        base = ".".join(here.split(".")[:len(here.split(".")) - node.level + 1])
        target = f"{base}.{node.module}" if node.module else base
    else:
        target = node.module or ""
    if target not in MODULES:
        return []
    # ``from package import x``: the submodule x where there is one, else the package itself
    found = [f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in MODULES]
    if len(found) < len(node.names):
        found.append(target)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules its imports run (anywhere in it, functions included)."""
    graph = {}
    for name, path in MODULES.items():
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _imported(name, node):
                    edges.add(target)
                    edges.update(a for a in _ancestors(target) if a not in _ancestors(name) and a != name)
        edges.discard(name)
        graph[name] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_imports_inside_functions_and_through_packages():
    graph = import_graph()
    assert "medici_sim.api" in graph["medici_sim.cli.app"] or "medici_sim.core.registry" in graph["medici_sim.cli.app"]
    # function-level: the root imports its public names when first asked for them
    assert "medici_sim.api" in graph["medici_sim"]
    # ``from . import x`` is the submodule x; ``from ..core.registry import y`` runs core's __init__ too
    assert "medici_sim.games.card.strategies.random" in graph["medici_sim.games.card.strategies.heuristics"]
    assert "medici_sim.core" in graph["medici_sim.study.tuning"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]


def test_no_import_circles():
    assert _cycles(import_graph()) == []


ABOVE = {  # a layer -> the layers above it, which it must not import
    "medici_sim.core": ("medici_sim.study", "medici_sim.cli", "medici_sim.api", "medici_sim.games",
                        "medici_sim.frameworks", "medici_sim.reports"),
    "medici_sim.study": ("medici_sim.cli", "medici_sim.api", "medici_sim.games", "medici_sim.frameworks",
                         "medici_sim.reports"),
    "medici_sim.api": ("medici_sim.cli",),
}


@pytest.mark.parametrize("layer", sorted(ABOVE))
def test_a_layer_imports_no_layer_above_it(layer):
    wrong = {name: sorted(t for t in targets if t.startswith(ABOVE[layer]))
             for name, targets in import_graph().items() if name.startswith(layer)}
    assert {name: targets for name, targets in wrong.items() if targets} == {}


def test_the_command_line_opens_nothing_itself():
    """A command's options travel down once, through the API (api.Watch): the command line neither saves
    checkpoints nor starts a cluster; the API does (medici_sim.watch)."""
    graph = import_graph()
    opening = ("medici_sim.core.checkpoint", "medici_sim.core.cluster")
    assert {name: sorted(t for t in targets if t in opening) for name, targets in graph.items()
            if name.startswith("medici_sim.cli") and targets & set(opening)} == {}
    assert "medici_sim.core.cluster" in graph["medici_sim.watch"]


def test_templates_are_bound_to_their_names_in_one_place():
    """A jitted copy of a function with other globals (types.FunctionType) and generated source
    (exec) are made by core.templates alone: the batch loop, stepping, rollouts, tree search and
    the dispatch switches all bind their templates through it."""
    makers = {name for name, path in MODULES.items() for node in ast.walk(ast.parse(path.read_text()))
              if isinstance(node, ast.Attribute) and node.attr == "FunctionType"
              and getattr(node.value, "id", "") != "ir"  # llvmlite's ir.FunctionType: an LLVM type, not a copy
              or isinstance(node, ast.Call) and getattr(node.func, "id", "") == "exec"}
    assert makers == {"medici_sim.core.templates"}


def test_a_games_table_name_hashes_every_games_package_its_code_imports():
    """A kernel's cached machine code is named by a hash of the sources it compiles (core.dispatch._table_name):
    core's, the game's package and the games' packages it imports (the card and classic games import the
    Medici toolkit, games/medici: the day loop, mcts), so that an edit there never meets an older kernel."""
    from medici_sim.core.registry import GAMES
    graph = import_graph()
    for game in GAMES.values():
        registry = game.registry
        if not registry.package.startswith("medici_sim.games."):
            continue
        imported = {target.split(".")[2] for name, targets in graph.items() if name.startswith(registry.package)
                    for target in targets if target.startswith("medici_sim.games.") and target.count(".") > 1}
        installed = Path(registry.source_dirs[0]).parent  # games/ where installed (CI: not this src/)
        hashed = {d.relative_to(installed).parts[0] for d in registry.source_dirs}
        assert imported <= hashed, game.name


def test_a_games_table_name_hashes_every_core_file_whose_jitted_code_a_kernel_compiles_in():
    """numba's cache checks a cached function's own file only: a core file whose jitted functions a kernel or a
    strategy's cached decision calls (core.tree's for mcts, core.evaluation's for strong) is hashed into the
    table's name (core.dispatch._KERNEL_CORE_FILES), so that an edit there never meets older machine code. The
    others' jitted code is compiled on its own, in their own file's cache."""
    from medici_sim.core import dispatch

    own_cache_only = {"pairing.py": "the paired loop: its top function, cached under its own file",
                      "human.py": "the person's decisions: their wrapper's name hashes this file (dispatch._address)",
                      "contract.py": "no jitted code: its docstrings name @njit"}
    core = Path(dispatch.__file__).parent
    jitted = {p.name for p in core.glob("*.py") if "njit" in p.read_text() or "jitted_copy" in p.read_text()}
    assert jitted - set(own_cache_only) <= set(dispatch._KERNEL_CORE_FILES)
    assert set(own_cache_only) <= jitted  # an exemption whose file no longer has jitted code goes


def test_jitted_code_lives_in_core_and_the_games_only():
    """core.cache stamps cached code with the sources of core/ and games/ (a change anywhere there compiles it
    again): no other part of the package may hold code numba compiles."""
    from medici_sim.core import cache

    package = Path(cache.__file__).parents[1]
    outside = [p.relative_to(package).as_posix() for p in package.rglob("*.py")
               if p.relative_to(package).parts[0] not in cache._KERNEL_LAYERS
               and any(word in p.read_text() for word in ("njit", "jitted_copy", "@jit"))]
    assert outside == []


def test_no_source_file_is_too_long():
    limits = {path.relative_to(PACKAGE).as_posix(): MAX_REFERENCE_LINES if path.name == "reference.py" else MAX_LINES
              for path in MODULES.values()}
    lengths = {name: len((PACKAGE / name).read_text().splitlines()) for name in limits}
    assert {name: n for name, n in lengths.items() if n > limits[name]} == {}


def _game_names(path: Path) -> list[str]:
    """Where a module names a game: a string that is a game's (or its variant's) name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in GAME_NAMES:
            found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value!r}")
        if isinstance(node, ast.ImportFrom) and node.module and \
                any(f"games.{game}" in f".{node.module}" for game in GAME_NAMES):
            found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} imports {node.module}")
    return found


def test_no_code_outside_the_games_names_a_game():
    named = [hit for name, path in MODULES.items() if not name.startswith("medici_sim.games")
             for hit in _game_names(path)]
    assert named == []


def test_the_game_name_check_sees_names():
    games_code = MODULES["medici_sim.games.card.game"]
    assert _game_names(games_code)  # the card game names itself


def test_no_new_medici_word_outside_the_games():
    """core/, study/, cli/, api.py and frameworks/ hold no Medici word (day, ship, majority, bonus,
    florin, deck, poorest, a built-in strategy's name), docstrings and comments included, beyond
    the counts of the allow-list (tests/medici_words.py, each with its reason); a file the list does not
    name holds none."""
    grown = {}
    for path in medici_words.layer_files():
        name = path.relative_to(PACKAGE).as_posix()
        allowed = medici_words.ALLOWED.get(name, {})
        more = {word: n for word, n in medici_words.medici_words(path).items() if n > allowed.get(word, 0)}
        if more:
            grown[name] = {word: f"{n} (allowed {allowed.get(word, 0)})" for word, n in more.items()}
    assert grown == {}, "Medici words outside games/ (move the idea into the game, or declare it in core.contract)"


def test_the_medici_word_guard_sees_words_in_identifiers_docstrings_and_names(tmp_path):
    path = tmp_path / "example.py"
    path.write_text('"""Each day the poorest starts."""\nSTAT_SHIP = ran_out_days = DeckError = 0  # florins\n'
                    'names = ("random", "expert", "shipped", "randomly", "strongest")\n')
    assert medici_words.medici_words(path) == {"day": 2, "poorest": 1, "ship": 1, "deck": 1, "florin": 1,
                                               "random": 1, "expert": 1}


def test_the_medici_word_guard_counts_plain_english_built_in_names_only_where_they_name_the_strategy(tmp_path):
    """search, strong, random and mcts are counted as strategies only: quoted, in double backticks or as a
    spec (search:rollouts=8), not as optuna's search, a strong player, a random draw or OpenSpiel's mcts
    module; value (a column, a parameter's value) is not counted at all."""
    path = tmp_path / "example.py"
    path.write_text('"""optuna\'s search, a strong player, a random draw, mcts.MCTSBot: the "value" column."""\n'
                    'SEARCH_BLOCK = 0\nslow = ("search", \'mcts\')  # ``strong`` and ``random``\n'
                    'hint = "fewer rollouts (search:rollouts=8)"\n')
    assert medici_words.medici_words(path) == {"search": 2, "mcts": 1, "strong": 1, "random": 1}


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_importing_the_package_does_nothing():
    """No signal handler (even in what looks like the command's process), no data file read,
    no game registered, nothing heavy imported: the public names come when first used."""
    out = _python("""
        import signal, sys
        sys.argv = ["/usr/bin/medici-sim", "-n", "5"]
        opened = []
        sys.addaudithook(lambda event, args: opened.append(args[0]) if event == "open" else None)
        handlers = [signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)]  # as inherited
        import medici_sim
        print([signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)] == handlers)
        print(sorted(m for m in sys.modules if m.startswith("medici_sim")))
        print(any(m in sys.modules for m in ("numba", "numpy", "pandas", "click")))
        print([str(p) for p in opened if "medici_sim" in str(p) and not str(p).endswith((".py", ".pyc"))])
        print(callable(medici_sim.simulate), sorted(medici_sim.list_games()) != [])
    """).splitlines()
    assert out == ["True", "['medici_sim', 'medici_sim._version']", "False", "[]", "True True"]


def test_importing_the_api_parses_no_data_file_and_registers_nothing_into_other_games():
    """The API's import loads the games (numba, engines, strategies) but reads no tuned
    parameters (search reads them when a kernel that plays them compiles), installs no
    signal handler, and each game's registry holds its own built-ins only (``human`` joins
    a game only for ``medici-sim play``)."""
    out = _python("""
        import json, signal, sys
        parsed = []
        loads = json.loads
        json.loads = lambda text, *a, **k: parsed.append('"tuned"' in str(text)) or loads(text, *a, **k)
        handler = signal.getsignal(signal.SIGINT)  # as inherited (a shell's background job ignores SIGINT)
        import medici_sim.api
        from medici_sim.core.registry import GAMES
        print(sum(parsed), signal.getsignal(signal.SIGINT) is handler)
        first = {g.name: [*g.built_ins, *[s for s in [g.study and g.study.searcher] if s]] for g in GAMES.values()}
        print(all(list(g.registry)[:len(first[g.name])] == first[g.name]
                  and set(list(g.registry)[len(first[g.name]):]) <= {"strong", "mcts"}
                  for g in GAMES.values()), len(GAMES) > 1)
    """).splitlines()
    assert out == ["0 True", "True True"]


def test_importing_the_games_loads_no_table_library():
    """The games (their engines, decks and strategies) load without pandas, matplotlib or click:
    a plug-in, a notebook or a framework adapter that only plays pays only for numba."""
    out = _python("""
        import sys
        import medici_sim.games
        print(sorted(m for m in ("pandas", "matplotlib", "click", "scipy.stats") if m in sys.modules))
    """).splitlines()
    assert out == ["[]"]


@pytest.mark.parametrize("game", ["card", "classic", "tuscany"])
def test_the_shipped_tuned_file_is_what_the_tuning_history_makes(game):
    """games/GAME/data/tuned/tuned.json holds what is read (the tuned and cross_check tables),
    made from the whole tune --out kept in tuning-history/ by scripts/ship_tuned.py."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from ship_tuned import SHIPPED_TABLES, shipped
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    history = f"tuning-history/{game}.json"
    made = shipped(json.loads((ROOT / history).read_text()), history)
    assert json.loads((PACKAGE / "games" / game / "data" / "tuned" / "tuned.json").read_text()) == made
    assert set(made) == {"source", *SHIPPED_TABLES}
    assert (PACKAGE / "games" / game / "data" / "tuned" / "tuned.json").stat().st_size < 100_000
    with pytest.raises(ValueError, match="not a file written by tune --out FILE.json"):
        shipped({"summary": {}, "tuned": []}, "partial.json")  # no cross_check table
