"""What the Medici games' narrators (games/card/narrate.py, games/classic/narrate.py) and play
tables tell alike: ranking with tied places pooled and rounded down (card R14-R17, classic
C13-C15), a day's florins, who starts the next day (the poorest: R21, C6), the winners and
the final standings (R22, C18).

Plain Python; the rule citations come from the caller, so each game tells its own rules.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ...core.narration import ORDINAL_WORDS, number_text, ordinal, seats_text


def final_scoring(days: int) -> str:
    """When a game of ``days`` days ends, in words: "after the third day's scoring" (R22, C18: the
    rulebook's three; a rule set may play more or fewer)."""
    if days == 1:
        return "after the only day's scoring"
    return f"after the {ORDINAL_WORDS[days - 1] if days <= len(ORDINAL_WORDS) else ordinal(days)} day's scoring"


def rank_places(scores: Sequence[int], payouts: Sequence[int], coin: int, rule: str, takes_part=None) -> dict:
    """Rank ``scores`` (highest first) and share tied places: the groups of tied seats, the
    places each covers, the payouts pooled, and each one's share rounded down to a multiple
    of ``coin``. Seats with ``takes_part`` false take no place (card R17: no icon)."""
    n = len(scores)
    takes_part = takes_part if takes_part is not None else [True] * n
    ranked = sorted((s for s in range(n) if takes_part[s]), key=lambda s: -scores[s])
    groups, pay, place = [], [0] * n, 0
    while place < len(ranked):
        seats = [s for s in ranked if scores[s] == scores[ranked[place]]]
        paid = [payouts[r] if r < len(payouts) else 0 for r in range(place, place + len(seats))]
        exact = Fraction(sum(paid), len(seats))
        share = int(exact) if len(seats) == 1 else int(exact) // coin * coin  # a lone place is paid in full
        for s in seats:
            pay[s] = share
        groups.append({"seats": [s + 1 for s in seats], "score": scores[seats[0]],
                       "places": [place + 1, place + len(seats)], "payouts": paid, "pool": sum(paid),
                       "exact": float(exact), "share": share, "rounded": share < exact})
        place += len(seats)
    outside = [s + 1 for s in range(n) if not takes_part[s]]
    if outside:
        groups.append({"seats": outside, "score": 0, "places": None, "payouts": [], "pool": 0,
                       "exact": 0.0, "share": 0, "rounded": False})
    return {"rule": rule, "scores": list(scores), "groups": groups, "pay": pay}


def paying(ranking: dict, places: int) -> dict:
    """A ranking's groups that start on a paying place (the others get nothing)."""
    return {**ranking, "groups": [g for g in ranking["groups"] if g["places"] and g["places"][0] <= places]}


def render_ranking(ranking: dict, what: str, coin: int, ties: str | None = None) -> list[str]:
    """One line per group of a ranking: places, scores, pooled payouts and rounding to a
    multiple of ``coin``; a tie cites ``ties`` (default: the ranking's rule; no rule cited
    when both are empty, as at the table)."""
    unit = "a whole florin" if coin == 1 else f"a multiple of {coin}"
    cite, tie_cite = (f" ({rule})" if rule else "" for rule in (ranking["rule"], ties or ranking["rule"]))
    lines = []
    for group in ranking["groups"]:
        seats, score = group["seats"], group["score"]
        if group["places"] is None:
            lines.append(f"{seats_text(seats)}: no {what}, no place: 0{cite}")
            continue
        first, last = group["places"]
        where = ordinal(first) if first == last else f"{ordinal(first)}-{ordinal(last)}"
        if len(seats) == 1:
            lines.append(f"{where} {seats_text(seats)} ({what} {score}): {group['share']}")
            continue
        pool = " + ".join(map(str, group["payouts"]))
        text = (f"{where} {seats_text(seats)} tied ({what} {score}): places pay {pool} = {group['pool']}, "
                f"split {len(seats)} ways")
        if group["rounded"]:
            text += f" = {number_text(group['exact'])}, rounded down to {unit}: {group['share']} each"
        else:
            text += f": {group['share']} each"
        lines.append(text + tie_cite)
    return lines


def day_totals_lines(totals: Sequence[dict], earned: Sequence[Sequence[str]], money: str, now: str) -> list[str]:
    """A day's bonuses by seat (``earned``: per seat, its bonuses in words) and then each
    seat's payouts added up, with its money after the day (``totals[seat][money]``, told as
    ``now``)."""
    lines = [f"      seat {t['seat']}: " + ", ".join(words) for t, words in zip(totals, earned, strict=True) if words]
    lines = (lines or ["      none"]) + ["    The day's florins:"]
    for t in totals:
        lines.append(f"      seat {t['seat']}: ships {t['ship']} + majorities {t['majority']} + bonuses "
                     f"{t['bonus']} = {t['day']}; {now} {t[money]}")
    return lines


def next_starter_line(next_starter: dict, day: int, least: str, rule: str) -> str:
    """Who starts day ``day + 1`` and why (card R21, classic C6): ``least`` names what they
    have least of ("fewest florins", "least money")."""
    seat, amount = next_starter["seat"], next_starter["fewest"]
    if next_starter["drawn"]:
        return (f"  Next: {seats_text(next_starter['tied'])} share the {least} ({amount}); seat {seat} was drawn "
                f"at random to start day {day + 1} ({rule}).")
    return f"  Next: seat {seat} has the {least} ({amount}) and starts day {day + 1} ({rule})."


def winners_line(final: dict, money: Sequence[int], strategy: dict, rule: str) -> str:
    """The winners (card R22, classic C18): a shared win credits each 1/k."""
    best = max(money)
    if final["shared"]:
        return (f"Winners: {seats_text(final['winners'])} share the win with {best} florins each "
                f"({rule}: each credited 1/{len(final['winners'])} of a win).")
    seat = final["winners"][0]
    return f"Winner: seat {seat} ({strategy[seat]}) with {best} florins ({rule})."


def next_starter_reason(money: Sequence[int], starter: int, rule: str) -> dict:
    """Why ``starter`` (0-based, the engine's choice) starts the next day: the least money
    (card R21, classic C6), drawn at random among the seats tied for it."""
    fewest = min(money)
    tied = [p for p, m in enumerate(money) if m == fewest]
    return {"seat": starter + 1, "fewest": fewest, "tied": [p + 1 for p in tied], "drawn": len(tied) > 1,
            "rule": rule}


def final_standings(data: dict, money: Sequence[int], money_key: str, extra: dict | None = None) -> dict:
    """A told game's end: the standings, richest first (each seat's ``money_key``, its ship,
    majority and bonus florins summed over the days' totals, and ``extra``'s per-seat
    columns), the winners (the most money; a tie shares the win), each seat's win credit in
    60ths (``win60``, as the tables count it) and the money."""
    players = len(money)
    best = max(money)
    winners = [p for p in range(players) if money[p] == best]
    order = sorted(range(players), key=lambda p: (-money[p], p))
    source = {key: [sum(d["scoring"]["totals"][p][key] for d in data["days"]) for p in range(players)]
              for key in ("ship", "majority", "bonus")} | (extra or {})
    return {
        "standings": [{"place": 1 + sum(m > money[p] for m in money), "seat": p + 1,
                       "strategy": data["seats"][p]["strategy"], money_key: money[p],
                       **{key: values[p] for key, values in source.items()}} for p in order],
        "winners": [p + 1 for p in winners], "shared": len(winners) > 1,
        "win60": [60 // len(winners) if p in winners else 0 for p in range(players)], money_key: money,
    }
