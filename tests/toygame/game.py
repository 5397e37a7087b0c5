"""High card as medici-sim sees it: its ``Game`` record (core.contract), with the trace, the
reference engine's record, the invariants and the narration that the commands and tests use.

It declares an engine and a presentation, and a study policy without rule sets to balance; it
has no component set to choose (its 40 cards are fixed, H1) and no seat view for the game-AI
frameworks, and says so."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from medici_sim.core.contract import Engine, Game, Presentation, ScoreSource, Stepping, StudyPolicy

from . import engine, reference
from .engine import MAX_PLAYERS, MIN_PLAYERS, NO_CARD, POT, ROUNDS
from .strategies import BUILT_INS, REGISTRY

VARIANTS = ("standard",)


@dataclass(frozen=True)
class Trace:
    """One game as the kernel played it, in the reference engine's record format."""

    fields: dict

    def record(self) -> dict[str, np.ndarray]:
        return self.fields


def trace(kernel, game_index: int) -> Trace:
    buffer = engine.trace_game_nb(kernel.config.seed, game_index, kernel.inputs, kernel.seating,
                                  kernel.slot_strategy, kernel.slot_params, kernel.table)
    state, p = buffer[0], kernel.config.players
    points = state["points"][:p].copy()
    best = points == points.max()
    return Trace({"seat_slot": state["seat_slot"][:p].copy(), "starter": state["starter"].copy(),
                  "kept": state["kept"][:, :p].copy(), "discarded": state["discarded"][:, :p].copy(),
                  "pot_pay": state["pot_pay"][:, :p].copy(), "points": points,
                  "winner_share60": np.where(best, 60 // best.sum(), 0)})


def reference_game(config, game_index: int) -> dict[str, np.ndarray]:
    return reference.play_game(config.players, [s.name for s in config.strategies], config.seed, game_index,
                               config.seating, [dict(s.params) for s in config.strategies])


def invariants(record: dict, config) -> None:
    """Every card turned up at most once (H2, H3); points are the kept cards' values and the
    pots (H4, H5); each round's pot is paid out, at most 12 points (H5)."""
    cards = np.concatenate([record["kept"].ravel(), record["discarded"].ravel()])
    cards = cards[cards != NO_CARD]
    assert len(set(cards.tolist())) == len(cards), "a card turned up twice"
    values = (record["kept"] % 10 + 1).sum(axis=0)
    assert np.array_equal(record["points"], values + record["pot_pay"].sum(axis=0)), "points not conserved"
    paid = record["pot_pay"].sum(axis=1)
    assert ((paid > 0) & (paid <= POT)).all(), "a pot not paid out"
    assert record["winner_share60"].sum() == 60, "the win was not shared out exactly (H7)"


def narrate(kernel, game_index: int) -> tuple[dict, str]:
    """The game told round by round from the kernel's record: (data, text)."""
    record = trace(kernel, game_index).record()
    config = kernel.config
    labels = [config.strategies[slot].label for slot in record["seat_slot"]]
    rounds = []
    for round_ in range(ROUNDS):
        turns = [{"seat": int(seat) + 1, "kept": int(record["kept"][round_, seat] % 10 + 1),
                  "discarded": (None if record["discarded"][round_, seat] == NO_CARD
                                else int(record["discarded"][round_, seat] % 10 + 1)),
                  "pot": int(record["pot_pay"][round_, seat])} for seat in range(config.players)]
        rounds.append({"round": round_ + 1, "starter": int(record["starter"][round_]) + 1, "turns": turns})
    data = {"game": GAME.name, "title": GAME.title, "seed": config.seed, "index": game_index,
            "players": config.players, "seats": [{"seat": k + 1, "strategy": label} for k, label in enumerate(labels)],
            "rounds": rounds, "points": [int(f) for f in record["points"]],
            "winners": [k + 1 for k, share in enumerate(record["winner_share60"]) if share]}
    lines = [f"{GAME.title}: game {game_index} of seed {config.seed}, {config.players} players"]
    for r in rounds:
        lines.append(f"Round {r['round']} (seat {r['starter']} starts)")
        for t in r["turns"]:
            other = "" if t["discarded"] is None else f", discarded {t['discarded']}"
            lines.append(f"  seat {t['seat']} ({labels[t['seat'] - 1]}) kept {t['kept']}{other}, "
                         f"pot {t['pot']} (H3-H5)")
    lines.append(f"Points: {', '.join(f'seat {k + 1} {f}' for k, f in enumerate(data['points']))}; "
                 f"winners: seat {', '.join(map(str, data['winners']))} (H7)")
    return data, "\n".join(lines) + "\n"


def check_config(config) -> None:
    if config.components is not None:
        raise ValueError("high card takes no deck (its 40 cards are fixed, H1)")


GAME = Game(
    name="toy",
    title="High card (the tests' toy game)",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=3,
    presets=VARIANTS,
    registry=REGISTRY,
    built_ins=BUILT_INS,
    engine=Engine(
        play_games_nb=engine.play_games_nb,
        play_game_in_nb=engine.play_game_in_nb,
        kernel_inputs=lambda config, kept_parts: engine.new_state(config.players),
        stepping=Stepping(engine.new_game_nb, engine.advance_nb, engine.legal_choices_nb, engine.apply_choice_nb,
                          engine.trace_game_nb, engine.accumulate_game_nb),
        scores=lambda state, players: state["points"][:players].copy(),  # H7
        stat_columns=(),
        run_columns=(),
        check_config=check_config,
        trace=trace,
        reference_game=reference_game,
        reference_strategies=lambda: reference.STRATEGIES,
        invariants=invariants,
    ),
    presentation=Presentation(
        summary="a toy game, rules H1-H7",
        rules_page="tests/toygame/rules.md",
        presets_help="standard only",
        rule_points={"players": "H1", "seats": "H6"},
        narrate=narrate,
        score_unit="points",  # H7
        score_sources=(ScoreSource("card", "cards"), ScoreSource("pot", "pots")),  # H4, H5 (engine.STAT_CARDS, ..)
    ),
    study=StudyPolicy(no_balance="high card has one rule set (H1-H7)", weakest="random"),
    no_framework="high card declares no seat view (it is the tests' toy game)",
)
