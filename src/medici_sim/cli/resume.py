"""``--resume``: the options given next to it must agree with the checkpoint (the run is
otherwise rebuilt from the saved configuration), and so must the strategies' code."""
from __future__ import annotations

from pathlib import Path

from ..core.checkpoint import CheckpointError
from ..core.driver import format_number
from ..core.identity import fingerprint_of
from ..core.registry import GAMES
from ..core.saved import as_text, one_line

# option names given next to --resume, as check_matches may be told them (click parameter names too)
OPTIONS = {"game": "--game", "players": "--players", "games": "--games", "seed": "--seed", "variant": "--variant",
           "seating": "--seating", "strategies": "--strategies", "deck": "--deck", "precision": "--precision"}
_PARAMETERS = {"game_name": "game", "players_spec": "players", "strategies_spec": "strategies", "deck_path": "deck"}


def check_matches(path: str | Path, saved_configuration: dict, current_configuration: dict, given) -> None:
    """Refuse an option given next to ``--resume`` that disagrees with the checkpoint.

    ``given``: the options given on the command line, as configuration keys (``seed``),
    option names (``--seed``) or click parameter names (``deck_path``). A key that differs
    but was not given is not an error: the run continues with the saved value.
    """
    keys = set()
    for name in given:
        name = str(name).lstrip("-").replace("-", "_")
        keys.add(_PARAMETERS.get(name, name))
    saved, current = _options_of(saved_configuration), _options_of(current_configuration)
    for key, option in OPTIONS.items():
        if key in keys and key in saved and key in current and saved[key] != current[key]:
            if key == "deck":
                message = (f"--deck ({_render(key, current[key])}) disagrees with the checkpoint's deck "
                           f"({_render(key, saved[key])})")
            else:
                message = (f"{option} {_render(key, current[key])} disagrees with the checkpoint "
                           f"({key} {_render(key, saved[key])})")
            raise CheckpointError(one_line(f"--resume {as_text(path)}: {message}"))


def check_strategies(path: str | Path, saved_identity: list, current_strategies) -> None:
    """Refuse strategies whose code changed since ``saved_identity`` (``strategies_identity``,
    as read from checkpoint ``path``) was saved: slot by slot, the strategy of the same name
    must have the fingerprint the checkpoint recorded."""
    for saved, slot in zip(saved_identity, current_strategies, strict=False):
        registry = GAMES[slot.game].registry
        if slot.name in registry and saved[0] == slot.name and saved[2] != fingerprint_of(registry[slot.name]):
            raise CheckpointError(one_line(f"--resume {as_text(path)}: the code of strategy {slot.name} changed "
                                           "since the checkpoint was saved"))


def _options_of(configuration: dict) -> dict:
    """A configuration as the options that make it (a study's tournaments folded together)."""
    if "tournaments" not in configuration:
        out = dict(configuration)
        if isinstance(out.get("strategies"), list):
            out["strategies"] = [(entry[0], entry[1]) for entry in out["strategies"]]
        return out
    tournaments = configuration["tournaments"]
    first = tournaments[0]
    decks = []
    for t in tournaments:
        if t["deck"] not in decks:
            decks.append(t["deck"])
    out = {"games": configuration["games"], "precision": configuration["precision"], "game": first["game"],
           "players": list(dict.fromkeys(t["players"] for t in tournaments)), "seed": first["seed"],
           "deck": decks[0] if len(decks) == 1 else decks,
           "strategies": [(entry[0], entry[1]) for entry in first["strategies"]]}
    variants = {t["variant"] for t in tournaments}
    if len(variants) == 1:
        out["variant"] = first["variant"]
    return out


def _render(key: str, value) -> str:
    if key == "deck" and isinstance(value, list):  # a study of several decks
        return f"{len(value)} decks: " + "; ".join(_render(key, deck) for deck in value)
    if key == "deck":
        return "no deck" if value is None else f"{value['cards']} cards, fingerprint {value['fingerprint']}"
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
