"""``expert``: for each legal choice, estimates the florins it expects at the day's end.

The estimate of taking a set of cards has two parts:

- **Ship** (R13, R14): the ship's projected final value (its value now, plus each free
  place filled with the mean value of an unseen non-green card) against each opponent's
  projection, compared softly (within ``spread`` points a linear slope from 0 to 1 instead
  of a step), read off the payout table at the resulting expected place.
- **Goods** (R15, R17-R19): for each good, the majority payout against the opponents'
  current warehouses and ships, ties shared as in R15, plus the bonus of the active rules;
  counted for today and, weighted by ``future_weight``, for each day left; plus, for the
  days to come, ``progress_weight`` times the bonus scaled by the square of the share of
  its threshold reached (square: nearly there is worth much more than halfway, which
  makes it concentrate on goods the way a collector does when that pays).

To reveal or not: the best take now against the expected best take after one more card.
The deck's composition is public (everything else is face up), so the new card is
averaged over the unseen cards, split into green and non-green (does it cost a place?).

Speed: goods values only change when somebody takes cards, so they are computed once a
turn (for 0, 1 and 2 more icons of each good) and kept in the seat's scratch row; what
depends only on the day (the weights, and the bonus and progress of each icon count) is
computed once a day. The small per-card helpers are inlined by numba (``inline="always"``):
they run several times a decision, and a call cost about as much as their bodies (measured:
4% of a game's cycles; inlining the larger helpers as well made it slower).
"""
from numba import njit

from ....core.registry import Param, Strategy
from ..deck import MAX_CARDS
from ..rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_GOODS,
    RULE_BIG_BONUS,
    RULE_BIG_BONUS_MIN,
    RULE_BONUS,
    RULE_BONUS_MIN,
    RULE_CAPACITY,
    RULE_DAYS,
    RULE_PLAYERS,
    big_bonus_threshold,
    bonus_threshold,
)
from ..state import (
    DAY,
    DAY_ID,
    MARKET_LEN,
    SCRATCH_WIDTH,
    TURN_ID,
    UNSEEN_CARDS,
    UNSEEN_ICONS,
    UNSEEN_VALUE,
    fits_nb,
    market_card_nb,
    takes_space_nb,
)
from .common import big_bonus_active_nb, held_icons_nb

SPREAD, FUTURE_WEIGHT, PROGRESS_WEIGHT, REVEAL_MARGIN = range(4)
NONE = -1  # no card
# The seat's scratch row. Per turn (nothing but the unseen cards changes until the seat
# takes; the fill value is taken at the turn's first decision):
CACHED_TURN = 0  # the turn the values below were computed for
CHOICE_KEY, CHOICE = 1, 2  # reveal_nb's best take when it declined to reveal (key: turn id, market size)
FILL, SLOPE = 3, 4  # fill_value_nb and ship_slope_nb
GOODS_AT = 5  # value of each good with 0, 1, 2 more icons (3 per good)
SHIPS_AT = GOODS_AT + 3 * N_GOODS  # each seat's projected final ship value
# Per day:
CACHED_DAY = SHIPS_AT + MAX_PLAYERS  # the day (engine DAY_ID) the values below were computed for
DAY_WEIGHT = CACHED_DAY + 1  # weight of a majority or bonus held now: today and the days left
INVERSE_SPREAD = CACHED_DAY + 2  # 1 / spread
ICON_COUNTS = 11  # icon counts 0..10 are told apart; from the rulebook's highest threshold on, values stay the same
# (rules with a threshold above 10 icons are played, but the expert does not see the bonus coming)
BONUS_AT = CACHED_DAY + 3  # the bonus (R18, R19) of each icon count
PROGRESS_AT = BONUS_AT + ICON_COUNTS  # the weighted progress towards the thresholds of each icon count
assert PROGRESS_AT + ICON_COUNTS <= SCRATCH_WIDTH
assert all(big_bonus_threshold(p) < ICON_COUNTS for p in range(MIN_PLAYERS, MAX_PLAYERS + 1))
assert all(bonus_threshold(p) < ICON_COUNTS for p in range(MIN_PLAYERS, MAX_PLAYERS + 1))


@njit(cache=True, error_model="numpy")
def prepare_day_nb(state, seat, params):
    """Fill the per-day part of the seat's scratch row."""
    later_days = state.rules[RULE_DAYS] - 1 - state.counts[DAY]
    bonus = state.rules[RULE_BONUS]
    bonus_min = state.rules[RULE_BONUS_MIN]
    big_min = state.rules[RULE_BIG_BONUS_MIN]
    bonus_step = bonus / bonus_min ** 2
    big_step = 0.0
    if big_bonus_active_nb(state):  # bonus20: the way on to the big bonus counts too
        big_step = (state.rules[RULE_BIG_BONUS] - bonus) / big_min ** 2
    progress_weight = params[PROGRESS_WEIGHT] * later_days
    for icons in range(ICON_COUNTS):
        paid = 0
        if icons >= big_min:
            paid = state.rules[RULE_BIG_BONUS]
        elif icons >= bonus_min:
            paid = bonus
        state.scratch[seat, BONUS_AT + icons] = paid
        state.scratch[seat, PROGRESS_AT + icons] = progress_weight * (
            bonus_step * min(icons, bonus_min) ** 2 + big_step * min(icons, big_min) ** 2)
    state.scratch[seat, DAY_WEIGHT] = 1.0 + params[FUTURE_WEIGHT] * later_days
    state.scratch[seat, INVERSE_SPREAD] = 1.0 / params[SPREAD]
    state.scratch[seat, CACHED_DAY] = state.counts[DAY_ID]


@njit(cache=True, error_model="numpy")
def goods_value_nb(state, seat, icons, above, tied):
    """Florins expected from a good held with ``icons`` icons, ``above`` opponents holding more
    and ``tied`` as many: majority (R15, R17) and bonus (R18, R19) today and on later days, and
    progress towards the bonus thresholds for the days to come (quadratic)."""
    majority = state.majority_share[above, tied] if icons > 0 else 0
    counted = min(icons, ICON_COUNTS - 1)
    return ((majority + state.scratch[seat, BONUS_AT + counted]) * state.scratch[seat, DAY_WEIGHT]
            + state.scratch[seat, PROGRESS_AT + counted])


@njit(cache=True, error_model="numpy")
def goods_value_holding_nb(state, seat, good, icons):
    """Florins expected from ``good`` if this seat held ``icons`` of it."""
    above = 0
    tied = 0
    for other in range(state.rules[RULE_PLAYERS]):
        if other != seat:
            theirs = held_icons_nb(state, other, good)
            above += theirs > icons
            tied += theirs == icons
    return goods_value_nb(state, seat, icons, above, tied)


@njit(cache=True, error_model="numpy")
def prepare_nb(state, seat, params):
    """Fill the seat's scratch row with this turn's values (at its first decision)."""
    if state.scratch[seat, CACHED_TURN] == state.counts[TURN_ID]:
        return
    if state.scratch[seat, CACHED_DAY] != state.counts[DAY_ID]:
        prepare_day_nb(state, seat, params)
    players = state.rules[RULE_PLAYERS]
    for good in range(N_GOODS):
        held = held_icons_nb(state, seat, good)
        # One pass over the opponents for 0, 1 and 2 more icons: count them by how many
        # more they hold (-1 or fewer, 0, 1, 2, 3 or more), one 8-bit lane per count.
        lanes = 0
        for other in range(players):
            if other != seat:
                lanes += 1 << (8 * min(max(held_icons_nb(state, other, good) - held + 1, 0), 4))
        tied0, tied1, tied2 = (lanes >> 8) & 255, (lanes >> 16) & 255, (lanes >> 24) & 255
        above2 = lanes >> 32
        at = GOODS_AT + 3 * good
        state.scratch[seat, at] = goods_value_nb(state, seat, held, tied1 + tied2 + above2, tied0)
        state.scratch[seat, at + 1] = goods_value_nb(state, seat, held + 1, tied2 + above2, tied1)
        state.scratch[seat, at + 2] = goods_value_nb(state, seat, held + 2, above2, tied2)
    fill = fill_value_nb(state)
    capacity = state.rules[RULE_CAPACITY]
    for other in range(players):
        state.scratch[seat, SHIPS_AT + other] = state.ship_value[other] + (capacity - state.ship_used[other]) * fill
    state.scratch[seat, FILL] = fill
    state.scratch[seat, SLOPE] = ship_slope_nb(state, seat, fill, params)
    state.scratch[seat, CACHED_TURN] = state.counts[TURN_ID]


@njit(cache=True, error_model="numpy")
def fill_value_nb(state):
    """Mean value of an unseen non-green card: what a free ship place is expected to bring."""
    cards = state.unseen[0, UNSEEN_CARDS]
    return state.unseen[0, UNSEEN_VALUE] / cards if cards > 0 else 0.0


@njit(cache=True, error_model="numpy")
def ship_payout_nb(state, beaten):
    """Expected ship payout (R14) of a ship expected to beat ``beaten`` others (fractional)."""
    players = state.rules[RULE_PLAYERS]
    place = (players - 1) - beaten  # 0 = first
    k = int(place)
    here = state.ship_payouts[k]
    below = state.ship_payouts[k + 1] if k + 1 < players else 0
    return here + (place - k) * (below - here)


@njit(cache=True, error_model="numpy", inline="always")
def goods_gain_nb(state, seat, good, icons):
    """Goods florins gained by ``icons`` more of ``good``."""
    base = state.scratch[seat, GOODS_AT + 3 * good]
    if icons <= 2:
        return state.scratch[seat, GOODS_AT + 3 * good + icons] - base
    return goods_value_holding_nb(state, seat, good, held_icons_nb(state, seat, good) + icons) - base


@njit(cache=True, error_model="numpy")
def ship_slope_nb(state, seat, fill, params):
    """Expected ship florins per point of final ship value, around this seat's projection.

    A secant over +-``spread``/2 points: the soft ranking is piecewise linear, so this
    keeps the jumps a valuable card brings while letting every choice be priced by
    adding up its cards.
    """
    free = state.rules[RULE_CAPACITY] - state.ship_used[seat]
    projected = state.ship_value[seat] + free * fill
    half = 0.5 * params[SPREAD]
    high = projected + half
    low = projected - half
    slope = 0.5 * state.scratch[seat, INVERSE_SPREAD]  # from 0 to 1 beaten over one spread
    beaten_high = beaten_low = 0.0  # others beaten, graded softly (see the module's docstring)
    for other in range(state.rules[RULE_PLAYERS]):
        if other != seat:
            theirs = state.scratch[seat, SHIPS_AT + other]
            beaten_high += min(1.0, max(0.0, 0.5 + (high - theirs) * slope))
            beaten_low += min(1.0, max(0.0, 0.5 + (low - theirs) * slope))
    rise = ship_payout_nb(state, beaten_high) - ship_payout_nb(state, beaten_low)
    return rise * state.scratch[seat, INVERSE_SPREAD]  # over high - low = spread


@njit(cache=True, error_model="numpy", inline="always")
def card_gain_nb(state, seat, card, fill, slope):
    """Florins one card brings: its value replaces an expected fill if it takes a place."""
    gain = slope * (state.card_value[card] - takes_space_nb(state, card) * fill)
    good = state.card_good[card]
    if good >= 0:
        gain += goods_gain_nb(state, seat, good, state.card_icons[card])
    return gain


@njit(cache=True, error_model="numpy", inline="always")
def same_good_nb(state, a, b):
    return a != NONE and b != NONE and state.card_good[a] >= 0 and state.card_good[a] == state.card_good[b]


@njit(cache=True, error_model="numpy")
def joint_correction_nb(state, seat, cards_a, cards_b, card_c):
    """What taking cards of one good together adds beyond their separate goods gains
    (crossing a bonus threshold or a rival's count together is worth more than apart)."""
    good = state.card_good[cards_a]
    icons = state.card_icons[cards_a] + state.card_icons[cards_b]
    separate = (goods_gain_nb(state, seat, good, state.card_icons[cards_a])
                + goods_gain_nb(state, seat, good, state.card_icons[cards_b]))
    if card_c != NONE:
        icons += state.card_icons[card_c]
        separate += goods_gain_nb(state, seat, good, state.card_icons[card_c])
    return goods_gain_nb(state, seat, good, icons) - separate


@njit(cache=True, error_model="numpy", inline="always")
def pair_correction_nb(state, seat, a, b):
    """joint_correction_nb of cards ``a`` and ``b`` if they are of one good, else 0."""
    return joint_correction_nb(state, seat, a, b, NONE) if same_good_nb(state, a, b) else 0.0


@njit(cache=True, error_model="numpy")
def best_take_nb(state, seat, forced, forced_gain, forced_space, near, near_gain, far, far_gain):
    """(best gain, choice bits): take ``forced`` (NONE: an expected card, given by its gain and
    space) plus ``near`` (bit 0) and/or ``far`` (bit 1) where they exist and fit (R10).
    The gains are card_gain_nb's; cards of one good taken together are priced jointly."""
    near_fits = near != NONE and fits_nb(state, seat, near, forced_space)
    far_fits = far != NONE and fits_nb(state, seat, far, forced_space)
    near_joint = pair_correction_nb(state, seat, forced, near) if near_fits else 0.0
    far_joint = pair_correction_nb(state, seat, forced, far) if far_fits else 0.0
    best = forced_gain
    choice = 0
    if near_fits:
        gain = forced_gain + near_gain + near_joint
        if gain > best:
            best, choice = gain, 1
    if far_fits:
        gain = forced_gain + far_gain + far_joint
        if gain > best:
            best, choice = gain, 2
    if near_fits and far_fits and fits_nb(state, seat, far, forced_space + takes_space_nb(state, near)):
        gain = forced_gain + near_gain + far_gain
        if same_good_nb(state, near, far):
            third = forced if same_good_nb(state, forced, near) else NONE
            gain += joint_correction_nb(state, seat, near, far, third)
        else:
            gain += near_joint
            gain += far_joint
        if gain > best:
            best, choice = gain, 3
    return best, choice


@njit(cache=True, error_model="numpy")
def mean_card_gain_nb(state, seat, green):
    """Florins an unseen card of this kind (green or not) brings on average."""
    gain = 0.0
    for good in range(N_GOODS):
        base = state.scratch[seat, GOODS_AT + 3 * good]
        gain += state.unseen[green, UNSEEN_ICONS + 2 * good] * (state.scratch[seat, GOODS_AT + 3 * good + 1] - base)
        gain += state.unseen[green, UNSEEN_ICONS + 2 * good + 1] * (state.scratch[seat, GOODS_AT + 3 * good + 2] - base)
    cards = state.unseen[green, UNSEEN_CARDS]
    places = (1 - green) * cards  # places the cards would take, each giving up a fill
    ship = state.scratch[seat, SLOPE] * (state.unseen[green, UNSEEN_VALUE] - places * state.scratch[seat, FILL])
    return (gain + ship) / cards


@njit(cache=True, error_model="numpy", inline="always")
def window_gain_nb(state, seat, back):
    """card_gain_nb of the card ``back`` places from the market's end (0 if none)."""
    card = market_card_nb(state, back)
    if card == NONE:
        return 0.0
    return card_gain_nb(state, seat, card, state.scratch[seat, FILL], state.scratch[seat, SLOPE])


@njit(cache=True, error_model="numpy")
def reveal_nb(state, seat, params):
    """Reveal if the expected best take after one more card beats the best take now."""
    prepare_nb(state, seat, params)
    last, second, third = market_card_nb(state, 1), market_card_nb(state, 2), market_card_nb(state, 3)
    last_gain, second_gain = window_gain_nb(state, seat, 1), window_gain_nb(state, seat, 2)
    now, choice = best_take_nb(state, seat, last, last_gain, takes_space_nb(state, last),
                               second, second_gain, third, window_gain_nb(state, seat, 3))
    total = state.unseen[0, UNSEEN_CARDS] + state.unseen[1, UNSEEN_CARDS]  # > 0: the deck is not empty
    after = 0.0  # the expected best take after one more card, times total (no division)
    for green in range(2):
        count = state.unseen[green, UNSEEN_CARDS]
        if count > 0:
            # the new card must be taken (R10); the old last and 2nd-from-last stay within reach
            gain, _ = best_take_nb(state, seat, NONE, mean_card_gain_nb(state, seat, green), 1 - green,
                                   last, last_gain, second, second_gain)
            after += count * gain
    if after > (now + params[REVEAL_MARGIN]) * total:
        return True
    state.scratch[seat, CHOICE_KEY] = choice_key_nb(state)
    state.scratch[seat, CHOICE] = choice
    return False


@njit(cache=True, error_model="numpy")
def choice_key_nb(state):
    return state.counts[TURN_ID] * (MAX_CARDS + 1) + state.counts[MARKET_LEN]


@njit(cache=True, error_model="numpy")
def take_nb(state, seat, params):
    prepare_nb(state, seat, params)
    if state.scratch[seat, CHOICE_KEY] == choice_key_nb(state):  # decided when declining to reveal
        return int(state.scratch[seat, CHOICE])
    _, choice = best_take_nb(state, seat, market_card_nb(state, 1), window_gain_nb(state, seat, 1),
                             takes_space_nb(state, market_card_nb(state, 1)), market_card_nb(state, 2),
                             window_gain_nb(state, seat, 2), market_card_nb(state, 3),
                             window_gain_nb(state, seat, 3))
    return choice


STRATEGY = Strategy(
    name="expert",
    decisions={"reveal_nb": reveal_nb, "take_nb": take_nb},
    params={
        "spread": Param(2, 0.5, 20, help="ship values this close are graded as uncertain, not ranked"),
        "future_weight": Param(0.7, 0, 2, help="weight of each later day's majority and bonus"),
        "progress_weight": Param(0.5, 0, 2, help="weight of progress towards the bonus thresholds"),
        "reveal_margin": Param(0, -30, 30, help="florins a reveal must gain on average to be worth it"),
    },
    summary="Estimates the florins each choice brings (ship rank, majorities, bonuses, days left, unseen cards).",
)
