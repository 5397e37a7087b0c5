"""Tournaments: many strategies at one player count, every lineup rotated through the seats.

With more strategies than seats, every combination of ``players`` distinct strategies is
a lineup; with fewer, the list is repeated to fill the seats. Each lineup plays with
rotated seating (R24) in its own block of game indices, so the whole tournament is a
function of the master seed alone (R25), and it can be extended batch by batch (for
``--precision``) with exactly the games a longer run would have played.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from ..core.accounting import RUN_GAMES
from ..core.driver import RunConfig, SeatStrategy, Totals, simulate
from ..core.identity import components_identity, strategies_identity
from ..core.pairing import PreparedPair, paired_metrics
from ..core.registry import Game, get_game

LINEUP_BLOCK = 1 << 36  # game indices reserved for one lineup of one configuration
CONFIG_BLOCK = 1 << 48  # ... and for one configuration (player count, rules)


def lineups(strategies: tuple[SeatStrategy, ...], players: int) -> list[tuple[SeatStrategy, ...]]:
    """The lineups a tournament plays: all combinations, or the list repeated to fill the seats."""
    if len(strategies) >= players:
        return list(itertools.combinations(strategies, players))
    return [tuple(strategies[i % len(strategies)] for i in range(players))]


@dataclass
class Tournament:
    """The running totals of one configuration: player count, rules and strategies."""

    components: object  # the game's component data (the card game's Component set), or None
    players: int
    strategies: tuple[SeatStrategy, ...]
    rules: str = "standard"
    seed: int = 0
    threads: int = 1
    config_index: int = 0  # which block of game indices this configuration owns
    game: str | None = None  # None: the strategies' game
    target: int = 0  # games per lineup asked for so far
    done: list[int] = field(init=False)  # games played per lineup
    labels: list[str] = field(init=False)
    strategy_stats: np.ndarray = field(init=False)  # (strategies, N_STATS)
    pairs: np.ndarray = field(init=False)  # (strategies, strategies): accounting's PAIR_ABOVE
    seat_stats: np.ndarray = field(init=False)  # (players, N_STATS)
    run: np.ndarray = field(init=False)
    elapsed: float = 0.0
    runner: object = None  # what plays the batches: threads here (None) or a Dask cluster
    compiling: object = None  # told while a kernel compiles (see driver.simulate)
    # balance: the tournament of the same lineups under other rules, played on the same games with
    # this one, game by game (``pairing.PreparedPair``): ``follower`` on the first, ``leader`` on it
    follower: Tournament | None = field(default=None, repr=False)
    leader: Tournament | None = field(default=None, repr=False)
    # with a leader, per strategy: the sum over games of the squared difference of its win credits,
    # this tournament's minus the leader's, over its slots in the lineup (WIN_UNITs squared); per
    # seat: the same of the seat's credits; per designer metric (``pairing.paired_metrics``): the
    # same of its per-game counter
    paired_sq: np.ndarray = field(init=False)
    paired_seat_sq: np.ndarray = field(init=False)
    paired_metric_sq: np.ndarray = field(init=False)

    def __post_init__(self):
        if self.game is None:
            self.game = self.strategies[0].game
        self.labels = list(dict.fromkeys(s.label for s in self.strategies))
        self.done = [0] * len(self.lineups)
        n = len(self.labels)
        empty = Totals.zeros(self.players, self.game_def)
        self.strategy_stats = np.zeros((n, empty.slot.shape[1]), np.int64)
        self.pairs = np.zeros((n, n), np.int64)
        self.seat_stats = empty.seat
        self.run = empty.run
        self.paired_sq = np.zeros(n, np.int64)
        self.paired_seat_sq = np.zeros(self.players, np.int64)
        self.paired_metric_sq = np.zeros(len(paired_metrics(self.game_def)), np.int64)

    def follow(self, leader: Tournament) -> None:
        """Play on the same games as ``leader`` (the same lineups under other rules), with it."""
        if (leader.players, leader.config_index, len(leader.lineups)) != (self.players, self.config_index,
                                                                           len(self.lineups)):
            raise ValueError("a tournament follows one of the same lineups and game indices")
        self.leader, leader.follower = leader, self

    @property
    def game_def(self) -> Game:
        return get_game(self.game)

    @property
    def lineups(self) -> list[tuple[SeatStrategy, ...]]:
        return lineups(self.strategies, self.players)

    @property
    def games(self) -> int:
        return int(self.run[RUN_GAMES])

    @property
    def complete(self) -> bool:
        return all(done == self.target for done in self.done)

    def per_lineup(self, games: int) -> int:
        """What asking for about ``games`` more games gives each lineup: an even share, rounded
        up to a whole number of rotations (every strategy of a lineup in every seat equally often)."""
        share = -(-games // len(self.lineups))
        return -(-share // self.players) * self.players

    def play(self, games: int, progress=None, stop=None, on_batch=None) -> None:
        """Ask for about ``games`` more games (``per_lineup`` of them for each lineup; a follower
        too) and play them (see ``catch_up``)."""
        for t in (self, self.follower):
            if t is not None:
                t.target += self.per_lineup(games)
        self.catch_up(progress, stop, on_batch)

    def catch_up(self, progress=None, stop=None, on_batch=None) -> None:
        """Play every lineup up to the target (with a follower, both tournaments' games, game by
        game under both rules); stop early when ``stop`` is set.

        ``on_batch()`` is called after every batch, when the totals are consistent (to
        checkpoint them); ``progress(n)`` as in ``simulate``.
        """
        follower = self.follower
        for k, lineup in enumerate(self.lineups):
            if self.done[k] >= self.target or (stop is not None and stop.is_set()):
                continue
            config = self._config(k, lineup)
            kernel = self._kernel(k, config)

            def add_batch(batch, k=k, lineup=lineup) -> None:
                if follower is None:
                    self._add(lineup, batch)
                else:
                    self._add(lineup, batch.a)
                    follower._add(follower.lineups[k], batch.b)
                    follower._add_paired(follower.lineups[k], batch)
                    follower.done[k] += batch.games
                self.done[k] += batch.games
                if on_batch is not None:
                    on_batch()

            first = self.config_index * CONFIG_BLOCK + k * LINEUP_BLOCK + self.done[k]
            both = progress if follower is None or progress is None else (lambda n: progress(2 * n))
            result = simulate(config, progress=both, first_game=first, stop=stop, on_batch=add_batch,
                              runner=self.runner, compiling=self.compiling, kernel=kernel)
            for t in (self, follower):
                if t is not None:
                    t.elapsed += result.elapsed / (1 if follower is None else 2)

    def _kernel(self, k: int, config: RunConfig):
        """What plays lineup ``k``'s games: its run's own kernel (None), or with a follower one that
        plays each game under both rules (``pairing.PreparedPair``)."""
        follower = self.follower
        return None if follower is None else PreparedPair(config, follower._config(k, follower.lineups[k]))

    def _config(self, k: int, lineup: tuple[SeatStrategy, ...]) -> RunConfig:
        """Lineup ``k``'s run: its games still to play, rotated, in a kernel of every strategy."""
        return RunConfig(components=self.components, players=self.players, strategies=lineup,
                         games=self.target - self.done[k],
                         seed=self.seed, rules=self.rules, seating="rotate", threads=self.threads, game=self.game,
                         kernel_strategies=tuple(dict.fromkeys(s.name for s in self.strategies)))

    def configuration(self) -> dict:
        """What a checkpoint of this tournament must match to be resumed."""
        return {"game": self.game, "players": self.players, "rules": self.rules, "seed": self.seed,
                "config_index": self.config_index, "components": components_identity(self.components),
                "strategies": strategies_identity(self.strategies)}

    def progress(self) -> dict:
        return {"target": self.target, "done": self.done, "elapsed": self.elapsed,
                "strategy_stats": self.strategy_stats.tolist(), "pairs": self.pairs.tolist(),
                "seat_stats": self.seat_stats.tolist(), "run": self.run.tolist(),
                "paired_sq": self.paired_sq.tolist(), "paired_seat_sq": self.paired_seat_sq.tolist(),
                "paired_metric_sq": self.paired_metric_sq.tolist()}

    def restore(self, progress: dict) -> None:
        self.target, self.done, self.elapsed = progress["target"], list(progress["done"]), progress["elapsed"]
        for name in ("strategy_stats", "pairs", "seat_stats", "run", "paired_sq", "paired_seat_sq",
                     "paired_metric_sq"):
            setattr(self, name, np.array(progress[name], np.int64))

    def _add(self, lineup: tuple[SeatStrategy, ...], totals: Totals) -> None:
        rows = [self.labels.index(s.label) for s in lineup]
        for slot, row in enumerate(rows):
            self.strategy_stats[row] += totals.slot[slot]
            for other, other_row in enumerate(rows):
                if other_row != row:
                    self.pairs[row, other_row] += totals.pairs[slot, other]
        self.seat_stats += totals.seat
        self.run += totals.run

    def _add_paired(self, lineup: tuple[SeatStrategy, ...], paired) -> None:
        """A batch's paired sums (``pairing.PairedTotals``): a strategy at several slots of the
        lineup differs per game by the sum of its slots' differences, whose square is the sum of
        their products."""
        rows = np.array([self.labels.index(s.label) for s in lineup])
        for row in set(rows.tolist()):
            mine = rows == row
            self.paired_sq[row] += paired.cross[np.ix_(mine, mine)].sum()
        self.paired_seat_sq += paired.seat_sq
        self.paired_metric_sq += paired.metric_sq
