"""``strong``: bids and draws by a learned evaluation of each candidate (core/evaluation.py).

Each decision's candidates are scored by a quadratic model, ``weights[players, day] .
(features, their pairwise products)`` (weights fitted to search's rollouts of expert games,
``scripts/train_strong.py --game classic --seed 0``, shipped in ``data/strong/weights.json``);
the best is taken (the first listed on a tie), expert's own answer getting ``keep`` more.

- C9 bids: pass, expert's own bid, the lowest bid and ``bid_levels`` - 1 more amounts up to
  all its money on a square law (as search tries them), the lot's worth W to the seat
  (expert's estimate in florins, module expert, its default parameters, kept in this seat's
  own scratch row) and one florin above what the seats still to speak would pay. Each
  candidate's auction is played out to the auctioneer (auction_nb: every seat still to speak
  answers as a fresh expert, the rivals' model of search's rollouts), which says who takes
  the lot and at what price. Its features: bids at all; if it takes the lot, W, the price
  (and times the days to come), the lot's cards and value, today's track majorities and
  bonuses with it aboard (C15, C16), its surplus and florin margin; if a rival takes it,
  the price and the lot's value; and the position after the sale (position_nb).
- C8 draws: offering the lot now (the others' bids as above, and taking it at one florin
  more when it is worth more to it and its ship has room) against drawing: the offer's sale
  and the position after it, against the draw's W, the lot's cards, its free holds and the
  rivals' after the bigger lot, the deck's size and the position as it is.
- The position (position_nb, every seat's, the seat's against the best rival's and the
  rivals' mean): florins; its ship's expected payout at the day's end (C13: projected with
  its free holds filled at an unseen card's mean value, ranked softly as expert ranks ships);
  its tracks' majorities (C15, levels projected the same way) and bonuses (C16); the score
  these make and its tanh (a win is the margin's sign, C18); its free holds and the most of
  a rival; its track levels' squares (the climb to the bonuses on the days to come). With it
  and the quadratic model strong wins about 56% at 4 players against experts, the linear
  model without it 39% (docs/strategies.md).

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
from ....core.evaluation import (
    fit_choices,
    fit_choices_quadratic,
    linear_value_nb,
    product_names,
    quadratic_value_nb,
    weights_nb,
)
from ....core.registry import MAX_PARAMS, Param, Strategy
from ..engine import BID_DECISION, DRAW_DECISION, answer_nb
from ..rules import DAYS, MAX_PLAYERS, N_GOODS, RULE_DAYS, RULE_HOLDS, RULE_PLAYERS, RULE_TRACK_MAX, VARIANTS
from ..state import (
    AUCTIONEER,
    DAY,
    DECK_LEN,
    GOLD_ROW,
    HIGH_BIDDER,
    HIGHEST,
    LOT_LEN,
    LOT_VALUE,
    STATE_DTYPE,
    UNSEEN,
    UNSEEN_CARDS,
    UNSEEN_VALUE,
    lot_goods_nb,
    lowest_bid_nb,
    may_bid_nb,
)
from .common import majority_pay_nb, track_gain_nb
from .expert import CARD_VAR, GOOD_VAR, lot_worth_nb, prepare_nb, ship_pay_nb
from .expert import STRATEGY as EXPERT
from .expert import bid_nb as expert_bid_nb
from .expert import draw_nb as expert_draw_nb
from .search import DRAWING, STATE_BYTES, rollout_values_nb

BID_LEVELS, DRAW_BIAS, KEEP = range(3)
MAX_LEVELS = 8
DEFAULT_LEVELS = 4  # bid_levels' default: training judges these candidates
FEATURES = ("bias",
            "bid", "wins", "wins_worth", "wins_price", "wins_price_later", "wins_cards", "wins_surplus",
            "wins_margin", "wins_value", "wins_tracks", "rival_wins", "rival_price", "rival_value",
            "draw", "draw_worth", "draw_cards", "draw_room", "draw_rival_room", "draw_deck",
            "offer_takes", "offer_surplus", "offer_rival_price",
            "money_margin", "money_over_mean", "ship_margin", "tracks_margin", "score_margin", "score_over_mean",
            "win_edge", "free_holds", "rival_free_holds", "progress_margin")
N_FEATURES = len(FEATURES)
QUADRATIC = True  # the model weighs the features and the product of every pair (core/evaluation.py)
FIT = fit_choices_quadratic if QUADRATIC else fit_choices  # how the training (study.strong_training) fits it
COLUMNS = product_names(FEATURES) if QUADRATIC else FEATURES  # the weights file's, per player count and day
(BIAS, BID, WINS, WINS_WORTH, WINS_PRICE, WINS_PRICE_LATER, WINS_CARDS, WINS_SURPLUS, WINS_MARGIN, WINS_VALUE,
 WINS_TRACKS, RIVAL_WINS, RIVAL_PRICE, RIVAL_VALUE, DRAW, DRAW_WORTH, DRAW_CARDS, DRAW_ROOM, DRAW_RIVAL_ROOM,
 DRAW_DECK, OFFER_TAKES, OFFER_SURPLUS, OFFER_RIVAL_PRICE,
 MONEY_MARGIN, MONEY_OVER_MEAN, SHIP_MARGIN, TRACKS_MARGIN, SCORE_MARGIN, SCORE_OVER_MEAN, WIN_EDGE, FREE_HOLDS,
 RIVAL_FREE_HOLDS, PROGRESS_MARGIN) = range(N_FEATURES)
SPREAD = 0.75  # expert's default: how uncertain projected ships and tracks are (standard deviations)
MAX_CHOICES = MAX_LEVELS + 4  # pass, expert's bid, the levels, the worth, above the rivals (training rows)
STAGES = DAYS  # the models per player count (study.strong_training): one per day
SELF_PLAY_ROUNDS = 0  # study.strong_training: the teacher's games only, no rounds of its own
WEIGHTS_FILE = Path(__file__).parents[1] / "data" / "strong" / "weights.json"
weights_table_nb = weights_nb(WEIGHTS_FILE, (MAX_PLAYERS + 1, STAGES, len(COLUMNS)))


def stage(state) -> int:
    """The model a decision's training rows fit (study.strong_training): its day, counted from 0."""
    return int(state["counts"][DAY])
value_nb = quadratic_value_nb if QUADRATIC else linear_value_nb
_defaults = [p.default for p in EXPERT.params.values()]
EXPERT_PARAMS = tuple(float(v) for v in _defaults + [0.0] * (MAX_PARAMS - len(_defaults)))  # the rivals' model


@njit(cache=True, inline="always")
def model_nb(state):
    """The day's model: by the days after this one (C18), the last day's model on the last day."""
    later = state.rules[RULE_DAYS] - 1 - state.counts[DAY]
    return DAYS - 1 - min(later, DAYS - 1)


@njit(cache=True)
def auction_nb(buffer, state, seat, answer):
    """C9 played out on ``buffer[0]`` (a copy of ``state``'s record; the array, not its record,
    is passed, as numba frees an array after its last use): ``seat`` answers ``answer``
    (-1: the auctioneer offers the lot and answers last), then each seat still to speak
    up to the auctioneer answers as a fresh expert (default parameters, an empty scratch
    row: the rivals' model, as search's rollouts play them); returns (winner or -1, price)."""
    sim = buffer[0]
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
            extra = lot_goods_nb(state, good)
            if extra:
                out[WINS_TRACKS] += track_gain_nb(state, seat, good, extra)
    elif winner >= 0:
        out[RIVAL_WINS] = 1.0
        out[RIVAL_PRICE] = price
        out[RIVAL_VALUE] = state.counts[LOT_VALUE]
    position_nb(state, seat, winner, price, out)


@njit(cache=True, inline="always")
def soft_beaten_nb(values, free, players, p, variance):
    """How many of the others seat ``p``'s projected ``values`` beat, softly: each pair a ramp
    from 0 to 1 whose slope shrinks with the free holds both still fill (``variance``: a
    card's value or a good's chance, as expert grades ships and tracks)."""
    beaten = 0.0
    for q in range(players):
        if q != p:
            slope = 0.5 / (0.5 + SPREAD * math.sqrt(variance * (free[p] + free[q])))
            beaten += min(1.0, max(0.0, 0.5 + (values[p] - values[q]) * slope))
    return beaten


@njit(cache=True)
def position_nb(state, seat, winner, price, out):
    """The position features (``out``) after the current lot goes to ``winner`` at ``price``
    (-1: put aside, C10): each seat's florins, its ship's expected payout at the day's end
    (C13: projected with its free holds filled at an unseen card's mean value, ranked softly
    against each other ship as expert ranks them) and its tracks' (C14-C16: majorities of the
    levels projected the same way, bonuses of the levels it holds), the seat's against the
    best rival's and the rivals' mean."""
    players = state.rules[RULE_PLAYERS]
    holds = state.rules[RULE_HOLDS]
    top = state.rules[RULE_TRACK_MAX]
    deck = state.counts[DECK_LEN]
    unseen = max(state.counts[UNSEEN], 1)
    unseen_value = 0
    for row in range(GOLD_ROW + 1):
        unseen_value += state.unseen[row, UNSEEN_VALUE]
    free, money, projected, score, tracks, progress, level = np.zeros((7, MAX_PLAYERS))  # by seat
    free_total = 0.0
    for p in range(players):
        won = p == winner
        free[p] = max(holds - state.ship_len[p] - (state.counts[LOT_LEN] if won else 0), 0)
        money[p] = state.money[p] - (price if won else 0)
        projected[p] = state.ship_value[p] + (state.counts[LOT_VALUE] if won else 0)
        free_total += free[p]
    fillable = 1.0 if deck >= free_total else deck / max(free_total, 1.0)
    for p in range(players):
        projected[p] += free[p] * fillable * unseen_value / unseen
    first, second = state.majority_share[0, 0], state.majority_share[1, 0]  # C15: the two places' payouts
    for p in range(players):
        score[p] = money[p] + ship_pay_nb(state, players, soft_beaten_nb(projected, free, players, p, CARD_VAR))
    for good in range(N_GOODS):
        q_good = state.unseen[good, UNSEEN_CARDS] * fillable / unseen
        extra = lot_goods_nb(state, good)
        for p in range(players):
            held = min(top, state.track[p, good] + state.ship_goods[p, good] + (extra if p == winner else 0))
            tracks[p] += state.track_bonus[held]
            progress[p] += held * held
            level[p] = held + free[p] * q_good
        for p in range(players):
            rank = (players - 1) - soft_beaten_nb(level, free, players, p, GOOD_VAR)
            tracks[p] += majority_pay_nb(first, second, rank)
    best_money = best_ship = best_tracks = best_score = best_progress = -1e9
    mean_money = mean_score = 0.0
    rival_free = 0.0
    for p in range(players):
        if p != seat:
            best_money = max(best_money, money[p])
            best_ship = max(best_ship, score[p] - money[p])
            best_tracks = max(best_tracks, tracks[p])
            best_score = max(best_score, score[p] + tracks[p])
            best_progress = max(best_progress, progress[p])
            mean_money += money[p] / (players - 1)
            mean_score += (score[p] + tracks[p]) / (players - 1)
            rival_free = max(rival_free, free[p])
    mine = score[seat] + tracks[seat]
    out[MONEY_MARGIN] = money[seat] - best_money
    out[MONEY_OVER_MEAN] = money[seat] - mean_money
    out[SHIP_MARGIN] = score[seat] - money[seat] - best_ship
    out[TRACKS_MARGIN] = tracks[seat] - best_tracks
    out[SCORE_MARGIN] = mine - best_score
    out[SCORE_OVER_MEAN] = mine - mean_score
    out[WIN_EDGE] = math.tanh((mine - best_score) / 10.0)
    out[FREE_HOLDS] = free[seat]
    out[RIVAL_FREE_HOLDS] = rival_free
    out[PROGRESS_MARGIN] = (progress[seat] - best_progress) / top


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
    copy_record_nb(buffer[0], state, STATE_BYTES)
    winner, price = auction_nb(buffer, state, seat, 0)
    above = price + 1 if winner >= 0 else lowest_bid_nb(state)  # one florin above the seats after it
    levels = min(max(np.int64(params[BID_LEVELS]), 1), MAX_LEVELS)
    count = bid_candidates_nb(state, seat, levels, expert_bid, worth, above, actions)
    best = 0
    best_value = -1e300
    for a in range(count):
        winner, price = auction_nb(buffer, state, seat, actions[a])
        auction_features_nb(state, seat, actions[a], winner, price, worth, features[a])
        value = value_nb(weights, features[a]) + (params[KEEP] if actions[a] == expert_bid else 0.0)
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
    copy_record_nb(buffer[0], state, STATE_BYTES)
    winner, price = auction_nb(buffer, state, seat, -1)
    taken = max(price + 1, lowest_bid_nb(state))
    cards = state.counts[LOT_LEN]
    if worth > taken and taken <= state.money[seat] and state.rules[RULE_HOLDS] - state.ship_len[seat] >= cards:
        out[0, OFFER_TAKES] = 1.0
        out[0, OFFER_SURPLUS] = worth - taken
        winner, price = seat, taken
    elif winner >= 0:
        out[0, OFFER_RIVAL_PRICE] = price
    position_nb(state, seat, winner, price, out[0])
    position_nb(state, seat, -2, 0, out[1])  # drawing: the position as it is (no sale yet)
    players = state.rules[RULE_PLAYERS]
    holds = state.rules[RULE_HOLDS]
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


# The decisions are inlined into their wrappers (thin layers: compiled apart, each linked the features' code
# and LLVM optimised and assembled it again).
@njit(inline="always")  # not cached on its own: the weights are a constant of its code (the kernel's cache covers them)
def bid_nb(state, seat, params):
    """C9: the candidate bid whose features score highest."""
    weights = weights_table_nb()[state.rules[RULE_PLAYERS], model_nb(state)]
    actions = np.empty(MAX_CHOICES, np.int64)
    features = np.empty((MAX_CHOICES, N_FEATURES))
    return actions[judge_bids_nb(state, seat, params, actions, features, weights)[1]]


@njit(inline="always")  # as bid_nb
def draw_nb(state, seat, params):
    """C8: another card if drawing scores above offering the lot (plus ``draw_bias``)."""
    weights = weights_table_nb()[state.rules[RULE_PLAYERS], model_nb(state)]
    features = np.empty((2, N_FEATURES))
    draw_features_nb(state, seat, features)
    keep = params[KEEP] if expert_draw_nb(state, seat, EXPERT_PARAMS) else -params[KEEP]
    return value_nb(weights, features[1]) + params[DRAW_BIAS] + keep > value_nb(weights, features[0])


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
                              np.zeros(len(COLUMNS)))[0]
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
    fitted_to=VARIANTS,  # its weights were trained on expert games under these rules (scripts/train_strong.py)
)
