"""What both Medici games declare to the studies (core.contract.StudyPolicy): the same ladder of
players (random, the heuristics, ``search`` at growing budgets, ``strong`` trained on ``expert``'s
games) and the same shipped files (search's tuned parameters, strong's learned weights)."""
from __future__ import annotations

from pathlib import Path

from ...core.contract import StudyPolicy

# the toolkit's sources, compiled into both games' kernels (strong's evaluation, the day loop): hashed into
# their strategy tables like the shipped files (core.dispatch), as the game's own package is
TOOLKIT = tuple(sorted(Path(__file__).parent.glob("*.py")))


def medici_study(search, strong, **balance) -> StudyPolicy:
    """The study policy of a Medici game whose strategies' modules are ``search`` and ``strong``;
    ``balance``: its ``balance_rules`` or its ``no_balance``."""
    return StudyPolicy(
        **balance,
        weakest="random",
        searcher="search",
        strongest="strong",
        teacher="expert",
        rollout_policy=search.ROLLOUT_POLICY,
        tuned_file=search.TUNED_FILE,
        learned=lambda: strong,
        kernel_data=(search.TUNED_FILE, strong.WEIGHTS_FILE, *TOOLKIT),
    )
