"""Medici, the 1995 auction game ("classic"): rules data, reference engine and jitted engine."""
from ...core.registry import register_game
from .game import GAME

register_game(GAME)
