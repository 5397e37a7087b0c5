"""The Castles of Tuscany (Stefan Feld, 2020; T1-T40, docs/rules-tuscany.md): rules and components as data,
jitted engine, reference engine, strategies, registered as the game ``tuscany`` (registration.py)."""
from ...core.registry import register_game
from .registration import GAME

register_game(GAME)
