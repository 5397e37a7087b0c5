"""One game of a run, told: ``medici-sim trace`` and ``medici_sim.trace``.

The game is game ``index`` of the run with ``seed`` (R25, C20): the very game the
simulation plays for that seed and index, played by the jitted kernel with any strategies
(built-ins and plug-ins alike). The game's narrator (``games/<game>/narrate.py``) replays
the kernel's turn log, explains every payout from the rules and checks its own account
against the kernel's records before anything is told.
"""
from __future__ import annotations

from .arguments import ConfigError, integer
from .driver import MAX_GAMES, PreparedRun, RunConfig
from .specs import run_config


def trace_config(game: str, players: int | None, strategies, seed: int, index: int, seating: str,
                 rules: str | None, components: str | None) -> RunConfig:
    """The run whose game ``index`` is traced; any bad argument is a ConfigError (or ComponentsError)."""
    index = integer(index, "index", 0, MAX_GAMES - 1, f"{MAX_GAMES - 1:,} (10**15 - 1)")
    return run_config(game=game, players=players, strategies=strategies, games=index + 1, seed=seed,
                      rules=rules, seating=seating, threads=1, components=components)


def narrate_game(config: RunConfig, index: int) -> tuple[dict, str]:
    """(data, text) of game ``index`` of the run ``config`` (see the game's narrate module)."""
    kernel = PreparedRun(config)
    game = kernel.game
    if game.presentation.narrate is None:
        raise ConfigError(f"the {game.name} game cannot be traced")
    # a strategy's failure is named by PreparedRun.trace; a narration mismatch is a bug to show in full
    return game.presentation.narrate(kernel, index)
