"""The game contract: everything a game gives the rest of the package, in declared parts.

A game is a :class:`Game` record (its package builds one and calls ``registry.register_game``);
nothing is found by a file's or a folder's name. In one screen::

    Game                        name, title, players (min, max, default), presets, strategy registry,
                                built-ins, rule book                                           (required)
      .engine: Engine           the jitted batch kernel, the stepping functions, the statistics it
                                counts, its returns, the trace / reference / invariant hooks   (required)
      .presentation: Presentation  what people read: summary, rules page and points, help, narration,
                                the console                                                    (required)
      .data: GameData | None    the game's component set (cards, tiles): loading, naming, text (optional)
      .study: StudyPolicy | None   what studies do with it: rule sets to balance, the ladder's levels,
                                rollouts, tuned and learned files                              (optional)
      .framework: FrameworkFacts | None  what the game-AI adapters need: what each seat sees, its
                                chance events (through its seat view), its score's name        (optional)

Each part is all-or-nothing: a part that is present has every required member, which the
conformance suite (tests/conformance/test_every_game.py) checks for every registered game; a
part that is absent is the game's declaration that it has none (no components: no component
files; no framework facts: not offered to OpenSpiel, PettingZoo or Python agents, ``no_framework`` saying why; no
study policy: ``balance`` and ``--ladder`` refuse it, saying so). Members are described as OpenSpiel's
``GameType`` is: each with its arguments and what it returns. ``RunConfig`` is core.driver's, a
prepared run (``PreparedRun``) core.driver's too.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from .rules import RuleBook


class Strategies(Protocol):
    """A game's strategies by name (core.registry.StrategyRegistry is one)."""

    game: str  # the game's name
    decisions: tuple[str, ...]  # the decisions every strategy of the game defines, in order
    package: str  # the game's package: a strategy whose functions live there is a built-in

    def __getitem__(self, name: str): ...  # the registry.Strategy of that name

    def __contains__(self, name: object) -> bool: ...

    def __iter__(self) -> Iterator[str]: ...


@dataclass(frozen=True)
class StatColumn:
    """A per-seat statistic a game adds to the common ones: ``mean`` (total / games) or
    ``ratio`` (total / the total of column ``per``); ``shown``: its heading in the tables
    people read (with ``digits`` decimals, and ``caption`` saying what it holds), or "" for
    --wide and --out files only."""

    name: str
    kind: str = "mean"
    per: str = ""
    shown: str = ""
    digits: int = 1
    caption: str = ""


@dataclass(frozen=True)
class Stepping:
    """A game stopped at every decision and event and played on (core.resumable), all ``@njit``;
    ``buffer`` is a one-element copy of ``Engine.kernel_inputs``, ``table`` the run's strategy table.

    - ``new_game_nb(buffer, seed, game_index, seating, slot_strategy, slot_params, table)``: start
      game ``game_index``; a slot whose strategy is ``stepping.EXTERNAL`` is answered by the caller.
    - ``advance_nb(buffer, table) -> event``: play to the next stop (``stepping.GAME_OVER`` at the end).
    - ``legal_choices_nb(buffer, table) -> int64[:]``: the choices the rules allow at the decision.
    - ``apply_choice_nb(buffer, table, choice) -> event``: answer it and play to the next stop.
    - ``trace_game_nb(seed, game_index, inputs, seating, slot_strategy, slot_params, table) -> buffer``.
    - ``accumulate_game_nb(state, rows, pair_stats, run_stats)``: a finished game's statistics,
      exactly what the batch kernel adds for it (core.accounting).
    """

    new_game_nb: Callable
    advance_nb: Callable
    legal_choices_nb: Callable
    apply_choice_nb: Callable
    trace_game_nb: Callable
    accumulate_game_nb: Callable


@dataclass(frozen=True)
class Engine:
    """The jitted engine and the hooks that check it (required)."""

    # (seed, first_game, n_games, inputs, seating, slot_strategy, slot_params, seat_stats, slot_stats, pair_stats,
    #  run_stats, table) -> None: games first_game.. played and added to the stats (core.kernel.batch_kernel)
    play_games_nb: Callable
    # (RunConfig, kept_parts) -> the one-element state buffer every game of the run starts from; kept_parts: the
    # optional parts of the state (StrategyRegistry.optional_parts) its games keep up to date, the others left stale
    kernel_inputs: Callable
    # new game / advance / legal choices / apply, the trace and a game's statistics; None: the game cannot be
    # stopped at a decision yet (no_stepping says why): no play, no small game API, no framework, no agent
    stepping: Stepping | None
    scores: Callable  # (state record, players) -> int64[players]: each seat's score (final once over: the returns)
    stat_columns: tuple[StatColumn, ...]  # per seat / slot, after the common columns
    run_columns: tuple[str, ...]  # run-wide counters, after the common ones
    trace: Callable  # (PreparedRun, game_index) -> a trace whose .record() is the reference's record of that game
    reference_game: Callable  # (RunConfig, game_index) -> the independent reference engine's record of that game
    reference_strategies: Callable  # () -> the strategy names the reference engine plays
    invariants: Callable  # (record, RunConfig) -> None; AssertionError names a broken invariant
    # run counter -> (rule values) -> whether it can count anything under them (absent: always); where it
    # cannot, its rate does not apply ("n/a", never 0)
    counted_under: Mapping[str, Callable] = field(default_factory=dict, hash=False)
    # (buffer, seed, game_index, seating, slot_strategy, slot_params, rows, seat_stats, slot_stats, pair_stats,
    # run_stats, table) -> None: one game in a buffer its caller keeps (core.pairing); None: play_games_nb per game
    play_game_in_nb: Callable | None = None
    check_config: Callable | None = None  # (RunConfig) -> None, raises ValueError for an unplayable run
    # what the game adds to the consistency rules of saved totals (core.totals_check): an object with
    # row(row, where, games, players, rules) and run(run, where, games, players, rules), raising
    # accounting.InconsistentTotals
    totals_identities: object | None = None
    # CPU seconds a first run compiles its kernel (benchmarks/bench_compile.py): (fewest strategies,
    # every heuristic), and a kernel with its rollout player; None: not measured
    compile_seconds: tuple[tuple[int, int], int] | None = None
    # The scoring moments the designer metrics are counted over (the leaders after each, comebacks, lead
    # changes), by name: "phase" ("leader after phase 1"), "round"; "": the end only (no comeback, no lead change)
    moment: str = ""
    moments: int = 1  # how many a game has, where its rule book does not say (moment_rule)
    moment_rule: str = ""  # the rule parameter that sets how many (e.g. "phases"), or ""
    # The game's tie-breaks in words with their rule points ("T36: most empty fields, ..."), where seats of equal
    # score are ordered further: its kernel counts wins with accounting.record_outcome_ranked_nb (a rank beside
    # the score; a win is shared only where the tie-breaks leave a tie, and may be won by a margin of 0).
    # "": the highest score wins, ties shared (record_outcome_nb)
    tie_breaks: str = ""
    no_stepping: str = ""  # why the game has no stepping, when it has none
    # True if moments ended by components running out are ordinary play under the game's rules (the
    # classic game's C12, lots put aside): then a share of them is reported, not warned about
    runs_out_in_play: bool = False


class Components(Protocol):
    """A game's component set (its cards, tiles ...) as core handles it."""

    name: str  # how tables and saved runs name it
    n_cards: int  # how many components it holds

    def fingerprint(self) -> str:
        """A hash of its contents: equal contents, equal fingerprints."""

    def to_csv(self) -> str:
        """Its contents as text, what ``GameData.from_text`` reads back (checkpoints keep it)."""

    def shortage_warning(self, players: int) -> str | None:
        """A warning when ``players`` may run it out before the rules end the game, else None."""


@dataclass(frozen=True)
class GameData:
    """The game's component set (optional: a game whose components are fixed has none)."""

    load: Callable  # (a shipped set's name, a file path, or None) -> Components (None: the default set)
    from_text: Callable  # (Components.to_csv's text) -> Components
    named: Callable  # () -> a mapping {name: Components}: the shipped sets, the default first (best read lazily)
    shipped_name: Callable  # (Components) -> the name of the shipped set it is (the same contents), or None
    help: str  # what the command line's component option takes, in words ({names}: the shipped sets' names)
    # what the game calls one set and several, in its own words (the tables' and summaries' column names and the
    # messages: the card game's words for its cards), and what a set's size counts (Components.n_cards: the
    # summary's <noun>_<unit>)
    noun: str = "components"
    plural: str = "component_sets"
    unit: str = "pieces"


@dataclass(frozen=True)
class ScoreSource:
    """One of the places a game's score comes from (``Presentation.score_sources``): ``name`` in column
    names (``mean_<name>_<unit>``, ``<name>_share``), ``shown`` as a table's heading."""

    name: str
    shown: str


@dataclass(frozen=True)
class FirstCommand:
    """A command a new user of the game runs early (the README's table of commands), compiled ahead when the
    package is installed (``medici-sim compile``) so that its first run starts at once."""

    label: str  # how the compile's report and bench_compile.py name it, e.g. "run (classic)"; no comma
    args: tuple[str, ...]  # its words after ``medici-sim``, as the README shows them
    typed: str = ""  # what a person types into it (play's answers), fed to its standard input
    exit_code: int = 0  # its exit code when it is played so (130: the person stopped the game)


@dataclass(frozen=True)
class Presentation:
    """What the commands' help, tables and narration say of the game (required)."""

    summary: str  # the game in a few words with its rule points, e.g. "the 1995 auction game, C1-C21"
    rules_page: str  # the docs page holding the game's rules (a path from the repository's root)
    presets_help: str  # the rule presets in words, e.g. "standard only"
    # topic -> the rules behind it (topics: players, seats, seating, seed, rules, lineups, spending)
    rule_points: Mapping[str, str] = field(default_factory=dict, hash=False)
    narration_help: str = ""  # what `medici-sim trace` tells of a game, with the rule points
    narrate: Callable | None = None  # (PreparedRun, game_index) -> (JSON-serialisable data, text): `medici-sim trace`
    play_console: Callable | None = None  # () -> the class of `medici-sim play`'s table (core.human.Table); None: none
    length_unit: str = "turns"  # what a game's length counts (the designer metrics: <unit>_per_game)
    # The game's score in its own terms: what a score counts, a plural noun (columns mean_<unit>, std_<unit>),
    # and where it comes from, in the order the kernel counts them (core.accounting.STAT_SOURCE + k, as many as
    # the game has: core.accounting.StatLayout; columns mean_<source>_<unit> and <source>_share; (): the score alone)
    score_unit: str = "points"
    score_sources: tuple[ScoreSource, ...] = ()
    first_commands: tuple[FirstCommand, ...] = ()  # what a new user runs first, compiled at install


@dataclass(frozen=True)
class StudyPolicy:
    """What the studies do with the game (optional: without it, balance and --ladder refuse the game).

    ``balance_rules`` (two rule sets balance compares) or ``no_balance`` (why there are none) is
    given, never both. The ladder's levels are strategies of the game's registry: ``weakest`` (every
    seat), the heuristics (the built-ins other than the level strategies), ``searcher`` at growing
    budgets, and ``strongest`` (a learned player) where given."""

    balance_rules: tuple[str, ...] = ()
    no_balance: str = ""  # why balance refuses the game ("" when it has balance_rules)
    weakest: str = ""  # the ladder's first level ("": the ladder starts at the heuristics)
    searcher: str = ""  # the rollout player of the levels at growing budgets ("": none)
    strongest: str = ""  # the learned player of the last level ("": none)
    teacher: str = ""  # the built-in whose games the learned player is trained on (study's training of it)
    rollout_policy: str = ""  # the built-in a rollout player's rollouts play by default (core.rollout)
    tuned_file: Path | None = None  # the shipped tuned parameters (tune --out's best; balance --tuned shipped)
    # () -> the learned player's training declaration (its features, labelling, weights file, and
    # SELF_PLAY_ROUNDS with learner_choice where rounds of its own games are labelled too), or None
    learned: Callable | None = None
    # files compiled into kernels as constants (tuned parameters, learned weights): their contents name the
    # strategy table (core.dispatch), so that a changed file never meets an older kernel in numba's cache
    kernel_data: tuple[Path, ...] = ()


# ------------------------------------------------------------------ framework facts
# What the game-AI frameworks' adapters (frameworks/: OpenSpiel, PettingZoo, Gymnasium) need of a game beyond its
# engine: what each seat can see, its chance events (core.chance, through the seat view) and the score its returns
# are. A game declares them on its Game record (``Game.framework``).
EVERYONE, RIVALS = "everyone", "rivals"  # whom a hidden thing is hidden from (Hidden.hidden_from)


@dataclass(frozen=True)
class Hidden:
    """One thing of a game that some seat cannot see, as the game declares it.

    ``what``: the thing in the game's own words, with its rule points ("the rivals' hands (T12)").
    ``hidden_from``: ``EVERYONE`` (no seat sees it until the game reveals it; the adapters decide it only then, as a
    chance outcome every seat sees, so it leaves the game one of perfect information) or ``RIVALS`` (the seat that
    holds it sees it, the others do not: a hand of cards; the game is then one of imperfect information).
    ``redeal``: ``(state, seat, generator) -> None``, a plain-Python function that deals the thing again in place,
    as it could lie for all ``seat`` can see (``generator``: a numpy Generator); what ``seat`` itself holds stays.
    The conformance suite (tests/conformance) deals every hidden thing again and checks that what the seat sees and
    what every built-in strategy decides for it are unchanged."""

    what: str
    hidden_from: str
    redeal: Callable

    def __post_init__(self):
        if self.hidden_from not in (EVERYONE, RIVALS):
            raise ValueError(f"Hidden({self.what!r}): hidden_from must be {EVERYONE!r} or {RIVALS!r}, "
                             f"got {self.hidden_from!r}")


@dataclass(frozen=True)
class Information:
    """What each seat of a game can see: everything but the things ``hidden`` (none: everything is face up)."""

    hidden: tuple[Hidden, ...] = ()

    @property
    def perfect(self) -> bool:
        """Whether the game is one of perfect information: nothing is hidden from one seat that another sees
        (a thing hidden from everyone is decided only as it is revealed, a chance outcome every seat sees)."""
        return all(h.hidden_from == EVERYONE for h in self.hidden)

    def hidden_from(self, whom: str) -> tuple[Hidden, ...]:
        return tuple(h for h in self.hidden if h.hidden_from == whom)


@dataclass(frozen=True)
class FrameworkFacts:
    """What the game-AI adapters (frameworks/: OpenSpiel, PettingZoo, Gymnasium; core.agent_kernel) need of a
    game beyond its engine (optional: a game without it is in no framework and seats no Python agent, and
    ``Game.no_framework`` says why).

    - ``information``: what each seat can see (``Information``).
    - ``seat_view``: ``() -> `` the game's seat view: a module or object with its action ids, chance outcomes
      and what a seat sees (the protocol is listed in docs/frameworks.md, "A game's seat view").
    - ``score``: what the adapters' ``returns=`` calls the game's final score (the unit of its score,
      "points"); its other value, ``wins``, is the win credit."""

    information: Information
    seat_view: Callable
    score: str = "score"


@dataclass(frozen=True)
class Game:
    """One game as the shared code sees it: who plays it, and its declared parts."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    # The rules are named once: "rules" is a set of rule values wherever it is given (RunConfig's spec, the API's
    # rules=, the command line's --rules: presets and name=value items, core.rules), "presets" the named ones.
    presets: tuple[str, ...]  # the rule presets by name (a game without a rule book: its only rules); first: default
    registry: Strategies  # core.registry.StrategyRegistry
    # its built-in heuristics, weakest first: the first is its baseline (a run given no strategies plays it at
    # every seat), the last its strongest (`medici-sim play`'s opponents unless told otherwise)
    built_ins: tuple[str, ...]
    engine: Engine
    presentation: Presentation
    data: GameData | None = None
    study: StudyPolicy | None = None
    framework: FrameworkFacts | None = None
    no_framework: str = ""  # why the game has no framework facts, when it has none
    rule_book: RuleBook | None = None  # the rule parameters and presets (core.rules); None: the presets only

    def rule_point(self, topic: str) -> str:
        """The rule points behind ``topic`` (``Presentation.rule_points``), or ""."""
        return self.presentation.rule_points.get(topic, "")

    @property
    def variants(self) -> tuple[str, ...]:  # keep: old name
        """``presets`` by its older name (deprecated)."""
        return self.presets

    @property
    def balance_variants(self) -> tuple[str, ...]:  # keep: old name
        """``balance_rules`` by its older name (deprecated)."""
        return self.balance_rules

    @property
    def data_noun(self) -> str:
        """What the game calls one component set (``GameData.noun``; "components" for a game without them): the
        name of the tables' column and the summaries' key that say which set a configuration played."""
        return self.data.noun if self.data is not None else GameData.noun

    @property
    def data_plural(self) -> str:
        """What the game calls several component sets (``GameData.plural``)."""
        return self.data.plural if self.data is not None else GameData.plural

    @property
    def data_plural_words(self) -> str:
        """``data_plural`` as prose says it ("component sets"; the column names keep the underscore)."""
        return self.data_plural.replace("_", " ")

    @property
    def seat_view(self):
        """The game's seat view, or ValueError saying why it has none (FrameworkFacts)."""
        if self.framework is None:
            why = self.no_framework or "it declares no framework facts (what each seat sees, its chance events)"
            raise ValueError(f"the {self.name} game is not offered to game-AI frameworks or agents: {why}")
        return self.framework.seat_view()

    @property
    def balance_rules(self) -> tuple[str, ...]:
        """The two rule sets balance compares by default; () when the game has none (``no_balance``)."""
        return self.study.balance_rules if self.study is not None else ()

    @property
    def no_balance(self) -> str:
        """Why the game has no rule sets to balance by default ("" when it has them)."""
        if self.balance_rules:
            return ""
        return self.study.no_balance if self.study is not None else "it declares no study policy"
