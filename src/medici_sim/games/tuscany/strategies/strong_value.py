"""The shortlist's truncated rollouts (strong.py's ``horizon``; issue 33): with ``horizon`` 1 a rollout that begins
in phase 1 or 2 is played only to the end of its phase (T15, just after the phase's scoring, T34) and judged there
by a learned value; one that begins in phase 3 plays to the game's end (T35) and is exact. ``horizon`` 2 or more
also ends a rollout after that many rounds' ends, in any phase (measured: far worse, docs/strategies.md).

The value: each seat's final red score predicted by a linear model of that seat's position at a round's end
(``VALUE_FEATURES``; one model per player count, phase in play and the fewest tiles left in any seat's stack of
the phase, cell_nb: right after phase 1's scoring a position is phase 2's with full stacks), then the seat's
predicted margin over the best rival's prediction, ``m``, made an outcome of search's kind: a win's chance
``1 / (1 + exp(-m / scale))`` (``scale`` fitted to the games' wins) plus MARGIN_WEIGHT times ``m``. The models
are fitted by least squares to expert games' positions at every round's end, labelled by the seats' final scores
(``python scripts/train_strong_value.py``, seconds: :func:`value_rows`, :func:`fit_value`; data/strong/value.json).
What a linear value of the seat's holdings says is correlation, not what a holding is worth to play on: a few
rounds' horizon rewards what it over-rates; the phase's end, after several rounds of expert's play, leaves it
less to judge.
"""
import json
from pathlib import Path

import numpy as np
from numba import njit

from ....core.arrays import compile_time_constant
from ....core.seating import SEATING_ROTATE
from ..engine import turn_nb
from ..game import play_round_nb, rank_key_nb, setup_nb, start_game_nb
from ..geometry import ESTATE_FIELDS
from ..rules import N_COLOURS, PHASES
from ..state import MAX_PLAYERS, PHASE, R_PLAYERS, R_STACK_SIZE, bit_count

VALUE_FEATURES = ("bias", "red", "green", "hand", "hand_colours", "storage", "workers", "marble", "empty",
                  "regions_one_left", "regions_two_left", "colour_open", "bonus_tiles", "seat", "green_empty")
N_VALUE = len(VALUE_FEATURES)
SCALE = N_VALUE  # the column after the weights: the win chance's scale (points of predicted margin)
MAX_LEFT = 10  # the models per phase: by the fewest tiles left in any seat's stack of the phase, 1 .. MAX_LEFT
VALUE_FILE = Path(__file__).parents[1] / "data" / "strong" / "value.json"


def read_value(path=VALUE_FILE) -> np.ndarray:
    """The value's weights and scales, (MAX_PLAYERS + 1, PHASES, MAX_LEFT + 1, N_VALUE + 1); zeros where not
    fitted."""
    table = np.zeros((MAX_PLAYERS + 1, PHASES, MAX_LEFT + 1, N_VALUE + 1))
    if Path(path).exists():
        data = json.loads(Path(path).read_text())
        assert tuple(data["features"]) == VALUE_FEATURES, "value.json's features are not VALUE_FEATURES"
        for players, rows in data["weights"].items():
            table[int(players)] = np.array(rows)
    return table


@njit(cache=True)
def cell_nb(state):
    """The model of a position at a round's end: (its phase - 1, the fewest tiles left in any seat's stack of
    the phase, at most MAX_LEFT)."""
    size, stack = state.rules[R_STACK_SIZE], min(max(state.counts[PHASE], 1), PHASES) - 1
    fewest = size
    for p in range(state.rules[R_PLAYERS]):
        fewest = min(fewest, size - state.stack_top[p, stack])
    return stack, min(fewest, MAX_LEFT)


value_table_nb = compile_time_constant(read_value)


@njit(cache=True)
def value_features_nb(state, seat, out):
    """VALUE_FEATURES of ``seat``'s position (everything the copy holds: a rollout's copy is dealt again)."""
    out[:] = 0.0
    out[0] = 1.0
    out[1] = state.red[seat] / 10.0
    out[2] = state.green[seat] / 10.0
    out[3] = state.hand_total[seat]
    colours = 0
    for c in range(N_COLOURS):
        colours += state.hand[seat, c] > 0
    out[4] = colours
    out[5] = state.storage_len[seat]
    out[6] = state.workers[seat]
    out[7] = state.marble[seat]
    empty = ESTATE_FIELDS - bit_count(state.covered[seat])
    out[8] = empty
    for r in range(ESTATE_FIELDS):
        if state.region_size[seat, r] > 0:
            left = state.region_left[seat, r]
            out[9] += left == 1
            out[10] += left == 2
    for c in range(N_COLOURS):
        claims = state.colour_claims[c]
        if claims < 2 and state.colour_left[seat, c] > 0:
            out[11] += state.colour_bonus[c, claims] / state.colour_left[seat, c]
    for k in range(state.bonus.shape[1]):
        out[12] += state.bonus[seat, k]
    out[13] = seat
    out[14] = out[2] * empty / ESTATE_FIELDS


@njit(cache=True)
def predicted_nb(state, weights, out):
    """Each seat's predicted final red score (``out[p]``) by ``weights`` (one player count's and phase's)."""
    row = np.empty(N_VALUE)
    for p in range(state.rules[R_PLAYERS]):
        value_features_nb(state, p, row)
        v = 0.0
        for k in range(N_VALUE):
            v += weights[k] * row[k]
        out[p] = v


@njit(cache=True)
def judged_nb(state, seat, weights, margin_weight):
    """The outcome of ``seat``'s position after a phase's scoring: the predicted margin's win chance plus
    ``margin_weight`` times the margin (the module's doc)."""
    predicted = np.empty(MAX_PLAYERS)
    predicted_nb(state, weights, predicted)
    best = -np.inf
    for p in range(state.rules[R_PLAYERS]):
        if p != seat:
            best = max(best, predicted[p])
    margin = predicted[seat] - best
    scale = max(weights[SCALE], 1e-6)
    return 1.0 / (1.0 + np.exp(-margin / scale)) + margin_weight * margin


@njit(cache=True)
def play_to_horizon_nb(sim, table, seat, second, rounds):
    """The rest of the turn (its second action only, ``second``), then the rounds from the next seat until the
    phase in play is scored (T15, T34), ``rounds`` rounds have ended (0: no limit) or the game ends (T35, T37);
    True when it ended."""
    phase = sim.counts[PHASE]
    turn_nb(sim, table, seat, 1 if second else 0)
    first, ended = seat + 1, 0
    while not play_round_nb(sim, table, first):
        first = 0
        ended += 1
        if sim.counts[PHASE] != phase or ended == rounds:
            return False
    return True


@njit(cache=True)
def value_rows_nb(state, table, seed, first, games, slots, slot_params, x, y, win, cell):
    """Training rows from games ``first`` .. ``first + games - 1`` (the strategies ``slots``, seats rotated):
    each seat's VALUE_FEATURES at every round's end but the last (``x``; its model, cell_nb's, in ``cell``), its
    final red score (``y``) and its win credit (``win``); how many rows."""
    row = 0
    keys = np.empty(MAX_PLAYERS, np.int64)
    for g in range(first, first + games):
        start_game_nb(state, seed, g, SEATING_ROTATE, slots, slot_params)
        setup_nb(state, table)
        players = state.rules[R_PLAYERS]
        start = row
        while not play_round_nb(state, table, 0):
            phase, left = cell_nb(state)
            if row + players > y.shape[0]:
                continue  # the buffer is full: the rest of the game plays on unrecorded
            for s in range(players):
                value_features_nb(state, s, x[row])
                cell[row, 0], cell[row, 1] = phase, left
                row += 1
        best = -(1 << 62)
        for p in range(players):
            keys[p] = rank_key_nb(state, p)
            best = max(best, keys[p])
        ties = 0
        for p in range(players):
            ties += keys[p] == best
        for r in range(start, row):
            p = r - start - (r - start) // players * players
            y[r] = state.red[p]
            win[r] = (keys[p] == best) / ties
    return row


def value_rows(players: int, games: int, seed: int, lineup=None):
    """(x, y, win, cell) of ``games`` games of ``lineup`` (default: expert at every seat) at ``players``."""
    from ....core.dispatch import strategy_table  # noqa: PLC0415
    from ....core.registry import MAX_PARAMS  # noqa: PLC0415
    from ..components import components  # noqa: PLC0415
    from ..rules import RULE_BOOK  # noqa: PLC0415
    from ..tables import new_state  # noqa: PLC0415
    from .base import BUILT_INS, REGISTRY  # noqa: PLC0415

    lineup = lineup or ["expert"] * players
    state = new_state(components(None), RULE_BOOK.resolve(None, players))
    table, names = strategy_table(REGISTRY, set(BUILT_INS) | set(lineup))
    slot_params = np.zeros((players, MAX_PARAMS))
    for slot, name in enumerate(lineup):
        declared = REGISTRY[name].params
        slot_params[slot, :len(declared)] = [p.default for p in declared.values()]
    slots = np.array([names.index(s) for s in lineup], np.int64)
    n = games * players * 60
    x, y, win, cell = np.zeros((n, N_VALUE)), np.zeros(n), np.zeros(n), np.zeros((n, 2), np.int64)
    rows = value_rows_nb(state[0], table, seed, 0, games, slots, slot_params, x, y, win, cell)
    return x[:rows], y[:rows], win[:rows], cell[:rows]


def fit_value(x, y, win, cell, players: int) -> np.ndarray:
    """(PHASES, MAX_LEFT + 1, N_VALUE + 1): each model's least-squares weights of the final score, then the win
    chance's scale (the best log-likelihood of the wins over a grid, given the predicted margins); a model with
    fewer than 20 rows a weight is the phase's nearest fitted one."""
    out = np.zeros((PHASES, MAX_LEFT + 1, N_VALUE + 1))
    for phase in range(PHASES):
        for left in range(MAX_LEFT + 1):
            rows = (cell[:, 0] == phase) & (cell[:, 1] == left)
            if rows.sum() < 20 * N_VALUE:
                continue
            xs, ys, ws = x[rows], y[rows], win[rows]
            w, *_ = np.linalg.lstsq(xs, ys, rcond=None)
            out[phase, left, :N_VALUE] = w
            predicted = (xs @ w).reshape(-1, players)
            margin = np.empty_like(predicted)
            for p in range(players):
                margin[:, p] = predicted[:, p] - np.delete(predicted, p, axis=1).max(axis=1)
            margin, won = margin.ravel(), ws.ravel()
            best, best_scale = -np.inf, 1.0
            for scale in np.linspace(0.5, 20.0, 79):
                chance = np.clip(1.0 / (1.0 + np.exp(-margin / scale)), 1e-9, 1 - 1e-9)
                likelihood = float((won * np.log(chance) + (1 - won) * np.log(1 - chance)).sum())
                if likelihood > best:
                    best, best_scale = likelihood, scale
            out[phase, left, SCALE] = best_scale
        fitted = [left for left in range(MAX_LEFT + 1) if out[phase, left, SCALE] > 0]
        for left in range(MAX_LEFT + 1):  # a model not fitted: the nearest fitted one of the phase (more left)
            if out[phase, left, SCALE] == 0 and fitted:
                out[phase, left] = out[phase, min(fitted, key=lambda f: (abs(f - left), -f))]
    return out
