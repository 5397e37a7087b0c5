"""Rules as data (core.rules, the card game's RULE_BOOK): every number a designer may change is a
named parameter with its rulebook default, a range and a rule point; specs name rule sets; the
jitted engine and the reference engine play the same games under any of them."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import SMALL_DECK, card_rules, finished_within, run, tiny_deck
from test_card_differential import assert_same_game

import medici_sim
from medici_sim.core.driver import ConfigError
from medici_sim.core.registry import GAMES, get_game
from medici_sim.core.rules import RulesError
from medici_sim.games.card.rules import RULE_BOOK, SHIP_PAYOUTS

CARD = get_game("card")
PACKAGE_DATA = Path(medici_sim.__file__).parent / "games"
HEURISTICS = ["random", "greedy", "collector", "cautious", "gambler"]  # the reference engine plays these

# Rule sets off the rulebook, each changing what the engine reads (R6, R9, R14, R15, R17-R19, R22).
NON_DEFAULT = [
    "days=2", "days=5", "ship_capacity=3", "ship_capacity=9", "reveals_per_turn=1", "reveals_per_turn=5",
    "share_coin=1", "majority_payouts=20/0", "bonus_min=3,bonus=25", "bonus20,big_bonus=40",
    "big_bonus_min=9,big_bonus=15", "days=4,ship_capacity=4,reveals_per_turn=2,share_coin=10,bonus20",
]


@pytest.mark.parametrize("spec", NON_DEFAULT)
@pytest.mark.parametrize("players", (2, 4, 6))
def test_kernel_and_reference_play_the_same_games_under_other_rules(deck, spec, players):
    strategies = [HEURISTICS[(players + k) % len(HEURISTICS)] for k in range(players)]
    for game_index in range(12):
        assert_same_game(deck, players, spec, strategies, 7, game_index, ("fixed", "rotate", "random")[game_index % 3])


@pytest.mark.parametrize("spec", ["days=5,reveals_per_turn=5", "ship_capacity=2,days=1", "ship_payouts=0/5/40"])
def test_small_deck_games_identical_under_other_rules(spec):
    deck = tiny_deck(SMALL_DECK, "small")
    for game_index in range(20):
        assert_same_game(deck, 3, spec, ["random", "greedy", "collector"], 3, game_index, "rotate")


def test_ship_payouts_follow_the_rule_set_r14():
    """R14 with other payouts, and R15's coin: ties pool and round down to it."""
    from medici_sim.games.card.reference import bonus_payouts, majority_payouts, ship_payouts
    rules = card_rules(3, "ship_payouts=40/7/1,share_coin=2")
    assert ship_payouts([9, 5, 1], rules) == [40, 7, 1]  # alone on a place: paid in full
    assert ship_payouts([9, 9, 1], rules) == [22, 22, 1]  # (40 + 7) / 2 = 23.5 -> 22
    rules = card_rules(3, "majority_payouts=9/3,share_coin=1,bonus_min=2,bonus=4,big_bonus_min=3,big_bonus=11")
    assert majority_payouts([2, 2, 0], rules) == [6, 6, 0]  # (9 + 3) / 2 (R17, R15)
    assert bonus_payouts([1, 2, 3], rules) == [0, 4, 11]  # R18, R19 instead


def test_the_game_lasts_the_rule_sets_days_r22():
    report = medici_sim.trace(3, players=3, strategies="greedy", rules="days=2")
    assert len(report.data["days"]) == 2 and report.data["variant"] == "days=2"  # keep: old name
    report = medici_sim.trace(3, players=3, strategies="greedy", rules="days=5,reveals_per_turn=1")
    assert len(report.data["days"]) == 5
    assert all(len(turn["revealed"]) <= 1 for day in report.data["days"] for turn in day["turns"])


def test_explicit_defaults_are_the_default_run():
    explicit = ",".join(f"{p.name}={'/'.join(map(str, v)) if isinstance(v, tuple) else v}"
                        for p, v in ((p, p.default(4)) for p in RULE_BOOK.params))
    assert card_rules(4, explicit).spec == "standard"
    default = medici_sim.simulate(3000, players=4, strategies="greedy,expert,random,collector", seed=4)
    spelled = medici_sim.simulate(3000, players=4, strategies="greedy,expert,random,collector", seed=4,
                                  rules=explicit)
    pd_equal(default.seats, spelled.seats)
    assert spelled.summary["rules"] == "standard"


def test_a_preset_is_its_values_and_the_same_as_variant():
    assert card_rules(4, "big_bonus_min=8").spec == "bonus20"  # R19: bonus20 is this one change at 4 players
    assert card_rules(2, "big_bonus_min=10").spec == "bonus20" and card_rules(2, "big_bonus_min=8").spec != "bonus20"
    lineup = "collector,expert,greedy,random"
    named = medici_sim.simulate(2000, players=4, strategies=lineup, seed=2, rules="bonus20")
    spelled = medici_sim.simulate(2000, players=4, strategies=lineup, seed=2, rules="big_bonus_min=8")
    pd_equal(named.seats, spelled.seats)
    assert card_rules(4, "bonus20,big_bonus=15").spec == "bonus20,big_bonus=15"
    assert card_rules(4, "big_bonus=15,bonus20").spec == "bonus20,big_bonus=15"  # canonical: presets first
    assert card_rules(4, "bonus20,standard").spec == "bonus20"  # a preset sets only what it changes


def test_other_rules_change_the_games():
    standard = medici_sim.simulate(2000, players=4, strategies="greedy", seed=1)
    richer = medici_sim.simulate(2000, players=4, strategies="greedy", seed=1, rules="ship_payouts=60/40/20/0")
    assert (richer.seats["mean_florins"] > standard.seats["mean_florins"]).all()


@pytest.mark.parametrize("param", RULE_BOOK.params, ids=lambda p: p.name)
def test_each_parameters_range_is_enforced(param):
    players = 4
    size = param.length(players, RULE_BOOK.defaults(players)) if param.length else None
    for value in (param.low - 1, param.high + 1):
        text = "/".join([str(value)] * size) if size else str(value)
        with pytest.raises(RulesError, match=f"{param.name}=.* is out of range.*{param.point}"):
            card_rules(players, f"{param.name}={text}")
    for value in (param.low, param.high):
        text = "/".join([str(value)] * size) if size else str(value)
        spec = "" if param.name == "big_bonus_min" and value else f"{param.name}={text}"
        if param.name == "bonus_min" and value == param.high:
            continue  # above any big bonus threshold is fine; the contradiction is tested below
        card_rules(players, spec or "standard")


BAD_SPECS = [
    ("bonus30", "unknown rule 'bonus30' in the card game; did you mean bonus20?"),
    ("ship_capcity=4", "did you mean ship_capacity?"),
    ("ship_payouts=30/20/10", "ship_payouts needs 4 values at 4 players (one per place, R14), got 3"),
    ("majority_payouts=10", "majority_payouts needs 2 values"),
    ("days=2/3", "days is one number (R22)"),
    ("bonus=ten", "bonus='ten' is not a whole number"),
    ("bonus=1.5", "is not a whole number"),
    ("bonus20,,days=2", "empty item"),
    ("bonus20=1", "bonus20 is a preset of the card game's rules: write it without a value"),
    ("days", "days needs a value: days=VALUE (R22)"),
    ("big_bonus_min=4", "big_bonus_min=4 must be above bonus_min=5"),
    ("nowhere.toml", "the rules file nowhere.toml: cannot read"),
]


@pytest.mark.parametrize("spec,message", BAD_SPECS)
def test_bad_specs_are_refused_in_one_line(capsys, spec, message):
    with pytest.raises(ConfigError, match="rules=") as error:
        medici_sim.simulate(10, rules=spec)
    assert message in str(error.value) and "\n" not in str(error.value)
    code, out, err = run(capsys, "-n", "10", "--rules", spec)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err and err.startswith(
        "medici-sim: error: --rules: "), err


def test_players_outside_the_rules_are_refused():
    with pytest.raises(RulesError, match="for 2-6 players, not 7"):
        RULE_BOOK.resolve("standard", 7)


def test_another_games_rule_is_named_as_such():
    books = [g.rule_book for g in GAMES.values() if g.rule_book is not None and g.name != "card"]
    for book in books:
        name = next(n for n in book.names if n not in RULE_BOOK.names)
        with pytest.raises(RulesError, match=f"{name} is a rule of the {book.game} game, not of the card game"):
            RULE_BOOK.resolve(f"{name}=1", 4, tuple(books))


def test_a_toml_file_names_a_rule_set(tmp_path, capsys):
    good = tmp_path / "big.toml"
    good.write_text('presets = ["bonus20"]\nbig_bonus = 30\nship_payouts = [40, 20, 10, 0]\n')
    assert card_rules(4, str(good)).spec == "bonus20,ship_payouts=40/20/10/0,big_bonus=30"
    slashed = tmp_path / "slashed.toml"
    slashed.write_text('ship_payouts = "40/20/10/0"\n')
    assert card_rules(4, str(slashed))["ship_payouts"] == (40, 20, 10, 0)
    broken = tmp_path / "broken.toml"
    broken.write_text("big_bonus = \n")
    code, out, err = run(capsys, "-n", "10", "--rules", str(broken))
    assert code == 2 and "is not valid TOML" in err and err.count("\n") == 1
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("big_bonsu = 3\n")
    with pytest.raises(RulesError, match="did you mean big_bonus"):
        card_rules(4, str(unknown))


def test_the_rules_command_lists_every_parameter(capsys):
    code, out, err = run(capsys, "rules", "--players", "2", "--rules", "bonus20,bonus=12")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Medici: The Card Game, 2 players, rules: bonus20,bonus=12"
    for param in RULE_BOOK.params:
        assert any(line.startswith(param.name + " ") and param.point in line for line in lines), param.name
    assert any(line.split()[:3] == ["ship_payouts", "20/0", "20/0"] for line in lines)  # R14 at 2 players
    assert any(line.split()[:3] == ["big_bonus_min", "10", "0"] for line in lines)  # bonus20 at 2 players: 10
    code, out, err = run(capsys, "rules", "-p", "5", "--format", "json")
    data = json.loads(out)
    assert data["rules"] == "standard" and data["players"] == 5 and set(data["presets"]) == {"standard", "bonus20"}
    values = {row["name"]: row["value"] for row in data["parameters"]}
    assert values["ship_payouts"] == "/".join(map(str, SHIP_PAYOUTS[5]))
    assert run(capsys, "rules", "-p", "9")[0] == 2


def test_the_rule_set_is_in_the_outputs(tmp_path, capsys):
    out_file = tmp_path / "run.json"
    code, out, err = run(capsys, "-n", "500", "-p", "3", "--rules", "days=2,bonus=15", "--out", str(out_file), "-q")
    assert code == 0, err
    assert "days=2,bonus=15" in out
    assert json.loads(out_file.read_text())["summary"]["rules"] == "days=2,bonus=15"


def pd_equal(a, b):
    assert a.shape == b.shape and np.array_equal(a.to_numpy(), b.to_numpy())


def test_balance_compares_any_two_rule_sets(capsys, tmp_path):
    default = medici_sim.balance(1500, players=3, strategies="greedy,collector,random")
    named = medici_sim.balance(1500, players=3, strategies="greedy,collector,random", rules="standard",
                               vs="big_bonus_min=8")  # bonus20 at 3 players, spelled out
    pd_equal(default.strategies.drop(columns="strategy"), named.strategies.drop(columns="strategy"))
    other = medici_sim.balance(1500, players=3, strategies="greedy,collector,random", rules="days=2", vs="days=4")
    assert {"win_rate_days=2", "win_rate_days=4"} <= set(other.strategies.columns)
    saved = tmp_path / "balance.ckpt"
    args = ["balance", "-n", "600", "-p", "3", "-s", "greedy,random", "--rules", "ship_capacity=4", "--vs",
            "ship_capacity=6", "-q", "--out", str(tmp_path / "a.json")]
    assert run(capsys, *args, "--checkpoint", str(saved))[0] == 0
    code, out, err = run(capsys, "balance", "--resume", str(saved), "-q", "--out", str(tmp_path / "b.json"))
    assert code == 0, err
    assert json.loads((tmp_path / "a.json").read_text())["strategies"] == \
        json.loads((tmp_path / "b.json").read_text())["strategies"]


@pytest.mark.parametrize("args,message", [
    (["--rules", "bonus20", "--vs", "big_bonus_min=8"], "--vs: big_bonus_min=8 is the same rule set as bonus20"),
    (["--vs", "nonsense=1"], "--vs: unknown rule 'nonsense'"),
    (["-g", "classic", "--vs", "standard"], "name both, --rules A --vs B"),
])
def test_balance_refuses_rule_sets_it_cannot_compare(capsys, args, message):
    code, out, err = run(capsys, "balance", "-n", "100", "-p", "4", *args)
    assert code == 2 and err.count("\n") == 1 and message in err, err


def test_a_run_under_other_rules_resumes_and_a_checkpoint_of_a_preset_still_does(tmp_path, capsys):
    """Checkpoints saved before rules were data name a preset ("bonus20"): they resume as before."""
    saved = tmp_path / "run.ckpt"
    for rules in ("days=2,ship_payouts=50/0/0", "bonus20"):
        args = ["-n", "3000", "-p", "3", "-s", "greedy,collector,random", "--rules", rules, "-q"]
        code, whole, err = run(capsys, *args)
        assert code == 0, err
        assert run(capsys, *args, "--checkpoint", str(saved), "--overwrite-checkpoint")[0] == 0
        assert json.loads(saved.read_text())["configuration"]["rules"] == rules
        code, resumed, err = run(capsys, "--resume", str(saved), "-q")
        assert code == 0, err
        assert resumed.split("Run")[0] == whole.split("Run")[0]


# ---------------------------------------------------------------- parameters another switches on

DEPENDENT = {"card": {"big_bonus": "big_bonus_min"}, "classic": {}}  # docs/rules-card.md, docs/rules-classic.md


def test_the_dependent_parameters_are_declared_as_data_and_documented():
    """Each game declares which parameters act only when another switches them on (core.rules.Dependency)."""
    from pathlib import Path

    from medici_sim.core.rules import Dependency, RuleBook
    for game in GAMES.values():
        if game.rule_book is None or game.name not in DEPENDENT:
            continue
        declared = {name: d.switch for d in game.rule_book.dependencies for name in d.params}
        assert declared == DEPENDENT[game.name], game.name
        page = (Path(__file__).parents[1] / game.presentation.rules_page).read_text()
        for name, switch in declared.items():
            assert f"`{name}`" in page and f"`{switch}`" in page and "switches it on" in page, name
    with pytest.raises(ValueError, match="names no parameter 'nothing'"):
        RuleBook("toy", (2, 2), RULE_BOOK.params, {"standard": lambda p: {}},
                 dependencies=(Dependency(("big_bonus",), "nothing", lambda values: True, "it"),))


def test_an_inert_parameter_changes_no_game_and_an_active_one_does():
    """The data is true: big_bonus changes nothing while big_bonus_min is 0 (R19), and changes games when it is not."""
    lineup = "collector,expert,greedy,random"
    plain = medici_sim.simulate(1500, players=4, strategies=lineup, seed=3)
    inert = medici_sim.simulate(1500, players=4, strategies=lineup, seed=3, rules="big_bonus=40")
    pd_equal(plain.seats, inert.seats)
    assert card_rules(4, "big_bonus=40").inert().keys() == {"big_bonus"} and not card_rules(4, "bonus20").inert()
    active = medici_sim.simulate(1500, players=4, strategies=lineup, seed=3, rules="bonus20,big_bonus=40")
    variant = medici_sim.simulate(1500, players=4, strategies=lineup, seed=3, rules="bonus20")
    assert not np.array_equal(active.seats.to_numpy(), variant.seats.to_numpy())


@pytest.mark.parametrize("args", [["--vs", "big_bonus=30"], ["--rules", "bonus20", "--vs", "standard,big_bonus=30"],
                                  ["--rules", "big_bonus=5", "--vs", "big_bonus=50"]])
def test_balance_of_rule_sets_that_play_identical_games_is_refused_naming_the_switch(capsys, args):
    """balance --vs big_bonus=30 concluded that it "changes no strategy's win rate"."""
    code, out, err = run(capsys, "balance", "-n", "100", "-p", "4", "-s", "greedy,random", *args)
    if "bonus20" in args:  # bonus20 against standard with an inert big_bonus: a real comparison
        assert code == 0, err
        return
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "play identical games" in err and "big_bonus_min" in err and "--vs" in err
    with pytest.raises(ConfigError, match="vs=.*play identical games.*big_bonus_min"):
        medici_sim.balance(100, players=4, strategies="greedy,random", vs="big_bonus=30")


@pytest.mark.parametrize("args,rules", [
    ([], ("standard", "bonus20")), (["--rules", "bonus20"], ("bonus20", "standard")),
    (["--vs", "standard"], ("bonus20", "standard")), (["--rules", "days=2"], ("days=2", "bonus20")),
    (["--vs", "days=2"], ("standard", "days=2")), (["-g", "classic", "--rules", "days=2"], ("days=2", "standard")),
    (["--rules", "days=2", "--vs", "days=4"], ("days=2", "days=4")),
])
def test_balance_defaults_follow_the_rules_given(args, rules):
    """balance --rules bonus20 alone failed (its default --vs was bonus20 too)."""
    from medici_sim.api import StudyRequest
    from medici_sim.core.arguments import naming
    given = dict(zip(args[::2], args[1::2], strict=True))
    with naming():
        study, _ = StudyRequest("balance", games=100, game=given.get("-g"), players=4, strategies="random,expert",
                                rules=given.get("--rules"), vs=given.get("--vs")).start()
    assert study.rules_played("balance") == rules


def test_the_ladder_compares_the_rule_sets_asked_for(capsys, monkeypatch):
    """balance --ladder ignored --vs, and refused --rules bonus20 --vs standard as "the same rule set"."""
    from medici_sim.cli import ladder as cli_ladder
    from medici_sim.study import ladder
    real = ladder.ladder_levels
    monkeypatch.setattr(cli_ladder.ladder, "ladder_levels", lambda *a, **k: real(*a, **k)[1:2])  # the heuristics
    code, out, err = run(capsys, "balance", "--ladder", "-n", "600", "-p", "3", "-s", "greedy,collector",
                         "--rules", "days=2", "--vs", "days=4", "-q")
    assert code == 0, err
    assert "days=4 on" in out and "bonus20" not in out
    code, out, err = run(capsys, "balance", "--ladder", "-n", "600", "-p", "3", "-s", "greedy,collector",
                         "--rules", "bonus20", "--vs", "standard", "-q")
    assert code == 0 and "standard on" in out, err


def test_the_variant_decided_is_read_where_the_variant_is():
    """--rules bonus20 --vs standard said 0.0% (read from standard's side); a change without a big bonus said 0.0%."""
    lineup = "greedy,collector,random"
    forward = medici_sim.balance(2000, players=3, strategies=lineup, rules="standard", vs="bonus20")
    backward = medici_sim.balance(2000, players=3, strategies=lineup, rules="bonus20", vs="standard")
    rate = forward.rules.set_index("rules").loc["bonus20", "variant_decided_rate"]
    assert rate > 0 and np.isnan(forward.rules.set_index("rules").loc["standard", "variant_decided_rate"])
    assert f"the variant decided {100 * rate:.1f}% of games under bonus20" in forward.verdict
    assert f"the variant decided {100 * rate:.1f}% of games under bonus20" in backward.verdict
    neither = medici_sim.balance(500, players=3, strategies=lineup, rules="standard", vs="days=2")
    assert neither.rules["variant_decided_rate"].isna().all() and "variant decided" not in neither.verdict


def test_the_api_takes_rules_where_the_command_line_takes_rules(capsys):
    """Every API function a command has takes rules= (variant= is its older name); messages name the one given."""
    import inspect
    for name in ("simulate", "compare", "balance", "sweep", "design", "tune", "trace", "rules"):
        assert "rules" in inspect.signature(getattr(medici_sim, name)).parameters, name
    assert medici_sim.rules(rules="bonus20").attrs["rules"] == "bonus20"
    with pytest.raises(ConfigError, match="^rules=: days=0 is out of range"):
        medici_sim.rules(rules="days=0")
    with pytest.raises(ConfigError, match="^variant=: days=0"):
        medici_sim.rules(variant="days=0")  # keep: old name
    with pytest.raises(ConfigError, match="give rules= only"):
        medici_sim.trace(0, rules="days=2", variant="days=2")  # keep: old name
    traced = medici_sim.trace(3, players=3, strategies="greedy", rules="days=2")
    assert traced.data["variant"] == "days=2"  # a trace's key for the rules' name  # keep: old name


def test_a_rules_file_is_read_bounded_and_only_if_regular(tmp_path, capsys):
    """A FIFO named *.toml hung rules, tune and play; /dev/zero grew memory until killed."""
    import os
    fifo, directory, zero = tmp_path / "pipe.toml", tmp_path / "dir.toml", tmp_path / "zero.toml"
    os.mkfifo(fifo)
    directory.mkdir()
    zero.symlink_to("/dev/zero")
    for path in (fifo, directory, zero):
        refused = finished_within(30, card_rules, 4, str(path))  # read first: a reader that blocks fails, not hangs
        assert isinstance(refused, RulesError) and "not a regular file" in str(refused), refused
        for command in (["rules"], ["-n", "10"], ["tune", "greedy", "-e", "1"], ["play"], ["trace"]):
            code, out, err = run(capsys, *command, "--rules", str(path))
            assert code == 2 and err.count("\n") == 1 and "not a regular file" in err and "--rules" in err, err


# ---------------------------------------------------------------- files written when the rules' name was "variant"

OLDER = "variant"  # the key of the rule set's name in files written before it was named "rules"  # keep: old name


def as_older(configuration: dict) -> dict:
    """A checkpoint's configuration as versions before wrote it: every entry's rule set name (a str under "rules":
    the run's, each tournament's, each tuning task's, a design's tournament) under the older key; a sweep's swept
    ranges (a list under "rules") were always "rules"."""
    def entry(value):
        if isinstance(value, dict) and isinstance(value.get("rules"), str):
            return {OLDER if key == "rules" else key: item for key, item in value.items()}
        return value
    older = entry({key: [entry(e) for e in value] if isinstance(value, list) else entry(value)
                   for key, value in configuration.items()})
    assert OLDER in json.dumps(older)
    return older


RUN_ARGS = ["-n", "600", "-p", "3", "-s", "greedy,collector,random", "--rules", "bonus20", "-q"]


@pytest.mark.parametrize("command,args", [
    ([], RUN_ARGS),
    (["compare"], RUN_ARGS),
    (["balance"], ["-n", "300", "-p", "3", "-s", "greedy,random", "-q"]),
    (["tune"], ["greedy", "--players", "2", "--evaluations", "8", "--popsize", "4", "--games-per-eval", "200",
                "--fresh-games", "400", "--seed", "3", "--quiet"]),
])
def test_checkpoints_written_with_the_older_rules_key_still_resume(capsys, tmp_path, command, args):
    """Checkpoints name the rule set ``rules``; those written before, ``variant``, still load and resume to the
    same tables (a run's, a study's tournaments', a tuning's tasks'; a design's, whose tournament is nested in a
    dict: test_sweep.py's test_an_interrupted_design_resumes_to_the_same_trials)."""
    from medici_sim.core import checkpoint
    done, saved, again = tmp_path / "done.json", tmp_path / "s.ckpt", tmp_path / "again.json"
    assert run(capsys, *command, *args, "--out", str(done), "--checkpoint", str(saved))[0] == 0
    document = json.loads(saved.read_text())
    checkpoint.save(saved, document["command"], as_older(document["configuration"]), document["progress"])
    code, _, err = run(capsys, *command, "--resume", str(saved), "--quiet", "--out", str(again))
    assert code == 0, err
    ignored = {"elapsed_seconds", "games_per_second", "evaluations_per_minute"}  # timings

    def tables(path):
        document = json.loads(path.read_text())
        return {k: v if k != "summary" else {s: x for s, x in v.items() if s not in ignored}
                for k, v in document.items() if "metrics" not in k}
    assert tables(done) == tables(again)


def test_tuned_files_written_with_the_older_rules_key_are_read(tmp_path):
    """tune --out files name each row's rules ``rules``; those written before, ``variant``, are read alike (and the
    shipped files, made from the tuning history's older files, hold today's key)."""
    from medici_sim.study.tuning import load_tuned
    shipped = load_tuned("shipped", "card")
    document = json.loads((PACKAGE_DATA / "card" / "data" / "tuned" / "tuned.json").read_text())
    assert all("rules" in row and OLDER not in row for row in document["tuned"])
    for row in document["tuned"]:
        row[OLDER] = row.pop("rules")
    older = tmp_path / "older.json"
    older.write_text(json.dumps(document))
    read = load_tuned(str(older), "card")
    assert read.best == shipped.best and read.cross == shipped.cross and shipped.best
