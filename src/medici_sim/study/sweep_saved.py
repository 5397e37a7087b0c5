"""``sweep``'s checkpoint format (:data:`SWEEP`).

A sweep is resumed with the options it was started with: the configuration those options
make must equal the saved one key by key (``checkpoint.load``), so nothing of the saved
configuration is trusted that the options did not give again. Its shape is checked here
all the same, before anything is compared, and every tournament's progress is checked as
compare's and balance's are (``tournament_saved``): lineups played in order, totals that
possible games sum to, and a follower (the second point of a neighbour pair, the same games
under the next rule set) with its leader's games and paired sums that Cauchy allows.
"""
from __future__ import annotations

from ..core.checkpoint import SavedFormat
from ..core.driver import MAX_GAMES, ConfigError, canonical_rules
from ..core.identity import valid_components, valid_game, valid_players, valid_strategies
from ..core.saved import MAX_INT, Invalid, check_keys, show, whole_number
from .tournament import Tournament
from .tournament_saved import TOURNAMENT_KEYS, _Tournament, _tournament_progress

SWEEP_KEYS = ("rules", "games", "precision", "tournaments", "leaders")
NO_LEADER = -1


def configuration(rules: list[str], games: int, precision: float | None, tournaments: list[Tournament]) -> dict:
    """What a sweep's checkpoint records (``rules``: the swept ranges as written) and a resumed one must match."""
    place = {id(t): k for k, t in enumerate(tournaments)}
    return {"rules": rules, "games": games, "precision": precision,
            "tournaments": [t.configuration() for t in tournaments],
            "leaders": [place[id(t.leader)] if t.leader is not None else NO_LEADER for t in tournaments]}


def progress(tournaments: list[Tournament]) -> dict:
    return {"tournaments": [t.progress() for t in tournaments]}


def _tournament(saved, where: str) -> _Tournament:
    """One tournament's configuration; its rules a canonical rule set of its game and player count."""
    check_keys(saved, where, TOURNAMENT_KEYS)
    game = valid_game(saved["game"], f"{where}.game")
    players = valid_players(saved["players"], f"{where}.players", game)
    rules = saved["rules"]
    try:
        canonical = canonical_rules(game, rules, players) if type(rules) is str else None
    except ConfigError:
        canonical = None
    if canonical != rules:
        raise Invalid(f"{where}.rules is {show(rules)}, not a canonical rule set of the {game.name} game")
    return _Tournament(game, players, rules, whole_number(saved["seed"], f"{where}.seed", 0, MAX_INT),
                       whole_number(saved["config_index"], f"{where}.config_index", 0, MAX_INT),
                       valid_components(saved["components"], f"{where}.components", game),
                       valid_strategies(saved["strategies"], f"{where}.strategies", game, None))


def check_sweep(configuration, progress) -> None:
    check_keys(configuration, "configuration", SWEEP_KEYS)
    rules = configuration["rules"]
    if type(rules) is not list or not rules or not all(type(r) is str for r in rules):
        raise Invalid(f"configuration.rules is {show(rules)}, not the swept ranges")
    games = whole_number(configuration["games"], "configuration.games", 1, MAX_GAMES)
    precision = configuration["precision"]
    if precision is not None and (type(precision) not in (int, float) or not 0 < precision < 0.5):
        raise Invalid(f"configuration.precision is {show(precision)}, not a half-width between 0 and 0.5")
    saved, leaders = configuration["tournaments"], configuration["leaders"]
    if type(saved) is not list or not saved:
        raise Invalid(f"configuration.tournaments is {show(saved)}, not a list of tournaments")
    if type(leaders) is not list or len(leaders) != len(saved):
        raise Invalid(f"configuration.leaders is {show(leaders)}, not one entry per tournament")
    tournaments = [_tournament(t, f"configuration.tournaments[{i}]") for i, t in enumerate(saved)]
    for i, leader in enumerate(leaders):
        if leader != NO_LEADER and (type(leader) is not int or not 0 <= leader < i or leaders[leader] != NO_LEADER
                                    or leaders.count(leader) > 1):
            raise Invalid(f"configuration.leaders[{i}] is {show(leader)}, not an earlier tournament that leads no "
                          "other and follows none")
    check_keys(progress, "progress", ("tournaments",))
    played = progress["tournaments"]
    if type(played) is not list or len(played) != len(tournaments):
        raise Invalid(f"progress.tournaments is {show(played)}, not one entry per tournament")
    for i, (t, p) in enumerate(zip(tournaments, played, strict=True)):
        leader = played[leaders[i]] if leaders[i] != NO_LEADER else None
        _tournament_progress(p, f"tournaments[{i}]", t, games, precision, leader)


SWEEP = SavedFormat("sweep", check_sweep)
