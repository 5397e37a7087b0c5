"""What the games' ``strong`` players share (``games/<game>/strategies/strong.py``): a learned
linear evaluation of a seat's position, its shipped weights, and how they are trained.

A strong player looks one step ahead: it scores the position each legal choice leads to
(the afterstate) with ``weights[players, day] . features`` and takes the best. The features
are the game's own (what the seat can see: florins, ships, warehouses or tracks, the day);
the weights are fitted here by least squares on positions of expert games labelled by how
the game ended for that seat (core.rollout's outcome: win credit plus ``margin_weight``
times the florin margin), one model per player count and day.

Training is one command from a fixed seed (``scripts/train_strong.py``): play ``games``
expert games per player count (seed, game index: R25 / C20), record every seat's position at
the end of each of its turns (the stepped game's TURN_END: the state its last choice led
to), fit, write the game's ``data/strong/weights.json``. The file is read when the first
kernel that plays ``strong`` compiles (a constant of the kernel, like search's ``tuned``).
"""
from __future__ import annotations

import json
import os
import tempfile
from functools import cache
from pathlib import Path

import numpy as np
from numba import njit
from numba.extending import overload

from .rollout import outcome_nb
from .stepping import GAME_OVER, STEP_ACTOR, TURN_END

LABEL_MARGIN_WEIGHT = 0.03  # as search's default margin_weight: win credit first, the margin tells apart
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
    def table():
        raise NotImplementedError("a jitted function: call it from jitted code")

    @overload(table)
    def _compile():
        constant = _read()
        return lambda: constant

    @cache
    def _read() -> np.ndarray:
        return read_weights(path, shape)

    table.read = _read
    return table


@njit(cache=True)
def linear_value_nb(weights, features):
    value = 0.0
    for k in range(features.shape[0]):
        value += weights[k] * features[k]
    return value


def position_collector(new_game_nb, advance_nb, features_nb, scores_nb, n_features: int, max_rows: int):
    """A jitted ``collect(buffer, seed, first, games, seating, slot_strategy, slot_params, table)
    -> (features, models, labels)``: games ``first..first+games`` stepped to the end, each
    seat's position recorded after each of its turns (``features_nb(state, seat, out) ->
    model``: the features and which day's model), labelled by the game's outcome for it
    (``scores_nb(state)``: each seat's final florins)."""
    @njit
    def collect(buffer, seed, first, games, seating, slot_strategy, slot_params, table):
        x = np.zeros((max_rows, n_features))
        model = np.zeros(max_rows, np.int64)
        label = np.zeros(max_rows)
        seat_of = np.zeros(max_rows, np.int64)
        rows = 0
        for game in range(first, first + games):
            new_game_nb(buffer, seed, game, seating, slot_strategy, slot_params, table)
            start = rows
            while True:
                event = advance_nb(buffer, table)
                if event == GAME_OVER:
                    break
                if event == TURN_END and rows < max_rows:
                    state = buffer[0]
                    seat = state.step[STEP_ACTOR]
                    model[rows] = features_nb(state, seat, x[rows])
                    seat_of[rows] = seat
                    rows += 1
            state = buffer[0]
            scores = scores_nb(state)
            players = scores.shape[0]
            for r in range(start, rows):
                label[r] = outcome_nb(scores, players, seat_of[r], LABEL_MARGIN_WEIGHT)
        return x[:rows], model[:rows], label[:rows]
    return collect


def fit(features: np.ndarray, models: np.ndarray, labels: np.ndarray, n_models: int) -> np.ndarray:
    """Least squares (with RIDGE shrinkage, the bias unshrunk) of the labels on the features,
    one weight vector per model (``[model, feature]``; zeros for a model without positions)."""
    weights = np.zeros((n_models, features.shape[1]))
    for m in range(n_models):
        x, y = features[models == m], labels[models == m]
        if len(y) == 0:
            continue
        penalty = RIDGE * len(y) * np.eye(x.shape[1])
        penalty[0, 0] = 0.0  # feature 0 is the bias
        weights[m] = np.linalg.solve(x.T @ x + penalty, x.T @ y)
    return weights


def write_weights(path: Path, game: str, feature_names: tuple[str, ...], seed: int, games: int,
                  models: dict[tuple[int, int], np.ndarray]) -> None:
    """Write the weights file (whole or not at all: a temporary file renamed over it)."""
    document = {
        "game": game, "seed": seed, "games_per_player_count": games, "features": list(feature_names),
        "models": [{"players": p, "day": d, "weights": [round(float(w), 6) for w in weights]}
                   for (p, d), weights in sorted(models.items())],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(handle, "w") as out:
        json.dump(document, out, indent=1)
        out.write("\n")
    os.replace(temporary, path)
