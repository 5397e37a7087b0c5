"""One card game told turn by turn: what the kernel played, with the rules that scored it.

:func:`narrate` plays game ``game_index`` of a run in the jitted kernel (``PreparedRun.trace``:
the very game the simulation plays for that seed and index, R25, whatever the strategies,
expert and plug-ins included) and returns ``(data, text)``: the story as JSON-serialisable
data and as text rendered from that data alone, so the two always say the same thing.

The narrator tells the engine's record; it works out no rule again. The record is the
kernel's trace of the game (``PreparedRun.trace``: each day's starter, turn log, ship values,
icons and payouts). What the record leaves out, the narrator reads from the same game
stepped (core.resumable: the engine's own play loop) at each event: the market before each
turn, the ship after it, whether it was the last open ship's final turn (R11, the engine's
flag), the ships as the day ends and each good's bonuses. The two must agree (the turn logged
is the turn played, the ships have the recorded values), and the rankings that explain the
payouts (places, ties pooled and rounded, ``core.narration``) must add up to what the engine
paid; if not, it raises :class:`~medici_sim.core.narration.NarrationMismatch`. (The
reference engine proves the engine's rules: tests/test_card_differential.py.)

The data (``--format json``). Seats are numbered from 1, seat 1 starting day 1 (R7), as in
every table of the tool; card ids follow the deck file's rows (docs/protocol.md).

* ``game`` ("card"), ``title``, ``rules_page``, ``seed``, ``index``, ``players``,
  ``variant``, ``seating``, ``deck`` (the deck's name) ;
* ``rules``: ``ship_capacity`` (R6), ``ship_payouts`` by place (R14), ``coin`` (5, R15),
  ``majority_payouts`` (R17), ``bonus_threshold`` and ``bonus`` (R18),
  ``big_bonus_threshold`` and ``big_bonus`` (R19; null under the standard rules);
* ``cards``: the deck, list index = card id: ``id``, ``name`` (e.g. "grain 3", "spice 0
  (2 icons)", "green fur 0", "green 2", "black 7"), ``good`` (a good's name or null),
  ``icons``, ``value``, ``green``;
* ``seats``: ``seat``, ``slot`` (1-based strategy slot, R24), ``strategy`` (its label);
* ``days``: one object per day:

  - ``day`` (1-3), ``starter`` (seat), ``starter_reason`` (see ``next_starter`` below;
    day 1: ``{"rule": "R7"}``), ``deck_at_start`` (cards in the deck), ``ran_out`` (R12);
  - ``turns``: ``turn`` (1-based), ``seat``, ``final`` (the R11 last turn),
    ``market_before`` (card ids), ``revealed`` (ids in the order turned up, R9),
    ``obligatory`` (the first reveal was forced by an empty market, R9), ``taken`` (ids
    in boarding order: last card, then 2nd-, then 3rd-from-last, R10), ``taken_from``
    (1 = last, 2 = 2nd-, 3 = 3rd-from-last, parallel to ``taken``), ``left`` (the market
    after the turn), ``ship_places`` (non-green cards aboard after it), ``ship_value``,
    ``ship_full``;
  - ``end``: why the day ended: "all ships full" (R11), "final turn" (R11) or "ran out"
    (R12);
  - ``ships``: per seat: ``seat``, ``cards`` (boarding order), ``value`` (R13);
  - ``scoring``: ``ships`` (a ranking, below, of the ship values, R14-R15),
    ``unloaded`` (per seat: ids into the warehouse, R16), ``out`` (no-good ids leaving
    the game, R16), ``goods``: per good ``good``, ``icons`` (per seat, today's included,
    R17), ``ranking`` (R17), ``bonus`` (per seat, R18/R19), ``bonus_rule`` (per seat:
    "R18", "R19" or null); ``totals``: per seat ``seat``, ``ship``, ``majority``,
    ``bonus``, ``day`` (their sum), ``florins`` (after the day);
  - ``next_starter`` (null on the last day, the third under the rulebook): ``seat``, ``fewest`` (florins),
    ``tied`` (the seats with that many), ``drawn`` (true when a random draw among the
    tied seats decided), ``rule`` ("R21").

  A ranking is ``{"rule", "scores" (per seat), "groups", "pay" (per seat)}``; each group
  is a set of tied seats, best first: ``seats``, ``score``, ``places`` ([first, last],
  1-based; null for seats without a place: no icon, R17), ``payouts`` (what those places
  pay, R14/R17), ``pool`` (their sum), ``exact`` (pool / seats), ``share`` (each one's
  payout: ``exact`` rounded down to a multiple of 5, R15), ``rounded`` (share < exact);
* ``final``: ``standings`` (best first: ``place``, ``seat``, ``strategy``, ``florins``,
  ``ship``, ``majority``, ``bonus``), ``winners`` (seats), ``shared`` (R22),
  ``win60`` (per seat: 60 / k for each of k winners, else 0: the tables' win credit),
  ``florins`` (per seat).
"""
from __future__ import annotations

from functools import partial

from ...core import narration, resumable
from ...core.resumable import stepped_events
from ..medici import narration as medici
from ..medici.days import DAY_OVER, DAY_SCORED, DAY_START, TURN_END, TURN_START
from ..medici.narration import final_standings, next_starter_reason, rank_places
from . import stepped
from .deck import default_deck
from .rules import GOODS, N_GOODS, NO_GOOD
from .state import (
    DECK_LEN,
    MARKET_LEN,
    N_CARDS,
    TURN_CARD_AT,
    TURN_CARD_BITS,
    TURN_REVEALED_AT,
    TURN_REVEALED_MASK,
    TURN_SEAT_BITS,
    TURN_TAKE_AT,
)

# the trace document's key for the rules' name: its older name, kept (the key "rules" holds the values
# in force in the Medici games' traces, and traces written before say "variant")
TRACE_RULES = "variant"  # keep: old name

FROM_END = {1: "last", 2: "2nd-from-last", 3: "3rd-from-last"}


check = partial(narration.check, game="card")
TIES = "R15"  # how tied places share (render_ranking cites it)


def card_name(good: int, icons: int, value: int, green: bool) -> str:
    """A card as the rules name it (R1, R2): "grain 3", "spice 0 (2 icons)", "green fur 0",
    "green 2", "black 7"."""
    if good == NO_GOOD:
        return f"{'green' if green else 'black'} {value}"
    name = f"{'green ' if green else ''}{GOODS[good]} {value}"
    return name + (f" ({icons} icons)" if icons != 1 else "")


def decode_turn(word: int) -> tuple[int, list[int], list[int]]:
    """A packed turn (state.TURN_*) as (seat, revealed card ids, take flags as places from
    the end besides the last)."""
    word = int(word)
    seat = word & ((1 << TURN_SEAT_BITS) - 1)
    revealed = (word >> TURN_REVEALED_AT) & TURN_REVEALED_MASK
    flags = (word >> TURN_TAKE_AT) & 3
    mask = (1 << TURN_CARD_BITS) - 1
    cards = [(word >> (TURN_CARD_AT + TURN_CARD_BITS * i)) & mask for i in range(revealed)]
    return seat, cards, [back for back in (2, 3) if flags >> (back - 2) & 1]


def narrate(kernel, game_index: int) -> tuple[dict, str]:
    """Tell game ``game_index`` of ``kernel``'s run: (data, text) (the module doc lists the
    data's keys). Raises NarrationMismatch where the game stepped and the kernel's record of
    it disagree, or a ranking explained does not add up to what the engine paid."""
    config = kernel.config
    trace = kernel.trace(game_index)
    start = kernel.inputs[0]  # the run's starting state: its deck and rules
    n_cards = int(start["counts"][N_CARDS])
    good_of, icons_of, value_of, green_of = (start[name][:n_cards] for name in
                                             ("card_good", "card_icons", "card_value", "card_green"))
    players = config.players
    rules = config.rule_set
    big_min = rules["big_bonus_min"] or None
    deck = config.components if config.components is not None else default_deck()
    data = {
        "game": "card", "title": kernel.game.title, "rules_page": kernel.game.presentation.rules_page,
        "seed": config.seed, "index": game_index, "players": players, TRACE_RULES: config.rules,
        "seating": config.seating, "deck": deck.name,
        "rules": {"ship_capacity": rules["ship_capacity"], "ship_payouts": list(rules["ship_payouts"]),
                  "coin": rules["share_coin"], "majority_payouts": list(rules["majority_payouts"]),
                  "bonus_threshold": rules["bonus_min"], "bonus": rules["bonus"], "big_bonus_threshold": big_min,
                  "big_bonus": rules["big_bonus"] if big_min is not None else None},
        "cards": [{"id": c, "name": card_name(int(good_of[c]), int(icons_of[c]), int(value_of[c]), bool(green_of[c])),
                   "good": GOODS[good_of[c]] if good_of[c] != NO_GOOD else None, "icons": int(icons_of[c]),
                   "value": int(value_of[c]), "green": bool(green_of[c])} for c in range(n_cards)],
        "seats": [{"seat": p + 1, "slot": int(trace.seat_slot[p]) + 1,
                   "strategy": config.strategies[trace.seat_slot[p]].label} for p in range(players)],
        "days": [],
    }
    starter_reason: dict = {"rule": "R7"}
    with kernel.naming_failures(game_index, 1):
        for event, actor, day, s in stepped_events(stepped, kernel, game_index):
            if event == DAY_START:
                check(actor == trace.day_starter[day], f"day {day + 1}: the starting seat disagrees")
                record = {"day": day + 1, "starter": actor + 1, "starter_reason": starter_reason,
                          "deck_at_start": int(s["counts"][DECK_LEN]), "ran_out": bool(trace.day_ran_out[day]),
                          "turns": []}
                data["days"].append(record)
            elif event == TURN_START:
                before = market(s)
                final = bool(s["step"][resumable.STEP_ARG])  # R11: the engine's last-open-ship turn
            elif event == TURN_END:
                turns = record["turns"]
                check(len(turns) < len(trace.day_turns[day]), f"day {day + 1}: more turns than recorded")
                turns.append(turn_told(trace.day_turns[day][len(turns)], len(turns) + 1, before, final))
                told = turns[-1]
                aboard = s["ship"][actor, :s["ship_len"][actor]].tolist()
                check(told["seat"] == actor + 1 and told["left"] == market(s)
                      and aboard[len(aboard) - len(told["taken"]):] == told["taken"],
                      f"day {day + 1} turn {told['turn']}: the turn log disagrees with the game")
                used = int(s["ship_used"][actor])
                told.update(ship_places=used, ship_value=int(s["ship_value"][actor]),
                            ship_full=used == rules["ship_capacity"])
            elif event == DAY_OVER:
                check(len(record["turns"]) == len(trace.day_turns[day]), f"day {day + 1}: fewer turns than recorded")
                record["end"] = ("ran out" if record["ran_out"] else "final turn" if record["turns"][-1]["final"]
                                 else "all ships full")
                record["ships"] = [{"seat": p + 1, "cards": [int(c) for c in s["ship"][p, :s["ship_len"][p]]],
                                    "value": int(s["ship_value"][p])} for p in range(players)]
                check([ship["value"] for ship in record["ships"]] == trace.day_ship_value[day].tolist(),
                      f"day {day + 1}: ship values disagree (R13)")
            elif event == DAY_SCORED:
                record["scoring"] = scoring_told(trace, s, day, record["ships"], good_of, rules)
                record["next_starter"] = None
                if actor >= 0:
                    florins = [t["florins"] for t in record["scoring"]["totals"]]
                    starter_reason = next_starter_reason(florins, actor, "R21")
                    record["next_starter"] = starter_reason
    florins = trace.florins.tolist()
    check(florins == [t["florins"] for t in record["scoring"]["totals"]], "final florins disagree")
    data["final"] = final_standings(data, florins, "florins")
    check(data["final"]["win60"] == trace.record()["winner_share60"].tolist(), "winners disagree (R22)")
    return data, render(data)


def market(s) -> list[int]:
    return [int(c) for c in s["market"][:s["counts"][MARKET_LEN]]]


def turn_told(word: int, number: int, before: list[int], final: bool) -> dict:
    """A turn as the engine logged it (R9, R10), with the market before it; the ship after it
    is added by the caller."""
    seat, revealed, backs = decode_turn(word)
    shown = before + revealed
    taken_from = [1, *backs]
    check(len(shown) >= max(taken_from), f"turn {number}: a card taken that is not in the market")
    taken = [shown[-b] for b in taken_from]
    left = [c for k, c in enumerate(shown) if len(shown) - k not in taken_from]
    return {"turn": number, "seat": seat + 1, "final": final, "market_before": before, "revealed": revealed,
            "obligatory": not before and bool(revealed), "taken": taken, "taken_from": taken_from, "left": left}


def bonus_rule(icons: int, paid: int, rules) -> str | None:
    """The rule a good's bonus was paid under: R19's big bonus replaces R18's."""
    if rules["big_bonus_min"] and icons >= rules["big_bonus_min"]:
        return "R19"
    return "R18" if icons >= rules["bonus_min"] else None


def scoring_told(trace, s, day: int, ships: list[dict], good_of, rules) -> dict:
    """The engine's scoring of the day (R13-R19): its payouts, with the rankings that explain them."""
    players = len(ships)
    ranking = rank_places([ship["value"] for ship in ships], rules["ship_payouts"], rules["share_coin"], "R14-R15")
    paid = {"ship": trace.day_ship_pay[day].tolist(), "majority": trace.day_majority_pay[day].tolist(),
            "bonus": trace.day_bonus_pay[day].tolist()}
    check(ranking["pay"] == paid["ship"], f"day {day + 1}: ship payouts disagree (R14-R15)")
    cargo = [ship["cards"] for ship in ships]
    goods = []
    for good in range(N_GOODS):
        icons = trace.day_warehouse_icons[day][:, good].tolist()
        good_ranking = rank_places(icons, rules["majority_payouts"], rules["share_coin"], "R17", [n > 0 for n in icons])
        bonus = s["day_good_bonus"][day, good, :players].tolist()
        goods.append({"good": GOODS[good], "icons": icons, "ranking": good_ranking, "bonus": bonus,
                      "bonus_rule": [bonus_rule(n, paid, rules) for n, paid in zip(icons, bonus, strict=True)]})
    for key, told in (("majority", [g["ranking"]["pay"] for g in goods]), ("bonus", [g["bonus"] for g in goods])):
        check([sum(pays[p] for pays in told) for p in range(players)] == paid[key],
              f"day {day + 1}: {key} payouts disagree (R17-R19)")
    florins = trace.record()["florins"][day].tolist()
    totals = [{"seat": p + 1, **{key: paid[key][p] for key in paid}, "day": sum(paid[key][p] for key in paid),
               "florins": florins[p]} for p in range(players)]
    return {"ships": ranking, "unloaded": [[c for c in ship if good_of[c] != NO_GOOD] for ship in cargo],
            "out": [c for ship in cargo for c in ship if good_of[c] == NO_GOOD], "goods": goods, "totals": totals}


# ---------------------------------------------------------------- text

def render(data: dict) -> str:
    """The narration as text, from the data alone (the module doc lists its keys)."""
    cards = data["cards"]
    rules = data["rules"]
    strategy = {seat["seat"]: seat["strategy"] for seat in data["seats"]}

    def names(ids) -> str:
        return ", ".join(cards[c]["name"] for c in ids) if ids else "nothing"

    variant_named = ", bonus20" if data[TRACE_RULES] == "bonus20" else ""
    out = [f"{data['title']}: game {data['index']} of seed {data['seed']} (R25: the game the simulation plays)",
           f"{data['players']} players, {data[TRACE_RULES]} rules, {data['seating']} seating (R24), "
           f"deck {data['deck']} ({len(cards)} cards)",
           "Seats (R7: seat 1 starts day 1): " + ", ".join(f"{s['seat']} {s['strategy']}" for s in data["seats"]),
           f"Ships hold {rules['ship_capacity']} non-green cards (R6, R10). Ship places pay "
           f"{'/'.join(map(str, rules['ship_payouts']))} (R14); goods majorities "
           f"{'/'.join(map(str, rules['majority_payouts']))} (R17); shared places are pooled and rounded "
           f"down to a multiple of {rules['coin']} (R15); bonus {rules['bonus']} for "
           f"{rules['bonus_threshold']}+ icons of a good (R18)"
           + (f", {rules['big_bonus']} instead for {rules['big_bonus_threshold']}+ (R19{variant_named})"
              if rules["big_bonus_threshold"] is not None else "") + "."]
    for day in data["days"]:
        reason = day["starter_reason"]
        why = "R7" if reason["rule"] == "R7" else "fewest florins, R21"
        out += ["", f"Day {day['day']}: seat {day['starter']} ({strategy[day['starter']]}) starts ({why}); "
                    f"{day['deck_at_start']} cards in the deck"]
        for turn in day["turns"]:
            seat = turn["seat"]
            parts = []
            if turn["final"]:
                parts.append("the last open ship's final turn (R11)")
            shown = [cards[c]["name"] for c in turn["revealed"]]
            if turn["obligatory"]:
                shown[0] += " (obligatory)"
            reveals = f"reveals {', '.join(shown)} (R9)" if shown else "reveals nothing (R9)"
            if turn["market_before"]:
                parts += [f"market: {names(turn['market_before'])}", reveals]
            else:
                parts.append(f"market empty: {reveals}")
            took = ", ".join(f"{FROM_END[b]} {cards[c]['name']}"
                             for c, b in zip(turn["taken"], turn["taken_from"], strict=True))
            parts.append(f"takes {took} (R10)")
            parts.append(f"leaves {names(turn['left'])}" if turn["left"] else "the market is empty")
            ship = (f"ship {turn['ship_places']}/{rules['ship_capacity']}, value {turn['ship_value']}"
                    + (", full" if turn["ship_full"] else ""))
            out.append(f"  {turn['turn']:>2}. seat {seat} {strategy[seat]}: " + "; ".join(parts) + f" -> {ship}")
        ending = {"all ships full": "every ship is full (R11)",
                  "final turn": "the final turn is over (R11)",
                  "ran out": "the market and the deck are empty (R12)"}[day["end"]]
        out.append(f"  The day ends: {ending}.")
        out.append("  Ships sail (R13: value = all cards aboard, green ones too):")
        for ship in day["ships"]:
            out.append(f"    seat {ship['seat']}: {names(ship['cards'])} = {ship['value']}")
        scoring = day["scoring"]
        out.append(f"  Scoring of day {day['day']}")
        out.append("    Ships (R14, ties R15):")
        ships = medici.render_ranking(scoring["ships"], "value", rules["coin"], TIES)
        out += [f"      {line}" for line in ships]
        gone = (f"; {names(scoring['out'])} {'leave' if len(scoring['out']) > 1 else 'leaves'} the game"
                if scoring["out"] else "")
        out.append(f"    Unloading (R16): goods cards go to the warehouses{gone}.")
        out.append("    Goods majorities (R17: icons in the warehouse, today's included; ties R15):")
        for good in scoring["goods"]:
            icons = ", ".join(f"{s + 1}: {n}" for s, n in enumerate(good["icons"]))
            out.append(f"      {good['good']} (icons by seat {icons})")
            ranking = medici.render_ranking(good["ranking"], "icons", rules["coin"], TIES)
            out += [f"        {line}" for line in ranking]
        threshold = f"{rules['bonus_threshold']}+ icons of a good pay {rules['bonus']}, never shared"
        if rules["big_bonus_threshold"] is not None:
            threshold += f"; R19: {rules['big_bonus_threshold']}+ pay {rules['big_bonus']} instead"
        out.append(f"    Bonuses (R18: {threshold}):")
        earned = [[f"{good['good']} {good['icons'][s]} icons: {good['bonus'][s]} ({good['bonus_rule'][s]})"
                   for good in scoring["goods"] if good["bonus_rule"][s]] for s in range(data["players"])]
        out += medici.day_totals_lines(scoring["totals"], earned, "florins", "now")
        if day["next_starter"] is not None:
            out.append(medici.next_starter_line(day["next_starter"], day["day"], "fewest florins", "R21"))
    final = data["final"]
    out += ["", f"Final standings (R22: {medici.final_scoring(len(data['days']))}, the most florins win):"]
    for row in final["standings"]:
        out.append(f"  {row['place']}. seat {row['seat']} {row['strategy']}: {row['florins']} florins "
                   f"(ships {row['ship']}, majorities {row['majority']}, bonuses {row['bonus']})")
    out.append(medici.winners_line(final, final["florins"], strategy, "R22"))
    return "\n".join(out) + "\n"
