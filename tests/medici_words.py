"""The Medici words core/, study/, cli/, api.py and frameworks/ still hold, counted per file: the
architecture guard's allow-list (tests/test_architecture.py, ``test_no_new_medici_word_outside_the_games``).

Issue 31 moved the Medici games' ideas (the day loop, ships, majorities, bonuses, florins, the
poorest starting, the day metrics, the narration and console, the chance events) out of these
layers into games/medici/ and the games' declarations, and the deck, the one kind of game data, became
the contract's component sets (``components``; a game names them in its own words, ``GameData.noun``).
What is left (416 words in 48 files, 2026-11-26; 22 of them "deck": the older names
--deck, --decks, deck= and checkpoints' "deck" key, still read, and the Medici games' deck order in prose)
is mostly built-in strategies named as defaults (``expert`` opponents, ``search`` in the compile
estimate, ``random`` lineups) and the search players' day-by-day prose. Each file may hold at most the
counts below; a new occurrence fails the test; shrink the list as they move (``python
tests/medici_words.py`` prints the counts of today's tree).
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


MARKUP = re.compile(r"</?strong>")  # HTML's bold tag (study/report.py's pages), not the strategy


def medici_words(path: Path) -> Counter:
    """The Medici words of a file, docstrings and comments included, counted."""
    found = Counter()
    for line in path.read_text().splitlines():
        line = MARKUP.sub(" ", line)
        found.update(WORDS[t.lower()] for t in TOKEN.findall(line) if t.lower() in WORDS)
        found.update(m.group(1) for m in QUOTED.finditer(line))
    return found


ALLOWED = {
    "core/accounting.py": {"bargain": 1},
    "core/arguments.py": {"deck": 1, "expert": 2, "random": 1},  # deck: DeckError, ComponentsError's older public name
    "core/checkpoint.py": {"deck": 1},  # deck: OLDER_KEYS: checkpoints written before name their component set 'deck'
    "core/compiling.py": {"search": 3},
    "core/dispatch.py": {"expert": 2, "search": 1},
    "core/driver.py": {"bonus": 1, "day": 2, "search": 3},
    "core/evaluation.py": {"day": 6, "expert": 2, "florin": 3, "search": 2, "ship": 1, "strong": 8},
    "core/pairing.py": {"bonus": 1, "day": 7},
    "core/plugin_check.py": {"search": 1},
    "core/ranking.py": {"florin": 1},
    "core/registry.py": {"search": 1, "ship": 1},
    "core/resumable.py": {"search": 1},
    # deck: the Medici games' deck order, in prose
    "core/rollout.py": {"day": 17, "deck": 1, "expert": 1, "florin": 4, "search": 21},
    "core/rules.py": {"bonus": 10, "day": 2, "ship": 1, "value": 1},
    "core/seating.py": {"random": 1},
    "core/specialize.py": {"day": 2},
    "core/specs.py": {"collector": 1, "greedy": 1},
    "core/templates.py": {"search": 4},
    "core/tracing.py": {"expert": 1},
    # deck: the Medici games' deck order, in prose
    "core/tree_search.py": {"day": 9, "deck": 1, "florin": 1, "mcts": 7, "search": 24},
    "study/analysis.py": {"bonus": 1},
    "study/design.py": {"collector": 2, "search": 15},
    "study/design_saved.py": {"search": 3},
    "study/ladder.py": {"collector": 2, "greedy": 1, "search": 16, "strong": 6, "value": 18},
    "study/metrics.py": {"day": 21, "ship": 1},
    "study/optimize.py": {"search": 3},
    "study/report.py": {"day": 2, "strong": 10, "value": 2},
    "study/report_pages.py": {"day": 1, "search": 2},
    "study/resume.py": {"deck": 4},  # deck: --deck/--decks (and their click names) given with --resume: older names
    "study/strong_training.py": {"day": 11, "expert": 1, "search": 12, "strong": 22},
    "study/studies.py": {"deck": 1},  # deck: --decks, the comma list's option, in a docstring
    "study/sweep.py": {"bonus": 3, "ship": 2},
    "study/tune_metrics.py": {"day": 3},
    "study/tuning.py": {"search": 1},
    "cli/app.py": {"random": 2},
    # deck: --deck, --decks: --components' older names, kept working
    "cli/common.py": {"day": 5, "deck": 8, "mcts": 2, "search": 3},
    "cli/play.py": {"day": 2, "deck": 1, "expert": 2, "random": 2},  # deck: the seed fixes the deck order (prose)
    "cli/rules.py": {"value": 2},
    "cli/study.py": {"deck": 1, "search": 1},  # deck: --decks: the comma-list form, kept
    "cli/sweep.py": {"collector": 1, "day": 7, "search": 4},
    "cli/tables.py": {"day": 1},
    "cli/trace.py": {"day": 1, "random": 2},
    "cli/tune.py": {"cautious": 1, "collector": 1, "expert": 2, "greedy": 2},
    "frameworks/agents.py": {"expert": 1, "mcts": 3, "search": 2},
    "frameworks/builtins.py": {"expert": 2, "greedy": 2, "mcts": 1, "search": 1, "strong": 1},
    "frameworks/gym_env.py": {"expert": 1},
    "frameworks/spiel.py": {"expert": 2, "greedy": 1, "mcts": 2, "search": 1},
    # deck: deck=: components='s older keyword, kept working (deprecated)
    "api.py": {"bonus": 2, "collector": 1, "deck": 5, "expert": 2, "random": 4, "search": 1, "ship": 1},
}

if __name__ == "__main__":
    for path in layer_files():
        if counts := medici_words(path):
            print(f'    "{path.relative_to(PACKAGE).as_posix()}": {dict(sorted(counts.items()))},')
