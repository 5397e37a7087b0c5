"""``search`` for The Castles of Tuscany (games/tuscany/strategies/search.py; issue 33).

- it is a built-in with the search parameters, out of the heuristics' lineups, and the game's study policy names it;
- it decides only on what its seat sees: at each decision of a stepped game, a copy with everything hidden from the
  seat dealt again (seat_view.INFORMATION) gets the same answer;
- rollouts never change the real game: its games, replayed in the reference engine with its decisions scripted, are
  the same record for record, the invariants checked after every turn; with a confidence no rollout can reach it
  plays its policy's games exactly (the scripted seat and the policy's answers lend and restore its parameters);
- results depend only on (seed, game index): threads and batches change nothing (T38);
- the OpenSpiel bridge's built-in bot plays it as the kernel does;
- slow: a checked table finds no write outside the deciding seat's scratch;
- slow: search@32 beats expert (one seat against three, 4 players, seats rotated) by more than 3 standard errors.

Budgets are tiny (1-4 rollouts): the code is the same at any budget.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest
from test_tuscany_reference import CheckedGame

from medici_sim.cli.common import load_game_components, parse_strategies
from medici_sim.core.driver import RunConfig, simulate
from medici_sim.core.registry import get_game
from medici_sim.core.resumable import DECISION
from medici_sim.frameworks.builtins import BuiltinPlayer
from medici_sim.frameworks.stepper import SteppedGame, engine
from medici_sim.games.tuscany.components import components
from medici_sim.games.tuscany.recording import Games, record
from medici_sim.games.tuscany.reference_players import Payment
from medici_sim.games.tuscany.reference_players import Strategy as ReferenceStrategy
from medici_sim.games.tuscany.rules import RULE_BOOK
from medici_sim.games.tuscany.seat_view import OFFSET
from medici_sim.games.tuscany.state import DECISIONS, payment_parts
from medici_sim.games.tuscany.strategies.replay import JittedPlayer
from medici_sim.games.tuscany.strategies.strength import versus

TUSCANY = get_game("tuscany")
ACTION = DECISIONS.index("action_nb")
# every test that plays search compiles its Tuscany kernel (22 CPU s cold): the whole suite only. The quick
# subset plays search in the card game (tests/test_search.py: rollouts through core.rollout and the
# engine's compiled loop, which every game's search shares)
SEARCH_KERNEL = pytest.mark.slow


def test_search_is_a_built_in_with_its_parameters():
    registry = TUSCANY.registry
    assert registry.origin["search"] == "built-in" and "search" not in TUSCANY.built_ins
    assert list(registry["search"].params) == ["rollouts", "policy", "opponents", "horizon", "margin_weight",
                                               "confidence"]
    policies = registry["search"].decisions["action_nb"].py_func.__globals__["POLICIES"]
    assert policies == TUSCANY.built_ins  # rollouts play the heuristics, with these ids (the ladder's policy=)
    assert registry["search"].params["policy"].default == policies.index("expert")
    study = TUSCANY.study
    assert (study.searcher, study.rollout_policy) == ("search", "expert")


def stepped(spec: str, others: str = "expert", seed: int = 5, index: int = 0):
    """A stepped 4-player game with ``spec`` at seat 1, ``others`` at the rest: (engine, game, the players)."""
    e = engine("tuscany", 4, "standard")
    first, rest = BuiltinPlayer(e, spec), BuiltinPlayer(e, others)
    return e, SteppedGame(e, seed=seed, index=index), [first, rest, rest, rest]


def check_sees_only_its_own(spec: str, actions: int, seed: int) -> None:
    """At ``actions`` actions of ``spec`` at seat 1 of a stepped game, a copy with everything hidden from the seat
    dealt again (``seed``'s generator) gets the same answer."""
    e, g, players = stepped(spec)
    generator = np.random.default_rng(seed)
    decided = redealt = 0
    while not g.over and decided < actions:
        if g.chance:
            g.apply_action(g.natural_outcome())
            continue
        seat, player = g.actor, players[g.actor]
        if seat == 0 and g.event - DECISION == ACTION:
            twin = copy.deepcopy(g)
            for thing in e.information.hidden:
                thing.redeal(twin.state, seat, generator)
            redealt += not np.array_equal(twin.buffer, g.buffer)
            action = player.action(g)
            assert player.action(twin) == action, f"decision {decided}: it depends on what the seat cannot see"
            decided += 1
        else:
            action = player.action(g)
        g.apply_action(action)
    assert decided == actions and redealt == actions


@SEARCH_KERNEL
def test_search_decides_only_on_what_its_seat_sees():
    check_sees_only_its_own("search:rollouts=3", 6, 11)


class Scripted(ReferenceStrategy):
    """A reference-engine player answering a jitted seat's recorded choices, in order."""

    def __init__(self, choices):
        self.choices = list(choices)

    def next(self, decision: str) -> int:
        k, choice = self.choices.pop(0)
        assert DECISIONS[k] == decision, (DECISIONS[k], decision)
        return choice

    def pick(self, decision, options):
        return options[self.next(decision)]

    def assembly(self, view, options):
        return self.pick("assembly_nb", options)

    def castle_field(self, view, options):
        return self.pick("castle_field_nb", options)

    def bonus(self, view, options):
        return self.pick("bonus_nb", options)

    def action(self, view, options):
        return self.pick("action_nb", options)

    def refresh(self, view, options):
        return self.pick("refresh_nb", options)

    def take(self, view, options):
        return self.pick("take_nb", options)

    def discard(self, view, options):
        return self.pick("discard_nb", options)

    def place(self, view, options):
        return self.pick("place_nb", options)

    def castle(self, view, options):
        return self.pick("castle_nb", options)

    def payment(self, view, colour, options):
        cards, workers, pair1, pair2 = payment_parts(self.next("payment_nb"))
        return Payment(int(cards), int(workers), tuple(int(c) for c in (pair1, pair2) if c >= 0))

    def marble(self, view) -> bool:
        return bool(self.next("marble_nb"))


def check_equals_the_reference(spec: str, games: int) -> None:
    """Stepped games (the kernel's, tests/tuscany/test_tuscany_frameworks.py) with ``spec`` at seat 1, replayed in the
    reference engine with its decisions scripted and expert's own there: the same record."""
    for index in range(games):
        _, g, players = stepped(spec, index=index)
        choices = []
        while not g.over:
            if g.chance:
                g.apply_action(g.natural_outcome())
                continue
            seat, k = g.actor, g.event - DECISION
            action = players[seat].action(g)
            if seat == 0:
                choices.append((k, action - OFFSET[k]))
            g.apply_action(action)
        comp, rules = components(None), RULE_BOOK.resolve(None, 4)
        reference = CheckedGame(comp, rules, [Scripted(choices)] + [JittedPlayer("expert") for _ in range(3)], 5,
                                index, "fixed")
        assert reference.play().record() == record(g.state)


@SEARCH_KERNEL
def test_search_games_equal_the_reference_engines_given_its_decisions():
    check_equals_the_reference("search:rollouts=2,confidence=0", 2)


@SEARCH_KERNEL
def test_search_with_no_evidence_enough_plays_its_policys_games():
    """One rollout is never evidence enough (core.rollout.choose_nb, confidence above 0): every answer is the
    policy's, so the games are expert's (the search ran, on copies, and lent and restored the seat's parameters)."""
    check_plays_its_policys_games("search")


def check_plays_its_policys_games(name: str) -> None:
    """``name`` at one seat with one rollout or iteration (its first parameter) plays expert's games."""
    comp, rules = components(None), RULE_BOOK.resolve(None, 4)
    searching = Games(comp, rules, [name, "expert", "expert", "expert"], "rotate")
    searching.slot_params[0, 0] = 1
    experts = Games(comp, rules, ["expert"] * 4, "rotate")
    for index in range(3):
        assert record(searching.play(4, index)) == record(experts.play(4, index))


def config(spec: str, games: int, threads: int, kernel: str = "search") -> RunConfig:
    return RunConfig(components=load_game_components(TUSCANY, None), game="tuscany", players=3, games=games, seed=3,
                     seating="rotate", threads=threads, rules=TUSCANY.presets[0],
                     strategies=parse_strategies(spec, 3, "tuscany"), kernel_strategies=(*TUSCANY.built_ins, kernel))


def totals_bytes(totals) -> tuple:
    return tuple(np.asarray(a).tobytes() for a in (totals.seat, totals.slot, totals.pairs, totals.run))


def check_threads_and_batches_change_nothing(lineup: str, games: int, kernel: str = "search") -> None:
    """T38: the totals of ``games`` games of ``lineup`` are the same bytes on 1 and 2 threads and in batches of 1
    (``kernel``: the searching built-in the table holds besides the heuristics)."""
    results = {totals_bytes(simulate(config(lineup, games, threads, kernel), batch_size=batch).totals)
               for threads, batch in ((1, None), (2, None), (2, 1))}
    assert len(results) == 1


@SEARCH_KERNEL
def test_threads_and_batches_never_change_search_results():
    check_threads_and_batches_change_nothing("search:rollouts=1,expert,search:rollouts=2,policy=1", 6)


@pytest.mark.slow
def test_search_beats_expert_by_more_than_three_standard_errors():
    """search@32 at one seat against three experts, 4 players, seats rotated; paired game by game against the
    expert seat whose difference is the least sure (strength.versus)."""
    margin = versus("search", "expert", 4, games=60, seed=2026, params={"search": {"rollouts": 32}})
    assert margin.z > 3, f"search ahead by {margin.score_diff:.2f} ± {margin.score_se:.2f}: z = {margin.z:.2f}"


@SEARCH_KERNEL
def test_search_as_an_openspiel_bot_plays_the_kernels_game():
    """The OpenSpiel bridge's built-in bot (frameworks.spiel.BuiltinBot) takes search as it takes the heuristics:
    as the bot at seat 1 of a run it plays the batch kernel's game exactly."""
    import medici_sim.openspiel  # noqa: F401, PLC0415  (registers the games with OpenSpiel)
    from medici_sim.frameworks.spiel import BuiltinBot, play_with_bot  # noqa: PLC0415

    lineup = ["search:rollouts=2", "expert", "expert"]
    scores = play_with_bot("tuscany", lambda game: BuiltinBot(game, 0, lineup[0]), bot_seat=0, strategies=lineup,
                           games=1)
    kernel = Games(components(None), RULE_BOOK.resolve(None, 3), ["search", "expert", "expert"], "fixed")
    kernel.slot_params[0, 0] = 2  # rollouts
    assert list(scores[0]) == list(kernel.play(0, 0)["red"][:3])


@pytest.mark.slow  # the checked wrappers of search's decisions compile for a minute
def test_search_never_writes_the_game_state():
    """A checked table (core.dispatch) raises if a decision writes the state outside its seat's scratch: search
    lends its seat the policy's parameters for the policy's answers and gives them back within the call."""
    from medici_sim.core.dispatch import strategy_table  # noqa: PLC0415
    from medici_sim.core.registry import MAX_PARAMS  # noqa: PLC0415
    from medici_sim.core.seating import SEATING_MODES  # noqa: PLC0415
    from medici_sim.games.tuscany.game import play_one_nb  # noqa: PLC0415
    from medici_sim.games.tuscany.tables import new_state  # noqa: PLC0415

    registry, lineup = TUSCANY.registry, ["search", "expert", "search"]
    table, names = strategy_table(registry, set(lineup), checked=True)
    state = new_state(components(None), RULE_BOOK.resolve(None, 3))[0]
    params = np.zeros((3, MAX_PARAMS))
    for slot, name in enumerate(lineup):
        defaults = [p.default for p in registry[name].params.values()]
        params[slot, :len(defaults)] = defaults
    params[[0, 2], 0] = 2  # rollouts
    play_one_nb(state, 3, 0, SEATING_MODES.index("rotate"), np.array([names.index(s) for s in lineup], np.int64),
                params, table)
