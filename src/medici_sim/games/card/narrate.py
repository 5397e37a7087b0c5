"""One card game told turn by turn: what the kernel played, with the rules that scored it.

:func:`narrate` plays game ``game_index`` of a run in the jitted kernel (``Kernel.trace``:
the very game the simulation plays for that seed and index, R25, whatever the strategies,
expert and plug-ins included) and returns ``(data, text)``: the story as JSON-serialisable
data and as text rendered from that data alone, so the two always say the same thing.

Nothing is taken on trust. The turns come from the kernel's turn log (``state.day_turns``,
recorded only when tracing); the narrator replays them on a model of the table (deck,
market, ships, warehouses), works out every ship's value, every warehouse's icons and every
payout again in plain Python from the rules (R13-R19, :mod:`.rules`), and checks all of it
against the kernel's own records: the ship values, icons, card locations, payouts of each
day, the next starting player (R21), the final florins and the winners (R22). It also
checks its payouts against the reference engine's scoring functions (``reference.py``).
Any difference raises :class:`~medici_sim.core.narration.NarrationMismatch`: the narration can never tell a story
other than the game's.

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
  - ``next_starter`` (days 1-2; null on day 3): ``seat``, ``fewest`` (florins),
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

import numpy as np

from ...core import narration
from ...core.narration import rank_places
from . import reference
from .deck import default_deck
from .rules import (
    BIG_BONUS,
    BONUS,
    BONUS20,
    DAYS,
    GOODS,
    MAJORITY_PAYOUTS,
    N_GOODS,
    NO_GOOD,
    SHARE_COIN,
    SHIP_PAYOUTS,
    VARIANTS,
    big_bonus_threshold,
    bonus_threshold,
    ship_capacity,
)
from .state import (
    LOC_DECK,
    LOC_MARKET,
    LOC_OUT,
    LOC_SHIP,
    LOC_WAREHOUSE,
    N_CARDS,
    TURN_CARD_AT,
    TURN_CARD_BITS,
    TURN_REVEALED_AT,
    TURN_SEAT_BITS,
    TURN_TAKE_AT,
)

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
    revealed = (word >> TURN_REVEALED_AT) & 3
    flags = (word >> TURN_TAKE_AT) & 3
    mask = (1 << TURN_CARD_BITS) - 1
    cards = [(word >> (TURN_CARD_AT + TURN_CARD_BITS * i)) & mask for i in range(revealed)]
    return seat, cards, [back for back in (2, 3) if flags >> (back - 2) & 1]


class _Table:
    """The narrator's own model of the table, replayed from the kernel's turn log."""

    def __init__(self, n_cards: int, players: int):
        self.deck = set(range(n_cards))  # R7: day 1 starts with the whole deck
        self.market: list[int] = []
        self.out: list[int] = []
        self.ships: list[list[int]] = [[] for _ in range(players)]
        self.warehouses: list[list[int]] = [[] for _ in range(players)]

    def locations(self, n_cards: int) -> np.ndarray:
        """Where every card is (the kernel's LOC_* codes)."""
        location = np.full(n_cards, -1, np.int64)
        for card in self.deck:
            location[card] = LOC_DECK
        for card in self.market:
            location[card] = LOC_MARKET
        for card in self.out:
            location[card] = LOC_OUT
        for seat, ship in enumerate(self.ships):
            location[ship] = LOC_SHIP + seat
        for seat, warehouse in enumerate(self.warehouses):
            location[warehouse] = LOC_WAREHOUSE + seat
        return location


def narrate(kernel, game_index: int) -> tuple[dict, str]:
    """Play game ``game_index`` of ``kernel``'s run in the kernel and tell it: (data, text)
    (the module doc lists the data's keys). Raises NarrationMismatch if the replay
    disagrees with the kernel anywhere."""
    config = kernel.config
    trace = kernel.trace(game_index)
    start = kernel.inputs[0]  # the run's starting state: its deck
    n_cards = int(start["counts"][N_CARDS])
    good_of, icons_of, value_of, green_of = (start[name][:n_cards] for name in
                                             ("card_good", "card_icons", "card_value", "card_green"))
    players = config.players
    variant = VARIANTS.index(config.variant)
    capacity = ship_capacity(players)
    bonus_min = bonus_threshold(players)
    big_min = big_bonus_threshold(players) if variant == BONUS20 else None
    deck = config.deck if config.deck is not None else default_deck()

    def green(card: int) -> bool:
        return bool(green_of[card])

    def places_used(ship: list[int]) -> int:
        return sum(1 for c in ship if not green(c))  # R10: green cards take no place

    data = {
        "game": "card", "title": kernel.game.title, "rules_page": kernel.game.rules_page,
        "seed": config.seed, "index": game_index, "players": players, "variant": config.variant,
        "seating": config.seating, "deck": deck.name,
        "rules": {"ship_capacity": capacity, "ship_payouts": list(SHIP_PAYOUTS[players]), "coin": SHARE_COIN,
                  "majority_payouts": list(MAJORITY_PAYOUTS), "bonus_threshold": bonus_min, "bonus": BONUS,
                  "big_bonus_threshold": big_min, "big_bonus": BIG_BONUS if big_min is not None else None},
        "cards": [{"id": c, "name": card_name(int(good_of[c]), int(icons_of[c]), int(value_of[c]), green(c)),
                   "good": GOODS[good_of[c]] if good_of[c] != NO_GOOD else None, "icons": int(icons_of[c]),
                   "value": int(value_of[c]), "green": green(c)} for c in range(n_cards)],
        "seats": [{"seat": s + 1, "slot": int(trace.seat_slot[s]) + 1,
                   "strategy": config.strategies[trace.seat_slot[s]].label} for s in range(players)],
        "days": [],
    }
    table = _Table(n_cards, players)
    florins = [0] * players
    starter_reason: dict = {"rule": "R7"}
    for day in range(DAYS):
        starter = int(trace.day_starter[day])
        record = {"day": day + 1, "starter": starter + 1, "starter_reason": starter_reason,
                  "deck_at_start": len(table.deck), "ran_out": bool(trace.day_ran_out[day]), "turns": []}
        # ---- the turns (R8-R12), replayed from the kernel's log
        expected_seat, final_next, end = starter, False, None
        for number, word in enumerate(trace.day_turns[day], start=1):
            check(end is None, f"day {day + 1}: a turn after the day ended ({end})")
            seat, revealed, backs = decode_turn(word)
            check(seat == expected_seat, f"day {day + 1} turn {number}: seat {seat + 1} played, "
                                         f"seat {expected_seat + 1} was due (R8)")
            before = list(table.market)
            for card in revealed:
                check(card in table.deck, f"day {day + 1} turn {number}: card {card} revealed but not in the deck")
                table.deck.remove(card)
                table.market.append(card)
            check(len(table.market) > 0, f"day {day + 1} turn {number}: nothing to take")
            check(len(revealed) <= 3 and bool(before or revealed), f"day {day + 1} turn {number}: R9 broken")
            taken_from = [1, *backs]
            check(all(b <= len(table.market) for b in taken_from),
                  f"day {day + 1} turn {number}: took a card that is not in the market (R10)")
            taken = [table.market[-b] for b in taken_from]  # boarding order: last, 2nd-, 3rd-from-last
            for k, card in enumerate(taken):
                check(green(card) or places_used(table.ships[seat]) + sum(not green(c) for c in taken[:k]) < capacity,
                      f"day {day + 1} turn {number}: card {card} does not fit (R10)")
            for b in sorted(taken_from, reverse=True):
                del table.market[len(table.market) - b]
            table.ships[seat].extend(taken)
            used = places_used(table.ships[seat])
            record["turns"].append({
                "turn": number, "seat": seat + 1, "final": final_next, "market_before": before,
                "revealed": revealed, "obligatory": not before and bool(revealed), "taken": taken,
                "taken_from": taken_from, "left": list(table.market), "ship_places": used,
                "ship_value": int(sum(value_of[c] for c in table.ships[seat])), "ship_full": used == capacity})
            # what comes next (R8, R11), as the kernel must have done it
            open_seats = [s for s in range(players) if places_used(table.ships[s]) < capacity]
            if final_next:
                end = "final turn"
            elif not open_seats:
                end = "all ships full"
            else:
                final_next = len(open_seats) == 1
                expected_seat = next((seat + k) % players for k in range(1, players + 1)
                                     if (seat + k) % players in open_seats)
        if end is None:
            check(not table.market and not table.deck, f"day {day + 1}: the day ended early without running out")
            end = "ran out"
        check((end == "ran out") == record["ran_out"], f"day {day + 1}: R12 ran-out flag disagrees")
        record["end"] = end
        check(np.array_equal(table.locations(n_cards), trace.day_card_location[day]),
              f"day {day + 1}: card locations after the turns disagree")
        record["ships"] = [{"seat": s + 1, "cards": list(table.ships[s]),
                            "value": int(sum(value_of[c] for c in table.ships[s]))} for s in range(players)]

        # ---- scoring (R13-R19)
        values = [ship["value"] for ship in record["ships"]]  # R13
        check(values == trace.day_ship_value[day].tolist(), f"day {day + 1}: ship values disagree (R13)")
        ships = rank_places(values, SHIP_PAYOUTS[players], SHARE_COIN, "R14-R15")
        check(ships["pay"] == reference.ship_payouts(values, players), f"day {day + 1}: ship payouts (reference)")
        check(ships["pay"] == trace.day_ship_pay[day].tolist(), f"day {day + 1}: ship payouts disagree (R14-R15)")
        unloaded = [[c for c in ship if good_of[c] != NO_GOOD] for ship in table.ships]  # R16
        out = [c for ship in table.ships for c in ship if good_of[c] == NO_GOOD]
        for s in range(players):
            table.warehouses[s].extend(unloaded[s])
        table.out.extend(out)
        table.ships = [[] for _ in range(players)]
        goods, majority, bonus = [], [0] * players, [0] * players
        for good in range(N_GOODS):
            icons = [int(sum(icons_of[c] for c in table.warehouses[s] if good_of[c] == good)) for s in range(players)]
            ranking = rank_places(icons, MAJORITY_PAYOUTS, SHARE_COIN, "R17", [n > 0 for n in icons])
            check(ranking["pay"] == reference.majority_payouts(icons, players),
                  f"day {day + 1}: {GOODS[good]} majority (reference)")
            rules = [("R19" if big_min is not None and n >= big_min else "R18" if n >= bonus_min else None)
                     for n in icons]
            paid = [BIG_BONUS if r == "R19" else BONUS if r == "R18" else 0 for r in rules]
            check(paid == reference.bonus_payouts(icons, players, variant), f"day {day + 1}: {GOODS[good]} bonus")
            for s in range(players):
                majority[s] += ranking["pay"][s]
                bonus[s] += paid[s]
            goods.append({"good": GOODS[good], "icons": icons, "ranking": ranking, "bonus": paid,
                          "bonus_rule": rules})
        kernel_icons = trace.day_warehouse_icons[day].tolist()
        check([[g["icons"][s] for g in goods] for s in range(players)] == kernel_icons,
              f"day {day + 1}: warehouse icons disagree (R16-R17)")
        check(majority == trace.day_majority_pay[day].tolist(), f"day {day + 1}: majority payouts disagree (R17)")
        check(bonus == trace.day_bonus_pay[day].tolist(), f"day {day + 1}: bonuses disagree (R18-R19)")
        totals = []
        for s in range(players):
            earned = ships["pay"][s] + majority[s] + bonus[s]
            florins[s] += earned
            totals.append({"seat": s + 1, "ship": ships["pay"][s], "majority": majority[s], "bonus": bonus[s],
                           "day": earned, "florins": florins[s]})
        record["scoring"] = {"ships": ships, "unloaded": unloaded, "out": out, "goods": goods, "totals": totals}
        # R20: the market goes back into the deck
        table.deck.update(table.market)
        table.market = []

        # ---- the next starting player (R21)
        record["next_starter"] = None
        if day < DAYS - 1:
            fewest = min(florins)
            tied = [s for s in range(players) if florins[s] == fewest]
            chosen = int(trace.day_starter[day + 1])
            check(chosen in tied, f"day {day + 2}: seat {chosen + 1} started without the fewest florins (R21)")
            starter_reason = {"seat": chosen + 1, "fewest": fewest, "tied": [s + 1 for s in tied],
                              "drawn": len(tied) > 1, "rule": "R21"}
            record["next_starter"] = starter_reason
        data["days"].append(record)

    # ---- the end (R22)
    check(florins == trace.florins.tolist(), "final florins disagree")
    best = max(florins)
    winners = [s for s in range(players) if florins[s] == best]
    win60 = [60 // len(winners) if s in winners else 0 for s in range(players)]
    check(win60 == trace.record()["winner_share60"].tolist(), "winners disagree (R22)")
    order = sorted(range(players), key=lambda s: (-florins[s], s))
    source = {key: [sum(d["scoring"]["totals"][s][key] for d in data["days"]) for s in range(players)]
              for key in ("ship", "majority", "bonus")}
    data["final"] = {
        "standings": [{"place": 1 + sum(f > florins[s] for f in florins), "seat": s + 1,
                       "strategy": data["seats"][s]["strategy"], "florins": florins[s],
                       **{key: source[key][s] for key in source}} for s in order],
        "winners": [s + 1 for s in winners], "shared": len(winners) > 1, "win60": win60, "florins": florins,
    }
    return data, render(data)


# ---------------------------------------------------------------- text

def render(data: dict) -> str:
    """The narration as text, from the data alone (the module doc lists its keys)."""
    cards = data["cards"]
    rules = data["rules"]
    strategy = {seat["seat"]: seat["strategy"] for seat in data["seats"]}

    def names(ids) -> str:
        return ", ".join(cards[c]["name"] for c in ids) if ids else "nothing"

    out = [f"{data['title']}: game {data['index']} of seed {data['seed']} (R25: the game the simulation plays)",
           f"{data['players']} players, {data['variant']} rules, {data['seating']} seating (R24), "
           f"deck {data['deck']} ({len(cards)} cards)",
           "Seats (R7: seat 1 starts day 1): " + ", ".join(f"{s['seat']} {s['strategy']}" for s in data["seats"]),
           f"Ships hold {rules['ship_capacity']} non-green cards (R6, R10). Ship places pay "
           f"{'/'.join(map(str, rules['ship_payouts']))} (R14); goods majorities "
           f"{'/'.join(map(str, rules['majority_payouts']))} (R17); shared places are pooled and rounded "
           f"down to a multiple of {rules['coin']} (R15); bonus {rules['bonus']} for "
           f"{rules['bonus_threshold']}+ icons of a good (R18)"
           + (f", {rules['big_bonus']} instead for {rules['big_bonus_threshold']}+ (R19, bonus20)"
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
        ships = narration.render_ranking(scoring["ships"], "value", rules["coin"], TIES)
        out += [f"      {line}" for line in ships]
        gone = (f"; {names(scoring['out'])} {'leave' if len(scoring['out']) > 1 else 'leaves'} the game"
                if scoring["out"] else "")
        out.append(f"    Unloading (R16): goods cards go to the warehouses{gone}.")
        out.append("    Goods majorities (R17: icons in the warehouse, today's included; ties R15):")
        for good in scoring["goods"]:
            icons = ", ".join(f"{s + 1}: {n}" for s, n in enumerate(good["icons"]))
            out.append(f"      {good['good']} (icons by seat {icons})")
            ranking = narration.render_ranking(good["ranking"], "icons", rules["coin"], TIES)
            out += [f"        {line}" for line in ranking]
        threshold = f"{rules['bonus_threshold']}+ icons of a good pay {rules['bonus']}, never shared"
        if rules["big_bonus_threshold"] is not None:
            threshold += f"; R19: {rules['big_bonus_threshold']}+ pay {rules['big_bonus']} instead"
        out.append(f"    Bonuses (R18: {threshold}):")
        earned = [[f"{good['good']} {good['icons'][s]} icons: {good['bonus'][s]} ({good['bonus_rule'][s]})"
                   for good in scoring["goods"] if good["bonus_rule"][s]] for s in range(data["players"])]
        out += narration.day_totals_lines(scoring["totals"], earned, "florins", "now")
        if day["next_starter"] is not None:
            out.append(narration.next_starter_line(day["next_starter"], day["day"], "fewest florins", "R21"))
    final = data["final"]
    out += ["", "Final standings (R22: after the third day's scoring, the most florins win):"]
    for row in final["standings"]:
        out.append(f"  {row['place']}. seat {row['seat']} {row['strategy']}: {row['florins']} florins "
                   f"(ships {row['ship']}, majorities {row['majority']}, bonuses {row['bonus']})")
    out.append(narration.winners_line(final, final["florins"], strategy, "R22"))
    return "\n".join(out) + "\n"
