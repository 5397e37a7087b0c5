"""High card in plain Python (H1-H7), written from the rules alone: it proves the kernel
game by game (``Game.engine.reference_game``)."""
from __future__ import annotations

import numpy as np

from medici_sim.core.rng import GameRandom

from .engine import MAX_PLAYERS, N_CARDS, NO_CARD, POT, ROUNDS


def value(card: int) -> int:
    return card % 10 + 1  # H1


STRATEGIES = ("random", "greedy")


def _again(name: str, rng: GameRandom, first: int, params: dict) -> bool:
    return rng.coin() if name == "random" else value(first) < params.get("threshold", 6)


def _keep(name: str, rng: GameRandom, first: int, second: int) -> int:
    return rng.below(2) if name == "random" else int(value(second) > value(first))


def play_game(players: int, strategies: list[str], seed: int, game_index: int, seating: str,
              params: list[dict]) -> dict[str, np.ndarray]:
    """Game ``game_index`` of the run with ``seed``, as the record the kernel's trace gives."""
    rng = GameRandom(seed, game_index)
    slots = [(seat + game_index) % players if seating == "rotate" else seat for seat in range(players)]
    if seating == "random":
        for j in range(players - 1, 0, -1):
            r = rng.below(j + 1)
            slots[j], slots[r] = slots[r], slots[j]
    deck = list(range(N_CARDS))
    for j in range(N_CARDS - 1, 0, -1):  # H2
        r = rng.below(j + 1)
        deck[j], deck[r] = deck[r], deck[j]
    points = [0] * players
    starter = np.zeros(ROUNDS, np.int64)
    kept, discarded, pot_pay = (np.full((ROUNDS, players), fill, np.int64) for fill in (0, NO_CARD, 0))
    for round_ in range(ROUNDS):
        starter[round_] = round_ % players  # H6
        for turn in range(players):
            seat = (starter[round_] + turn) % players
            name, mine = strategies[slots[seat]], params[slots[seat]]
            first = deck.pop(0)
            kept[round_, seat] = first
            if _again(name, rng, first, mine):  # H3
                second = deck.pop(0)
                keep = _keep(name, rng, first, second)
                kept[round_, seat], discarded[round_, seat] = (second, first) if keep else (first, second)
            points[seat] += value(kept[round_, seat])  # H4
        values = [value(c) for c in kept[round_]]
        winners = [seat for seat in range(players) if values[seat] == max(values)]
        for seat in winners:  # H5
            pot_pay[round_, seat] = POT // len(winners)
            points[seat] += pot_pay[round_, seat]
    final = np.array(points, np.int64)
    best = final == final.max()
    assert players <= MAX_PLAYERS
    return {"seat_slot": np.array(slots, np.int64), "starter": starter, "kept": kept, "discarded": discarded,
            "pot_pay": pot_pay, "points": final, "winner_share60": np.where(best, 60 // best.sum(), 0)}
