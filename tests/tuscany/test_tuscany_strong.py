"""``strong`` for The Castles of Tuscany (games/tuscany/strategies/strong.py; issue 33).

- it is a built-in, the game's study policy names it (the ladder's strongest, trained on expert's games by search's
  rollouts) and its shipped weights file holds a model for every player count and phase, with its features' names;
- it decides only on what its seat sees: at each action of a stepped game, a copy with everything hidden from the
  seat dealt again (seat_view.INFORMATION) gets the same answer;
- its games, replayed in the reference engine with its decisions scripted, are the same record for record, the
  invariants checked after every turn;
- with a prior no rating can reach it plays expert's games exactly (its candidates and expert's choice among them
  are expert's own decisions);
- results depend only on (seed, game index): threads and batches change nothing (T38);
- its shortlist (issue 33: the model's best few played out by search's rollouts): its parameters refuse what they
  cannot be, a shortlist of one plays the model's games, and with rollouts it still decides only on what its seat
  sees, its games equal the reference engine's and are the same on any threads and batches;
- its truncated rollouts (``horizon``: to the phase's scoring, judged by strong_value.py's learned value): the
  parameter refuses what it cannot be, the shipped value file holds a fitted model for every player count and the
  position after each phase's scoring, the training rows are the same from the same seed, and with a horizon strong
  decides only on what its seat sees, its games equal the reference engine's, on any threads and batches;
- slow: it beats expert (one seat against the others) by more than 3 standard errors at 2 and 3 players.

The short training from a fixed seed is tests/test_strong_training.py's (with the Medici games').
"""
from __future__ import annotations

import json

import pytest
from test_tuscany_search import (
    check_equals_the_reference,
    check_sees_only_its_own,
    check_threads_and_batches_change_nothing,
)

from medici_sim.core.arguments import ConfigError
from medici_sim.core.registry import get_game
from medici_sim.core.specs import parse_strategies
from medici_sim.games.tuscany.components import components
from medici_sim.games.tuscany.recording import Games, record
from medici_sim.games.tuscany.rules import PHASES, RULE_BOOK
from medici_sim.games.tuscany.strategies import strong, strong_value
from medici_sim.games.tuscany.strategies.strength import versus

TUSCANY = get_game("tuscany")
# every test that plays strong compiles its Tuscany decisions (search's candidates and expert's worths, about 30 CPU s
# cold): the whole suite only, as Tuscany's search (test_tuscany_search.SEARCH_KERNEL). The quick subset checks its
# registration and weights file here, and plays strong in the card and classic games (tests/test_strong.py,
# tests/classic/test_classic_strong.py: the learned evaluation of core.evaluation, which every game's strong shares)
STRONG_KERNEL = pytest.mark.slow


def test_strong_is_the_ladders_learned_player_with_shipped_weights():
    registry, study = TUSCANY.registry, TUSCANY.study
    assert registry.origin["strong"] == "built-in" and "strong" not in TUSCANY.built_ins
    assert list(registry["strong"].params) == ["prior", "shortlist", "rollouts", "first", "gap", "confidence",
                                               "from_phase", "horizon"]
    assert registry["strong"].params["shortlist"].default == 0  # the default plays the model alone
    assert registry["strong"].params["horizon"].default == 0  # rollouts to the game's end unless asked
    assert (study.strongest, study.teacher, study.searcher) == ("strong", "expert", "search")
    assert study.learned() is strong and strong.WEIGHTS_FILE in study.kernel_data
    assert strong_value.VALUE_FILE in study.kernel_data  # the truncated rollouts' value, compiled in too
    shipped = json.loads(strong.WEIGHTS_FILE.read_text())
    assert shipped["game"] == "tuscany" and shipped["features"] == list(strong.COLUMNS)
    assert sorted((m["players"], m["stage"]) for m in shipped["models"]) == [
        (p, d) for p in range(TUSCANY.min_players, TUSCANY.max_players + 1) for d in range(PHASES)]
    assert all(len(m["weights"]) == strong.N_FEATURES and any(m["weights"]) for m in shipped["models"])


@STRONG_KERNEL
def test_strong_decides_only_on_what_its_seat_sees():
    check_sees_only_its_own("strong", 20, 12)


@STRONG_KERNEL
def test_strong_games_equal_the_reference_engines_given_its_decisions():
    """Its decisions scripted in the reference engine (the invariants checked after every turn): the same record."""
    check_equals_the_reference("strong:prior=0", 3)


def strong_and_experts_records(prior: float) -> list[tuple]:
    """Games 0-3 of seed 2, 3 players rotated: (the record with strong at slot 1 with ``prior``, with expert there)."""
    comp, rules = components(None), RULE_BOOK.resolve(None, 3)
    with_strong = Games(comp, rules, ["strong", "expert", "expert"], "rotate")
    with_strong.slot_params[0, 0] = prior
    experts = Games(comp, rules, ["expert"] * 3, "rotate")
    return [(record(with_strong.play(2, index)), record(experts.play(2, index))) for index in range(4)]


@STRONG_KERNEL
def test_strong_with_a_prior_nothing_outrates_plays_experts_games():
    """expert's candidate rated 10 above the model's: strong's action, tile and placement are expert's."""
    for strong_game, experts_game in strong_and_experts_records(10):
        assert strong_game == experts_game


@STRONG_KERNEL
def test_strong_differs_from_expert_where_its_model_decides():
    """The same games with no prior: the learned rating moves some choice (else the model would do nothing)."""
    assert any(strong_game != experts_game for strong_game, experts_game in strong_and_experts_records(0))


@pytest.mark.parametrize("spec,message", [
    ("strong:shortlist=-1", "parameter shortlist of strong must be between 0 and"),
    ("strong:shortlist=2.5", "parameter shortlist of strong must be a whole number"),
    ("strong:rollouts=0", "parameter rollouts of strong must be between 1 and"),
    ("strong:first=0", "parameter first of strong must be between 1 and"),
    ("strong:gap=-0.1", "parameter gap of strong must be between 0 and"),
    ("strong:confidence=11", "parameter confidence of strong must be between 0 and 10"),
    ("strong:from_phase=4", "parameter from_phase of strong must be between 1 and 3"),
    ("strong:horizon=-1", "parameter horizon of strong must be between 0 and"),
    ("strong:horizon=1.5", "parameter horizon of strong must be a whole number"),
])
def test_strong_refuses_shortlist_parameters_it_cannot_take(spec, message):
    with pytest.raises(ConfigError) as err:
        parse_strategies(spec, 4, game="tuscany")
    assert message in str(err.value)


SHORTLIST = "strong:shortlist=3,rollouts=3,first=1,from_phase=1"  # rollouts from the first action, a small budget


@STRONG_KERNEL
def test_strong_with_a_shortlist_of_one_plays_the_models_games():
    """shortlist=1 (and 0, the default) plays out nothing: the model's games, rollout parameters (a horizon too) or
    not."""
    comp, rules = components(None), RULE_BOOK.resolve(None, 3)
    games = []
    for shortlist in (0, 1):
        lineup = Games(comp, rules, ["strong", "expert", "expert"], "rotate")
        lineup.slot_params[0, :8] = [0.05, shortlist, 3, 1, 1000, 0, 1, 1]
        games.append([record(lineup.play(2, index)) for index in range(3)])
    assert games[0] == games[1]


@STRONG_KERNEL
def test_strong_with_a_shortlist_decides_only_on_what_its_seat_sees():
    check_sees_only_its_own(SHORTLIST, 12, 13)


@STRONG_KERNEL
def test_strong_with_a_shortlist_games_equal_the_reference_engines():
    check_equals_the_reference(SHORTLIST, 1)


@STRONG_KERNEL
def test_threads_and_batches_never_change_strong_results():
    check_threads_and_batches_change_nothing("strong,expert,strong:prior=0", 12)
    check_threads_and_batches_change_nothing(f"{SHORTLIST},expert,strong", 4)
    check_threads_and_batches_change_nothing(f"{HORIZON},expert,strong", 4)


HORIZON = f"{SHORTLIST},horizon=1"  # phase 1's and 2's rollouts end at the phase's scoring, judged by the value


def test_strong_ships_a_fitted_value_for_each_player_count():
    shipped = json.loads(strong_value.VALUE_FILE.read_text())
    assert shipped["game"] == "tuscany" and shipped["features"] == list(strong_value.VALUE_FEATURES)
    table = strong_value.read_value()
    for players in range(TUSCANY.min_players, TUSCANY.max_players + 1):
        for phase in range(PHASES):  # every model fitted: weights, and a win chance's scale
            assert (table[players, phase, :, strong_value.SCALE] > 0).all()
        for phase in (1, 2):  # the position after the scoring of phase 1 and 2: the red so far counts (in tens)
            assert table[players, phase, 7, 1] > 5


@STRONG_KERNEL
def test_strong_value_rows_are_the_same_from_the_same_seed():
    first, again = strong_value.value_rows(3, 6, 5), strong_value.value_rows(3, 6, 5)
    assert all((a == b).all() for a, b in zip(first, again, strict=True))
    x, y, win, cell = first
    assert len(y) % 3 == 0 and set(cell[:, 0]) == {0, 1, 2}
    assert abs(win.reshape(-1, 3).sum(axis=1) - 1).max() < 1e-9  # each position's seats share one win
    assert (x[:, 0] == 1).all() and (y >= 10 * x[:, 1]).all()  # a final score holds the red so far


@STRONG_KERNEL
def test_strong_with_a_horizon_decides_only_on_what_its_seat_sees():
    check_sees_only_its_own(HORIZON, 12, 13)


@STRONG_KERNEL
def test_strong_with_a_horizon_games_equal_the_reference_engines():
    check_equals_the_reference(HORIZON, 1)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3])
def test_strong_beats_expert(players):
    """One strong seat against experts, seats rotated, paired game by game: ahead of the least-behind expert seat
    by more than 3 standard errors (measured, 1,000 games, seed 2026: +3.2 points at 2 players, +4.0 at 3; 4 players
    is tests/test_strong_training.py's, with the Medici games'). Issue 33's bar, within 3 points of search@32, is
    not met (docs/strategies.md)."""
    margin = versus("strong", "expert", players, games=1000, seed=2026)
    assert margin.z > 3, f"strong ahead by {margin.score_diff:.2f} ± {margin.score_se:.2f}: z = {margin.z:.2f}"
