"""Training a game's ``strong`` player (core.evaluation): expert games played from a fixed
seed, every seat's position after each of its turns labelled by how its game ended, one
least-squares model per player count and day, written to the game's weights file.

``scripts/train_strong.py --game card --seed 0`` runs it; the same arguments give the same
file (each game is fixed by the seed and its index, R25 / C20, and the fit is deterministic).
"""
from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np

from ..cli.common import load_game_deck, parse_strategies
from ..core.driver import Kernel, RunConfig
from ..core.evaluation import fit, position_collector, write_weights
from ..core.registry import get_game

POSITIONS_PER_GAME = 200  # rows reserved per game: every turn of the longest games fits


def strong_module(game_name: str):
    """The game's strong strategy module (its features, player counts, weights file)."""
    return importlib.import_module(f"{get_game(game_name).registry.package}.strategies.strong")


def positions(game_name: str, players: int, variant: str, seed: int, games: int):
    """(features, day, label) rows of ``games`` expert games at ``players`` under ``variant``."""
    game = get_game(game_name)
    strong = strong_module(game_name)
    stepped = importlib.import_module(f"{game.registry.package}.stepped")
    config = RunConfig(deck=load_game_deck(game, None), game=game_name, players=players, games=games, seed=seed,
                       seating="rotate", threads=1, variant=variant,
                       strategies=parse_strategies(",".join(["expert"] * players), players, game_name))
    kernel = Kernel(config)
    collect = position_collector(stepped.new_game_nb, stepped.advance_nb, strong.position_features_nb,
                                 strong.final_scores_nb, strong.N_FEATURES, POSITIONS_PER_GAME * games)
    return collect(kernel.inputs.copy(), seed, 0, games, kernel.seating, kernel.slot_strategy, kernel.slot_params,
                   kernel.table)


def train(game_name: str, seed: int, games: int, player_counts=None) -> dict[tuple[int, int], np.ndarray]:
    """``{(players, day): weights}``: each player count's positions from ``games`` games split
    evenly over the game's rule sets (the features read the rules: one model serves them all)."""
    game = get_game(game_name)
    strong = strong_module(game_name)
    models = {}
    for players in player_counts or range(game.min_players, game.max_players + 1):
        parts = [positions(game_name, players, variant, seed + v, games // len(game.variants))
                 for v, variant in enumerate(game.variants)]
        x, day, label = (np.concatenate(column) for column in zip(*parts, strict=True))
        for d, weights in enumerate(fit(x, day, label, strong.DAYS)):
            models[players, d] = weights
    return models


def train_and_write(game_name: str, seed: int, games: int, out: Path | None = None, player_counts=None) -> Path:
    strong = strong_module(game_name)
    path = out or strong.WEIGHTS_FILE
    write_weights(path, game_name, strong.FEATURES, seed, games, train(game_name, seed, games, player_counts))
    return path
