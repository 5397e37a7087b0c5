"""``strong``: takes by a one-step look-ahead with a learned evaluation (core/evaluation.py).

- R10 take: each legal take is judged by the position it leads to, scored by a quadratic
  model, ``weights[players, model] . (features, their pairwise products)`` (weights fitted
  to search's rollouts of expert games, ``scripts/train_strong.py --game card --seed 0``,
  shipped in ``data/strong/weights.json``; one model per day counted from the last, so
  rules with other days play too: model_nb); the best wins (the last card alone on a tie);
- R9 reveal: expert's rule (the best take now against the expected best take after one more
  card, averaged over the unseen cards: their composition is public, their order is hidden
  and never read) with the shipped tuned expert's parameters for the rules and player count
  (what ``balance --tuned shipped`` plays), its margin moved by ``reveal_margin`` florins.
  Measured at 4 players: search's own reveals with these takes did no better (31.9% against
  34.1%, 1,000 games), search's takes with these reveals won 46.4%: the takes are the gap.

The features, all for the deciding seat against the others (their best unless said), of
the position as it would be after the take: florins (R13-R19 paid so far) against the best
and the mean; the ship's payout if the ships were scored with their free places filled at
the unseen cards' mean value (R14, R15) and that projected value; free places on its ship
and the most any rival has (R6, R11); majority payouts (R15, R17) and bonuses (R18, R19) of
the icons held now (warehouse and ship, R17); progress towards the bonus threshold (squared
share, summed over goods); whether its ship is full; the cards it takes; what it leaves the
next seat (value, cards and icons of the last three cards left, R10); the rivals' mean free
places and the unseen cards (how much of the day is left, R11, R12); the projected score
margin (florins, ship payout, majorities and bonuses against the best rival's) and its tanh
(a win is decided by the margin's sign, R22).
"""
from pathlib import Path

import numpy as np
from numba import njit

from ....core.evaluation import fit_choices, fit_choices_quadratic, product_names, quadratic_value_nb, weights_nb
from ....core.registry import Param, Strategy
from ..engine import MAX_TAKES, TAKE_DECISION
from ..rules import (
    DAYS,
    MAX_PLAYERS,
    N_GOODS,
    RULE_BIG_BONUS,
    RULE_BIG_BONUS_MIN,
    RULE_BONUS,
    RULE_BONUS_MIN,
    RULE_CAPACITY,
    RULE_DAYS,
    RULE_PLAYERS,
    VARIANTS,
)
from ..state import (
    DAY,
    UNSEEN_CARDS,
    UNSEEN_VALUE,
    legal_takes_nb,
    market_card_nb,
    takes_space_nb,
)
from .common import big_bonus_active_nb, bonus_target_nb
from .expert import REVEAL_MARGIN as EXPERT_REVEAL_MARGIN
from .expert import reveal_nb as expert_reveal_nb
from .search import POLICIES, rollout_values_nb, tuned_params_nb

REVEAL_MARGIN = 0
FEATURES = ("bias", "florin_margin", "florins_over_mean", "ship_pay_margin", "ship_value_margin", "free_places",
            "rival_free_places", "majority_margin", "bonus_margin", "progress", "ship_full", "cards_taken",
            "left_value", "left_cards", "left_icons", "rival_room", "unseen_cards", "score_margin", "win_edge")
N_FEATURES = len(FEATURES)
QUADRATIC = True  # the model weighs the features and the product of every pair (core/evaluation.py)
FIT = fit_choices_quadratic if QUADRATIC else fit_choices  # how the training (study.strong_training) fits it
COLUMNS = product_names(FEATURES)  # the weights file's, per player count and day
MAX_CHOICES = 4  # R10: the most legal takes (training rows per decision)
STAGES = DAYS  # the models per player count (study.strong_training): one per day
SELF_PLAY_ROUNDS = 0  # study.strong_training: the teacher's games only, no rounds of its own
WEIGHTS_FILE = Path(__file__).parents[1] / "data" / "strong" / "weights.json"
weights_table_nb = weights_nb(WEIGHTS_FILE, (MAX_PLAYERS + 1, STAGES, len(COLUMNS)))


def stage(state) -> int:
    """The model a decision's training rows fit (study.strong_training): its day, counted from 0."""
    return int(state["counts"][DAY])
EXPERT = POLICIES.index("expert")  # its row in search's table of tuned policies


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
def features_nb(state, seat, context, add_value, add_used, add_icons, out, work, taken, left):
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
            pay = state.ship_share[np.int64(context[q, SHIP_ABOVE]) + (mine > theirs),
                                   np.int64(context[q, SHIP_TIED]) + (mine == theirs)]
            best_ship = max(best_ship, pay)
            work[0, q] = 0.0
            work[1, q] = state.florins[q] + pay + context[q, BONUSES]
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
                    work[0, q] += state.majority_share[np.int64(context[q, at + ABOVE]) + (held > theirs),
                                                    np.int64(context[q, at + TIED]) + (held == theirs)]
        if held >= 1:
            my_majority += state.majority_share[above, tied]
    best_majority = best_score = -1e9
    rival_room = 0
    for q in range(players):
        if q != seat:
            best_majority = max(best_majority, work[0, q])
            best_score = max(best_score, work[1, q] + work[0, q])
            rival_room += capacity - state.ship_used[q]
    margin = state.florins[seat] + my_ship + my_majority + my_bonus - best_score
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
    out[11] = taken
    out[12] = left[0]
    out[13] = left[1]
    out[14] = left[2]
    out[15] = rival_room / (players - 1)
    out[16] = state.unseen[0, UNSEEN_CARDS] + state.unseen[1, UNSEEN_CARDS]
    out[17] = margin
    out[18] = np.tanh(margin / 10)
    return model_nb(state)


@njit(cache=True, inline="always")
def model_nb(state):
    """Which day's model judges the position: counted from the last day (R22), so that rules
    with more days play the first model on their early days and fewer days the later ones."""
    return max(0, DAYS - state.rules[RULE_DAYS] + state.counts[DAY])


@njit
def look_nb(state, seat):
    """What a decision's look-ahead works with: the context (context_nb), then scratch for a
    take's icons, its features and the others' majorities (features_nb)."""
    return (context_nb(state, seat), np.zeros(N_GOODS, np.int64), np.empty(N_FEATURES), np.empty((2, MAX_PLAYERS)),
            np.zeros(3))


@njit
def take_features_nb(state, seat, cards, choice, look):
    """The features (``look[2]``) of the position taking the last card (``cards[0]``) and
    those ``choice`` adds (bit 0: ``cards[1]``, bit 1: ``cards[2]``) leads to; returns the day."""
    context, icons, features, work, left = look
    icons[:] = 0
    left[:] = 0
    value = 0
    used = 0
    taken = 0
    for k in range(3):
        if k == 0 or (choice >> (k - 1)) & 1:
            card = cards[k]
            taken += 1
            value += state.card_value[card]
            used += takes_space_nb(state, card)
            if state.card_good[card] >= 0:
                icons[state.card_good[card]] += state.card_icons[card]
    for back in range(1, 7):  # the cards the next seat finds within reach (R10): the last three left
        if left[1] == 3:
            break
        card = market_card_nb(state, back)
        if card < 0:
            break
        if back <= 3 and (back == 1 or (choice >> (back - 2)) & 1):
            continue
        left[0] += state.card_value[card]
        left[1] += 1
        left[2] += state.card_icons[card]
    return features_nb(state, seat, context, value, used, icons, features, work, taken, left)


@njit
def best_take_nb(state, seat, cards, weights, look):
    """(value, choice) of the best legal take (R10, as state.legal_takes_nb lists them) of the
    last three cards ``cards`` (-1: no card there); the last card alone on a tie."""
    free = state.rules[RULE_CAPACITY] - state.ship_used[seat]
    pending = takes_space_nb(state, cards[0])
    best = quadratic_value_nb(weights[take_features_nb(state, seat, cards, 0, look)], look[2])
    choice = 0
    second_fits = cards[1] >= 0 and pending + takes_space_nb(state, cards[1]) <= free
    third_fits = cards[2] >= 0 and pending + takes_space_nb(state, cards[2]) <= free
    both_fit = second_fits and third_fits and (
        pending + takes_space_nb(state, cards[1]) + takes_space_nb(state, cards[2]) <= free)
    for option, legal in ((1, second_fits), (2, third_fits), (3, both_fit)):
        if legal:
            value = quadratic_value_nb(weights[take_features_nb(state, seat, cards, option, look)], look[2])
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


# The decisions are inlined into their wrappers (thin layers: compiled apart, each linked the features' code
# and LLVM optimised and assembled it again).
@njit(inline="always")
def reveal_nb(state, seat, params):
    """R9: expert's rule (the best take now against the expected best take after one more
    card, in florins) with the shipped tuned expert's parameters for the rules and player
    count, its reveal margin moved by ``reveal_margin``."""
    variant = 1 if big_bonus_active_nb(state) else 0  # R19: the rules' row of the tuned table
    tuned = tuned_params_nb()[variant, state.rules[RULE_PLAYERS], EXPERT]

    return expert_reveal_nb(state, seat, (tuned[0], tuned[1], tuned[2], tuned[3] + params[REVEAL_MARGIN], tuned[4],
                                          tuned[5], tuned[6], tuned[7]))


assert EXPERT_REVEAL_MARGIN == 3  # reveal_nb moves expert's 4th parameter


@njit(inline="always")
def take_nb(state, seat, params):
    """R10: the legal take whose position is worth most."""
    return best_take_nb(state, seat, window_nb(state), weights_table_nb()[state.rules[RULE_PLAYERS]],
                        look_nb(state, seat))[1]


@njit
def label_decision_nb(decision, buffer, state, seat, search_params, features, values):
    """Training rows (study.strong_training) of an R10 take with a choice: each legal take's
    position features and its mean outcome over search's rollouts (``search_params``; common
    random numbers: the takes are compared on the same deals); returns how many rows."""
    if decision != TAKE_DECISION:
        return 0
    actions = np.zeros(MAX_TAKES, np.int64)
    count = legal_takes_nb(state, seat, actions)
    if count < 2:
        return 0
    rollouts = np.int64(search_params[0])
    outcomes = np.empty((MAX_TAKES, rollouts))
    rollout_values_nb(buffer, state, seat, search_params, actions, count, True, outcomes)
    cards = window_nb(state)
    look = look_nb(state, seat)
    for a in range(count):
        take_features_nb(state, seat, cards, actions[a], look)
        features[a] = look[2]
        values[a] = outcomes[a].mean()
    return count


STRATEGY = Strategy(
    name="strong",
    decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
    params={"reveal_margin": Param(0, -30, 30, help="florins added to the tuned expert's reveal margin")},
    summary="Takes what a learned evaluation (fitted to search's rollouts) rates best; reveals as tuned expert.",
    fitted_to=VARIANTS,  # its weights were trained on expert games under these rules (scripts/train_strong.py)
)
