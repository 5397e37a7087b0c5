"""The Medici words core/, study/, cli/, api.py and frameworks/ still hold, counted per file: the
architecture guard's allow-list (tests/test_architecture.py, ``test_no_new_medici_word_outside_the_games``).

Issue 31 moved the Medici games' ideas (the day loop, ships, majorities, bonuses, florins, the poorest
starting, the day metrics, the narration and console, the chance events, strong's learned evaluation,
mcts and search's day horizon) out of these layers into games/medici/ and the games' declarations; the
layers ask the game for what they need: its roles of players (``StudyPolicy``: weakest, searcher,
strongest, teacher), its built-ins in order (the first its baseline, a run's default lineup; the last its
strongest, play's and the frameworks' default opponents), its slow players (``Strategy.untunable``), its
scoring moments (``Moments``; the paired ran-out share), its rules (a sweep's example) and its strategies'
named choices (``Param.choices``). What is left (34 words in 11 files, 2026-11-27), each with its reason
below: the older names still taken (--deck, --decks, deck=, a checkpoint's "deck" key), durations in
days, the seating mode and play's seat drawn "random", and the help's and the API's usage examples.
Each file may hold at most the counts below; a new occurrence fails the test; shrink the list as they move
(``python tests/medici_words.py`` prints the counts of today's tree).
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "src" / "medici_sim"
LAYERS = ("core", "study", "cli", "frameworks")  # and api.py
# word -> the word counted (plurals with it), wherever it stands: in prose, in identifiers, in strings
WORDS = {
    "day": "day", "days": "day", "ship": "ship", "ships": "ship", "majority": "majority", "majorities": "majority",
    "bonus": "bonus", "bonuses": "bonus", "florin": "florin", "florins": "florin", "deck": "deck", "decks": "deck",
    "poorest": "poorest", "expert": "expert", "greedy": "greedy", "collector": "collector", "cautious": "cautious",
    "gambler": "gambler", "bargain": "bargain",
}
# Built-in strategies whose names are ordinary English or the field's words: counted only where they name the
# strategy (quoted "search", ``search`` in a docstring, or a spec search:rollouts=8), never in prose: optuna's
# *search* over rule values, a *strong* player, the *random* seating mode's description, OpenSpiel's MCTS. The
# word *value* is not guarded at all: it is the tables' column, a parameter's value and a rule's value
# everywhere, and the classic game's strategy of that name is not an idea the other layers could hold.
NAMED = re.compile(r"""["'](random|search|strong|mcts)["']|``(random|search|strong|mcts)``|"""
                   r"""\b(random|search|strong|mcts):[a-z_]+=""")
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
        found.update(next(filter(None, m.groups())) for m in NAMED.finditer(line))
    return found


ALLOWED = {
    # older names, still taken (one idea: the game's component set)
    "core/arguments.py": {"deck": 1},  # medici_sim.DeckError, ComponentsError's older name
    "core/checkpoint.py": {"deck": 1},  # OLDER_KEYS: checkpoints written before name their component set 'deck'
    "study/resume.py": {"deck": 4},  # --deck/--decks (and their click names) given with --resume
    "study/studies.py": {"deck": 1},  # --decks, the comma list's older option, in a docstring
    "cli/study.py": {"deck": 1},  # --decks: the comma-list form, kept
    "cli/common.py": {"day": 4, "deck": 8},  # --deck/--decks as the user wrote them; durations ("3 days 4 h")
    "api.py": {"deck": 5, "expert": 1},  # deck= (components='s older keyword); the module's usage example
    # English
    "core/rollout.py": {"day": 2},  # durations in tune's refusal ("days or more on a few cores")
    "core/seating.py": {"random": 2},  # the seating mode "random" (a permutation drawn per game), not the strategy
    "cli/play.py": {"expert": 2, "random": 1},  # --seat random (drawn); help: the default's name and an example
    "cli/tune.py": {"expert": 1},  # the help's example command
}

if __name__ == "__main__":
    for path in layer_files():
        if counts := medici_words(path):
            print(f'    "{path.relative_to(PACKAGE).as_posix()}": {dict(sorted(counts.items()))},')
