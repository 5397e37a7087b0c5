"""The tree search ``mcts`` of both games (games/medici/tree_search.py, each game's strategies/search.py).

- it is a built-in registered after search (the ids before it stay: golden files and
  checkpoints name strategies by id), outside the heuristics' default lineups;
- its tree: progressive widening tries the candidates in order, the policy's own first, as a
  node's visits grow; availability counts; the root leaves the policy's choice only on evidence;
- its decisions read only what its seat can see: the hidden order of the unseen cards (card:
  the deck, R7, R20; classic: the deck and which cards were removed, C5) never changes them;
- the games it plays are the reference engine's games given its decisions (card R7-R22,
  classic C5-C18) and keep the game's invariants; threads and batches never change the
  results (R25, C20);
- it beats the fair share against three experts (slow: more than 3 SE).

Its strength against flat search is measured by scripts/strength_table.py (docs/strategies.md).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import card_rules, classic_rules, run_script_here
from test_search import ClassicScript, card_script, scripted, totals_bytes

from medici_sim.cli.common import load_game_components, parse_strategies
from medici_sim.core.driver import PreparedRun, RunConfig, simulate
from medici_sim.core.registry import get_game
from medici_sim.core.resumable import DECISION, EXTERNAL, GAME_OVER
from medici_sim.core.tree import root_choice_nb, select_nb
from medici_sim.games.card import reference as card_reference
from medici_sim.games.card import stepped as card_stepped
from medici_sim.games.card.state import DECK_LEN as CARD_DECK_LEN
from medici_sim.games.card.strategies import search as card_search
from medici_sim.games.classic import reference as classic_reference
from medici_sim.games.classic import stepped as classic_stepped
from medici_sim.games.classic.rules import RULE_REMOVED
from medici_sim.games.classic.state import DECK_LEN as CLASSIC_DECK_LEN
from medici_sim.games.classic.strategies import search as classic_search

CARD, CLASSIC = get_game("card"), get_game("classic")
PARAMS = ["iterations", "policy", "opponents", "margin_weight", "exploration", "widening", "confidence", "paired"]


def config(game, players: int, spec: str, games: int, seed: int = 3, seating: str = "rotate", threads: int = 1,
           variant: str | None = None) -> RunConfig:
    # one kernel per game for every lineup here: compiling a tree-search kernel takes a minute cold
    return RunConfig(components=load_game_components(game, None), game=game.name, players=players, games=games,
                     seed=seed,
                     seating=seating, threads=threads, rules=variant or game.presets[0],
                     strategies=parse_strategies(spec, players, game.name),
                     kernel_strategies=(*game.built_ins, "mcts"))


# -- registration ---------------------------------------------------------------------------------

@pytest.mark.parametrize("game", [CARD, CLASSIC], ids=lambda g: g.name)
def test_mcts_is_a_built_in_after_search(game):
    names = list(game.registry.strategies)
    assert names.index("mcts") > names.index("search") and names[:len(game.built_ins)] == list(game.built_ins)
    assert game.registry.origin["mcts"] == "built-in" and "mcts" not in game.built_ins
    assert list(game.registry["mcts"].params) == PARAMS
    assert game.registry["mcts"].untunable  # tune refuses it, as it refuses search
    with pytest.raises(ValueError, match="iterations"):
        parse_strategies("mcts:iterations=0", 3, game.name)


# -- the tree ---------------------------------------------------------------------------------------

def empty_tree(size: int = 16):
    tree = np.full((5, size), -1, np.int64)
    tree[4, 0] = 1
    return tree, np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size), np.zeros(size)


def test_progressive_widening_tries_the_candidates_in_order_as_visits_grow():
    """A node with n visits tries its first 1 + widening * sqrt(n) candidates (C9-C11: a bid
    has many); one not yet in the tree is added (in candidate order) before any is chosen
    again, and each tried one counts a chance (availability)."""
    tree, visits, avail, total, _ = empty_tree()
    candidates = np.array([7, 0, 3, 5, 9], np.int64)
    added = []
    for visit in range(10):
        visits[0] = visit
        child = select_nb(tree, visits, avail, total, 0, 1, candidates, 5, 0.5, 1.0)
        if visits[child] == 0:
            added.append((visit, tree[3, child]))
        visits[child] += 1
        total[child] += 1.0 if tree[3, child] == 3 else 0.0
    assert added == [(0, 7), (1, 0), (4, 3), (9, 5)]  # 1 + sqrt(n): 1, 2, 2, 2, 3, ..., 4 at n = 9
    assert tree[4, 0] == 5 and avail[tree[0, 0]] == 1  # the newest child: one chance, when it was added
    # a candidate at another decision of the same node is another child (open loop: decisions may differ)
    other = select_nb(tree, visits, avail, total, 0, 0, candidates, 5, 0.5, 1.0)
    assert tree[2, other] == 0 and tree[3, other] == 7


def test_the_root_leaves_the_policys_choice_only_on_evidence():
    tree, visits, avail, total, total_sq = empty_tree()
    candidates = np.array([1, 0], np.int64)
    own = select_nb(tree, visits, avail, total, 0, 0, candidates, 2, 0.5, 9.0)
    visits[0] = visits[own] = 1  # visited when added, as in a search
    other = select_nb(tree, visits, avail, total, 0, 0, candidates, 2, 0.5, 9.0)
    for child, n, mean, sq in ((own, 10, 0.3, 0.3), (other, 30, 0.5, 0.5)):  # wins: 0/1 outcomes
        visits[child], total[child], total_sq[child] = n, n * mean, n * sq
    assert root_choice_nb(tree, visits, total, total_sq, candidates, 2, 0, 0.5) == 0
    assert root_choice_nb(tree, visits, total, total_sq, candidates, 2, 0, 3.0) == 1


# -- hidden information ---------------------------------------------------------------------------------

def hidden_order_never_matters(game, stepped, decide, players, lineup, shuffle):
    """Step a game with slot 0 EXTERNAL; at each of its decisions ask mcts on the state and on
    a copy whose hidden order ``shuffle`` changed: the same answer; then play it."""
    kernel = PreparedRun(config(game, players, lineup, 1, seed=7, seating="fixed"))
    strategy = kernel.slot_strategy.copy()
    strategy[0] = EXTERNAL
    params = tuple(kernel.slot_params[0])
    rng = np.random.default_rng(0)
    buffer = kernel.inputs.copy()
    stepped.new_game_nb(buffer, 7, 0, kernel.seating, strategy, kernel.slot_params, kernel.table)
    event, asked = stepped.advance_nb(buffer, kernel.table), 0
    while event != GAME_OVER:
        if event >= DECISION:
            shuffled = buffer.copy()
            shuffle(shuffled[0], rng)
            answers = {int(decide[event - DECISION](b.copy()[0], 0, params)) for b in (buffer, shuffled)}
            assert len(answers) == 1
            asked += 1
            event = stepped.apply_choice_nb(buffer, kernel.table, answers.pop())
        else:
            event = stepped.advance_nb(buffer, kernel.table)
    return asked


@pytest.mark.slow
def test_card_decisions_never_read_the_deck_order():
    """R7, R20: only which cards are unseen is public, not their order in the deck."""
    def shuffle(state, rng):
        n = state["counts"][CARD_DECK_LEN]
        state["deck"][:n] = rng.permutation(state["deck"][:n])

    asked = hidden_order_never_matters(CARD, card_stepped, (card_search.tree_reveal_nb, card_search.tree_take_nb),
                                       3, "mcts:iterations=12,expert,greedy", shuffle)
    assert asked > 20


@pytest.mark.slow
def test_classic_decisions_never_read_the_deck_or_which_cards_were_removed():
    """C5: the unseen cards are public; the deck's order and which of them lie face down are not."""
    def shuffle(state, rng):
        n, removed = state["counts"][CLASSIC_DECK_LEN], state["rules"][RULE_REMOVED]
        unseen = rng.permutation(np.concatenate([state["deck"][:n], state["removed"][:removed]]))
        state["deck"][:n], state["removed"][:removed] = unseen[:n], unseen[n:]

    asked = hidden_order_never_matters(CLASSIC, classic_stepped, (classic_search.tree_draw_nb,
                                                                  classic_search.tree_bid_nb),
                                       4, "mcts:iterations=12,expert,value,bargain", shuffle)
    assert asked > 20


# -- the real game is only read -------------------------------------------------------------------------

@pytest.mark.slow
def test_card_games_with_mcts_are_the_reference_engines_games(monkeypatch):
    run = config(CARD, 4, "mcts:iterations=6,expert,mcts:iterations=4:policy=1:paired=0,collector", 1, seed=11,
                 seating="fixed", variant="bonus20")
    kernel = PreparedRun(run)
    deck = load_game_components(CARD, None)
    for game_index in range(3):
        trace = kernel.trace(game_index)
        ours = trace.record()
        CARD.engine.invariants(ours, run)  # every card in one place, florins conserved (R13-R20)
        monkeypatch.setitem(card_reference.REFERENCE_STRATEGIES, "scripted",
                            card_script(np.concatenate(trace.day_turns)))
        theirs = card_reference.play_game(deck, card_rules(4, "bonus20"), scripted(run), 11, game_index, "fixed")
        assert set(ours) == set(theirs)
        for key in theirs:
            assert np.array_equal(ours[key], theirs[key]), f"{key} differs in game {game_index}"


@pytest.mark.slow
def test_classic_games_with_mcts_are_the_reference_engines_games():
    run = config(CLASSIC, 5, "mcts:iterations=6,expert,value,mcts:iterations=4:opponents=1:widening=3:paired=0,"
                 "random", 1, seed=12, seating="fixed")
    kernel = PreparedRun(run)
    for game_index in range(3):
        ours = kernel.trace(game_index).record()
        CLASSIC.engine.invariants(ours, run)  # every card in one place, money as the rules move it (C5-C17)
        script = ClassicScript(ours["lots"])
        names = scripted(run)
        theirs = classic_reference.play_game(classic_rules(5), names, 12, game_index, "fixed",
                                             decide=[script if name == "scripted" else None for name in names])
        assert set(ours) == set(theirs)
        for key, b in theirs.items():
            same = (all(np.array_equal(x, y) for x, y in zip(ours[key], b, strict=True)) if isinstance(b, list)
                    else np.array_equal(ours[key], b))
            assert same, f"{key} differs in game {game_index}"


@pytest.mark.slow
@pytest.mark.parametrize("game,players,lineup", [
    (CARD, 3, "mcts:iterations=4,expert,greedy"),
    (CLASSIC, 4, "mcts:iterations=4,expert,value,mcts:iterations=2:paired=0"),
], ids=["card", "classic"])
def test_threads_batches_and_single_games_never_change_the_results(game, players, lineup):
    results = {totals_bytes(simulate(config(game, players, lineup, 16, threads=threads), batch_size=batch).totals)
               for threads, batch in ((1, None), (2, 5))}
    assert len(results) == 1
    kernel = PreparedRun(config(game, players, lineup, 16))
    alone = kernel.play(0, 1)
    for index in range(1, 16):
        alone.add(kernel.play(index, 1))
    assert totals_bytes(alone) == results.pop()


# -- strength (scripts/strength_table.py measures it against flat search) ----------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game", [CARD, CLASSIC], ids=lambda g: g.name)
def test_mcts_beats_the_fair_share_against_experts(game):
    """4 players, one mcts seat (32 iterations) against three experts, rotated: its win rate
    is above the fair 1/4 by more than 3 standard errors."""
    from medici_sim.core.stats import Z95, strategy_frame

    table = strategy_frame(simulate(config(game, 4, "mcts:iterations=32,expert,expert,expert", 300, threads=2)))
    row = table.set_index("strategy").loc["mcts"]  # 32 iterations: its default, so its label is its name
    assert row.win_rate - 0.25 > 3 * (row.win_rate_ci_high - row.win_rate) / Z95


@pytest.mark.parametrize("args", [["chess"], ["card", "--players", "9"], ["card", "--scale", "-1"],
                                  ["card", "--scale", "inf"], ["card", "--pair", "strong", "nope", "--games", "2"]])
def test_the_strength_table_script_refuses_bad_input_in_one_line(args, capsys, monkeypatch):
    """In this process, as ``python scripts/strength_table.py ARGS`` runs it (a new process each cost 2 CPU s)."""
    code = run_script_here(Path(__file__).parents[1] / "scripts" / "strength_table.py", args, monkeypatch)
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("strength_table.py: error:")


def test_the_strength_tables_pair_of_one_strategy_says_so_without_a_standard_error(capsys, monkeypatch):
    """Two specs that play the same games (here one strategy twice) differ by 0 in every game: the pair says so,
    not "nan SE" (a tree with too little widening to leave its policy plays flat search's games, for example)."""
    import runpy

    script = Path(__file__).parents[1] / "scripts" / "strength_table.py"
    monkeypatch.setattr(sys, "argv", [str(script), "card", "--pair", "random", "random", "--games", "3"])
    runpy.run_path(str(script), run_name="__main__")
    out, err = capsys.readouterr()
    assert "nan" not in out + err and "+0.0 points in every game" in out
