"""The Medici words core/, study/, cli/, api.py and frameworks/ still hold, counted per file: the
architecture guard's allow-list (tests/test_architecture.py, ``test_no_new_medici_word_outside_the_games``).

Issue 31 moves the Medici games' ideas (days, ships, majorities, bonuses, florins, the deck, the
poorest starting, the built-in strategies' names) out of these layers into games/. Until that
is done, each file may hold at most the counts below; a new occurrence fails the test. The lead
shrinks the list after each merge (``python tests/medici_words.py`` prints the counts of today's
tree). Entries marked (a) are the Medici toolkit's work (games/medici/: the day loop, ships /
majorities / bonuses, florins, the day metrics, the narration and play table); (b) the
frameworks' information declaration (chance events and seat views in the games' own terms).
The rest (the deck as the component option, search and strong by name in study and cli, the
hard-coded lineups) are issue 31's further steps.
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
    # (a): the Medici toolkit moves these out
    "core/accounting.py": {"bargain": 1, "bonus": 2, "day": 44, "florin": 8, "majority": 2, "ship": 2},
    "core/arguments.py": {"deck": 2, "expert": 2, "random": 1},
    "core/compiling.py": {"search": 3},
    # (a): Engine.days becomes the declared scoring moments
    "core/contract.py": {"day": 3},
    "core/dispatch.py": {"expert": 2, "search": 1},
    "core/driver.py": {"bonus": 1, "day": 3, "deck": 2, "search": 3},
    "core/evaluation.py": {"day": 6, "expert": 2, "florin": 3, "search": 2, "ship": 1, "strong": 8},
    # (a): the Medici toolkit moves these out
    "core/human.py": {"bonus": 4, "day": 38, "florin": 7, "majority": 4, "ship": 14, "value": 1},
    "core/identity.py": {"deck": 26},
    # (a): the Medici toolkit moves these out
    "core/narration.py": {"bonus": 6, "day": 25, "florin": 7, "majority": 4, "ship": 4},
    "core/output.py": {"deck": 1},
    # (a): the Medici toolkit moves these out
    "core/pairing.py": {"bonus": 1, "day": 13},
    "core/plugin_check.py": {"deck": 1, "search": 1},
    "core/ranking.py": {"florin": 1},
    "core/registry.py": {"search": 1, "ship": 1},
    "core/rollout.py": {"day": 17, "deck": 1, "expert": 1, "florin": 4, "search": 21},
    "core/rules.py": {"bonus": 10, "day": 2, "deck": 1, "ship": 1, "value": 1},
    "core/run_saved.py": {"deck": 18},
    # (a): the Medici toolkit moves these out
    "core/seating.py": {"day": 1, "poorest": 1, "random": 1},
    # (a): the Medici toolkit moves these out
    "core/specialize.py": {"day": 2},
    "core/specs.py": {"collector": 1, "deck": 21, "greedy": 1},
    # (a): the Medici toolkit moves these out
    "core/stats.py": {"bonus": 4, "day": 29, "deck": 5, "florin": 14, "majority": 4, "ship": 4},
    # (a): the Medici toolkit moves these out
    "core/resumable.py": {"day": 97, "search": 2},
    # (a): the Medici toolkit moves these out
    "core/totals_check.py": {"day": 34},
    "core/tracing.py": {"deck": 4, "expert": 1},
    "core/templates.py": {"search": 4},  # tree_search_for: the generic tree search, not the strategy
    "core/tree_search.py": {"day": 9, "deck": 1, "florin": 1, "mcts": 7, "search": 24},
    "study/agent_tournament.py": {"deck": 3},
    # (a): the Medici toolkit moves these out
    "study/analysis.py": {"bonus": 5, "florin": 16, "majority": 4, "ship": 4},
    "study/design.py": {"collector": 2, "deck": 5, "search": 15},
    "study/design_saved.py": {"search": 3},
    "study/ladder.py": {"collector": 2, "greedy": 1, "search": 16, "strong": 6, "value": 18},
    # (a): the Medici toolkit moves these out
    "study/metrics.py": {"day": 165, "deck": 47, "florin": 3, "ship": 1},
    "study/optimize.py": {"search": 3},
    # (a): the Medici toolkit moves these out
    "study/report.py": {"bonus": 2, "day": 14, "deck": 1, "florin": 10, "majority": 2, "ship": 2, "strong": 10,
        "value": 2},
    # (a): the Medici toolkit moves these out
    "study/report_pages.py": {"day": 33, "deck": 4, "florin": 3, "search": 2},
    "study/resume.py": {"deck": 36},
    "study/strong_training.py": {"day": 11, "deck": 3, "expert": 1, "search": 12, "strong": 22},
    "study/studies.py": {"deck": 174},
    "study/sweep.py": {"bonus": 3, "day": 2, "deck": 19, "ship": 2},
    "study/sweep_saved.py": {"deck": 4},
    "study/tournament.py": {"deck": 8},
    "study/tournament_saved.py": {"day": 7, "deck": 35},
    # (a): the Medici toolkit moves these out
    "study/tune_metrics.py": {"day": 6, "deck": 3},
    "study/tune_saved.py": {"day": 2, "deck": 12},
    "study/tuning.py": {"deck": 7, "search": 1},
    "cli/app.py": {"deck": 2, "random": 2},
    "cli/common.py": {"day": 5, "deck": 30, "mcts": 2, "search": 3},
    "cli/ladder.py": {"deck": 11},
    "cli/play.py": {"day": 3, "deck": 4, "expert": 2, "random": 2},
    "cli/rules.py": {"value": 2},
    "cli/run.py": {"day": 1, "deck": 8},
    "cli/study.py": {"day": 1, "deck": 63, "florin": 1, "search": 1},
    "cli/sweep.py": {"collector": 1, "day": 17, "deck": 6, "search": 4},
    # (a): the Medici toolkit moves these out
    "cli/tables.py": {"bonus": 8, "day": 1, "deck": 1, "florin": 21, "majority": 8, "ship": 11},
    "cli/trace.py": {"day": 1, "deck": 5, "random": 2},
    "cli/tune.py": {"cautious": 1, "collector": 1, "deck": 7, "expert": 2, "greedy": 2},
    # (b): the frameworks' information declaration
    "frameworks/aec_env.py": {"bonus": 1, "day": 1, "deck": 2, "florin": 4},
    # (b): the frameworks' information declaration
    "frameworks/agents.py": {"expert": 1, "florin": 5, "mcts": 3, "search": 2},
    "frameworks/builtins.py": {"expert": 2, "greedy": 2, "mcts": 1, "search": 1, "strong": 1},
    # (b): the frameworks' information declaration
    "frameworks/gym_env.py": {"expert": 1, "florin": 5},
    # (b): the frameworks' information declaration
    "frameworks/spiel.py": {"day": 1, "deck": 2, "expert": 2, "florin": 3, "greedy": 1, "mcts": 2, "search": 2},
    # (b): the frameworks' information declaration
    "frameworks/stepper.py": {"day": 5, "deck": 2, "poorest": 1},
    "api.py": {"bonus": 2, "collector": 1, "deck": 74, "expert": 2, "random": 4, "search": 1, "ship": 1},
}

if __name__ == "__main__":
    for path in layer_files():
        if counts := medici_words(path):
            print(f'    "{path.relative_to(PACKAGE).as_posix()}": {dict(sorted(counts.items()))},')
