"""The main run's checkpoint: its configuration (:func:`run_configuration`) and its totals
(``driver.Totals.to_dict``), checked as ``checkpoint.read`` reads them (:data:`RUN`).

Beyond the statistics' own proofs (``totals_check``): every seat row counts the run's
games, no more than the configuration's, and with fixed seating seat i is slot i.
"""
from __future__ import annotations

from .accounting import N_COMMON_RUN_STATS, RUN_GAMES, StatLayout
from .checkpoint import SavedFormat
from .driver import MAX_GAMES, ConfigError, RunConfig
from .identity import (
    components_identity,
    saved_components,
    saved_strategies,
    strategies_identity,
    valid_components,
    valid_game,
    valid_players,
    valid_rules,
    valid_strategies,
)
from .registry import Game, get_game
from .saved import MAX_INT, Invalid, check_keys, choice, int_matrix, int_vector, whole_number
from .seating import SEATING_MODES
from .totals_check import TotalsCheck, check_pair_diff_sq, check_pairs, check_same_sums

RUN_KEYS = ("game", "players", "games", "seed", "rules", "seating", "strategies", "components")
TOTALS_KEYS = ("seat", "slot", "pairs", "pair_diff_sq", "run")


def run_configuration(config: RunConfig) -> dict:
    """What a checkpoint of the main command records, and a resumed run must match."""
    return {"game": config.game, "players": config.players, "games": config.games, "seed": config.seed,
            "rules": config.rules, "seating": config.seating,
            "strategies": strategies_identity(config.strategies), "components": components_identity(config.components)}


def saved_run(configuration: dict, threads: int) -> RunConfig:
    """The run a checkpoint saved (its ``configuration``), played on ``threads``."""
    game = get_game(configuration["game"])
    return RunConfig(components=saved_components(configuration["components"], game), players=configuration["players"],
                     strategies=saved_strategies(configuration["strategies"], game.name),
                     games=configuration["games"], seed=configuration["seed"], rules=configuration["rules"],
                     seating=configuration["seating"], threads=threads, game=game.name)


def check_run(configuration, progress) -> None:
    check_keys(configuration, "configuration", RUN_KEYS)
    game = valid_game(configuration["game"], "configuration.game")
    players = valid_players(configuration["players"], "configuration.players", game)
    games = whole_number(configuration["games"], "configuration.games", 1, MAX_GAMES)
    seed = whole_number(configuration["seed"], "configuration.seed", 0, MAX_INT)
    rules = valid_rules(configuration["rules"], "configuration.rules", game, players)
    seating = choice(configuration["seating"], "configuration.seating", SEATING_MODES, "seatings")
    strategies = valid_strategies(configuration["strategies"], "configuration.strategies", game, players)
    components = valid_components(configuration["components"], "configuration.components", game)
    _run_config(components, players, strategies, games, seed, rules, seating, game)

    check_keys(progress, "progress", ("totals",))
    totals = progress["totals"]
    check_keys(totals, "totals", TOTALS_KEYS)
    width, run_width = StatLayout.of(game).width, N_COMMON_RUN_STATS + len(game.engine.run_columns)
    shape = f"the {players}-player {game.name} game"
    seat = int_matrix(totals["seat"], "totals.seat", players, width, shape)
    slot = int_matrix(totals["slot"], "totals.slot", players, width, shape)
    pairs = int_matrix(totals["pairs"], "totals.pairs", players, players, shape)
    diff_sq = int_matrix(totals["pair_diff_sq"], "totals.pair_diff_sq", players, players, shape)
    run = int_vector(totals["run"], "totals.run", run_width, shape)
    done = run[RUN_GAMES]
    if done > games:
        raise Invalid(f"totals.run[{RUN_GAMES}] is {done}, but the run has {games} games")
    check = TotalsCheck(game, players, rules)
    check.table(seat, "totals.seat", [done] * players, done)
    check.table(slot, "totals.slot", [done] * players, done)
    check_same_sums(seat, "totals.seat", slot, "totals.slot")
    if seating == "fixed":
        for i, (a, b) in enumerate(zip(seat, slot, strict=True)):
            if a != b:
                j = next(j for j in range(width) if a[j] != b[j])
                raise Invalid(f"totals.slot[{i}][{j}] is {b[j]}, but with fixed seating slot {i + 1} is seat {i + 1} "
                              f"(totals.seat[{i}][{j}] is {a[j]})")
    check_pairs(pairs, "totals.pairs", lambda a, b: done)
    check_pair_diff_sq(diff_sq, "totals.pair_diff_sq", slot, done)
    check.run(run, "totals.run", done, seat)


def _run_config(components, players, strategies, games, seed, rules, seating, game: Game) -> None:
    """The engine's own checks of a run (RunConfig), on what the checkpoint holds."""
    try:
        RunConfig(components=components, players=players, strategies=strategies, games=games, seed=seed,
                  rules=rules,
                  seating=seating, threads=1, game=game.name)
    except ConfigError as exc:
        raise Invalid(f"configuration: {exc}") from None


RUN = SavedFormat("run", check_run)
