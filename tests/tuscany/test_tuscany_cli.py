"""The Castles of Tuscany through the command line (issue 32): its component files and rules refused in one
line with exit 2 for every fault, its checkpoints resumed (T36's tie-breaks in the saved totals), its
balance across component sets, and a plug-in of its own."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run

from medici_sim.games.tuscany.components import named_components

EXAMPLE = Path(__file__).parents[2] / "examples" / "tuscany_mason.py"


def component_file(tmp_path, change) -> str:
    data = json.loads(named_components()["reconstructed"].to_json())
    change(data)
    path = tmp_path / "set.json"
    path.write_text(json.dumps(data))
    return str(path)


def _drop(key):
    return lambda d: d.pop(key)


def _set(key, value):
    return lambda d: d.__setitem__(key, value)


def _board(d):
    d["boards"]["A1"] = ["LORO", "WLYUD"]  # 9 fields


def _colour(d):
    d["region_cards"]["X"] = 3


def _yield(d):
    d["yield_cards"][0]["kind"] = "gold"


def _range(d):
    d["colour_bonus"]["D"] = [2, 999]


def _count(d):
    d["player_tiles"]["D"] = -1


def _no_assembly(d):
    for name in d["boards"]:
        d["boards"][name] = ["DDDDD", "DDDDD"]


BAD_FILES = [
    ("missing key", _drop("region_cards"), "region_cards"),
    ("a board without 10 fields", _board, "A1"),
    ("an unknown colour", _colour, "X"),
    ("a yield card of an unknown kind", _yield, "gold"),
    ("a value out of range", _range, "colour_bonus"),
    ("a wrong count", _count, "player_tiles"),
    ("no legal assembly", _no_assembly, "assembl"),
    ("an unknown format", _set("format", "tuscany-components 9"), "format"),
]


@pytest.mark.parametrize(("what", "change", "named"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_a_bad_component_file_is_one_line_naming_its_fault_and_exit_2(capsys, tmp_path, what, change, named):
    code, out, err = run(capsys, "--game", "tuscany", "-n", "10", "--components", component_file(tmp_path, change))
    assert code == 2 and not out, (what, out)
    assert err.startswith("medici-sim: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert named in err and "set.json" in err, (what, err)


def test_unreadable_and_non_json_component_files_are_one_line(capsys, tmp_path):
    (tmp_path / "text.json").write_text("not json at all")
    for path in (tmp_path / "missing.json", tmp_path / "text.json", tmp_path):
        code, _, err = run(capsys, "--game", "tuscany", "-n", "10", "--components", str(path))
        assert code == 2 and err.startswith("medici-sim: error: ") and err.count("\n") == 1, err


@pytest.mark.parametrize(("rules", "named"), [
    ("draw=99", "draw=99"), ("no_such_rule=1", "no_such_rule"), ("region_scores=1/2", "region_scores"),
    ("stack_size=20", "stack_size=20"), ("bonus20", "bonus20"), ("draw=x", "draw"),
])
def test_bad_rules_are_one_line_and_exit_2(capsys, rules, named):
    code, _, err = run(capsys, "--game", "tuscany", "-n", "10", "--rules", rules)
    assert code == 2 and err.startswith("medici-sim: error: ") and err.count("\n") == 1, err
    assert named in err, err


def test_the_rule_book_lists_t40s_parameters_and_the_original_preset(capsys):
    code, out, _ = run(capsys, "rules", "--game", "tuscany")
    assert code == 0 and "T13" in out and "original" in out and "round_limit" in out


def test_a_checkpoint_of_tie_broken_games_resumes(capsys, tmp_path):
    """T36 wins games of equal red by its tie-breaks (margin 0, no joint winners): the saved totals are
    consistent (core.totals_check knows the game's tie-breaks), and resuming gives the same tables."""
    saved = tmp_path / "run.json"
    code, first, err = run(capsys, "--game", "tuscany", "-n", "3000", "-q", "--components", "large-regions",
                           "--checkpoint", str(saved))
    assert code == 0, err
    code, again, err = run(capsys, "--game", "tuscany", "-n", "3000", "-q", "--components", "large-regions",
                           "--resume", str(saved))
    assert code == 0, err
    assert first.split("\nRun\n")[0] == again.split("\nRun\n")[0]


def test_balance_says_whether_its_verdict_holds_across_component_sets(capsys):
    code, out, err = run(capsys, "balance", "--game", "tuscany", "-n", "200", "-p", "2", "--components", "all", "-q")
    assert code == 0, err
    assert "Across 3 component sets" in out and "large-regions" in out and "other-values" in out


@pytest.mark.slow  # the plug-in's table compiles a Tuscany play loop of its own (33 CPU s); the quick subset runs a
# plug-in through check-plugin and a run in the card game (test_check_plugin's clean plug-in, test_card_strategies)
def test_a_plugin_strategy_of_the_game_plays_compares_and_checks(capsys):
    code, out, err = run(capsys, "check-plugin", str(EXAMPLE), "-n", "200")
    assert code == 0 and "no problems found" in out, (out, err)
    code, out, err = run(capsys, "compare", "--game", "tuscany", "--plugin", str(EXAMPLE), "-s", "mason,random",
                         "-n", "200", "-p", "2", "-q")
    assert code == 0 and "mason" in out, err


def test_tuning_a_strategy_without_parameters_refuses_in_one_line(capsys):
    code, _, err = run(capsys, "tune", "--game", "tuscany", "random")
    assert code == 2 and err.startswith("medici-sim: error: ") and err.count("\n") == 1, err


def test_trace_tells_a_game_with_its_estates_drawn(capsys):
    code, out, err = run(capsys, "trace", "--game", "tuscany", "--players", "2", "--seed", "3")
    assert code == 0, err
    assert "T12" in out and "T35" in out and max(map(len, out.splitlines())) <= 100


def test_the_shipped_tuned_parameters_were_checked_on_fresh_games_and_play(capsys):
    """games/tuscany/data/tuned/tuned.json (tune --out's tables, tuning-history/tuscany.json): every built-in
    with parameters at 2-4 players under both editions; a tuning ships only where its fresh games showed a
    significant paired gain (its interval above 0), else the defaults; balance --tuned shipped plays them."""
    from medici_sim.games.tuscany.registration import GAME, TUNED_FILE
    from medici_sim.games.tuscany.strategies import BUILT_INS, REGISTRY

    assert GAME.study.tuned_file == TUNED_FILE and TUNED_FILE.is_file()
    rows = json.loads(TUNED_FILE.read_text())["tuned"]
    tuned = {name for name in BUILT_INS if REGISTRY[name].params}
    assert {(r["strategy"], r["players"], r["rules"]) for r in rows} == {
        (name, players, rules) for name in tuned for players in (2, 3, 4) for rules in ("standard", "original")}
    for row in rows:
        assert row["fresh_games"] >= 10_000 and row["game"] == "tuscany"
        assert row["significant"] == (row["improvement_ci_low"] > 0), row
        defaults = ",".join(f"{k}={p.default:g}" for k, p in REGISTRY[row["strategy"]].params.items())
        if not row["significant"]:
            assert row["best"] == f"{row['strategy']}:{defaults}", row
    code, out, err = run(capsys, "balance", "--game", "tuscany", "-p", "2", "-n", "200", "--tuned", "shipped", "-q")
    assert code == 0, err


def test_search_takes_its_policy_and_opponents_by_name(capsys):
    """search's policy and opponents: a built-in's name or its number (the same slot); a wrong name is one line
    naming the option and the choices, exit 2; `strategies` shows the defaults by name."""
    from medici_sim.cli.common import parse_strategies
    from medici_sim.core.registry import get_game

    policies = get_game("tuscany").registry["search"].params["policy"].choices
    assert parse_strategies("search:policy=trader:opponents=random", 2, "tuscany") == \
        parse_strategies(f"search:policy={policies.index('trader')}:opponents=0", 2, "tuscany")
    code, _, err = run(capsys, "--game", "tuscany", "-n", "10", "-s", "search:opponents=Trader")
    assert code == 2 and err.strip() == ("medici-sim: error: --strategies: parameter opponents of search must be a "
                                         f"number or one of {', '.join(policies)}, got 'Trader'")
    code, out, _ = run(capsys, "strategies", "--game", "tuscany", "--wide")
    assert "policy=expert, opponents=expert" in next(line for line in out.splitlines() if line.startswith("search "))
