"""Several decks: the shipped reconstructions (R3, R4), and compare/balance on several decks at once.

Every shipped deck keeps what the rulebook says of the deck; ``--deck`` (repeated) and
``--decks`` play each deck in its own block of game indices, print one table per deck and,
for balance, say on how many decks each finding of the verdict holds.
"""
from __future__ import annotations

import json
import re
import threading
from importlib import resources

import pandas as pd
import pytest
from conftest import run

import medici_sim
from medici_sim.cli import common
from medici_sim.core import checkpoint
from medici_sim.core.registry import get_game
from medici_sim.core.specs import parse_strategy_list
from medici_sim.games.card.deck import (
    ComponentsError,
    default_deck,
    load_deck,
    named_decks,
    resolve_deck,
    shipped_name,
)
from medici_sim.games.card.rules import GOODS, NO_GOOD
from medici_sim.study import studies
from medici_sim.study.tournament_saved import COMPARE

DECKS = list(named_decks())
SMALL = ["--players", "3", "--strategies", "random,greedy,collector", "--games", "300", "--seed", "4", "--quiet"]


# ---------------------------------------------------------------- the shipped decks

@pytest.mark.parametrize("name", DECKS)
def test_every_shipped_deck_keeps_the_rulebook(name):
    """110 cards; goods cards worth 0, 2, 3, 4 or 5, most with one icon and some with two;
    green goods cards in every good; cards without a good are green 2s and black 7s only."""
    deck = named_decks()[name]
    assert deck.n_cards == 110
    good, icons, value, green = deck.card_arrays()
    goods = good != NO_GOOD
    assert set(value[goods]) <= {0, 2, 3, 4, 5}
    assert set(icons[goods]) == {1, 2}
    assert (icons[goods] == 1).sum() > (icons[goods] == 2).sum()  # most show one icon, some two
    for g in range(len(GOODS)):
        assert (good == g).any() and ((good == g) & (green == 1)).any()  # green goods cards of every good
    none = ~goods
    kinds = set(zip(value[none], green[none], strict=True))
    assert kinds == {(2, 1), (7, 0)}  # green 2s and black 7s, nothing else
    assert (icons[none] == 0).all()


def test_the_95_goods_deck_has_95_goods_cards():
    good, *_ = named_decks()["95-goods"].card_arrays()
    assert (good != NO_GOOD).sum() == 95 and (good == NO_GOOD).sum() == 15


def test_named_decks_are_the_data_files():
    decks = named_decks()
    assert DECKS[0] == "default" and decks["default"] == default_deck()
    assert len(DECKS) >= 4 and len({d.fingerprint() for d in decks.values()}) == len(DECKS)
    data = resources.files("medici_sim.games.card").joinpath("data")
    for name, deck in decks.items():
        path = data.joinpath("default_deck.csv" if name == "default" else f"deck-{name}.csv")
        text = path.read_text("utf-8")
        assert text.startswith("# Medici: The Card Game") and "RECONSTRUCTION" in text  # says what it is
        assert load_deck(path).kinds == deck.kinds
        assert resolve_deck(name) == deck and resolve_deck(str(path)).kinds == deck.kinds
        assert shipped_name(load_deck(path)) == name
    with pytest.raises(ComponentsError, match="no such file, and no shipped deck of that name"):
        resolve_deck("no-such-deck")


# ---------------------------------------------------------------- bad requests

@pytest.mark.parametrize("args,message", [
    (["--deck", "no-such-deck"], "no shipped deck of that name (shipped decks: default, "),
    (["--decks", "default,no-such-deck"], "no shipped deck of that name"),
    (["--decks", "all,default"], "--decks all is every shipped deck"),
    (["--deck", "default", "--decks", "all"], "--deck and --decks: give one or the other"),
    (["--deck", "95-goods", "--deck", "95-goods"], "are the same deck"),
    (["--decks", "default,,95-goods"], "an empty deck name"),
    (["--decks", "all", "--plot", "x.png"], "--plot draws one deck's answer"),
])
@pytest.mark.parametrize("command", ["compare", "balance"])
def test_bad_deck_requests_are_one_line_and_exit_2(capsys, tmp_path, monkeypatch, command, args, message):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(common, "_DEBUG", False)  # an earlier in-process run with --debug leaves it on
    code, out, err = run(capsys, command, *SMALL, *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("medici-sim: error: ")
    assert message in err, err


def test_several_decks_must_fit_the_game_indices():
    study = studies.Study(game=get_game("card"), counts=(3,), strategies=parse_strategy_list("random,greedy"),
                          rules=None, seed=0, component_sets=tuple(named_decks().values()) * 7000, games=10,
                          precision=None, threads=1)
    with pytest.raises(ValueError, match="configurations; at most 32,767 fit"):
        study.check("balance")


# ---------------------------------------------------------------- one deck: nothing changes

def _tables(path) -> dict:
    document = json.loads(path.read_text())
    return {name: table for name, table in document.items() if name != "summary"}


def _text(out: str) -> str:
    return "\n".join(line for line in out.splitlines() if not re.match(r"\s+(elapsed_seconds|games_per_second|wrote)",
                                                                        line))


@pytest.mark.parametrize("command", ["compare", "balance"])
def test_one_default_deck_is_the_run_without_deck(capsys, tmp_path, command):
    code, plain, _ = run(capsys, command, *SMALL, "--out", str(tmp_path / "plain.json"))
    assert code == 0
    code, named, _ = run(capsys, command, *SMALL, "--deck", "default", "--out", str(tmp_path / "named.json"))
    assert code == 0
    assert _tables(tmp_path / "plain.json") == _tables(tmp_path / "named.json")
    assert _text(plain) == _text(named)
    assert "deck" not in json.loads((tmp_path / "plain.json").read_text())["strategies"][0]  # no deck column


# ---------------------------------------------------------------- several decks

def _holds(finding: str, players: int, strategies: pd.DataFrame, rules: pd.DataFrame) -> bool:
    """A finding of the verdict, checked directly against one deck's tables."""
    rows = strategies[strategies["players"] == players]
    if finding.startswith("seat advantage"):
        r = rules[rules["players"] == players].set_index("rules").loc["bonus20"]
        changed = r["seat1_change_ci_low"] > 0 or r["seat1_change_ci_high"] < 0  # paired game by game
        return finding == f"seat advantage {'changed' if changed else 'unchanged'}"
    if finding == "bonus20 changes no strategy's win rate significantly":
        return not rows["significant"].any()
    kind, strategy = re.fullmatch(r"bonus20 (raises|lowers) (.+)'s win rate", finding).groups()
    row = rows[rows["strategy"] == strategy].iloc[0]
    return bool(row["significant"]) and (row["difference"] > 0) == (kind == "raises")


def test_balance_on_every_deck(capsys, tmp_path):
    """One table per deck, a verdict per deck, and across decks the count of decks on which
    each finding of the verdicts holds, as the per-deck tables say."""
    out_file = tmp_path / "all.json"
    code, out, err = run(capsys, "balance", *SMALL[2:], "--players", "3,4", "--decks", "all", "--out", str(out_file))
    assert code == 0, err
    document = json.loads(out_file.read_text())
    strategies, rules = pd.DataFrame(document["strategies"]), pd.DataFrame(document["rules"])
    across = pd.DataFrame(document["across_decks"])
    assert list(strategies.columns[:2]) == ["deck", "players"] and list(dict.fromkeys(strategies["deck"])) == DECKS
    assert list(dict.fromkeys(rules["deck"])) == DECKS
    for deck in DECKS:  # printed deck by deck
        assert out.count(f"Deck {deck}: Win rate by rules") == 1 and out.count(f"Deck {deck}: Seat advantage") == 1
        assert f"\nDeck {deck}:\nWith 3 players" in out
    verdict = document["summary"]["verdict"]
    assert f"Across {len(DECKS)} decks" in out and document["summary"]["decks"] == len(DECKS)

    # the findings are those the per-deck verdicts state ...
    paragraphs = dict(re.findall(r"Deck (\S+):\n(.*?)(?=\n\n)", verdict, re.S))
    assert list(paragraphs) == DECKS
    stated = set()
    for text in paragraphs.values():
        for players, line in re.findall(r"With (\d) players, (.*)", text):
            headline = re.match(r"bonus20 (raises|lowers) (\S+)'s win rate|bonus20 changes no strategy's win rate "
                                r"significantly", line).group(0)
            seat = re.search(r"the seat advantage is (\w+)", line).group(1)
            stated |= {(int(players), headline), (int(players), f"seat advantage {seat}")}
    assert set(zip(across["players"], across["finding"], strict=True)) == stated

    # ... and each count is what the per-deck tables say
    for row in across.itertuples(index=False):
        holding = [deck for deck in DECKS
                   if _holds(row.finding, row.players, strategies[strategies["deck"] == deck],
                             rules[rules["deck"] == deck])]
        assert row.decks == len(DECKS) and row.decks_holding == len(holding), row
        assert row.holds_on == ", ".join(holding)
        assert f"  {row.finding} at {row.players} players: {row.decks_holding} of {len(DECKS)} decks" in out
    for players in (3, 4):
        decided = rules[(rules["players"] == players) & (rules["rules"] == "bonus20")]["variant_decided_rate"]
        assert (f"the variant decided {100 * decided.min():.1f}% to {100 * decided.max():.1f}% of games at "
                f"{players} players") in out


def test_repeated_deck_is_decks_and_each_deck_has_its_own_games(capsys, tmp_path):
    paths = [tmp_path / f"{i}.json" for i in range(3)]
    assert run(capsys, "balance", *SMALL, "--deck", "default", "--deck", "95-goods", "--out", str(paths[0]))[0] == 0
    assert run(capsys, "balance", *SMALL, "--decks", "default,95-goods", "--out", str(paths[1]))[0] == 0
    assert _tables(paths[0]) == _tables(paths[1])
    # the first deck plays the one-deck study's games: its tables are that study's
    assert run(capsys, "balance", *SMALL, "--out", str(paths[2]))[0] == 0
    several, alone = _tables(paths[0]), _tables(paths[2])
    for name in ("strategies", "rules"):
        first = [{k: v for k, v in row.items() if k != "deck"} for row in several[name] if row["deck"] == "default"]
        assert first == alone[name]
    # a deck file is labelled by its name; each deck's games come from its own block of game indices
    own = tmp_path / "mine.csv"
    own.write_text(named_decks()["high-values"].to_csv().replace("5,grain,1,5,no", "4,grain,1,5,no\n1,grain,1,4,no"))
    study = studies.Study(game=get_game("card"), counts=(3, 4), strategies=parse_strategy_list("random,greedy"),
                          rules=None, seed=0, component_sets=studies.load_component_sets(get_game("card"),
                                                                                           ["95-goods", str(own)]),
                          games=10, precision=None, threads=1)
    assert study.labels == ["95-goods", "mine.csv"]
    assert [t.config_index for t in studies.plan(study, "balance")] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert [t.config_index for t in studies.plan(study, "compare")] == [0, 1, 2, 3]


def test_components_is_the_option_and_deck_decks_its_older_names(capsys, tmp_path):
    """--components (repeated, or all) is the generic option; --deck (repeated) and --decks (a comma list) are
    its older names and play the same games; --components all is --decks all. A message names the option as the
    user wrote it."""
    paths = [tmp_path / f"{i}.json" for i in range(4)]
    assert run(capsys, "balance", *SMALL, "--components", "default", "--components", "95-goods",
               "--out", str(paths[0]))[0] == 0
    assert run(capsys, "balance", *SMALL, "--deck", "default", "--deck", "95-goods", "--out", str(paths[1]))[0] == 0
    assert _tables(paths[0]) == _tables(paths[1])
    assert run(capsys, "compare", *SMALL, "--components", "all", "--out", str(paths[2]))[0] == 0
    assert run(capsys, "compare", *SMALL, "--decks", "all", "--out", str(paths[3]))[0] == 0
    assert _tables(paths[2]) == _tables(paths[3])
    assert run(capsys, *SMALL[:2], "--games", "10", "--components", "95-goods", "--quiet")[0] == 0
    for option in ("--deck", "--components"):
        code, out, err = run(capsys, "--game", "classic", "--games", "10", option, "default")
        assert code == 2 and err == f"medici-sim: error: {option}: the classic game has no component files\n", err
    code, _, err = run(capsys, "compare", *SMALL, "--deck", "default", "--decks", "default")
    assert code == 2 and "--deck and --decks: give one or the other" in err, err


def test_checkpoints_written_with_the_older_deck_key_still_resume(capsys, tmp_path):
    """Checkpoints name a run's component set ``components``; those written before, ``deck``, still load and
    resume to the same tables (the main run's and a study's)."""
    for command in ([], ["compare"]):
        done, saved = tmp_path / f"done{len(command)}.json", tmp_path / f"s{len(command)}.ckpt"
        args = [*command, *SMALL[:-1], "--deck", "95-goods"]
        assert run(capsys, *args, "--quiet", "--out", str(done), "--checkpoint", str(saved))[0] == 0
        document = json.loads(saved.read_text())
        older = json.loads(json.dumps(document["configuration"]).replace('"components":', '"deck":'))
        assert older != document["configuration"]
        checkpoint.save(saved, document["command"], older, document["progress"])  # as an older version wrote it
        again = tmp_path / f"again{len(command)}.json"
        code, _, err = run(capsys, *command, "--resume", str(saved), "--quiet", "--out", str(again))
        assert code == 0, err
        # the same games (a resumed run's metrics name its deck as "saved in the checkpoint", its file name unknown)
        assert {k: v for k, v in _tables(done).items() if "metrics" not in k} \
            == {k: v for k, v in _tables(again).items() if "metrics" not in k}


def test_compare_on_several_decks(capsys, tmp_path):
    out_file = tmp_path / "c.json"
    code, out, err = run(capsys, "compare", *SMALL, "--decks", "default,more-two-icons", "--out", str(out_file))
    assert code == 0, err
    document = json.loads(out_file.read_text())
    for table in ("strategies", "ratings", "head_to_head"):
        assert [row["deck"] for row in document[table]][0] == "default"
        assert {row["deck"] for row in document[table]} == {"default", "more-two-icons"}
        assert list(document[table][0])[0] == "deck"
    assert out.count("Deck more-two-icons: Bradley-Terry ratings") == 1
    assert "Across" not in out


def test_resumed_multi_deck_balance_is_the_uninterrupted_one(capsys, tmp_path):
    """A balance over several decks, stopped after its first deck and resumed, ends with the
    tables of the uninterrupted run; the checkpoint records every deck."""
    args = ["balance", *SMALL, "--decks", "default,95-goods,high-values"]
    whole, resumed, saved = tmp_path / "whole.json", tmp_path / "resumed.json", tmp_path / "s.ckpt"
    assert run(capsys, *args, "--out", str(whole))[0] == 0

    study = studies.Study(game=get_game("card"), counts=(3,),
                          strategies=parse_strategy_list("random,greedy,collector"), rules=None, seed=4,
                          component_sets=studies.load_component_sets(get_game("card"), ["default", "95-goods",
                                                                                        "high-values"]),
                          games=300, precision=None, threads=1)
    tournaments = studies.plan(study, "balance")
    configuration = studies.configuration(study, tournaments)
    stop = threading.Event()

    def save() -> None:
        checkpoint.save(saved, "balance", configuration, {"tournaments": [t.progress() for t in tournaments]})
        if tournaments[1].complete and tournaments[1].games:  # the first deck is done: stop there
            stop.set()

    assert not studies.play(tournaments, study, stop=stop, on_batch=save)
    document = json.loads(saved.read_text())
    decks = [t["components"]["fingerprint"] for t in document["configuration"]["tournaments"]]
    assert decks == [d.fingerprint() for d in study.component_sets for _ in range(2)]  # every deck recorded
    assert [sum(t["done"]) > 0 for t in document["progress"]["tournaments"]] == [True, True] + [False] * 4

    code, out, err = run(capsys, "balance", "--resume", str(saved), "--out", str(resumed), "--quiet")
    assert code == 0, err
    assert _tables(whole) == _tables(resumed)
    assert "Across 3 decks" in out

    # options given with --resume must agree with it, decks included
    code, _, err = run(capsys, "balance", "--resume", str(saved), "--decks", "default,95-goods")
    assert code == 2 and "--decks (2 decks: " in err and "disagrees with the checkpoint's deck (3 decks: " in err
    assert run(capsys, "balance", "--resume", str(saved), "--decks", "default,95-goods,high-values",
               "--quiet")[0] == 0


def test_a_checkpoint_with_decks_out_of_order_is_refused(capsys, tmp_path):
    saved = tmp_path / "s.ckpt"
    assert run(capsys, "compare", *SMALL[2:], "--players", "3,4", "--decks", "default,95-goods",
               "--checkpoint", str(saved))[0] == 0
    document = json.loads(saved.read_text())
    configuration = document["configuration"]
    assert checkpoint.read(saved, COMPARE).configuration == configuration
    tournaments = configuration["tournaments"]
    tournaments[1]["components"], tournaments[2]["components"] = (tournaments[2]["components"],
                                                                  tournaments[1]["components"])
    bad = tmp_path / "bad.ckpt"
    checkpoint.save(bad, "compare", configuration, document["progress"])
    with pytest.raises(checkpoint.CheckpointError, match="each set's tournaments come together"):
        checkpoint.read(bad, COMPARE)


# ---------------------------------------------------------------- the Python API

def test_the_api_takes_several_decks():
    report = medici_sim.balance(300, players=3, strategies="random,greedy,collector", seed=4, threads=1,
                                components="all")
    assert list(dict.fromkeys(report.strategies["deck"])) == DECKS and report.across_decks is not None
    assert f"Across {len(DECKS)} decks" in report.verdict and report.summary["verdict"] == report.verdict
    one = medici_sim.balance(300, players=3, strategies="random,greedy,collector", seed=4, threads=1)
    assert one.across_decks is None and "deck" not in one.strategies
    first = report.strategies[report.strategies["deck"] == "default"].drop(columns="deck").reset_index(drop=True)
    pd.testing.assert_frame_equal(first, one.strategies)
    compared = medici_sim.compare(300, players=3, strategies="random,greedy", seed=4, threads=1,
                                  components=["default", "95-goods"])
    assert set(compared.ratings["deck"]) == {"default", "95-goods"}
    with pytest.raises(ValueError, match="no shipped deck of that name"):
        medici_sim.compare(300, players=3, strategies="random,greedy", components=["default", "nope"])
