"""One classic game (the 1995 auction game) told turn by turn, with the rules that scored it.

:func:`narrate` plays game ``game_index`` of a run in the jitted kernel (``PreparedRun.trace``:
the very game the simulation plays for that seed and index, C20, whatever the strategies,
expert and plug-ins included) and returns ``(data, text)``: the story as JSON-serialisable
data and as text rendered from that data alone, so the two always say the same thing.

The narrator tells the engine's record; it works out no rule again. The record is the
kernel's trace of the game (``PreparedRun.trace``: each day's starter, removed cards, auction log,
read with ``reference.turn_records``, ships, tracks, payouts and money, the game's totals).
What the record leaves out, the narrator reads from the same game stepped (core.resumable:
the engine's own play loop) at each event: the ships and money before each auction (why a
seat passed unasked, C9), whether C8 allowed another card when the lot was offered (the
engine's flag), the ships and tracks as the day ends. The two must agree (the auction logged
is the one played, the ships and money are the recorded ones), and the rankings that explain
the payouts (places, ties pooled and rounded, ``core.narration``) must add up to what the
engine paid; if not, it raises :class:`~medici_sim.core.narration.NarrationMismatch`. (The
reference engine proves the engine's rules: tests/classic/test_differential.py.)

The data (``--format json``). Seats are numbered from 1, seat 1 starting day 1 (C6), as in
every table of the tool; card ids follow docs/protocol-classic.md (7 g + k: good g's k-th
card; 35: gold).

* ``game`` ("classic"), ``title``, ``rules_page``, ``seed``, ``index``, ``players``,
  ``variant``, ``seating``;
* ``rules``: ``start_money`` (C4), ``removed`` (cards set aside a day, C5), ``holds`` (C3),
  ``ship_payouts`` by place (C13), ``coin`` (1: shares rounded down to whole florins),
  ``majority_payouts`` (C15), ``track_bonus`` by level 0-7 (C16), ``track_max`` (C14);
* ``cards``: list index = card id: ``id``, ``name`` ("grain 3", "gold 10"), ``good`` (a
  good's name, null for gold), ``value``;
* ``seats``: ``seat``, ``slot`` (1-based strategy slot, C20), ``strategy`` (its label);
* ``days``: one object per day:

  - ``day`` (1-3), ``starter`` (seat), ``starter_reason`` (see ``next_starter``; day 1:
    ``{"rule": "C6"}``), ``removed`` (card ids set aside face down, secret to the players,
    C5), ``money_at_start`` (per seat), ``ran_out`` (C12), ``end``: "last ship" (C11),
    "all ships full" (C3) or "ran out" (C12);
  - ``turns``: ``turn``, ``auctioneer`` (seat), ``lot`` (ids in drawing order, C8),
    ``lot_value``, ``could_draw_more`` (C8 allowed another card when the auctioneer
    stopped), ``bids``: the seats in speaking order (C9), each ``{"seat", "bid"}`` (0 = a
    pass) or ``{"seat", "bid": null, "why"}`` for a seat that passes unasked (``why``:
    "ship full", "too few free holds" or "money not above the highest bid");
    ``winner`` (seat, null when nobody bid), ``price``, ``discarded`` (C10), ``ship``
    (the winner's ship after the sale: ``cards``, ``value``; null if discarded),
    ``free`` (C11: ``{"seat", "cards"}`` or null), ``money`` (per seat, after the turn);
  - ``ships``: per seat ``seat``, ``cards`` (loading order), ``value`` (C13);
  - ``scoring``: ``ships`` (a ranking, below, of the ship values, C13), ``tracks`` (per
    seat ``seat``, ``before``, ``aboard``, ``after``: per good, C14), ``goods``: per good
    ``good``, ``levels`` (per seat), ``ranking`` (C15), ``bonus`` (per seat, C16);
    ``totals``: per seat ``seat``, ``ship``, ``majority``, ``bonus``, ``day``, ``money``
    (after the day);
  - ``next_starter`` (null on the last day, the third under the rulebook): ``seat``, ``fewest`` (florins), ``tied``
    (the seats with that many), ``drawn`` (a random draw among them decided), ``rule``
    ("C6").

  A ranking is ``{"rule", "scores" (per seat), "groups", "pay" (per seat)}``; each group
  is a set of tied seats, best first: ``seats``, ``score``, ``places`` ([first, last],
  1-based), ``payouts`` (what those places pay), ``pool`` (their sum), ``exact`` (pool /
  seats), ``share`` (``exact`` rounded down to a whole florin), ``rounded`` (share < exact);
* ``final``: ``standings`` (best first: ``place``, ``seat``, ``strategy``, ``money``,
  ``ship``, ``majority``, ``bonus``, ``spent``, ``lots_bought``, ``cards_bought``,
  ``lots_discarded``, ``free_cards``: C21), ``winners`` (seats), ``shared`` (C18),
  ``win60`` (per seat: 60 / k for each of k winners, else 0), ``money`` (per seat).
"""
from __future__ import annotations

from functools import partial

from ...core import narration
from ...core.resumable import stepped_events
from ..medici import narration as medici
from ..medici.days import DAY_OVER, DAY_SCORED, DAY_START, TURN_END, TURN_START
from ..medici.narration import final_standings, next_starter_reason, rank_places
from . import reference, stepped
from .rules import GOODS, N_CARDS, N_GOODS, NO_GOOD, RULE_BOOK, card_arrays, removed_cards

# the trace document's key for the rules' name: its older name, kept (the key "rules" holds the values
# in force in the Medici games' traces, and traces written before say "variant")
TRACE_RULES = "variant"  # keep: old name

check = partial(narration.check, game="classic")


def card_name(good: int, value: int) -> str:
    """C2: "grain 3", ..., "gold 10"."""
    return f"gold {value}" if good == NO_GOOD else f"{GOODS[good]} {value}"


def narrate(kernel, game_index: int) -> tuple[dict, str]:
    """Tell game ``game_index`` of ``kernel``'s run: (data, text) (the module doc lists the
    data's keys). Raises NarrationMismatch where the game stepped and the kernel's record of
    it disagree, or a ranking explained does not add up to what the engine paid."""
    config = kernel.config
    trace = kernel.trace(game_index)
    good_of, value_of = (a.tolist() for a in card_arrays())
    players = config.players
    rules = config.rule_set
    data = {
        "game": "classic", "title": kernel.game.title, "rules_page": kernel.game.presentation.rules_page,
        "seed": config.seed, "index": game_index, "players": players, TRACE_RULES: config.rules,
        "seating": config.seating,
        "rules": {"start_money": rules["starting_money"], "removed": removed_cards(players),
                  "holds": rules["ship_holds"], "ship_payouts": list(rules["ship_payouts"]),
                  "coin": rules["share_coin"],
                  "majority_payouts": list(rules["majority_payouts"]), "track_bonus": list(rules["track_bonus"]),
                  "track_max": rules["track_max"]},
        "cards": [{"id": c, "name": card_name(good_of[c], value_of[c]),
                   "good": GOODS[good_of[c]] if good_of[c] != NO_GOOD else None, "value": value_of[c]}
                  for c in range(N_CARDS)],
        "seats": [{"seat": s + 1, "slot": int(trace.seat_slot[s]) + 1,
                   "strategy": config.strategies[trace.seat_slot[s]].label} for s in range(players)],
        "days": [],
    }
    starter_reason: dict = {"rule": "C6"}
    with kernel.naming_failures(game_index, 1):
        for event, actor, day, s in stepped_events(stepped, kernel, game_index):
            if event == DAY_START:
                check(actor == trace.starter[day], f"day {day + 1}: the starting seat disagrees")
                record = {"day": day + 1, "starter": actor + 1, "starter_reason": starter_reason,
                          "removed": trace.removed[day].tolist(), "money_at_start": s["money"][:players].tolist(),
                          "ran_out": bool(trace.ran_out[day]), "turns": []}
                data["days"].append(record)
                logged = reference.turn_records(trace.lots[day])
            elif event == TURN_START:
                free_before = [rules["ship_holds"] - int(n) for n in s["ship_len"][:players]]
                money_before = s["money"][:players].tolist()
            elif event == TURN_END:
                turns = record["turns"]
                check(len(turns) < len(logged), f"day {day + 1}: more turns than recorded")
                turns.append(auction_told(logged[len(turns)], len(turns) + 1, s, free_before, money_before, value_of))
                check(turns[-1]["auctioneer"] == actor + 1, f"day {day + 1} turn {len(turns)}: the log disagrees")
            elif event == DAY_OVER:
                check(len(record["turns"]) == len(logged), f"day {day + 1}: fewer turns than recorded")
                record["end"] = ("ran out" if record["ran_out"] else "last ship" if record["turns"][-1]["free"]
                                 else "all ships full")
                ships = [s["ship"][p, :s["ship_len"][p]].tolist() for p in range(players)]
                check(ships == [[c for c in row if c >= 0] for row in trace.ship_cards[day].tolist()],
                      f"day {day + 1}: ships disagree")
                record["ships"] = [{"seat": p + 1, "cards": ships[p], "value": int(s["ship_value"][p])}
                                   for p in range(players)]
                tracks = [{"seat": p + 1, "before": s["track"][p].tolist(), "aboard": s["ship_goods"][p].tolist()}
                          for p in range(players)]
            elif event == DAY_SCORED:
                record["scoring"] = scoring_told(trace, day, record["ships"], tracks, s["money"][:players].tolist(),
                                                 rules)
                record["next_starter"] = None
                if actor >= 0:
                    starter_reason = next_starter_reason(trace.money[day].tolist(), actor, "C6")
                    record["next_starter"] = starter_reason
    money = trace.money[-1].tolist()
    totals = {key: getattr(trace, key).tolist() for key in ("spent", "lots_bought", "cards_bought", "lots_discarded",
                                                            "free_cards")}
    data["final"] = final_standings(data, money, "money", totals)
    check(data["final"]["win60"] == trace.winner_share60.tolist(), "winners disagree (C18)")
    return data, render(data)


def auction_told(turn, number: int, s, free_before: list[int], money_before: list[int], value_of) -> dict:
    """An auction as the engine logged it (C8-C11), with the seats that passed unasked (C9)
    and why, the winner's ship after the sale and everyone's money after the turn."""
    players = len(free_before)
    lot = list(turn.lot)
    asked = dict(turn.bids)
    bids, highest = [], 0
    for step in range(1, players + 1):
        seat = (turn.auctioneer + step) % players
        if seat in asked:
            bids.append({"seat": seat + 1, "bid": asked[seat]})
            highest = max(highest, asked[seat])
            continue
        why = ("ship full" if free_before[seat] == 0 else "too few free holds" if free_before[seat] < len(lot)
               else "money not above the highest bid")
        bids.append({"seat": seat + 1, "bid": None, "why": why})
    check(highest == (turn.price if turn.winner >= 0 else 0), f"turn {number}: the sale disagrees with the bids")
    money = s["money"][:players].tolist()
    ship = None
    if turn.winner >= 0:
        check(money[turn.winner] == money_before[turn.winner] - turn.price, f"turn {number}: the price disagrees")
        cards = s["ship"][turn.winner, :s["ship_len"][turn.winner]].tolist()
        cards = cards[:len(cards) - len(turn.free)] if turn.free_seat == turn.winner else cards
        ship = {"cards": cards, "value": sum(value_of[c] for c in cards)}
    return {"turn": number, "auctioneer": turn.auctioneer + 1, "lot": lot, "lot_value": sum(value_of[c] for c in lot),
            "could_draw_more": bool(s["lot_could_grow"]), "bids": bids,
            "winner": turn.winner + 1 if turn.winner >= 0 else None, "price": turn.price if turn.winner >= 0 else 0,
            "discarded": turn.winner < 0, "ship": ship,
            "free": {"seat": turn.free_seat + 1, "cards": list(turn.free)} if turn.free_seat >= 0 else None,
            "money": money}


def scoring_told(trace, day: int, ships: list[dict], tracks: list[dict], live_money: list[int], rules) -> dict:
    """The engine's scoring of the day (C13-C16): its payouts, with the rankings that explain them."""
    players = len(ships)
    coin = rules["share_coin"]
    ranking = rank_places([ship["value"] for ship in ships], rules["ship_payouts"], coin, "C13")
    paid = {"ship": trace.ship_pay[day].tolist(), "majority": trace.majority_pay[day].tolist(),
            "bonus": trace.bonus_pay[day].tolist()}
    check(ranking["pay"] == paid["ship"], f"day {day + 1}: ship payouts disagree (C13)")
    after = trace.track[day].tolist()
    for p, track in enumerate(tracks):
        track["after"] = after[p]
    goods = []
    for g in range(N_GOODS):
        levels = [after[p][g] for p in range(players)]
        goods.append({"good": GOODS[g], "levels": levels,
                      "ranking": rank_places(levels, rules["majority_payouts"], coin, "C15"),
                      "bonus": [rules["track_bonus"][level] for level in levels]})  # C16: the bonus by level
    for key, told in (("majority", [g["ranking"]["pay"] for g in goods]), ("bonus", [g["bonus"] for g in goods])):
        check([sum(pays[p] for pays in told) for p in range(players)] == paid[key],
              f"day {day + 1}: {key} payouts disagree (C15-C16)")
    money = trace.money[day].tolist()
    check(money == live_money, f"day {day + 1}: money disagrees")
    totals = [{"seat": p + 1, **{key: paid[key][p] for key in paid}, "day": sum(paid[key][p] for key in paid),
               "money": money[p]} for p in range(players)]
    return {"ships": ranking, "tracks": tracks, "goods": goods, "totals": totals}


# ---------------------------------------------------------------- text

def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def render(data: dict) -> str:
    """The narration as text, from the data alone (the module doc lists its keys)."""
    cards = data["cards"]
    rules = data["rules"]
    strategy = {seat["seat"]: seat["strategy"] for seat in data["seats"]}

    def names(ids) -> str:
        return ", ".join(cards[c]["name"] for c in ids) if ids else "nothing"

    bonus_levels = ", ".join(f"{level}: {pay}" for level, pay in enumerate(rules["track_bonus"]) if pay)
    in_force = RULE_BOOK.resolve(data[TRACE_RULES], data["players"])
    coin = rules["coin"]
    rounded = "a whole florin" if coin == 1 else f"a multiple of {coin} florins"
    out = [f"{data['title']}: game {data['index']} of seed {data['seed']} (C20: the game the simulation plays)",
           f"{data['players']} players, {data['seating']} seating (C20); everyone starts with "
           f"{rules['start_money']} florins (C4)",
           "Seats (C6: seat 1 starts day 1): " + ", ".join(f"{s['seat']} {s['strategy']}" for s in data["seats"]),
           f"Ships have {rules['holds']} holds (C3). Ship places pay {'/'.join(map(str, rules['ship_payouts']))} "
           f"(C13); track majorities {'/'.join(map(str, rules['majority_payouts']))} (C15), level 0 included; "
           f"shared places are pooled and rounded down to {rounded}; track bonuses by level {bonus_levels} (C16)."]
    if data[TRACE_RULES] != "standard":
        out.append(f"Rules {data[TRACE_RULES]}: {in_force['days']} days (C18), lots of up to {in_force['lot_size']} "
                   f"cards (C8), the lowest bid {in_force['min_bid']} (C9).")
    for day in data["days"]:
        why = "C6" if day["starter_reason"]["rule"] == "C6" and day["day"] == 1 else "least money, C6"
        out += ["", f"Day {day['day']}: seat {day['starter']} ({strategy[day['starter']]}) starts ({why})"]
        if day["removed"]:
            out.append(f"  {len(day['removed'])} cards set aside face down, unseen by the players (C5): "
                       f"{names(day['removed'])}")
        for turn in day["turns"]:
            seat = turn["auctioneer"]
            lot = (f"draws {names(turn['lot'])} (lot of {len(turn['lot'])}, value {turn['lot_value']}"
                   + ("" if turn["could_draw_more"] or len(turn["lot"]) == in_force["lot_size"]
                      else "; no further card allowed")
                   + ", C8)")
            speech = []
            for bid in turn["bids"]:
                if bid["bid"] is None:
                    speech.append(f"{bid['seat']} passes unasked ({bid['why']})")
                else:
                    speech.append(f"{bid['seat']} {'bids ' + str(bid['bid']) if bid['bid'] else 'passes'}")
            if turn["winner"] is None:
                sale = "nobody bids: the lot is put aside (C10)"
            else:
                ship = turn["ship"]
                sale = (f"seat {turn['winner']} buys it for {turn['price']} (C10) -> ship {len(ship['cards'])}/"
                        f"{rules['holds']}, value {ship['value']}, money {turn['money'][turn['winner'] - 1]}")
            out.append(f"  {turn['turn']:>2}. seat {seat} {strategy[seat]} auctions: {lot}; seat "
                       + "; seat ".join(speech) + f" (C9); {sale}")
            if turn["free"] is not None:
                last = turn["free"]
                filled = (f"it fills it free from the deck: {names(last['cards'])}" if last["cards"]
                          else "the deck is empty, so it sails as it is")
                out.append(f"      Only seat {last['seat']}'s ship is still open: {filled} (C11)")
        ending = {"last ship": "a sale left a single open ship (C11)", "all ships full": "every ship is full (C3)",
                  "ran out": "the deck is empty at the start of a turn (C12)"}[day["end"]]
        out.append(f"  The day ends: {ending}.")
        out.append("  Ships sail (C13: value = the cards' values; empty holds add nothing):")
        for ship in day["ships"]:
            out.append(f"    seat {ship['seat']}: {names(ship['cards'])} = {ship['value']}")
        scoring = day["scoring"]
        out.append(f"  Scoring of day {day['day']}")
        out.append("    Ships (C13, every ship ranks, ties share):")
        out += [f"      {line}" for line in medici.render_ranking(scoring["ships"], "value", coin)]
        out.append(f"    Tracks rise by the goods aboard, to {rules['track_max']} at most (C14; gold moves none):")
        for t in scoring["tracks"]:
            moves = [f"{good} {b}->{a}" for good, b, a in zip((g["good"] for g in scoring["goods"]),
                                                                t["before"], t["after"], strict=True) if a != b]
            out.append(f"      seat {t['seat']}: " + (", ".join(moves) if moves else "no change"))
        out.append("    Track majorities (C15: every seat ranks, level 0 too; ties share):")
        for good in scoring["goods"]:
            levels = ", ".join(f"{s + 1}: {n}" for s, n in enumerate(good["levels"]))
            out.append(f"      {good['good']} (levels by seat {levels})")
            out += [f"        {line}" for line in medici.render_ranking(good["ranking"], "level", coin)]
        out.append(f"    Track bonuses (C16: level {bonus_levels}; never shared):")
        earned = [[f"{g['good']} level {g['levels'][s]}: {g['bonus'][s]}" for g in scoring["goods"] if g["bonus"][s]]
                  for s in range(data["players"])]
        out += medici.day_totals_lines(scoring["totals"], earned, "money", "money now")
        if day["next_starter"] is not None:
            out.append(medici.next_starter_line(day["next_starter"], day["day"], "least money", "C6"))
    final = data["final"]
    out += ["", f"Final standings (C18: {medici.final_scoring(len(data['days']))}, the most money wins):"]
    for row in final["standings"]:
        out.append(f"  {row['place']}. seat {row['seat']} {row['strategy']}: {row['money']} florins (earned: ships "
                   f"{row['ship']}, majorities {row['majority']}, bonuses {row['bonus']}; spent {row['spent']} on "
                   f"{_count(row['lots_bought'], 'lot')} of {_count(row['cards_bought'], 'card')}; "
                   f"{_count(row['free_cards'], 'free card')}, {_count(row['lots_discarded'], 'lot')} put aside, C21)")
    out.append(medici.winners_line(final, final["money"], strategy, "C18"))
    return "\n".join(out) + "\n"
