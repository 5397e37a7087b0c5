"""The benchmark scripts start and know the games (they are run by hand, not timed here:
speed is measured by benchmarks/, never by tests)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"


@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_a_benchmark_starts_and_offers_every_game(script):
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), "--help"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    if "--game {" in done.stdout:  # the games offered are the registry's: empty if none registered
        assert "--game {card,classic}" in done.stdout, done.stdout
