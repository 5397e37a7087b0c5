"""The Castles of Tuscany (T1-T40, docs/rules-tuscany.md): rules and components as data, the
reference engine, the jitted engine. Registered by a minimal record (minimal_game.py) until its full one."""
from ...core.registry import register_game
from .minimal_game import GAME

register_game(GAME)
