"""The classic game as the shared code sees it: its ``Game`` record, kernel inputs and trace."""
from __future__ import annotations

import importlib
from dataclasses import dataclass, fields

import numpy as np

from ...core.accounting import STAT_SCORE, InconsistentTotals
from ...core.contract import Engine, FirstCommand, FrameworkFacts, Game, Presentation, StatColumn, Stepping
from ..medici.chance import UNSEEN_PART
from ..medici.scoring import MOMENTS, SCORE, STAT_BONUS, STAT_MAJORITY, STAT_SHIP
from ..medici.study import medici_study
from . import engine, narrate, reference, seat_view, state, stepped
from .rules import MAX_PLAYERS, MIN_PLAYERS, RULE_BOOK, VARIANTS, card_arrays, removed_cards, rule_arrays
from .strategies import BUILT_INS, REGISTRY, search, strong


def kernel_inputs(config, kept_parts) -> np.ndarray:
    """The state every game of the run starts from (engine.new_state): the cards and the rule set, the
    unseen-card sums kept if ``kept_parts`` holds them."""
    rules = config.rule_set
    return engine.new_state(*card_arrays(), *rule_arrays(rules), rules["majority_payouts"], rules["share_coin"],
                            UNSEEN_PART in kept_parts)


@dataclass(frozen=True)
class GameTrace:
    """One game as the kernel played it, field for field the reference engine's record
    (``reference.play_game``; seats in C6 order, rows are days)."""

    seat_slot: np.ndarray  # (P,) strategy slot at each seat (C20)
    starter: np.ndarray  # (D,) the day's starting seat (C6)
    ran_out: np.ndarray  # (D,) 1 if the day ended by C12
    removed: np.ndarray  # (D, R) cards removed face down, in dealing order (C5)
    lots: list  # D flat int64 turn logs (reference module doc)
    card_location: np.ndarray  # (D, 36) where each card was when the day's turns ended (LOC_*)
    ship_cards: np.ndarray  # (D, P, H) in loading order, -1 for an empty hold (H holds, C3)
    ship_value: np.ndarray  # (D, P)
    ship_pay: np.ndarray  # (D, P) C13
    majority_pay: np.ndarray  # (D, P) C15, summed over the goods
    bonus_pay: np.ndarray  # (D, P) C16
    track: np.ndarray  # (D, P, 5) after the day's rise (C14)
    money: np.ndarray  # (D, P) after the day's scoring
    spent: np.ndarray  # (P,) C21 totals of the game
    lots_bought: np.ndarray
    cards_bought: np.ndarray
    lots_discarded: np.ndarray
    free_cards: np.ndarray
    winner_share60: np.ndarray  # (P,) 60 // k for each of k joint winners (C18)

    def record(self) -> dict:
        """The trace as a dict with the reference record's keys."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def trace(kernel, game_index: int) -> GameTrace:
    """Play one game with everything recorded and return it in the reference's record format."""
    buffer = stepped.trace_game_nb(kernel.config.seed, game_index, kernel.inputs, kernel.seating,
                                  kernel.slot_strategy, kernel.slot_params, kernel.table)
    state = buffer[0]
    p = kernel.config.players
    rules = kernel.config.rule_set
    d, holds = rules["days"], rules["ship_holds"]
    money = state["money"][:p].copy()
    winners = money == money.max()
    return GameTrace(
        seat_slot=state["seat_slot"][:p].copy(),
        starter=state["day_starter"][:d].copy(),
        ran_out=state["day_ran_out"][:d].copy(),
        removed=state["day_removed"][:d, :removed_cards(p)].copy(),
        lots=[state["day_log"][day, :state["day_log_len"][day]].copy() for day in range(d)],
        card_location=state["day_card_location"][:d].copy(),
        ship_cards=state["day_ship_cards"][:d, :p, :holds].copy(),
        ship_value=state["day_ship_value"][:d, :p].copy(),
        ship_pay=state["day_ship_pay"][:d, :p].copy(),
        majority_pay=state["day_majority_pay"][:d, :p].copy(),
        bonus_pay=state["day_bonus_pay"][:d, :p].copy(),
        track=state["day_track"][:d, :p].copy(),
        money=state["day_money"][:d, :p].copy(),
        spent=state["spent"][:p].copy(),
        lots_bought=state["lots_bought"][:p].copy(),
        cards_bought=state["cards_bought"][:p].copy(),
        lots_discarded=state["lots_discarded"][:p].copy(),
        free_cards=state["free_cards"][:p].copy(),
        winner_share60=np.where(winners, 60 // winners.sum(), 0).astype(np.int64),
    )


def reference_game(config, game_index: int) -> dict:
    """The reference engine's record of game ``game_index`` of the run ``config``."""
    return reference.play_game(config.rule_set, [s.name for s in config.strategies], config.seed, game_index,
                               config.seating, [dict(s.params) for s in config.strategies])


def invariants(record: dict, config) -> None:
    """What holds in every classic game: every card in exactly one place each day (C5, C10),
    ships within their holds (C3), tracks rising and capped at the top (C14), money never
    negative and conserved: start money, less what was spent on lots, plus the payouts (C4,
    C10, C13-C16)."""
    rules = config.rule_set
    location = record["card_location"]
    assert len(location) == rules["days"], "not every day was played (C18)"
    assert not np.isin(location, (state.LOC_UNSEEN, state.LOC_TWICE)).any(), "a card is nowhere or twice"
    assert ((record["ship_cards"] >= 0).sum(axis=2) <= rules["ship_holds"]).all(), "a ship holds more than its holds"
    track = record["track"]
    assert (track <= rules["track_max"]).all() and (np.diff(track, axis=0) >= 0).all(), "a track fell or passed its top"
    paid = (record["ship_pay"] + record["majority_pay"] + record["bonus_pay"]).sum(axis=0)
    assert (record["money"] >= 0).all(), "money went negative"
    assert np.array_equal(record["money"][-1], rules["starting_money"] - record["spent"] + paid), \
        "money not conserved"
    assert record["winner_share60"].sum() == 60, "the win was not shared out exactly (C18)"


class TotalsIdentities:
    """What honest classic totals satisfy: money is the starting money (C4) less the florins
    spent plus ships, majorities and bonuses (C13-C16); the price column's total is the florins
    spent; at most every day of every game runs out (C12, C18)."""

    @staticmethod
    def row(row, where: str, games: int, players: int, variant: str) -> None:
        spent = row[engine.STAT_SPENT]
        start = RULE_BOOK.resolve(variant, players)["starting_money"]
        expected = start * games - spent + row[STAT_SHIP] + row[STAT_MAJORITY] + row[STAT_BONUS]
        if row[STAT_SCORE] != expected:
            raise InconsistentTotals(f"{where}[{STAT_SCORE}] is {row[STAT_SCORE]}, but the starting money, the "
                                     f"florins spent and the payouts make {expected}")
        price = engine.STAT_PRICE_SPENT
        if row[price] != spent:
            raise InconsistentTotals(f"{where}[{price}] is {row[price]}, but the florins spent are {spent}")

    @staticmethod
    def run(run, where: str, games: int, players: int, variant: str) -> None:
        column = engine.RUN_RAN_OUT_DAYS
        days = RULE_BOOK.resolve(variant, players)["days"] * games
        if run[column] > days:
            raise InconsistentTotals(f"{where}[{column}] is {run[column]}, more than the {days} days of "
                                     f"{games} games")


def check_config(config) -> None:
    """The classic game has no deck files: its 36 cards are fixed (C2)."""
    if config.components is not None:
        raise ValueError("the classic game takes no deck (its 36 cards are fixed, C2)")


GAME = Game(
    name="classic",
    title="Medici (1995 auction game)",
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
        scores=lambda state, players: state["money"][:players].copy(),  # C18
        stat_columns=(  # C21, in the order of engine.STAT_SPENT ... STAT_PRICE_SPENT
            StatColumn("mean_spent", shown="spent", caption="mean florins paid for lots"),  # C21
            StatColumn("mean_lots_bought"),
            StatColumn("mean_cards_bought"),
            StatColumn("mean_lots_discarded"),
            StatColumn("mean_free_cards"),
            # its own total is the florins spent
            StatColumn("price_per_card", "ratio", per="mean_cards_bought", shown="per card", digits=2,
                       caption="florins paid per card bought"),
            # the decision statistics, in the order of state.DECIDED_* (engine.STAT_DECIDED)
            StatColumn("lots_auctioned"),
            StatColumn("cards_per_lot", "ratio", "lots_auctioned"),  # drawn into its own lots (C8)
            StatColumn("bid_chances"),
            StatColumn("bids_per_lot", "ratio", "bid_chances"),  # bids per lot it was asked about (C9)
            StatColumn("face_value_bought"),
            StatColumn("price_per_face_value", "ratio", "face_value_bought"),  # its own total is the florins spent
        ),
        run_columns=("ran_out_days",),  # C12
        runs_out_in_play=True,  # C12: many lots put aside end a day on an empty deck
        check_config=check_config,
        trace=trace,
        reference_game=reference_game,
        reference_strategies=lambda: tuple(reference.STRATEGIES),
        invariants=invariants,
        totals_identities=TotalsIdentities,
        compile_seconds=((12, 25), 48),
    ),
    presentation=Presentation(
        **SCORE,  # florins from ships, majorities and bonuses (games/medici/scoring.py)
        summary="the 1995 auction game, C1-C21",
        rules_page="docs/rules-classic.md",
        rule_points={"players": "C1", "seats": "C6", "seating": "C20", "seed": "C20", "spending": "C21"},
        presets_help="standard only (no variant in the rulebook; any rule set by name=value, C3-C18)",
        narration_help=("each auction's lot (C8), bids and passes (C9), sale or discard (C10), the last ship's "
                        "free cards (C11), the ships (C13), the tracks (C14), majorities with shares rounded down "
                        "to a florin (C15), bonuses (C16), the next starting player (C6) and the winners (C18)."),
        narrate=narrate.narrate,
        play_console=lambda: importlib.import_module(".console", __package__).ClassicConsole,
        length_unit="lots",  # C8-C10: one a turn
        first_commands=(  # the README's table of commands: the classic game's rows
            FirstCommand("run (classic)", ("--game", "classic", "--games", "100000")),
            # play: a few answers, then the end of its input stops the game (exit 130, as a person's Ctrl-D)
            FirstCommand("play", ("play", "--game", "classic", "--players", "4", "--opponents", "expert,value,random",
                                  "--seat", "2", "--seed", "11"), typed="6\ny\nn\n3\n", exit_code=130),
        ),
    ),
    study=medici_study(search, strong, no_balance="its rulebook has no variant (C3-C18)"),
    framework=FrameworkFacts(seat_view.INFORMATION, lambda: seat_view, seat_view.RETURNS),  # what a seat sees
)
assert len(GAME.engine.stat_columns) == engine.N_STATS - engine.N_COMMON_STATS
assert len(GAME.engine.run_columns) == engine.N_RUN_STATS - engine.N_COMMON_RUN_STATS
