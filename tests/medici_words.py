"""The Medici words core/, study/, cli/, api.py and frameworks/ still hold, counted per file: the
architecture guard's allow-list (tests/test_architecture.py, ``test_no_new_medici_word_outside_the_games``).

Issue 31 moved the Medici games' ideas (the day loop, ships, majorities, bonuses, florins, the poorest
starting, the day metrics, the narration and console, the chance events, strong's learned evaluation) out
of these layers into games/medici/ and the games' declarations; the study layer asks the game for the roles
of its players (``StudyPolicy``: weakest, searcher, strongest, teacher, learned) and for its scoring moments
(the ran-out share is ``Moments.ran_out``). What is left (269 words in 42 files, 2026-11-26) is, by reason:
- the search players' machinery, whose prose and names still think in days and florins: core/rollout.py,
  tree_search.py, templates.py, dispatch.py, specialize.py, pairing.py, compiling.py (102: the search and
  compile work's files; they go when that machinery asks the game for its moments and score);
- English that is not the game's idea: optuna's *search* over rule values (design, optimize, sweep), a
  table's *value* column (ladder, rules), the *random* seating mode, durations in *days*, "medici-sim
  *ships*" (about 80);
- the older names still taken: --deck, --decks, deck=, checkpoints' "deck" key (22);
- built-in strategies as defaults and examples in help, docstrings and the frameworks' adapters (``expert``
  opponents, ``random`` lineups, ``greedy:take_min=3`` as a spec's syntax), and the card game's rules as
  the rule-book syntax's examples (``bonus20``, ``ship_payouts=30/20/10/0``).
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
    # core: examples and English
    "core/accounting.py": {"bargain": 1},  # a fast strategy's example (the classic game's bargain)
    "core/arguments.py": {"deck": 1, "expert": 2, "random": 1},  # DeckError's older name; a comma list's example
    "core/checkpoint.py": {"deck": 1},  # OLDER_KEYS: checkpoints written before name their component set 'deck'
    "core/driver.py": {"bonus": 1},  # a canonical spec's example ("bonus20")
    "core/ranking.py": {"florin": 1},  # the smallest coin's example
    "core/registry.py": {"ship": 1},  # "the games medici-sim ships" (English)
    "core/rules.py": {"bonus": 10, "day": 2, "ship": 1, "value": 1},  # the rule book's syntax by the card game's rules
    "core/seating.py": {"random": 1},  # the seating mode "random"
    "core/specs.py": {"collector": 1, "greedy": 1},  # a strategy spec's syntax by example
    "core/tracing.py": {"expert": 1},  # prose: built-ins and plug-ins alike
    # core: the search players' and the compile machinery (issue 31's next step there)
    "core/compiling.py": {"search": 3},  # the compile estimate keyed on the search player
    "core/dispatch.py": {"expert": 1, "search": 1},
    "core/pairing.py": {"bonus": 1, "day": 7},  # RAN_OUT_DAYS and the paired metrics' names
    "core/rollout.py": {"day": 17, "deck": 1, "expert": 1, "florin": 4, "search": 19},
    "core/specialize.py": {"day": 2},
    "core/templates.py": {"search": 4},
    # study
    "study/analysis.py": {"bonus": 1},  # the card game's big bonus as counted_under's example
    "study/design.py": {"collector": 2, "search": 15},  # optuna's search (English); a target's example
    "study/design_saved.py": {"search": 3},  # optuna's search
    "study/ladder.py": {"value": 18},  # the ladder table's column "value" (a finding's size), not the strategy
    "study/optimize.py": {"search": 3},  # CMA-ES's search (English)
    "study/report.py": {"value": 2},  # the column "value" (its header, its kind)
    "study/report_pages.py": {"search": 2},  # design's page: the search's trials
    "study/resume.py": {"deck": 4},  # --deck/--decks (and their click names) given with --resume: older names
    "study/strong_training.py": {"day": 4, "strong": 1},  # the learned module's DAY/DAYS and weights key "day"
    "study/studies.py": {"deck": 1},  # --decks, the comma list's older option, in a docstring
    "study/sweep.py": {"bonus": 3, "ship": 2},  # a swept range's syntax by the card game's rules
    "study/tuning.py": {"search": 1},  # a search box (CMA-ES)
    # cli
    "cli/app.py": {"random": 2},  # the default lineup and the seating mode
    "cli/common.py": {"day": 5, "deck": 8, "mcts": 2, "search": 3},  # --deck/--decks; durations; slow players' hint
    "cli/play.py": {"deck": 1, "expert": 2, "random": 2},  # the default opponents and seat; the deck order (prose)
    "cli/rules.py": {"value": 2},  # the rules table's column "value"
    "cli/study.py": {"deck": 1, "search": 1},  # --decks: the comma-list form, kept; --ladder's help
    "cli/sweep.py": {"collector": 1, "search": 4},  # optuna's search; a target's example
    "cli/trace.py": {"random": 2},  # the default lineup and the seating mode
    "cli/tune.py": {"cautious": 1, "collector": 1, "expert": 2, "greedy": 2},  # --against's and the help's examples
    # frameworks: the adapters' defaults and examples
    "frameworks/agents.py": {"expert": 1, "mcts": 3, "search": 2},  # OpenSpiel's MCTS bot, by example
    "frameworks/builtins.py": {"expert": 2, "greedy": 2, "mcts": 1, "search": 1, "strong": 1},
    "frameworks/gym_env.py": {"expert": 1},  # the default opponents
    "frameworks/spiel.py": {"expert": 2, "greedy": 1, "mcts": 2, "search": 1},  # the evaluator's default and examples
    # api: examples, defaults, deck= (components='s older keyword, kept working)
    "api.py": {"bonus": 2, "collector": 1, "deck": 5, "expert": 2, "random": 4, "search": 1, "ship": 1},
}

if __name__ == "__main__":
    for path in layer_files():
        if counts := medici_words(path):
            print(f'    "{path.relative_to(PACKAGE).as_posix()}": {dict(sorted(counts.items()))},')
