"""What the games' ``strong`` players share (``games/<game>/strategies/strong.py``): a learned
linear or quadratic evaluation of a seat's position, its shipped weights, and how they are
trained.

A strong player looks one step ahead: it scores the position each legal choice leads to
(the afterstate) with ``weights[players, day] . features`` and takes the best. The features
are the game's own (what the seat can see: florins, ships, warehouses or tracks, the day);
the weights are fitted here by least squares, one model per player count and day, on the
choices of expert games labelled by search's rollouts (each legal choice played out with
expert everywhere: win credit plus 0.03 x the florin margin, core.rollout), so that they
rank a position's choices as the rollouts do (:func:`fit_choices`). A game whose strong is
``QUADRATIC`` weighs the features and the product of every pair of them instead
(:func:`pairwise_products`, :func:`fit_choices_quadratic`, :func:`quadratic_value_nb`): a
feature can then count more or less as another is high or low.

Training is one command from a fixed seed (``scripts/train_strong.py``, study.strong_training):
the games (seed, game index: R25 / C20) and the rollouts (hashed from the game's state,
core.rollout) are fixed by it, and the fit is exact. It writes the game's
``data/strong/weights.json``, read when the first kernel that plays ``strong`` compiles (a
constant of the kernel, like search's ``tuned``).
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np
from numba import njit

from .arrays import compile_time_constant

RIDGE = 1e-3  # a little shrinkage: features that never vary (day 0's florins) get weight 0, not noise


def read_weights(path: Path, shape: tuple[int, ...]) -> np.ndarray:
    """``weights[players, day, feature]`` from a weights file (zeros where it has no model)."""
    table = np.zeros(shape)
    rows = json.loads(path.read_text())["models"]
    for row in rows:
        table[row["players"], row["day"], :] = row["weights"]
    return table


def weights_nb(path: Path, shape: tuple[int, ...]):
    """A jitted ``() -> weights`` of :func:`read_weights`: the file is read when the first
    kernel that plays the strategy compiles, never when it is imported. Python reads it with
    ``read()``."""
    return compile_time_constant(lambda: read_weights(path, shape))


@njit(cache=True)
def linear_value_nb(weights, features):
    value = 0.0
    for k in range(features.shape[0]):
        value += weights[k] * features[k]
    return value


def pairwise_products(features: np.ndarray) -> np.ndarray:
    """A quadratic model's columns: the features (column 0 the bias), then the product of
    every pair of the others, squares included, in :func:`product_names`' order."""
    first, second = np.triu_indices(features.shape[1] - 1)
    return np.hstack([features, features[:, 1:][:, first] * features[:, 1:][:, second]])


def product_names(names: tuple[str, ...]) -> tuple[str, ...]:
    first, second = np.triu_indices(len(names) - 1)
    return names + tuple(f"{names[1 + i]}*{names[1 + j]}" for i, j in zip(first, second, strict=True))


@njit(cache=True)
def quadratic_value_nb(weights, features):
    """``weights . pairwise_products(features)`` without building the products."""
    n = features.shape[0]
    value = linear_value_nb(weights, features)
    k = n
    for i in range(1, n):
        for j in range(i, n):
            value += weights[k] * features[i] * features[j]
            k += 1
    return value


def fit_choices_quadratic(features: np.ndarray, models: np.ndarray, values: np.ndarray, groups: np.ndarray,
                          n_models: int) -> np.ndarray:
    """:func:`fit_choices` on the pairwise products, each column scaled to unit spread for the
    fit (so that the shrinkage treats them alike), the weights scaled back."""
    columns = pairwise_products(features)
    spread = columns.std(axis=0)
    spread[spread == 0] = 1.0
    return fit_choices(columns / spread, models, values, groups, n_models) / spread


def fit_choices(features: np.ndarray, models: np.ndarray, values: np.ndarray, groups: np.ndarray,
                n_models: int) -> np.ndarray:
    """Weights that rank each decision's choices as their values do: least squares (RIDGE
    shrinkage) of each choice's value less its decision's mean on its features less their
    mean (``groups``: the decision of each row). Only differences between the choices of one
    position are fitted, which is all a look-ahead compares; the bias stays 0."""
    counts = np.bincount(groups)
    centred_x = features - (np.add.reduceat(features, np.flatnonzero(np.r_[True, np.diff(groups) != 0]))
                            / counts[counts > 0][:, None]).repeat(counts[counts > 0], axis=0)
    centred_y = values - np.bincount(groups, values)[groups] / counts[groups]
    weights = np.zeros((n_models, features.shape[1]))
    for m in range(n_models):
        x, y = centred_x[models == m], centred_y[models == m]
        if len(y) == 0:
            continue
        weights[m] = np.linalg.solve(x.T @ x + RIDGE * len(y) * np.eye(x.shape[1]), x.T @ y)
    return weights


def write_weights(path: Path, game: str, feature_names: tuple[str, ...], seed: int, games: int, rollouts: int,
                  models: dict[tuple[int, int], np.ndarray]) -> None:
    """Write the weights file (whole or not at all: a temporary file renamed over it)."""
    document = {
        "game": game, "seed": seed, "games_per_player_count": games, "rollouts": rollouts,
        "features": list(feature_names),
        "models": [{"players": p, "day": d, "weights": [round(float(w), 6) for w in weights]}
                   for (p, d), weights in sorted(models.items())],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(handle, "w") as out:
        json.dump(document, out, indent=1)
        out.write("\n")
    os.replace(temporary, path)
