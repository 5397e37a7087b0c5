"""Medici: The Card Game (Knizia, 2017): rules data, state, jitted engine, reference engine, strategies."""
from ...core.registry import register_game
from .game import GAME

register_game(GAME, default=True)  # the game a run plays when it names none
