"""A learned linear or quadratic evaluation, shared by the games' learned players (each game's
``StudyPolicy.learned``): its shipped weights, and how they are fitted.

A learned player rates each candidate of a decision with ``weights[players, stage] . features``
and takes the best. The features are the game's own (what the seat can see) and so is the
stage (the moment of the game a model serves: ``stage(state)`` of the learned module, one
model per player count and stage). The weights are fitted here by least squares on the
choices of the game's teacher's games labelled by its searcher's rollouts, so that they rank
a position's choices as the rollouts do (:func:`fit_choices`). A ``QUADRATIC`` model weighs
the features and the product of every pair of them instead (:func:`pairwise_products`,
:func:`fit_choices_quadratic`, :func:`quadratic_value_nb`): a feature can then count more or
less as another is high or low.

Training is one command from a fixed seed (``scripts/train_strong.py``, study.strong_training):
the games (seed, game index) and the rollouts are fixed by it, and the fit is exact. It writes
the game's ``data/strong/weights.json``, read when the first kernel that plays the
learned player compiles (a constant of the kernel, like search's ``tuned``).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit

from .arrays import compile_time_constant
from .output import read_limited

MAX_WEIGHTS_BYTES = 16 << 20  # a weights file is a few kB
RIDGE = 1e-3  # a little shrinkage: features that never vary at a stage get weight 0, not noise


def read_weights(path: Path, shape: tuple[int, ...]) -> np.ndarray:
    """``weights[players, stage, feature]`` from a weights file (zeros where it has no model)."""
    table = np.zeros(shape)
    rows = json.loads(read_limited(path, MAX_WEIGHTS_BYTES, "the weights file").decode("utf-8"))["models"]
    for row in rows:
        table[row["players"], row["stage"], :] = row["weights"]
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


CHUNK_ROWS = 50_000  # rows whose model columns are built at once: a full quadratic training's would take gigabytes


def fit_choices_quadratic(features: np.ndarray, models: np.ndarray, values: np.ndarray, groups: np.ndarray,
                          n_models: int, chunk_rows: int = CHUNK_ROWS) -> np.ndarray:
    """:func:`fit_choices` on the pairwise products, each column scaled to unit spread for the
    fit (so that the shrinkage treats them alike), the weights scaled back. The products are
    built ``chunk_rows`` rows (whole decisions) at a time, twice: for their spread, then for
    the fit, so memory does not grow with the training."""
    count, mean, square_sum = 0, 0.0, 0.0  # the columns' spread, merged chunk by chunk (Chan et al.)
    for rows in decision_chunks(groups, chunk_rows):
        columns = pairwise_products(features[rows])
        n, chunk_mean = len(columns), columns.mean(axis=0)
        chunk_square_sum = ((columns - chunk_mean) ** 2).sum(axis=0)
        delta = chunk_mean - mean
        square_sum = square_sum + chunk_square_sum + delta ** 2 * count * n / (count + n)
        mean = mean + delta * n / (count + n)
        count += n
    spread = np.sqrt(square_sum / count)
    spread[spread == 0] = 1.0
    return fit_choices(features, models, values, groups, n_models, lambda x: pairwise_products(x) / spread,
                       chunk_rows) / spread


def decision_chunks(groups: np.ndarray, chunk_rows: int | None) -> list[slice]:
    """Consecutive slices of about ``chunk_rows`` rows (None: one slice) that never split a
    decision (``groups`` ascending)."""
    if chunk_rows is None or len(groups) <= chunk_rows:
        return [slice(0, len(groups))]
    starts = np.flatnonzero(np.r_[True, np.diff(groups) != 0])  # each decision's first row
    after = np.searchsorted(starts, np.arange(chunk_rows, len(groups), chunk_rows))  # the first decision past each
    bounds = np.unique(np.r_[0, starts[after[after < len(starts)]], len(groups)])
    return [slice(lo, hi) for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def fit_choices(features: np.ndarray, models: np.ndarray, values: np.ndarray, groups: np.ndarray,
                n_models: int, columns=None, chunk_rows: int | None = None) -> np.ndarray:
    """Weights that rank each decision's choices as their values do: least squares (RIDGE
    shrinkage) of each choice's value less its decision's mean on its columns (``columns(
    features)``, the features themselves by default) less their mean (``groups``: the
    decision of each row, ascending). Only differences between the choices of one position
    are fitted, which is all a look-ahead compares; the bias stays 0. The normal equations
    are summed ``chunk_rows`` rows at a time (:func:`decision_chunks`; None: all at once)."""
    xtx = xty = None
    counts = np.zeros(n_models)
    for rows in decision_chunks(groups, chunk_rows):
        x = features[rows] if columns is None else columns(features[rows])
        group = groups[rows] - groups[rows][0]
        sizes = np.bincount(group)
        present = sizes > 0
        x = x - (np.add.reduceat(x, np.flatnonzero(np.r_[True, np.diff(group) != 0])) / sizes[present][:, None]
                 ).repeat(sizes[present], axis=0)
        y = values[rows] - np.bincount(group, values[rows])[group] / sizes[group]
        if xtx is None:
            xtx, xty = np.zeros((n_models, x.shape[1], x.shape[1])), np.zeros((n_models, x.shape[1]))
        model = models[rows]
        for m in np.unique(model):
            chosen = model == m
            xtx[m] += x[chosen].T @ x[chosen]
            xty[m] += x[chosen].T @ y[chosen]
            counts[m] += chosen.sum()
    weights = np.zeros((n_models, xty.shape[1]))
    for m in np.flatnonzero(counts):
        weights[m] = np.linalg.solve(xtx[m] + RIDGE * counts[m] * np.eye(xtx.shape[1]), xty[m])
    return weights
