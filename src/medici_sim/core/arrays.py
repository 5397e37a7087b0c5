"""Array copies for kernels, written as loops.

numba checks the shapes of an array-to-array slice assignment (``a[:n] = b``) and builds an
error message for a mismatch; that machinery (string formatting of shapes) costs seconds of
compilation in every kernel that uses it. Copying in a loop costs nothing to compile and
runs as fast.
"""
from __future__ import annotations

from numba import njit


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
