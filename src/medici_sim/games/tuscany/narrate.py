"""One game of The Castles of Tuscany told decision by decision, with its rule points (``medici-sim trace``).

:func:`narrate` steps game ``game_index`` of a run (stepped.py: the engine's own play, every seat its
strategy; the very game the kernel plays for that seed and index) and returns ``(data, text)``: the story as
JSON-serialisable data and as text rendered from that data alone. At each stop it reads the live record:
each decision with its answer in words (T12-T32), what each turn scored by source (T20-T31), each phase's
banking (T15, T34), the final scoring (T35) and T36's standings, and each estate drawn as a hex map in text
(board_text.py) after setup, after each phase and at the end, with the display, tracks and bonus tiles. The
totals it tells are checked against the game's record (recording.py, the reference engine's form); a
disagreement raises core.narration.NarrationMismatch.

The data: ``game``, ``seed``, ``index``, ``players``, ``variant``, ``seating``, ``components``; ``seats``
(``seat``, ``slot``, ``strategy``); ``setup`` (decisions); ``rounds`` (``round``, ``phase``, ``turns``:
``seat``, ``decisions`` (``decision``, ``rule``, ``choice``), ``scored`` (source: points), ``red``,
``green``); ``phases`` (``phase``, ``round``, ``banked`` and ``red`` per seat, ``reached_limit``, ``map``:
the table's lines); ``final`` (``points`` by source per seat, ``standings``, ``winners``, ``map``); ``record``.
"""
from __future__ import annotations

import numpy as np

from ...core import narration
from ...core.replaying import DECIDED
from ...core.resumable import STEP_CHOICE, STEP_PHASE, TURN_END, TURN_START, stepped_events
from . import stepped
from .board_text import ALL, LEGEND, fitted, table_lines
from .game import PHASE_SCORED
from .recording import record, winners
from .reference import GREEN_SOURCES, RED_SOURCES
from .seat_view import WORDS, choice_text
from .state import EMPTY, N_GREEN_SOURCES, PHASE, REACHED_LIMIT, ROUND

# the trace document's key for the rules' name: its older name, kept (as in the Medici games' traces, whose
# key "rules" holds the values in force)
TRACE_RULES = "variant"  # keep: old name

SOURCES = GREEN_SOURCES + RED_SOURCES
SOURCE_RULES = dict(zip(SOURCES, ("T21", "T22", "T27", "T30", "T12, T25", "T34", "T30", "T26", "T35"), strict=True))
GAME = "tuscany"


def _rule(words: str) -> str:
    return words[words.index("(") + 1:words.index(")")] if "(" in words else "T17"


def _points(s, seat: int) -> np.ndarray:
    return s["points"][seat].copy()


def _scored(before: np.ndarray, after: np.ndarray) -> dict:
    return {SOURCES[k]: int(after[k] - before[k]) for k in range(len(SOURCES)) if after[k] != before[k]}


def narrate(kernel, game_index: int) -> tuple[dict, str]:
    """(data, text) of game ``game_index`` of the run ``kernel`` (a core.driver.PreparedRun)."""
    config = kernel.config
    players = config.players
    data = {"game": GAME, "seed": config.seed, "index": game_index, "players": players, TRACE_RULES: config.rules,
            "seating": config.seating, "components": getattr(config.components, "name", None) or "reconstructed",
            "seats": [], "setup": [], "rounds": [], "phases": [], "final": {}}
    turn, before, state = None, None, None
    for event, actor, _moment, s in stepped_events(stepped, kernel, game_index):
        state = s
        if not data["seats"]:
            data["seats"] = [{"seat": q + 1, "slot": int(s["seat_slot"][q]) + 1,
                              "strategy": config.strategies[int(s["seat_slot"][q])].label} for q in range(players)]
        if event == DECIDED:
            k, choice = int(s["step"][STEP_PHASE]), int(s["step"][STEP_CHOICE])
            told = {"seat": actor + 1, "decision": WORDS[k], "rule": _rule(WORDS[k]),
                    "choice": choice_text(s, k, choice)}
            if turn is None:  # setup (T12)
                data["setup"].append(told)
            else:
                turn["decisions"].append({key: told[key] for key in ("decision", "rule", "choice")})
        elif event == TURN_START:
            if not data["rounds"] or data["rounds"][-1]["round"] != int(s["counts"][ROUND]):
                if not data["rounds"]:
                    data["setup_map"] = table_lines(s, ALL)
                data["rounds"].append({"round": int(s["counts"][ROUND]), "phase": int(s["counts"][PHASE]),
                                       "turns": []})
            turn = {"seat": actor + 1, "decisions": []}
            before = _points(s, actor)
        elif event == TURN_END:
            after = _points(s, actor)
            turn.update(scored=_scored(before, after), red=int(s["red"][actor]), green=int(s["green"][actor]))
            data["rounds"][-1]["turns"].append(turn)
            turn = None
        elif event == PHASE_SCORED:
            phase = len(data["phases"]) + 1
            data["phases"].append({
                "phase": phase, "round": int(s["counts"][ROUND]), "reached_limit": bool(s["counts"][REACHED_LIMIT]),
                "banked": [int(g) for g in s["green"][:players]], "red": [int(r) for r in s["red"][:players]],
                "map": table_lines(s, ALL)})
    final = record(state)
    keys = [(int(state["red"][q]), int(np.sum(state["field_item"][q] == EMPTY)), int(state["green"][q]),
             int(state["hand_total"][q])) for q in range(players)]
    order = sorted(range(players), key=lambda q: (-keys[q][0], -keys[q][1], keys[q][2], keys[q][3], q))
    data["final"] = {
        "points": [{source: int(state["points"][q, k]) for k, source in enumerate(SOURCES)} for q in range(players)],
        "standings": [{"seat": q + 1, "red": keys[q][0], "empty_fields": keys[q][1], "green": keys[q][2],
                       "cards": keys[q][3]} for q in order],
        "winners": [q + 1 for q in winners(state)], "map": table_lines(state, ALL)}
    data["record"] = final
    traced = kernel.trace(game_index).record()
    narration.check(traced == final, "the stepped game is not the traced game", game=GAME)
    for q in range(players):
        told = sum(t["scored"].get(source, 0) for r in data["rounds"] for t in r["turns"] if t["seat"] == q + 1
                   for source in SOURCES[:N_GREEN_SOURCES])
        setup = int(state["points"][q, SOURCES.index("storage_bonus")]) - sum(
            t["scored"].get("storage_bonus", 0) for r in data["rounds"] for t in r["turns"] if t["seat"] == q + 1)
        narration.check(told + setup == final["seats"]["green"][q], f"seat {q + 1}'s green told", game=GAME)
    return data, render(data)


def render(data: dict) -> str:
    """The story in text (within 100 columns), from ``data`` alone."""
    seats = ", ".join(f"seat {s['seat']} {s['strategy']}" for s in data["seats"])
    lines = [f"The Castles of Tuscany, seed {data['seed']}, game {data['index']}: {data['players']} players "
             f"({seats}); rules {data[TRACE_RULES]}, seating {data['seating']}, components {data['components']}",
             *LEGEND, "", "Setup (T12): each seat's assembly, its starting castle's field, then a bonus tile"]
    lines += [f"  seat {d['seat']}: {d['choice']} ({d['rule']})" for d in data["setup"]]
    lines += data.get("setup_map", [])
    phases = iter(data["phases"])
    for r in data["rounds"]:
        lines.append(f"Round {r['round']} (phase {r['phase']})")
        for t in r["turns"]:
            done = "; ".join(f"{d['choice']} ({d['rule']})" for d in t["decisions"]
                             if d["decision"] != WORDS[-1] or d["choice"] != "no marble")
            scored = ", ".join(f"+{v} {k} ({SOURCE_RULES[k]})" for k, v in t["scored"].items())
            lines.append(f"  seat {t['seat']}: {done}" + (f"; scores {scored}" if scored else "")
                         + f" -> red {t['red']}, green {t['green']}")
        if any(p["round"] == r["round"] for p in data["phases"]):
            p = next(phases)
            why = "T37's round limit" if p["reached_limit"] else "a stack ran out (T15)"
            lines.append(f"Phase {p['phase']} ends after round {p['round']} ({why}): each seat banks its green into "
                         f"red (T34): green {p['banked']}, red now {p['red']}")
            lines += p["map"]
    f = data["final"]
    lines.append("Final scoring (T35): red for storage, marble, workers and cards: "
                 + ", ".join(f"seat {q + 1} +{pts['final']}" for q, pts in enumerate(f["points"])))
    lines.append("Standings (T36: most red, then most empty fields, fewest green, fewest cards):")
    lines += [f"  {i + 1}. seat {s['seat']}: red {s['red']}, {s['empty_fields']} empty fields, green {s['green']}, "
              f"{s['cards']} cards" for i, s in enumerate(f["standings"])]
    won = f["winners"]
    lines.append(("Winner: seat " if len(won) == 1 else "Shared win: seats ") + ", ".join(map(str, won)))
    lines += f["map"]
    return fitted("\n".join(lines))
