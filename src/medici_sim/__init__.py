"""medici-sim: a fast Monte Carlo simulator for Reiner Knizia's Medici games."""

__version__ = "0.2.0"

from . import games  # noqa: E402,F401  registers the games
