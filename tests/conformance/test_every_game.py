"""One conformance suite that every registered game passes (core.registry.GAMES).

For each game: each part of the game contract it declares (core.contract) is complete, and a
part it leaves out is declared so; stepped to its end through new game / advance / legal
choices / apply, a game returns the batch kernel's scores and winners; results are
bit-identical for 1, 2 and 3 threads and any batch size (R25, C20); the independent reference
engine plays the same games as the kernel, record for record; the game's invariants (every
card in one place, florins conserved as its rules say) hold over many games of every player
count and seating; memory stays flat as the games grow; bad input is one line and exit code 2.
A new game passes this before it is called done.
"""
from __future__ import annotations

import resource
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
import toygame
from conftest import run

from medici_sim.cli.common import load_game_components
from medici_sim.core.accounting import (
    STAT_SCORE,
    STAT_SOURCE,
    STAT_WIN60,
    WIN_UNIT,
    StatLayout,
    add_seat_rows_nb,
)
from medici_sim.core.contract import Engine, Game, Information, StatColumn, Stepping
from medici_sim.core.dispatch import _INLINED, MAX_STRATEGIES, PLAIN, _address, empty_table
from medici_sim.core.driver import PreparedRun, RunConfig, seat_strategy, simulate
from medici_sim.core.registry import GAMES, get_game
from medici_sim.core.resumable import DECISION, EXTERNAL, GAME_OVER, STEP_ACTOR
from medici_sim.core.stats import stat_columns

ROOT = Path(__file__).parents[2]
GAME_NAMES = sorted({*GAMES, toygame.GAME.name})  # the games medici-sim ships, and the tests' toy game
RULE_TOPICS = {"players", "seats", "seating", "seed", "rules", "lineups", "spending"}  # Presentation.rule_points


@pytest.fixture(autouse=True)
def the_toy_game_is_registered(monkeypatch):
    """The toy game (tests/toygame) is registered for each test here, and for no other test."""
    monkeypatch.setitem(GAMES, toygame.GAME.name, toygame.GAME)


def config(name: str, players: int, names=None, games: int = 1, seating: str = "rotate", seed: int = 7,
           threads: int = 1, variant: str | None = None) -> RunConfig:
    game = get_game(name)
    names = names or [game.built_ins[k % len(game.built_ins)] for k in range(players)]
    return RunConfig(components=load_game_components(game, None), players=players, games=games, seed=seed,
                     seating=seating,
                     threads=threads, game=name, rules=variant or game.presets[-1],
                     strategies=tuple(seat_strategy(n, name) for n in names))


def totals_tuple(totals):
    return tuple(np.asarray(a).tobytes() for a in (totals.seat, totals.slot, totals.pairs, totals.run))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_game_declares_each_part_completely(name):
    """Each part of the game contract (core.contract) the game declares has every member it needs,
    and a part it leaves out is declared so, with the reason where the contract asks for one."""
    game = get_game(name)
    assert isinstance(game, Game) and game.name == name
    assert game.min_players <= game.default_players <= game.max_players
    assert game.presets and game.built_ins and set(game.built_ins) <= set(game.registry)
    if game.study is not None and game.study.weakest:  # built_ins' order (core.contract): the baseline first
        assert game.built_ins[0] == game.study.weakest, f"{name}: the first built-in is not the ladder's weakest"
    engine = game.engine  # required
    assert isinstance(engine, Engine)
    assert hasattr(engine.play_games_nb, "py_func"), f"{name}: play_games_nb is not jitted"
    if engine.stepping is not None:
        for member in (f.name for f in fields(Stepping)):
            assert hasattr(getattr(engine.stepping, member), "py_func"), f"{name}: {member} is not jitted"
    else:  # not stepped yet, saying why: no framework, no play, no small game API
        assert engine.no_stepping and game.framework is None and game.presentation.play_console is None
    for member in ("kernel_inputs", "scores", "trace", "reference_game", "reference_strategies", "invariants"):
        assert callable(getattr(engine, member)), f"{name}: Engine.{member}"
    assert all(isinstance(c, StatColumn) for c in engine.stat_columns)
    assert set(engine.counted_under) <= set(engine.run_columns)
    identities = engine.totals_identities
    assert identities is None or all(callable(getattr(identities, m)) for m in ("row", "run"))
    presentation = game.presentation  # required
    assert presentation.summary and presentation.presets_help and (ROOT / presentation.rules_page).is_file()
    assert set(presentation.rule_points) <= RULE_TOPICS
    assert presentation.play_console is None or isinstance(presentation.play_console(), type)
    if game.data is not None:  # a component set: loaded, named and read back from its text
        components = game.data.load(None)
        named = game.data.named()
        assert named and next(iter(named.values())).fingerprint() == components.fingerprint()
        assert game.data.from_text(components.to_csv()).fingerprint() == components.fingerprint()
        assert all(game.data.shipped_name(c) == n for n, c in named.items())
        assert components.n_cards > 0 and game.data.help
        assert components.shortage_warning(game.min_players) is None or isinstance(
            components.shortage_warning(game.min_players), str)
    study = game.study
    if study is not None:  # rule sets to balance, or why there are none; the ladder's strategies registered
        assert bool(study.balance_rules) != bool(study.no_balance), name
        assert not study.balance_rules or len(study.balance_rules) == 2
        assert all(s in game.registry for s in (study.weakest, study.searcher, study.strongest, study.teacher,
                                                study.rollout_policy) if s)
        assert all(Path(p).is_file() for p in (*study.kernel_data, *filter(None, [study.tuned_file])))
        assert study.learned is None or study.learned() is not None
    else:
        assert game.no_balance and not game.balance_rules
    facts = game.framework
    if facts is not None:
        view = game.seat_view
        assert all(callable(getattr(view, m)) for m in ("action_of", "choice_of"))
        assert isinstance(facts.information, Information) and facts.score and not game.no_framework
    else:  # not offered to the frameworks, and saying why
        assert game.no_framework
        with pytest.raises(ValueError, match=f"the {name} game is not offered"):
            game.seat_view  # noqa: B018


@pytest.mark.parametrize("name", GAME_NAMES)
def test_stepping_every_game_to_its_end_returns_the_kernels_scores(name):
    """New game / advance / legal choices / apply (Engine.stepping), every decision answered
    from outside by the seat's strategy deciding on the game's own record, end in the batch
    kernel's game: the same scores and winners (Engine.scores, the returns), and the same
    statistics, for every player count."""
    game = get_game(name)
    stepping, registry = game.engine.stepping, game.registry
    if stepping is None:
        pytest.skip(f"{name}: {game.engine.no_stepping}")
    for players in range(game.min_players, game.max_players + 1):
        kernel = PreparedRun(config(name, players, seed=players))
        decide = {slot: [registry[s.name].decisions[d] for d in registry.decisions]
                  for slot, s in enumerate(kernel.config.strategies)}
        external = np.full(players, EXTERNAL, np.int64)
        for index in range(3):
            buffer = kernel.inputs.copy()
            stepping.new_game_nb(buffer, kernel.config.seed, index, kernel.seating, external, kernel.slot_params,
                                 kernel.table)
            state, decisions = buffer[0], 0
            event = stepping.advance_nb(buffer, kernel.table)
            while event != GAME_OVER:
                if event < DECISION:
                    event = stepping.advance_nb(buffer, kernel.table)
                    continue
                seat = int(state["step"][STEP_ACTOR])
                slot = int(state["seat_slot"][seat])
                choice = int(decide[slot][event - DECISION](state, seat, tuple(kernel.slot_params[slot])))
                assert choice in stepping.legal_choices_nb(buffer, kernel.table), (name, players, index, event)
                event = stepping.apply_choice_nb(buffer, kernel.table, choice)
                decisions += 1
            assert decisions, f"{name}: no decision was asked in game {index}"
            batch = kernel.play(index, 1)
            returns = game.engine.scores(state, players)
            assert np.array_equal(returns, batch.seat[:, STAT_SCORE]), (name, players, index)
            winners = returns == returns.max()
            if game.engine.tie_breaks:  # the winners are among the best scores, the tie-breaks decide
                assert not batch.seat[~winners, STAT_WIN60].any() and batch.seat[:, STAT_WIN60].sum() == WIN_UNIT
            else:
                assert np.array_equal(np.where(winners, WIN_UNIT // winners.sum(), 0), batch.seat[:, STAT_WIN60])
            mine = kernel.zeros()
            rows = np.zeros_like(mine.seat)
            stepping.accumulate_game_nb(state, rows, mine.pair_stats, mine.run)
            add_seat_rows_nb(rows, state["seat_slot"], mine.seat, mine.slot)
            assert totals_tuple(mine) == totals_tuple(batch), (name, players, index)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_game_declares_its_score_in_its_own_terms(name):
    """Its score's unit, its sources (as many as it has, each a name for the tables' columns: the statistics'
    layout is the game's, core.accounting.StatLayout) and its scoring moments (the rule that counts them, where
    it names one); the kernel fills the declared sources' columns and the metrics' per-seat columns after them,
    never more than a seat's games (issue 31)."""
    game = get_game(name)
    assert game.presentation.score_unit.isidentifier() and game.presentation.score_unit != "score"
    names = [s.name for s in game.presentation.score_sources]
    assert len(names) == len(set(names)) and all(n.isidentifier() for n in names)
    rule = game.engine.moment_rule
    assert not rule or (game.rule_book is not None and rule in game.rule_book.names)
    assert game.engine.moments >= 1 and (game.engine.moment.isidentifier() or not game.engine.moment)
    assert len(set(stat_columns(game))) == len(stat_columns(game))
    seat = simulate(config(name, game.max_players, games=50)).totals.seat
    layout = StatLayout.of(game)
    assert seat.shape[1] == layout.width and layout.trailed_first == STAT_SOURCE + len(names)
    assert (seat[:, layout.trailed_first_won] <= seat[:, layout.trailed_first]).all()
    assert (seat[:, layout.trailed_first] <= 50).all() and (seat[:, STAT_SOURCE:layout.trailed_first] >= 0).all()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_threads_and_batches_never_change_the_results(name):
    game = get_game(name)
    players = game.max_players
    results = set()
    for threads, batch in ((1, None), (2, 997), (3, 4096), (3, 50_000)):
        result = simulate(config(name, players, games=20_000, threads=threads, seed=11), batch_size=batch)
        results.add(totals_tuple(result.totals))
    assert len(results) == 1
    # ... and a game played alone is the game played in a batch
    alone = PreparedRun(config(name, players, seed=11))
    one_by_one = None
    for index in range(30):
        totals = alone.play(index, 1)
        if one_by_one is None:
            one_by_one = totals
        else:
            one_by_one.add(totals)
    assert totals_tuple(one_by_one) == totals_tuple(alone.play(0, 30))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_built_ins_compiled_into_the_play_loop_play_as_their_wrappers_do(name):
    """core.dispatch: a cheap built-in (``inline=True``) is called inlined, by a small code in the table;
    the same games played through its compiled wrapper's address are the same games."""
    game = get_game(name)
    registry = game.registry
    inlined = [s for s in game.built_ins if registry[s].inline]
    others = [s for s in game.built_ins if not registry[s].inline][:1]
    names = [(inlined + others)[k % len(inlined + others)] for k in range(game.max_players)]
    kernel = PreparedRun(config(name, game.max_players, names, seed=5))
    table_name = kernel.table.dtype.names[0]
    codes = kernel.table[table_name]
    # the play loop's inlined built-ins: the game's (a registry of the game made first, a test's, may have fewer)
    compiled_in = {s.name for s in _INLINED[table_name]}
    assert compiled_in <= set(inlined) and (compiled_in or not inlined)
    through_addresses = empty_table(registry)
    addresses = through_addresses[table_name]
    for k, strategy in enumerate(kernel.table_names):
        assert (codes[:, k] <= len(compiled_in)).all() == (strategy in compiled_in), strategy  # codes, else addresses
        for d, kind in enumerate(registry.decisions):
            addresses[d, k] = (_address(registry, registry[strategy], kind, PLAIN) if strategy in compiled_in
                               else codes[d, k])
    assert (addresses[:, :len(kernel.table_names)] > MAX_STRATEGIES).all()
    games = 40 if name == "tuscany" else 200
    assert totals_tuple(kernel.play(0, games)) == totals_tuple(kernel._play(0, games, through_addresses))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_reference_engine_plays_the_same_games(name):
    game = get_game(name)
    known = [s for s in game.built_ins if s in game.engine.reference_strategies()]
    assert "random" in known
    for players in range(game.min_players, game.max_players + 1):
        for seating in ("fixed", "rotate", "random"):
            names = [known[(k + players) % len(known)] for k in range(players)]
            run_config = config(name, players, names, seating=seating, seed=players)
            kernel = PreparedRun(run_config)
            for index in range(12):
                ours = kernel.trace(index).record()
                theirs = game.engine.reference_game(run_config, index)
                assert set(ours) == set(theirs), (name, set(ours) ^ set(theirs))
                for key in theirs:
                    a, b = ours[key], theirs[key]
                    same = (all(np.array_equal(x, y) for x, y in zip(a, b, strict=True)) if isinstance(b, list)
                            else np.array_equal(a, b))
                    assert same, f"{name}: {key} differs, players={players} seating={seating} game={index}"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_invariants_hold_over_many_games(name):
    game = get_game(name)
    for players in range(game.min_players, game.max_players + 1):
        for seating in ("fixed", "random"):
            run_config = config(name, players, seating=seating, seed=100 + players)
            kernel = PreparedRun(run_config)
            for index in range(60):
                game.engine.invariants(kernel.trace(index).record(), run_config)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_memory_stays_flat_as_the_games_grow(name):
    """Playing ten times more games needs no more memory: statistics are fixed-size sums."""
    game = get_game(name)
    simulate(config(name, 4, ["random"] * 4, games=200_000, threads=2))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    simulate(config(name, 4, ["random"] * 4, games=2_000_000, threads=2))
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 8 * 1024, f"{name}: peak memory grew by {grown_kib} KiB over 2,000,000 games"
    assert game.name == name


@pytest.mark.parametrize("name", GAME_NAMES)
def test_bad_input_is_one_line_and_exit_2(capsys, name):
    game = get_game(name)
    for args in (["-p", str(game.max_players + 1)], ["-p", str(game.min_players - 1)], ["-s", "no_such_strategy"],
                 ["-s", f"{game.built_ins[0]}:no_such_param=1"], ["--variant", "no_such_rules"],
                 ["-n", "0"], ["--seed", "-1"], ["--threads", "0"]):
        code, out, err = run(capsys, "--game", name, "-n", "100", *args) if args[0] != "-n" else \
            run(capsys, "--game", name, *args)
        assert code == 2, (name, args, out, err)
        assert err.startswith("medici-sim: error: ") and err.count("\n") == 1 and "Traceback" not in err, err


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_public_game_api_plays_every_game(name):
    """medici_sim.games.load (games.playing): a game by name, a new game whose every decision the
    caller answers with one of the legal choices until it is over, its returns and winners, a text
    view at each step; and with every seat a strategy, the kernel's game and scores."""
    from medici_sim.games import load

    game = load(name)
    assert game.name == name and game.decisions == get_game(name).registry.decisions
    if get_game(name).engine.stepping is None:  # refused in one line, saying why
        with pytest.raises(ValueError, match=f"the {name} game cannot be played move by move yet"):
            game.new_game()
        return
    players = game.players[1]
    position = game.new_game(players, seed=5, index=2)
    moves = 0
    while not position.over:
        assert 0 <= position.seat < players and position.decision in game.decisions
        legal = position.legal_choices()
        assert legal and isinstance(position.text(), str)
        position.apply(legal[moves % len(legal)])
        moves += 1
    assert moves and position.legal_choices() == [] and position.seat is None
    assert len(position.returns()) == players and set(position.winners()) <= set(range(players))
    with pytest.raises(ValueError, match="the game is over"):
        position.apply(0)
    lineup = [get_game(name).built_ins[k % len(get_game(name).built_ins)] for k in range(players)]
    played = game.new_game(players, seed=5, index=2, strategies=lineup)
    kernel = PreparedRun(config(name, players, lineup, seed=5, seating="fixed", variant=get_game(name).presets[0]))
    assert played.over and played.returns() == list(kernel.play(2, 1).seat[:, STAT_SCORE])
    with pytest.raises(ValueError, match="unknown game 'no_such_game'"):
        load("no_such_game")
