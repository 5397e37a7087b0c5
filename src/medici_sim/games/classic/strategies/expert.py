"""``expert``: what is a lot worth to it in florins, and what will the others pay?

Money is the score (C18), so a lot is worth buying only for less than the florins it is
expected to bring. The estimate of a lot (its *worth*) adds up, in florins:

- **Ship** (C13). Every ship is projected to its final value: its value now plus each
  free hold filled with the mean value of an unseen card (the deck and the removed cards,
  which nobody can tell apart, C5), times the share of free holds the deck can still
  fill. Its place against each rival is graded softly: within about ``spread`` standard
  deviations (which shrink as holds fill) a linear slope from "beaten" to "beats" instead
  of a step; the expected payout is read off the C13 table at the expected place (exact
  for 3 and 4 players, whose payouts fall in equal steps). The lot's ship worth is the
  payout with the lot's cards in its holds, less the payout without them.
- **Goods tracks** (C14-C16). For each good in the lot, its level at the day's end (held +
  aboard + the lot, capped at 7, + its free holds left times the chance that an unseen card
  is of that good) against each rival's (held + aboard + its free holds times that chance),
  graded softly the same way; the majority payout (10 / 5, C15) today and ``future`` times
  it on each later day, the bonus (C16) today and on every later day (levels never fall),
  and ``progress`` times the square of the level for the days to come (nearly there is
  worth much more than halfway).
- **Holds**: ``hold_price`` florins for each hold the lot fills (what a later lot would cost).

The total is divided by 1 + ``money_weight`` * days left: a florin kept early is worth a
little more than a point, as it pays the next days' lots; on day 3 a florin is exactly a
point.

**Bidding** (C9: once around, the auctioneer last). The auctioneer, who speaks last, takes
a lot worth more than the highest bid at the highest bid + 1. Anyone else bids just enough
to beat what the seats still to speak are expected to pay, or, when that is more than the
lot is worth to it, its worth (rounded down), so that whoever takes the lot pays for it.
What a rival will pay is learnt during the game from its bids: each rival's florins per
"lot point" (a lot's value plus 2 per card), 0.8 before it has answered, then moved a fifth
of the way towards each bid it makes before this seat speaks (a pass caps it at the highest
bid it saw), times ``rival_pay``.

**Drawing** (C8). With the same estimates: it draws while its surplus on the lot (its worth
less what the others are expected to pay) is below ``draw_margin`` florins a card, and its
own ship could take the bigger lot: a lot already worth clearly more to it than to the
others is offered as it is; any other is grown, as the auctioneer, who speaks last, takes
a big lot as cheaply as a small one when the others bid little (in self-play, drawing more
won more often).

Speed (about 110,000 games/s per core with four experts; profiled with perf, see
benchmarks/profile_kernel.py). What depends only on the parameters (the grading slopes for
every count of free holds) is computed once a game, what depends on the day (weights, the
bonus and progress of each level) once a day, and what a free hold is expected to bring
once per "version" of the ships (they change only when cards are loaded: a sale or C11),
keyed on the number of cards out of the ships, which stays put between two loads. A lot's
worth is one pass over the rivals, for the ship with and without the lot and for every
good in it at once, and is remembered for the turn, so the auctioneer's bid reuses its last
draw decision's estimate. The small helpers are inlined; no arrays are allocated; no
fastmath (the games must be the same on every machine).
"""
import math

from numba import njit

from ....core.registry import Param, Strategy
from ..rules import (
    MAX_HOLDS,
    MAX_TRACK,
    N_CARDS,
    RULE_DAYS,
    RULE_HOLDS,
    RULE_PLAYERS,
    RULE_REMOVED,
    RULE_TRACK_MAX,
)
from ..state import (
    AUCTIONEER,
    DAY,
    DAY_ID,
    DECK_LEN,
    DISCARD_LEN,
    GOLD_ROW,
    LOT_LEN,
    LOT_VALUE,
    TURN_ID,
    UNSEEN,
    UNSEEN_CARDS,
    UNSEEN_VALUE,
    lowest_bid_nb,
)
from .common import majority_pay_nb

MARGIN, FUTURE, PROGRESS, SPREAD, HOLD_PRICE, RIVAL_PAY, MONEY_WEIGHT, DRAW_MARGIN = range(8)

CARD_VAR = 7.55  # variance of a card's value over the 36 cards (C2): 446/36 - (110/36)**2
GOOD_VAR = 0.16  # q (1 - q) for q ~ 7/36: the chance that an unseen card is of a given good
LOT_POINTS_PER_CARD = 2.0  # a lot's size for the rival model: its value plus this per card
RATIO_PRIOR = 0.8  # florins per lot point a rival is expected to pay before it has bid
RATIO_RATE = 0.2  # weight of each new observation of a rival's bids
MAX_FREE = 2 * MAX_HOLDS  # free holds of two ships together (the slope tables' size - 1)

# The seat's scratch row (cleared before every game).
(VERSION_KEY, DAY_KEY, LOT_KEY, LOT_WORTH, W_MAJ, MONEY, FILL, Q_SCALE) = range(8)

LEVEL_AT = 8  # per day: florins of each track level 0..track_max (bonus today and later, progress)
SLOPE_SHIP = LEVEL_AT + MAX_TRACK + 1  # per game: ship grading slope by free holds of both ships
SLOPE_GOODS = SLOPE_SHIP + MAX_FREE + 1  # per game: track grading slope by free holds of both ships
RATIO_AT = SLOPE_GOODS + MAX_FREE + 1  # per game: each seat's florins per lot point
assert RATIO_AT + 6 <= 64  # SCRATCH_WIDTH


@njit(cache=True, error_model="numpy")
def prepare_day_nb(state, seat, params):
    """The per-day part of the scratch row (and, at a game's start, the per-game part)."""
    later = state.rules[RULE_DAYS] - 1 - state.counts[DAY]  # days after this one (C18)
    state.scratch[seat, W_MAJ] = 1.0 + params[FUTURE] * later
    state.scratch[seat, MONEY] = 1.0 / (1.0 + params[MONEY_WEIGHT] * later)
    for level in range(state.rules[RULE_TRACK_MAX] + 1):  # C16: a bonus is paid today and on every later day
        state.scratch[seat, LEVEL_AT + level] = (state.track_bonus[level] * (1.0 + later)
                                                 + params[PROGRESS] * later * level * level * 0.2)
    # once a game; or later if the row is empty (a search player's rollouts start experts
    # mid-game on a cleared row; a slope is never 0 once set)
    if state.counts[DAY] == 0 or state.scratch[seat, SLOPE_SHIP] == 0.0:
        for free in range(MAX_FREE + 1):  # half the inverse width of the soft grading
            state.scratch[seat, SLOPE_SHIP + free] = 0.5 / (0.5 + params[SPREAD] * math.sqrt(CARD_VAR * free))
            state.scratch[seat, SLOPE_GOODS + free] = 0.5 / (0.5 + params[SPREAD] * math.sqrt(GOOD_VAR * free))
        for other in range(6):
            state.scratch[seat, RATIO_AT + other] = RATIO_PRIOR
    state.scratch[seat, DAY_KEY] = state.counts[DAY_ID]


@njit(cache=True, error_model="numpy", inline="always")
def clamp01(x):
    return min(1.0, max(0.0, x))


@njit(cache=True, error_model="numpy", inline="always")
def ship_pay_nb(state, players, beaten):
    """C13: the payout at the fractional place ``players - 1 - beaten``, interpolated."""
    place = (players - 1) - beaten
    k = min(int(place), players - 2)
    here = state.ship_payouts[k]
    return here + (place - k) * (state.ship_payouts[k + 1] - here)


@njit(cache=True, error_model="numpy", inline="always")
def prepare_nb(state, seat, params):
    """Refresh the caches if the ships changed: the cards out of the ships (deck, lot and
    discards) stay as many between two loads (C10, C11), and DAY_ID starts a new count."""
    version = state.counts[DAY_ID] * 64 + state.counts[DECK_LEN] + state.counts[LOT_LEN] + state.counts[DISCARD_LEN]
    if state.scratch[seat, VERSION_KEY] != version:
        refresh_nb(state, seat, params, version)


@njit(cache=True, error_model="numpy")
def refresh_nb(state, seat, params, version):
    """What a free hold is expected to bring in this version of the ships."""
    if state.scratch[seat, DAY_KEY] != state.counts[DAY_ID]:
        prepare_day_nb(state, seat, params)
    players = state.rules[RULE_PLAYERS]
    out = state.counts[DECK_LEN] + state.counts[LOT_LEN] + state.counts[DISCARD_LEN]
    # the holds less the cards aboard
    free = players * state.rules[RULE_HOLDS] - (N_CARDS - state.rules[RULE_REMOVED] - out)
    unseen = state.counts[UNSEEN]
    value = 0
    for row in range(GOLD_ROW + 1):
        value += state.unseen[row, UNSEEN_VALUE]
    deck = state.counts[DECK_LEN]
    fillable = 1.0 if deck >= free else deck / free  # the share of free holds the deck can fill
    per_unseen = 1.0 / unseen if unseen > 0 else 0.0
    state.scratch[seat, FILL] = value * per_unseen * fillable  # C5: the removed cards are unseen too
    state.scratch[seat, Q_SCALE] = fillable * per_unseen
    state.scratch[seat, VERSION_KEY] = version


@njit(cache=True, error_model="numpy", inline="always")
def track_gain_nb(state, seat, players, beaten_without, beaten_with, level, after):
    """C15, C16: the majority (today, and ``future`` times it later) and the bonus and
    progress gained by beating ``beaten_with`` rivals at ``after`` instead of
    ``beaten_without`` at ``level``."""
    first, second = state.majority_share[0, 0], state.majority_share[1, 0]  # C15: the two places' payouts
    majority = (majority_pay_nb(first, second, (players - 1) - beaten_with)
                - majority_pay_nb(first, second, (players - 1) - beaten_without))
    return (majority * state.scratch[seat, W_MAJ]
            + state.scratch[seat, LEVEL_AT + after] - state.scratch[seat, LEVEL_AT + level])


# worth_nb and lot_worth_nb are inlined into each decision (about 4 CPU s more of its first compile): called,
# expert played 7% more instructions a game than the code before the redesign, 3% more inlined
@njit(cache=True, error_model="numpy", inline="always")
def worth_nb(state, seat, params):
    """Florins the current lot is worth to ``seat`` (module doc): one pass over the rivals
    grades the ship and every good in the lot."""
    players = state.rules[RULE_PLAYERS]
    cards = state.counts[LOT_LEN]
    holds = state.rules[RULE_HOLDS]
    track_max = state.rules[RULE_TRACK_MAX]
    free = holds - state.ship_len[seat]
    left = free - cards  # its free holds after the lot
    # the lot's goods: up to three different ones, a, b, c, with their counts (gold has none;
    # a lot of more than three cards, under rules that allow one, is judged by its first three)
    a = state.card_good[state.lot[0]]
    count_a = 1
    b = -1
    count_b = 0
    c = -1
    if cards > 1:
        good = state.card_good[state.lot[1]]
        if good == a:
            count_a += 1
        else:
            b = good
            count_b = 1
    if cards > 2:
        good = state.card_good[state.lot[2]]
        if good == a:
            count_a += 1
        elif good == b:
            count_b += 1
        else:
            c = good
    q_scale = state.scratch[seat, Q_SCALE]  # an unseen card of a good, per free hold, is q
    qa = state.unseen[a, UNSEEN_CARDS] * q_scale if a >= 0 else 0.0
    qb = state.unseen[b, UNSEEN_CARDS] * q_scale if b >= 0 else 0.0
    qc = state.unseen[c, UNSEEN_CARDS] * q_scale if c >= 0 else 0.0
    level_a = min(track_max, state.track[seat, a] + state.ship_goods[seat, a]) if a >= 0 else 0
    level_b = min(track_max, state.track[seat, b] + state.ship_goods[seat, b]) if b >= 0 else 0
    level_c = min(track_max, state.track[seat, c] + state.ship_goods[seat, c]) if c >= 0 else 0
    after_a = min(track_max, level_a + count_a)
    after_b = min(track_max, level_b + count_b)
    after_c = min(track_max, level_c + 1)
    mine_a0 = level_a + free * qa
    mine_a1 = after_a + left * qa
    mine_b0 = level_b + free * qb
    mine_b1 = after_b + left * qb
    mine_c0 = level_c + free * qc
    mine_c1 = after_c + left * qc
    fill = state.scratch[seat, FILL]
    projected0 = state.ship_value[seat] + free * fill
    projected1 = state.ship_value[seat] + state.counts[LOT_VALUE] + left * fill
    ship0 = ship1 = 0.0
    a0 = a1 = b0 = b1 = c0 = c1 = 0.0
    for other in range(players):
        if other == seat:
            continue
        theirs_free = holds - state.ship_len[other]
        theirs = state.ship_value[other] + theirs_free * fill
        ship0 += clamp01(0.5 + (projected0 - theirs) * state.scratch[seat, SLOPE_SHIP + free + theirs_free])
        ship1 += clamp01(0.5 + (projected1 - theirs) * state.scratch[seat, SLOPE_SHIP + left + theirs_free])
        slope0 = state.scratch[seat, SLOPE_GOODS + free + theirs_free]
        slope1 = state.scratch[seat, SLOPE_GOODS + left + theirs_free]
        if a >= 0:
            theirs = min(track_max, state.track[other, a] + state.ship_goods[other, a]) + theirs_free * qa
            a0 += clamp01(0.5 + (mine_a0 - theirs) * slope0)
            a1 += clamp01(0.5 + (mine_a1 - theirs) * slope1)
        if b >= 0:
            theirs = min(track_max, state.track[other, b] + state.ship_goods[other, b]) + theirs_free * qb
            b0 += clamp01(0.5 + (mine_b0 - theirs) * slope0)
            b1 += clamp01(0.5 + (mine_b1 - theirs) * slope1)
        if c >= 0:
            theirs = min(track_max, state.track[other, c] + state.ship_goods[other, c]) + theirs_free * qc
            c0 += clamp01(0.5 + (mine_c0 - theirs) * slope0)
            c1 += clamp01(0.5 + (mine_c1 - theirs) * slope1)
    gain = ship_pay_nb(state, players, ship1) - ship_pay_nb(state, players, ship0)
    if a >= 0:
        gain += track_gain_nb(state, seat, players, a0, a1, level_a, after_a)
    if b >= 0:
        gain += track_gain_nb(state, seat, players, b0, b1, level_b, after_b)
    if c >= 0:
        gain += track_gain_nb(state, seat, players, c0, c1, level_c, after_c)
    return (gain + cards * params[HOLD_PRICE]) * state.scratch[seat, MONEY]


@njit(cache=True, error_model="numpy", inline="always")
def lot_worth_nb(state, seat, params):
    """worth_nb of the current lot, remembered for the turn and the lot's size (the
    auctioneer's last draw decision and its bid see the same lot)."""
    key = state.counts[TURN_ID] * 16 + state.counts[LOT_LEN]  # a lot has at most MAX_LOT_CARDS < 16
    if state.scratch[seat, LOT_KEY] == key:
        return state.scratch[seat, LOT_WORTH]
    worth = worth_nb(state, seat, params)
    state.scratch[seat, LOT_KEY] = key
    state.scratch[seat, LOT_WORTH] = worth
    return worth


@njit(cache=True, error_model="numpy", inline="always")
def observe_nb(state, seat):
    """Learn from the answers given on this lot before this seat speaks (a seat is asked once
    a lot, C9): a bid is what that rival pays per lot point; a pass caps it at the highest
    bid it saw."""
    players = state.rules[RULE_PLAYERS]
    per_point = -1.0  # computed at the first answer
    highest = 0
    other = state.counts[AUCTIONEER]
    for _ in range(players - 1):
        other += 1
        if other == players:
            other = 0
        if other == seat:
            break
        answer = state.turn_bid[other]
        if answer < 0:  # not asked (C9: full ship, too few holds or too little money)
            continue
        if per_point < 0.0:
            per_point = 1.0 / (state.counts[LOT_VALUE] + LOT_POINTS_PER_CARD * state.counts[LOT_LEN])
        ratio = state.scratch[seat, RATIO_AT + other]
        if answer > 0:
            state.scratch[seat, RATIO_AT + other] = ratio + RATIO_RATE * (answer * per_point - ratio)
        elif ratio > highest * per_point:
            state.scratch[seat, RATIO_AT + other] = ratio + RATIO_RATE * (highest * per_point - ratio)
        highest = max(highest, answer)


@njit(cache=True, error_model="numpy", inline="always")
def rivals_pay_nb(state, seat, first, last):
    """The most the seats at bid-order steps ``first``..``last`` after ``seat`` (1 = the next
    seat clockwise) are expected to pay for the current lot, each capped by its money;
    seats without room for the lot cannot bid (C9)."""
    players = state.rules[RULE_PLAYERS]
    cards = state.counts[LOT_LEN]
    points = state.counts[LOT_VALUE] + LOT_POINTS_PER_CARD * cards
    other = seat + first - 1
    if other >= players:
        other -= players
    most = 0.0
    for _ in range(first, last + 1):
        other += 1
        if other == players:
            other = 0
        if state.rules[RULE_HOLDS] - state.ship_len[other] >= cards:
            most = max(most, min(state.money[other], state.scratch[seat, RATIO_AT + other] * points))
    return most


@njit(cache=True, error_model="numpy")
def bid_nb(state, seat, params):
    """C9: the auctioneer takes a lot worth more than the highest bid at the lowest bid (highest
    + 1); the others bid just above what the seats after them would pay, or their worth if lower."""
    prepare_nb(state, seat, params)
    observe_nb(state, seat)
    worth = min(lot_worth_nb(state, seat, params) - params[MARGIN], state.money[seat])
    lowest = lowest_bid_nb(state)
    if worth < lowest:
        return 0
    players = state.rules[RULE_PLAYERS]
    after = state.counts[AUCTIONEER] - seat  # seats still to speak: up to the auctioneer
    if after < 0:
        after += players
    if after == 0:
        return lowest
    rivals = rivals_pay_nb(state, seat, 1, after) * params[RIVAL_PAY]
    bid = math.floor(rivals) + 1
    if bid > worth:
        bid = math.floor(worth)
    return max(lowest, int(bid))


@njit(cache=True, error_model="numpy")
def draw_nb(state, seat, params):
    """C8: another card while its surplus on the lot (worth less what the others would pay)
    is below ``draw_margin`` florins a card, if its own ship could take the bigger lot."""
    prepare_nb(state, seat, params)
    cards = state.counts[LOT_LEN]
    if state.rules[RULE_HOLDS] - state.ship_len[seat] <= cards:
        return False
    rivals = rivals_pay_nb(state, seat, 1, state.rules[RULE_PLAYERS] - 1) * params[RIVAL_PAY]
    return lot_worth_nb(state, seat, params) - rivals < cards * params[DRAW_MARGIN]


STRATEGY = Strategy(
    name="expert",
    decisions={"draw_nb": draw_nb, "bid_nb": bid_nb},
    params={
        "margin": Param(0, -20, 20, help="florins of profit it wants on a lot (bids at most its worth less this)"),
        "future": Param(0.15, 0, 2, help="weight of a track majority on each later day"),
        "progress": Param(0.2, 0, 3, help="weight of the climb towards the track bonuses on the days to come"),
        "spread": Param(0.75, 0.01, 5, help="how uncertain the projected ships and tracks are, in standard deviations"),
        "hold_price": Param(-0.125, -10, 10, help="florins each hold a lot fills is worth beyond its cards"),
        "rival_pay": Param(1.1, 0, 3, help="scale of what rivals are expected to pay (learnt from their bids)"),
        "money_weight": Param(0.25, 0, 3, help="extra worth of a florin per later day (a florin is a point on day 3)"),
        "draw_margin": Param(8, -20, 20, help="draws while its surplus on the lot is below this per card"),
    },
    summary="Estimates each lot's worth in florins (ship rank, tracks, days left, unseen cards) "
            "and bids just above what the rivals after it would pay.",
)
