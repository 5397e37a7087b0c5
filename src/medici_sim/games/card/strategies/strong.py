"""``strong``: a one-step look-ahead with a learned evaluation (core.evaluation).

Every choice is judged by the position it leads to, scored ``weights[players, day] .
features`` (weights fitted on expert games, ``scripts/train_strong.py --game card``, shipped
in ``data/strong/weights.json``):

- R10 take: each legal take's position, the best wins (the last card alone on a tie);
- R9 reveal: the best take now against the mean, over the unseen cards, of the best take
  with that card revealed (R7, R20: the deck is shuffled, so each unseen card is as likely;
  which cards are unseen is public, their order is not and is never read: ``reveal_samples``
  of them, evenly spaced in an order of kinds of card, are tried), judged by a second learned
  model (the reveal model: the look-ahead's mean gain and what it misses) against
  ``reveal_margin``.

The features, all for the deciding seat against the others (their best unless said), of
the position as it would be after the take: florins (R13-R19 paid so far) against the best
and the mean; the ship's payout if the ships were scored with their free places filled at the unseen
cards' mean value (R14, R15) and that projected value;
free places on its ship and the most any rival has (R6, R11); majority payouts (R15, R17)
and bonuses (R18, R19) of the icons held now (warehouse and ship, R17); progress towards
the bonus threshold (squared share, summed over goods); whether its ship is full.
"""
from pathlib import Path

import numpy as np
from numba import njit

from ....core.evaluation import linear_value_nb, weights_nb
from ....core.registry import Param, Strategy
from ..deck import MAX_CARDS, MAX_VALUE
from ..engine import MAX_TAKES, REVEAL_DECISION, TAKE_DECISION
from ..rules import (
    DAYS,
    MAX_PLAYERS,
    N_GOODS,
    RULE_BIG_BONUS,
    RULE_BIG_BONUS_MIN,
    RULE_BONUS,
    RULE_BONUS_MIN,
    RULE_CAPACITY,
    RULE_PLAYERS,
)
from ..state import (
    DAY,
    DECK_LEN,
    MARKET_LEN,
    N_CARDS,
    REVEALED,
    UNSEEN_CARDS,
    UNSEEN_VALUE,
    legal_takes_nb,
    market_card_nb,
    takes_space_nb,
)
from .common import bonus_target_nb
from .search import rollout_values_nb

REVEAL_MARGIN, REVEAL_SAMPLES = range(2)
FEATURES = ("bias", "florin_margin", "florins_over_mean", "ship_pay_margin", "ship_value_margin", "free_places",
            "rival_free_places", "majority_margin", "bonus_margin", "progress", "ship_full")
N_FEATURES = len(FEATURES)
# R9: whether a reveal pays, from the look-ahead's mean gain and what it misses (a second
# reveal's option, the card left to the next seat): a second model, fitted on reveal decisions
REVEAL_FEATURES = ("bias", "look_ahead_gain", "revealed", "market", "free_places", "deck_share")
N_REVEAL = len(REVEAL_FEATURES)
# training (study.strong_training): the position model from the takes, then the reveal model
FIRST_DECISION, SECOND_DECISION, N_SECOND = TAKE_DECISION, REVEAL_DECISION, N_REVEAL
COLUMNS = FEATURES + REVEAL_FEATURES  # the weights file's, per player count and day
MAX_CHOICES = 4  # R10: the most legal takes (training rows per decision)
WEIGHTS_FILE = Path(__file__).parents[1] / "data" / "strong" / "weights.json"
# [players, day]: the position model's weights, then the reveal model's
weights_table_nb = weights_nb(WEIGHTS_FILE, (MAX_PLAYERS + 1, DAYS, N_FEATURES + N_REVEAL))
# sort keys of the unseen cards: a card's kind (good, icons, green), its value, its id
VALUE_BITS, CARD_BITS = 20, 10
assert MAX_VALUE < 1 << VALUE_BITS and MAX_CARDS <= 1 << CARD_BITS
REVEAL_SAMPLES_TRAINED = 6  # the reveal model's look-ahead averages this many unseen cards in training


# A decision's context (context_nb): what the other seats' figures are, whatever the seat takes.
# Row q (another seat): its projected ship value, its place and ties among the others but the
# deciding seat (ship, then each good's icons), its bonuses, and its icons of each good; row
# ``seat``: its own icons; row MAX_PLAYERS: figures of the whole table (FILL...).
PROJECTED, SHIP_ABOVE, SHIP_TIED, BONUSES, GOODS_AT = range(5)  # GOODS_AT + 3 good + (HELD, ABOVE, TIED)
HELD, ABOVE, TIED = range(3)
FILL, BEST_FLORINS, MEAN_FLORINS, RIVAL_FREE, BEST_PROJECTED, BEST_BONUSES = range(6)
CONTEXT_WIDTH = GOODS_AT + 3 * N_GOODS


@njit(cache=True, inline="always")
def held_nb(state, p, good):
    """Icons of ``good`` seat ``p`` holds: warehouse and ship (R17)."""
    return state.warehouse_icons[p, good] + state.ship_icons[p, good]


@njit(cache=True, inline="always")
def bonus_nb(state, held):
    """R18, R19: the bonus ``held`` icons of a good pay."""
    if held >= state.rules[RULE_BIG_BONUS_MIN]:
        return state.rules[RULE_BIG_BONUS]
    return state.rules[RULE_BONUS] if held >= state.rules[RULE_BONUS_MIN] else 0


@njit(cache=True)
def context_nb(state, seat):
    """The decision's context (the rows above)."""
    players = state.rules[RULE_PLAYERS]
    capacity = state.rules[RULE_CAPACITY]
    context = np.zeros((MAX_PLAYERS + 1, CONTEXT_WIDTH))
    table = context[MAX_PLAYERS]
    table[FILL] = state.unseen[0, UNSEEN_VALUE] / max(state.unseen[0, UNSEEN_CARDS], 1)  # a free place's worth (R13)
    table[BEST_FLORINS] = table[BEST_PROJECTED] = table[BEST_BONUSES] = -1e9
    for p in range(players):
        context[p, PROJECTED] = state.ship_value[p] + (capacity - state.ship_used[p]) * table[FILL]
        for good in range(N_GOODS):
            context[p, GOODS_AT + 3 * good + HELD] = held_nb(state, p, good)
    for p in range(players):
        if p == seat:
            continue
        for q in range(players):
            if q != p and q != seat:
                context[p, SHIP_ABOVE] += context[q, PROJECTED] > context[p, PROJECTED]
                context[p, SHIP_TIED] += context[q, PROJECTED] == context[p, PROJECTED]
                for good in range(N_GOODS):
                    at = GOODS_AT + 3 * good
                    context[p, at + ABOVE] += context[q, at + HELD] > context[p, at + HELD]
                    context[p, at + TIED] += context[q, at + HELD] == context[p, at + HELD]
        for good in range(N_GOODS):
            context[p, BONUSES] += bonus_nb(state, held_nb(state, p, good))
        table[BEST_FLORINS] = max(table[BEST_FLORINS], state.florins[p])
        table[MEAN_FLORINS] += state.florins[p] / (players - 1)
        table[RIVAL_FREE] = max(table[RIVAL_FREE], capacity - state.ship_used[p])
        table[BEST_PROJECTED] = max(table[BEST_PROJECTED], context[p, PROJECTED])
        table[BEST_BONUSES] = max(table[BEST_BONUSES], context[p, BONUSES])
    return context


@njit(cache=True)
def features_nb(state, seat, context, add_value, add_used, add_icons, out, work):
    """The seat's features (``out``) if its ship held ``add_value`` more value, ``add_used``
    more places and ``add_icons[good]`` more icons (``context``: context_nb's; ``work``: a
    scratch row of MAX_PLAYERS); returns the day (which model)."""
    players = state.rules[RULE_PLAYERS]
    capacity = state.rules[RULE_CAPACITY]
    table = context[MAX_PLAYERS]
    target = bonus_target_nb(state)
    used = state.ship_used[seat] + add_used
    mine = state.ship_value[seat] + add_value + (capacity - used) * table[FILL]
    above = tied = 0
    best_ship = -1e9
    for q in range(players):  # R14, R15: ship places, ties sharing
        if q != seat:
            theirs = context[q, PROJECTED]
            above += theirs > mine
            tied += theirs == mine
            best_ship = max(best_ship, state.ship_share[np.int64(context[q, SHIP_ABOVE]) + (mine > theirs),
                                                         np.int64(context[q, SHIP_TIED]) + (mine == theirs)])
            work[q] = 0.0
    my_ship = state.ship_share[above, tied]
    my_majority = 0.0
    my_bonus = 0.0
    progress = 0.0
    for good in range(N_GOODS):  # R15, R17-R19: majorities and bonuses of the icons held now
        at = GOODS_AT + 3 * good
        held = context[seat, at + HELD] + add_icons[good]
        my_bonus += bonus_nb(state, held)
        progress += (min(held, target) / target) ** 2
        above = tied = 0
        for q in range(players):
            if q != seat:
                theirs = context[q, at + HELD]
                above += theirs > held
                tied += theirs == held
                if theirs >= 1:
                    work[q] += state.majority_share[np.int64(context[q, at + ABOVE]) + (held > theirs),
                                                    np.int64(context[q, at + TIED]) + (held == theirs)]
        if held >= 1:
            my_majority += state.majority_share[above, tied]
    best_majority = -1e9
    for q in range(players):
        if q != seat:
            best_majority = max(best_majority, work[q])
    out[0] = 1.0
    out[1] = state.florins[seat] - table[BEST_FLORINS]
    out[2] = state.florins[seat] - table[MEAN_FLORINS]
    out[3] = my_ship - best_ship
    out[4] = mine - table[BEST_PROJECTED]
    out[5] = capacity - used
    out[6] = table[RIVAL_FREE]
    out[7] = my_majority - best_majority
    out[8] = my_bonus - table[BEST_BONUSES]
    out[9] = progress
    out[10] = used >= capacity
    return state.counts[DAY]


@njit
def look_nb(state, seat):
    """What a decision's look-ahead works with: the context (context_nb), then scratch for a
    take's icons, its features and the others' majorities (features_nb)."""
    return (context_nb(state, seat), np.zeros(N_GOODS, np.int64), np.empty(N_FEATURES), np.empty(MAX_PLAYERS))


@njit
def take_features_nb(state, seat, cards, choice, look):
    """The features (``look[2]``) of the position taking the last card (``cards[0]``) and
    those ``choice`` adds (bit 0: ``cards[1]``, bit 1: ``cards[2]``) leads to; returns the day."""
    context, icons, features, work = look
    icons[:] = 0
    value = 0
    used = 0
    for k in range(3):
        if k == 0 or (choice >> (k - 1)) & 1:
            card = cards[k]
            value += state.card_value[card]
            used += takes_space_nb(state, card)
            if state.card_good[card] >= 0:
                icons[state.card_good[card]] += state.card_icons[card]
    return features_nb(state, seat, context, value, used, icons, features, work)


@njit
def best_take_nb(state, seat, cards, weights, look):
    """(value, choice) of the best legal take (R10, as state.legal_takes_nb lists them) of the
    last three cards ``cards`` (-1: no card there); the last card alone on a tie."""
    free = state.rules[RULE_CAPACITY] - state.ship_used[seat]
    pending = takes_space_nb(state, cards[0])
    best = linear_value_nb(weights[take_features_nb(state, seat, cards, 0, look)], look[2])
    choice = 0
    second_fits = cards[1] >= 0 and pending + takes_space_nb(state, cards[1]) <= free
    third_fits = cards[2] >= 0 and pending + takes_space_nb(state, cards[2]) <= free
    both_fit = second_fits and third_fits and (
        pending + takes_space_nb(state, cards[1]) + takes_space_nb(state, cards[2]) <= free)
    for option, legal in ((1, second_fits), (2, third_fits), (3, both_fit)):
        if legal:
            value = linear_value_nb(weights[take_features_nb(state, seat, cards, option, look)], look[2])
            if value > best:
                best = value
                choice = option
    return best, choice


@njit
def window_nb(state):
    cards = np.empty(3, np.int64)
    for back in range(3):
        cards[back] = market_card_nb(state, back + 1)
    return cards


@njit
def reveal_features_nb(state, seat, weights, samples, out):
    """The reveal model's features (``out``) with the position model ``weights[day]``: the
    mean best take after one more card (averaged over ``samples`` unseen cards) less the best
    take now, this turn's reveals, the market's size, the seat's free places, the deck's share
    of the cards. Returns the day."""
    look = look_nb(state, seat)
    cards = window_nb(state)
    stop, _ = best_take_nb(state, seat, cards, weights, look)
    # the revealed card is averaged over `samples` of the unseen cards, evenly spaced in an
    # order of kinds of card: the deck's order is hidden and never read
    n = state.counts[DECK_LEN]
    keys = np.empty(n, np.int64)
    for i in range(n):
        card = state.deck[i]
        kind = ((state.card_good[card] + 1) * 8 + state.card_icons[card]) * 2 + state.card_green[card]
        keys[i] = (((kind << VALUE_BITS) + state.card_value[card]) << CARD_BITS) + card
    keys.sort()
    samples = min(n, samples)
    after = np.empty(3, np.int64)
    after[1], after[2] = cards[0], cards[1]
    total = 0.0
    for j in range(samples):
        after[0] = keys[(2 * j + 1) * n // (2 * samples)] & ((1 << CARD_BITS) - 1)
        total += best_take_nb(state, seat, after, weights, look)[0]
    out[0] = 1.0
    out[1] = total / samples - stop
    out[2] = state.counts[REVEALED]
    out[3] = state.counts[MARKET_LEN]
    out[4] = state.rules[RULE_CAPACITY] - state.ship_used[seat]
    out[5] = n / state.counts[N_CARDS]
    return state.counts[DAY]


@njit
def reveal_nb(state, seat, params):
    """R9: reveal if the reveal model says it gains more than ``reveal_margin``."""
    weights = weights_table_nb()[state.rules[RULE_PLAYERS]]
    features = np.empty(N_REVEAL)
    day = reveal_features_nb(state, seat, weights, np.int64(params[REVEAL_SAMPLES]), features)
    return linear_value_nb(weights[day, N_FEATURES:], features) > params[REVEAL_MARGIN]


@njit
def take_nb(state, seat, params):
    """R10: the legal take whose position is worth most."""
    weights = weights_table_nb()[state.rules[RULE_PLAYERS]]
    return best_take_nb(state, seat, window_nb(state), weights, look_nb(state, seat))[1]


@njit
def label_decision_nb(wanted, decision, buffer, state, seat, search_params, weights, features, values):
    """Training rows (study.strong_training) of a ``wanted`` decision with a choice, from the
    outcomes of search's rollouts (``search_params``; common random numbers: the choices are
    compared on the same deals); returns how many rows. R10 takes: each legal take's
    position features and mean outcome; R9 reveals: the reveal features (with the position
    model ``weights``, REVEAL_SAMPLES_TRAINED samples) and the mean gain of revealing."""
    if decision != wanted:
        return 0
    actions = np.zeros(MAX_TAKES, np.int64)
    rollouts = np.int64(search_params[0])
    outcomes = np.empty((MAX_TAKES, rollouts))
    if decision == REVEAL_DECISION:
        actions[1] = 1
        rollout_values_nb(buffer, state, seat, search_params, actions, 2, False, outcomes)
        reveal_features_nb(state, seat, weights, REVEAL_SAMPLES_TRAINED, features[0])
        values[0] = (outcomes[1] - outcomes[0]).mean()
        return 1
    count = legal_takes_nb(state, seat, actions)
    if count < 2:
        return 0
    rollout_values_nb(buffer, state, seat, search_params, actions, count, True, outcomes)
    cards = window_nb(state)
    look = look_nb(state, seat)
    for a in range(count):
        take_features_nb(state, seat, cards, actions[a], look)
        features[a, :N_FEATURES] = look[2]
        values[a] = outcomes[a].mean()
    return count


STRATEGY = Strategy(
    name="strong",
    decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
    params={
        "reveal_margin": Param(0, -1, 1, help="win credit a reveal must gain (by the reveal model) to be worth it"),
        "reveal_samples": Param(REVEAL_SAMPLES_TRAINED, 1, 200, integer=True,
                                help="unseen cards a reveal is averaged over (evenly spaced in an order of kinds)"),
    },
    summary="One-step look-ahead with a learned evaluation of positions (fitted to search's rollouts).",
)
