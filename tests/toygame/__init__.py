"""High card, a toy game that only the test suite registers (rules: ``rules.md`` here, H1-H7).

It proves that a game needs no edit to ``core/``, ``study/`` or ``cli/``: everything the package
knows of it is its ``Game`` record (``game.GAME``). A process registers it by naming this
module in the environment variable ``MEDICI_SIM_GAMES`` (``core.registry.register_games_from``:
``MEDICI_SIM_GAMES=toygame`` with ``tests/`` on ``PYTHONPATH``); a test in this process adds it
to ``core.registry.GAMES`` for its own duration (``monkeypatch.setitem``).
"""
from .game import GAME

__all__ = ["GAME"]
