"""Checked decisions: the wrapper a *checked* strategy table calls (core.dispatch), which proves that a
decision wrote nothing of the game's state but its own seat's ``scratch`` row and the generator
(``medici-sim check-plugin``)."""
from __future__ import annotations

import numpy as np
from numba import carray, njit

from .arrays import record_pointer
from .registry import ILLEGAL

STATE_CHANGED = "changed the game state outside its scratch"  # what a checked decision reports


def checked_decide(state, seat, strategy):
    """A strategy's decision as a checked table's wrapper calls it (core.dispatch's ``_decide``,
    checked): the state record's bytes are copied before the call and compared after it (8 bytes
    at a time where the record's size allows), the deciding seat's ``scratch`` row and ``rng``
    excepted. A change raises ``ValueError(ILLEGAL, seat, strategy, "... (field
    NAME)")``, NAME the first field changed (the field list is the record's: any game's state)."""
    live = carray(record_pointer(state, WORD), N_WORDS, WORD)  # noqa: F821
    before = live.copy()
    result = answer(decide_fn(state, seat, params_nb(state, seat)))  # noqa: F821
    mine = (SCRATCH_AT + seat * ROW) // WORD_BYTES  # noqa: F821
    before[mine:mine + ROW // WORD_BYTES] = live[mine:mine + ROW // WORD_BYTES]  # noqa: F821
    before[RNG_FROM:RNG_TO] = live[RNG_FROM:RNG_TO]  # noqa: F821
    if _differ_nb(before, live):
        at = _first_difference_nb(before, live) * WORD_BYTES  # noqa: F821
        for i in range(FIELD_ENDS.size):  # noqa: F821  the field holding byte `at`
            if at < FIELD_ENDS[i]:  # noqa: F821
                _changed_nb(seat, strategy, FIELD_WHAT[i])  # noqa: F821
        _changed_nb(seat, strategy, STATE_CHANGED)
    return result


def checked_names(dtype: np.dtype) -> dict:
    """The names :func:`checked_decide` reads besides a wrapper's, for a state record of ``dtype``."""
    word = 8 if dtype.itemsize % 8 == 0 else 1
    scratch, scratch_at = dtype.fields["scratch"][:2]
    rng, rng_at = dtype.fields["rng"][:2]
    if scratch_at % word or rng_at % word or scratch.itemsize // scratch.shape[0] % word or rng.itemsize % word:
        word = 1
    fields = sorted((offset, name) for name, (_, offset, *_) in dtype.fields.items())
    ends = [offset for offset, _ in fields[1:]] + [dtype.itemsize]
    what = tuple(STATE_CHANGED + (" (another seat's scratch)" if field == "scratch" else f" (field {field})")
                 for _, field in fields)
    return {"carray": carray, "_differ_nb": _differ_nb, "_first_difference_nb": _first_difference_nb,
            "_changed_nb": _changed_nb, "STATE_CHANGED": STATE_CHANGED, "record_pointer": record_pointer,
            "WORD": np.uint64 if word == 8 else np.uint8,
            "WORD_BYTES": word, "N_WORDS": dtype.itemsize // word, "SCRATCH_AT": scratch_at,
            "ROW": scratch.itemsize // scratch.shape[0], "RNG_FROM": rng_at // word,
            "RNG_TO": (rng_at + rng.itemsize) // word, "FIELD_ENDS": np.array(ends, np.int64), "FIELD_WHAT": what}


@njit(cache=True)
def _changed_nb(seat, strategy, what):
    """Raise the illegal decision of a checked decide (cached on its own: numba rebuilds its
    exception values when it loads a wrapper from its cache)."""
    raise ValueError(ILLEGAL, seat, strategy, what)


@njit(cache=True)
def _differ_nb(a, b):
    """Whether two equal-length arrays differ (a branch-free loop the compiler vectorizes)."""
    acc = a[0] ^ a[0]
    for i in range(a.size):
        acc |= a[i] ^ b[i]
    return acc != 0


@njit(cache=True)
def _first_difference_nb(a, b):
    for i in range(a.size):
        if a[i] != b[i]:
            return i
    return a.size
