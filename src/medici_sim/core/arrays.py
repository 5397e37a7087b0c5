"""Array copies for kernels, written as loops.

numba checks the shapes of an array-to-array slice assignment (``a[:n] = b``) and builds an
error message for a mismatch; that machinery (string formatting of shapes) costs seconds of
compilation in every kernel that uses it. Copying in a loop costs nothing to compile and
runs as fast.
"""
from __future__ import annotations

from functools import cache

import numpy as np
from numba import carray, njit
from numba.core import types
from numba.extending import intrinsic, overload


@njit(cache=True)
def copy1_nb(dst, src):
    """dst[:len(src)] = src for 1-D arrays."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True)
def copy2_nb(dst, src):
    """dst[:, :] = src for 2-D arrays of the same shape."""
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]



@intrinsic
def record_pointer(typingctx, record, word):
    """A pointer to a state record's data as words of type ``word`` (np.uint8 or np.uint64):
    numba passes a record as a pointer to its data, so this is a cast."""
    if not isinstance(record, types.Record) or not isinstance(word, types.NumberClass):
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(signature.return_type))
    return types.CPointer(word.instance_type)(record, word), codegen


@njit(cache=True)
def copy_record_nb(dst, src, itemsize):
    """Copy a record's ``itemsize`` bytes into another record of the same dtype, 8 at a time
    (the state records are aligned int64 / float64 fields). Assigning the record to an array
    element instead would pass it as a value: 200 kB on the stack for the card game's state."""
    words = itemsize // 8
    a = carray(record_pointer(dst, np.uint64), words)
    b = carray(record_pointer(src, np.uint64), words)
    for i in range(words):
        a[i] = b[i]


def compile_time_constant(read):
    """A jitted ``() -> array``: the array ``read()`` gives, read when the first kernel that
    calls it compiles (a constant of that kernel), never at import. Python reads the same
    array with the function's ``read()`` (``read`` runs once)."""
    read = cache(read)

    def constant():
        raise NotImplementedError("a jitted function: call it from jitted code")

    @overload(constant)
    def _compile():
        value = read()
        return lambda: value

    constant.read = read
    return constant
