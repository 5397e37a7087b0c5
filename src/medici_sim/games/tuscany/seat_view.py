"""What the game-AI frameworks' adapters (``medici_sim.frameworks``) need of The Castles of Tuscany (its
framework facts, :data:`FRAMEWORK`; the protocol: docs/frameworks.md, "A game's framework facts").

**What a seat sees** (T12, T14): its own hand, the display, every estate, the score tracks, the bonus tiles
and supply counts, every seat's storage, workers and marble, and how many cards each rival holds; not the
rivals' hands (hidden from RIVALS: an imperfect-information game), nor the order of the region deck, the
yield deck or the neutral supply, nor which tiles are left in any seat's stacks (hidden from EVERYONE).
Each thing hidden is declared with a ``redeal`` that deals it again as it could lie for all the seat sees.

**Chance.** The engine's draws (cards, tiles, yield cards, the shuffles) stay its own (``chance_event``
answers None for every one): hidden, and decided by the history of the seed; a stepped game is played
again from its seed at each step (core.replaying), so what an adapter writes on a record does not last.

**Actions**: decision k's choice c is the action ``OFFSET[k] + c``: an option decision's index among the
options the engine wrote (every choice the rules allow, stepped.legal_choices_nb), T18's payment code,
T32's 0 no / 1 spend a marble.
"""
from __future__ import annotations

import sys

import numpy as np

from ...core.contract import EVERYONE, RIVALS, FrameworkFacts, Hidden, Information
from ...core.resumable import DECISION, STEP_EVENT
from .board_text import COLOUR_WORDS, PILES, assembly_text, pile_sizes, players, table_lines
from .geometry import ESTATE_FIELDS
from .rules import ACTIONS, BONUS_KINDS, COLOURS, N_COLOURS, PHASES
from .state import (
    DECISIONS,
    EMPTY,
    FIELD_CODE,
    HEX,
    MAX_DISPLAY,
    MAX_OPTIONS,
    MAX_STORAGE,
    N_BONUS,
    N_OPTIONS,
    PAY_COLOUR,
    PHASE,
    R_DISPLAY,
    R_PLAYER_TILES,
    R_ROUND_LIMIT,
    R_STACK_SIZE,
    ROUND,
    START_CASTLE,
    payment_parts,
)
from .stepped import MARBLE, N_PAYMENT_CODES, PAYMENT

RETURNS = "red"  # what returns= calls the score: red points (T36)
SIZES = tuple(N_PAYMENT_CODES if k == PAYMENT else 2 if k == MARBLE else MAX_OPTIONS for k in range(len(DECISIONS)))
OFFSET = tuple(int(x) for x in np.cumsum((0, *SIZES))[:-1])
N_ACTIONS = sum(SIZES)
WORDS = ("assembly (T12)", "starting castle's field (T12)", "bonus tile (T12, T25)", "action (T13)",
         "T17: clear a kind from the display?", "display tile (T14)", "discard from storage (T14)",
         "place (T18, T19)", "payment (T18)", "castle: tile and field (T24)", "spend a marble (T32)")


def scores(s) -> list[int]:
    """Each seat's red points (T36): the game's score."""
    return [int(v) for v in s["red"][:players(s)]]


# ---------------------------------------------------------------- what is hidden, dealt again

def _shuffled(items: np.ndarray, generator) -> None:
    items[:] = generator.permutation(items)


def redeal_hands(s, seat: int, generator) -> None:
    """The rivals' hands (T12) dealt again from the cards ``seat`` cannot see (theirs and the region deck's),
    each rival keeping its number of cards."""
    (_, top, end), counts = PILES[0], s["counts"]
    top, end = int(counts[top]), int(counts[end])
    rivals = [r for r in range(players(s)) if r != seat]
    unseen = np.concatenate([s["deck"][top:end]] + [np.repeat(np.arange(N_COLOURS), s["hand"][r]) for r in rivals])
    unseen = generator.permutation(unseen)
    at = 0
    for r in rivals:
        n = int(s["hand_total"][r])
        s["hand"][r] = np.bincount(unseen[at:at + n], minlength=N_COLOURS)
        at += n
    s["deck"][top:end] = unseen[at:]


def redeal_orders(s, seat: int, generator) -> None:
    """The orders of the region deck (T13), the yield deck (T30) and the neutral supply (T2)."""
    counts = s["counts"]
    for items, top, end in PILES:
        _shuffled(s[items][int(counts[top]):int(counts[end])], generator)


def redeal_stacks(s, seat: int, generator) -> None:
    """Each seat's tiles not yet seen (T10: left in its stacks, or in the box) dealt again over those places."""
    size, per_player = int(s["rules"][R_STACK_SIZE]), int(s["rules"][R_PLAYER_TILES])
    for q in range(players(s)):
        places = [n * size + i for n in range(3) for i in range(int(s["stack_top"][q, n]), size)]
        places += range(3 * size, per_player)
        places = np.array(places, np.int64)
        s["tiles"][q, places] = generator.permutation(s["tiles"][q, places])


INFORMATION = Information(hidden=(
    Hidden("the rivals' hands of region cards (T12; how many each holds is seen)", RIVALS, redeal_hands),
    Hidden("the order of the region deck, the yield deck and the neutral tiles (T2, T13, T30)", EVERYONE,
           redeal_orders),
    Hidden("which tiles are left in each seat's stacks (T10)", EVERYONE, redeal_stacks),
))


# ---------------------------------------------------------------- chance: the engine's own

def chance_outcome_count(s) -> int:
    """No chance outcome is ever offered (every draw is the engine's own); one, for the adapters' sizes."""
    return 1


def chance_event(before, after, event: int):
    """None: every draw stays the engine's own, decided by the history (the module doc)."""
    return None


def chance_text(s, outcome: int) -> str:
    return f"chance outcome {outcome}"


# ---------------------------------------------------------------- actions

def action_count(s) -> int:
    return N_ACTIONS


def action_of(decision: int, choice: int) -> int:
    return OFFSET[decision] + int(choice)


def choice_of(action: int) -> tuple[int, int]:
    """(decision, choice) of an action id."""
    k = int(np.searchsorted(OFFSET, action, side="right")) - 1
    return k, action - OFFSET[k]


def decision_of(s) -> int:
    """The decision the game is stopped at, as k (state.DECISIONS); -1 elsewhere."""
    event = int(s["step"][STEP_EVENT]) - DECISION
    return event if event >= 0 else -1


def payment_text(code: int) -> str:
    cards, workers, pair1, pair2 = payment_parts(code)
    parts = [f"{cards} card{'s' * (cards != 1)} of the field's colour"] if cards else []
    parts += [f"{workers} worker{'s' * (workers != 1)}"] if workers else []
    if pair1 >= 0 and pair1 == pair2:
        parts.append(f"two pairs of {COLOURS[pair1]} cards")
    else:
        parts += [f"a pair of {COLOURS[p]} cards" for p in (pair1, pair2) if p >= 0]
    return "pay " + " and ".join(parts)


def choice_text(s, k: int, choice: int) -> str:
    """Decision k's choice in words, as the state stands at that decision (its options written)."""
    if k == MARBLE:
        return "spend a marble for one more action" if choice else "no marble"
    if k == PAYMENT:
        return payment_text(choice)
    if not 0 <= choice < int(s["counts"][N_OPTIONS]):
        return f"option {choice}"
    option = int(s["options"][choice])
    name = DECISIONS[k]
    if name == "assembly_nb":
        return assembly_text(option)
    if name == "castle_field_nb":
        return f"starting castle on field {option}"
    if name == "bonus_nb":
        return f"bonus tile {BONUS_KINDS[option]}"
    if name == "action_nb":
        return ACTIONS[option]
    if name == "refresh_nb":
        return "take as usual" if option < 0 else f"clear every {COLOURS[option]} tile from the display (T17)"
    if name == "take_nb":
        return f"take display tile {option + 1} ({_tile(s, int(s['display'][option]))})"
    if name == "discard_nb":
        return f"discard {_tile(s, _stored(s, option))} from storage"
    where, field = divmod(option, FIELD_CODE)
    colour = COLOUR_WORDS[int(s["colour"][_actor(s), field])]
    if name == "place_nb":
        return f"place {_tile(s, _stored(s, where))} on field {field} ({colour})"
    return f"castle: display tile {where + 1} ({_tile(s, int(s['display'][where]))}) on field {field} ({colour})"


def _actor(s) -> int:
    return int(s["step"][1])


def _stored(s, index: int) -> int:
    return int(s["storage"][_actor(s), index])


def _tile(s, tile: int) -> str:
    if tile == HEX:
        return "a hexagon"
    if tile == EMPTY:
        return "nothing"
    return f"{COLOURS[int(s['tile_kind'][tile])]} {COLOUR_WORDS[int(s['tile_kind'][tile])]}"


def action_text(s, action: int) -> str:
    k, choice = choice_of(action)
    if decision_of(s) == k:
        return choice_text(s, k, choice)
    return f"{WORDS[k]}: choice {choice}"


# ---------------------------------------------------------------- what a seat sees

def most_moves(s) -> tuple[int, int]:
    """The most decisions of a game (and no chance node): setup's three a seat, then up to T37's limit of
    rounds, each turn two actions (T32) of at most an action, T17's clearings (one a kind), a take and a
    discard, or a placing, its payment, a castle chain (one a field) and a bonus tile, and a marble."""
    per_action = 1 + N_COLOURS + 2 + 2 + ESTATE_FIELDS + 1
    return 3 * players(s) + int(s["rules"][R_ROUND_LIMIT]) * players(s) * (2 * per_action + 1), 0


def most_score(s) -> int:
    """A bound on a seat's red points under the rules in force (generous: every source at its most)."""
    return 1000


def observation_size(s) -> int:
    p = players(s)
    per_seat = ESTATE_FIELDS * (N_COLOURS + 4) + MAX_STORAGE + N_BONUS + 3 + 2 + 3
    return MAX_DISPLAY * (N_COLOURS + 1) + N_BONUS + N_COLOURS + 5 + PHASES + p * per_seat + N_COLOURS \
        + len(DECISIONS) + 2 * p + 2


def observation_bound(s) -> float:
    return float(max(most_score(s), int(s["rules"][R_ROUND_LIMIT]), 1000))


def observe(s, seat: int, actor: int, out: np.ndarray) -> None:
    """Fill ``out`` (observation_size floats) with what ``seat`` sees; ``actor`` the seat to decide (-1: none)."""
    p = players(s)
    out[:] = 0
    at = 0

    def put(values) -> None:
        nonlocal at
        values = np.asarray(values, np.float32).ravel()
        out[at:at + len(values)] = values
        at += len(values)

    display = np.zeros((MAX_DISPLAY, N_COLOURS + 1), np.float32)
    for place in range(int(s["rules"][R_DISPLAY])):
        tile = int(s["display"][place])
        display[place, N_COLOURS if tile == EMPTY else int(s["tile_kind"][tile])] = 1
    put(display)
    counts = s["counts"]
    put(s["bonus_supply"])
    put(s["colour_claims"])
    put([*pile_sizes(s), counts[ROUND], counts[PAY_COLOUR]])
    phase = np.zeros(PHASES, np.float32)
    phase[min(int(counts[PHASE]), PHASES) - 1] = 1
    put(phase)
    size = int(s["rules"][R_STACK_SIZE])
    for q in range(p):
        fields = np.zeros((ESTATE_FIELDS, N_COLOURS + 4), np.float32)
        fields[np.arange(ESTATE_FIELDS), s["colour"][q]] = 1
        items = s["field_item"][q]
        fields[:, N_COLOURS] = items == EMPTY
        fields[:, N_COLOURS + 1] = items == START_CASTLE
        fields[:, N_COLOURS + 2] = items == HEX
        fields[:, N_COLOURS + 3] = items >= 0
        put(fields)
        storage = np.zeros(MAX_STORAGE, np.float32)
        for i, item in enumerate(s["storage"][q, :s["storage_len"][q]]):
            storage[i] = 1 + (N_COLOURS if item == HEX else int(s["tile_kind"][item]))
        put(storage)
        put(s["bonus"][q])
        put([s["red"][q], s["green"][q], s["hand_total"][q]])
        put([s["workers"][q], s["marble"][q]])
        put([size - s["stack_top"][q, n] for n in range(3)])  # how many tiles each stack holds (not which)
    hand = s["hand"][seat]
    put(hand)
    decision = np.zeros(len(DECISIONS), np.float32)
    if decision_of(s) >= 0:
        decision[decision_of(s)] = 1
    put(decision)
    who = np.zeros(2 * p + 2, np.float32)
    who[seat] = 1
    if actor >= 0:
        who[p + actor] = 1
    who[2 * p] = int(counts[N_OPTIONS])
    put(who)
    assert at == len(out), (at, len(out))  # observation_size follows observe


def observation_text(s, seat: int, actor: int) -> str:
    """The table as ``seat`` sees it, in words and estate maps (board_text)."""
    k = decision_of(s)
    head = f"you are seat {seat + 1}" + (f"; seat {actor + 1} decides: {WORDS[k]}" if actor >= 0 and k >= 0 else "")
    return "\n".join([head, *table_lines(s, seat)])


FRAMEWORK = FrameworkFacts(INFORMATION, lambda: sys.modules[__name__], RETURNS)  # the game's framework facts
