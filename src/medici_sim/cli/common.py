"""What every command shares: parsing, user errors, progress and printing (signals: ``signals``).

Bad input never shows a traceback: every user error is one of :data:`USER_ERRORS`, turned
into one line on stderr and exit code 2 by ``main``; it is raised before any game is
played, so no output file is ever half-written.
"""
from __future__ import annotations

import sys
import traceback
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

import click
from click.core import ParameterSource

from ..core import checkpoint
from ..core.checkpoint import CheckpointError
from ..core.driver import ConfigError, IllegalDecision, StrategyCompileError
from ..core.output import OutputError, check_out_path, check_plan, check_plot_path, out_files
from ..core.plugins import PluginError
from ..core.registry import GAMES, UnknownGame
from ..core.specs import (  # noqa: F401  re-exported: the commands parse their options with these
    check_players,
    default_threads,
    load_game_deck,
    parse_player_counts,
    parse_strategies,
    parse_strategy_list,
)
from ..games.card.deck import DeckError
from ..study.analysis import AnalysisDependencyError
from . import signals

USER_ERRORS = (ConfigError, DeckError, OutputError, PluginError, AnalysisDependencyError, CheckpointError,
               UnknownGame, IllegalDecision, StrategyCompileError)
PROGRESS_DELAY_S = 2.0  # no bar for runs shorter than this
GAME_HELP = "The game: card (Medici: The Card Game, rules R1-R25) or classic (the 1995 auction game, C1-C21)."


def game_option(command):
    return click.option("--game", "-g", "game_name", type=click.Choice(sorted(GAMES)), default="card",
                        show_default=True, help=GAME_HELP)(command)


def given_options(ctx: click.Context) -> set[str]:
    """The parameters the user gave on the command line (not left at their defaults)."""
    return {p.name for p in ctx.command.params
            if p.expose_value and ctx.get_parameter_source(p.name) not in (None, ParameterSource.DEFAULT)}


@dataclass
class RunFiles:
    """Every file a command reads or writes, checked together before the first game."""

    out: str | None = None
    plot: str | None = None
    checkpoint: str | None = None
    resume: str | None = None
    overwrite_checkpoint: bool = False
    deck: str | None = None
    plugins: tuple[str, ...] = ()
    tuned: str | None = None  # balance --tuned FILE (or "shipped": the package's, never written)

    @property
    def checkpoint_target(self) -> str | None:
        """Where checkpoints go: --checkpoint, else the file being resumed."""
        return self.checkpoint or self.resume

    def check(self, table_names: list[str]) -> None:
        for option, value in (("--out", self.out), ("--plot", self.plot), ("--checkpoint", self.checkpoint),
                              ("--resume", self.resume), ("--deck", self.deck), ("--tuned", self.tuned)):
            if value is not None and not value.strip():
                raise ConfigError(f"{option}: an empty file name")
        if self.overwrite_checkpoint and not self.checkpoint:
            raise ConfigError("--overwrite-checkpoint needs --checkpoint FILE (the file to start over in)")
        outputs: list[tuple[str, Path]] = []
        if self.out:
            check_out_path(self.out)
            outputs += out_files(self.out, table_names)
        if self.plot:
            outputs.append(("--plot", check_plot_path(self.plot)))
        if self.checkpoint_target:
            outputs.append(("--checkpoint", Path(self.checkpoint_target)))
        inputs = [("--deck", Path(self.deck))] if self.deck else []
        inputs += [("--plugin", Path(p)) for p in self.plugins]
        if self.tuned and self.tuned != "shipped":
            inputs.append(("--tuned", Path(self.tuned)))
        if self.resume and self.checkpoint:
            inputs.append(("--resume", Path(self.resume)))  # checkpoints go elsewhere: never over the resumed file
        check_plan(outputs, inputs)
        if self.checkpoint:
            checkpoint.refuse_existing(self.checkpoint, self.resume, self.overwrite_checkpoint)

    def locked(self):
        """Hold the checkpoint's lock for the run (no two runs write one checkpoint)."""
        return checkpoint.lock(self.checkpoint_target) if self.checkpoint_target else nullcontext()


class CompileNotice:
    """Says once on stderr that the engine is compiling and roughly how long that takes, with
    a timer while it does (a first run compiles; later runs load the kernel from the cache)."""

    TYPICAL = "10-30 s on 2 cores"
    AFTER = 2.0  # seconds: loading a cached kernel takes well under this, even on a busy machine

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.bar = None
        self.told = False

    def __call__(self, kernel, seconds: float) -> None:
        if self.quiet or seconds < self.AFTER or not sys.stderr.isatty():  # for people, not logs
            return
        if not self.told:
            self.told = True
            click.echo(f"medici-sim: compiling the {kernel.game.name} engine for {', '.join(kernel.table_names)} "
                       f"(once: typically {self.TYPICAL}; later runs load it from the cache)", err=True)
            from tqdm import tqdm

            self.bar = tqdm(desc="compiling", bar_format="{desc}: {elapsed}", file=sys.stderr, leave=False)
        if self.bar is not None:
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def progress_bar(total: int, quiet: bool):
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=" games", unit_scale=True, delay=PROGRESS_DELAY_S,
                file=sys.stderr, leave=False)


_DEBUG = False


def reset_debug() -> None:
    global _DEBUG
    _DEBUG = False


def _set_debug(ctx, param, value) -> None:
    global _DEBUG
    _DEBUG = _DEBUG or value


wide_option = click.option("--wide", is_flag=True,
                           help="Print every column at full precision (the default tables fit 100 columns; "
                                "--out files always hold every column).")
debug_option = click.option("--debug", is_flag=True, expose_value=False, callback=_set_debug,
                            help="On an error, show the full trace as well (e.g. why a plug-in does not compile).")


def fail(message: str, exc: BaseException | None = None) -> None:
    """One line on stderr and exit code 2 (with --debug, the full trace first)."""
    if _DEBUG and exc is not None:
        traceback.print_exception(exc, file=sys.stderr)
    one_line = " ".join(message.split("\n"))  # user input quoted in a message may hold newlines
    click.echo(f"medici-sim: error: {one_line}", err=True)
    sys.exit(2)


def nothing_played() -> None:
    """Ctrl-C (or SIGTERM) before any game finished: say so, print no table of empty statistics."""
    click.echo(f"medici-sim: {signals.interrupted_word()} before any game finished; nothing to report", err=True)
    sys.exit(signals.interrupted_code())


def absolute(plugins) -> tuple[str, ...]:
    """Plug-in paths as workers of a cluster can open them."""
    return tuple(str(Path(p).resolve()) for p in plugins)


