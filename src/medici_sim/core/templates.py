"""Jitted templates: the one way core compiles a function for the names it is given.

Code shared by every game (the batch loop, the stepping interface, the play loop, the
tree search) and the wrappers through which the strategy dispatch calls each strategy's
decisions are written once, as *templates*: Python functions whose free global names
(``play_game_nb``, ``rollout_game_nb``, ``decide_fn`` ...) are not defined where they are written. A game's
copy of a template is the same code with its globals looked up in a namespace that binds
those names to the game's functions, compiled by numba (:func:`jitted_copy`). numba types
and compiles each copy on its own, so each game (and each strategy's decision) gets its own
machine code, and inlines the bound functions as if they had been written in place. A named
copy takes that name as its qualified name too: numba names its cache files by it.

The three users, with the numba options each needs:

- ``core.kernel.compiled_for`` (the batch loop, stepping's entry points, the play loop,
  agent_kernel's game counter): cached (each copy's signature holds its strategy
  table, whose name is its game's), and ``nogil``;
- ``games.medici.tree_search.tree_search_for``: the tree search bound to a game's hooks, not cached
  (part of a strategy's cached decision);
- ``core.dispatch``'s decision wrappers: one per strategy, decision and kind of table, cached
  under a name hashing its sources.
"""
from __future__ import annotations

import types

from numba import jit


def jitted_copy(template, namespace: dict, name: str | None = None, **options):
    """numba's nopython compilation of a copy of ``template`` (its code, default arguments and
    closure) named ``name`` (default: the template's), whose global names are looked up in
    ``namespace``; ``options``: numba's (``cache=True``, ``nogil=True``, ``inline="always"``).
    The copy compiles when first called, like any jitted function."""
    copy = types.FunctionType(template.__code__, namespace, name or template.__name__, template.__defaults__,
                              template.__closure__)
    if name is not None:  # numba's cache files are named by it: copies of one template, named apart, never meet
        copy.__qualname__ = name
    return jit(**{"nopython": True, **options})(copy)


def defined(lines: list[str], namespace: dict, name: str):
    """The Python function ``name`` that the source ``lines`` define, its global names looked up in
    ``namespace`` (an ``@overload``'s implementation: numba compiles it inlined where it is called)."""
    exec("\n".join(lines), namespace)
    return namespace[name]


def generated(lines: list[str], namespace: dict, name: str, **options):
    """:func:`jitted_copy` of the function ``name`` that the source ``lines`` define, its global
    names looked up in ``namespace``."""
    return jitted_copy(defined(lines, namespace, name), namespace, name, **options)
