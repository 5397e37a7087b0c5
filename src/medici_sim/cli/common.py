"""What every command shares: parsing, user errors, progress and printing (signals: ``signals``).

Bad input never shows a traceback: every user error is one of :data:`USER_ERRORS`, turned
into one line on stderr and exit code 2 by ``main``; it is raised before any game is
played, so no output file is ever half-written.
"""
from __future__ import annotations

import logging
import shutil
import sys
import textwrap
import time
import traceback
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path

import click
from click.core import ParameterSource

from ..core import compiling
from ..core.arguments import MediciWarning, named
from ..core.driver import ConfigError, IllegalDecision, StrategyCompileError, StrategyError
from ..core.output import OutputError, check_out_path, check_plan, check_plot_path, lock_all, out_files, same_file
from ..core.plugins import PluginError
from ..core.registry import GAMES, UnknownGame, default_game
from ..core.seating import SEATING_MODES
from ..core.specs import (  # noqa: F401  re-exported: the commands parse their options with these
    check_players,
    default_threads,
    game_named,
    load_game_components,
    parse_player_counts,
    parse_strategies,
    parse_strategy_list,
)
from ..study.analysis import AnalysisDependencyError
from ..study.studies import ALL_COMPONENT_SETS
from ..watch import CheckpointError, Watch, check_checkpoint_files
from . import signals

USER_ERRORS = (ConfigError, OutputError, PluginError, AnalysisDependencyError, CheckpointError,
               UnknownGame, IllegalDecision, StrategyCompileError, StrategyError)
PROGRESS_DELAY_S = 2.0  # no bar for runs shorter than this
NEEDS_ANALYSIS = " Needs matplotlib: pip install \"medici-sim[analysis]\"."  # --report's and --plot's help
NEEDS_PARQUET = " Parquet needs pyarrow: pip install \"medici-sim[parquet]\"."  # --out's help
TEXT_WIDTH = 100  # lines are wrapped to the terminal's width; to this one where it cannot be known (a pipe)


def _either(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 2 else words)


def game_help() -> str:
    """--game's help: every registered game with its rule points (``Presentation.summary``)."""
    summaries = [(g.name, g.presentation.summary) for g in GAMES.values()]
    return f"The game: {_either([f'{name} ({summary})' if summary else name for name, summary in summaries])}."


def per_game(topic: str) -> str:
    """The rule points behind ``topic`` in every game that has some, for a help text: "R25, C20"."""
    return ", ".join(points for g in GAMES.values() if (points := g.rule_point(topic)))


def players_help() -> str:
    """The player counts of every game, with their rule points: "card: 2-6, R6; classic: 3-6, C1"."""
    return "; ".join(f"{g.name}: {g.min_players}-{g.max_players}" + (f", {g.rule_point('players')}"
                                                                      if g.rule_point("players")
                                                                       else "") for g in GAMES.values())


def usual_players() -> str:
    """Where a command's player count defaults to each game's usual one, for a help text:
    "[default: the game's usual count: card 4, classic 4]"."""
    return f"[default: the game's usual count: {', '.join(f'{g.name} {g.default_players}' for g in GAMES.values())}]"


def rules_option(name: str = "rules", also: str = ""):
    """--rules SPEC (alias --variant): the rule set to play, as presets and name=value items
    (core.rules); ``also``: what else the command accepts, in words."""
    return click.option("--rules", "--variant", name, default=None, metavar="SPEC",
                        help="The rules [default: the game's standard rules]: presets and name=value items, "
                             "comma-separated and applied left to right (PRESET,NAME=VALUE; a list slash-separated: "
                             f"NAME=30/20/10/0), or a .toml file{also}; `medici-sim rules --game GAME` lists them. "
                             f"Presets: {presets_help()}")


def presets_help() -> str:
    """The rules of every game, each as its registration words them (``Presentation.presets_help``)."""
    return "; ".join(f"{g.name}: {g.presentation.presets_help or ' or '.join(g.presets)}"
                     for g in GAMES.values()) + "."


class GameChoice(click.Choice):
    """--game: one of the games registered when the command line is read (a game registered
    after the commands were defined is offered too)."""

    def __init__(self):
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(sorted(GAMES))

    @choices.setter
    def choices(self, value) -> None:  # click.Choice sets them; ours are the registry's
        pass


class _RefusingEmpty:
    """An option or argument given an empty value (``--scheduler ''``) is an error, never the
    same as leaving it out."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            _refuse_repeats(self, ctx, args)
        rest = super().parse_args(ctx, args)
        for param in self.params:
            if ctx.get_parameter_source(param.name) in (None, ParameterSource.DEFAULT):
                continue
            value = ctx.params.get(param.name)
            if any(isinstance(v, str) and not v.strip() for v in (value if isinstance(value, tuple) else (value,))):
                raise click.BadParameter("an empty value" + (" (leave the option out for its default)"
                                                             if isinstance(param, click.Option) else ""), ctx, param)
        return rest


def _refuse_repeats(command: click.Command, ctx: click.Context, args: list[str]) -> None:
    """An option that holds one value given twice (``--rules NAME=2 --rules PRESET``, ``--rules``
    with its alias ``--variant``, ``--vs`` twice) is an error: the later one would silently
    replace the earlier."""
    _, _, order = command.make_parser(ctx).parse_args(args=list(args))
    seen: dict[str, int] = {}
    for param in order:
        if isinstance(param, click.Option) and not param.multiple and not param.count and not param.is_flag:
            seen[param.name] = seen.get(param.name, 0) + 1
            if seen[param.name] == 2:
                names = "/".join(param.opts)
                hint = (f" (one SPEC holds several changes, applied left to right: {param.opts[0]} PRESET,NAME=VALUE)"
                        if param.metavar == "SPEC" else "")
                raise click.UsageError(f"{names} is given more than once; give it once{hint}", ctx)


class Command(_RefusingEmpty, click.Command):
    """Every medici-sim subcommand: ``@click.command(cls=Command)``."""


class Group(_RefusingEmpty, click.Group):
    """The medici-sim command group (the main command's options)."""


def components_option(repeatable: bool = False):
    """--components NAME|FILE (alias --deck, its older name), read by the game's own ``GameData.load`` wherever a
    command takes a component set; compare and balance take it repeatedly (each set plays its own games)."""
    text = " ".join(g.data.help.format(names=", ".join(g.data.named())) for g in GAMES.values() if g.data is not None)
    if repeatable:
        text += " Repeat it to play each set in turn (or give all): one table per set."
    return click.option("--components", "--deck", "components_path", multiple=repeatable, default=None,
                        metavar="NAME|FILE", help=text)


LISTED = "--decks"  # compare's and balance's component sets as one comma list (the older form of --components)


def older_names(args: list[str]) -> dict[str, str]:
    """How messages name the options (``arguments.naming``): the comma list of component sets as --decks, and the
    component option given by an older name (--deck; --decks alone) as the user wrote it, as they always read.
    (--variant's messages name --rules, as they always have.)"""
    written = {arg.partition("=")[0] for arg in args if arg.startswith("--")}
    names = {"component_sets": LISTED}
    if "--deck" in written:
        names["components"] = "--deck"
    elif LISTED in written and "--components" not in written:
        names["components"] = LISTED
    return names


def shipped_component_sets() -> list[str]:
    """The names of every game's shipped component sets (each game's ``GameData.named``)."""
    return list(dict.fromkeys(name for g in GAMES.values() if g.data is not None for name in g.data.named()))


def components_file(spec: str | None) -> str | None:
    """A --components value that names a file (an input to check), or None (none, a shipped component set's
    name, or --components all)."""
    return spec if spec is not None and spec not in shipped_component_sets() and spec != ALL_COMPONENT_SETS else None


def game_option(command):
    return click.option("--game", "-g", "game_name", type=GameChoice(), default=default_game(),
                        show_default=True, help=game_help())(command)


def given_options(ctx: click.Context) -> set[str]:
    """The parameters the user gave on the command line (not left at their defaults)."""
    return {p.name for p in ctx.command.params
            if p.expose_value and ctx.get_parameter_source(p.name) not in (None, ParameterSource.DEFAULT)}


_FIELDS = {"game_name": "game", "players_spec": "players", "strategies_spec": "strategies", "strategy_spec": "strategy",
           "variant_spec": "rules", "components_path": "components", "component_sets_spec": "components",
           "tuned_spec": "tuned",
           "resume_path": "resume"}  # click's parameter names that are not the API request's


def given_fields(given: set[str], request: type) -> frozenset[str]:
    """The options given (``given_options``) as fields of the API's ``request`` (``components_path``
    is ``components``); the others (--out, --quiet, ...) are this command line's own."""
    names = {f.name for f in fields(request)}
    return frozenset(_FIELDS.get(name, name) for name in given) & names


@dataclass
class RunFiles:
    """Every file a command reads or writes, checked together before the first game."""

    out: str | None = None
    plot: str | None = None
    checkpoint: str | None = None
    resume: str | None = None
    overwrite_checkpoint: bool = False
    components: str | None = None
    plugins: tuple[str, ...] = ()
    tuned: str | None = None  # balance --tuned FILE (or "shipped": the package's, never written)
    report: str | None = None  # --report FILE.html (study.report)
    planned: list[tuple[str, Path]] = field(default_factory=list, init=False)  # what check() found it writes

    @property
    def checkpoint_target(self) -> str | None:
        """Where checkpoints go: --checkpoint, else the file being resumed."""
        return self.checkpoint or self.resume

    @property
    def checkpoint_option(self) -> str:
        """The option that named where checkpoints go (``checkpoint_target``)."""
        return "--checkpoint" if self.checkpoint else "--resume"

    def check(self, table_names: list[str]) -> None:
        if self.overwrite_checkpoint and not self.checkpoint:
            raise ConfigError("--overwrite-checkpoint needs --checkpoint FILE (the file to start over in)")
        outputs: list[tuple[str, Path]] = []
        if self.out:
            check_out_path(self.out)
            outputs += out_files(self.out, table_names)
        if self.plot:
            outputs.append(("--plot", check_plot_path(self.plot)))
        if self.report:
            from ..study.report import check_report_path

            outputs.append(("--report", check_report_path(self.report)))
        if self.checkpoint_target:
            outputs.append((self.checkpoint_option, Path(self.checkpoint_target)))
        inputs = [(named("components"), Path(self.components))] if self.components else []
        inputs += [("--plugin", Path(p)) for p in self.plugins]
        if self.tuned and self.tuned != "shipped":
            inputs.append(("--tuned", Path(self.tuned)))
        if self.resume and self.checkpoint and not same_file(Path(self.checkpoint), Path(self.resume)):
            inputs.append(("--resume", Path(self.resume)))  # checkpoints go elsewhere: never over the resumed file
        check_plan(outputs, inputs)
        check_checkpoint_files(outputs, self.checkpoint, self.resume, self.overwrite_checkpoint)
        self.planned = outputs

    def watch(self, options: dict, **more) -> Watch:
        """What the API opens for the command (``api.Watch``): the checkpoint saved where these files say, the
        cluster the options name (--scheduler, --cluster, the plug-ins' workers); ``more``: progress, Ctrl-C ..."""
        return Watch(checkpoint=self.checkpoint_target, checkpoint_option=self.checkpoint_option,
                     scheduler=options.get("scheduler"), cluster=options.get("cluster_spec"), plugins=self.plugins,
                     **more)

    def locked(self):
        """Hold a lock on every file the run writes (checked by ``check``) for the run: no two
        runs write one file."""
        return lock_all(self.planned)


class CompileNotice(compiling.Notice):
    """Says once on stderr that the engine is compiling and roughly how long that takes (a
    terminal or not: one line, wrapped between words to a terminal's width), with a timer on a
    terminal while it does (a first run compiles; later runs load the kernel from the cache)."""

    def __init__(self, quiet: bool):
        super().__init__()
        self.quiet = quiet
        self.bar = None

    def ready(self) -> bool:
        return not self.quiet

    def tell(self, text: str) -> None:
        tell_on_stderr(text)
        if sys.stderr.isatty():  # a timer is for people, not logs
            from tqdm import tqdm

            self.bar = tqdm(desc="compiling", bar_format="{desc}: {elapsed}", file=sys.stderr, leave=False)

    def tick(self) -> None:
        if self.bar is not None:
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def tell_on_stderr(text: str) -> None:
    """A notice on stderr: wrapped between words to a terminal's width, one line elsewhere (a log)."""
    click.echo(wrapped(text) if sys.stderr.isatty() else text, err=True)


class _Notices(logging.Handler):
    """The package's notices (the ``medici_sim`` logger: a compile notice where a command passes
    none of its own, as trace and check-plugin) said as the command line says its own."""

    def emit(self, record: logging.LogRecord) -> None:
        tell_on_stderr(record.getMessage())


def route_notices() -> None:
    """Say the package's logged notices on stderr as the command line's own (once a process)."""
    logger = logging.getLogger(compiling.LOGGER.name)
    if not any(isinstance(h, _Notices) for h in logger.handlers):
        logger.addHandler(_Notices())
        logger.propagate = False


BASELINE = "[default: the game's first built-in, random in the games shipped]"  # --strategies not given
SEATINGS = click.Choice(list(SEATING_MODES))  # --seating's choices (core.seating)
LONG_RUN_S = 600.0  # a run expected to last longer than this is said to be long, with how to shorten it
ESTIMATE_AFTER_S = 5.0  # seconds of play (after the compilation) before its speed is trusted


class GameProgress:
    """A bar on stderr that counts games (or another ``unit``) and times them: it starts when the
    first game does (the driver says so with ``progress(0)`` once the kernel is ready), so a
    compilation before it (the compile notice's business) never slows its rate or swells its
    estimate. Once its games have run ``ESTIMATE_AFTER_S`` seconds, a run that will take longer
    than ``LONG_RUN_S`` is said so, once, in one line with ``shorter``: how to make it shorter."""

    def __init__(self, total: int, done: int = 0, unit: str = " games", shorter: str = ""):
        self.total, self.done, self.unit, self.shorter = total, done, unit, shorter
        self.bar = None
        self.began: tuple[float, int] | None = None  # (when, done) at the first report
        self.told = False

    def __call__(self, games: int) -> None:
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=self.total, initial=self.done, unit=self.unit, unit_scale=True,
                            delay=PROGRESS_DELAY_S, file=sys.stderr, leave=False)
        if self.began is None:
            self.began = (time.perf_counter(), self.done)
        self.done += games
        self.bar.update(games)
        self._estimate()

    def _estimate(self) -> None:
        seconds, done = time.perf_counter() - self.began[0], self.done - self.began[1]
        if self.told or seconds < ESTIMATE_AFTER_S or done <= 0:
            return
        self.told = True
        left = (self.total - self.done) * seconds / done
        if left > LONG_RUN_S:
            rate = done / seconds
            speed = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"
            shorter = f"; to make it shorter: {self.shorter}" if self.shorter else ""
            self.bar.write(wrapped(f"medici-sim: this will take about {duration(left)} more on this machine "
                                   f"({speed}{self.unit} a second){shorter}"), file=sys.stderr)

    def postfix(self, text: str) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(text)

    def grow(self, games: int) -> None:
        """More games asked for (--precision's next round)."""
        self.total += games
        if self.bar is not None:
            self.bar.total = self.total

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def duration(seconds: float) -> str:
    """A duration in words a person reads at a glance: 25 min, 6 h 05 min, 3 days 4 h."""
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{max(minutes, 1)} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes:02d} min"
    days, hours = divmod(hours, 24)
    return f"{days} days {hours} h"


def slow_players() -> dict[str, tuple[str, float]]:
    """The strategies whose games cost thousands of a heuristic's (those ``tune`` refuses: ``Strategy.untunable``,
    in any game), each with its budget (its first parameter: rollouts, iterations) and a quarter of its default."""
    return {name: (next(iter(s.params)), s.params[next(iter(s.params))].default // 4)
            for game in GAMES.values() for name, s in game.registry.items() if s.untunable and s.params}


def shorter_hint(options: str, strategies=(), cluster: bool = True) -> str:
    """How to make a run shorter: the command's ``options`` in words, a smaller budget for each player of
    ``strategies`` (names or specs) whose games cost thousands of a heuristic's, and (``cluster``) more cores."""
    parts = [options]
    slow = slow_players()
    named = dict.fromkeys(n for n in (str(s).split(":")[0].strip() for s in strategies) if n in slow)
    if named:
        budgets = ", ".join(f"{n}:{slow[n][0]}={max(slow[n][1], 1):g}" for n in named)
        parts.append(f"fewer rollouts or iterations ({budgets})")
    if cluster:
        parts.append("more cores (--cluster local:N, --scheduler)")
    return ", ".join(parts) + "; Ctrl-C stops it and keeps what is played"


def progress_bar(total: int, quiet: bool, done: int = 0, unit: str = " games",
                 shorter: str = "") -> GameProgress | None:
    """A bar for ``total`` games (``done`` of them played before), for people: none with --quiet,
    nor when stderr is not a terminal. ``shorter``: how to make the run shorter (``shorter_hint``),
    said when it will take long."""
    if quiet or not sys.stderr.isatty():
        return None
    return GameProgress(total, done, unit, shorter)


_DEBUG = False


def reset_debug() -> None:
    global _DEBUG
    _DEBUG = False


def _set_debug(ctx, param, value) -> None:
    global _DEBUG
    _DEBUG = _DEBUG or value


wide_option = click.option("--wide", is_flag=True,
                           help="Print every column at full precision (the default tables fit the terminal, "
                                "100 columns in a pipe; --out files always hold every column).")
wrap_option = click.option("--wide", is_flag=True,
                           help="Print long lines whole (by default they are wrapped between words to the "
                                f"terminal's width, or to {TEXT_WIDTH} columns when it cannot be known).")


def wrapped(text: str, hang: int = 4, width: int | None = None) -> str:
    """``text`` with every line longer than ``width`` (default: the terminal's) broken between
    words, the continuation indented ``hang`` more than the line itself."""
    width = max(width or shutil.get_terminal_size((TEXT_WIDTH, 24)).columns, 40)
    lines = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        lines += textwrap.wrap(line.strip(), width, initial_indent=indent, subsequent_indent=indent + " " * hang,
                               break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines)


def echo_text(text: str, wide: bool, hang: int = 4, nl: bool = True) -> None:
    """Print ``text`` wrapped to the terminal (``wide``: as it is)."""
    click.echo(text if wide else wrapped(text, hang), nl=nl)
debug_option = click.option("--debug", is_flag=True, expose_value=False, callback=_set_debug,
                            help="On an error, show the full trace as well (e.g. why a plug-in does not compile).")


def fail(message: str, exc: BaseException | None = None) -> None:
    """One line on stderr and exit code 2 (with --debug, the full trace first)."""
    if _DEBUG and exc is not None:
        traceback.print_exception(exc, file=sys.stderr)
    one_line = " ".join(message.split("\n"))  # user input quoted in a message may hold newlines
    click.echo(f"medici-sim: error: {one_line}", err=True)
    sys.exit(2)


@contextmanager
def warnings_on_stderr():
    """medici-sim's warnings (core.arguments.MediciWarning) as one line each on stderr, each
    said once in a command; other warnings as Python shows them."""
    said: set[str] = set()
    with warnings.catch_warnings():
        warnings.simplefilter("always", MediciWarning)
        shown = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None):
            if not issubclass(category, MediciWarning):
                return shown(message, category, filename, lineno, file, line)
            if str(message) not in said:
                said.add(str(message))
                click.echo(f"medici-sim: warning: {' '.join(str(message).split())}", err=True)

        warnings.showwarning = show
        yield


def nothing_played() -> None:
    """Ctrl-C (or SIGTERM) before any game finished: say so, print no table of empty statistics."""
    click.echo(f"medici-sim: {signals.interrupted_word()} before any game finished; nothing to report", err=True)
    sys.exit(signals.interrupted_code())
