"""Plug-ins: the names they may take, the parameters they may declare, and numba's cache of
their functions (a plug-in file also imported under its own name)."""
from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
import uuid

import pytest
from conftest import run
from numba import njit

from medici_sim.core.plugins import PluginError, load_plugin
from medici_sim.core.registry import GAMES, Param, RegistrationError, Strategy


def plugin_source(name: str, params: str = "{}", extra: str = "") -> str:
    return textwrap.dedent(f'''
        from numba import njit
        from medici_sim.games.card.strategies import Param, Strategy, register

        @njit(cache=True)
        def helper_nb(x):
            return x + 1

        @njit(cache=True)
        def reveal_nb(state, seat, params):
            return helper_nb(seat) > 100

        @njit(cache=True)
        def take_nb(state, seat, params):
            return 0

        register(Strategy(name={name!r}, decisions={{"reveal_nb": reveal_nb, "take_nb": take_nb}}, params={params}))
        {extra}
    ''')


def write(tmp_path, file_name: str, source: str) -> str:
    path = tmp_path / file_name
    path.write_text(source)
    return str(path)


@njit
def _reveal_nb(state, seat, params):
    return False


@njit
def _take_nb(state, seat, params):
    return 0


def strategy(name: str, **params: Param) -> Strategy:
    return Strategy(name, {"reveal_nb": _reveal_nb, "take_nb": _take_nb}, params)


# ---------------------------------------------------------------- names

@pytest.mark.parametrize("game", ["card", "classic"])
def test_no_plugin_takes_a_built_in_name(tmp_path, game):
    registry = GAMES[game].registry
    built_ins = [name for name in registry if registry.origin[name] == "built-in"]
    assert "search" in built_ins and "expert" in built_ins and "random" in built_ins
    source = plugin_source("NAME")
    if game == "classic":
        source = (source.replace("card.strategies", "classic.strategies").replace("reveal_nb", "draw_nb")
                  .replace("take_nb", "bid_nb"))
    for name in built_ins:
        path = write(tmp_path, f"{name}.py", source.replace("'NAME'", repr(name)))
        before = dict(registry.strategies)
        with pytest.raises(PluginError) as refusal:
            load_plugin(path)
        assert str(refusal.value) == (f"--plugin {path}: strategy name {name} is a built-in strategy of the "
                                      f"{game} game; give the strategy another name")
        assert registry.strategies == before and registry.origin[name] == "built-in"


def test_a_built_in_is_never_registered_again_with_other_parameters(tmp_path):
    """Not even with its own functions: a plug-in could otherwise give `expert` a losing default."""
    path = write(tmp_path, "sabotage.py", textwrap.dedent('''
        from medici_sim.games.card.strategies import REGISTRY, Param, Strategy, register
        expert = REGISTRY["expert"]
        register(Strategy("expert", expert.decisions, {**expert.params, "spread": Param(20, 0.5, 20)}))
    '''))
    with pytest.raises(PluginError, match="strategy name expert is a built-in strategy of the card game"):
        load_plugin(path)
    assert GAMES["card"].registry["expert"].params["spread"].default == 2


def test_human_is_reserved_even_when_not_registered(tmp_path):
    registry = GAMES["card"].registry
    assert "human" not in registry  # only `medici-sim play` registers it
    path = write(tmp_path, "person.py", plugin_source("human"))
    with pytest.raises(PluginError, match="strategy name human is reserved for the person at the table"):
        load_plugin(path)
    with pytest.raises(RegistrationError, match="reserved"):
        registry.register(strategy("human"))
    assert "human" not in registry
    from medici_sim.core import human

    person = human.register_human(GAMES["card"])
    human.register_human(GAMES["card"])  # `medici-sim play` registers it again: the same strategy
    with pytest.raises(RegistrationError, match="reserved"):  # its own functions, under another summary
        registry.register(Strategy("human", person.decisions, summary="a bot in the person's chair"))


def test_only_a_built_in_is_compiled_into_the_play_loop(tmp_path):
    """``inline=True`` (core.dispatch): the play loop is cached under a hash of the game's sources, which a
    plug-in is not among; one asking to be inlined is refused, and nothing of it is registered."""
    path = write(tmp_path, "inlined.py", plugin_source("inlined").replace("params={})", "params={}, inline=True)"))
    with pytest.raises(PluginError, match="strategy inlined: only the game's own built-ins are compiled into its "
                                          "play loop; register it without inline=True"):
        load_plugin(path)
    assert "inlined" not in GAMES["card"].registry
    with pytest.raises(RegistrationError, match="only the game's own built-ins"):  # from a notebook too
        GAMES["card"].registry.register(Strategy("cell", {"reveal_nb": _reveal_nb, "take_nb": _take_nb}, inline=True))


def test_two_plugins_of_one_name_are_refused_naming_both_files(tmp_path):
    first = write(tmp_path, "first.py", plugin_source("twin"))
    second = write(tmp_path, "second.py", plugin_source("twin", extra="# another file"))
    load_plugin(first)
    with pytest.raises(PluginError) as refusal:
        load_plugin(second)
    assert str(refusal.value) == (f"--plugin {second}: strategy twin is registered twice in the card game: by "
                                  f"{first} and by {second}; give one of them another name")
    assert GAMES["card"].registry.origin["twin"] == first  # the first one stays
    assert load_plugin(first) == [("card", "twin")]  # loading the same file again is harmless


def test_the_module_that_registered_a_name_may_register_it_again():
    registry = GAMES["card"].registry
    registry.register(strategy("again"))
    registry.register(strategy("again", nerve=Param(1.0, 0.0, 2.0)))  # a notebook cell run twice, edited
    assert list(registry["again"].params) == ["nerve"]
    registry.register(registry["expert"])  # the very same strategy: nothing changes
    assert registry.origin["expert"] == "built-in"


def test_a_hijacking_plugin_is_refused_by_every_command(capsys, tmp_path):
    path = write(tmp_path, "expert.py", plugin_source("expert"))
    for argv in (["-n", "100", "--plugin", path], ["check-plugin", path],
                 ["play", "--plugin", path, "--seed", "1"], ["compare", "-n", "100", "--plugin", path]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "", (argv, out, err)
        named = "check-plugin" if argv[0] == "check-plugin" else "--plugin"  # how each command names the file
        assert err == (f"medici-sim: error: {named} {path}: strategy name expert is a built-in strategy of the "
                       "card game; give the strategy another name\n")
    path = write(tmp_path, "human.py", plugin_source("human"))
    code, out, err = run(capsys, "play", "--plugin", path, "--opponents", "human", "--seed", "1")
    assert code == 2 and "strategy name human is reserved" in err and "Traceback" not in err


def test_every_request_of_the_api_loads_its_own_plugins(tmp_path):
    """A command's --plugin travels down in its API request, which loads the files before it
    checks the strategies they name (the commands load none themselves)."""
    from medici_sim import api

    path = write(tmp_path, "expert.py", plugin_source("expert"))  # refused as it loads: nothing is played
    for start in (api.RunRequest(plugins=[path]).config, api.RunRequest(plugins=[path]).start,
                  api.StudyRequest("compare", plugins=[path]).start,
                  api.SweepRequest("bonus=0..10:5", plugins=path).sweep,
                  api.DesignRequest("bonus=0..10", plugins=[path]).design,
                  api.TuneRequest("expert", plugins=[path]).start,
                  lambda: api.tell(api.TraceRequest(plugins=[path]))):
        with pytest.raises(PluginError, match="strategy name expert is a built-in strategy"):
            start()


# ---------------------------------------------------------------- parameters

@pytest.mark.parametrize("param, message", [
    (Param(5, 0, 1), "the default of parameter p is not one of its values: parameter p of bad must be between 0 "
                     "and 1, got 5"),
    (Param(0.5, 1, 0), "parameter p has low 1 above high 0"),
    (Param(1.5, 0, 3, integer=True), "the default of parameter p is not one of its values: parameter p of bad "
                                     "must be a whole number, got 1.5"),
    (Param(math.nan), "the default of parameter p is not one of its values: parameter p of bad must be between "
                      "-inf and inf, got nan"),
    (Param(math.inf), "the default of parameter p is not one of its values: parameter p of bad must be between "
                      "-inf and inf, got inf"),
    (Param(0, math.nan, 1), "parameter p has low nan above high 1"),
    (Param(0, 0, 2, integer=True, choices=("a", "b")), "parameter p names 2 choices, not one distinct name "
                                                       "(letters, digits, _) for each whole number 0..2"),
    (Param(0, 0, 1, choices=("a", "b")), "parameter p names 2 choices, not one distinct name (letters, digits, _) "
                                         "for each whole number 0..1"),
    (Param(0, 0, 1, integer=True, choices=("a", "a")), "parameter p names 2 choices, not one distinct name "
                                                       "(letters, digits, _) for each whole number 0..1"),
    (Param(0, 0, 1, integer=True, choices=("a", "1")), "parameter p names 2 choices, not one distinct name "
                                                       "(letters, digits, _) for each whole number 0..1"),
])
def test_a_parameter_outside_its_own_range_is_refused_at_registration(param, message):
    with pytest.raises(RegistrationError) as refusal:
        GAMES["card"].registry.register(strategy("bad", p=param))
    assert str(refusal.value) == f"strategy bad: {message}"
    assert "bad" not in GAMES["card"].registry


def test_parameters_must_be_numbers_with_names_that_parse():
    registry = GAMES["card"].registry
    with pytest.raises(TypeError, match="the high of parameter p is '3', not a number"):
        registry.register(strategy("bad", p=Param(1, 0, "3")))
    with pytest.raises(RegistrationError, match="parameter name must be an identifier, got 'a=b'"):
        registry.register(strategy("bad", **{"a=b": Param(1)}))
    assert "bad" not in registry


def test_every_built_in_declares_usable_parameters():
    for game in GAMES.values():
        for name, s in game.registry.items():
            for param_name, param in s.params.items():
                param.check_declaration(name, param_name)


def test_a_bad_parameter_in_a_plugin_is_one_line(capsys, tmp_path):
    path = write(tmp_path, "nerve.py", plugin_source("nervous", params='{"nerve": Param(3.0, 0.0, 2.0)}'))
    code, out, err = run(capsys, "-n", "100", "--plugin", path)
    assert code == 2 and err == (f"medici-sim: error: --plugin {path}: strategy nervous: the default of parameter "
                                 "nerve is not one of its values: parameter nerve of nervous must be between 0 and 2, "
                                 "got 3\n")


# ---------------------------------------------------------------- numba's cache of a plug-in's functions

def python(cwd, script: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(cwd), os.environ.get("PYTHONPATH", "")])}
    env.pop("NUMBA_CACHE_DIR", None)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


IMPORTED = "import cached_plugin\nprint(cached_plugin.helper_nb(1))\n"
LOADED = """
    import sys
    from medici_sim.core.plugins import load_plugin
    load_plugin("cached_plugin.py")
    module = next(m for name, m in sys.modules.items() if name.startswith("medici_plugin_"))
    print(module.helper_nb(1))
"""


@pytest.mark.slow  # two processes, each compiling a plug-in (9 s)
def test_a_plugin_imported_and_loaded_keeps_two_caches(tmp_path):
    """numba caches a function by its file's path but stores the module it was compiled in:
    once loaded as a plug-in and once imported as itself, each process must find its own cache.
    One sequence holds both orders (a load after an import, an import after a load, each finding
    its cache again after the other wrote): it was two tests of three new processes each."""
    write(tmp_path, "cached_plugin.py", plugin_source(f"cached_{uuid.uuid4().hex[:8]}"))
    for script in (IMPORTED, LOADED, IMPORTED, LOADED):
        done = python(tmp_path, script)
        assert done.returncode == 0 and done.stdout == "2\n", done.stderr
    cache = tmp_path / "__pycache__"
    assert list(cache.glob("cached_plugin.helper_nb-*.nbi"))  # the import's
    assert [p.parent.name.startswith("medici_plugin_") for p in cache.glob("*/cached_plugin.helper_nb-*.nbi")] == [True]


@pytest.mark.slow
def test_a_plugin_compiled_by_its_unit_tests_still_runs_with_plugin(tmp_path):
    """The whole story through the command line: the plug-in's own tests compile it (a normal
    import), then a run loads it with --plugin (a new kernel: its functions compile again),
    and its tests still run afterwards."""
    name = f"cached_{uuid.uuid4().hex[:8]}"  # a new kernel: the plug-in's functions are compiled, not loaded
    write(tmp_path, "cached_plugin.py", plugin_source(name))
    assert python(tmp_path, IMPORTED).stdout == "2\n"
    done = subprocess.run([sys.executable, "-m", "medici_sim", "-n", "200", "-q", "-p", "2", "-s", name,
                           "--plugin", "cached_plugin.py"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "games              200" in done.stdout
    assert python(tmp_path, IMPORTED).stdout == "2\n"
