"""The ``strong`` strategy of the card game (games/card/strategies/strong.py, core/evaluation.py,
study/strong_training.py).

- it is a built-in registered after search (the ids before it stay: golden files and
  checkpoints name strategies by id), outside the heuristics' default lineups;
- its decisions read only what its seat can see: the deck's order (R7, R20) and the game's
  generator never change them;
- the games it plays are the reference engine's games given its decisions (R7-R22), keep the
  game's invariants, and give the same totals for any threads and batches (R25);
- under other rules (days, ship capacity: R6, R22) it plays, its models counted from the last day;
- its quadratic model is the features' pairwise products weighed, and their fit, built a few
  decisions at a time, finds planted weights (core/evaluation.py);
- (its training's reproduction and its strength: tests/test_strong_training.py).
"""
from __future__ import annotations

import numpy as np
import pytest
from conftest import card_rules, run
from test_search import card_script, scripted, totals_bytes

from medici_sim.cli.common import load_game_components, parse_strategies
from medici_sim.core.driver import PreparedRun, RunConfig, simulate
from medici_sim.core.evaluation import (
    decision_chunks,
    fit_choices_quadratic,
    pairwise_products,
    product_names,
    quadratic_value_nb,
)
from medici_sim.core.registry import get_game
from medici_sim.core.resumable import GAME_OVER, TURN_END
from medici_sim.games.card import reference as card_reference
from medici_sim.games.card import stepped
from medici_sim.games.card.rules import RULE_CAPACITY, RULE_DAYS
from medici_sim.games.card.state import DAY, DECK_LEN, MARKET_LEN
from medici_sim.games.card.strategies import strong

CARD = get_game("card")


def config(players: int, spec: str, games: int, seed: int = 5, seating: str = "rotate", threads: int = 1,
           variant: str = "standard") -> RunConfig:
    return RunConfig(components=load_game_components(CARD, None), game="card", players=players, games=games, seed=seed,
                     seating=seating, threads=threads, rules=variant,
                     strategies=parse_strategies(spec, players, "card"))


def test_strong_is_a_built_in_after_search():
    names = list(CARD.registry.strategies)
    assert names.index("strong") > names.index("search") and names[:len(CARD.built_ins)] == list(CARD.built_ins)
    assert CARD.registry.origin["strong"] == "built-in" and "strong" not in CARD.built_ins
    assert list(CARD.registry["strong"].params) == ["reveal_margin"]  # tune tunes it like any parameter
    weights = strong.weights_table_nb.read()
    assert weights.shape == (7, 3, len(strong.COLUMNS)) and np.abs(weights[2:]).sum(axis=2).all()  # a model each


@pytest.fixture(scope="module")
def kernel():
    return PreparedRun(config(4, "strong,expert,strong:reveal_margin=3,collector", 1, seed=11, seating="fixed",
                         variant="bonus20"))


def test_decisions_never_read_the_deck_order_or_the_generator(kernel):
    """R7, R20: the deck's order is hidden (only which cards are unseen is public): the same
    position with the deck shuffled and another generator state gets the same answers. The
    positions: every turn's end of a stepped game (the next seat's decisions, asked here)."""
    rng = np.random.default_rng(0)
    buffer = kernel.inputs.copy()
    stepped.new_game_nb(buffer, 11, 0, kernel.seating, kernel.slot_strategy, kernel.slot_params, kernel.table)
    asked = 0
    while (event := stepped.advance_nb(buffer, kernel.table)) != GAME_OVER:
        state = buffer[0]
        if event != TURN_END or state["counts"][MARKET_LEN] == 0:
            continue
        for seat in range(4):
            params = tuple(kernel.slot_params[2 * (seat % 2)])  # strong: reveal_margin 0 and 3
            if state["ship_used"][seat] == state["rules"][RULE_CAPACITY]:
                continue
            same, shuffled = buffer.copy(), buffer.copy()  # a decision may write its own scratch row
            n = state["counts"][DECK_LEN]
            shuffled[0]["deck"][:n] = rng.permutation(state["deck"][:n])
            shuffled[0]["rng"][0] = np.uint64(rng.integers(1 << 62))
            answers = [(strong.reveal_nb(b[0], seat, params), strong.take_nb(b[0], seat, params))
                       for b in (same, shuffled)]
            assert answers[0] == answers[1]
            asked += 1
    assert asked > 50


def test_games_with_strong_are_the_reference_engines_games(kernel, monkeypatch):
    run = kernel.config
    deck = load_game_components(CARD, None)
    for game_index in range(3):
        trace = kernel.trace(game_index)
        ours = trace.record()
        CARD.engine.invariants(ours, run)  # every card in one place, florins conserved (R13-R20)
        monkeypatch.setitem(card_reference.REFERENCE_STRATEGIES, "scripted",
                            card_script(np.concatenate(trace.day_turns)))
        theirs = card_reference.play_game(deck, card_rules(4, "bonus20"), scripted(run), 11, game_index,
                                          "fixed")
        assert set(ours) == set(theirs)
        for key in theirs:
            assert np.array_equal(ours[key], theirs[key]), f"{key} differs in game {game_index}"


def test_threads_and_batches_never_change_the_results():
    results = {totals_bytes(simulate(config(3, "strong,expert,collector", 60, threads=threads),
                                     batch_size=batch).totals)
               for threads, batch in ((1, None), (2, 7))}
    assert len(results) == 1


def test_other_rules_play_the_models_counted_from_the_last_day():
    """R22, R6: five days play the first day's model three times, one day the last day's;
    the games are played to the end with a ninth ship place too."""
    for spec, games in (("days=5,ship_capacity=9", 20), ("days=1,reveals_per_turn=1", 20)):
        assert simulate(config(3, "strong,expert,collector", games, variant=spec)).totals.games == games
    buffer = PreparedRun(config(3, "strong,expert,collector", 1)).inputs.copy()
    models = {}
    for days in (1, 3, 5):
        buffer[0]["rules"][RULE_DAYS] = days
        for day in range(days):
            buffer[0]["counts"][DAY] = day
            models[days, day] = strong.model_nb(buffer[0])
    assert models == {(1, 0): 2, (3, 0): 0, (3, 1): 1, (3, 2): 2, (5, 0): 0, (5, 1): 0, (5, 2): 0, (5, 3): 1, (5, 4): 2}


def test_the_quadratic_model_weighs_the_pairwise_products():
    rng = np.random.default_rng(1)
    features = np.r_[1.0, rng.normal(size=4)]
    weights = rng.normal(size=len(product_names(tuple("abcde"))))
    assert np.isclose(quadratic_value_nb(weights, features), weights @ pairwise_products(features[None])[0])
    assert product_names(("bias", "x", "y")) == ("bias", "x", "y", "x*x", "x*y", "y*y")


def test_the_quadratic_fit_recovers_planted_weights_a_chunk_at_a_time():
    """core.evaluation: the fit ranks each decision's choices (only differences within one
    decision count) and sums its normal equations a few whole decisions at a time, with the
    same weights as all rows at once; a value planted on the features' products is found."""
    rng = np.random.default_rng(0)
    sizes = rng.integers(1, 9, 3000)  # choices per decision
    groups = np.repeat(np.arange(len(sizes)), sizes)
    features = np.c_[np.ones(len(groups)), rng.normal(size=(len(groups), 3))]
    models = np.repeat(rng.integers(0, 2, len(sizes)), sizes)
    decision_noise = np.repeat(rng.normal(size=len(sizes)) * 5, sizes)  # the same for one decision's choices
    values = 2 * features[:, 1] - features[:, 2] * features[:, 3] + decision_noise + rng.normal(size=len(groups)) * 0.1
    chunks = decision_chunks(groups, 37)
    assert len(chunks) > 100 and all(groups[c.start] != groups[c.start - 1] for c in chunks[1:])
    at_once = fit_choices_quadratic(features, models, values, groups, 2, chunk_rows=None)
    assert np.allclose(fit_choices_quadratic(features, models, values, groups, 2, chunk_rows=37), at_once,
                       rtol=0, atol=1e-12)
    planted = dict.fromkeys(product_names(("bias", "a", "b", "c")), 0.0) | {"a": 2.0, "b*c": -1.0}
    assert np.allclose(at_once, list(planted.values()), atol=0.01)


def test_a_strategy_fitted_to_other_rules_says_so_and_is_marked(capsys):
    """strong fell to 1.1% against experts with ship_capacity=12 (41.8% under the rulebook's rules) without a word:
    a strategy declares the rule sets it was fitted to (Strategy.fitted_to), and is marked where it plays others."""
    import warnings

    from medici_sim.api import RunRequest, StudyRequest
    from medici_sim.core.arguments import MediciWarning
    from medici_sim.core.registry import FITTED_KEY, GAMES
    for game in GAMES.values():
        if "strong" in game.registry:
            assert game.registry["strong"].fitted_to == game.presets  # trained under each preset
        assert not any(game.registry[name].fitted_to for name in game.built_ins if name != "strong")
    with pytest.warns(MediciWarning, match="strong was fitted to the standard and bonus20 rules"):
        RunRequest(10, strategies="strong,expert,expert,expert", rules="ship_capacity=12").config()
    with pytest.warns(MediciWarning, match="strong was fitted"):
        StudyRequest("compare", 10, players=3, strategies="strong,expert", rules="days=2").start()
    with warnings.catch_warnings():
        warnings.simplefilter("error", MediciWarning)  # the rules it was fitted to: not a word
        RunRequest(10, strategies="strong,expert,expert,expert", rules="bonus20").config()
        StudyRequest("balance", 10, players=3, strategies="strong,expert").start()
    code, out, err = run(capsys, "-n", "200", "-s", "strong,expert,expert,expert", "--seating", "rotate", "--rules",
                         "ship_capacity=12", "-q")
    assert code == 0 and err.count("medici-sim: warning: strong was fitted") == 1, err
    assert " strong* " in out and "\n* strong was fitted" in out and f"{FITTED_KEY}" in out
    code, out, err = run(capsys, "-n", "200", "-s", "strong,expert,expert,expert", "--seating", "rotate", "-q")
    assert code == 0 and "warning" not in err and "strong*" not in out and FITTED_KEY not in out


def test_the_weights_file_is_read_bounded(tmp_path):
    """strong's weights go through the shared bounded reader (core.output), like every other file read."""
    import os

    from conftest import finished_within

    from medici_sim.core.evaluation import read_weights
    from medici_sim.core.output import OutputError
    fifo = tmp_path / "weights.json"
    os.mkfifo(fifo)
    refused = finished_within(30, read_weights, fifo, (7, 3, 4))
    assert isinstance(refused, OutputError) and "the weights file" in str(refused) and "not a regular" in str(refused)
