"""``design``'s checkpoint format (:data:`DESIGN`): the search's trials so far.

A design is resumed with the options it was started with: the configuration those options
make (the box, the target, the trials, the games, the tournament each trial plays) must equal
the saved one key by key (``checkpoint.load``). The progress is the trials played, each its
values, its score and its games, checked here before anything is compared; the checksum
refuses an edited score. The fresh games are played again after a resumed search.
"""
from __future__ import annotations

import math

from ..core.checkpoint import SavedFormat
from ..core.driver import MAX_GAMES
from ..core.saved import MAX_INT, Invalid, check_keys, show, whole_number

DESIGN_KEYS = ("rules", "target", "trials", "games", "fresh_games", "tournament")
WORST_SCORE = 2.0  # design.NO_RULE_SET: no spread or distance is larger


def configuration(design) -> dict:
    """What a design's checkpoint records and a resumed one must match."""
    study = design.sweep.study
    first = design.tournament(design.sweep.base(design.players), 0)
    return {"rules": [r.written for r in design.sweep.rules], "target": design.target.spec, "trials": design.trials,
            "games": study.games, "fresh_games": design.fresh_games, "tournament": first.configuration()}


def progress(history) -> dict:
    return {"trials": [[*values, score, games] for values, score, games in history]}


def trials(saved: dict) -> list:
    """The (checked) progress as the search's trials: (values, score, games)."""
    return [(tuple(entry[:-2]), float(entry[-2]), entry[-1]) for entry in saved["trials"]]


def check_design(configuration, progress) -> None:
    check_keys(configuration, "configuration", DESIGN_KEYS)
    rules = configuration["rules"]
    if type(rules) is not list or not 1 <= len(rules) <= 2 or not all(type(r) is str for r in rules):
        raise Invalid(f"configuration.rules is {show(rules)}, not the box's one or two ranges")
    planned = whole_number(configuration["trials"], "configuration.trials", 1, 10_000)
    for key in ("games", "fresh_games"):
        whole_number(configuration[key], f"configuration.{key}", 1, MAX_GAMES)
    check_keys(progress, "progress", ("trials",))
    played = progress["trials"]
    if type(played) is not list or len(played) > planned:
        raise Invalid(f"progress.trials is {show(played)}, not a list of at most {planned} trials")
    for n, entry in enumerate(played):
        where = f"progress.trials[{n}]"
        if type(entry) is not list or len(entry) != len(rules) + 2:
            raise Invalid(f"{where} is {show(entry)}, not the {len(rules)} values, the score and the games")
        for k, value in enumerate(entry[:-2]):
            whole_number(value, f"{where}[{k}]", -MAX_INT, MAX_INT)
        score = entry[-2]
        if type(score) not in (int, float) or not 0 <= score <= WORST_SCORE or math.isnan(score):
            raise Invalid(f"{where}: the score {show(score)} is not between 0 and {WORST_SCORE}")
        whole_number(entry[-1], f"{where}: the games", 0, MAX_GAMES)


DESIGN = SavedFormat("design", check_design)
