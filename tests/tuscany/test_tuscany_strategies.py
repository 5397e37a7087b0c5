"""The Tuscany heuristics (issue 33): ``builder``, ``colour_racer``, ``castle_chainer``, ``trader``, ``expert``.

- The reference engine plays the jitted engine's games with each of them seated (replay.JittedPlayer: the
  jitted strategy's own decisions, asked on a seat state written from the reference game), record for
  record, the game's invariants checked after every turn (test_tuscany_reference.CheckedGame).
- They decide on what their seat sees: the seat state holds noise where the seat may not look (decks,
  stacks, supply, rivals' hands and storage), so a strategy that looked would play other games; a test
  strategy that does look (``peeker``) is caught so. Nor do they write the state (a checked table).
- Their parameters are declared for ``tune`` (ranges, defaults inside them).
- Slow: ``expert`` beats every other built-in at 2, 3 and 4 players by more than 3 standard errors of the paired
  per-game difference (the seats share every game).
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from test_tuscany_reference import CheckedGame

from medici_sim.core.dispatch import strategy_table
from medici_sim.core.registry import MAX_PARAMS, Strategy
from medici_sim.core.seating import SEATING_MODES
from medici_sim.games.tuscany.components import components
from medici_sim.games.tuscany.recording import Games, record
from medici_sim.games.tuscany.reference_players import RandomPlayer
from medici_sim.games.tuscany.rules import DRAW, RULE_BOOK
from medici_sim.games.tuscany.state import DECK_TOP, N_OPTIONS
from medici_sim.games.tuscany.strategies import BUILT_INS, REGISTRY, register
from medici_sim.games.tuscany.strategies.heuristic import DECISIONS, action_nb
from medici_sim.games.tuscany.strategies.replay import JittedPlayer
from medici_sim.games.tuscany.strategies.strength import per_game, play, versus
from medici_sim.games.tuscany.tables import new_state

HEURISTICS = ("builder", "colour_racer", "castle_chainer", "trader", "expert")
GAMES = 2  # per lineup: the reference with a jitted seat plays a few games a second


@njit(cache=True)
def peeking_action_nb(state, seat, params):
    """builder's action, except that it draws whenever the region deck's top card is grey (hidden: T12)."""
    if state.deck[state.counts[DECK_TOP]] == 7:
        for i in range(state.counts[N_OPTIONS]):
            if state.options[i] == DRAW:
                return i
    return action_nb(state, seat, params)


register(Strategy("peeker", {**DECISIONS, "action_nb": peeking_action_nb}, params=REGISTRY["builder"].params,
                  summary="a test strategy that reads the region deck (it must not)"))
USED = (*BUILT_INS, "peeker")


def reference_player(name: str, game_index: int):
    return RandomPlayer() if name == "random" else JittedPlayer(name, noise_seed=game_index)


def compare(lineup, games=GAMES, seed=5, seating="rotate", spec=None, component_set=None):
    """Both engines play games 0 .. games - 1 (the reference checking invariants every turn); the first
    differing game and its differences, or None."""
    comp, rules = components(component_set), RULE_BOOK.resolve(spec, len(lineup))
    jitted = Games(comp, rules, lineup, seating, used=USED)
    for index in range(games):
        mine = record(jitted.play(seed, index))
        game = CheckedGame(comp, rules, [reference_player(name, index) for name in lineup], seed, index, seating)
        theirs = game.play().record()
        if mine != theirs:
            return index, {k: (theirs[k], mine[k]) for k in theirs if theirs[k] != mine[k]}
    return None


@pytest.mark.parametrize("name", HEURISTICS)
def test_each_heuristic_plays_the_reference_engines_games(name):
    others = [s for s in HEURISTICS if s != name]
    for players in (2, 3, 4):
        lineup = [name, *others[:players - 2], "random"]
        assert compare(lineup) is None, f"{lineup}: {compare(lineup)}"


def test_heuristics_under_other_rules_and_components_play_the_same_games():
    lineup = ["expert", "castle_chainer", "trader"]
    for spec, component_set in (("original", None), (None, "large-regions"),
                                ("stack_size=3,display=5,draw=1,region_scores=2/5/9", None)):
        assert compare(lineup, games=2, spec=spec, component_set=component_set) is None, (spec, component_set)


def test_a_strategy_reading_what_its_seat_cannot_see_is_caught():
    found = compare(["peeker", "builder"], games=6)
    assert found is not None  # the seat state's deck is noise: the peeker's decisions differ


@pytest.mark.slow  # a checked kernel of its own: minutes of compilation
def test_the_heuristics_never_write_the_game_state():
    """A checked table (core.dispatch) raises if a decision writes the state outside its seat's scratch."""
    from medici_sim.games.tuscany.game import play_one_nb  # noqa: PLC0415

    comp = components()
    table, names = strategy_table(REGISTRY, set(HEURISTICS), checked=True)
    for players in (2, 4):
        lineup = [HEURISTICS[(i + players) % len(HEURISTICS)] for i in range(players)]
        state = new_state(comp, RULE_BOOK.resolve(None, players))[0]
        params = np.zeros((players, MAX_PARAMS))
        for slot, name in enumerate(lineup):
            params[slot, :8] = [p.default for p in REGISTRY[name].params.values()]
        for index in range(3):
            play_one_nb(state, 3, index, SEATING_MODES.index("rotate"),
                        np.array([names.index(s) for s in lineup], np.int64), params, table)


def test_heuristics_finish_their_games_and_place_most_of_their_tiles():
    comp = components()
    for players in (2, 4):
        lineup = [HEURISTICS[(i + players) % len(HEURISTICS)] for i in range(players)]
        games = Games(comp, RULE_BOOK.resolve(None, players), lineup, "rotate", used=USED)
        for index in range(20):
            result = record(games.play(8, index))
            assert not result["reached_limit"]
            assert min(result["seats"]["tiles_placed"]) >= 4, result["seats"]["tiles_placed"]


@pytest.mark.parametrize("name", HEURISTICS)
def test_every_heuristic_declares_its_parameters_for_tune(name):
    params = REGISTRY[name].params
    assert 1 <= len(params) <= MAX_PARAMS
    for key, param in params.items():
        assert param.low < param.high and param.low <= param.default <= param.high, key
        assert param.help, key


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_expert_beats_every_other_built_in_by_more_than_three_standard_errors(players):
    """Seats rotated, the standard error that of the per-game difference against each rival seat (paired: the
    seats play the same games), the weakest of them kept."""
    for rival in ("random", "builder", "colour_racer", "castle_chainer", "trader"):
        margin = versus("expert", rival, players, games=3000, seed=2026)
        assert margin.z > 3, f"{players} players, expert {margin.strategy.mean:.2f} against {rival}: " \
                             f"{margin.score_diff:+.2f} (SE {margin.score_se:.2f}): z = {margin.z:.2f}"


def test_the_strength_margin_is_paired_game_by_game():
    """versus's standard error is the per-game difference's (the seats share every game): it plays the games
    play plays, and its difference's SE is not the independent seats' (they covary within a game)."""
    score, credit = per_game(["expert", "builder"], 40, seed=7)
    _, seats = play(["expert", "builder"], 40, seed=7)
    assert [s.mean for s in seats] == pytest.approx(score.mean(axis=0).tolist())
    assert [s.win for s in seats] == pytest.approx(credit.mean(axis=0).tolist())
    margin = versus("expert", "builder", 2, 40, seed=7)
    diff = score[:, 0] - score[:, 1]
    assert margin.score_diff == pytest.approx(diff.mean())
    assert margin.score_se == pytest.approx(diff.std(ddof=1) / np.sqrt(40))
    assert credit.sum(axis=1) == pytest.approx(np.ones(40))  # one win shared out per game (T36)
    # at two players the win credits are exactly opposed: the paired SE of their difference is twice a seat's
    assert margin.win_se == pytest.approx(2 * credit[:, 0].std(ddof=1) / np.sqrt(40))
