"""``strong``: bids and draws by a learned evaluation of each candidate (core.evaluation).

Each decision's candidates are scored ``weights[players, day] . features`` (weights fitted to
search's rollouts of expert games, ``scripts/train_strong.py --game classic --seed 0``,
shipped in ``data/strong/weights.json``); the best is taken (the first listed on a tie).

- C9 bids: pass, expert's own bid, the lowest bid and ``bid_levels`` - 1 more amounts up to
  all its money on a square law (as search tries them), the lot's worth and one florin above
  what the seats still to speak are expected to pay. A bid's features rest on expert's
  estimates (module expert, its default parameters, kept in this seat's own scratch row):
  the lot's worth W to the seat in florins, and R, what the seats after it are expected to
  pay (their florins per lot point, learnt from their bids). The chance p that bid b takes
  the lot is 1 for the auctioneer, who speaks last, else a ramp from 0 to 1 around R; the
  features are then p, p W, p b, p b (days after this one: a florin pays later lots), p x
  the lot's cards, (1 - p) b (a price pushed onto the winner), p max(W - b, 0) and p x its
  florin margin over the best rival. A pass has none (its value is the baseline).
- C8 draws: another card or not, the draw's features against none: its surplus on the lot
  (W less what all the others are expected to pay), W, the lot's cards, its free holds
  after the bigger lot, the most free holds of a rival and the deck's size.

Only differences between one decision's candidates are fitted (core.evaluation.fit_choices),
so the bid and draw features sit in columns of their own and are fitted apart in one model.
The model is chosen by the days still to come (C18; the last day is the last model), so
rules with fewer or more days (``--rules days=N``) play the nearest day's model; the
features read the rule set (holds, lot size, payouts, money), and every player count 3-6
has its own model.
"""
import math
from pathlib import Path

import numpy as np
from numba import njit

from ....core.arrays import copy_record_nb
from ....core.evaluation import linear_value_nb, weights_nb
from ....core.registry import MAX_PARAMS, Param, Strategy
from ..engine import BID_DECISION, DRAW_DECISION, answer_nb
from ..rules import DAYS, MAX_PLAYERS, N_GOODS, RULE_DAYS, RULE_HOLDS, RULE_PLAYERS
from ..state import (
    AUCTIONEER,
    DAY,
    DECK_LEN,
    HIGH_BIDDER,
    HIGHEST,
    LOT_LEN,
    LOT_VALUE,
    STATE_DTYPE,
    lowest_bid_nb,
    may_bid_nb,
)
from .common import lot_count_nb, track_gain_nb
from .expert import STRATEGY as EXPERT
from .expert import bid_nb as expert_bid_nb
from .expert import draw_nb as expert_draw_nb
from .expert import lot_worth_nb, prepare_nb
from .search import DRAWING, STATE_BYTES, rollout_values_nb

BID_LEVELS, DRAW_BIAS, KEEP = range(3)
MAX_LEVELS = 8
DEFAULT_LEVELS = 4  # bid_levels' default: training judges these candidates
FEATURES = ("bias",
            "bid", "wins", "wins_worth", "wins_price", "wins_price_later", "wins_cards", "wins_surplus",
            "wins_margin", "wins_value", "wins_tracks", "rival_wins", "rival_price", "rival_value",
            "draw", "draw_worth", "draw_cards", "draw_room", "draw_rival_room", "draw_deck",
            "offer_takes", "offer_surplus", "offer_rival_price")
N_FEATURES = len(FEATURES)
COLUMNS = FEATURES  # the weights file's, per player count and day
(BIAS, BID, WINS, WINS_WORTH, WINS_PRICE, WINS_PRICE_LATER, WINS_CARDS, WINS_SURPLUS, WINS_MARGIN, WINS_VALUE,
 WINS_TRACKS, RIVAL_WINS, RIVAL_PRICE, RIVAL_VALUE, DRAW, DRAW_WORTH, DRAW_CARDS, DRAW_ROOM, DRAW_RIVAL_ROOM,
 DRAW_DECK, OFFER_TAKES, OFFER_SURPLUS, OFFER_RIVAL_PRICE) = range(N_FEATURES)
MAX_CHOICES = MAX_LEVELS + 4  # pass, expert's bid, the levels, the worth, above the rivals (training rows)
WEIGHTS_FILE = Path(__file__).parents[1] / "data" / "strong" / "weights.json"
weights_table_nb = weights_nb(WEIGHTS_FILE, (MAX_PLAYERS + 1, DAYS, N_FEATURES))
_defaults = [p.default for p in EXPERT.params.values()]
EXPERT_PARAMS = tuple(float(v) for v in _defaults + [0.0] * (MAX_PARAMS - len(_defaults)))  # the rivals' model


@njit(cache=True, inline="always")
def model_nb(state):
    """The day's model: by the days after this one (C18), the last day's model on the last day."""
    later = state.rules[RULE_DAYS] - 1 - state.counts[DAY]
    return DAYS - 1 - min(later, DAYS - 1)


@njit(cache=True)
def auction_nb(sim, state, seat, answer):
    """C9 played out on ``sim`` (a copy of ``state``'s record): ``seat`` answers ``answer``
    (-1: the auctioneer offers the lot and answers last), then each seat still to speak
    up to the auctioneer answers as a fresh expert (default parameters, an empty scratch
    row: the rivals' model, as search's rollouts play them); returns (winner or -1, price)."""
    players = state.rules[RULE_PLAYERS]
    auctioneer = state.counts[AUCTIONEER]
    sim.counts[HIGHEST] = state.counts[HIGHEST]
    sim.counts[HIGH_BIDDER] = state.counts[HIGH_BIDDER]
    for p in range(players):
        sim.turn_bid[p] = state.turn_bid[p]
        if p != seat:
            sim.scratch[p, :] = 0.0
    if answer >= 0:
        answer_nb(sim, seat, answer)
    other = seat
    while other != auctioneer or answer < 0:  # the seats after it, the auctioneer last (C9)
        answer = 0
        other = other + 1 if other + 1 < players else 0
        if other == seat:
            break
        if may_bid_nb(sim, other):
            answer_nb(sim, other, expert_bid_nb(sim, other, EXPERT_PARAMS))
    return sim.counts[HIGH_BIDDER], sim.counts[HIGHEST]


@njit(cache=True)
def auction_features_nb(state, seat, amount, winner, price, worth, out):
    """The features of answering ``amount`` (0 pass) when the auction goes to ``winner`` at ``price``."""
    out[:] = 0.0
    players = state.rules[RULE_PLAYERS]
    best_rival = -1
    for p in range(players):
        if p != seat:
            best_rival = max(best_rival, state.money[p])
    if amount > 0:
        out[BID] = 1.0
    if winner == seat:
        out[WINS] = 1.0
        out[WINS_WORTH] = worth
        out[WINS_PRICE] = price
        out[WINS_PRICE_LATER] = price * (state.rules[RULE_DAYS] - 1 - state.counts[DAY])
        out[WINS_CARDS] = state.counts[LOT_LEN]
        out[WINS_SURPLUS] = max(worth - price, 0.0)
        out[WINS_MARGIN] = state.money[seat] - best_rival
        out[WINS_VALUE] = state.counts[LOT_VALUE]
        for good in range(N_GOODS):  # C15, C16: today's majorities and bonuses with the lot aboard
            extra = lot_count_nb(state, good)
            if extra:
                out[WINS_TRACKS] += track_gain_nb(state, seat, good, extra)
    elif winner >= 0:
        out[RIVAL_WINS] = 1.0
        out[RIVAL_PRICE] = price
        out[RIVAL_VALUE] = state.counts[LOT_VALUE]


@njit(cache=True)
def bid_candidates_nb(state, seat, levels, expert_bid, worth, above, actions):
    """The bids to judge (module doc; distinct, the pass last); returns how many."""
    lowest = lowest_bid_nb(state)
    money = state.money[seat]
    count = 0
    for k in range(-3, levels):
        if k == -3:
            amount = expert_bid
        elif k == -2:
            amount = np.int64(math.floor(worth))
        elif k == -1:
            amount = above
        else:
            amount = lowest + np.int64((money - lowest) * (k / levels) ** 2)
        if amount < lowest or amount > money:
            continue
        known = False
        for a in range(count):
            known |= actions[a] == amount
        if not known:
            actions[count] = amount
            count += 1
    actions[count] = 0
    return count + 1


@njit(cache=True)
def judge_bids_nb(state, seat, params, actions, features, weights):
    """C9: list the candidate bids (``actions``), write each one's features (``features[a]``)
    and return (how many, the best's index by ``weights``; no weights: 0)."""
    expert_bid = np.int64(expert_bid_nb(state, seat, EXPERT_PARAMS))  # observes the seats before it, as expert
    worth = lot_worth_nb(state, seat, EXPERT_PARAMS)
    buffer = np.empty(1, STATE_DTYPE)
    sim = buffer[0]
    copy_record_nb(sim, state, STATE_BYTES)
    winner, price = auction_nb(sim, state, seat, 0)
    above = price + 1 if winner >= 0 else lowest_bid_nb(state)  # one florin above the seats after it
    levels = min(max(np.int64(params[BID_LEVELS]), 1), MAX_LEVELS)
    count = bid_candidates_nb(state, seat, levels, expert_bid, worth, above, actions)
    best = 0
    best_value = -1e300
    for a in range(count):
        if actions[a] != 0:
            winner, price = auction_nb(sim, state, seat, actions[a])
        else:
            winner, price = auction_nb(sim, state, seat, 0)
        auction_features_nb(state, seat, actions[a], winner, price, worth, features[a])
        value = linear_value_nb(weights, features[a]) + (params[KEEP] if actions[a] == expert_bid else 0.0)
        if value > best_value:
            best_value = value
            best = a
    return count, best


@njit(cache=True)
def draw_features_nb(state, seat, out):
    """The features of the C8 answers: ``out[1]`` drawing another card, ``out[0]`` offering
    the lot now (what the others would bid, as auction_nb plays them, and taking it at one
    florin more when it is worth more to the seat)."""
    out[:] = 0.0
    prepare_nb(state, seat, EXPERT_PARAMS)
    worth = lot_worth_nb(state, seat, EXPERT_PARAMS)
    buffer = np.empty(1, STATE_DTYPE)
    sim = buffer[0]
    copy_record_nb(sim, state, STATE_BYTES)
    winner, price = auction_nb(sim, state, seat, -1)
    taken = max(price + 1, lowest_bid_nb(state))
    if worth > taken and taken <= state.money[seat]:
        out[0, OFFER_TAKES] = 1.0
        out[0, OFFER_SURPLUS] = worth - taken
    elif winner >= 0:
        out[0, OFFER_RIVAL_PRICE] = price
    players = state.rules[RULE_PLAYERS]
    holds = state.rules[RULE_HOLDS]
    cards = state.counts[LOT_LEN]
    rival_room = 0
    for p in range(players):
        if p != seat:
            rival_room = max(rival_room, holds - state.ship_len[p])
    out[1, DRAW] = 1.0
    out[1, DRAW_WORTH] = worth
    out[1, DRAW_CARDS] = cards
    out[1, DRAW_ROOM] = holds - state.ship_len[seat] - cards - 1
    out[1, DRAW_RIVAL_ROOM] = rival_room - cards - 1
    out[1, DRAW_DECK] = state.counts[DECK_LEN]


@njit  # not cached on its own: the weights are a constant of its code (the kernel's cache covers them)
def bid_nb(state, seat, params):
    """C9: the candidate bid whose features score highest."""
    weights = weights_table_nb()[state.rules[RULE_PLAYERS], model_nb(state)]
    actions = np.empty(MAX_CHOICES, np.int64)
    features = np.empty((MAX_CHOICES, N_FEATURES))
    return actions[judge_bids_nb(state, seat, params, actions, features, weights)[1]]


@njit  # as bid_nb
def draw_nb(state, seat, params):
    """C8: another card if drawing scores above offering the lot (plus ``draw_bias``)."""
    weights = weights_table_nb()[state.rules[RULE_PLAYERS], model_nb(state)]
    features = np.empty((2, N_FEATURES))
    draw_features_nb(state, seat, features)
    keep = params[KEEP] if expert_draw_nb(state, seat, EXPERT_PARAMS) else -params[KEEP]
    return linear_value_nb(weights, features[1]) + params[DRAW_BIAS] + keep > linear_value_nb(weights, features[0])


@njit
def label_decision_nb(decision, buffer, state, seat, search_params, features, values):
    """Training rows (study.strong_training) of a decision: each candidate's features and its
    mean outcome over search's rollouts (``search_params``; common random numbers). The
    features are read on a copy (``buffer``: expert's estimates write the seat's scratch row,
    and the game goes on with the real seat's expert answer); returns how many rows."""
    view = buffer[0]  # the rollouts' state, theirs again once the features are read
    copy_record_nb(view, state, STATE_BYTES)
    actions = np.zeros(MAX_CHOICES, np.int64)
    if decision == DRAW_DECISION:
        count = 2
        actions[1] = 1
        draw_features_nb(view, seat, features)
        kind = DRAWING
    elif decision == BID_DECISION:
        count = judge_bids_nb(view, seat, (np.float64(DEFAULT_LEVELS), 0.0, 0.0), actions, features,
                              np.zeros(N_FEATURES))[0]
        kind = 0
    else:
        return 0
    outcomes = np.empty((MAX_CHOICES, np.int64(search_params[0])))
    rollout_values_nb(buffer, state, seat, search_params, actions, count, kind, outcomes)
    for a in range(count):
        values[a] = outcomes[a].mean()
    return count


STRATEGY = Strategy(
    name="strong",
    decisions={"draw_nb": draw_nb, "bid_nb": bid_nb},
    params={
        "bid_levels": Param(DEFAULT_LEVELS, 1, MAX_LEVELS, integer=True,
                            help="bids judged besides pass, expert's, the worth and above the rivals: the lowest, "
                                 "more up to all its money"),
        "draw_bias": Param(0, -1, 1, help="added to a draw's learned value (in win credit)"),
        "keep": Param(0.05, 0, 1, help="added to the value of expert's own answer (in win credit): leave it only for "
                                    "a clearly better one"),
    },
    summary="Bids and draws as a learned evaluation (fitted to search's rollouts) rates its candidates.",
)
