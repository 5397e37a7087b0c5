"""A game's batch kernel, written once: its games played one after another and added to the totals.

:func:`batch_kernel` compiles it for a game, bound to the game's ``start_game_nb``, its
play hook (``play_game_nb(state, table, record)``, handed ``record`` None: core.resumable) and its
``accumulate_game_nb``;
its loop's step, one game in a buffer the caller keeps, is the game's ``play_game_in_nb``, compiled
once as a function of its own: the batch loop and paired play's (core.pairing) call it, so the
paired loop compiles only itself (inlined in each, it compiled the whole game again).
:func:`compiled_for` is how core code is compiled for one game
(here and in core.resumable): a copy of a template function whose free names are the game's
(core.templates). numba caches each copy for its game alone: its signature holds the run's strategy table,
whose name is the game's and hashes the sources of the kernel's code (dispatch.strategy_table),
so two games' copies never meet in the cache, nor do copies of older sources.
"""
from __future__ import annotations

import numpy as np

from .accounting import add_seat_rows_nb
from .templates import jitted_copy


def compiled_for(template, name: str, namespace: dict, **options):
    """``template`` compiled (cached, and ``nogil``: a decision that never returns leaves signals
    answerable, cli.signals) as ``name``, its global names looked up in ``namespace``; ``options``:
    numba's further options (``inline="always"``)."""
    return jitted_copy(template, namespace, name, cache=True, nogil=True, **options)


def _play_game_in(buffer, seed, game_index, seating, slot_strategy, slot_params, rows,
                  seat_stats, slot_stats, pair_stats, run_stats, table):
    """Play game ``game_index`` in ``buffer`` (a copy of the run's inputs, used again game after
    game: a game starts afresh in it) and add it to the stats arrays; ``rows`` zero on entry and
    on return."""
    # The record buffer[0] does not own its memory and numba frees an array after its last
    # use: taken from the array at each game, it keeps the array alive to the last game.
    state = buffer[0]
    start_game_nb(state, seed, game_index, seating, slot_strategy, slot_params)  # noqa: F821
    play_game_nb(state, table, None)  # noqa: F821
    accumulate_game_nb(state, rows, pair_stats, run_stats)  # noqa: F821
    add_seat_rows_nb(rows, state.seat_slot, seat_stats, slot_stats)


def _play_games(seed, first_game, n_games, inputs, seating, slot_strategy, slot_params,
                seat_stats, slot_stats, pair_stats, run_stats, table):
    """Play games ``first_game .. first_game + n_games - 1`` and add them to the stats arrays.

    ``inputs`` is the run's starting state (``game.engine.kernel_inputs``), played on a copy.
    """
    buffer = inputs.copy()
    rows = np.zeros_like(seat_stats)  # a game's per-seat statistics (core.accounting)
    for game_index in range(first_game, first_game + n_games):
        play_game_in_nb(buffer, seed, game_index, seating, slot_strategy, slot_params, rows,  # noqa: F821
                        seat_stats, slot_stats, pair_stats, run_stats, table)


def batch_kernel(start_game_nb, play_game_nb, accumulate_game_nb, counted: bool = True):
    """A game's ``play_games_nb`` (``Game.engine.play_games_nb``), bound to its functions, and its
    ``play_game_in_nb`` (``Game.engine.play_game_in_nb``: one game in a buffer its caller keeps, what
    core.pairing plays game by game under two rule sets; a function of its own that both call).
    The real games' ``play_game_nb`` calls their play loop through its address (core.dispatch.runtime_loop),
    so that none of the kernel's functions links the engine's code. ``counted`` False: the step is compiled
    without numba's reference counting (its callers hold the arrays), which each game otherwise pays on the
    step's seven arrays, an atomic (locked, fencing) instruction each: 3% of a classic random game. Only for a
    game whose step links nothing that raises an exception numba must allocate (its loop reached through an
    address): compiled with it, such code is refused."""
    bound = {**globals(), "start_game_nb": start_game_nb, "play_game_nb": play_game_nb,
             "accumulate_game_nb": accumulate_game_nb}
    play_game_in_nb = compiled_for(_play_game_in, "play_game_in_nb", bound, **({} if counted else {"_nrt": False}))
    return compiled_for(_play_games, "play_games_nb", {**bound, "play_game_in_nb": play_game_in_nb}), play_game_in_nb
