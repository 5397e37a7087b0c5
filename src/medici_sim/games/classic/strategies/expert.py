"""``expert`` (v3 draft): worth of a lot in florins, fast; rivals modelled by observed bids."""
import math

from numba import njit

from ..rules import HOLDS, N_GOODS, RULE_PLAYERS, TRACK_MAX
from ..state import (
    AUCTIONEER,
    DAY,
    DAY_ID,
    DECK_LEN,
    GOLD_ROW,
    HIGHEST,
    LOT_LEN,
    LOT_VALUE,
    TURN_ID,
    UNSEEN,
    UNSEEN_CARDS,
    UNSEEN_VALUE,
)
from . import Param, Strategy, register

MARGIN, FUTURE, PROGRESS, SPREAD, HOLD_PRICE, RIVAL_PAY, MONEY_WEIGHT, DRAW_MARGIN = range(8)

CARD_VAR = 7.5  # variance of a card's value over the 36 cards (C2)
GOOD_VAR = 0.16  # q (1 - q) for q ~ 7/36, the chance that an unseen card is of a given good
LOT_POINTS_PER_CARD = 2.0  # a lot's size for the rival model: its value plus this per card
RATIO_PRIOR = 0.8
RATIO_RATE = 0.2

# scratch row
VERSION_KEY, DAY_KEY, SEEN_KEY, W_MAJ, MONEY, FILL, Q_SCALE, MEAN, CARD_KEY, CARD_WORTH, PAY0, INV_UNSEEN = range(12)
LEVEL_AT = 12  # 8 levels
INV_SHIP = LEVEL_AT + 8  # by total free holds 0..10
INV_GOODS = INV_SHIP + 11
RATIO_AT = INV_GOODS + 11  # by seat
THEIRS_AT = RATIO_AT + 6  # by seat: projected final ship value
assert THEIRS_AT + 6 <= 64


@njit(cache=True, error_model="numpy")
def prepare_day_nb(state, seat, params):
    sc = state.scratch
    later = 2 - state.counts[DAY]
    sc[seat, W_MAJ] = 1.0 + params[FUTURE] * later
    sc[seat, MONEY] = 1.0 / (1.0 + params[MONEY_WEIGHT] * later)
    for level in range(TRACK_MAX + 1):
        sc[seat, LEVEL_AT + level] = (state.track_bonus[level] * (1.0 + later)
                                      + params[PROGRESS] * later * level * level * 0.2)
    for f in range(2 * HOLDS + 1):
        sc[seat, INV_SHIP + f] = 0.5 / (0.5 + params[SPREAD] * math.sqrt(CARD_VAR * f))
        sc[seat, INV_GOODS + f] = 0.5 / (0.5 + params[SPREAD] * math.sqrt(GOOD_VAR * f))
    if state.counts[DAY] == 0:
        for p in range(6):
            sc[seat, RATIO_AT + p] = RATIO_PRIOR
    sc[seat, DAY_KEY] = state.counts[DAY_ID]


@njit(cache=True, error_model="numpy")
def prepare_nb(state, seat, params):
    """Refresh the caches: per day, and per version of the ships (a sale changes them)."""
    players = state.rules[RULE_PLAYERS]
    loaded = 0
    for p in range(players):
        loaded += state.ship_len[p]
    version = state.counts[DAY_ID] * 64 + loaded
    if state.scratch[seat, VERSION_KEY] == version:
        return
    if state.scratch[seat, DAY_KEY] != state.counts[DAY_ID]:
        prepare_day_nb(state, seat, params)
    free = players * HOLDS - loaded
    unseen = state.counts[UNSEEN]
    value = 0
    for row in range(GOLD_ROW + 1):
        value += state.unseen[row, UNSEEN_VALUE]
    phi = min(1.0, state.counts[DECK_LEN] / free) if free > 0 else 1.0
    mean = value / unseen if unseen > 0 else 0.0
    fill = mean * phi
    state.scratch[seat, MEAN] = mean
    state.scratch[seat, FILL] = fill
    state.scratch[seat, Q_SCALE] = phi / unseen if unseen > 0 else 0.0
    state.scratch[seat, INV_UNSEEN] = 1.0 / unseen if unseen > 0 else 0.0
    mine = HOLDS - state.ship_len[seat]
    x0 = state.ship_value[seat] + mine * fill
    b0 = 0.0
    for o in range(players):
        fo = HOLDS - state.ship_len[o]
        theirs = state.ship_value[o] + fo * fill
        state.scratch[seat, THEIRS_AT + o] = theirs
        if o != seat:
            b0 += clamp01(0.5 + (x0 - theirs) * state.scratch[seat, INV_SHIP + mine + fo])
    state.scratch[seat, PAY0] = ship_pay_nb(state, players, b0)
    state.scratch[seat, VERSION_KEY] = version


@njit(cache=True, error_model="numpy")
def observe_nb(state, seat):
    """Learn each rival's bids per lot point from the answers given before this seat speaks."""
    players = state.rules[RULE_PLAYERS]
    auct = state.counts[AUCTIONEER]
    turn = state.counts[TURN_ID]
    points = state.counts[LOT_VALUE] + LOT_POINTS_PER_CARD * state.counts[LOT_LEN]
    if state.scratch[seat, SEEN_KEY] == turn:
        return
    state.scratch[seat, SEEN_KEY] = turn
    running = 0
    other = auct
    for _ in range(players - 1):
        other += 1
        if other == players:
            other = 0
        if other == seat:
            break
        b = state.turn_bid[other]
        if b < 0:
            continue
        r = state.scratch[seat, RATIO_AT + other]
        if b > 0:
            state.scratch[seat, RATIO_AT + other] = r + RATIO_RATE * (b / points - r)
        elif r * points > running:
            state.scratch[seat, RATIO_AT + other] = r + RATIO_RATE * (running / points - r)
        running = max(running, b)


@njit(cache=True, error_model="numpy", inline="always")
def clamp01(x):
    return min(1.0, max(0.0, x))


@njit(cache=True, error_model="numpy", inline="always")
def ship_pay_nb(state, players, beaten):
    """C13 payout at a fractional place (players - 1 - beaten), interpolated between places."""
    place = (players - 1) - beaten
    k = min(int(place), players - 2)
    here = state.ship_payouts[k]
    return here + (place - k) * (state.ship_payouts[k + 1] - here)


@njit(cache=True, error_model="numpy", inline="always")
def ship_gain_nb(state, seat, players, value, left):
    """Expected change of the seat's C13 payout when ``value`` points join its ship and it is
    left with ``left`` holds to fill (against the cached projections of the other ships)."""
    x1 = state.ship_value[seat] + value + left * state.scratch[seat, FILL]
    b1 = 0.0
    for o in range(players):
        if o != seat:
            b1 += clamp01(0.5 + (x1 - state.scratch[seat, THEIRS_AT + o])
                          * state.scratch[seat, INV_SHIP + left + HOLDS - state.ship_len[o]])
    return ship_pay_nb(state, players, b1) - state.scratch[seat, PAY0]


@njit(cache=True, error_model="numpy")
def goods_gain_nb(state, seat, players, good, e, free, left):
    """Expected change of the seat's C15 majority and C16 bonus in ``good`` (today and later)
    with ``e`` more cards of it, left with ``left`` of its ``free`` holds."""
    q = state.unseen[good, UNSEEN_CARDS] * state.scratch[seat, Q_SCALE]
    level = min(TRACK_MAX, state.track[seat, good] + state.ship_goods[seat, good])
    after = min(TRACK_MAX, level + e)
    m0 = level + free * q
    m1 = after + left * q
    b0 = 0.0
    b1 = 0.0
    for o in range(players):
        if o != seat:
            fo = HOLDS - state.ship_len[o]
            theirs = min(TRACK_MAX, state.track[o, good] + state.ship_goods[o, good]) + fo * q
            b0 += clamp01(0.5 + (m0 - theirs) * state.scratch[seat, INV_GOODS + free + fo])
            b1 += clamp01(0.5 + (m1 - theirs) * state.scratch[seat, INV_GOODS + left + fo])
    maj = max(0.0, 10.0 - 5.0 * ((players - 1) - b1)) - max(0.0, 10.0 - 5.0 * ((players - 1) - b0))
    return maj * state.scratch[seat, W_MAJ] + state.scratch[seat, LEVEL_AT + after] - state.scratch[seat, LEVEL_AT + level]


@njit(cache=True, error_model="numpy")
def worth_nb(state, seat, params):
    """Florins the current lot is worth to ``seat``."""
    players = state.rules[RULE_PLAYERS]
    cards = state.counts[LOT_LEN]
    free = HOLDS - state.ship_len[seat]
    left = free - cards
    gain = ship_gain_nb(state, seat, players, state.counts[LOT_VALUE], left)
    g0 = state.card_good[state.lot[0]]
    g1 = state.card_good[state.lot[1]] if cards > 1 else -1
    g2 = state.card_good[state.lot[2]] if cards > 2 else -1
    if g0 >= 0:
        gain += goods_gain_nb(state, seat, players, g0, 1 + (g1 == g0) + (g2 == g0), free, left)
    if g1 >= 0 and g1 != g0:
        gain += goods_gain_nb(state, seat, players, g1, 1 + (g2 == g1), free, left)
    if g2 >= 0 and g2 != g0 and g2 != g1:
        gain += goods_gain_nb(state, seat, players, g2, 1, free, left)
    return (gain + cards * params[HOLD_PRICE]) * state.scratch[seat, MONEY]


@njit(cache=True, error_model="numpy")
def card_worth_nb(state, seat, params):
    """Florins an unseen card is worth to the seat on average as a one-card lot (once a turn)."""
    if state.scratch[seat, CARD_KEY] == state.scratch[seat, VERSION_KEY]:
        return state.scratch[seat, CARD_WORTH]
    players = state.rules[RULE_PLAYERS]
    free = HOLDS - state.ship_len[seat]
    gain = ship_gain_nb(state, seat, players, state.scratch[seat, MEAN], free - 1)
    total = 0.0
    for good in range(N_GOODS):
        n = state.unseen[good, UNSEEN_CARDS]
        if n > 0:
            total += n * goods_gain_nb(state, seat, players, good, 1, free, free - 1)
    worth = (gain + total * state.scratch[seat, INV_UNSEEN] + params[HOLD_PRICE]) * state.scratch[seat, MONEY]
    state.scratch[seat, CARD_KEY] = state.scratch[seat, VERSION_KEY]
    state.scratch[seat, CARD_WORTH] = worth
    return worth


@njit(cache=True, error_model="numpy")
def need_nb(state, seat, order, cards, points, params):
    """The most the seats speaking after bid-order position ``order`` are expected to pay."""
    players = state.rules[RULE_PLAYERS]
    o = seat
    need = 0.0
    for _ in range(order + 1, players):
        o += 1
        if o >= players:
            o -= players
        if HOLDS - state.ship_len[o] >= cards:
            need = max(need, min(state.money[o], state.scratch[seat, RATIO_AT + o] * points))
    return need * params[RIVAL_PAY]


@njit(cache=True, error_model="numpy")
def bid_nb(state, seat, params):
    prepare_nb(state, seat, params)
    observe_nb(state, seat)
    v = min(worth_nb(state, seat, params) - params[MARGIN], state.money[seat])
    highest = state.counts[HIGHEST]
    if v < highest + 1:
        return 0
    players = state.rules[RULE_PLAYERS]
    order = seat - state.counts[AUCTIONEER] - 1
    if order < 0:
        order += players
    if order == players - 1:
        return highest + 1
    cards = state.counts[LOT_LEN]
    need = need_nb(state, seat, order, cards, state.counts[LOT_VALUE] + LOT_POINTS_PER_CARD * cards, params)
    bid = math.floor(need) + 1
    if bid > v:
        bid = math.floor(v)
    return max(highest + 1, int(bid))


@njit(cache=True, error_model="numpy")
def draw_nb(state, seat, params):
    """Draw while the lot is worth less to it per card than an unseen card, by a margin."""
    prepare_nb(state, seat, params)
    cards = state.counts[LOT_LEN]
    if HOLDS - state.ship_len[seat] <= cards:
        return False
    return worth_nb(state, seat, params) < cards * (card_worth_nb(state, seat, params) - params[DRAW_MARGIN])


register(Strategy(
    name="expert",
    decisions={"draw_nb": draw_nb, "bid_nb": bid_nb},
    params={
        "margin": Param(2, -20, 20, help="florins of profit it wants from a lot"),
        "future": Param(0.3, 0, 2, help="weight of each later day's majority"),
        "progress": Param(0.0, 0, 3, help="weight of progress towards the track bonuses"),
        "spread": Param(1.25, 0, 5, help="uncertainty of projections, in standard deviations"),
        "hold_price": Param(0, -10, 10, help="florins a hold used now saves on later lots"),
        "rival_pay": Param(1.0, 0, 3, help="scale of the rivals' observed bids per lot point"),
        "money_weight": Param(1.0, 0, 3, help="extra worth of a florin per later day"),
        "draw_margin": Param(3, -20, 20, help="florins per card a draw must gain"),
    },
    summary="Estimates each lot's worth in florins (ship rank, tracks, days left) and bids just above rivals.",
))
