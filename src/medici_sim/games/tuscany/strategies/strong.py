"""``strong`` for The Castles of Tuscany: ``search``'s choice of an action with its display tile or placement, made
by a learned evaluation instead of rollouts.

- T13 action: the candidates are search's (search.candidates_nb: draw; take with each display tile; place each
  stored item on each payable legal field). Each is scored by a linear model, ``weights[players, phase] .
  features`` (fitted to search's rollouts, ``scripts/train_strong.py --game tuscany --seed 0``, shipped in
  ``data/strong/weights.json``; one model per player count and phase, T15), and the best is played (the first of
  equals). The tile or placement chosen with the action is kept in the seat's scratch (search's columns) and
  answered at the take or place decision that follows (T14, T18-T19).
- Every other decision (the assembly, the castle's field, bonus tiles, T17, discards, payment, castle chains,
  the marble) is ``expert``'s, with ``expert``'s default parameters: what the features are worked out with too.
  strong's parameter ``prior`` adds to the rating of expert's own candidate (as search keeps the policy's choice
  unless a candidate beats it by ``confidence`` standard errors).
- The shortlist (off unless ``shortlist`` is 2 or more; issue 33): from phase ``from_phase`` on (T15), the model's
  ``shortlist`` best candidates (none rated more than ``gap`` below its best) are played out by search's rollouts
  (expert at every seat, everything the seat cannot see dealt again, common random numbers): ``first`` rollouts
  each; if one beats the model's best on their mean, those and the model's best go on to ``rollouts`` each, and
  the model's best is kept unless one beats it by ``confidence`` standard errors (core.rollout.choose_nb). Its
  rollouts play from the turn's second action when the marble was spent (T32: strong's marble decision marks it).
  With ``horizon`` 1 a rollout begun in phase 1 or 2 ends at its phase's scoring (T34) and is judged by a learned
  value of the position (strong_value.py); 2 or more also ends it after that many rounds' ends.

The features of a candidate (``FEATURES``; each 0 where it is not of that kind) are expert's worths of it
(evaluate.py: what the seat sees only, its own hand and storage, every estate, the display and the supplies'
sizes; never a deck, a stack or a rival's hand): which action it is and whether it is expert's own choice;
a draw's cards (T13: how many, times a card's worth now) and how many colours the hand can pay for (T18); a
take's tile worth (its best field now, T19), what paying for it would cost from the hand now, what a full
storage loses (T14's discard), whether nothing stored can be placed; a placement's worth and its parts: its
payment (T18), a region it completes (T21) or its progress, a colour bonus it claims (T22), its effect
(T23-T31), the items left in storage; whether a take or placement is the best of its kind by expert's worth
net of what it costs, and how far below the best. Then the game's course (``CONTEXT``, the same for every
candidate, so each is crossed with the kind of action): how near the phase's end is (T15), whether one tile is
left in the seat's own stack of the phase, its hand, its green and red lead, its storage and spare workers and
marble; the worths crossed with the phase's nearness; and T22's race for the colour a take or placement serves,
against the seat's own empty fields of it and the fewest any rival has left. Only differences between one
decision's candidates are fitted (core/evaluation.fit_choices), so what is the same for every candidate (the bias)
has weight 0.

The training labels expert's games, then (``SELF_PLAY_ROUNDS``) rounds of games in which one seat is strong with
the model fitted to every row so far (``learner_choice``): fitted to expert's positions alone, the model drew nearly
every turn, its hands growing to sizes expert never holds, where it had learned nothing.
"""
from pathlib import Path

import numpy as np
from numba import njit

from ....core import rollout
from ....core.arrays import compile_time_constant
from ....core.evaluation import fit_choices, read_weights
from ....core.registry import MAX_PARAMS, Param, Strategy
from ....core.rollout import choose_nb, rollout_stream_nb
from ..engine import payable_colours_nb
from ..rules import BONUS_CARD, DRAW, PHASES, PLACE, TAKE, VARIANTS
from ..state import (
    DECISIONS,
    FIELD_CODE,
    HEX,
    MAX_PLAYERS,
    PHASE,
    R_DRAW,
    R_PLAYERS,
    R_REGION1,
    R_STACK_SIZE,
    STATE_DTYPE,
    bit_count,
)
from .evaluate import (
    CARD_WORTH,
    GREEN,
    SHORT,
    best_placement_nb,
    best_take_nb,
    context_nb,
    effect_worth_nb,
    field_worth_nb,
    item_worth_nb,
    payment_nb_,
    placeable_nb,
    storage_free_nb,
    worst_stored_nb,
)
from .expert import STRATEGY as EXPERT
from .heuristic import DECISIONS as HEURISTIC
from .heuristic import action_nb as expert_action_nb
from .heuristic import marble_nb as expert_marble_nb
from .heuristic import place_nb as expert_place_nb
from .heuristic import priced_take_nb
from .search import (
    _ROLLOUT_TABLE,
    CHOSEN,
    MAX_CANDIDATES,
    POLICIES,
    ROLLOUT_POLICY,
    SECOND,
    all_candidates_nb,
    begin_search_nb,
    chosen_nb,
    keep_chosen_nb,
    outcome_of_nb,
    play_out_nb,
    rollout_values_nb,
    script_nb,
    set_up_nb,
)
from .strong_value import cell_nb, judged_nb, play_to_horizon_nb, value_table_nb

# What the seat sees of the game's course, the same for every candidate: each is a feature times each kind of
# action (only differences between one decision's candidates are fitted).
CONTEXT = ("soon", "last_tile", "hand", "green_lead", "red_lead", "storage", "spare")
N_CONTEXT = len(CONTEXT)
SOON, LAST_TILE, HAND, GREEN_LEAD, RED_LEAD, STORAGE, SPARE = range(N_CONTEXT)
FEATURES = ("bias", "draw", "take", "place", "expert_choice", "draw_cards", "draw_payable", "take_worth", "take_cost",
            "take_discard", "take_stuck", "take_storage", "place_worth", "place_cost", "place_region",
            "place_progress", "place_colour", "place_effect", "place_hex", "place_storage_left", "kind_best",
            "kind_gap") + tuple(f"{kind}_{context}" for kind in ("draw", "take", "place") for context in CONTEXT) + (
            "take_worth_soon", "place_worth_soon", "take_ends_phase_lead", "draw_hand_squared", "take_race",
            "place_race", "take_rival_race", "place_rival_race")
N_FEATURES = len(FEATURES)
(EXPERT_CHOICE, TAKE_WORTH, PLACE_WORTH, KIND_BEST, KIND_GAP, KIND_CONTEXT, TAKE_WORTH_SOON, PLACE_WORTH_SOON,
 TAKE_ENDS_PHASE_LEAD, DRAW_HAND_SQUARED, RACE) = (FEATURES.index(name) for name in (
    "expert_choice", "take_worth", "place_worth", "kind_best", "kind_gap", "draw_soon", "take_worth_soon",
    "place_worth_soon", "take_ends_phase_lead", "draw_hand_squared", "take_race"))
FIT = fit_choices  # how the training (study.strong_training) fits it: linear in the features
COLUMNS = FEATURES  # the weights file's, per player count and phase
STAGES = PHASES  # the models per player count: one per phase (T15)
MAX_CHOICES = MAX_CANDIDATES  # training rows per decision: search's candidates
ACTION_DECISION = DECISIONS.index("action_nb")
WEIGHTS_FILE = Path(__file__).parents[1] / "data" / "strong" / "weights.json"
weights_table_nb = compile_time_constant(lambda: read_weights(WEIGHTS_FILE, (MAX_PLAYERS + 1, STAGES, N_FEATURES)))
DEFAULTS = tuple(float(p.default) for p in EXPERT.params.values()) + (0.0,) * (MAX_PARAMS - len(EXPERT.params))
# strong's own parameters: the bonus of expert's choice in the model's units (search's confidence's kind); the
# shortlist (shortlisted_nb): how many of the model's best are played out, the rollouts of each in all and in the
# first round, how far below the model's best a candidate may be rated and still be played out, the confidence
# of the rollouts' choice, the phase (T15) the shortlist is played out from, and where its rollouts end (horizon)
PRIOR, SHORTLIST, ROLLOUTS, FIRST, GAP, CONFIDENCE, FROM_PHASE, HORIZON = range(8)
MARGIN_WEIGHT = 0.03  # the rollouts' outcome: win credit + this x the red margin (search's default, the labels')
ROLLOUT_ID = POLICIES.index(ROLLOUT_POLICY)  # what the shortlist's rollouts play at every seat: expert


def stage(state) -> int:
    """The model a decision's training rows fit (study.strong_training): its phase, counted from 0."""
    return min(max(int(state["counts"][PHASE]), 1), PHASES) - 1


@njit(cache=True, inline="always")
def stage_nb(state):
    return min(max(state.counts[PHASE], 1), PHASES) - 1


@njit
def expert_candidate_nb(state, seat, params, ctx, kinds, subs, n):
    """The candidate expert would play (its action, then its tile or placement; the first of that action else)."""
    action = state.options[expert_action_nb(state, seat, params)]
    sub = -1
    if action == TAKE:
        sub = best_take_nb(state, seat, params, ctx, True)[0]
    elif action == PLACE:
        i, f, _ = best_placement_nb(state, seat, params, ctx)
        sub = i * FIELD_CODE + f
    first = -1
    for c in range(n):
        if kinds[c] == action:
            if subs[c] == sub:
                return c
            if first < 0:
                first = c
    return first


@njit
def candidate_features_nb(state, seat, params, ctx, kind, sub, expert, out):
    """The features (``out``) of the candidate ``kind`` with ``sub`` (search.candidates_nb's)."""
    out[:] = 0.0
    out[0] = 1.0
    out[4] = expert
    if kind == DRAW:
        out[1] = 1.0
        cards = state.rules[R_DRAW] + state.bonus[seat, BONUS_CARD]
        out[5] = cards * ctx[CARD_WORTH]
        out[6] = bit_count(payable_colours_nb(state, seat))
    elif kind == TAKE:
        out[2] = 1.0
        stuck = True
        for i in range(state.storage_len[seat]):
            if placeable_nb(state, seat, state.storage[seat, i]):
                stuck = False
        out[10] = stuck
        out[11] = state.storage_len[seat]
        if sub >= 0:
            tile = state.display[sub]
            kind_of = state.tile_kind[tile]
            out[7] = item_worth_nb(state, seat, tile, params, ctx)
            if payable_colours_nb(state, seat) >> kind_of & 1:
                out[8] = payment_nb_(state, seat, kind_of, ctx)[1]
            else:
                out[8] = SHORT * ctx[CARD_WORTH]
            if not storage_free_nb(state, seat):
                out[9] = max(worst_stored_nb(state, seat, params, ctx)[1], 0.0)
    else:
        out[3] = 1.0
        out[19] = state.storage_len[seat] - 1
        if sub >= 0:
            i, f = sub // FIELD_CODE, sub % FIELD_CODE
            item = state.storage[seat, i]
            colour = state.colour[seat, f]
            types = -1 if item == HEX else state.tile_types[item]
            out[12] = field_worth_nb(state, seat, f, types, params, ctx)
            out[13] = payment_nb_(state, seat, colour, ctx)[1]
            region = state.region_of[seat, f]
            left = state.region_left[seat, region]
            score = state.rules[R_REGION1 + state.region_size[seat, region] - 1] * ctx[GREEN]
            out[14] = score if left == 1 else 0.0
            out[15] = score / left
            claims = state.colour_claims[colour]
            if claims < 2 and state.colour_left[seat, colour] == 1:
                out[16] = state.colour_bonus[colour, claims] * ctx[GREEN]
            out[17] = effect_worth_nb(state, seat, colour, params, ctx)
            out[18] = item == HEX


@njit
def course_nb(state, seat):
    """CONTEXT: how near the phase's end is (T15: 1 over one more than the fewest tiles left in any seat's stack of
    this phase), whether one tile is left in the seat's own (its take ends the phase unless an earlier stack of
    its own still holds tiles), its hand, its green and red lead over the best rival (tens), its storage, its
    workers and marble."""
    out = np.zeros(N_CONTEXT)
    players, size = state.rules[R_PLAYERS], state.rules[R_STACK_SIZE]
    stack = min(max(state.counts[PHASE], 1), PHASES) - 1
    fewest, green, red = size, -(1 << 40), -(1 << 40)
    for p in range(players):
        fewest = min(fewest, size - state.stack_top[p, stack])
        if p != seat:
            green, red = max(green, state.green[p]), max(red, state.red[p])
    out[SOON] = 1.0 / (1.0 + fewest)
    out[LAST_TILE] = size - state.stack_top[seat, stack] == 1
    out[HAND] = state.hand_total[seat] / 10.0
    out[GREEN_LEAD] = (state.green[seat] - green) / 10.0
    out[RED_LEAD] = (state.red[seat] - red) / 10.0
    out[STORAGE] = state.storage_len[seat]
    out[SPARE] = state.workers[seat] + state.marble[seat]
    return out


@njit
def candidate_colour_nb(state, seat, kind, sub):
    """The colour a take's tile or a placement's field has (-1: a draw, or a take with no tile chosen, T17)."""
    if sub < 0 or kind == DRAW:
        return -1
    if kind == TAKE:
        return state.tile_kind[state.display[sub]]
    return state.colour[seat, sub % FIELD_CODE]


@njit
def race_nb(state, seat, colour, ctx, out):
    """T22's race for ``colour``'s bonus (0 when both values are claimed): the value still open, in red, over the
    seat's empty fields of that colour (``out[0]``), and over the fewest any rival has left (``out[1]``)."""
    claims = state.colour_claims[colour]
    if claims >= 2 or state.colour_left[seat, colour] == 0:
        return
    bonus = state.colour_bonus[colour, claims] * ctx[GREEN]
    fewest = 1 << 20
    for p in range(state.rules[R_PLAYERS]):
        if p != seat:
            fewest = min(fewest, state.colour_left[p, colour])
    out[0] = bonus / state.colour_left[seat, colour]
    out[1] = bonus / max(fewest, 1)


@njit
def features_nb(state, seat, params, kinds, subs, n, out):
    """Every candidate's features (``out[c]``), with expert's choice marked and each take's and placement's rank
    among its kind's by expert's worth net of its payment (and a full storage's discard): the best, and how far
    below the best (a linear model of the worths alone would rate the kind's average, not its best); then the
    game's course (course_nb) in the columns of the candidate's kind, the worths times the phase's nearness, a
    draw's hand squared, and T22's race (race_nb) in the columns of a take's or placement's."""
    ctx = context_nb(state, seat, params)
    expert = expert_candidate_nb(state, seat, params, ctx, kinds, subs, n)
    best = np.full(PLACE + 1, -np.inf)
    net = np.zeros(n)
    for c in range(n):
        row = out[c]
        candidate_features_nb(state, seat, params, ctx, kinds[c], subs[c], c == expert, row)
        net[c] = row[7] - row[8] - row[9] + row[12] - row[13]
        best[kinds[c]] = max(best[kinds[c]], net[c])
    course = course_nb(state, seat)
    for c in range(n):
        if kinds[c] != DRAW:
            out[c, KIND_BEST] = net[c] == best[kinds[c]]
            out[c, KIND_GAP] = net[c] - best[kinds[c]]
        out[c, KIND_CONTEXT + kinds[c] * N_CONTEXT:KIND_CONTEXT + (kinds[c] + 1) * N_CONTEXT] = course
        out[c, TAKE_WORTH_SOON] = out[c, TAKE_WORTH] * course[SOON]
        out[c, PLACE_WORTH_SOON] = out[c, PLACE_WORTH] * course[SOON]
        out[c, TAKE_ENDS_PHASE_LEAD] = (kinds[c] == TAKE) * course[LAST_TILE] * course[GREEN_LEAD]
        out[c, DRAW_HAND_SQUARED] = (kinds[c] == DRAW) * course[HAND] ** 2
        colour = candidate_colour_nb(state, seat, kinds[c], subs[c])
        if colour >= 0:
            race_nb(state, seat, colour, ctx, out[c, RACE + kinds[c] - TAKE:RACE + 4:2])


@njit
def ratings_nb(state, seat, prior, weights, kinds, subs, n):
    """Each candidate's rating by ``weights`` (one phase's model), expert's choice ``prior`` more."""
    features = np.empty((n, N_FEATURES))
    features_nb(state, seat, DEFAULTS, kinds, subs, n, features)
    out = np.empty(n)
    for c in range(n):
        w = prior * features[c, EXPERT_CHOICE]
        for k in range(N_FEATURES):
            w += weights[k] * features[c, k]
        out[c] = w
    return out


@njit
def best_candidate_nb(state, seat, prior, weights, kinds, subs, n):
    """The candidate whose features ``weights`` (one phase's model) rate best, expert's choice ``prior`` more (the
    first of equals)."""
    ratings = ratings_nb(state, seat, prior, weights, kinds, subs, n)
    best, worth = 0, -np.inf
    for c in range(n):
        if ratings[c] > worth:
            best, worth = c, ratings[c]
    return best


@njit
def shortlist_nb(ratings, n, size, gap, out):
    """The candidates rated best, best first (the first of equals first; ``out[0]`` is best_candidate_nb's), at
    most ``size`` of them and none rated more than ``gap`` below the best; how many."""
    taken = np.zeros(n, np.bool_)
    m = 0
    for _ in range(min(size, n)):
        best, worth = -1, -np.inf
        for c in range(n):
            if not taken[c] and (best < 0 or ratings[c] > worth):
                best, worth = c, ratings[c]
        if m > 0 and not ratings[out[0]] - worth <= gap:
            break
        taken[best] = True
        out[m] = best
        m += 1
    return m


@njit
def play_outs_nb(buffer, state, seat, params, kinds, subs, short, m, first, last, second, values, horizon):
    """Rollouts ``first`` .. ``last`` - 1 (``values[j, i]``) of the shortlisted candidates ``short[:m]``, by
    search's rollouts (expert at every seat; common random numbers: rollout i deals the same for each, whichever
    round plays it; ``second``: the turn's second action, T32). What a rollout sees is search's (determinise_nb:
    all the seat cannot see dealt again)."""
    sim = buffer[0]
    pool, keys, base, _ = begin_search_nb(sim, state, seat, params, kinds, subs, 1)
    table = _ROLLOUT_TABLE()
    truncated = horizon > 0
    values_table = value_table_nb()[state.rules[R_PLAYERS]]
    for i in range(first, last):
        stream = rollout_stream_nb(base, i)
        for j in range(m):
            set_up_nb(sim, state, seat, params, stream, pool)
            script_nb(sim, seat, kinds[short[j]], subs[short[j]])
            if not truncated:
                play_out_nb(sim, table, seat, second)
            elif not play_to_horizon_nb(sim, table, seat, second, horizon if horizon > 1 else 0):
                phase, left = cell_nb(sim)  # stopped before the game's end: judged by the value
                values[j, i] = judged_nb(sim, seat, values_table[phase, left], MARGIN_WEIGHT)
                continue
            values[j, i] = outcome_of_nb(sim, seat, MARGIN_WEIGHT, keys)


@njit
def shortlisted_nb(state, seat, params, ratings, kinds, subs, n, second):
    """The candidate to play: the model's best, unless the shortlist (shortlist_nb: params' size and gap) holds
    more than one. Then each is played out ``params[FIRST]`` times; if none has a better mean than the model's
    best, that is played (no evidence against the model); else the model's best and those better than it are
    played out to ``params[ROLLOUTS]`` rollouts each, and core.rollout.choose_nb keeps the model's best unless
    another's mean beats it by ``params[CONFIDENCE]`` standard errors of the paired differences."""
    top = np.empty(n, np.int64)
    m = shortlist_nb(ratings, n, np.int64(params[SHORTLIST]), params[GAP], top)
    if m < 2:
        return top[0]
    rollouts = max(np.int64(params[ROLLOUTS]), 1)
    first = min(max(np.int64(params[FIRST]), 1), rollouts)
    search_params = np.zeros(rollout.N_ROLLOUT_PARAMS)
    search_params[rollout.POLICY] = ROLLOUT_ID
    search_params[rollout.OPPONENTS] = ROLLOUT_ID
    buffer = np.empty(1, STATE_DTYPE)
    values = np.empty((m, rollouts))
    horizon = np.int64(params[HORIZON])
    play_outs_nb(buffer, state, seat, search_params, kinds, subs, top, m, 0, first, second, values, horizon)
    kept = 1
    for j in range(1, m):  # the model's best and those better than it by the first round's mean
        if values[j, :first].sum() > values[0, :first].sum():
            top[kept] = top[j]
            values[kept, :first] = values[j, :first]
            kept += 1
    if kept == 1:
        return top[0]
    play_outs_nb(buffer, state, seat, search_params, kinds, subs, top, kept, first, rollouts, second, values,
                 horizon)
    return top[choose_nb(values, kept, rollouts, 0, params[CONFIDENCE])]


@njit
def rated_action_nb(state, seat, prior, weights):
    """T13 by the model ``weights[phase]``: the candidate rated best, its tile or placement kept for the decision
    that follows."""
    state.scratch[seat, CHOSEN] = 0.0
    kinds, subs, n = all_candidates_nb(state, seat)
    best = best_candidate_nb(state, seat, prior, weights[stage_nb(state)], kinds, subs, n) if n > 1 else 0
    return keep_chosen_nb(state, seat, kinds, subs, best)


@njit
def action_nb(state, seat, params):
    """T13 by the shipped model of the seat's player count; with a shortlist (``params[SHORTLIST]`` over 1, from
    phase ``params[FROM_PHASE]``), the model's best few played out (shortlisted_nb)."""
    second = state.scratch[seat, SECOND] != 0
    state.scratch[seat, SECOND] = 0.0
    weights = weights_table_nb()[state.rules[R_PLAYERS]]
    if params[SHORTLIST] < 2 or stage_nb(state) + 1 < params[FROM_PHASE]:
        return rated_action_nb(state, seat, params[PRIOR], weights)
    state.scratch[seat, CHOSEN] = 0.0
    kinds, subs, n = all_candidates_nb(state, seat)
    best = 0
    if n > 1:
        ratings = ratings_nb(state, seat, params[PRIOR], weights[stage_nb(state)], kinds, subs, n)
        best = shortlisted_nb(state, seat, params, ratings, kinds, subs, n, second)
    return keep_chosen_nb(state, seat, kinds, subs, best)


@njit
def take_nb(state, seat, params):
    """T14: the display tile chosen with the action (after T17, expert's)."""
    found = chosen_nb(state, seat, TAKE)
    return found if found >= 0 else priced_take_nb(state, seat, DEFAULTS)


@njit
def place_nb(state, seat, params):
    """T18-T19: the placement chosen with the action."""
    found = chosen_nb(state, seat, PLACE)
    return found if found >= 0 else expert_place_nb(state, seat, DEFAULTS)


@njit
def marble_nb(state, seat, params):
    """T32: expert's; spent, the next action is the turn's second (what the shortlist's rollouts play from)."""
    answer = expert_marble_nb(state, seat, DEFAULTS)
    if answer:
        state.scratch[seat, SECOND] = 1.0
    return answer


@njit
def label_decision_nb(decision, buffer, state, seat, search_params, features, values):
    """Training rows (study.strong_training) of a T13 action with more than one candidate: each candidate's
    features and its mean outcome over search's rollouts (``search_params``; common random numbers: the
    candidates are compared on the same deals); returns how many rows. A marble's second action (T32) is
    labelled as a turn's first (the stepped game does not say which it is): its rollouts may spend one more
    marble, for every candidate alike."""
    if decision != ACTION_DECISION:
        return 0
    kinds, subs, n = all_candidates_nb(state, seat)
    if n < 2:
        return 0
    outcomes = np.empty((n, np.int64(search_params[0])))
    rollout_values_nb(buffer, state, seat, search_params, kinds, subs, n, False, outcomes)
    features_nb(state, seat, DEFAULTS, kinds, subs, n, features)
    for c in range(n):
        values[c] = outcomes[c].mean()
    return n


def as_expert(decide):
    """``decide`` (one of heuristic.py's decisions) with expert's parameters, whatever the seat's."""
    @njit
    def expert_s(state, seat, params):
        return decide(state, seat, DEFAULTS)
    return expert_s


STRATEGY = Strategy(
    name="strong",
    decisions={**{kind: as_expert(decide) for kind, decide in HEURISTIC.items()}, "take_nb": take_nb,
               "action_nb": action_nb, "place_nb": place_nb, "marble_nb": marble_nb},
    params={"prior": Param(0.05, 0.0, 10.0, help="bonus of expert's choice over the model's rating of the others"),
            "shortlist": Param(0, 0, MAX_CANDIDATES, integer=True,
                               help="play out the model's best this many candidates (0 or 1: none, the model's best)"),
            "rollouts": Param(6, 1, 100_000, integer=True, help="rollouts of each shortlisted candidate in all"),
            "first": Param(2, 1, 100_000, integer=True,
                           help="rollouts of each in the first round (the rest only if one beats the model's best)"),
            "gap": Param(1000.0, 0.0, 1000.0, help="shortlist only candidates rated at most this below the best"),
            "confidence": Param(1.0, 0.0, 10.0,
                                help="leave the model's best only for a shortlisted one better by this many SEs"),
            "from_phase": Param(2, 1, PHASES, integer=True, help="play the shortlist out from this phase on (T15)"),
            "horizon": Param(0, 0, 1000, integer=True,
                             help="1: rollouts end at the phase's scoring (phase 3's at the game's end), judged "
                                  "there by a learned value (strong_value.py); 2 or more: also after this many "
                                  "rounds' ends; 0: all to the game's end")},
    summary="Chooses each action with its tile or placement by a learned evaluation (fitted to search's rollouts).",
    fitted_to=VARIANTS,  # its weights were trained on expert games under these rules (scripts/train_strong.py)
)

SELF_PLAY_ROUNDS = 2  # study.strong_training: rounds of strong's own games labelled after expert's (the module doc)
SELF_PLAY_PRIOR = 0.0  # strong's prior in them: the model's own choices, where it has most to learn
LEARNER_DECISIONS = tuple(STRATEGY.decisions[name] for name in DECISIONS)


def learner_choice(decision: int, state, seat: int, weights: np.ndarray) -> int:
    """strong's answer at ``decision`` (its index in DECISIONS) with the model ``weights[phase]`` and
    SELF_PLAY_PRIOR: the self-play rounds' games."""
    if decision == ACTION_DECISION:
        return rated_action_nb(state, seat, SELF_PLAY_PRIOR, weights)
    return LEARNER_DECISIONS[decision](state, seat, DEFAULTS)
