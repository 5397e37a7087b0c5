"""The Medici words core/, study/, cli/, api.py and frameworks/ still hold, counted per file: the
architecture guard's allow-list (tests/test_architecture.py, ``test_no_new_medici_word_outside_the_games``).

Issue 31 moved the Medici games' ideas (the day loop, ships, majorities, bonuses, florins, the
poorest starting, the day metrics, the narration and console, the chance events) out of these
layers into games/medici/ and the games' declarations. What is left (1050 words in 59 files,
2026-11-26) is mostly two ideas still to move: the deck as the one kind of game data (``deck``:
the component option, ``RunConfig.deck``, checkpoints' deck identity; to be the contract's
GameData in words) and built-in strategies named as defaults (``expert`` opponents, ``search``
in the compile estimate, ``random`` lineups). Each file may hold at most the counts below; a new
occurrence fails the test; shrink the list as they move (``python tests/medici_words.py``
prints the counts of today's tree).
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "src" / "medici_sim"
LAYERS = ("core", "study", "cli", "frameworks")  # and api.py
# word -> the word counted (plurals with it); strategy names that are plain English are counted only quoted
WORDS = {
    "day": "day", "days": "day", "ship": "ship", "ships": "ship", "majority": "majority", "majorities": "majority",
    "bonus": "bonus", "bonuses": "bonus", "florin": "florin", "florins": "florin", "deck": "deck", "decks": "deck",
    "poorest": "poorest", "expert": "expert", "search": "search", "strong": "strong", "mcts": "mcts",
    "greedy": "greedy", "collector": "collector", "cautious": "cautious", "gambler": "gambler", "bargain": "bargain",
}
QUOTED = re.compile(r"""["'](random|value)["']""")  # the built-ins random and value, by name
TOKEN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")  # words, identifiers split at _ and CamelCase humps


def layer_files() -> list[Path]:
    return [*(p for layer in LAYERS for p in sorted((PACKAGE / layer).glob("*.py"))), PACKAGE / "api.py"]


def medici_words(path: Path) -> Counter:
    """The Medici words of a file, docstrings and comments included, counted."""
    found = Counter()
    for line in path.read_text().splitlines():
        found.update(WORDS[t.lower()] for t in TOKEN.findall(line) if t.lower() in WORDS)
        found.update(m.group(1) for m in QUOTED.finditer(line))
    return found


ALLOWED = {
    "core/accounting.py": {"bargain": 1},
    "core/arguments.py": {"deck": 2, "expert": 2, "random": 1},
    "core/compiling.py": {"search": 3},
    "core/dispatch.py": {"expert": 2, "search": 1},
    "core/driver.py": {"bonus": 1, "day": 2, "deck": 2, "search": 3},
    "core/evaluation.py": {"day": 6, "expert": 2, "florin": 3, "search": 2, "ship": 1, "strong": 8},
    "core/identity.py": {"deck": 26},
    "core/output.py": {"deck": 1},
    "core/pairing.py": {"bonus": 1, "day": 7},
    "core/plugin_check.py": {"deck": 1, "search": 1},
    "core/ranking.py": {"florin": 1},
    "core/registry.py": {"search": 1, "ship": 1},
    "core/resumable.py": {"search": 1},
    "core/rollout.py": {"day": 17, "deck": 1, "expert": 1, "florin": 4, "search": 21},
    "core/rules.py": {"bonus": 10, "day": 2, "deck": 1, "ship": 1, "value": 1},
    "core/run_saved.py": {"deck": 18},
    "core/seating.py": {"random": 1},
    "core/specialize.py": {"day": 2},
    "core/specs.py": {"collector": 1, "deck": 21, "greedy": 1},
    "core/stats.py": {"deck": 5},
    "core/templates.py": {"search": 4},
    "core/tracing.py": {"deck": 4, "expert": 1},
    "core/tree_search.py": {"day": 9, "deck": 1, "florin": 1, "mcts": 7, "search": 24},
    "study/agent_tournament.py": {"deck": 3},
    "study/analysis.py": {"bonus": 1},
    "study/design.py": {"collector": 2, "deck": 5, "search": 15},
    "study/design_saved.py": {"search": 3},
    "study/ladder.py": {"collector": 2, "greedy": 1, "search": 16, "strong": 6, "value": 18},
    "study/metrics.py": {"day": 21, "deck": 46, "ship": 1},
    "study/optimize.py": {"search": 3},
    "study/report.py": {"day": 2, "deck": 1, "strong": 10, "value": 2},
    "study/report_pages.py": {"day": 1, "deck": 4, "search": 2},
    "study/resume.py": {"deck": 36},
    "study/strong_training.py": {"day": 11, "deck": 3, "expert": 1, "search": 12, "strong": 22},
    "study/studies.py": {"deck": 174},
    "study/sweep.py": {"bonus": 3, "deck": 19, "ship": 2},
    "study/sweep_saved.py": {"deck": 4},
    "study/tournament.py": {"deck": 8},
    "study/tournament_saved.py": {"deck": 35},
    "study/tune_metrics.py": {"day": 3, "deck": 3},
    "study/tune_saved.py": {"deck": 12},
    "study/tuning.py": {"deck": 7, "search": 1},
    "cli/app.py": {"deck": 2, "random": 2},
    "cli/common.py": {"day": 5, "deck": 30, "mcts": 2, "search": 3},
    "cli/ladder.py": {"deck": 11},
    "cli/play.py": {"day": 2, "deck": 4, "expert": 2, "random": 2},
    "cli/rules.py": {"value": 2},
    "cli/run.py": {"deck": 8},
    "cli/study.py": {"deck": 63, "search": 1},
    "cli/sweep.py": {"collector": 1, "day": 7, "deck": 6, "search": 4},
    "cli/tables.py": {"day": 1, "deck": 1},
    "cli/trace.py": {"day": 1, "deck": 5, "random": 2},
    "cli/tune.py": {"cautious": 1, "collector": 1, "deck": 7, "expert": 2, "greedy": 2},
    "frameworks/agents.py": {"expert": 1, "mcts": 3, "search": 2},
    "frameworks/builtins.py": {"expert": 2, "greedy": 2, "mcts": 1, "search": 1, "strong": 1},
    "frameworks/gym_env.py": {"expert": 1},
    "frameworks/spiel.py": {"deck": 1, "expert": 2, "greedy": 1, "mcts": 2, "search": 1},
    "frameworks/stepper.py": {"deck": 1},
    "api.py": {"bonus": 2, "collector": 1, "deck": 74, "expert": 2, "random": 4, "search": 1, "ship": 1},
}

if __name__ == "__main__":
    for path in layer_files():
        if counts := medici_words(path):
            print(f'    "{path.relative_to(PACKAGE).as_posix()}": {dict(sorted(counts.items()))},')
