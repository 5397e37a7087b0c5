"""``strong``: a one-step look-ahead with a learned evaluation (core.evaluation).

Every choice is judged by the position it leads to, scored ``weights[players, day] .
features`` (weights fitted on expert games, ``scripts/train_strong.py --game card``, shipped
in ``data/strong/weights.json``):

- R10 take: each legal take's position, the best wins (the last card alone on a tie);
- R9 reveal: the best take now against the mean, over the unseen cards, of the best take
  with that card revealed (R7, R20: the deck is shuffled, so each unseen card is as likely;
  which cards are unseen is public, their order is not and is never read: the deck is
  taken as a multiset, summed in a fixed order of card kinds), plus ``reveal_margin``.

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
from ..state import DAY, DECK_LEN, UNSEEN_CARDS, UNSEEN_VALUE, market_card_nb, takes_space_nb
from .common import bonus_target_nb

REVEAL_MARGIN = 0  # params index
FEATURES = ("bias", "florin_margin", "florins_over_mean", "ship_pay_margin", "ship_value_margin", "free_places",
            "rival_free_places", "majority_margin", "bonus_margin", "progress", "ship_full")
N_FEATURES = len(FEATURES)
WEIGHTS_FILE = Path(__file__).parents[1] / "data" / "strong" / "weights.json"
weights_table_nb = weights_nb(WEIGHTS_FILE, (MAX_PLAYERS + 1, DAYS, N_FEATURES))
KIND_BITS = 20  # a card's kind: (good, icons, green) above its value (values stay far below 2**20)


@njit(cache=True, inline="always")
def projected_nb(state, p, seat, add_value, add_used, fill):
    """Seat ``p``'s ship value with its free places filled at the unseen cards' mean (R6, R13)."""
    free = state.rules[RULE_CAPACITY] - state.ship_used[p] - (add_used if p == seat else 0)
    return state.ship_value[p] + (add_value if p == seat else 0) + free * fill


@njit(cache=True)
def features_nb(state, seat, add_value, add_used, add_icons, out):
    """The seat's features (``out``) if its ship held ``add_value`` more value, ``add_used``
    more places and ``add_icons[good]`` more icons; returns the day (which model)."""
    players = state.rules[RULE_PLAYERS]
    capacity = state.rules[RULE_CAPACITY]
    target = bonus_target_nb(state)
    mine = np.zeros(4)  # florins, ship pay, majorities, bonuses
    best = np.full(4, -1e9)
    others_florins = 0.0
    rival_free = 0
    unseen = max(state.unseen[0, UNSEEN_CARDS], 1)
    fill = state.unseen[0, UNSEEN_VALUE] / unseen  # what a free place adds, on average (R13)
    for p in range(players):
        value = projected_nb(state, p, seat, add_value, add_used, fill)
        place = 0
        tied = 0
        for q in range(players):
            if q != p:
                theirs = projected_nb(state, q, seat, add_value, add_used, fill)
                place += theirs > value
                tied += theirs == value
        totals = np.zeros(4)
        totals[0] = state.florins[p]
        totals[1] = state.ship_share[place, tied]
        for good in range(N_GOODS):
            held = state.warehouse_icons[p, good] + state.ship_icons[p, good] + (add_icons[good] if p == seat else 0)
            if held >= state.rules[RULE_BIG_BONUS_MIN]:
                totals[3] += state.rules[RULE_BIG_BONUS]
            elif held >= state.rules[RULE_BONUS_MIN]:
                totals[3] += state.rules[RULE_BONUS]
            if held < 1:
                continue
            place = 0
            tied = 0
            for q in range(players):
                if q != p:
                    theirs = state.warehouse_icons[q, good] + state.ship_icons[q, good] + (
                        add_icons[good] if q == seat else 0)
                    place += theirs > held
                    tied += theirs == held
            totals[2] += state.majority_share[place, tied]
        if p == seat:
            mine[:] = totals
        else:
            others_florins += state.florins[p]
            rival_free = max(rival_free, capacity - state.ship_used[p])
            for k in range(4):
                best[k] = max(best[k], totals[k])
    used = state.ship_used[seat] + add_used
    best_value = -1e9
    progress = 0.0
    for p in range(players):
        if p != seat:
            best_value = max(best_value, projected_nb(state, p, seat, add_value, add_used, fill))
    for good in range(N_GOODS):
        held = state.warehouse_icons[seat, good] + state.ship_icons[seat, good] + add_icons[good]
        progress += (min(held, target) / target) ** 2
    out[0] = 1.0
    out[1] = mine[0] - best[0]
    out[2] = mine[0] - others_florins / (players - 1)
    out[3] = mine[1] - best[1]
    out[4] = projected_nb(state, seat, seat, add_value, add_used, fill) - best_value
    out[5] = capacity - used
    out[6] = rival_free
    out[7] = mine[2] - best[2]
    out[8] = mine[3] - best[3]
    out[9] = progress
    out[10] = used >= capacity
    return state.counts[DAY]


@njit(cache=True)
def position_features_nb(state, seat, out):
    """The seat's features as the position stands (training: core.evaluation.position_collector)."""
    return features_nb(state, seat, 0, 0, np.zeros(N_GOODS, np.int64), out)


@njit(cache=True)
def final_scores_nb(state):
    """Each seat's florins (training labels: core.evaluation.position_collector)."""
    return state.florins[:state.rules[RULE_PLAYERS]]


@njit
def take_value_nb(state, seat, cards, choice, icons, features, weights):
    """The value of taking the last card (``cards[0]``) and those ``choice`` adds (bit 0:
    ``cards[1]``, bit 1: ``cards[2]``)."""
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
    day = features_nb(state, seat, value, used, icons, features)
    return linear_value_nb(weights[day], features)


@njit
def best_take_nb(state, seat, cards, weights):
    """(value, choice) of the best legal take (R10, as state.legal_takes_nb lists them) of the
    last three cards ``cards`` (-1: no card there)."""
    capacity = state.rules[RULE_CAPACITY]
    free = capacity - state.ship_used[seat]
    icons = np.zeros(N_GOODS, np.int64)
    features = np.empty(N_FEATURES)
    pending = takes_space_nb(state, cards[0])
    best = take_value_nb(state, seat, cards, 0, icons, features, weights)
    choice = 0
    second_fits = cards[1] >= 0 and pending + takes_space_nb(state, cards[1]) <= free
    third_fits = cards[2] >= 0 and pending + takes_space_nb(state, cards[2]) <= free
    both_fit = second_fits and third_fits and (
        pending + takes_space_nb(state, cards[1]) + takes_space_nb(state, cards[2]) <= free)
    for option, legal in ((1, second_fits), (2, third_fits), (3, both_fit)):
        if legal:
            value = take_value_nb(state, seat, cards, option, icons, features, weights)
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
def reveal_nb(state, seat, params):
    """R9: reveal if the mean best take after one more card beats the best take now."""
    weights = weights_table_nb()[state.rules[RULE_PLAYERS]]
    cards = window_nb(state)
    stop, _ = best_take_nb(state, seat, cards, weights)
    # the unseen cards by kind, in a fixed order: the deck's order is hidden and never matters
    n = state.counts[DECK_LEN]
    keys = np.empty(n, np.int64)
    for i in range(n):
        card = state.deck[i]
        keys[i] = ((((state.card_good[card] + 1) * 8 + state.card_icons[card]) * 2 + state.card_green[card])
                   << KIND_BITS) + state.card_value[card]
    order = np.argsort(keys, kind="mergesort")
    after = np.empty(3, np.int64)
    after[1], after[2] = cards[0], cards[1]
    total = 0.0
    i = 0
    while i < n:
        j = i
        while j < n and keys[order[j]] == keys[order[i]]:
            j += 1
        after[0] = state.deck[order[i]]  # any card of the kind: they are alike
        value, _ = best_take_nb(state, seat, after, weights)
        total += (j - i) * value
        i = j
    return total / n > stop + params[REVEAL_MARGIN]


@njit
def take_nb(state, seat, params):
    """R10: the legal take whose position is worth most."""
    _, choice = best_take_nb(state, seat, window_nb(state), weights_table_nb()[state.rules[RULE_PLAYERS]])
    return choice


STRATEGY = Strategy(
    name="strong",
    decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
    params={"reveal_margin": Param(-0.15, -1, 1, help="value a reveal must gain on average to be worth it (measured: "
                                                      "-0.1 to -0.2 best at 4 players)")},
    summary="One-step look-ahead with a learned evaluation of positions (trained on expert games).",
)
