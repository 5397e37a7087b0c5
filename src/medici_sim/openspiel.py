"""medici-sim's games in OpenSpiel: importing this registers ``medici_card`` and
``medici_classic`` with ``pyspiel`` (frameworks.spiel; docs/frameworks.md).

    import pyspiel, medici_sim.openspiel
    game = pyspiel.load_game("medici_card", {"players": 4, "rules": "standard"})
"""
from .frameworks import needs

needs("pyspiel", "openspiel", "medici_sim.openspiel")

from .frameworks.spiel import (  # noqa: E402
    BuiltinBot,
    MediciGame,
    MediciState,
    play_with_bot,
    register_all,
    state_from_text,
    state_to_text,
)

GAMES = register_all()

__all__ = ["GAMES", "BuiltinBot", "MediciGame", "MediciState", "play_with_bot", "state_from_text", "state_to_text"]
