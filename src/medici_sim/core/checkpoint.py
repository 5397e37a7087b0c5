"""Checkpoints: a run's configuration and additive statistics, saved after every batch.

A checkpoint is a JSON file written atomically (temporary file, then rename), so a crash
or a kill never leaves half of one. Resuming trusts nothing it reads: :func:`read` checks
a checkpoint completely before any game is played (size, encoding, JSON without NaN,
infinities or repeated keys, structure, types, ranges, and the consistency of the
statistics with each other and with the configuration), and refuses anything else with
one line starting ``--resume PATH:``. A hand-edited, truncated or corrupted checkpoint is
refused, never half-used.

- :func:`read` ``(path, command) -> Saved``: the validated configuration and progress.
- :func:`check_matches`: options given on the command line next to ``--resume`` must
  agree with the checkpoint (the run is otherwise rebuilt from the saved configuration).
- :func:`check_strategies`: the code of every strategy is the code the checkpoint was
  saved with (each slot records a fingerprint of its decision functions' source files).
- :func:`refuse_existing`: ``--checkpoint FILE`` never overwrites a saved run (unless
  asked to) nor a file that is not a checkpoint; :func:`refuse_replacing`: no other output
  (``--out``, ``--plot``) ever overwrites a saved run. One writer per file: ``output.lock``.

A checkpoint also records a checksum of its contents, checked after everything else: an
edit that keeps every rule below (another seed, a counter nudged, a changed parameter) is
refused too, and any broken rule is named rather than hidden behind the checksum.

What :func:`read` checks of the statistics is what an honest engine guarantees, exactly
(``core.accounting`` counts them; ``N`` is a row's games, ``G`` the games of the run):

- every entry is a JSON integer, 0 <= value < 2**63; shapes follow the game and players;
- games: every seat row counts ``G`` games, ``G`` <= the configuration's games, and a
  strategy row counts the games its slots sat in (a tournament: from its lineups);
  a row (and the run counters) of no games is all zeros;
- wins: a k-way shared win credits 60 // k (k = 2..players), so per row
  outright + shared <= N, and with W = win60 - 60 outright, Q = win60_sq - 3600 outright,
  s the smallest share: s shared <= W <= 30 shared, W**2 <= Q shared (Cauchy),
  Q <= (30 + s) W - 30 s shared (every share between s and 30), W, Q divisible by the gcd
  of the possible shares and of their squares, and up to 4 players (at most 3 shares) the
  exact numbers of 2-, 3- and 4-way wins they imply are whole and >= 0; over all rows,
  win60 adds up to 60 G,
  outright wins to at most G and shared wins to between 2 and ``players`` per game that
  no one won outright;
- scores (non-negative per game): score**2 <= score_sq N, score <= score_sq <= score**2;
- the columns of the seat rows add up to those of the slot (strategy) rows, and with
  fixed seating seat i is slot i;
- pairs: diagonal 0, pairs[a][b] + pairs[b][a] == 2 x the games a and b played together;
- pair_diff_sq (a run's sums of squared differences of two slots' win credits): diagonal 0,
  symmetric, and with W, Q the slots' win60 and win60_sq: (W_a - W_b)**2 <= pair_diff_sq G
  (Cauchy), pair_diff_sq <= Q_a + Q_b and of its parity (their difference is twice a sum of
  products of credits, never negative);
- run: outright games <= win margin <= the scores' total (no margin without an outright win);
- a tournament's target is a whole number of rounds, its lineups are played in order
  (``core.tournament``): done[k] is non-increasing, within one round of the target;
- balance's bonus20 tournament follows its standard one (the same games under both rules):
  the same target and done, and paired sums (paired_sq per strategy, paired_seat_sq per
  seat) no smaller than Cauchy allows, (W_bonus20 - W_standard)**2 <= paired_sq G; every
  other tournament's paired sums are 0;
- the few identities a game adds (``Game.totals_rules``, in the game's ``game.py``): the card
  game's florins are exactly its ships + majorities + bonuses (R13-R19), paid in 5s;
  the classic game's money is its starting money - spent + those sources (C4, C13-C16).
"""
from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import re
import stat
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from pathlib import Path

from .. import __version__
from .accounting import (
    N_COMMON_RUN_STATS,
    N_COMMON_STATS,
    RUN_GAMES,
    RUN_WIN_MARGIN,
    STAT_GAMES,
    STAT_OUTRIGHT,
    STAT_SCORE,
    STAT_SCORE_SQ,
    STAT_SHARED,
    STAT_WIN60,
    STAT_WIN60_SQ,
    WIN_UNIT,
    InconsistentTotals,
)
from .dispatch import strategies_fingerprint
from .driver import MAX_GAMES, ConfigError, RunConfig, SeatStrategy, format_number, seat_strategy
from .output import atomic_write
from .registry import GAMES, Game
from .seating import SEATING_MODES

FORMAT = 4  # bump when the layout changes: older checkpoints are refused
MAX_CHECKPOINT_BYTES = 64 << 20  # far above any real checkpoint (a few kB); bigger files are not read
MAX_INT = 2**63 - 1  # the statistics are int64 sums
MAX_DECK_CARDS = 10**6  # far above any deck a game accepts (the game's own parser has the real limit)
MAX_ORIGIN = 4096  # characters of a strategy's recorded origin (a plug-in file's path)
COMMANDS = ("run", "compare", "balance", "tune")
RUN_KEYS = ("game", "players", "games", "seed", "variant", "seating", "strategies", "deck")
STUDY_KEYS = ("games", "precision", "tournaments")
TOURNAMENT_KEYS = ("game", "players", "variant", "seed", "config_index", "deck", "strategies")
TOURNAMENT_PROGRESS_KEYS = ("target", "done", "elapsed", "strategy_stats", "pairs", "seat_stats", "run", "paired_sq",
                            "paired_seat_sq")
TOTALS_KEYS = ("seat", "slot", "pairs", "pair_diff_sq", "run")
DOCUMENT_KEYS = ("format", "version", "command", "configuration", "progress")  # and "checksum", of these
# option names given next to --resume, as check_matches may be told them (click parameter names too)
OPTIONS = {"game": "--game", "players": "--players", "games": "--games", "seed": "--seed", "variant": "--variant",
           "seating": "--seating", "strategies": "--strategies", "deck": "--deck", "precision": "--precision"}
_PARAMETERS = {"game_name": "game", "players_spec": "players", "strategies_spec": "strategies", "deck_path": "deck"}
_FINGERPRINT = re.compile(r"[0-9a-f]{16}")
_CHECKPOINT_START = re.compile(rb'\s*\{\s*"format"\s*:\s*-?\d+\s*,\s*"version"\s*:')


class CheckpointError(ValueError):
    """A checkpoint that cannot be used for this run; the message says why, in one line."""


class _Invalid(Exception):
    """What is wrong with a checkpoint (read() puts ``--resume PATH:`` in front)."""


@dataclass(frozen=True)
class Saved:
    """A checkpoint that passed every check of :func:`read`."""

    command: str  # "run", "compare", "balance" or "tune"
    configuration: dict  # as the command saved it (``cli.run.run_configuration``, ``cli.study._play``)
    progress: dict  # {"totals": Totals.to_dict()} or {"tournaments": [Tournament.progress(), ...]}


# ---------------------------------------------------------------- identities (saved with the configuration)

def strategies_identity(strategies) -> list:
    """Each strategy slot as [name, parameters, fingerprint, origin]: the fingerprint hashes
    the source files of the strategy's decision functions (None if they cannot be read), the
    origin is "built-in" or where the strategy came from (a plug-in file)."""
    out = []
    for s in strategies:
        registry = GAMES[s.game].registry
        out.append([s.name, dict(s.params), _fingerprint(registry[s.name]), registry.origin.get(s.name, "built-in")])
    return out


def deck_identity(deck) -> dict | None:
    """The deck's contents (not its file name: a moved deck file still resumes); None for no deck."""
    if deck is None:
        return None
    return {"cards": deck.n_cards, "fingerprint": deck.fingerprint(), "contents": deck.to_csv()}


def _fingerprint(strategy) -> str | None:
    try:
        return strategies_fingerprint(strategy)
    except (OSError, TypeError):  # no source file (defined interactively) or no longer readable
        return None


# ---------------------------------------------------------------- writing

def save(path: str | Path, command: str, configuration: dict, progress: dict) -> None:
    document = {"format": FORMAT, "version": __version__, "command": command,
                "configuration": configuration, "progress": progress}
    document["checksum"] = _checksum(document)
    text = json.dumps(document, allow_nan=False)
    if len(text) > MAX_CHECKPOINT_BYTES:
        raise CheckpointError(f"--checkpoint {_text(path)}: the checkpoint would take {len(text)} bytes, "
                              f"more than the {MAX_CHECKPOINT_BYTES} a checkpoint may")
    atomic_write(Path(path), lambda tmp: Path(tmp).write_text(text))


def refuse_existing(path: str | Path, resume_path: str | Path | None = None, overwrite: bool = False) -> None:
    """Refuse to start a run whose ``--checkpoint`` would overwrite something.

    A missing or empty file, or the file being resumed, is fine. A saved run is refused
    unless ``overwrite`` (``--overwrite-checkpoint``); a file that is not a medici-sim
    checkpoint, and anything that is not a regular file (directory, FIFO, device), always.
    Nothing but a regular file is ever opened (a FIFO would block).
    """
    shown = _text(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise CheckpointError(f"--checkpoint {shown}: cannot use it ({getattr(exc, 'strerror', None) or exc})") \
            from None
    if not stat.S_ISREG(info.st_mode):
        raise CheckpointError(f"--checkpoint {shown} is {_kind(info.st_mode)}, not a regular file; refusing to use it")
    if resume_path is not None:
        try:
            resumed = os.stat(resume_path)
        except (OSError, ValueError):
            resumed = None
        if resumed is not None and (resumed.st_dev, resumed.st_ino) == (info.st_dev, info.st_ino):
            return  # the run being continued goes on saving to its own file
    if info.st_size == 0:
        return
    head = _read_head(path, "--checkpoint", shown)
    if not _CHECKPOINT_START.match(head):
        raise CheckpointError(f"--checkpoint {shown} exists and is not a medici-sim checkpoint; "
                              "refusing to overwrite it")
    if not overwrite:
        raise CheckpointError(f"--checkpoint {shown} already holds a run: continue it with --resume {shown}, "
                              "or start over with --overwrite-checkpoint")


def refuse_replacing(option: str, path: str | Path) -> None:
    """Refuse an output other than a run's checkpoint (``--out``, ``--plot``) that would
    replace a saved run: only the run a checkpoint holds writes over it (or
    ``--checkpoint FILE --overwrite-checkpoint``, see :func:`refuse_existing`)."""
    shown = _text(path)
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return  # nothing there (what else is wrong with the path, output.check_writable says)
    if stat.S_ISREG(info.st_mode) and info.st_size and _CHECKPOINT_START.match(_read_head(path, option, shown)):
        raise CheckpointError(f"{option} {shown} holds a saved medici-sim run (a checkpoint); refusing to overwrite "
                              f"it: continue that run with --resume {shown}, or delete the file first")


def _read_head(path, option: str, shown: str, size: int = 4096) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise CheckpointError(f"{option} {shown}: cannot read it ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced since the stat
            raise CheckpointError(f"{option} {shown} is not a regular file; refusing to use it")
        return os.read(fd, size)
    except OSError as exc:
        raise CheckpointError(f"{option} {shown}: cannot read it ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


# ---------------------------------------------------------------- reading

def read(path: str | Path, command: str) -> Saved:
    """The checkpoint at ``path``, saved by ``command``, checked completely (module doc).

    Anything wrong: CheckpointError ``--resume PATH: what is wrong`` (one line)."""
    if command not in COMMANDS:
        raise ValueError(f"unknown command {command!r}")
    try:
        try:
            document = _parse(_read_bytes(path))
            return _validate(document, command)
        except RecursionError:  # a value nested almost as deep as the parser allows, compared or shown
            raise _Invalid("not a medici-sim checkpoint (JSON nested too deeply)") from None
    except _Invalid as exc:
        raise CheckpointError(_one_line(f"--resume {_text(path)}: {exc}")) from None


def load(path: str | Path, command: str, configuration: dict) -> dict:
    """The progress saved in ``path`` (checked by :func:`read`), if it was saved by this
    command with exactly this configuration (the behaviour of format 1: every key compared)."""
    saved = read(path, command)
    for key in sorted(set(saved.configuration) | set(configuration)):
        if saved.configuration.get(key) != configuration.get(key):
            raise CheckpointError(_one_line(
                f"--resume {_text(path)}: the {key} differs (checkpoint: {_show(saved.configuration.get(key))}; "
                f"now: {_show(configuration.get(key))})"))
    return saved.progress


def check_matches(path: str | Path, saved_configuration: dict, current_configuration: dict, given) -> None:
    """Refuse an option given next to ``--resume`` that disagrees with the checkpoint.

    ``given``: the options given on the command line, as configuration keys (``seed``),
    option names (``--seed``) or click parameter names (``deck_path``). A key that differs
    but was not given is not an error: the run continues with the saved value.
    """
    keys = set()
    for name in given:
        name = str(name).lstrip("-").replace("-", "_")
        keys.add(_PARAMETERS.get(name, name))
    saved, current = _options_of(saved_configuration), _options_of(current_configuration)
    for key, option in OPTIONS.items():
        if key in keys and key in saved and key in current and saved[key] != current[key]:
            if key == "deck":
                message = (f"--deck ({_render(key, current[key])}) disagrees with the checkpoint's deck "
                           f"({_render(key, saved[key])})")
            else:
                message = (f"{option} {_render(key, current[key])} disagrees with the checkpoint "
                           f"({key} {_render(key, saved[key])})")
            raise CheckpointError(_one_line(f"--resume {_text(path)}: {message}"))


def check_strategies(path: str | Path, saved_identity: list, current_strategies) -> None:
    """Refuse strategies whose code changed since ``saved_identity`` (``strategies_identity``,
    as read from checkpoint ``path``) was saved: slot by slot, the strategy of the same name
    must have the fingerprint the checkpoint recorded."""
    for saved, slot in zip(saved_identity, current_strategies, strict=False):
        registry = GAMES[slot.game].registry
        if slot.name in registry and saved[0] == slot.name and saved[2] != _fingerprint(registry[slot.name]):
            raise CheckpointError(_one_line(f"--resume {_text(path)}: the code of strategy {slot.name} changed "
                                            "since the checkpoint was saved"))


def saved_deck(identity: dict | None, game: Game):
    """The deck a validated configuration's ``deck`` entry holds (None for none)."""
    return None if identity is None else game.deck_from_text(identity["contents"])


def saved_strategies(identity: list, game: str) -> tuple[SeatStrategy, ...]:
    """The strategy slots a validated configuration's ``strategies`` entry holds."""
    return tuple(seat_strategy(name, game, **params) for name, params, *_ in identity)


def _read_bytes(path) -> bytes:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise _Invalid("no such file") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise _Invalid(f"cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise _Invalid(f"{_kind(info.st_mode)}, not a checkpoint file")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # never blocks, even if now a FIFO
    except OSError as exc:
        raise _Invalid(f"cannot read it ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Invalid(f"{_kind(info.st_mode)}, not a checkpoint file")
        if info.st_size > MAX_CHECKPOINT_BYTES:
            raise _Invalid(f"{info.st_size} bytes, more than any checkpoint ({MAX_CHECKPOINT_BYTES} at most)")
        chunks, size = [], 0
        while size <= MAX_CHECKPOINT_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_CHECKPOINT_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_CHECKPOINT_BYTES:  # grew while we read
            raise _Invalid(f"more than {MAX_CHECKPOINT_BYTES} bytes, more than any checkpoint")
        return b"".join(chunks)
    except OSError as exc:
        raise _Invalid(f"cannot read it ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def _parse(data: bytes):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _Invalid("not a medici-sim checkpoint (not UTF-8 text)") from None
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float, object_pairs_hook=_no_twice)
    except _Invalid:
        raise
    except RecursionError:
        raise _Invalid("not a medici-sim checkpoint (JSON nested too deeply)") from None
    except json.JSONDecodeError as exc:
        raise _Invalid(f"not a medici-sim checkpoint (not JSON: {exc.msg} at byte {exc.pos})") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise _Invalid(f"not a medici-sim checkpoint (not JSON: {exc})") from None


def _no_constant(name: str):
    raise _Invalid(f"{name} in the checkpoint: a checkpoint holds finite numbers only")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Invalid(f"{_show(text)} in the checkpoint: a checkpoint holds finite numbers only")
    return value


def _no_twice(pairs: list) -> dict:
    out = {}
    for key, value in pairs:
        if key in out:
            raise _Invalid(f"the key {_show(key)} appears twice in one object")
        out[key] = value
    return out


def _validate(document, command: str) -> Saved:
    if not isinstance(document, dict) or "format" not in document:
        raise _Invalid("not a medici-sim checkpoint")
    if type(document["format"]) is not int or document["format"] != FORMAT:
        raise _Invalid(f"statistics format {_show(document['format'])}, this version of medici-sim ({__version__}) "
                       f"uses format {FORMAT}")
    if document.get("command") != command:
        saved = document.get("command")
        raise _Invalid(f"saved by `{saved if saved in COMMANDS else _show(saved)}`, not `{command}`")
    _keys(document, "the checkpoint", (*DOCUMENT_KEYS, "checksum"))
    if type(document["version"]) is not str or len(document["version"]) > 100:
        raise _Invalid(f"version is {_show(document['version'])}, not a version string")
    configuration, progress = document["configuration"], document["progress"]
    if command == "run":
        _check_run(configuration, progress)
    elif command == "tune":
        _check_tune(configuration, progress)
    else:
        _check_study(configuration, progress, command)
    if document["checksum"] != _checksum(document):  # last: a broken rule is named first
        raise _Invalid("its checksum does not match its contents: the file was edited or corrupted")
    return Saved(command, configuration, progress)


def _checksum(document: dict) -> str:
    """A hash of the document's contents (not of its layout: key order and spacing do not count)."""
    text = json.dumps({key: document[key] for key in DOCUMENT_KEYS}, sort_keys=True, separators=(",", ":"),
                      allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------- the main command

def _check_run(configuration, progress) -> None:
    _keys(configuration, "configuration", RUN_KEYS)
    game = _game(configuration["game"], "configuration.game")
    players = _players(configuration["players"], "configuration.players", game)
    games = _int(configuration["games"], "configuration.games", 1, MAX_GAMES)
    seed = _int(configuration["seed"], "configuration.seed", 0, MAX_INT)
    variant = _choice(configuration["variant"], "configuration.variant", game.variants, f"the {game.name} game's rules")
    seating = _choice(configuration["seating"], "configuration.seating", SEATING_MODES, "seatings")
    strategies = _strategies(configuration["strategies"], "configuration.strategies", game, players)
    deck = _deck(configuration["deck"], "configuration.deck", game)
    _run_config(deck, players, strategies, games, seed, variant, seating, game)

    _keys(progress, "progress", ("totals",))
    totals = progress["totals"]
    _keys(totals, "totals", TOTALS_KEYS)
    width, run_width = N_COMMON_STATS + len(game.stat_columns), N_COMMON_RUN_STATS + len(game.run_columns)
    shape = f"the {players}-player {game.name} game"
    seat = _matrix(totals["seat"], "totals.seat", players, width, shape)
    slot = _matrix(totals["slot"], "totals.slot", players, width, shape)
    pairs = _matrix(totals["pairs"], "totals.pairs", players, players, shape)
    diff_sq = _matrix(totals["pair_diff_sq"], "totals.pair_diff_sq", players, players, shape)
    run = _vector(totals["run"], "totals.run", run_width, shape)
    done = run[RUN_GAMES]
    if done > games:
        raise _Invalid(f"totals.run[{RUN_GAMES}] is {done}, but the run has {games} games")
    rules = _Rules(game, players, variant)
    rules.table(seat, "totals.seat", [done] * players, done)
    rules.table(slot, "totals.slot", [done] * players, done)
    _same_sums(seat, "totals.seat", slot, "totals.slot")
    if seating == "fixed":
        for i, (a, b) in enumerate(zip(seat, slot, strict=True)):
            if a != b:
                j = next(j for j in range(width) if a[j] != b[j])
                raise _Invalid(f"totals.slot[{i}][{j}] is {b[j]}, but with fixed seating slot {i + 1} is seat {i + 1} "
                               f"(totals.seat[{i}][{j}] is {a[j]})")
    _pairs(pairs, "totals.pairs", lambda a, b: done)
    _paired(diff_sq, "totals.pair_diff_sq", slot, done)
    rules.run(run, "totals.run", done, seat)


def _run_config(deck, players, strategies, games, seed, variant, seating, game: Game) -> None:
    """The engine's own checks of a run (RunConfig), on what the checkpoint holds."""
    try:
        RunConfig(deck=deck, players=players, strategies=strategies, games=games, seed=seed, variant=variant,
                  seating=seating, threads=1, game=game.name)
    except ConfigError as exc:
        raise _Invalid(f"configuration: {exc}") from None


# ---------------------------------------------------------------- tune

TUNE_TASK_KEYS = ("game", "strategy", "players", "variant", "against", "evaluations", "games_per_eval",
                  "fresh_games", "seed", "popsize", "deck", "identity")
TUNE_PROGRESS_KEYS = ("rounds", "tuned", "fresh")
ROUND_KEYS = ("candidates", "win60", "incumbent")
MAX_TUNE_TASKS = 10_000


def _check_tune(configuration, progress) -> None:
    """Tasks as ``tuning.TuneTask`` builds them; rounds as the optimiser asked them (each
    candidate a valid set of parameters, each win credit possible for its games); a task's
    fresh check only once its rounds are complete; tasks done in order. Whether the rounds
    are what the optimiser proposes for the seed is checked when they are replayed."""
    from .tuning import task_from_configuration

    _keys(configuration, "configuration", ("tasks",))
    saved = configuration["tasks"]
    if type(saved) is not list or not 0 < len(saved) <= MAX_TUNE_TASKS:
        raise _Invalid(f"configuration.tasks is {_show(saved)}, not a list of tuning tasks")
    tasks = []
    for i, entry in enumerate(saved):
        where = f"configuration.tasks[{i}]"
        _keys(entry, where, TUNE_TASK_KEYS)
        game = _game(entry["game"], f"{where}.game")
        players = _players(entry["players"], f"{where}.players", game)
        _strategies(entry["identity"], f"{where}.identity", game, 1)
        if entry["against"] is not None:
            _strategies(entry["against"], f"{where}.against", game, players - 1)
        _deck(entry["deck"], f"{where}.deck", game)
        for key, high in (("evaluations", MAX_INT), ("games_per_eval", MAX_INT), ("fresh_games", MAX_INT),
                          ("seed", MAX_INT), ("popsize", 1000)):
            _int(entry[key], f"{where}.{key}", 2 if key == "popsize" else 0 if key == "seed" else 1, high)
        try:
            task = task_from_configuration(entry)
        except (ConfigError, ValueError) as exc:
            raise _Invalid(f"{where}: {exc}") from None
        if any((t.strategy, t.players, t.variant) == (task.strategy, task.players, task.variant) for t in tasks):
            raise _Invalid(f"{where} tunes {task.label} a second time")
        tasks.append(task)
    _keys(progress, "progress", ("tasks",))
    done = progress["tasks"]
    if type(done) is not list or len(done) != len(tasks):
        raise _Invalid(f"progress.tasks is {_show(done)}, not one entry per task ({len(tasks)})")
    unfinished = None
    for i, (task, entry) in enumerate(zip(tasks, done, strict=True)):
        where = f"progress.tasks[{i}]"
        _keys(entry, where, TUNE_PROGRESS_KEYS)
        rounds = entry["rounds"]
        if type(rounds) is not list or len(rounds) > task.rounds:
            raise _Invalid(f"{where}.rounds is {_show(rounds)}, not a list of at most {task.rounds} rounds")
        if rounds and unfinished is not None:
            raise _Invalid(f"{where} has rounds, but task {unfinished + 1} before it is not finished")
        for r, saved_round in enumerate(rounds):
            _tune_round(saved_round, f"{where}.rounds[{r}]", task)
        tuned, fresh = entry["tuned"], entry["fresh"]
        if (tuned is not None or fresh is not None) and len(rounds) < task.rounds:
            raise _Invalid(f"{where} has a result, but only {len(rounds)} of its {task.rounds} rounds")
        if tuned is not None:
            _tune_values(tuned, f"{where}.tuned", task)
        if fresh is not None:
            if tuned is None:
                raise _Invalid(f"{where}.fresh is given without {where}.tuned")
            _keys(fresh, f"{where}.fresh", ("tuned", "default", "difference_sq"))
            for key in ("tuned", "default"):
                _win_moments(fresh[key], f"{where}.fresh.{key}", task.fresh_games)
            _difference_moments(fresh, f"{where}.fresh", task.fresh_games)
        if fresh is None and unfinished is None:
            unfinished = i


def _tune_round(saved, where: str, task) -> None:
    _keys(saved, where, ROUND_KEYS)
    candidates, win60 = saved["candidates"], saved["win60"]
    if type(candidates) is not list or len(candidates) != task.popsize:
        raise _Invalid(f"{where}.candidates is {_show(candidates)}, not {task.popsize} candidates")
    for j, candidate in enumerate(candidates):
        _tune_values(candidate, f"{where}.candidates[{j}]", task)
    _tune_values(saved["incumbent"], f"{where}.incumbent", task)
    if type(win60) is not list or len(win60) != task.popsize:
        raise _Invalid(f"{where}.win60 is {_show(win60)}, not {task.popsize} win credits")
    # every game's credit is 60 (an outright win), a k-way share or 0: a multiple of their gcd
    unit = math.gcd(WIN_UNIT, _Rules(GAMES[task.game], task.players, task.variant).share_gcd)
    for j, credit in enumerate(win60):
        _int(credit, f"{where}.win60[{j}]", 0, WIN_UNIT * task.games_per_eval)
        if credit % unit:
            raise _Invalid(f"{where}.win60[{j}] is {credit}, not a sum of {task.players}-player win credits "
                           f"(multiples of {unit})")


def _tune_values(values, where: str, task) -> None:
    names = task.box.names
    if type(values) is not list or len(values) != len(names) or any(type(v) is not float for v in values):
        raise _Invalid(f"{where} is {_show(values)}, not {len(names)} parameter values of {task.strategy}")
    try:
        task.slot(values)
    except ConfigError as exc:
        raise _Invalid(f"{where}: {exc}") from None


def _win_moments(value, where: str, games: int) -> None:
    """[games, win60, win60_sq] of one slot over ``games`` games: shares of 60 // k each."""
    if type(value) is not list or len(value) != 3:
        raise _Invalid(f"{where} is {_show(value)}, not [games, win credit, its squares]")
    n = _int(value[0], f"{where}[0]", games, games)
    w = _int(value[1], f"{where}[1]", 0, WIN_UNIT * n)
    q = _int(value[2], f"{where}[2]", 0, WIN_UNIT * WIN_UNIT * n)
    if w * w > q * n or q > WIN_UNIT * w:
        raise _Invalid(f"{where}: win credits {w} with squares {q} are impossible in {n} games")


def _difference_moments(fresh: dict, where: str, games: int) -> None:
    """The squared per-game differences of two slots' win credits over the same ``games``
    games: at most the sum of both slots' squares (credits are never negative), at least
    what the difference of their sums implies (Cauchy-Schwarz)."""
    square = _int(fresh["difference_sq"], f"{where}.difference_sq", 0, WIN_UNIT * WIN_UNIT * games)
    difference = fresh["tuned"][1] - fresh["default"][1]
    if difference * difference > square * games or square > fresh["tuned"][2] + fresh["default"][2]:
        raise _Invalid(f"{where}.difference_sq is {square}, impossible beside the two win credits "
                       f"{fresh['tuned'][1]} and {fresh['default'][1]} over {games} games")


# ---------------------------------------------------------------- compare and balance

def _check_study(configuration, progress, command: str) -> None:
    tuned = type(configuration) is dict and "tuned" in configuration
    _keys(configuration, "configuration", (*STUDY_KEYS, "tuned") if tuned else STUDY_KEYS)
    if tuned and (type(configuration["tuned"]) is not str or not 0 < len(configuration["tuned"]) <= MAX_ORIGIN):
        raise _Invalid(f"configuration.tuned is {_show(configuration['tuned'])}, not where the tuned parameters "
                       "came from")
    games = _int(configuration["games"], "configuration.games", 1, MAX_GAMES)
    precision = configuration["precision"]
    if precision is not None and (type(precision) not in (int, float) or not 0 < precision < 0.5):
        raise _Invalid(f"configuration.precision is {_show(precision)}, not a half-width between 0 and 0.5")
    saved = configuration["tournaments"]
    if type(saved) is not list or not saved:
        raise _Invalid(f"configuration.tournaments is {_show(saved)}, not a list of tournaments")
    tournaments = []
    for i, t in enumerate(saved):
        where = f"configuration.tournaments[{i}]"
        _keys(t, where, TOURNAMENT_KEYS)
        for key in ("game", "seed", "strategies"):  # one run plays one of each (decks: see _study_shape)
            mine, first = t.get(key), saved[0].get(key)
            if key == "strategies" and tuned and type(mine) is list and type(first) is list:
                # tuned play: each configuration its own parameters, the same strategies
                mine = [e[0] if type(e) is list and e else e for e in mine]
                first = [e[0] if type(e) is list and e else e for e in first]
            if i and mine != first:
                raise _Invalid(f"{where}.{key} is {_show(t[key])}, but tournaments[0] has {_show(saved[0][key])}")
        tournaments.append(_tournament(t, where))
    _study_shape(tournaments, command)

    _keys(progress, "progress", ("tournaments",))
    saved_progress = progress["tournaments"]
    if type(saved_progress) is not list:
        raise _Invalid(f"tournaments is {_show(saved_progress)}, not a list")
    if len(saved_progress) != len(tournaments):
        raise _Invalid(f"tournaments has {len(saved_progress)} entries, but the configuration has "
                       f"{len(tournaments)} tournaments")
    for i, (t, p) in enumerate(zip(tournaments, saved_progress, strict=True)):
        leader = saved_progress[i - 1] if command == "balance" and i % 2 else None  # bonus20 follows standard
        _tournament_progress(p, f"tournaments[{i}]", t, games, precision, leader)


@dataclass(frozen=True)
class _Tournament:
    game: Game
    players: int
    variant: str
    seed: int
    config_index: int
    deck: object
    strategies: tuple[SeatStrategy, ...]


def _tournament(saved, where: str) -> _Tournament:
    _keys(saved, where, TOURNAMENT_KEYS)
    game = _game(saved["game"], f"{where}.game")
    players = _players(saved["players"], f"{where}.players", game)
    variant = _choice(saved["variant"], f"{where}.variant", game.variants, f"the {game.name} game's rules")
    seed = _int(saved["seed"], f"{where}.seed", 0, MAX_INT)
    config_index = _int(saved["config_index"], f"{where}.config_index", 0, MAX_INT)
    strategies = _strategies(saved["strategies"], f"{where}.strategies", game, None)
    deck = _deck(saved["deck"], f"{where}.deck", game)
    return _Tournament(game, players, variant, seed, config_index, deck, strategies)


def _study_shape(tournaments: list[_Tournament], command: str) -> None:
    """What the command builds (study/studies.py plan): one tournament per player count
    (compare), or a standard and a bonus20 one per player count (balance), numbered by
    config_index; with several decks, that block again for each deck (each deck once, every
    deck the same player counts), the numbering going on from one deck to the next."""
    decks = []
    for t in tournaments:
        if t.deck not in decks:
            decks.append(t.deck)
    size = len(tournaments) // len(decks)
    if size * len(decks) != len(tournaments):
        raise _Invalid(f"configuration.tournaments has {len(tournaments)} tournaments for {len(decks)} decks, "
                       "not the same number for each deck")
    for d in range(len(decks)):
        block = tournaments[d * size:(d + 1) * size]
        for i, t in enumerate(block):
            if t.deck != block[0].deck:
                raise _Invalid(f"configuration.tournaments[{d * size + i}].deck is not the deck of "
                               f"tournaments[{d * size}]: each deck's tournaments come together")
            if d and t.players != tournaments[i].players:
                raise _Invalid(f"configuration.tournaments[{d * size + i}].players is {t.players}, but the first "
                               f"deck's tournaments[{i}] has {tournaments[i].players}: every deck plays the same "
                               "player counts")
        _deck_shape(block, command, d * size, d * (size if command == "compare" else size // 2), tournaments[0])


def _deck_shape(tournaments: list[_Tournament], command: str, offset: int, first_index: int,
                first: _Tournament) -> None:
    """One deck's tournaments (configuration.tournaments[offset:]), numbered from first_index;
    ``first``: the study's first tournament (compare plays its rules throughout)."""
    for i, t in enumerate(tournaments):
        where = f"configuration.tournaments[{offset + i}]"
        if command == "compare":
            index, variant = first_index + i, first.variant
        else:
            if first.game.variants != ("standard", "bonus20"):
                raise _Invalid(f"balance compares the standard and bonus20 rules; the {first.game.name} game has "
                               "no bonus20 rules")
            index, variant = first_index + i // 2, ("standard", "bonus20")[i % 2]
            if i % 2 and t.players != tournaments[i - 1].players:
                raise _Invalid(f"{where}.players is {t.players}, but its standard tournament has "
                               f"{tournaments[i - 1].players}")
        if t.config_index != index:
            raise _Invalid(f"{where}.config_index is {t.config_index}, expected {index}")
        if t.variant != variant:
            raise _Invalid(f"{where}.variant is {_show(t.variant)}, expected {_show(variant)}")
        step = 1 if command == "compare" else 2
        if i >= step and t.players <= tournaments[i - step].players:
            raise _Invalid(f"{where}.players is {t.players}, but the player counts are played once each, "
                           "in increasing order")
    if command == "balance" and len(tournaments) % 2:
        raise _Invalid(f"configuration.tournaments has {len(tournaments)} tournaments, not standard and bonus20 pairs")


def _tournament_progress(saved, where: str, t: _Tournament, games: int, precision, leader: dict | None) -> None:
    """One tournament's progress; ``leader``: the (checked) progress of the tournament it
    follows, the same games under other rules (balance), or None."""
    from .tournament import lineups  # tournament imports this module

    _keys(saved, where, TOURNAMENT_PROGRESS_KEYS)
    players, n = t.players, len(t.strategies)
    count = math.comb(n, players) if n >= players else 1
    done = saved["done"]
    if type(done) is not list:
        raise _Invalid(f"{where}.done is {_show(done)}, not a list")
    if len(done) != count:
        raise _Invalid(f"{where}.done has {len(done)} entries, but the tournament has {count} lineups")
    step = _ceil(_ceil(games, count), players) * players  # Tournament.play: whole rotations per lineup
    target = _int(saved["target"], f"{where}.target", 0, MAX_GAMES)
    if target % step or (precision is None and target > step):
        rounds = "" if precision is None else "a multiple of "
        raise _Invalid(f"{where}.target is {target}, but the tournament asks for {rounds}{step} games per lineup")
    low = max(target - step, 0)
    between = 0
    for k, value in enumerate(done):
        _int(value, f"{where}.done[{k}]", 0, MAX_INT)
        if not low <= value <= target:
            raise _Invalid(f"{where}.done[{k}] is {value}, but lineups are played from {low} to the target {target}")
        if k and value > done[k - 1]:
            raise _Invalid(f"{where}.done[{k}] is {value}, more than done[{k - 1}] ({done[k - 1]}): "
                           "lineups are played in order")
        between += low < value < target
    if between > 1:
        raise _Invalid(f"{where}.done has {between} lineups part-way to the target; lineups are played in order")
    elapsed = saved["elapsed"]
    if type(elapsed) not in (int, float) or not 0 <= elapsed < math.inf:
        raise _Invalid(f"{where}.elapsed is {_show(elapsed)}, not a number of seconds")

    labels = list(dict.fromkeys(s.label for s in t.strategies))
    rows = len(labels)
    game, width = t.game, N_COMMON_STATS + len(t.game.stat_columns)
    shape = f"the tournament's {rows} strategies"
    by_strategy = _matrix(saved["strategy_stats"], f"{where}.strategy_stats", rows, width, shape)
    pairs = _matrix(saved["pairs"], f"{where}.pairs", rows, rows, shape)
    seat = _matrix(saved["seat_stats"], f"{where}.seat_stats", players, width, f"the {players}-player {game.name} game")
    run = _vector(saved["run"], f"{where}.run", N_COMMON_RUN_STATS + len(game.run_columns), f"the {game.name} game")
    total = run[RUN_GAMES]
    if total != sum(done):
        raise _Invalid(f"{where}.run[{RUN_GAMES}] is {total}, but its lineups played {sum(done)} games")
    row_games = [0] * rows
    together = [[0] * rows for _ in range(rows)]
    index = {label: r for r, label in enumerate(labels)}
    for played, lineup in zip(done, lineups(t.strategies, players), strict=True):
        if not played:
            continue
        slots = [index[s.label] for s in lineup]
        for a in slots:
            row_games[a] += played
            for b in slots:
                if a != b:
                    together[a][b] += played
    rules = _Rules(game, players, t.variant)
    rules.table(seat, f"{where}.seat_stats", [total] * players, total)
    rules.table(by_strategy, f"{where}.strategy_stats", row_games, total)
    _same_sums(seat, f"{where}.seat_stats", by_strategy, f"{where}.strategy_stats")
    _pairs(pairs, f"{where}.pairs", lambda a, b: together[a][b])
    rules.run(run, f"{where}.run", total, seat)
    paired = [_vector(saved["paired_sq"], f"{where}.paired_sq", rows, shape),
              _vector(saved["paired_seat_sq"], f"{where}.paired_seat_sq", players, f"the {players}-player game")]
    if leader is None:
        if any(map(any, paired)):
            raise _Invalid(f"{where}: paired sums, but the tournament follows no other (only balance's bonus20 "
                           "tournaments do)")
        return
    if (saved["target"], saved["done"]) != (leader["target"], leader["done"]):
        raise _Invalid(f"{where}.done is {done}, but the standard tournament it follows played {leader['done']}: "
                       "both play the same games")
    for key, sums, rows_here, rows_there in (("paired_sq", paired[0], by_strategy, leader["strategy_stats"]),
                                             ("paired_seat_sq", paired[1], seat, leader["seat_stats"])):
        for r, (square, mine, theirs) in enumerate(zip(sums, rows_here, rows_there, strict=True)):
            spread = mine[STAT_WIN60] - theirs[STAT_WIN60]  # the sum of the per-game differences: Cauchy
            if spread * spread > square * total:
                raise _Invalid(f"{where}.{key}[{r}] is {square}, too small for win totals {theirs[STAT_WIN60]} "
                               f"and {mine[STAT_WIN60]} in the same {total} games")


# ---------------------------------------------------------------- the statistics

class _Rules:
    """The consistency rules of one game at one player count (module doc)."""

    def __init__(self, game: Game, players: int, variant: str):
        self.game, self.players, self.variant = game, players, variant
        shares = [WIN_UNIT // k for k in range(2, players + 1)]  # a k-way shared win
        self.smallest = min(shares)
        self.largest = max(shares)
        self.shares = sorted(set(shares))
        self.share_gcd = reduce(math.gcd, shares)
        self.square_gcd = reduce(math.gcd, [s * s for s in shares])
        self.extra = game.totals_rules

    def table(self, rows: list[list[int]], where: str, row_games: list[int], games: int) -> None:
        """Rows of statistics, row r over ``row_games[r]`` games; ``games`` games in all."""
        for r, (row, n) in enumerate(zip(rows, row_games, strict=True)):
            self.row(row, f"{where}[{r}]", n)
        wins = sum(row[STAT_WIN60] for row in rows)
        if wins != WIN_UNIT * games:
            raise _Invalid(f"{where}: the win60 column adds up to {wins}, but {games} games share out "
                           f"{WIN_UNIT * games} ({WIN_UNIT} each)")
        outright = sum(row[STAT_OUTRIGHT] for row in rows)
        shared = sum(row[STAT_SHARED] for row in rows)
        if outright > games:
            raise _Invalid(f"{where}: {outright} outright wins in {games} games")
        undecided = games - outright
        if not 2 * undecided <= shared <= self.players * undecided:
            raise _Invalid(f"{where}: {shared} shared wins, but the {undecided} games no one won outright "
                           f"share between {2 * undecided} and {self.players * undecided}")

    def row(self, row: list[int], where: str, n: int) -> None:
        if row[STAT_GAMES] != n:
            raise _Invalid(f"{where}[{STAT_GAMES}] is {row[STAT_GAMES]}, but the checkpoint counts {n} games")
        if n == 0:
            for j, value in enumerate(row):
                if value:
                    raise _Invalid(f"{where}[{j}] is {value}, but the row counts no games")
            return
        outright, shared = row[STAT_OUTRIGHT], row[STAT_SHARED]
        if outright + shared > n:
            raise _Invalid(f"{where}: {outright} outright and {shared} shared wins in {n} games")
        win, square = row[STAT_WIN60] - WIN_UNIT * outright, row[STAT_WIN60_SQ] - WIN_UNIT**2 * outright
        low, high = self.smallest, self.largest
        if not low * shared <= win <= high * shared or win % self.share_gcd:
            raise _Invalid(f"{where}[{STAT_WIN60}] is {row[STAT_WIN60]}, impossible with {outright} outright and "
                           f"{shared} shared wins among {self.players} players")
        if (square < 0 or win * win > square * shared or square > (high + low) * win - high * low * shared
                or square % self.square_gcd or _share_counts(self.shares, (shared, win, square)) is False):
            raise _Invalid(f"{where}[{STAT_WIN60_SQ}] is {row[STAT_WIN60_SQ]}, impossible with win60 "
                           f"{row[STAT_WIN60]} from {outright} outright and {shared} shared wins")
        score, score_sq = row[STAT_SCORE], row[STAT_SCORE_SQ]
        if not (score * score <= score_sq * n and score <= score_sq <= score * score):
            raise _Invalid(f"{where}[{STAT_SCORE_SQ}] is {score_sq}, impossible for {n} scores adding up to {score}")
        if self.extra is not None:
            try:
                self.extra.row(row, where, n, self.players, self.variant)
            except InconsistentTotals as exc:
                raise _Invalid(str(exc)) from None

    def run(self, run: list[int], where: str, games: int, seat: list[list[int]]) -> None:
        if games == 0:
            for j, value in enumerate(run):
                if value:
                    raise _Invalid(f"{where}[{j}] is {value}, but the checkpoint counts no games")
            return
        outright = sum(row[STAT_OUTRIGHT] for row in seat)
        scores = sum(row[STAT_SCORE] for row in seat)
        margin = run[RUN_WIN_MARGIN]
        if not outright <= margin <= scores or (margin and not outright):
            raise _Invalid(f"{where}[{RUN_WIN_MARGIN}] is {margin}, impossible with {outright} outright wins "
                           f"and scores adding up to {scores}")
        if self.extra is not None:
            try:
                self.extra.run(run, where, games, self.players, self.variant)
            except InconsistentTotals as exc:
                raise _Invalid(str(exc)) from None


def _share_counts(shares: list[int], moments: tuple[int, int, int]) -> bool | None:
    """Whether whole numbers n_s >= 0 exist, one per share s, with sum(n_s s**k) == moments[k]
    (k = 0, 1, 2: the shared wins, their win60 and their win60_sq). Decided when there are
    at most 3 shares (up to 4 players): the equations then fix the n_s. None: not decided."""
    m = len(shares)
    if m > len(moments):
        return None
    a = [[Fraction(share**k) for share in shares] for k in range(m)]
    b = [Fraction(moments[k]) for k in range(m)]
    for col in range(m):  # Gauss-Jordan on a Vandermonde system (distinct shares: never singular)
        for r in range(m):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    counts = [b[i] / a[i][i] for i in range(m)]
    if any(n < 0 or n.denominator != 1 for n in counts):
        return False
    return all(sum(n * share**k for n, share in zip(counts, shares, strict=True)) == moments[k]
               for k in range(m, len(moments)))


def _pairs(pairs: list[list[int]], where: str, together) -> None:
    for a, row in enumerate(pairs):
        if row[a]:
            raise _Invalid(f"{where}[{a}][{a}] is {row[a]}, but a strategy never plays itself")
        for b in range(a + 1, len(pairs)):
            expected = 2 * together(a, b)
            if row[b] + pairs[b][a] != expected:
                raise _Invalid(f"{where}[{a}][{b}] + {where}[{b}][{a}] is {row[b] + pairs[b][a]}, but "
                               f"{together(a, b)} games together make {expected} (2 per game)")


def _paired(diff_sq: list[list[int]], where: str, slot: list[list[int]], games: int) -> None:
    for a, row in enumerate(diff_sq):
        if row[a]:
            raise _Invalid(f"{where}[{a}][{a}] is {row[a]}, but a slot never plays itself")
        for b in range(a + 1, len(diff_sq)):
            if row[b] != diff_sq[b][a]:
                raise _Invalid(f"{where}[{a}][{b}] is {row[b]}, but {where}[{b}][{a}] is {diff_sq[b][a]} (the same "
                               "squared differences)")
            spread = slot[a][STAT_WIN60] - slot[b][STAT_WIN60]
            squares = slot[a][STAT_WIN60_SQ] + slot[b][STAT_WIN60_SQ]
            if not (spread * spread <= row[b] * games and row[b] <= squares and (squares - row[b]) % 2 == 0):
                raise _Invalid(f"{where}[{a}][{b}] is {row[b]}, which slots {a + 1} and {b + 1}'s win credits "
                               f"(sums {slot[a][STAT_WIN60]}, {slot[b][STAT_WIN60]}; squares {squares}) cannot give")


def _same_sums(rows: list[list[int]], where: str, others: list[list[int]], others_where: str) -> None:
    for j in range(len(rows[0])):
        a, b = sum(row[j] for row in rows), sum(row[j] for row in others)
        if a != b:
            raise _Invalid(f"column {j} of {others_where} adds up to {b}, but the same column of {where} to {a}")


# ---------------------------------------------------------------- structure and types

def _keys(value, where: str, expected: tuple[str, ...]) -> None:
    if type(value) is not dict:
        raise _Invalid(f"{where} is {_show(value)}, not an object")
    for key in expected:
        if key not in value:
            raise _Invalid(f"{where} lacks {_show(key)}")
    for key in value:
        if key not in expected:
            raise _Invalid(f"{where} has an unexpected key {_show(key)}")


def _int(value, where: str, low: int, high: int) -> int:
    if type(value) is not int:
        raise _Invalid(f"{where} is {_show(value)}, not a whole number")
    if not low <= value <= high:
        raise _Invalid(f"{where} is {_show(value)}, outside {low}..{high}")
    return value


def _vector(value, where: str, length: int, what: str) -> list[int]:
    if type(value) is not list:
        raise _Invalid(f"{where} is {_show(value)}, not a list")
    if len(value) != length:
        raise _Invalid(f"{where} has {len(value)} entries, but {what} has {length}")
    for j, entry in enumerate(value):
        _int(entry, f"{where}[{j}]", 0, MAX_INT)
    return value


def _matrix(value, where: str, rows: int, columns: int, what: str) -> list[list[int]]:
    if type(value) is not list:
        raise _Invalid(f"{where} is {_show(value)}, not a list")
    if len(value) != rows:
        raise _Invalid(f"{where} has {len(value)} rows, but {what} has {rows}")
    for i, row in enumerate(value):
        _vector(row, f"{where}[{i}]", columns, what)
    return value


def _game(value, where: str) -> Game:
    if type(value) is not str or value not in GAMES:
        raise _Invalid(f"{where} is {_show(value)}, not a game medici-sim knows ({', '.join(GAMES)})")
    return GAMES[value]


def _players(value, where: str, game: Game) -> int:
    if type(value) is not int or not game.min_players <= value <= game.max_players:
        raise _Invalid(f"{where} is {_show(value)}, but the {game.name} game takes {game.min_players} to "
                       f"{game.max_players} players")
    return value


def _choice(value, where: str, choices: tuple[str, ...], what: str) -> str:
    if type(value) is not str or value not in choices:
        raise _Invalid(f"{where} is {_show(value)}, not one of {what} ({', '.join(choices)})")
    return value


def _strategies(value, where: str, game: Game, count: int | None) -> tuple[SeatStrategy, ...]:
    if type(value) is not list or not value:
        raise _Invalid(f"{where} is {_show(value)}, not a list of strategies")
    if count is not None and len(value) != count:
        raise _Invalid(f"{where} has {len(value)} strategies, but {count} players need {count}")
    return tuple(_strategy(entry, f"{where}[{i}]", game) for i, entry in enumerate(value))


def _strategy(entry, where: str, game: Game) -> SeatStrategy:
    if type(entry) is not list or len(entry) != 4:
        raise _Invalid(f"{where} is {_show(entry)}, not [name, parameters, fingerprint, origin]")
    name, params, fingerprint, origin = entry
    if type(origin) is not str or not origin or len(origin) > MAX_ORIGIN:
        raise _Invalid(f"{where}[3] is {_show(origin)}, not where the strategy came from")
    if fingerprint is not None and (type(fingerprint) is not str or not _FINGERPRINT.fullmatch(fingerprint)):
        raise _Invalid(f"{where}[2] is {_show(fingerprint)}, not a strategy fingerprint")
    if type(name) is not str or name not in game.registry:
        if type(name) is str and name.isidentifier() and origin != "built-in":
            raise _Invalid(f"strategy {name} is not registered; the checkpoint's run had it from {_text(origin)} "
                           f"(load it with --plugin)")
        raise _Invalid(f"{where}[0] is {_show(name)}, not a strategy of the {game.name} game")
    declared = game.registry[name].params
    if type(params) is not dict:
        raise _Invalid(f"{where}[1] is {_show(params)}, not the parameters of {name}")
    for key in declared:
        if key not in params:
            raise _Invalid(f"{where}[1] lacks parameter {key} of {name}")
    for key, value in params.items():
        if key not in declared:
            raise _Invalid(f"{where}[1] has {_show(key)}, not a parameter of {name}")
        if type(value) is not float:
            raise _Invalid(f"{where}[1].{key} is {_show(value)}, not a number with a decimal point")
    try:
        slot = seat_strategy(name, game.name, **params)
    except ConfigError as exc:
        raise _Invalid(f"{where}: {exc}") from None
    if fingerprint != _fingerprint(game.registry[name]):
        raise _Invalid(f"the code of strategy {name} changed since the checkpoint was saved")
    return slot


def _deck(value, where: str, game: Game):
    if not game.uses_deck:
        if value is not None:
            raise _Invalid(f"{where} is {_show(value)}, but the {game.name} game takes no deck")
        return None
    _keys(value, where, ("cards", "fingerprint", "contents"))
    cards = _int(value["cards"], f"{where}.cards", 1, MAX_DECK_CARDS)
    contents = value["contents"]
    if type(contents) is not str:
        raise _Invalid(f"{where}.contents is {_show(contents)}, not the deck's CSV text")
    try:
        deck = game.deck_from_text(contents)
    except (csv.Error, ValueError) as exc:
        raise _Invalid(f"{where}.contents: {exc}") from None
    if deck.n_cards != cards:
        raise _Invalid(f"{where}.cards is {cards}, but its contents hold {deck.n_cards} cards")
    if value["fingerprint"] != deck.fingerprint():
        raise _Invalid(f"{where}.fingerprint is {_show(value['fingerprint'])}, but its contents have fingerprint "
                       f"{deck.fingerprint()}")
    return deck


# ---------------------------------------------------------------- options and messages

def _options_of(configuration: dict) -> dict:
    """A configuration as the options that make it (a study's tournaments folded together)."""
    if "tournaments" not in configuration:
        out = dict(configuration)
        if isinstance(out.get("strategies"), list):
            out["strategies"] = [(entry[0], entry[1]) for entry in out["strategies"]]
        return out
    tournaments = configuration["tournaments"]
    first = tournaments[0]
    decks = []
    for t in tournaments:
        if t["deck"] not in decks:
            decks.append(t["deck"])
    out = {"games": configuration["games"], "precision": configuration["precision"], "game": first["game"],
           "players": list(dict.fromkeys(t["players"] for t in tournaments)), "seed": first["seed"],
           "deck": decks[0] if len(decks) == 1 else decks,
           "strategies": [(entry[0], entry[1]) for entry in first["strategies"]]}
    variants = {t["variant"] for t in tournaments}
    if len(variants) == 1:
        out["variant"] = first["variant"]
    return out


def _render(key: str, value) -> str:
    if key == "deck" and isinstance(value, list):  # a study of several decks
        return f"{len(value)} decks: " + "; ".join(_render(key, deck) for deck in value)
    if key == "deck":
        return "no deck" if value is None else f"{value['cards']} cards, fingerprint {value['fingerprint']}"
    if key == "players" and isinstance(value, list):
        return ",".join(str(v) for v in value)
    if key == "strategies":
        return ",".join(_label(name, params) for name, params in value)
    if value is None:
        return "none"
    return _text(str(value))


def _label(name: str, params: dict) -> str:
    changed = [f"{k}={format_number(v)}" for k, v in params.items()]
    for game in GAMES.values():
        if name in game.registry:
            defaults = game.registry[name].params
            changed = [f"{k}={format_number(v)}" for k, v in params.items() if k not in defaults
                       or defaults[k].default != v]
            break
    return name + (":" + ",".join(changed) if changed else "")


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _show(value) -> str:
    """A value from the checkpoint, shortened, on one line."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _text(value) -> str:
    """A path or name as given, unless it holds characters that would break the line."""
    text = str(value)
    return text if text.isprintable() else json.dumps(text)


def _one_line(message: str) -> str:
    return " ".join(message.splitlines())
