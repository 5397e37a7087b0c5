"""The ``search`` strategy of both games (games/<game>/strategies/search.py).

- it is registered like any built-in, with its parameters, and stays out of the heuristics'
  default lineups (game.built_ins);
- rollouts never change the real game: a game with search seats, replayed in the
  independent reference engine with the search seats' decisions scripted, is the same game
  record for record (card R7-R22, classic C5-C18) and keeps the game's invariants, and the
  checked kernel finds no write outside the deciding seat's scratch (slow). (The conformance
  suite plays game.built_ins, the heuristics; these are its checks for search, at budgets
  it can afford.);
- the results depend only on (seed, game index): threads, batches, a game alone or in a
  batch, and a run stopped and resumed from its checkpoint give the same totals (R25, C20);
- it plays better than the policy it rolls out (a quick check; benchmarks/bench_search.py
  measures the strength).

Budgets are tiny (2-4 rollouts) to keep this fast: the code is the same at any budget.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys

import numpy as np
import pytest
from conftest import card_rules, classic_rules
from test_interrupts import wait_for_progress

from medici_sim.cli.common import load_game_components, parse_strategies
from medici_sim.core.driver import PreparedRun, RunConfig, simulate
from medici_sim.core.plugin_check import _checked_kernel
from medici_sim.core.registry import get_game
from medici_sim.games.card import reference as card_reference
from medici_sim.games.card.state import TURN_REVEALED_AT, TURN_REVEALED_MASK, TURN_SEAT_BITS, TURN_TAKE_AT
from medici_sim.games.classic import reference as classic_reference

CARD, CLASSIC = get_game("card"), get_game("classic")
PARAMS = ["rollouts", "policy", "opponents", "horizon", "margin_weight"]  # then classic: bid_levels; confidence, tuned


def config(game, players: int, spec: str, games: int, seed: int = 3, seating: str = "rotate", threads: int = 1,
           variant: str | None = None) -> RunConfig:
    # one kernel per game for every lineup here (the heuristics and search): compiling a search
    # kernel takes minutes on a cold cache, so the tests share it
    return RunConfig(components=load_game_components(game, None), game=game.name, players=players, games=games,
                     seed=seed,
                     seating=seating, threads=threads, rules=variant or game.presets[0],
                     strategies=parse_strategies(spec, players, game.name),
                     kernel_strategies=(*game.built_ins, "search"))


def totals_bytes(totals) -> tuple:
    return tuple(np.asarray(a).tobytes() for a in (totals.seat, totals.slot, totals.pairs, totals.run))


# -- registration ---------------------------------------------------------------------------------

@pytest.mark.parametrize("game", [CARD, CLASSIC], ids=lambda g: g.name)
def test_search_is_a_built_in_with_its_parameters(game):
    assert game.registry.origin["search"] == "built-in"
    params = list(game.registry["search"].params)
    assert params[:5] == PARAMS and (game is CARD or params[5] == "bid_levels")
    assert "search" not in game.built_ins  # the heuristics: default lineups, one kernel for all of them
    policies = game.registry["search"].decisions[game.registry.decisions[0]].py_func.__globals__["POLICIES"]
    assert policies == game.built_ins  # rollouts play the heuristics, with these ids
    assert game.registry["search"].params["policy"].default == policies.index("expert")


@pytest.mark.parametrize("game", [CARD, CLASSIC], ids=lambda g: g.name)
def test_tuned_rollouts_read_the_shipped_tuned_parameters(game):
    """search:tuned=1 seats its rollout policies with the shipped tuned parameters (tune --out,
    balance --tuned shipped) of the game's rules and player count; the defaults where none."""
    module = __import__(f"medici_sim.games.{game.name}.strategies.search", fromlist=["tuned_params_nb"])
    tuned, defaults, policies = module.tuned_params_nb.read(), module._POLICY_PARAMS, module.POLICIES
    expert = policies.index("expert")
    assert not np.array_equal(tuned[0, 4, expert], defaults[expert])  # tuned at 4 players
    assert np.array_equal(tuned[0, 1, expert], defaults[expert])  # no game of 1 player: the defaults
    assert np.array_equal(tuned[0, 4, policies.index("random")], defaults[policies.index("random")])


def test_bad_search_parameters_are_refused():
    with pytest.raises(ValueError, match="rollouts"):
        parse_strategies("search:rollouts=0", 2, "card")
    with pytest.raises(ValueError, match="policy"):
        parse_strategies("search:policy=9", 3, "classic")


# -- the real game is only read ------------------------------------------------------------------

def scripted(run: RunConfig) -> list[str]:
    """The reference engine's strategy per slot: its own random (its coins come from the
    game's generator, as the kernel's do), every other seat's decisions scripted."""
    return ["random" if s.name == "random" else "scripted" for s in run.strategies]


def card_script(turns):
    """A reference-engine strategy class replaying the kernel's turns (day_turns words, all
    days in order): reveal until the turn's count of reveals (R9), then its take (R10)."""
    class Scripted:
        def __init__(self, params=None):
            pass

        @staticmethod
        def wants_reveal(game, seat):
            word = int(turns[len(game.turn_log)])
            assert word & ((1 << TURN_SEAT_BITS) - 1) == seat
            return game.revealed_this_turn < (word >> TURN_REVEALED_AT) & TURN_REVEALED_MASK

        @staticmethod
        def choose_take(game, seat):
            word = int(turns[len(game.turn_log)])
            assert word & ((1 << TURN_SEAT_BITS) - 1) == seat
            return (word >> TURN_TAKE_AT) & 3
    return Scripted


@pytest.mark.parametrize("players,variant,lineup", [
    # each lineup compiles a search kernel of its own (minutes cold on 2 cores): all in the full suite only
    pytest.param(2, "standard", "search:rollouts=3,greedy", marks=pytest.mark.slow),
    pytest.param(4, "bonus20", "search:rollouts=2,collector,search:rollouts=2:opponents=1:horizon=1,random",
                 marks=pytest.mark.slow),
    pytest.param(5, "standard",
                 "gambler,search:rollouts=2:policy=1:margin_weight=0,cautious,greedy,search:rollouts=2:tuned=1",
                 marks=pytest.mark.slow),
])
def test_card_games_with_search_are_the_reference_engines_games(players, variant, lineup, monkeypatch):
    """The kernel's game with search seats is the reference engine's game given the same
    decisions (scripted for every seat but random's, which draws from the game's generator
    in both engines)."""
    run = config(CARD, players, lineup, 1, seed=11, seating="fixed", variant=variant)
    kernel = PreparedRun(run)
    deck = load_game_components(CARD, None)
    for game_index in range(4):
        trace = kernel.trace(game_index)
        ours = trace.record()
        CARD.engine.invariants(ours, run)  # every card in one place, florins conserved (R13-R20)
        turns = np.concatenate(trace.day_turns)
        monkeypatch.setitem(card_reference.REFERENCE_STRATEGIES, "scripted", card_script(turns))
        theirs = card_reference.play_game(deck, card_rules(players, variant), scripted(run), 11, game_index,
                                          "fixed")
        assert set(ours) == set(theirs)
        for key in theirs:
            assert np.array_equal(ours[key], theirs[key]), f"{key} differs in game {game_index}"


class ClassicScript:
    """A reference-engine decider replaying the kernel's turn log: draw until the turn's lot
    size (C8), then the bid the seat made (C9)."""

    def __init__(self, lots):
        self.days = [classic_reference.turn_records(day) for day in lots]

    def turn(self, game):
        return self.days[game.day][len(classic_reference.turn_records(game.log))]

    def wants_card(self, game, seat):
        turn = self.turn(game)
        assert turn.auctioneer == seat
        return len(game.lot) < len(turn.lot)

    def bid(self, game, seat):
        return dict(self.turn(game).bids)[seat]


@pytest.mark.parametrize("players,lineup", [
    pytest.param(3, "search:rollouts=3,value,expert", marks=pytest.mark.slow),
    pytest.param(4, "search:rollouts=2:bid_levels=2,bargain,search:rollouts=2:opponents=2:horizon=1,collector",
                 marks=pytest.mark.slow),
    pytest.param(6, "expert,search:rollouts=2:policy=1:margin_weight=0,random,value,search:rollouts=2:bid_levels=12:"
                 "tuned=1,bargain", marks=pytest.mark.slow),
])
def test_classic_games_with_search_are_the_reference_engines_games(players, lineup):
    run = config(CLASSIC, players, lineup, 1, seed=12, seating="fixed")
    kernel = PreparedRun(run)
    for game_index in range(4):
        ours = kernel.trace(game_index).record()
        CLASSIC.engine.invariants(ours, run)  # every card in one place, money as the rules move it (C5-C17)
        script = ClassicScript(ours["lots"])
        names = scripted(run)
        theirs = classic_reference.play_game(classic_rules(players), names, 12, game_index, "fixed",
                                             decide=[script if name == "scripted" else None for name in names])
        assert set(ours) == set(theirs)
        for key, b in theirs.items():
            same = (all(np.array_equal(x, y) for x, y in zip(ours[key], b, strict=True)) if isinstance(b, list)
                    else np.array_equal(ours[key], b))
            assert same, f"{key} differs in game {game_index}"


# the card game's quick (its search kernel is bench_search's quick run's too); the classic game's compiles a
# search kernel of its own (19 CPU s) through the same core.rollout and core.dispatch.runtime_loop: whole suite
@pytest.mark.parametrize("game", [CARD, pytest.param(CLASSIC, marks=pytest.mark.slow)], ids=lambda g: g.name)
def test_rollouts_call_the_engines_compiled_loop_without_linking_a_copy(game):
    """A search player's rollouts run the engine's own compiled play loop through its address
    (core.dispatch.runtime_loop): the function playing them links no copy of the loop, whose code LLVM
    optimised again in each of the search's functions (most of a search kernel's compile time)."""
    from medici_sim.core import dispatch

    simulate(config(game, 3, "search:rollouts=1,random,random", 1))
    searched = []
    for wrapper in dispatch._KEEP:  # the compiled decisions (and loops) of this process
        if not wrapper.py_func.__name__.startswith("decide_"):
            continue
        for compiled in wrapper.overloads.values():  # numba's: the code as linked into callers (cached too)
            defined = [f.name for f in compiled.library._get_module_for_linking().functions if not f.is_declaration]
            if any(f"{game.name}10strategies6search" in name for name in defined):
                searched.append([name for name in defined if "finish_game_nb" in name or "play_day_nb" in name])
    assert searched and not any(searched), "a search decision links a copy of the play loop"


@pytest.mark.slow
@pytest.mark.parametrize("game,lineup", [(CARD, "search:rollouts=2,expert,search:rollouts=1:horizon=1"),
                                         (CLASSIC, "search:rollouts=2,expert,search:rollouts=1:horizon=1")],
                         ids=["card", "classic"])
def test_the_checked_kernel_finds_no_write_outside_its_scratch(game, lineup):
    """check-plugin's checked kernel: every decision of every seat leaves the state as it was,
    but its own scratch row and rng (a search decision touches neither)."""
    checked = _checked_kernel(config(game, 3, lineup, 6))
    checked.play(0, 6)  # an illegal decision or a changed field would raise


# -- determinism --------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game,players,lineup", [
    (CARD, 3, "search:rollouts=2,expert,greedy"),
    (CLASSIC, 4, "search:rollouts=2,expert,value,search:rollouts=1"),
], ids=["card", "classic"])
def test_threads_batches_and_single_games_never_change_the_results(game, players, lineup):
    results = {totals_bytes(simulate(config(game, players, lineup, 24, threads=threads), batch_size=batch).totals)
               for threads, batch in ((1, None), (2, None), (3, 5), (2, 24))}
    assert len(results) == 1
    kernel = PreparedRun(config(game, players, lineup, 24))
    alone = kernel.play(0, 1)
    for index in range(1, 24):
        alone.add(kernel.play(index, 1))
    assert totals_bytes(alone) == results.pop()


@pytest.mark.slow
def test_slow_kernels_keep_every_thread_busy_from_the_first_batch():
    """A search run's kernel takes over SLOW_GAME a game: its first batch is sized by its
    speed, not FIRST_BATCH games, so progress (and a stop request) comes within about a batch."""
    seen = []
    simulate(config(CARD, 4, "search:rollouts=4,expert,expert,expert", 400, threads=2), progress=seen.append)
    assert sum(seen) == 400 and len(seen) >= 2, seen  # about 2 ms a game: batches of a few hundred at most


@pytest.mark.slow
def test_a_stopped_run_resumed_from_its_checkpoint_gives_the_whole_runs_tables(tmp_path):
    """Ctrl-C (SIGINT) a CLI run with a search seat, resume it from its checkpoint: the same
    tables as an uninterrupted run."""
    args = ["--game", "classic", "--players", "3", "--games", "2000", "--seed", "9", "--seating", "rotate",
            "--strategies", "search:rollouts=2,expert,value", "--threads", "1", "--quiet"]
    whole, resumed, saved = tmp_path / "whole.json", tmp_path / "resumed.json", tmp_path / "run.ckpt"
    subprocess.run([sys.executable, "-m", "medici_sim", *args, "--out", str(whole)], check=True, timeout=600)
    proc = subprocess.Popen([sys.executable, "-m", "medici_sim", *args, "--checkpoint", str(saved)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_progress(saved, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 130), err  # 0: it finished before the signal arrived
    done = subprocess.run([sys.executable, "-m", "medici_sim", "--resume", str(saved), "--quiet", "--out",
                           str(resumed)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    a, b = json.loads(whole.read_text()), json.loads(resumed.read_text())
    assert a["seats"] == b["seats"] and a["strategies"] == b["strategies"]
    assert b["summary"]["games"] == 2000 and b["summary"]["partial"] is False


# -- strength (a quick check; the benchmark measures it) ----------------------------------------------

@pytest.mark.slow
def test_search_beats_the_policy_it_rolls_out():
    """Card game, 4 players, one search seat (rollouts=32) against three experts, rotated:
    its win rate is above the fair 1/4 by more than 3 standard errors."""
    from medici_sim.core.stats import Z95, strategy_frame

    table = strategy_frame(simulate(config(CARD, 4, "search,expert,expert,expert", 400, threads=2)))
    row = table.set_index("strategy").loc["search"]
    assert row.win_rate - 0.25 > 3 * (row.win_rate_ci_high - row.win_rate) / Z95


@pytest.mark.slow
def test_a_dask_cluster_plays_search_games_exactly_as_threads_do(capsys, tmp_path):
    """R25 / C20 with Dask workers: the run's kernel is compiled (and cached) here first, the
    workers load it, and their tables equal the threads' tables."""
    pytest.importorskip("distributed")
    from conftest import run

    args = ["--players", "2", "--strategies", "search:rollouts=2,expert", "--games", "60", "--seating", "rotate",
            "--seed", "4", "--quiet"]
    alone, dask = tmp_path / "alone.json", tmp_path / "dask.json"
    assert run(capsys, *args, "--out", str(alone))[0] == 0
    code, _, err = run(capsys, *args, "--cluster", "local:2", "--out", str(dask))
    assert code == 0, err
    a, b = json.loads(alone.read_text()), json.loads(dask.read_text())
    assert a["seats"] == b["seats"] and a["strategies"] == b["strategies"]
