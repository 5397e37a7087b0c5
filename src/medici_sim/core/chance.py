"""Chance events as a game declares them (framework facts, core.contract.FrameworkFacts): what the
game-AI adapters (frameworks.stepper) make of the engine's random draws, in the game's own terms.

The adapters make every engine call first on a copy of the state. When the copy's generator moved,
the game's seat view says what that was: ``chance_event(before, after, event)`` (``before`` the
state, ``after`` the copy after the call, ``event`` where the game stood before it) answers a
chance event, or None for a draw no seat sees, which stays the engine's own (decided by the
history). A chance event is one or more outcomes in a row, each an id among the game's chance
outcomes (0 to ``chance_outcome_count(s) - 1``). It knows:

- ``count``: how many outcomes it takes, and ``natural``: the engine's own, in order;
- ``outcomes(s, chosen)``: the outcomes possible once ``chosen`` are, each equally likely;
- ``force(s, chosen)``: arrange ``s`` so that the engine's call makes exactly ``chosen``;
- ``check(s, chosen)``: after the call, raise RuntimeError unless it made them;
- ``seen_by``: -1 if every seat sees its outcomes, else the one seat that does (a card drawn into
  a hidden hand).

An outcome equal to the engine's own changes nothing, so a game whose chance events all take
their ``natural`` outcomes is the kernel's game. Two kinds serve most games; a game may write
its own with the same members.

- :class:`Draws`: items drawn one by one, uniformly and without replacement, from a pool the
  state holds as ``items[:n]``, each by the generator's ``below(n)``, the pool's last item
  filling the gap (docs/protocol.md). Items set aside unseen (never revealed in the game) may
  lie beside the pool: they are never decided, and an outcome among them changes place with a
  pool item not chosen first (nobody can tell them apart, so each outcome is uniform over all
  unseen items either way).
- :class:`Pick`: one of a few options drawn by one ``below(k)`` of the generator: the state's
  generator is set to one whose draw picks the chosen option.

Events are never changed once made (copies of a game in play share them), and hold only plain
data, so a game in play pickles.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rng import GameRandom

EVERY_SEAT = -1  # an event's seen_by: every seat sees its outcomes


@dataclass(frozen=True)
class Pool:
    """Where a game keeps the items it draws: ``items[:state[length[0]][length[1]]]``, and the
    items set aside unseen, ``aside[:state[aside_length[0]][aside_length[1]]]`` (none: ``aside``
    "")."""

    items: str
    length: tuple[str, int]
    aside: str = ""
    aside_length: tuple[str, int] = ("", 0)

    def size(self, s) -> int:
        return int(s[self.length[0]][self.length[1]])

    def aside_size(self, s) -> int:
        return int(s[self.aside_length[0]][self.aside_length[1]]) if self.aside else 0

    def unseen(self, s) -> np.ndarray:
        """The items nobody has seen: the pool and any set aside."""
        pool = s[self.items][:self.size(s)]
        return np.concatenate((pool, s[self.aside][:self.aside_size(s)])) if self.aside else pool

    def dealt(self, before, after) -> list[int]:
        """The items the call that made ``after`` of ``before`` revealed (left the unseen ones)."""
        return [int(c) for c in np.setdiff1d(self.unseen(before), self.unseen(after))]


def draw_places(s, count: int, n: int) -> list[int]:
    """The places of a pool of ``n`` the engine's next ``count`` draws take (``below(n)``, the last
    filling the gap), as places of the pool now, from the generator state of ``s``."""
    rng = GameRandom(0, 0)
    rng.state = int(s["rng"][0])
    places = list(range(n))
    taken = []
    for _ in range(count):
        j = rng.below(len(places))
        taken.append(places[j])
        places[j] = places[-1]
        places.pop()
    return taken


class Draws:
    """Items revealed from a :class:`Pool` (an outcome is the item's id)."""

    def __init__(self, pool: Pool, before, dealt: list[int], seen_by: int = EVERY_SEAT):
        self.pool, self.seen_by, self.count = pool, seen_by, len(dealt)
        self.unseen = frozenset(int(c) for c in pool.unseen(before))
        self.natural = [int(before[pool.items][j]) for j in draw_places(before, len(dealt), pool.size(before))]
        if sorted(self.natural) != sorted(dealt):
            raise RuntimeError("the engine's draws are not the pool's (docs/protocol.md)")

    @classmethod
    def made(cls, pool: Pool, before, after, seen_by: int = EVERY_SEAT) -> Draws | None:
        """The draws the call that made ``after`` of ``before`` made, or None if it revealed nothing."""
        dealt = pool.dealt(before, after)
        return cls(pool, before, dealt, seen_by) if dealt else None

    def outcomes(self, s, chosen: list[int]) -> list[int]:
        return sorted(self.unseen.difference(chosen))

    def force(self, s, chosen: list[int]) -> None:
        """Arrange the unseen items so that the engine's next draws reveal ``chosen`` in order."""
        pool = self.pool
        n = pool.size(s)
        items = s[pool.items]
        wanted = set(chosen)
        if pool.aside:  # an item set aside that is wanted changes place with a pool item not wanted
            aside = s[pool.aside]
            spare = [j for j in range(n) if int(items[j]) not in wanted]
            for i in range(pool.aside_size(s)):
                if int(aside[i]) in wanted:
                    j = spare.pop()
                    items[j], aside[i] = aside[i], items[j]
        rest = [int(c) for c in items[:n] if int(c) not in wanted]
        arranged = [-1] * n
        for place, item in zip(draw_places(s, len(chosen), n), chosen, strict=True):
            arranged[place] = item
        rest.reverse()
        items[:n] = [item if item >= 0 else rest.pop() for item in arranged]

    def check(self, s, chosen: list[int]) -> None:
        if self.unseen - set(self.pool.unseen(s).tolist()) != set(chosen):
            raise RuntimeError("the engine revealed other items than the chance outcomes")


class Pick:
    """One of ``options`` drawn by one ``below(len(options))`` of the generator (an outcome is
    ``offset`` + the option); after the call, ``state[chosen_at[0]][chosen_at[1]]`` holds the
    option drawn."""

    count = 1

    def __init__(self, options: list[int], natural: int, offset: int, chosen_at: tuple[str, int],
                 seen_by: int = EVERY_SEAT):
        self.options, self.offset, self.chosen_at, self.seen_by = tuple(options), offset, chosen_at, seen_by
        self.natural = [offset + natural]

    def outcomes(self, s, chosen: list[int]) -> list[int]:
        return [self.offset + option for option in self.options]

    def force(self, s, chosen: list[int]) -> None:
        """Set the generator to a state whose draw picks the chosen option (unless the engine's own draw does)."""
        if chosen[0] == self.natural[0]:
            return
        want = self.options.index(chosen[0] - self.offset)
        rng = GameRandom(0, 0)
        for state in range(1 << 20):
            rng.state = state
            if rng.below(len(self.options)) == want:
                s["rng"][0] = state
                return
        raise RuntimeError("no generator state draws that option")  # unreachable: 1 in len(options) states do

    def check(self, s, chosen: list[int]) -> None:
        field, index = self.chosen_at
        if self.offset + int(s[field][index]) != chosen[0]:
            raise RuntimeError("the engine drew another option than the chance outcome")
