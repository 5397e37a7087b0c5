"""Continuing a saved run (``resume``): the study or tuning a checkpoint holds, rebuilt from
its configuration; the arguments given next to it must agree with it, and so must the
strategies' code. Messages name the arguments as the caller knows them (``core.arguments``)."""
from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import replace
from pathlib import Path

from ..core.arguments import ConfigError, named
from ..core.checkpoint import CheckpointError
from ..core.driver import format_number, seat_strategy
from ..core.identity import fingerprint_of, saved_components, saved_strategies
from ..core.registry import GAMES, get_game
from ..core.saved import as_text, one_line
from . import studies, tune_saved, tuning

# the arguments given next to resume that must agree with the checkpoint (as check_matches may be
# told them: the API's names, the command line's options, or click's parameter names)
CHECKED = ("game", "players", "games", "seed", "rules", "seating", "strategies", "components", "precision")
_PARAMETERS = {"game_name": "game", "players_spec": "players", "strategies_spec": "strategies",
               "components_path": "components", "component_sets_spec": "components",
               # the command line's older names, still taken
               **dict.fromkeys(("deck", "decks", "deck_path", "decks_spec"), "components")}


def check_matches(path: str | Path, saved_configuration: dict, current_configuration: dict, given) -> None:
    """Refuse an argument given next to ``resume`` that disagrees with the checkpoint.

    ``given``: the arguments given, as configuration keys (``seed``), option names
    (``--seed``) or click parameter names (``components_path``). A key that differs but was not
    given is not an error: the run continues with the saved value.
    """
    keys = set()
    for name in given:
        name = str(name).lstrip("-").replace("-", "_")
        keys.add(_PARAMETERS.get(name, name))
    saved, current = _options_of(saved_configuration), _options_of(current_configuration)
    game = GAMES.get(saved.get("game"))
    for key in CHECKED:
        if key in keys and key in saved and key in current and saved[key] != current[key]:
            if key == "components":
                message = (f"{named(key)} ({_render(key, current[key], game)}) disagrees with the checkpoint's "
                           f"{_noun(game)} ({_render(key, saved[key], game)})")
            else:
                message = (f"{named(key)} {_render(key, current[key])} disagrees with the checkpoint "
                           f"({'rules' if key == 'rules' else key} {_render(key, saved[key])})")
            raise CheckpointError(one_line(f"{_resumed(path)}: {message}"))


def check_strategies(path: str | Path, saved_identity: list, current_strategies) -> None:
    """Refuse strategies whose code changed since ``saved_identity`` (``strategies_identity``,
    as read from checkpoint ``path``) was saved: slot by slot, the strategy of the same name
    must have the fingerprint the checkpoint recorded."""
    for saved, slot in zip(saved_identity, current_strategies, strict=False):
        registry = GAMES[slot.game].registry
        if slot.name in registry and saved[0] == slot.name and saved[2] != fingerprint_of(registry[slot.name]):
            raise CheckpointError(one_line(f"{_resumed(path)}: the code of strategy {slot.name} changed "
                                           "since the checkpoint was saved"))


def saved_study(configuration: dict, command: str, threads: int) -> studies.Study:
    """The study a checkpoint of ``command`` saved, as it was played (``threads`` aside)."""
    first = configuration["tournaments"][0]
    game = get_game(first["game"])
    identities = []  # every component set the study plays, in order (each its own block of tournaments)
    for t in configuration["tournaments"]:
        if t["components"] not in identities:
            identities.append(t["components"])
    component_sets = tuple(studies.known_components(game, saved_components(identity, game), len(identities) > 1)
                           for identity in identities)
    strategies = saved_strategies(first["strategies"], game.name)
    tuned = None
    if "tuned" in configuration:  # each configuration's own parameters, as saved
        tuned = tuning.TunedParameters(configuration["tuned"], {
            (s.name, t["players"], t["rules"]): s for t in configuration["tournaments"]
            for s in saved_strategies(t["strategies"], game.name)})
        strategies = tuple(seat_strategy(s.name, game.name) for s in strategies)
    return studies.Study(game=game, counts=tuple(dict.fromkeys(t["players"] for t in configuration["tournaments"])),
                         strategies=strategies, rules=first["rules"],
                         vs=configuration["tournaments"][1]["rules"] if command == "balance" else None,
                         seed=first["seed"], component_sets=component_sets, games=configuration["games"],
                         precision=configuration["precision"], threads=threads, tuned=tuned)


def check_study_matches(path: str | Path, configuration: dict, study: studies.Study, given: Collection[str],
                        asked: studies.Study | None, command: str) -> studies.Study:
    """``study`` (``saved_study``) with the component sets ``asked`` names, once the arguments ``given`` with it
    (``asked``: the study they describe) agree with the checkpoint."""
    if asked is None:
        return study
    check_matches(path, configuration, studies.configuration(asked, studies.plan(asked, command)), given)
    # the same component sets: the names files give
    return replace(study, component_sets=asked.component_sets) if "components" in given else study


def check_tuned_matches(path: str | Path, spec, configuration: dict, study: studies.Study) -> None:
    """Tuned parameters (``spec``) given next to ``resume``: they must give every configuration
    the parameters it was saved with."""
    if "tuned" not in configuration:
        raise CheckpointError(f"{_resumed(path)}: its run played no tuned parameters; leave out {named('tuned')}")
    tuned = tuning.load_tuned(spec, study.game.name)
    for t in configuration["tournaments"]:
        saved = saved_strategies(t["strategies"], study.game.name)
        try:
            mine = tuned.lineup(study.strategies, t["players"], t["rules"])
        except ConfigError:
            mine = None
        if mine != saved:
            raise CheckpointError(f"{_resumed(path)}: {named('tuned')} {spec} disagrees with the checkpoint's "
                                  f"parameters at {t['players']} players under {t['rules']}; leave out "
                                  f"{named('tuned')} to continue the saved run")


def saved_tuning(configuration: dict) -> list[tuning.TuneTask]:
    """The tasks a tuning's checkpoint saved."""
    return [tune_saved.task_from_configuration(entry) for entry in configuration["tasks"]]


def tuning_arguments(tasks: Sequence[tuning.TuneTask]) -> dict:
    """The arguments that name ``tasks`` (a saved tuning's): its game, strategies, player counts and rules."""
    rules_played = list(dict.fromkeys(t.rules for t in tasks))
    return {"game": tasks[0].game, "strategy": ",".join(dict.fromkeys(t.strategy for t in tasks)),
            "players": ",".join(str(p) for p in dict.fromkeys(t.players for t in tasks)),
            "rules": tuning.ALL if len(rules_played) > 1 else rules_played[0]}


def check_tuning_matches(path: str | Path, configuration: dict, asked: Sequence[tuning.TuneTask],
                         given: Collection[str]) -> None:
    """The tasks ``asked`` (by the arguments ``given`` next to ``resume``) must be the checkpoint's,
    in every key given."""
    for key in sorted(set(given) & set(tune_saved.TUNE_TASK_KEYS)):
        ours = {json.dumps(tune_saved.task_configuration(t)[key], sort_keys=True) for t in asked}
        theirs = {json.dumps(entry[key], sort_keys=True) for entry in configuration["tasks"]}
        if ours != theirs:
            raise CheckpointError(f"{_resumed(path)}: the {key} differs from the checkpoint's; leave the option "
                                  "out to continue the saved tuning")


def _resumed(path: str | Path) -> str:
    return f"{named('resume')} {as_text(path)}"


def _options_of(configuration: dict) -> dict:
    """A configuration as the options that make it (a study's tournaments folded together)."""
    if "tournaments" not in configuration:
        out = dict(configuration)
        if isinstance(out.get("strategies"), list):
            out["strategies"] = [(entry[0], entry[1]) for entry in out["strategies"]]
        return out
    tournaments = configuration["tournaments"]
    first = tournaments[0]
    component_sets = []
    for t in tournaments:
        if t["components"] not in component_sets:
            component_sets.append(t["components"])
    out = {"games": configuration["games"], "precision": configuration["precision"], "game": first["game"],
           "players": list(dict.fromkeys(t["players"] for t in tournaments)), "seed": first["seed"],
           "components": component_sets[0] if len(component_sets) == 1 else component_sets,
           "strategies": [(entry[0], entry[1]) for entry in first["strategies"]]}
    rules_played = {t["rules"] for t in tournaments}
    if len(rules_played) == 1:
        out["rules"] = first["rules"]
    return out


def _noun(game, plural: bool = False) -> str:
    """The game's word for one component set, or several (``Game.data_noun``)."""
    if game is None:
        return "component sets" if plural else "component set"
    return game.data_plural if plural else game.data_noun


def _render(key: str, value, game=None) -> str:
    if key == "components" and isinstance(value, list):  # a study of several component sets
        return (f"{len(value)} {_noun(game, True)}: "
                + "; ".join(_render(key, components, game) for components in value))
    if key == "components":
        unit = game.data.unit if game is not None and game.data is not None else "pieces"
        return f"no {_noun(game)}" if value is None else f"{value['cards']} {unit}, fingerprint {value['fingerprint']}"
    if key == "players" and isinstance(value, list):
        return ",".join(str(v) for v in value)
    if key == "strategies":
        return ",".join(_label(name, params) for name, params in value)
    if value is None:
        return "none"
    return as_text(str(value))


def _label(name: str, params: dict) -> str:
    changed = [f"{k}={format_number(v)}" for k, v in params.items()]
    for game in GAMES.values():
        if name in game.registry:
            defaults = game.registry[name].params
            changed = [f"{k}={format_number(v)}" for k, v in params.items() if k not in defaults
                       or defaults[k].default != v]
            break
    return name + (":" + ",".join(changed) if changed else "")
