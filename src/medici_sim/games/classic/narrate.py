"""One classic game (the 1995 auction game) told turn by turn, with the rules that scored it.

:func:`narrate` plays game ``game_index`` of a run in the jitted kernel (``Kernel.trace``:
the very game the simulation plays for that seed and index, C20, whatever the strategies,
expert and plug-ins included) and returns ``(data, text)``: the story as JSON-serialisable
data and as text rendered from that data alone, so the two always say the same thing.

Nothing is taken on trust. The turns come from the kernel's turn log (``state.day_log``,
recorded only when tracing, read with ``reference.turn_records``); the narrator replays
them on a model of the table (deck, ships, money, tracks), checks each step against the
rules (C7 turn order, C8 lots, C9 who may bid and what, C10 sales, C11 the last ship, C12),
works out every ship's value, track level and payout again in plain Python (C13-C16,
:mod:`.rules`), and checks all of it against the kernel's own records: ship cards and
values, card locations, the payouts, tracks and money of each day, the next starting player
(C6), the game's totals (C21) and the winners (C18). Payouts are also checked against the
reference engine's scoring functions (``reference.py``). Any difference raises
:class:`~medici_sim.core.narration.NarrationMismatch`: the narration can never tell a story other than the game's.

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
  - ``next_starter`` (days 1-2; null on day 3): ``seat``, ``fewest`` (florins), ``tied``
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

import numpy as np

from ...core import narration
from ...core.narration import rank_places
from . import reference
from .rules import (
    DAYS,
    GOODS,
    HOLDS,
    MAJORITY_PAYOUTS,
    MAX_LOT,
    N_CARDS,
    N_GOODS,
    NO_GOOD,
    SHARE_COIN,
    SHIP_PAYOUTS,
    TRACK_BONUS,
    TRACK_MAX,
    card_arrays,
    removed_cards,
    starting_money,
)
from .state import LOC_DECK, LOC_DISCARDED, LOC_REMOVED, LOC_SHIP

check = partial(narration.check, game="classic")


def card_name(good: int, value: int) -> str:
    """C2: "grain 3", ..., "gold 10"."""
    return f"gold {value}" if good == NO_GOOD else f"{GOODS[good]} {value}"


def narrate(kernel, game_index: int) -> tuple[dict, str]:
    """Play game ``game_index`` of ``kernel``'s run in the kernel and tell it: (data, text)
    (the module doc lists the data's keys). Raises NarrationMismatch if the replay
    disagrees with the kernel anywhere."""
    config = kernel.config
    trace = kernel.trace(game_index)
    good_of, value_of = (a.tolist() for a in card_arrays())
    players = config.players
    start_money = starting_money(players)

    def free(ship: list[int]) -> int:
        return HOLDS - len(ship)  # C3

    data = {
        "game": "classic", "title": kernel.game.title, "rules_page": kernel.game.rules_page,
        "seed": config.seed, "index": game_index, "players": players, "variant": config.variant,
        "seating": config.seating,
        "rules": {"start_money": start_money, "removed": removed_cards(players), "holds": HOLDS,
                  "ship_payouts": list(SHIP_PAYOUTS[players]), "coin": SHARE_COIN,
                  "majority_payouts": list(MAJORITY_PAYOUTS), "track_bonus": list(TRACK_BONUS),
                  "track_max": TRACK_MAX},
        "cards": [{"id": c, "name": card_name(good_of[c], value_of[c]),
                   "good": GOODS[good_of[c]] if good_of[c] != NO_GOOD else None, "value": value_of[c]}
                  for c in range(N_CARDS)],
        "seats": [{"seat": s + 1, "slot": int(trace.seat_slot[s]) + 1,
                   "strategy": config.strategies[trace.seat_slot[s]].label} for s in range(players)],
        "days": [],
    }
    money = [start_money] * players  # C4
    track = [[0] * N_GOODS for _ in range(players)]  # C14
    totals = {key: [0] * players for key in ("spent", "lots_bought", "cards_bought", "lots_discarded", "free_cards")}
    starter_reason: dict = {"rule": "C6"}
    for day in range(DAYS):
        starter = int(trace.starter[day])
        removed = trace.removed[day].tolist()
        check(len(set(removed)) == removed_cards(players), f"day {day + 1}: {len(removed)} cards removed (C5)")
        deck = set(range(N_CARDS)) - set(removed)  # C5, C17
        ships: list[list[int]] = [[] for _ in range(players)]
        discarded: list[int] = []
        record = {"day": day + 1, "starter": starter + 1, "starter_reason": starter_reason, "removed": removed,
                  "money_at_start": list(money), "ran_out": bool(trace.ran_out[day]), "turns": []}
        # ---- the turns (C7-C12), replayed from the kernel's log
        expected, end = starter, None
        for number, turn in enumerate(reference.turn_records(trace.lots[day]), start=1):
            where = f"day {day + 1} turn {number}"
            check(end is None, f"{where}: a turn after the day ended ({end})")
            check(len(deck) > 0, f"{where}: a turn with an empty deck (C12)")
            auctioneer = turn.auctioneer
            check(auctioneer == expected, f"{where}: seat {auctioneer + 1} auctioned, seat {expected + 1} was due (C7)")
            lot = list(turn.lot)
            check(1 <= len(lot) <= MAX_LOT, f"{where}: a lot of {len(lot)} cards (C8)")
            max_free = max(free(ship) for ship in ships)
            for k, card in enumerate(lot):
                check(card in deck, f"{where}: card {card} drawn but not in the deck")
                check(k == 0 or max_free > k, f"{where}: a card drawn that nobody could buy with the lot (C8)")
                deck.remove(card)
            could_draw_more = len(lot) < MAX_LOT and len(deck) > 0 and max_free > len(lot)
            # C9: one chance each from the auctioneer's left; some seats pass unasked
            asked = list(turn.bids)
            bids, highest, winner = [], 0, -1
            for step in range(1, players + 1):
                seat = (auctioneer + step) % players
                if free(ships[seat]) < len(lot) or money[seat] <= highest:
                    why = ("ship full" if free(ships[seat]) == 0 else "too few free holds"
                           if free(ships[seat]) < len(lot) else "money not above the highest bid")
                    bids.append({"seat": seat + 1, "bid": None, "why": why})
                    continue
                check(bool(asked) and asked[0][0] == seat, f"{where}: seat {seat + 1} should have been asked (C9)")
                amount = asked.pop(0)[1]
                check(amount == 0 or highest < amount <= money[seat], f"{where}: illegal bid {amount} (C9)")
                if amount:
                    highest, winner = amount, seat
                bids.append({"seat": seat + 1, "bid": amount})
            check(not asked, f"{where}: a seat was asked that may not bid (C9)")
            check(turn.winner == winner and turn.price == (highest if winner >= 0 else 0),
                  f"{where}: the sale disagrees (C10)")
            # C10: the sale or the discard
            if winner >= 0:
                money[winner] -= highest
                ships[winner].extend(lot)
                totals["spent"][winner] += highest
                totals["lots_bought"][winner] += 1
                totals["cards_bought"][winner] += len(lot)
            else:
                discarded.extend(lot)
                totals["lots_discarded"][auctioneer] += 1
            bought = ({"cards": list(ships[winner]), "value": sum(value_of[c] for c in ships[winner])}
                      if winner >= 0 else None)
            # C11: a sale leaving exactly one open ship fills it for free from the deck
            open_seats = [s for s in range(players) if free(ships[s]) > 0]
            last_ship = None
            if winner >= 0 and len(open_seats) == 1:
                seat = open_seats[0]
                check(turn.free_seat == seat, f"{where}: seat {seat + 1} should have filled its ship for free (C11)")
                check(len(turn.free) == min(free(ships[seat]), len(deck)), f"{where}: wrong number of free cards (C11)")
                for card in turn.free:
                    check(card in deck, f"{where}: free card {card} not in the deck (C11)")
                    deck.remove(card)
                ships[seat].extend(turn.free)
                totals["free_cards"][seat] += len(turn.free)
                last_ship = {"seat": seat + 1, "cards": list(turn.free)}
            else:
                check(turn.free_seat == -1 and not turn.free, f"{where}: free cards without C11")
            record["turns"].append({
                "turn": number, "auctioneer": auctioneer + 1, "lot": lot,
                "lot_value": sum(value_of[c] for c in lot), "could_draw_more": could_draw_more, "bids": bids,
                "winner": winner + 1 if winner >= 0 else None, "price": highest if winner >= 0 else 0,
                "discarded": winner < 0, "ship": bought,
                "free": last_ship, "money": list(money)})
            if last_ship is not None:
                end = "last ship"
            elif not open_seats:
                end = "all ships full"
            else:
                expected = next((auctioneer + k) % players for k in range(1, players + 1)
                                if (auctioneer + k) % players in open_seats)
        if end is None:
            check(not deck, f"day {day + 1}: the day ended with cards in the deck and open ships")
            end = "ran out"
        check((end == "ran out") == record["ran_out"], f"day {day + 1}: C12 ran-out flag disagrees")
        record["end"] = end
        location = np.full(N_CARDS, LOC_DECK, np.int64)
        location[removed] = LOC_REMOVED
        location[discarded] = LOC_DISCARDED
        for s, ship in enumerate(ships):
            location[ship] = LOC_SHIP + s
        check(np.array_equal(location, trace.card_location[day]), f"day {day + 1}: card locations disagree")
        kernel_ships = [[c for c in row if c >= 0] for row in trace.ship_cards[day].tolist()]
        check(kernel_ships == ships, f"day {day + 1}: ships disagree")
        record["ships"] = [{"seat": s + 1, "cards": list(ships[s]), "value": sum(value_of[c] for c in ships[s])}
                           for s in range(players)]

        # ---- scoring (C13-C16)
        values = [ship["value"] for ship in record["ships"]]
        check(values == trace.ship_value[day].tolist(), f"day {day + 1}: ship values disagree (C13)")
        ranking = rank_places(values, SHIP_PAYOUTS[players], SHARE_COIN, "C13")
        check(ranking["pay"] == reference.ship_payouts(values, players), f"day {day + 1}: ship payouts (reference)")
        check(ranking["pay"] == trace.ship_pay[day].tolist(), f"day {day + 1}: ship payouts disagree (C13)")
        tracks = []
        for s in range(players):
            aboard = [sum(1 for c in ships[s] if good_of[c] == g) for g in range(N_GOODS)]
            before = list(track[s])
            track[s] = [min(TRACK_MAX, before[g] + aboard[g]) for g in range(N_GOODS)]  # C14
            tracks.append({"seat": s + 1, "before": before, "aboard": aboard, "after": list(track[s])})
        check(track == trace.track[day].tolist(), f"day {day + 1}: tracks disagree (C14)")
        goods, majority, bonus = [], [0] * players, [0] * players
        for g in range(N_GOODS):
            levels = [track[s][g] for s in range(players)]
            good_ranking = rank_places(levels, MAJORITY_PAYOUTS, SHARE_COIN, "C15")
            check(good_ranking["pay"] == reference.majority_payouts(levels), f"day {day + 1}: {GOODS[g]} majority")
            paid = [reference.track_bonus(level) for level in levels]  # C16
            check(paid == [TRACK_BONUS[level] for level in levels], f"day {day + 1}: {GOODS[g]} bonus")
            for s in range(players):
                majority[s] += good_ranking["pay"][s]
                bonus[s] += paid[s]
            goods.append({"good": GOODS[g], "levels": levels, "ranking": good_ranking, "bonus": paid})
        check(majority == trace.majority_pay[day].tolist(), f"day {day + 1}: majority payouts disagree (C15)")
        check(bonus == trace.bonus_pay[day].tolist(), f"day {day + 1}: bonuses disagree (C16)")
        day_totals = []
        for s in range(players):
            earned = ranking["pay"][s] + majority[s] + bonus[s]
            money[s] += earned
            day_totals.append({"seat": s + 1, "ship": ranking["pay"][s], "majority": majority[s],
                               "bonus": bonus[s], "day": earned, "money": money[s]})
        check(money == trace.money[day].tolist(), f"day {day + 1}: money disagrees")
        record["scoring"] = {"ships": ranking, "tracks": tracks, "goods": goods, "totals": day_totals}

        # ---- the next starting player (C6)
        record["next_starter"] = None
        if day < DAYS - 1:
            fewest = min(money)
            tied = [s for s in range(players) if money[s] == fewest]
            chosen = int(trace.starter[day + 1])
            check(chosen in tied, f"day {day + 2}: seat {chosen + 1} started without the least money (C6)")
            starter_reason = {"seat": chosen + 1, "fewest": fewest, "tied": [s + 1 for s in tied],
                              "drawn": len(tied) > 1, "rule": "C6"}
            record["next_starter"] = starter_reason
        data["days"].append(record)

    # ---- the end (C18, C21)
    for key, values in totals.items():
        check(values == getattr(trace, key).tolist(), f"game totals disagree: {key} (C21)")
    best = max(money)
    winners = [s for s in range(players) if money[s] == best]
    win60 = [60 // len(winners) if s in winners else 0 for s in range(players)]
    check(win60 == trace.winner_share60.tolist(), "winners disagree (C18)")
    order = sorted(range(players), key=lambda s: (-money[s], s))
    source = {key: [sum(d["scoring"]["totals"][s][key] for d in data["days"]) for s in range(players)]
              for key in ("ship", "majority", "bonus")}
    data["final"] = {
        "standings": [{"place": 1 + sum(m > money[s] for m in money), "seat": s + 1,
                       "strategy": data["seats"][s]["strategy"], "money": money[s],
                       **{key: source[key][s] for key in source}, **{key: totals[key][s] for key in totals}}
                      for s in order],
        "winners": [s + 1 for s in winners], "shared": len(winners) > 1, "win60": win60, "money": money,
    }
    return data, render(data)


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
    out = [f"{data['title']}: game {data['index']} of seed {data['seed']} (C20: the game the simulation plays)",
           f"{data['players']} players, {data['seating']} seating (C20); everyone starts with "
           f"{rules['start_money']} florins (C4)",
           "Seats (C6: seat 1 starts day 1): " + ", ".join(f"{s['seat']} {s['strategy']}" for s in data["seats"]),
           f"Ships have {rules['holds']} holds (C3). Ship places pay {'/'.join(map(str, rules['ship_payouts']))} "
           f"(C13); track majorities {'/'.join(map(str, rules['majority_payouts']))} (C15), level 0 included; "
           f"shared places are pooled and rounded down to a whole florin; track bonuses by level {bonus_levels} (C16)."]
    for day in data["days"]:
        why = "C6" if day["starter_reason"]["rule"] == "C6" and day["day"] == 1 else "least money, C6"
        out += ["", f"Day {day['day']}: seat {day['starter']} ({strategy[day['starter']]}) starts ({why})"]
        if day["removed"]:
            out.append(f"  {len(day['removed'])} cards set aside face down, unseen by the players (C5): "
                       f"{names(day['removed'])}")
        for turn in day["turns"]:
            seat = turn["auctioneer"]
            lot = (f"draws {names(turn['lot'])} (lot of {len(turn['lot'])}, value {turn['lot_value']}"
                   + ("" if turn["could_draw_more"] or len(turn["lot"]) == 3 else "; no further card allowed")
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
        out += [f"      {line}" for line in narration.render_ranking(scoring["ships"], "value", SHARE_COIN)]
        out.append(f"    Tracks rise by the goods aboard, to {rules['track_max']} at most (C14; gold moves none):")
        for t in scoring["tracks"]:
            moves = [f"{good} {b}->{a}" for good, b, a in zip((g["good"] for g in scoring["goods"]),
                                                                t["before"], t["after"], strict=True) if a != b]
            out.append(f"      seat {t['seat']}: " + (", ".join(moves) if moves else "no change"))
        out.append("    Track majorities (C15: every seat ranks, level 0 too; ties share):")
        for good in scoring["goods"]:
            levels = ", ".join(f"{s + 1}: {n}" for s, n in enumerate(good["levels"]))
            out.append(f"      {good['good']} (levels by seat {levels})")
            out += [f"        {line}" for line in narration.render_ranking(good["ranking"], "level", SHARE_COIN)]
        out.append(f"    Track bonuses (C16: level {bonus_levels}; never shared):")
        earned = [[f"{g['good']} level {g['levels'][s]}: {g['bonus'][s]}" for g in scoring["goods"] if g["bonus"][s]]
                  for s in range(data["players"])]
        out += narration.day_totals_lines(scoring["totals"], earned, "money", "money now")
        if day["next_starter"] is not None:
            out.append(narration.next_starter_line(day["next_starter"], day["day"], "least money", "C6"))
    final = data["final"]
    out += ["", "Final standings (C18: after the third day's scoring, the most money wins):"]
    for row in final["standings"]:
        out.append(f"  {row['place']}. seat {row['seat']} {row['strategy']}: {row['money']} florins (earned: ships "
                   f"{row['ship']}, majorities {row['majority']}, bonuses {row['bonus']}; spent {row['spent']} on "
                   f"{_count(row['lots_bought'], 'lot')} of {_count(row['cards_bought'], 'card')}; "
                   f"{_count(row['free_cards'], 'free card')}, {_count(row['lots_discarded'], 'lot')} put aside, C21)")
    out.append(narration.winners_line(final, final["money"], strategy, "C18"))
    return "\n".join(out) + "\n"
