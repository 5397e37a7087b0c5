"""The Python API: the command line's runs as functions that return pandas DataFrames.

The options, defaults, determinism and checks are the command line's (the same code serves
both); a bad option raises one of the command line's errors (``ConfigError``, ``DeckError``,
``PluginError``, ...: all ``ValueError``) instead of exiting. Results depend only on the
options and the seed (R25, C20): the thread count never changes them.

>>> import medici_sim
>>> run = medici_sim.simulate(games=20_000, players=4, strategies="expert,random,random,random")
>>> run.strategies[["strategy", "win_rate"]]          # doctest: +SKIP
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from .core import tuning
from .core.driver import RunConfig, ThreadRunner, Totals
from .core.driver import simulate as play_run
from .core.plugins import load_plugin
from .core.registry import GAMES, get_game
from .core.specs import default_threads, load_game_deck, parse_player_counts, parse_strategies, parse_strategy_list
from .core.stats import seat_frame, strategy_frame, summary
from .study import studies


@dataclass(frozen=True)
class RunReport:
    """The main command's answer: per seat, per strategy, and the run's summary."""

    seats: pd.DataFrame
    strategies: pd.DataFrame
    summary: dict
    totals: Totals  # the additive statistics the tables come from


@dataclass(frozen=True)
class CompareReport:
    """``compare``'s answer: win rates, Bradley-Terry ratings, head to head, and the summary
    (with several decks, each table has a first column ``deck``)."""

    strategies: pd.DataFrame
    ratings: pd.DataFrame
    head_to_head: pd.DataFrame
    summary: dict


@dataclass(frozen=True)
class BalanceReport:
    """``balance``'s answer: win rates under both rules, the seat advantage and florin
    sources per rules, the verdict in words, and the summary. With several decks the tables
    have a first column ``deck``, the verdict goes deck by deck and ends with the lines
    "Across N decks", and ``across_decks`` says on how many decks each finding holds."""

    strategies: pd.DataFrame
    rules: pd.DataFrame
    verdict: str
    summary: dict
    across_decks: pd.DataFrame | None = None  # several decks only
    parameters: pd.DataFrame | None = None  # tuned play only: each strategy's parameters under each rule


def _spec(strategies: str | Sequence[str] | None) -> str | None:
    """Strategies as the command line writes them: a comma list, or a list of names."""
    if strategies is None or isinstance(strategies, str):
        return strategies
    return ",".join(strategies)


def _load(plugins: Sequence[str]) -> None:
    for plugin in plugins:
        load_plugin(plugin)


def simulate(games: int = 100_000, *, game: str = "card", players: int = 4, strategies: str | Sequence[str] = "random",
             variant: str | None = None, seating: str = "fixed", seed: int = 0, threads: int | None = None,
             deck: str | None = None, plugins: Sequence[str] = ()) -> RunReport:
    """Play ``games`` games of one configuration (the main command, ``medici-sim --games N``).

    ``strategies``: one for every seat, or one per seat (``"expert,random,random,random"`` or a
    list), parameters as ``name:param=value``; ``seating``: fixed, rotate or random (R24);
    ``deck``: a shipped deck's name or a deck file (card game, R3-R5), None for the default; ``plugins``: files that
    register strategies.
    """
    _load(plugins)
    definition = get_game(game)
    config = RunConfig(deck=load_game_deck(definition, deck), players=players,
                       strategies=parse_strategies(_spec(strategies), players, definition.name), games=games,
                       seed=seed, variant=definition.variants[0] if variant is None else variant, seating=seating,
                       threads=default_threads(threads), game=definition.name)
    result = play_run(config)
    return RunReport(seat_frame(result), strategy_frame(result), summary(result), result.totals)


def _study(command: str, games: int, game: str, players: str | int | Sequence[int],
           strategies: str | Sequence[str] | None, variant: str | None, seed: int, threads: int | None,
           deck: str | Sequence[str] | None, precision: float | None, plugins: Sequence[str],
           tuned: str | None = None):
    _load(plugins)
    definition = get_game(game)
    counts = players if isinstance(players, str) else (str(players) if isinstance(players, int)
                                                       else ",".join(map(str, players)))
    study = studies.Study(
        game=definition, counts=tuple(parse_player_counts(counts, definition.name)),
        strategies=parse_strategy_list(_spec(strategies) or ",".join(definition.built_ins), definition.name),
        variant=variant, seed=seed, decks=studies.load_decks(definition, deck), games=games, precision=precision,
        threads=default_threads(threads), tuned=None if tuned is None else tuning.load_tuned(tuned, definition.name))
    study.check(command)
    tournaments = studies.plan(study, command)
    complete = studies.play(tournaments, study)
    return study, tournaments, complete


def compare(games: int = 100_000, *, game: str = "card", players: str | int | Sequence[int] = "all",
            strategies: str | Sequence[str] | None = None, variant: str | None = None, seed: int = 0,
            threads: int | None = None, deck: str | Sequence[str] | None = None, precision: float | None = None,
            plugins: Sequence[str] = (), tuned: str | None = None) -> CompareReport:
    """Which strategy is best, and by how much (``medici-sim compare``): every combination of
    the strategies at each player count, each lineup rotated through the seats (R24).

    ``players``: "all", a count, or counts; ``strategies``: default the game's built-ins;
    ``precision``: instead of a fixed number of games, play batches of ``games`` until every
    win rate's 95% interval half-width is below it; ``deck``: a shipped deck's name or a deck
    file (card game; None: the default deck), a list of them, or "all" (every shipped deck),
    each deck playing its own games; ``tuned``: a file written by ``tune`` or ``"shipped"``,
    every strategy with its parameters tuned for the rules and each player count.
    """
    study, tournaments, complete = _study("compare", games, game, players, strategies, variant, seed, threads,
                                          deck, precision, plugins, tuned)
    tables = studies.compare_answer(tournaments, study)
    return CompareReport(**tables, summary=studies.summary(tournaments, study, complete))


def balance(games: int = 100_000, *, game: str = "card", players: str | int | Sequence[int] = "all",
            strategies: str | Sequence[str] | None = None, seed: int = 0, threads: int | None = None,
            deck: str | Sequence[str] | None = None, precision: float | None = None,
            plugins: Sequence[str] = (), tuned: str | None = None) -> BalanceReport:
    """Does the card game's bonus20 variant (R19) change the balance (``medici-sim balance``)?
    The same tournaments under both rules, side by side, with a verdict in words. ``deck``
    as in ``compare``: with several decks, one table per deck (a ``deck`` column) and the
    count of decks on which each finding of the verdict holds. ``tuned``: a file written by
    ``tune``, or ``"shipped"``: every strategy plays each rule and player count with its
    own tuned parameters (the table ``parameters``)."""
    study, tournaments, complete = _study("balance", games, game, players, strategies, None, seed, threads, deck,
                                          precision, plugins, tuned)
    tables, text = studies.balance_answer(tournaments, study)
    return BalanceReport(**tables, verdict=text,
                         summary={**studies.summary(tournaments, study, complete), "verdict": text})


@dataclass(frozen=True)
class TuneReport:
    """``tune``'s answer: per task the default and tuned win rates on fresh games with the
    improvement (``tuned``; its ``best`` column is a ready ``strategies`` entry), every
    evaluation (``history``), each round (``rounds``), and the summary."""

    tuned: pd.DataFrame
    history: pd.DataFrame
    rounds: pd.DataFrame
    summary: dict


def tune(strategy: str, *, game: str = "card", players: str | int | Sequence[int] | None = None,
         variant: str | None = None, against: str | Sequence[str] = "self", evaluations: int = 200,
         games_per_eval: int = 8000, fresh_games: int = 100_000, popsize: int | None = None, seed: int = 0,
         threads: int | None = None, deck: str | None = None, plugins: Sequence[str] = ()) -> TuneReport:
    """Tune a strategy's parameters by self-play (``against="self"``) or against a lineup
    (``medici-sim tune``): CMA-ES over the ranges its parameters declare, every candidate of a
    round on the same games, the pick checked beside the defaults on fresh games. ``strategy``:
    a name, a comma list, or ``"all"``; ``variant``: None (standard), a rule, or ``"all"``."""
    _load(plugins)
    definition = get_game(game)
    counts = None if players is None else (players if isinstance(players, str) else (
        str(players) if isinstance(players, int) else ",".join(map(str, players))))
    tasks = tuning.plan_tasks(definition.name, strategy, counts, variant, _spec(against), evaluations,
                              games_per_eval, fresh_games, seed, popsize, studies.load_decks(definition, deck)[0])
    results = [tuning.TaskResult(task, []) for task in tasks]
    threads = default_threads(threads)
    began = time.perf_counter()
    with ThreadRunner(threads) as runner:
        tuning.tune_all(tasks, results, tuning.Evaluator(runner, threads))
    elapsed = time.perf_counter() - began
    evaluations_done = sum(len(r.rounds) * r.task.popsize for r in results)
    return TuneReport(tuning.result_table(results), tuning.history_table(results), tuning.round_table(results),
                      {"game": definition.name, "tasks": len(tasks), "evaluations": evaluations_done, "seed": seed,
                       "threads": threads, "elapsed_seconds": round(elapsed, 2),
                       "evaluations_per_minute": round(60 * evaluations_done / elapsed, 1) if elapsed else 0})


def strategies(game: str = "card") -> pd.DataFrame:
    """A game's strategies: name, one-line summary, parameters with defaults and ranges."""
    rows = []
    for name, strategy in get_game(game).registry.items():
        params = {k: {"default": p.default, "low": p.low, "high": p.high, "integer": p.integer, "help": p.help}
                  for k, p in strategy.params.items()}
        rows.append({"strategy": name, "summary": strategy.summary, "parameters": params})
    return pd.DataFrame(rows)


def list_games() -> list[str]:
    """The games medici-sim plays."""
    return sorted(GAMES)
