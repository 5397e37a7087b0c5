"""``expert``: for each legal choice, estimates the florins it expects at the day's end.

The estimate of taking a set of cards has two parts:

- **Ship** (R13, R14): the ship's projected final value (its value now, plus each free
  place filled with the mean value of an unseen non-green card) against each opponent's
  projection, compared softly (within ``spread`` points a linear slope from 0 to 1 instead
  of a step), read off the payout table at the resulting expected place.
- **Goods** (R15, R17-R19): for each good, the majority payout against the opponents'
  current warehouses and ships, ties shared as in R15, plus the bonus of the active rules;
  counted for today and, weighted by ``future_weight``, for each day left; plus, for the
  days to come, ``progress_weight`` times the share of the bonus thresholds reached.

To reveal or not: the best take now against the expected best take after one more card.
The deck's composition is public (everything else is face up), so the new card is
averaged over the unseen cards, split into green and non-green (does it cost a place?).
"""
from numba import njit

from ..engine import (
    DAY,
    MARKET_LEN,
    UNSEEN_CARDS,
    UNSEEN_ICONS,
    UNSEEN_VALUE,
    fits_nb,
    market_card_nb,
    takes_space_nb,
)
from ..rules import (
    DAYS,
    MAJORITY_PAYOUTS,
    N_GOODS,
    RULE_BIG_BONUS,
    RULE_BIG_BONUS_MIN,
    RULE_BONUS,
    RULE_BONUS_MIN,
    RULE_CAPACITY,
    RULE_PLAYERS,
)
from . import Param, Strategy, register

SPREAD, FUTURE_WEIGHT, PROGRESS_WEIGHT, REVEAL_MARGIN = range(4)
NONE = -1  # no card


@njit(cache=True)
def fill_value_nb(state):
    """Mean value of an unseen non-green card: what a free ship place is expected to bring."""
    row = state.unseen[0]
    return row[UNSEEN_VALUE] / row[UNSEEN_CARDS] if row[UNSEEN_CARDS] > 0 else 0.0


@njit(cache=True)
def ship_estimate_nb(state, seat, final_value, fill, spread):
    """Expected ship payout (R14) if this seat's ship ends at ``final_value``."""
    players = state.rules[RULE_PLAYERS]
    capacity = state.rules[RULE_CAPACITY]
    beaten = 0.0
    for other in range(players):
        if other != seat:
            theirs = state.ship_value[other] + (capacity - state.ship_used[other]) * fill
            beaten += min(1.0, max(0.0, 0.5 + (final_value - theirs) / (2.0 * spread)))
    place = (players - 1) - beaten  # 0 = first
    k = int(place)
    here = state.ship_payouts[k]
    below = state.ship_payouts[k + 1] if k + 1 < players else 0
    return here + (place - k) * (below - here)


@njit(cache=True)
def goods_estimate_nb(state, seat, good, icons, params):
    """Florins expected from ``good`` if this seat held ``icons`` of it (R15, R17-R19)."""
    above = 0
    tied = 0
    for other in range(state.rules[RULE_PLAYERS]):
        if other != seat:
            theirs = state.warehouse_icons[other, good] + state.ship_icons[other, good]
            if theirs > icons:
                above += 1
            elif theirs == icons:
                tied += 1
    majority = 0
    if icons > 0:
        total = 0
        for place in range(above, min(above + tied + 1, len(MAJORITY_PAYOUTS))):
            total += MAJORITY_PAYOUTS[place]
        majority = total // (tied + 1) // 5 * 5
    bonus_min = state.rules[RULE_BONUS_MIN]
    big_min = state.rules[RULE_BIG_BONUS_MIN]
    bonus = 0
    if icons >= big_min:
        bonus = state.rules[RULE_BIG_BONUS]
    elif icons >= bonus_min:
        bonus = state.rules[RULE_BONUS]
    later_days = DAYS - 1 - state.counts[DAY]
    value = (majority + bonus) * (1.0 + params[FUTURE_WEIGHT] * later_days)
    if later_days > 0:
        progress = state.rules[RULE_BONUS] * min(icons, bonus_min) / bonus_min
        if big_min < 1 << 32:  # bonus20: the way on to the big bonus counts too
            progress += (state.rules[RULE_BIG_BONUS] - state.rules[RULE_BONUS]) * min(icons, big_min) / big_min
        value += params[PROGRESS_WEIGHT] * later_days * progress
    return value


@njit(cache=True)
def held_nb(state, seat, good):
    return state.warehouse_icons[seat, good] + state.ship_icons[seat, good]


@njit(cache=True)
def cards_goods_gain_nb(state, seat, a, b, c, params):
    """Goods florins gained by taking cards a, b, c (NONE for no card), goods counted jointly."""
    gain = 0.0
    for i in range(3):
        card = a if i == 0 else (b if i == 1 else c)
        if card == NONE or state.card_good[card] < 0:
            continue
        good = state.card_good[card]
        if (i >= 1 and a != NONE and state.card_good[a] == good) or (
                i == 2 and b != NONE and state.card_good[b] == good):
            continue  # counted with the earlier card of the same good
        icons = 0
        for other in (a, b, c):
            if other != NONE and state.card_good[other] == good:
                icons += state.card_icons[other]
        held = held_nb(state, seat, good)
        gain += (goods_estimate_nb(state, seat, good, held + icons, params)
                 - goods_estimate_nb(state, seat, good, held, params))
    return gain


@njit(cache=True)
def take_gain_nb(state, seat, a, b, c, extra_value, extra_space, extra_goods, fill, params):
    """Florins gained by taking cards a, b, c plus an expected card (value, space, goods gain)."""
    value = extra_value
    space = extra_space
    for card in (a, b, c):
        if card != NONE:
            value += state.card_value[card]
            space += takes_space_nb(state, card)
    free = state.rules[RULE_CAPACITY] - state.ship_used[seat]
    now = state.ship_value[seat]
    spread = params[SPREAD]
    ship = (ship_estimate_nb(state, seat, now + value + (free - space) * fill, fill, spread)
            - ship_estimate_nb(state, seat, now + free * fill, fill, spread))
    return ship + cards_goods_gain_nb(state, seat, a, b, c, params) + extra_goods


@njit(cache=True)
def best_take_nb(state, seat, forced, near, far, extra_value, extra_space, extra_goods, fill, params):
    """(best gain, choice bits) over the legal takes: ``forced`` (or the expected card), plus
    ``near`` (bit 0) and/or ``far`` (bit 1) where they exist and fit (R10)."""
    pending = extra_space + (takes_space_nb(state, forced) if forced != NONE else 0)
    best = take_gain_nb(state, seat, forced, NONE, NONE, extra_value, extra_space, extra_goods, fill, params)
    choice = 0
    near_fits = near != NONE and fits_nb(state, seat, near, pending)
    far_fits = far != NONE and fits_nb(state, seat, far, pending)
    if near_fits:
        gain = take_gain_nb(state, seat, forced, near, NONE, extra_value, extra_space, extra_goods, fill, params)
        if gain > best:
            best, choice = gain, 1
    if far_fits:
        gain = take_gain_nb(state, seat, forced, far, NONE, extra_value, extra_space, extra_goods, fill, params)
        if gain > best:
            best, choice = gain, 2
    if near_fits and fits_nb(state, seat, far, pending + takes_space_nb(state, near)):
        gain = take_gain_nb(state, seat, forced, near, far, extra_value, extra_space, extra_goods, fill, params)
        if gain > best:
            best, choice = gain, 3
    return best, choice


@njit(cache=True)
def mean_card_goods_gain_nb(state, seat, green, params):
    """Goods florins an unseen card of this kind (green or not) brings on average."""
    row = state.unseen[green]
    if row[UNSEEN_CARDS] == 0:
        return 0.0
    gain = 0.0
    for good in range(N_GOODS):
        one = row[UNSEEN_ICONS + 2 * good]
        two = row[UNSEEN_ICONS + 2 * good + 1]
        if one + two == 0:
            continue
        held = held_nb(state, seat, good)
        base = goods_estimate_nb(state, seat, good, held, params)
        if one > 0:
            gain += one * (goods_estimate_nb(state, seat, good, held + 1, params) - base)
        if two > 0:
            gain += two * (goods_estimate_nb(state, seat, good, held + 2, params) - base)
    return gain / row[UNSEEN_CARDS]


@njit(cache=True)
def reveal_nb(state, seat, params):
    """Reveal if the expected best take after one more card beats the best take now."""
    fill = fill_value_nb(state)
    last, second, third = market_card_nb(state, 1), market_card_nb(state, 2), market_card_nb(state, 3)
    now, _ = best_take_nb(state, seat, last, second, third, 0.0, 0, 0.0, fill, params)
    unseen = state.unseen[0, UNSEEN_CARDS] + state.unseen[1, UNSEEN_CARDS]
    after = 0.0
    for green in range(2):
        row = state.unseen[green]
        if row[UNSEEN_CARDS] == 0:
            continue
        mean_value = row[UNSEEN_VALUE] / row[UNSEEN_CARDS]
        goods = mean_card_goods_gain_nb(state, seat, green, params)
        # the new card must be taken (R10); the old last and 2nd-from-last stay within reach
        gain, _ = best_take_nb(state, seat, NONE, last, second, mean_value, 1 - green, goods, fill, params)
        after += row[UNSEEN_CARDS] / unseen * gain
    return after > now + params[REVEAL_MARGIN]


@njit(cache=True)
def take_nb(state, seat, params):
    _, choice = best_take_nb(state, seat, market_card_nb(state, 1), market_card_nb(state, 2),
                             market_card_nb(state, 3), 0.0, 0, 0.0, fill_value_nb(state), params)
    return choice


register(Strategy(
    name="expert",
    reveal_nb=reveal_nb,
    take_nb=take_nb,
    params={
        "spread": Param(6, 0.5, 100, help="ship values this close are graded as uncertain, not ranked"),
        "future_weight": Param(0.7, 0, 2, help="weight of each later day's majority and bonus"),
        "progress_weight": Param(0.5, 0, 2, help="weight of progress towards the bonus thresholds"),
        "reveal_margin": Param(0.5, -100, 100, help="florins a reveal must gain on average to be worth it"),
    },
    summary="Estimates the florins each choice brings (ship rank, majorities, bonuses, days left, unseen cards).",
))
