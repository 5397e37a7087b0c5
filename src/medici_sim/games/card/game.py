"""The card game as the shared code sees it: its ``Game`` record, kernel inputs and trace."""
from __future__ import annotations

import importlib
import math
from dataclasses import dataclass

import numpy as np

from ...core.accounting import STAT_SCORE, STAT_SCORE_SQ, InconsistentTotals
from ...core.contract import (
    Engine,
    FirstCommand,
    FrameworkFacts,
    Game,
    GameData,
    Presentation,
    StatColumn,
    Stepping,
)
from ..medici.chance import UNSEEN_PART
from ..medici.scoring import MOMENTS, SCORE, STAT_BONUS, STAT_MAJORITY, STAT_SHIP
from ..medici.study import medici_study
from . import engine, narrate, reference, seat_view, state, stepped
from .deck import default_deck, named_decks, parse_deck, resolve_deck, shipped_name
from .rules import MAX_PLAYERS, MIN_PLAYERS, RULE_BOOK, VARIANTS, rule_arrays
from .strategies import BUILT_INS, REGISTRY, search, strong


def kernel_inputs(config, kept_parts) -> np.ndarray:
    """The state every game of the run starts from (engine.new_state): its deck, player count and rules, the
    unseen-card sums kept if ``kept_parts`` holds them."""
    deck = config.components if config.components is not None else default_deck()
    rules = config.rule_set
    return engine.new_state(*deck.card_arrays(), *rule_arrays(rules), rules["majority_payouts"], rules["share_coin"],
                            UNSEEN_PART in kept_parts)


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
    day_turns: tuple = ()  # per day, its turns in order, packed as state.TURN_* describes (narrate.py reads them)

    def record(self) -> dict[str, np.ndarray]:
        """The trace in the reference engine's record format (``reference.play_game``)."""
        paid = self.day_ship_pay + self.day_majority_pay + self.day_bonus_pay
        winners = self.florins == self.florins.max()
        return {
            "seat_slot": self.seat_slot, "starter": self.day_starter, "ran_out": self.day_ran_out,
            "ship_value": self.day_ship_value, "ship_pay": self.day_ship_pay,
            "majority_pay": self.day_majority_pay, "bonus_pay": self.day_bonus_pay,
            "florins": np.cumsum(paid, axis=0), "warehouse_icons": self.day_warehouse_icons,
            "card_location": self.day_card_location,
            "winner_share60": np.where(winners, 60 // winners.sum(), 0),
        }


def trace(kernel, game_index: int) -> GameTrace:
    """Play one game and return its day-by-day record (card locations included)."""
    buffer = stepped.trace_game_nb(kernel.config.seed, game_index, kernel.inputs, kernel.seating,
                                  kernel.slot_strategy, kernel.slot_params, kernel.table)
    state = buffer[0]
    p = kernel.config.players
    c = int(state["counts"][0])
    days = kernel.config.rule_set["days"]
    return GameTrace(
        seat_slot=state["seat_slot"][:p].copy(),
        seat_params=state["seat_params"][:p].copy(),
        florins=state["florins"][:p].copy(),
        warehouse_icons=state["warehouse_icons"][:p].copy(),
        day_starter=state["day_starter"][:days].copy(),
        day_ran_out=state["day_ran_out"][:days].copy(),
        day_ship_value=state["day_ship_value"][:days, :p].copy(),
        day_ship_pay=state["day_ship_pay"][:days, :p].copy(),
        day_majority_pay=state["day_majority_pay"][:days, :p].copy(),
        day_bonus_pay=state["day_bonus_pay"][:days, :p].copy(),
        day_warehouse_icons=state["day_warehouse_icons"][:days, :p].copy(),
        day_card_location=state["day_card_location"][:days, :c].copy(),
        day_turns=tuple(state["day_turns"][d, :state["day_turn_count"][d]].copy() for d in range(days)),
    )


def reference_game(config, game_index: int) -> dict[str, np.ndarray]:
    """The reference engine's record of game ``game_index`` of the run ``config``."""
    deck = config.components if config.components is not None else default_deck()
    return reference.play_game(deck, config.rule_set,
                               [s.name for s in config.strategies], config.seed, game_index, config.seating,
                               [dict(s.params) for s in config.strategies])


def invariants(record: dict, config) -> None:
    """What holds in every card game: every card in exactly one place at the end of each
    day's turns (R16, R20), goods only in warehouses and no-good cards out (R16), florins
    only from the day's payouts (R13-R19) and never falling, warehouses never shrinking."""
    location = record["card_location"]
    assert not np.isin(location, (state.LOC_UNSEEN, state.LOC_TWICE)).any(), "a card is nowhere or twice"
    paid = record["ship_pay"] + record["majority_pay"] + record["bonus_pay"]
    assert (paid >= 0).all() and np.array_equal(record["florins"], np.cumsum(paid, axis=0)), "florins not conserved"
    assert (np.diff(record["warehouse_icons"], axis=0) >= 0).all(), "a warehouse lost icons"
    assert record["winner_share60"].sum() == 60, "the win was not shared out exactly (R22)"


class TotalsIdentities:
    """What honest card-game totals satisfy: florins are exactly ships + majorities + bonuses,
    each paid in its units (R14-R15, R17: shares rounded down to the coin; R18-R19: the
    bonuses); at most every day runs out (R12); without a big bonus no game is decided by it."""

    @staticmethod
    def units(rules) -> dict[int, int]:
        """Each column's unit: every total of it is a multiple (0: no check)."""
        ship = math.gcd(rules["share_coin"], *rules["ship_payouts"])
        majority = math.gcd(rules["share_coin"], *rules["majority_payouts"])
        bonus = math.gcd(rules["bonus"], rules["big_bonus"] if rules["big_bonus_min"] else 0)
        score = math.gcd(ship, majority, bonus)
        return {STAT_SHIP: ship, STAT_MAJORITY: majority, STAT_BONUS: bonus, STAT_SCORE_SQ: score**2}

    @staticmethod
    def row(row, where: str, games: int, players: int, variant: str) -> None:
        sources = row[STAT_SHIP] + row[STAT_MAJORITY] + row[STAT_BONUS]
        if row[STAT_SCORE] != sources:
            raise InconsistentTotals(f"{where}[{STAT_SCORE}] is {row[STAT_SCORE]}, but ships, majorities and "
                                     f"bonuses paid {sources} florins")
        for column, unit in TotalsIdentities.units(RULE_BOOK.resolve(variant, players)).items():
            if unit and row[column] % unit:
                raise InconsistentTotals(f"{where}[{column}] is {row[column]}, not a multiple of {unit}")

    @staticmethod
    def run(run, where: str, games: int, players: int, variant: str) -> None:
        rules = RULE_BOOK.resolve(variant, players)
        days = rules["days"] * games
        if run[engine.RUN_RAN_OUT_DAYS] > days:
            raise InconsistentTotals(f"{where}[{engine.RUN_RAN_OUT_DAYS}] is {run[engine.RUN_RAN_OUT_DAYS]}, more "
                                     f"than the {days} days of {games} games")
        decided = run[engine.RUN_VARIANT_DECIDED]
        if decided > games or (decided and not rules["big_bonus_min"]):
            raise InconsistentTotals(f"{where}[{engine.RUN_VARIANT_DECIDED}] is {decided}, impossible in {games} "
                                     f"games with the {variant} rules")


def deck_from_text(contents: str):
    """A deck from its file contents: the default deck itself when it is the default's."""
    deck = parse_deck(contents, "saved in the checkpoint")
    default = default_deck()
    return default if deck.fingerprint() == default.fingerprint() else deck


def check_config(config) -> None:
    """The card game is played with a deck: the default one unless the run names another."""
    if config.components is not None and not hasattr(config.components, "card_arrays"):
        raise ValueError("the card game needs a deck (medici_sim.games.card.deck.Deck)")


GAME = Game(
    name="card",
    title="Medici: The Card Game",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=4,
    presets=VARIANTS,
    rule_book=RULE_BOOK,
    registry=REGISTRY,
    built_ins=BUILT_INS,
    engine=Engine(
        **MOMENTS,  # scored at the end of each day (games/medici/scoring.py)
        play_games_nb=engine.play_games_nb,
        play_game_in_nb=engine.play_game_in_nb,
        kernel_inputs=kernel_inputs,
        stepping=Stepping(stepped.new_game_nb, stepped.advance_nb, stepped.legal_choices_nb, stepped.apply_choice_nb,
                          stepped.trace_game_nb, engine.accumulate_game_nb),
        scores=lambda state, players: state["florins"][:players].copy(),  # R22
        stat_columns=(  # the decision statistics, in the order of state.DECIDED_* (engine.STAT_DECIDED)
            StatColumn("turns"),
            StatColumn("reveals_per_turn", "ratio", "turns"),
            StatColumn("cards_taken_per_turn", "ratio", "turns"),
            StatColumn("free_take_share", "ratio", "turns"),
        ),
        run_columns=("ran_out_days", "variant_decided"),
        counted_under={"variant_decided": RULE_BOOK.dependency("big_bonus").active},  # R19: only with a big bonus
        check_config=check_config,
        trace=trace,
        reference_game=reference_game,
        reference_strategies=lambda: tuple(reference.REFERENCE_STRATEGIES),
        invariants=invariants,
        totals_identities=TotalsIdentities,
        compile_seconds=((9, 20), 40),
    ),
    data=GameData(
        load=lambda spec: resolve_deck(spec) if spec is not None else default_deck(),  # a name or a file
        from_text=deck_from_text,
        named=named_decks,
        shipped_name=shipped_name,
        help=("card only: a shipped deck by name ({names}; each a reconstruction, R3) or a deck CSV file "
              "(count,good,icons,value,green; R5) [default: default, the reconstruction of the 110-card deck, R4]."),
        noun="deck", plural="decks", unit="cards",
    ),
    presentation=Presentation(
        **SCORE,  # florins from ships, majorities and bonuses (games/medici/scoring.py)
        summary="Medici: The Card Game, rules R1-R25",
        rules_page="docs/rules-card.md",
        rule_points={"players": "R6", "seats": "R7", "seating": "R24", "seed": "R25", "rules": "R19",
                     "lineups": "R24"},
        presets_help="standard [default] or bonus20: 20 florins for 8+ icons of a good (10+ with 2 players), R19",
        narration_help=("each turn's reveals (R9) and takes (R10) and what was left, the end of each day (R11, "
                        "R12), the ships (R13) and each day's scoring with its reasons: the ship ranking with ties "
                        "and shares rounded down to 5 (R14, R15), each good's majority ranking (R17), bonuses (R18; "
                        "R19 under bonus20), the next starting player (R21), and the final standings and winners "
                        "(R22)."),
        narrate=narrate.narrate,
        play_console=lambda: importlib.import_module(".console", __package__).CardConsole,
        first_commands=(  # the README's table of commands: the default game's rows
            FirstCommand("run", ("--games", "100000")),
            FirstCommand("compare", ("compare", "--players", "4", "--games", "20000")),
            FirstCommand("balance", ("balance", "--players", "4", "--games", "20000")),
            FirstCommand("balance --ladder", ("balance", "--ladder", "--players", "4", "--games", "4000")),
            FirstCommand("search", ("--strategies", "search:rollouts=4,expert,expert,expert", "--games", "100")),
            FirstCommand("trace", ("trace", "--players", "3", "--strategies", "expert,greedy,random", "--seed", "7",
                                   "--index", "12")),
        ),
    ),
    study=medici_study(search, strong, balance_rules=VARIANTS),  # standard against bonus20
    framework=FrameworkFacts(seat_view.INFORMATION, lambda: seat_view, seat_view.RETURNS),  # what a seat sees
)
assert len(GAME.engine.stat_columns) == engine.N_STATS - engine.N_COMMON_STATS
