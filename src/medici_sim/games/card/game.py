"""The card game as the shared code sees it: its ``Game`` record, kernel inputs and trace."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.registry import Game
from . import engine
from .deck import default_deck
from .rules import MAX_PLAYERS, MIN_PLAYERS, VARIANTS, rule_arrays
from .strategies import BUILT_INS, REGISTRY


def kernel_inputs(config) -> tuple:
    """(card_good, card_icons, card_value, card_green, rules, ship_payouts) for play_games_nb."""
    deck = config.deck if config.deck is not None else default_deck()
    rules, ship_payouts = rule_arrays(config.players, VARIANTS.index(config.variant))
    return (*deck.card_arrays(), rules, ship_payouts)


@dataclass(frozen=True)
class GameTrace:
    """One game as the kernel played it: per-day records (rows are days), seats in R7 order."""

    seat_slot: np.ndarray  # (players,) strategy slot at each seat
    seat_params: np.ndarray  # (players, MAX_PARAMS)
    florins: np.ndarray  # (players,) at the end
    warehouse_icons: np.ndarray  # (players, goods) at the end
    day_starter: np.ndarray  # (days,)
    day_ran_out: np.ndarray  # (days,) R12
    day_ship_value: np.ndarray  # (days, players)
    day_ship_pay: np.ndarray  # (days, players)
    day_majority_pay: np.ndarray  # (days, players)
    day_bonus_pay: np.ndarray  # (days, players)
    day_warehouse_icons: np.ndarray  # (days, players, goods) after unloading
    day_card_location: np.ndarray  # (days, cards) at the end of the day's turns (state.LOC_*)


def trace(kernel, game_index: int) -> GameTrace:
    """Play one game and return its day-by-day record (card locations included)."""
    buffer = engine.trace_game_nb(kernel.config.seed, game_index, kernel.inputs, kernel.seating,
                                  kernel.slot_strategy, kernel.slot_params, kernel.table)
    state = buffer[0]
    p = kernel.config.players
    c = int(state["counts"][0])
    return GameTrace(
        seat_slot=state["seat_slot"][:p].copy(),
        seat_params=state["seat_params"][:p].copy(),
        florins=state["florins"][:p].copy(),
        warehouse_icons=state["warehouse_icons"][:p].copy(),
        day_starter=state["day_starter"].copy(),
        day_ran_out=state["day_ran_out"].copy(),
        day_ship_value=state["day_ship_value"][:, :p].copy(),
        day_ship_pay=state["day_ship_pay"][:, :p].copy(),
        day_majority_pay=state["day_majority_pay"][:, :p].copy(),
        day_bonus_pay=state["day_bonus_pay"][:, :p].copy(),
        day_warehouse_icons=state["day_warehouse_icons"][:, :p].copy(),
        day_card_location=state["day_card_location"][:, :c].copy(),
    )


def check_config(config) -> None:
    """The card game is played with a deck: the default one unless the run names another."""
    if config.deck is not None and not hasattr(config.deck, "card_arrays"):
        raise ValueError("the card game needs a deck (medici_sim.games.card.deck.Deck)")


GAME = Game(
    name="card",
    title="Medici: The Card Game",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=4,
    variants=VARIANTS,
    registry=REGISTRY,
    built_ins=BUILT_INS,
    play_games_nb=engine.play_games_nb,
    kernel_inputs=kernel_inputs,
    stat_columns=(),
    run_columns=("ran_out_days", "variant_decided"),
    rules_page="docs/rules-card.md",
    uses_deck=True,
    check_config=check_config,
    trace=trace,
)
