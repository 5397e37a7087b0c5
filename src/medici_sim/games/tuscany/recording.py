"""A jitted game's record, read from its finished ``GameState`` in the reference engine's form
(``reference.Game.record``), and :func:`play_game`, one jitted game from Python (tests, tools).

The differential test (tests/tuscany/test_tuscany_engine.py) compares these records with the
reference engine's, game by game.
"""
from __future__ import annotations

import numpy as np

from ...core.dispatch import strategy_table
from ...core.registry import MAX_PARAMS
from ...core.rules import RuleSet
from ...core.seating import SEATING_MODES
from .components import Components, of_run
from .reference import GREEN_SOURCES, RED_SOURCES
from .reference_players import RandomPlayer
from .state import (
    EMPTY,
    N_GREEN_SOURCES,
    R_PLAYERS,
    REACHED_LIMIT,
    REFRESHES,
    ROUND,
    T17_REFRESHES,
)
from .tables import new_state

TALLY_NAMES = ("tiles_placed", "hexagons_placed", "workers_gained", "workers_used", "marble_gained", "marble_used",
               "cards_drawn", "yield_drawn")  # state.T_* order (the reference's Player.counts)
assert len(GREEN_SOURCES) == N_GREEN_SOURCES
REFERENCE_PLAYERS = {"random": RandomPlayer}  # the reference engine's strategies by the names the engine's have


def winners(state) -> list[int]:
    """T36: most red; ties: most empty fields, fewest green, fewest cards; then shared."""
    n = int(state["rules"][R_PLAYERS])
    keys = [(int(state["red"][s]), int(np.sum(state["field_item"][s] == EMPTY)), -int(state["green"][s]),
             -int(state["hand_total"][s])) for s in range(n)]
    return [s for s in range(n) if keys[s] == max(keys)]


def record(state) -> dict:
    """The finished game's record, as reference.Game.record gives it."""
    n = int(state["rules"][R_PLAYERS])

    def per_seat(values):
        return [int(v) for v in values[:n]]

    seats = {"slot": per_seat(state["seat_slot"]), "red": per_seat(state["red"]), "green": per_seat(state["green"])}
    for k, source in enumerate(GREEN_SOURCES + RED_SOURCES):
        seats[source] = per_seat(state["points"][:, k])
    for k, name in enumerate(TALLY_NAMES):
        seats[name] = per_seat(state["tally"][:, k])
    seats.update(cards_left=per_seat(state["hand_total"]), workers_left=per_seat(state["workers"]),
                 marble_left=per_seat(state["marble"]), storage_left=per_seat(state["storage_len"]),
                 empty_fields=[int(np.sum(state["field_item"][s] == EMPTY)) for s in range(n)],
                 bonus_tiles=per_seat(state["bonus"].sum(axis=1)))
    won = winners(state)
    seats["winner_share60"] = [60 // len(won) if s in won else 0 for s in range(n)]
    counts = state["counts"]
    return {"seats": seats, "rounds": int(counts[ROUND]), "phase_end_round": [int(v) for v in state["phase_end_round"]],
            "reached_limit": bool(counts[REACHED_LIMIT]), "refreshes": int(counts[REFRESHES]),
            "t17_refreshes": int(counts[T17_REFRESHES])}


class Games:
    """Jitted games of one component set, rule set and lineup (strategy names by slot, each with its
    parameters' defaults: ``slot_params``), one at a time; ``used``: more strategies for the table (one
    compiled kernel for several lineups)."""

    def __init__(self, components: Components, rules: RuleSet, strategies, seating: str = "fixed", used=()):
        from .strategies import REGISTRY  # noqa: PLC0415  (the registry imports the state, not this)

        self.buffer = new_state(components, rules)
        self.table, names = strategy_table(REGISTRY, set(strategies) | set(used))
        self.slot_strategy = np.array([names.index(s) for s in strategies], np.int64)
        self.slot_params = np.zeros((len(strategies), MAX_PARAMS))  # each strategy's defaults
        for slot, name in enumerate(strategies):
            defaults = [param.default for param in REGISTRY[name].params.values()]
            self.slot_params[slot, :len(defaults)] = defaults
        self.seating = SEATING_MODES.index(seating)

    def play(self, seed: int, game_index: int):
        """Play one game; its finished state (valid until the next game)."""
        from .game import play_one_nb  # noqa: PLC0415  (compiled on first use)

        state = self.buffer[0]
        play_one_nb(state, seed, game_index, self.seating, self.slot_strategy, self.slot_params, self.table)
        return state


def play_game(components: Components, rules: RuleSet, strategies, seed: int = 0, game_index: int = 0,
              seating: str = "fixed") -> dict:
    """One jitted game from (seed, game index); its record (as reference.play_game's)."""
    return record(Games(components, rules, strategies, seating).play(seed, game_index))


class GameTrace:
    """One game of a run played stepped to its end (stepped.trace_game_nb): its finished state (``state``) and
    :meth:`record`, the reference engine's form (core.contract.Engine.trace)."""

    def __init__(self, state):
        self.state = state

    def record(self) -> dict:
        return record(self.state)


def trace(kernel, game_index: int) -> GameTrace:
    """Game ``game_index`` of the run ``kernel`` (a PreparedRun), stepped with every seat its strategy."""
    from .stepped import trace_game_nb  # noqa: PLC0415  (compiled on first use)

    buffer = trace_game_nb(kernel.config.seed, game_index, kernel.inputs, kernel.seating, kernel.slot_strategy,
                           kernel.slot_params, kernel.table)
    return GameTrace(buffer[0])


def reference_strategies() -> tuple[str, ...]:
    """The strategies the reference engine plays (reference_players.py), by name."""
    return tuple(REFERENCE_PLAYERS)


def reference_game(config, game_index: int) -> dict:
    """The reference engine's record of game ``game_index`` of the run ``config`` (core.driver.RunConfig)."""
    from .reference import play_game as reference_play  # noqa: PLC0415

    players = [REFERENCE_PLAYERS[s.name]() for s in config.strategies]
    return reference_play(of_run(config), config.rule_set, players, config.seed, game_index, config.seating)
