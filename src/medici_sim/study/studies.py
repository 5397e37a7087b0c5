"""Compare and balance as computations: what to play, playing it, and the answer as tables.

A :class:`Study` says what a tournament study plays (game, player counts, strategies, rules,
seed, games or a precision). :func:`plan` makes its tournaments (every lineup rotated, each
in its own block of game indices, R24, R25); :func:`play` plays them (fixed games, or
batches until every win rate is as precise as asked); :func:`compare_answer` and
:func:`balance_answer` turn them into tables. The command line and the Python API
(``medici_sim.compare``, ``medici_sim.balance``) share all of it.

A study may play several component sets (the card game's reconstructions, R3, R4): each
set is its own block of configurations (its own game indices), its tables carry a column naming it
(in the game's word, ``Game.data_noun``), and balance says on how many sets each finding of the verdict
holds (study.across). With one set the tables and numbers are exactly those of a one-set study.
"""
from __future__ import annotations

import math
import shlex
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import pandas as pd

from ..core.arguments import ConfigError, file_names, in_api, named, real, text
from ..core.driver import SeatStrategy, canonical_rules, check_games, check_seed, check_threads, rule_set
from ..core.registry import GAMES, Game, fitted_summary
from ..core.rules import same_games
from ..core.specs import (
    default_threads,
    game_named,
    load_game_components,
    parse_player_counts,
    parse_strategy_list,
    warn_unfitted,
)
from .across import across_component_sets, across_lines
from .analysis import (
    balance_tables,
    head_to_head_table,
    max_half_width,
    ratings_table,
    rule_names,
    strategy_table,
    verdict,
)
from .tournament import CONFIG_BLOCK, LINEUP_BLOCK, Tournament, lineups
from .tuning import TunedParameters, load_tuned
from .tuning import spec as strategy_spec

ALL_COMPONENT_SETS = "all"  # --components all: every shipped component set of the game (its ``GameData.named``)
MAX_PRECISION_GAMES = 10**10  # --precision refuses a request that could need more games per configuration
Z95 = 1.959963984540054
COMPARE_TABLES = ["strategies", "ratings", "head_to_head"]
BALANCE_TABLES = ["strategies", "rules"]
TUNED_TABLE = "parameters"  # balance --tuned: each strategy's parameters under each rule
RULES_DIFFER = "each rule's own are better"  # the cross check's finding that the rules change the best parameters
# configurations (component sets x player counts) whose game indices fit int64
MAX_CONFIGURATIONS = (2**63 - 1) // CONFIG_BLOCK


def load_component_sets(game: Game, specs: str | Sequence[str] | None, argument: str = "components") -> tuple:
    """The study's component sets, one block of configurations each.

    ``specs``: None or empty for the game's default component set; ``"all"`` for every shipped component set
    (``GameData.named``: the default first); otherwise shipped component sets' names or component set files'
    paths. The same component set twice (the same contents) is refused. A game without component sets has the
    single component set None. ``argument``: the option that gave them (``components``; the command line's
    comma list: ``component_sets``, its older --decks).
    """
    specs = list(file_names(specs, argument)) if specs is not None else []
    if game.data is None or not specs:
        return (load_game_components(game, specs[0] if specs else None),)
    if ALL_COMPONENT_SETS in specs:
        if len(specs) > 1:
            raise ConfigError(f"{named(argument)} all is every shipped {game.data.noun} "
                              f"({', '.join(game.data.named())}); name no other {game.data.noun} with it")
        return tuple(game.data.named().values())
    component_sets = tuple(load_game_components(game, spec) for spec in specs)
    seen: dict[str, str] = {}
    for spec, components in zip(specs, component_sets, strict=True):
        if components.fingerprint() in seen:
            raise ConfigError(f"{named(argument)}: {seen[components.fingerprint()]} and {spec} are the same "
                              f"{game.data.noun} (the same contents); give each {game.data.noun} once")
        seen[components.fingerprint()] = spec
    return component_sets


def load_components(game: Game, spec: str | None):
    """The one component set a tuning plays (``load_component_sets``' names and files; None: the default)."""
    component_sets = load_component_sets(game, spec)
    if len(component_sets) > 1:
        noun, plural = game.data_noun, game.data_plural
        raise ConfigError(f"{named('components')}: a tuning plays one {noun}, {spec!r} is {len(component_sets)} "
                          f"{plural}; tune on each {noun} apart ({', '.join(components_labels(game, component_sets))})")
    return component_sets[0]


def components_labels(game: Game, component_sets: Sequence) -> list[str]:
    """Each component set's name in the tables' ``components`` column: a shipped component set's name (whatever file
    it came from), else the component set's own name (its file's name); names that would repeat get
    the component set's fingerprint."""
    labels = [(game.data.shipped_name(d) if d is not None else None) or (d.name if d is not None else "none")
              for d in component_sets]
    return [f"{label} ({d.fingerprint()})" if labels.count(label) > 1 else label
            for label, d in zip(labels, component_sets, strict=True)]


def known_components(game: Game, components, several: bool):
    """A component set read back from a checkpoint: a shipped component set under its own name; another one
    (with ``several`` component sets) named by its fingerprint, its file's name being unknown."""
    if components is None:
        return components
    name = game.data.shipped_name(components)
    if name is not None:
        return game.data.named()[name]
    return replace(components, name=f"{game.data.noun} {components.fingerprint()}") if several else components


@dataclass(frozen=True)
class Study:
    """What a compare or balance run plays."""

    game: Game
    counts: tuple[int, ...]
    strategies: tuple[SeatStrategy, ...]
    rules: str | None  # the rules to play (a rules spec; None: the game's standard rules); balance: the first
    seed: int
    component_sets: tuple  # one or more component sets (``load_component_sets``), each its own block of configurations
    games: int
    precision: float | None
    threads: int
    tuned: TunedParameters | None = None  # balance --tuned: each rule and player count plays its own parameters
    vs: str | None = None  # balance: the rule set compared with ``rules``'s (None: the game's other balance rules)

    @property
    def several_component_sets(self) -> bool:
        return len(self.component_sets) > 1

    @property
    def labels(self) -> list[str]:
        """The component sets' names in the tables (``components_labels``)."""
        return components_labels(self.game, self.component_sets)

    def check(self, command: str) -> None:
        """Refuse, before any game, what cannot be played or cannot finish."""
        if command == "balance" and None in self.rules_played(command):  # no rules to compare by default
            balanced = [g for g in GAMES.values() if g.balance_rules]
            offered = "; ".join(f"the {g.name} game's {' and '.join(g.balance_rules)}" for g in balanced)
            raise ConfigError(f"balance compares two rule sets of a game ({offered} by default); the "
                              f"{self.game.name} game has no variants to compare by default "
                              f"({self.game.no_balance}): name both, "
                              f"{named('rules')} A {named('vs')} B (or use compare "
                              + (f"game={self.game.name!r})" if in_api() else f"{named('game')} {self.game.name})"))
        played = []  # every rule set played, canonical
        for players in self.counts:
            arguments = ("rules", "vs")[:len(self.rules_played(command))]  # compare plays one rule set
            canonical = [canonical_rules(self.game, rules, players, argument)
                         for rules, argument in zip(self.rules_played(command), arguments, strict=True)]
            played += canonical
            if command == "balance" and canonical[0] == canonical[1]:
                raise ConfigError(f"{named('vs')}: {self.rules_played(command)[1]} is the same rule set as "
                                  f"{self.rules_played(command)[0]} at {players} players ({canonical[0]}): nothing to "
                                  "compare")
            why = command == "balance" and self.game.rule_book is not None and same_games(
                *(rule_set(self.game, spec, players) for spec in canonical))
            if why:
                raise ConfigError(f"{named('vs')}: {canonical[1]} and {canonical[0]} play identical games at "
                                  f"{players} players, nothing to compare: {why}")
        warn_unfitted(self.game, [s.name for s in self.strategies], played)
        check_games(self.games)
        check_seed(self.seed)
        check_threads(self.threads)
        if self.precision is not None and not 0 < real(self.precision, "precision") < 0.5:
            raise ConfigError(f"{named('precision')} must be between 0 and 0.5 (a win-rate half-width), "
                              f"got {self.precision}")
        distinct = list(dict.fromkeys(s.label for s in self.strategies))
        if command == "compare" and len(distinct) < 2:
            raise ConfigError(f"compare needs at least two different strategies, got {', '.join(distinct)}")
        self._check_blocks()
        if self.tuned is not None:
            self._check_tuned(command)

    def _check_tuned(self, command: str) -> None:
        """Tuned play names each strategy once, by name: the parameters are the file's."""
        names = [s.name for s in self.strategies]
        tuned = named("tuned")
        if len(set(names)) != len(names):
            raise ConfigError(f"{tuned}: name each strategy once (its tuned parameters are the file's)")
        given = [s.label for s in self.strategies if s.label != s.name]
        if given:
            raise ConfigError(f"{tuned}: {given[0]} gives parameters; with {tuned} the file gives them "
                              "(name the strategy alone)")
        rules_played = self.rules_played(command)
        gaps = [(name, players, rules) for players in self.counts for rules in rules_played
                for name in self.tuned.missing(self.strategies, players, rules)]
        if gaps:  # every strategy's parameters come from one file: advise the tuning that writes them all
            name, players, rules = gaps[0]
            registry = self.game.registry
            never = [name for name, _, _ in gaps if registry[name].untunable]
            if never:  # no tuning will ever give it parameters: no advice to tune it
                raise ConfigError(f"{tuned} plays tuned parameters, and strategy {never[0]} cannot be tuned "
                                  f"({registry[never[0]].untunable}); leave it out of {named('strategies')}, or "
                                  f"leave out {tuned}")
            tunable = [s.name for s in self.strategies if registry[s.name].params]
            plugins = sorted({registry.origin[name] for name in tunable if registry.origin[name] != "built-in"})
            counts = ",".join(str(c) for c in self.counts)
            asked = "all" if len(rules_played) > 1 else rules_played[0]
            advice = (f"report = medici_sim.tune({','.join(tunable)!r}, game={self.game.name!r}, players={counts!r}, "
                      f"rules={asked!r}" + (f", plugins={plugins!r}" if plugins else "") + "), then tuned=report"
                      if in_api() else
                      f"medici-sim tune {','.join(tunable)} --game {self.game.name} --players {counts} --rules "
                      f"{asked}" + "".join(f" --plugin {shlex.quote(p)}" for p in plugins)
                      + " --out FILE.json, then --tuned FILE.json")
            raise ConfigError(f"{tuned} {self.tuned.source} has no parameters for {name} at {players} players under "
                              f"the {rules} rules; tune every strategy of the study into one file: {advice}")

    def rules_played(self, command: str) -> tuple[str, ...]:
        """The rules each player count plays: balance's two (``rules`` and ``vs``, by default the game's
        ``balance_rules``), or compare's one."""
        if command == "balance":
            if self.rules is None and self.vs is None:
                return self.game.balance_rules or (None, None)
            standard, rules = self.game.presets[0], (self.game.balance_rules or (None, None))[1]
            if self.vs is None:  # the game's balance variant unless that is --rules', then its standard rules
                return self.rules, self._other(self.rules, (rules, standard))
            if self.rules is None:  # the standard rules unless --vs names them, then the variant
                return self._other(self.vs, (standard, rules)), self.vs
            return self.rules, self.vs
        return (self.rules or self.game.presets[0],)

    def _other(self, given: str, choices: tuple[str | None, ...]) -> str | None:
        """The first of ``choices`` that is not the rule set ``given`` at any player count, or None
        (a spec that names no rule set is left to ``check`` to refuse)."""
        choices = tuple(c for c in choices if c is not None)
        for choice in choices:
            try:
                if all(canonical_rules(self.game, choice, p) != canonical_rules(self.game, given, p)
                       for p in self.counts):
                    return choice
            except ConfigError:
                return choice
        return None

    def lineup(self, players: int, rules: str) -> tuple[SeatStrategy, ...]:
        """The strategies of one configuration (tuned: with that rule's and count's parameters)."""
        return self.strategies if self.tuned is None else self.tuned.lineup(self.strategies, players, rules)

    def _check_blocks(self) -> None:
        """More lineups or games than a configuration's block of game indices holds (blocks
        never overlap, R25), or a precision that could need more than MAX_PRECISION_GAMES."""
        if len(self.component_sets) * len(self.counts) > MAX_CONFIGURATIONS:
            raise ConfigError(f"{len(self.component_sets)} {self.game.data_plural_words} and {len(self.counts)} player "
                              "counts make "
                              f"{len(self.component_sets) * len(self.counts):,} configurations; at most "
                              f"{MAX_CONFIGURATIONS:,} fit in the game indices")
        for players in self.counts:
            n_lineups = len(lineups(self.strategies, players))
            if n_lineups > CONFIG_BLOCK // LINEUP_BLOCK:
                raise ConfigError(f"{len(self.strategies)} strategies make {n_lineups:,} lineups of {players} "
                                  f"players; at most {CONFIG_BLOCK // LINEUP_BLOCK:,} fit in one configuration's "
                                  "game indices")
            per_lineup = -(-self.games // n_lineups)
            if per_lineup > LINEUP_BLOCK:
                raise ConfigError(f"{named('games')} {self.games}: {per_lineup:,} games per lineup exceed a lineup's "
                                  f"block of {LINEUP_BLOCK:,} game indices")
            if self.precision is not None:
                # the worst case: a win credit's variance is at most 1/4, so n games reach a half-width of
                # Z95 * 0.5 * sqrt(share / n); compared as half-widths, since the games a tiny one needs overflow
                finest = Z95 * 0.5 * math.sqrt(max(1.0, len(self.strategies) / players) / MAX_PRECISION_GAMES)
                if self.precision < finest:
                    raise ConfigError(f"{named('precision')} {self.precision}: could need more games per "
                                      f"configuration than the ceiling of {MAX_PRECISION_GAMES:.0e}; the finest it "
                                      f"reaches here is about {finest:.1e}")


def new_study(*, game: str, players: str | int | Sequence[int], strategies: str | Sequence[str] | None,
              rules: str | None, seed: int, components: str | Sequence[str] | None, games: int,
              precision: float | None,
              threads: int | None, tuned: str | Mapping | None, components_argument: str = "components",
              vs: str | None = None) -> Study:
    """A study as the command line and the Python API describe it, every argument checked:
    ``players`` all, a count or counts; ``strategies`` None for the game's built-ins; ``components``
    as ``load_component_sets`` takes it (``components_argument``: the option that gave it); ``tuned`` as
    ``tuning.load_tuned`` takes it, or None."""
    definition = game_named(game)
    return Study(game=definition, counts=tuple(parse_player_counts(players, definition.name)),
                 strategies=parse_strategy_list(definition.built_ins if strategies is None else strategies,
                                                definition.name),
                 rules=None if rules is None else text(rules, "rules"), seed=check_seed(seed),
                 component_sets=load_component_sets(definition, components, components_argument),
                 games=check_games(games),
                 precision=None if precision is None else real(precision, "precision"),
                 threads=default_threads(threads),
                 tuned=None if tuned is None else load_tuned(tuned, definition.name),
                 vs=None if vs is None else text(vs, "vs"))


def plan(study: Study, command: str, kind: type[Tournament] = Tournament) -> list[Tournament]:
    """The study's tournaments: one per player count (compare), or one under each of the game's
    two ``balance_rules`` per player count on the same game indices (balance: the same shuffles wherever play
    coincides). Component set after component set, each component set's configurations numbered after the previous
    component set's, so no two component sets share a game index (the first component set's are a one-component set
    study's).
    The second rules' tournament follows the first's: they play each game under both rules,
    together, so that a difference between the rules is paired game by game. ``kind``: the
    tournaments' class (study.agent_tournament's seats Python agents)."""
    rules_played = study.rules_played(command)
    n = len(study.counts)
    tournaments = [kind(components, players, study.lineup(players, rules), rules, study.seed, study.threads,
                        config_index=d * n + i, game=study.game.name)
                   for d, components in enumerate(study.component_sets) for i, players in enumerate(study.counts)
                   for rules in rules_played]
    if command == "balance":
        for base, other in zip(tournaments[::2], tournaments[1::2], strict=True):
            other.follow(base)
    return tournaments


def by_components(tournaments: list[Tournament], study: Study) -> list[tuple[str, list[Tournament]]]:
    """The tournaments of each component set (``plan`` lays them out component set after component set), with its
    label."""
    size = len(tournaments) // len(study.component_sets)
    return [(label, tournaments[d * size:(d + 1) * size]) for d, label in enumerate(study.labels)]


def configuration(study: Study, tournaments: list[Tournament]) -> dict:
    """What a checkpoint of the study records, and a resumed study must match."""
    tuned = {} if study.tuned is None else {"tuned": study.tuned.source}
    return {"games": study.games, "precision": study.precision,
            "tournaments": [t.configuration() for t in tournaments], **tuned}


def play(tournaments: list[Tournament], study: Study, progress: Callable[[int], None] | None = None,
         stop: threading.Event | None = None, on_batch: Callable[[], None] | None = None,
         on_more: Callable[[int], None] | None = None) -> bool:
    """Play each tournament's games, or batches until every win rate's half-width is below
    the precision; a resumed tournament first finishes what was asked of it. True if complete.

    ``progress(n)`` after each batch (and ``progress(0)`` as each lineup's games begin),
    ``on_batch()`` when the totals are consistent (to checkpoint), ``on_more(games)`` with the
    games --precision's next round will play.
    """
    stopped = stop.is_set if stop is not None else (lambda: False)
    leaders = [t for t in tournaments if t.leader is None]  # a follower plays with its leader
    for t in leaders:
        if t.target == 0:
            t.play(study.games, progress, stop, on_batch)
        else:
            t.catch_up(progress, stop, on_batch)
    while study.precision is not None and not stopped():
        wide = [t for t in leaders if any(max_half_width(u) >= study.precision for u in (t, t.follower) if u)]
        if not wide:
            break
        if any(t.games >= MAX_PRECISION_GAMES for t in wide):
            raise ConfigError(f"{named('precision')} {study.precision}: not reached after {MAX_PRECISION_GAMES:.0e} "
                              "games")
        if on_more is not None:
            on_more(sum(len(t.lineups) * t.per_lineup(study.games) * (2 if t.follower else 1) for t in wide))
        for t in wide:
            t.play(study.games, progress, stop, on_batch)
    return not stopped()


def planned_games(tournaments: list[Tournament], study: Study) -> int:
    """The games ``play`` plays before any --precision round: each tournament's lineups up to
    its target (a resumed one's, else what ``study.games`` asks of it)."""
    return sum(len(t.lineups) * (t.target or t.per_lineup(study.games)) for t in tournaments)


def summary(tournaments: list[Tournament], study: Study, complete: bool) -> dict:
    elapsed = sum(t.elapsed for t in tournaments)
    games = sum(t.games for t in tournaments)
    return {
        "partial": not complete,
        "configurations": len(tournaments),
        "games_per_configuration": ",".join(str(t.games) for t in tournaments),
        "games": games,
        "precision": study.precision if study.precision is not None else "",
        "widest_half_width": round(max(max_half_width(t) for t in tournaments), 5),
        "game": study.game.name,
        **({study.game.data_plural: len(study.component_sets), study.game.data_noun: ", ".join(study.labels)}
           if study.several_component_sets else
           {study.game.data_noun: study.component_sets[0].name} if study.component_sets[0] is not None else {}),
        "seed": study.seed,
        "threads": study.threads,
        "elapsed_seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed) if elapsed > 0 else None,  # None: no game played
        **fitted_summary(study.game, [s.name for s in study.strategies], [t.rules for t in tournaments]),
    }


def _with_components(noun: str, label: str, tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The tables of one component set with a first column naming it (``noun``: the game's word for it)."""
    return {name: frame.assign(**{noun: label})[[noun, *frame.columns]] for name, frame in tables.items()}


def _concat(parts: list[dict[str, pd.DataFrame]]) -> dict[str, pd.DataFrame]:
    return {name: pd.concat([p[name] for p in parts], ignore_index=True) for name in parts[0]}


def _compare_tables(tournaments: list[Tournament]) -> dict[str, pd.DataFrame] | None:
    played = [t for t in tournaments if t.games > 0]
    if not played:
        return None
    return {
        "strategies": pd.concat([strategy_table(t) for t in played], ignore_index=True),
        "ratings": pd.concat([ratings_table(t) for t in played], ignore_index=True),
        "head_to_head": pd.concat([head_to_head_table(t) for t in played], ignore_index=True),
    }


def compare_answer(tournaments: list[Tournament], study: Study | None = None) -> dict[str, pd.DataFrame]:
    """Per strategy, ratings and head to head, over the tournaments that played games; with
    several component sets, set after set in a first column naming it (``Game.data_noun``)."""
    if study is None or not study.several_component_sets:
        return _compare_tables(tournaments)
    parts = [(label, _compare_tables(block)) for label, block in by_components(tournaments, study)]
    noun = study.game.data_noun
    return _concat([_with_components(noun, label, tables) for label, tables in parts if tables is not None])


def _balance_tables(tournaments: list[Tournament],
                    tuned: TunedParameters | None = None) -> dict[str, pd.DataFrame] | None:
    """Per strategy and per rules; with tuned play the strategies are named (their parameters,
    which differ between the rules, are in the table ``parameters``)."""
    pairs = [(std, b20) for std, b20 in zip(tournaments[::2], tournaments[1::2], strict=True)
             if std.games > 0 and b20.games > 0]
    if not pairs:
        return None
    per_strategy, per_rules = zip(*(balance_tables(std, b20) for std, b20 in pairs), strict=True)
    tables = {"strategies": pd.concat(per_strategy, ignore_index=True),
              "rules": pd.concat(per_rules, ignore_index=True)}
    if tuned is not None:
        tables["strategies"]["strategy"] = [s.name for std, _ in pairs for s in std.strategies]
        tables[TUNED_TABLE] = pd.DataFrame(
            [(std.players, a.name, strategy_spec(a), strategy_spec(b), a == b,
              cross_words(tuned, a.name, std.players, (std.rules, b20.rules)))
             for std, b20 in pairs for a, b in zip(std.strategies, b20.strategies, strict=True)],
            columns=["players", "strategy", *rule_names(tables["strategies"]), "same", "cross_check"])
    return tables


def cross_words(tuned: TunedParameters, strategy: str, players: int, rules_played: tuple[str, str]) -> str:
    """tune's cross check of one strategy and player count in words: under each rule of the two
    ``variants``, one seat with that rule's parameters played the other rule's parameters."""
    found = [tuned.cross.get((strategy, players, rules)) for rules in rules_played]
    if None in found:
        return "not measured"
    if "same" in found:
        return "same parameters"
    # who won under each rule: "own" under the first rules is their set, under the second the second's
    first, second = (f"{rules}'s" for rules in rules_played)
    winners = [{"own": own, "other": other}.get(f) for f, own, other in
               zip(found, (first, second), (second, first), strict=True)]
    if winners == [first, second]:
        return RULES_DIFFER
    if winners[0] == winners[1] and winners[0]:
        return f"{winners[0]} better under both"
    if winners == [None, None]:
        return "no significant difference"
    won = [f"{w} better under {rules}" for w, rules in zip(winners, rules_played, strict=True) if w]
    return ", ".join(won) + (" only" if len(won) == 1 else "")


def tuned_lines(parameters: pd.DataFrame) -> list[str]:
    """Whether the other rules change the best parameters, per player count, in words: where
    the tuned parameters differ, and (where the tuned file holds tune's cross check) whether
    the difference matters when one set plays the other under the other rules."""
    base, other = parameters.columns[2:4]  # the two rules' parameters (_balance_tables)
    lines = []
    for players, rows in parameters.groupby("players", sort=True):
        tuned = rows[rows[base] != rows["strategy"]]  # the strategies with parameters
        differ = tuned[~tuned["same"]]
        line = (f"With {players} players, the tuned parameters differ between the rules for "
                f"{', '.join(differ['strategy']) or 'no strategy'}")
        if tuned["same"].any():
            line += f" and are the same for {', '.join(tuned.loc[tuned['same'], 'strategy'])}"
        measured = tuned[tuned["cross_check"] != "not measured"]
        if len(measured):
            changed = list(measured.loc[measured["cross_check"] == RULES_DIFFER, "strategy"])
            line += ("; played against each other under each rule (tune's cross check), each rule's own "
                     + (f"parameters win for {', '.join(changed)}: {other} changes their best parameters"
                        if changed else f"parameters win for no strategy: {other} changes no strategy's best "
                        "parameters measurably"))
        lines.append(line)
    return lines


def balance_answer(tournaments: list[Tournament], study: Study | None = None) -> tuple[dict[str, pd.DataFrame], str]:
    """The game's base rules against its other rules (its ``balance_rules``) for each player
    count both rules have played: tables and verdict.

    With several component sets: the tables set after set (a first column in the game's word for one,
    ``Game.data_noun``), the verdict set by set, then "Across N <plural>": on how many sets each finding of the
    verdicts holds (also as the table ``across``, written as ``across_table``).
    """
    tuned = study.tuned if study is not None else None
    if study is None or not study.several_component_sets:
        tables = _balance_tables(tournaments, tuned)
        text = verdict(tables["strategies"], tables["rules"])
        if tuned is not None:
            text += "\n" + "\n".join(f"{line}." for line in tuned_lines(tables[TUNED_TABLE]))
        return tables, text
    per_components = [(label, tables) for label, block in by_components(tournaments, study)
                if (tables := _balance_tables(block, tuned)) is not None]
    noun, plural = study.game.data_noun, study.game.data_plural_words
    texts = [f"{noun.capitalize()} {label}:\n{verdict(tables['strategies'], tables['rules'])}"
             for label, tables in per_components]
    across = across_component_sets(per_components, study.game)
    lines = [f"  {line}" for line in across_lines(across, per_components, study.game)]
    text = "\n\n".join(texts) + f"\n\nAcross {len(per_components)} {plural}\n" + "\n".join(lines)
    return {**_concat([_with_components(noun, label, tables) for label, tables in per_components]),
            "across": across}, text


def played_any(tournaments: list[Tournament], command: str) -> bool:
    """Whether there is anything to report (Ctrl-C may stop a study before any game)."""
    if command == "balance":
        pairs = zip(tournaments[::2], tournaments[1::2], strict=True)
        return any(std.games > 0 and b20.games > 0 for std, b20 in pairs)
    return any(t.games > 0 for t in tournaments)
