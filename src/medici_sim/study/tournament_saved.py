"""Compare's and balance's checkpoint: the study's tournaments (``Tournament.configuration``)
and each one's progress (``Tournament.progress``), checked as ``checkpoint.read`` reads them
(:data:`COMPARE`, :data:`BALANCE`).

Beyond the statistics' own proofs (``core.totals_check``): a strategy row counts the games
its slots sat in (from the tournament's lineups); a tournament's target is a whole number
of rounds and its lineups are played in order (``tournament``): done[k] is non-increasing,
within one round of the target; balance's variant tournament follows its standard one (the
same games under both rules): the same target and done, and paired sums (paired_sq per
strategy, paired_seat_sq per seat) no smaller than Cauchy allows,
(W_variant - W_standard)**2 <= paired_sq G, and the designer metrics' paired sums
(paired_metric_sq, ``totals_check.check_paired_metric_sq``); every other tournament's paired
sums are 0.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.accounting import N_COMMON_RUN_STATS, RUN_GAMES, STAT_WIN60, StatLayout
from ..core.checkpoint import SavedFormat
from ..core.driver import MAX_GAMES, SeatStrategy
from ..core.identity import MAX_ORIGIN, valid_components, valid_game, valid_players, valid_rules, valid_strategies
from ..core.pairing import paired_metrics
from ..core.registry import Game
from ..core.saved import MAX_INT, Invalid, check_keys, int_matrix, int_vector, show, whole_number
from ..core.totals_check import TotalsCheck, check_paired_metric_sq, check_pairs, check_same_sums
from .tournament import lineups

STUDY_KEYS = ("games", "precision", "tournaments")
TOURNAMENT_KEYS = ("game", "players", "rules", "seed", "config_index", "components", "strategies")
TOURNAMENT_PROGRESS_KEYS = ("target", "done", "elapsed", "strategy_stats", "pairs", "seat_stats", "run", "paired_sq",
                            "paired_seat_sq", "paired_metric_sq")


def check_study(configuration, progress, command: str) -> None:
    tuned = type(configuration) is dict and "tuned" in configuration
    check_keys(configuration, "configuration", (*STUDY_KEYS, "tuned") if tuned else STUDY_KEYS)
    if tuned and (type(configuration["tuned"]) is not str or not 0 < len(configuration["tuned"]) <= MAX_ORIGIN):
        raise Invalid(f"configuration.tuned is {show(configuration['tuned'])}, not where the tuned parameters "
                      "came from")
    games = whole_number(configuration["games"], "configuration.games", 1, MAX_GAMES)
    precision = configuration["precision"]
    if precision is not None and (type(precision) not in (int, float) or not 0 < precision < 0.5):
        raise Invalid(f"configuration.precision is {show(precision)}, not a half-width between 0 and 0.5")
    saved = configuration["tournaments"]
    if type(saved) is not list or not saved:
        raise Invalid(f"configuration.tournaments is {show(saved)}, not a list of tournaments")
    tournaments = []
    for i, t in enumerate(saved):
        where = f"configuration.tournaments[{i}]"
        check_keys(t, where, TOURNAMENT_KEYS)
        for key in ("game", "seed", "strategies"):  # one run plays one of each (component sets: see _study_shape)
            mine, first = t.get(key), saved[0].get(key)
            if key == "strategies" and tuned and type(mine) is list and type(first) is list:
                # tuned play: each configuration its own parameters, the same strategies
                mine = [e[0] if type(e) is list and e else e for e in mine]
                first = [e[0] if type(e) is list and e else e for e in first]
            if i and mine != first:
                raise Invalid(f"{where}.{key} is {show(t[key])}, but tournaments[0] has {show(saved[0][key])}")
        tournaments.append(_tournament(t, where))
    _study_shape(tournaments, command)

    check_keys(progress, "progress", ("tournaments",))
    saved_progress = progress["tournaments"]
    if type(saved_progress) is not list:
        raise Invalid(f"tournaments is {show(saved_progress)}, not a list")
    if len(saved_progress) != len(tournaments):
        raise Invalid(f"tournaments has {len(saved_progress)} entries, but the configuration has "
                      f"{len(tournaments)} tournaments")
    for i, (t, p) in enumerate(zip(tournaments, saved_progress, strict=True)):
        leader = saved_progress[i - 1] if command == "balance" and i % 2 else None  # the variant follows standard
        _tournament_progress(p, f"tournaments[{i}]", t, games, precision, leader)


@dataclass(frozen=True)
class _Tournament:
    game: Game
    players: int
    rules: str
    seed: int
    config_index: int
    components: object
    strategies: tuple[SeatStrategy, ...]


def _tournament(saved, where: str) -> _Tournament:
    check_keys(saved, where, TOURNAMENT_KEYS)
    game = valid_game(saved["game"], f"{where}.game")
    players = valid_players(saved["players"], f"{where}.players", game)
    rules = valid_rules(saved["rules"], f"{where}.rules", game, players)
    seed = whole_number(saved["seed"], f"{where}.seed", 0, MAX_INT)
    config_index = whole_number(saved["config_index"], f"{where}.config_index", 0, MAX_INT)
    strategies = valid_strategies(saved["strategies"], f"{where}.strategies", game, None)
    components = valid_components(saved["components"], f"{where}.components", game)
    return _Tournament(game, players, rules, seed, config_index, components, strategies)


def _study_shape(tournaments: list[_Tournament], command: str) -> None:
    """What the command builds (study/studies.py plan): one tournament per player count
    (compare), or one per balanced rule set per player count (balance), numbered by
    config_index; with several component sets, that block again for each component set (each component set once, every
    component set the same player counts), the numbering going on from one component set to the next."""
    component_sets = []
    for t in tournaments:
        if t.components not in component_sets:
            component_sets.append(t.components)
    size = len(tournaments) // len(component_sets)
    if size * len(component_sets) != len(tournaments):
        raise Invalid(f"configuration.tournaments has {len(tournaments)} tournaments for {len(component_sets)} "
                      "component sets, not the same number for each")
    for d in range(len(component_sets)):
        block = tournaments[d * size:(d + 1) * size]
        for i, t in enumerate(block):
            if t.components != block[0].components:
                raise Invalid(f"configuration.tournaments[{d * size + i}].components is not the component set of "
                              f"tournaments[{d * size}]: each set's tournaments come together")
            if d and t.players != tournaments[i].players:
                raise Invalid(f"configuration.tournaments[{d * size + i}].players is {t.players}, but the first "
                              f"component set's tournaments[{i}] has {tournaments[i].players}: every set plays "
                              "the same player counts")
        _components_shape(block, command, d * size, d * (size if command == "compare" else size // 2), tournaments[0])


def _components_shape(tournaments: list[_Tournament], command: str, offset: int, first_index: int,
                first: _Tournament) -> None:
    """One component set's tournaments (configuration.tournaments[offset:]), numbered from first_index;
    ``first``: the study's first tournament (compare plays its rules throughout)."""
    for i, t in enumerate(tournaments):
        where = f"configuration.tournaments[{offset + i}]"
        if command == "compare":
            index, rules = first_index + i, first.rules
        else:
            pair = (first.rules, tournaments[1].rules if len(tournaments) > 1 else None)
            index, rules = first_index + i // 2, pair[i % 2]
            if i == 1 and t.rules == first.rules:
                raise Invalid(f"{where}.rules is {show(t.rules)}, the rules of tournaments[0] too: balance "
                              "compares two rule sets")
            if i % 2 and t.players != tournaments[i - 1].players:
                raise Invalid(f"{where}.players is {t.players}, but its {pair[0]} tournament has "
                              f"{tournaments[i - 1].players}")
        if t.config_index != index:
            raise Invalid(f"{where}.config_index is {t.config_index}, expected {index}")
        if t.rules != rules:
            raise Invalid(f"{where}.rules is {show(t.rules)}, expected {show(rules)}")
        step = 1 if command == "compare" else 2
        if i >= step and t.players <= tournaments[i - step].players:
            raise Invalid(f"{where}.players is {t.players}, but the player counts are played once each, "
                          "in increasing order")
    if command == "balance" and len(tournaments) % 2:
        raise Invalid(f"configuration.tournaments has {len(tournaments)} tournaments, not pairs of rule sets")


def _tournament_progress(saved, where: str, t: _Tournament, games: int, precision, leader: dict | None) -> None:
    """One tournament's progress; ``leader``: the (checked) progress of the tournament it
    follows, the same games under other rules (balance), or None."""
    check_keys(saved, where, TOURNAMENT_PROGRESS_KEYS)
    players, n = t.players, len(t.strategies)
    count = math.comb(n, players) if n >= players else 1
    done = saved["done"]
    if type(done) is not list:
        raise Invalid(f"{where}.done is {show(done)}, not a list")
    if len(done) != count:
        raise Invalid(f"{where}.done has {len(done)} entries, but the tournament has {count} lineups")
    step = _ceil(_ceil(games, count), players) * players  # Tournament.play: whole rotations per lineup
    target = whole_number(saved["target"], f"{where}.target", 0, MAX_GAMES)
    if target % step or (precision is None and target > step):
        rounds = "" if precision is None else "a multiple of "
        raise Invalid(f"{where}.target is {target}, but the tournament asks for {rounds}{step} games per lineup")
    low = max(target - step, 0)
    between = 0
    for k, value in enumerate(done):
        whole_number(value, f"{where}.done[{k}]", 0, MAX_INT)
        if not low <= value <= target:
            raise Invalid(f"{where}.done[{k}] is {value}, but lineups are played from {low} to the target {target}")
        if k and value > done[k - 1]:
            raise Invalid(f"{where}.done[{k}] is {value}, more than done[{k - 1}] ({done[k - 1]}): "
                          "lineups are played in order")
        between += low < value < target
    if between > 1:
        raise Invalid(f"{where}.done has {between} lineups part-way to the target; lineups are played in order")
    elapsed = saved["elapsed"]
    if type(elapsed) not in (int, float) or not 0 <= elapsed < math.inf:
        raise Invalid(f"{where}.elapsed is {show(elapsed)}, not a number of seconds")

    labels = list(dict.fromkeys(s.label for s in t.strategies))
    rows = len(labels)
    game, width = t.game, StatLayout.of(t.game).width
    shape = f"the tournament's {rows} strategies"
    by_strategy = int_matrix(saved["strategy_stats"], f"{where}.strategy_stats", rows, width, shape)
    pairs = int_matrix(saved["pairs"], f"{where}.pairs", rows, rows, shape)
    seat = int_matrix(saved["seat_stats"], f"{where}.seat_stats", players, width,
                      f"the {players}-player {game.name} game")
    run = int_vector(saved["run"], f"{where}.run", N_COMMON_RUN_STATS + len(game.engine.run_columns),
                     f"the {game.name} game")
    total = run[RUN_GAMES]
    if total != sum(done):
        raise Invalid(f"{where}.run[{RUN_GAMES}] is {total}, but its lineups played {sum(done)} games")
    row_games = [0] * rows
    together = [[0] * rows for _ in range(rows)]
    index = {label: r for r, label in enumerate(labels)}
    for played, lineup in zip(done, lineups(t.strategies, players), strict=True):
        if not played:
            continue
        slots = [index[s.label] for s in lineup]
        for a in slots:
            row_games[a] += played
            for b in slots:
                if a != b:
                    together[a][b] += played
    rules = TotalsCheck(game, players, t.rules)
    rules.table(seat, f"{where}.seat_stats", [total] * players, total)
    rules.table(by_strategy, f"{where}.strategy_stats", row_games, total)
    check_same_sums(seat, f"{where}.seat_stats", by_strategy, f"{where}.strategy_stats")
    check_pairs(pairs, f"{where}.pairs", lambda a, b: together[a][b])
    rules.run(run, f"{where}.run", total, seat)
    paired = [int_vector(saved["paired_sq"], f"{where}.paired_sq", rows, shape),
              int_vector(saved["paired_seat_sq"], f"{where}.paired_seat_sq", players, f"the {players}-player game"),
              int_vector(saved["paired_metric_sq"], f"{where}.paired_metric_sq", len(paired_metrics(game)),
                         f"the {game.name} game's paired metrics")]
    if leader is None:
        if any(map(any, paired)):
            raise Invalid(f"{where}: paired sums, but the tournament follows no other (only the second "
                          "tournament of each of balance's pairs does)")
        return
    if (saved["target"], saved["done"]) != (leader["target"], leader["done"]):
        raise Invalid(f"{where}.done is {done}, but the tournament it follows played {leader['done']}: "
                      "both play the same games")
    for key, sums, rows_here, rows_there in (("paired_sq", paired[0], by_strategy, leader["strategy_stats"]),
                                             ("paired_seat_sq", paired[1], seat, leader["seat_stats"])):
        for r, (square, mine, theirs) in enumerate(zip(sums, rows_here, rows_there, strict=True)):
            spread = mine[STAT_WIN60] - theirs[STAT_WIN60]  # the sum of the per-game differences: Cauchy
            if spread * spread > square * total:
                raise Invalid(f"{where}.{key}[{r}] is {square}, too small for win totals {theirs[STAT_WIN60]} "
                              f"and {mine[STAT_WIN60]} in the same {total} games")
    check_paired_metric_sq(paired[2], f"{where}.paired_metric_sq", leader["run"], run, total, game,
                           _most_moments(game))


def _most_moments(game: Game) -> int:
    """The most scoring moments any rule set of ``game`` has (``Game.engine.moments`` when no rule sets them)."""
    book = game.rule_book
    return (book.param(game.engine.moment_rule).high if book is not None and game.engine.moment_rule in book.names
            else game.engine.moments)


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


COMPARE = SavedFormat("compare", lambda configuration, progress: check_study(configuration, progress, "compare"))
BALANCE = SavedFormat("balance", lambda configuration, progress: check_study(configuration, progress, "balance"))
