"""Training a game's learned player (``StudyPolicy.learned``: the module that declares it): its teacher's games stepped
from a fixed seed, every legal choice of every decision the learned player labels (card: the takes, R10) scored
by its searcher's rollouts, one least-squares model per player count and stage of the game (the learned
module's ``STAGES``, its ``stage(state)``), written to the game's weights file.

``scripts/train_strong.py --game card --seed 0`` runs it; the same arguments give the same
file (each game is fixed by the seed and its index, R25 / C20, and the fit is deterministic).
"""
from __future__ import annotations

import json
import signal
from importlib import import_module
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from ..core.arguments import ConfigError, integer
from ..core.dispatch import ready_rollouts
from ..core.driver import PreparedRun, RunConfig, check_players
from ..core.output import atomic_write, check_writable
from ..core.registry import MAX_PARAMS, get_game
from ..core.resumable import DECISION, EXTERNAL, GAME_OVER, STEP_ACTOR
from ..core.specs import load_game_components, parse_strategies


def learned_module(game_name: str):
    """The game's learned player's training declaration (``StudyPolicy.learned``: its features,
    labelling, weights file), or ConfigError where the game declares none."""
    study = get_game(game_name).study
    if study is None or study.learned is None or not study.teacher or not study.searcher:
        raise ConfigError(f"the {game_name} game declares no learned player to train (StudyPolicy.learned, "
                          "with its teacher and searcher)")
    return study.learned()


def labelled_choices(game_name: str, players: int, rules: str, seed: int, games: int, rollouts: int,
                     weights: np.ndarray | None = None):
    """(features, stage, value, decision) rows: the teacher's games (StudyPolicy.teacher) stepped
    from ``seed``, and at each decision with a choice, the rows the learned module's ``label_decision_nb`` makes
    of it (each legal choice's position and its mean outcome over ``rollouts`` of the searcher's rollouts).
    With ``weights`` (a model per stage), one seat of each game (game ``i``'s seat ``i % players``) is the
    learned player's with that model instead (its module's ``learner_choice``), as it is measured: one
    learned seat among teachers (where every seat learned, a weak model's games could stall: none moved them on)."""
    game = get_game(game_name)
    learned = learned_module(game_name)
    stepped = game.engine.stepping
    config = RunConfig(components=load_game_components(game, None), game=game_name, players=players, games=games,
                       seed=seed,
                       seating="rotate", threads=1, rules=rules,
                       strategies=parse_strategies(",".join([game.study.teacher] * players), players, game_name))
    kernel = PreparedRun(config)
    teacher = [game.registry[game.study.teacher].decisions[name] for name in game.registry.decisions]
    searcher = game.registry[game.study.searcher]
    searcher_params = np.zeros(MAX_PARAMS)
    searcher_params[:len(searcher.params)] = [p.default for p in searcher.params.values()]
    searcher_params[0] = rollouts
    searcher_params = tuple(searcher_params)
    ready_rollouts(game.registry)  # the rollouts are called here directly, not through the run's table
    external = np.full(players, EXTERNAL, np.int64)  # every decision comes here: labelled, then the teacher's answer
    buffer, scratch = kernel.inputs.copy(), kernel.inputs.copy()
    width = learned.MAX_CHOICES
    features, values = np.zeros((width, learned.N_FEATURES)), np.zeros(width)
    rows_x, rows_stage, rows_value, rows_group = [], [], [], []
    for index in range(games):
        stepped.new_game_nb(buffer, seed, index, kernel.seating, external, kernel.slot_params, kernel.table)
        event = stepped.advance_nb(buffer, kernel.table)
        while event != GAME_OVER:
            if event < DECISION:
                event = stepped.advance_nb(buffer, kernel.table)
                continue
            state = buffer[0]
            seat = int(state["step"][STEP_ACTOR])
            n = learned.label_decision_nb(event - DECISION, scratch, state, seat, searcher_params, features, values)
            if n:
                rows_x.append(features[:n].copy())
                rows_value.append(values[:n].copy())
                rows_stage.append(np.full(n, learned.stage(state)))
                rows_group.append(np.full(n, len(rows_group)))
            if weights is None or seat != index % players:
                params = tuple(kernel.slot_params[int(state["seat_slot"][seat])])
                choice = int(teacher[event - DECISION](state, seat, params))
            else:
                choice = int(learned.learner_choice(event - DECISION, state, seat, weights))
            event = stepped.apply_choice_nb(buffer, kernel.table, choice)
    return (np.concatenate(rows_x), np.concatenate(rows_stage), np.concatenate(rows_value),
            np.concatenate(rows_group))


def train(game_name: str, seed: int, games: int, rollouts: int, player_counts=None,
          jobs: int = 1) -> dict[tuple[int, int], list]:
    """``{(players, stage): weights}``: for each player count (:func:`train_players`; ``jobs`` processes
    train player counts side by side, the same weights as one)."""
    game = get_game(game_name)
    counts = sorted(player_counts or range(game.min_players, game.max_players + 1), reverse=True)  # longest first
    arguments = [(game_name, seed, games, rollouts, players) for players in counts]
    if jobs > 1 and len(counts) > 1:  # fresh processes; leaving the block (done, or Ctrl-C here) ends them
        with get_context("spawn").Pool(min(jobs, len(counts)), _start_worker, (game.registry.package,)) as pool:
            parts = pool.starmap(train_players, arguments, chunksize=1)
    else:
        parts = [train_players(*row) for row in arguments]
    return {(players, d): list(weights) for players, part in zip(counts, parts, strict=True)
            for d, weights in enumerate(part)}


def _start_worker(package: str) -> None:
    """A training process: its game registered (``package`` imported); Ctrl-C is the parent's to answer."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import_module(package)


def train_players(game_name: str, seed: int, games: int, rollouts: int, players: int) -> np.ndarray:
    """One player count's model per stage: ``games`` games split evenly over the game's rule sets (seeds
    ``seed + k``; the features read the rules: one model serves them all), fitted to rank each decision's
    choices as the rollouts do (the learned module's ``FIT``: the Medici games' fit their choices' features
    and pairwise products, core/evaluation.py). Then ``SELF_PLAY_ROUNDS`` times as many games again, a
    round at a time, played by the learned player with the model fitted to every row so far (seeds
    ``seed + k`` on from the last round's), their rows added: the model learns the positions its own play
    reaches."""
    game = get_game(game_name)
    learned = learned_module(game_name)
    rows, weights = [], None
    for round_ in range(learned.SELF_PLAY_ROUNDS + 1):
        first = seed + round_ * len(game.presets)
        rows += [labelled_choices(game_name, players, rules, first + k, games // len(game.presets), rollouts, weights)
                 for k, rules in enumerate(game.presets)]
        weights = fit_rows(learned, rows)
    return weights


def fit_rows(learned, parts: list[tuple]) -> np.ndarray:
    """The learned module's ``FIT`` of ``labelled_choices``' parts together: a model per stage."""
    x, stage, value = (np.concatenate(column) for column in list(zip(*parts, strict=True))[:3])
    offsets = np.cumsum([0] + [part[3][-1] + 1 for part in parts[:-1]])  # each part numbers its decisions from 0
    group = np.concatenate([part[3] + offset for part, offset in zip(parts, offsets, strict=True)])
    return learned.FIT(x, stage, value, group, learned.STAGES)


def write_weights(path: Path, game: str, feature_names: tuple[str, ...], seed: int, games: int, rollouts: int,
                  models: dict[tuple[int, int], list], option: str = "--out") -> None:
    """Write the weights file (the learned module's player reads it) whole or not at all
    (``option``: what named the file, for a failed write's message)."""
    document = {
        "game": game, "seed": seed, "games_per_player_count": games, "rollouts": rollouts,
        "features": list(feature_names),
        "models": [{"players": p, "stage": d, "weights": [round(float(w), 6) for w in weights]}
                   for (p, d), weights in sorted(models.items())],
    }
    atomic_write(path, lambda temporary: Path(temporary).write_text(json.dumps(document, indent=1) + "\n"), option)


def check_training(game_name: str, seed: int, games: int, rollouts: int, out: Path | None,
                   player_counts=None, jobs: int = 1) -> None:
    """Refuse (ConfigError, OutputError: one line) what would fail or write a wrong file only
    after minutes of training: games too few for one of each rule set, rollouts outside
    the searcher's range, a player count the game has not, a bad seed, an ``out`` not writable, some
    player counts written over the shipped file (it would lose the others' models)."""
    game = get_game(game_name)
    integer(games, "games", len(game.presets), 10**6)
    integer(jobs, "jobs", 1, 1024)
    learned = learned_module(game_name)  # a game without a learned player says so first
    rollouts_param = game.registry[game.study.searcher].params["rollouts"]
    integer(rollouts, "rollouts", int(rollouts_param.low), int(rollouts_param.high))
    seeds = len(game.presets) * (learned.SELF_PLAY_ROUNDS + 1)  # seed, seed + 1, ...
    integer(seed, "seed", 0, 2**63 - seeds, "2**63 less the rule sets times the rounds")
    for players in player_counts or ():
        check_players(game, players)
    shipped = learned.WEIGHTS_FILE
    some = player_counts and set(player_counts) != set(range(game.min_players, game.max_players + 1))
    if some and (out is None or Path(out).resolve() == shipped.resolve()):
        raise ConfigError(f"--players {', '.join(map(str, player_counts))} trains only some player counts: give "
                          f"--out (the shipped weights file holds a model for every one)")
    check_writable("--out", out or shipped)


def train_and_write(game_name: str, seed: int, games: int, rollouts: int, out: Path | None = None,
                    player_counts=None, jobs: int = 1) -> Path:
    """Train (:func:`train`) and write the weights to ``out`` (default: the game's shipped file),
    every argument checked first (:func:`check_training`)."""
    check_training(game_name, seed, games, rollouts, out, player_counts, jobs)
    learned = learned_module(game_name)
    path = out or learned.WEIGHTS_FILE
    write_weights(path, game_name, learned.COLUMNS, seed, games, rollouts,
                  train(game_name, seed, games, rollouts, player_counts, jobs))
    return path
