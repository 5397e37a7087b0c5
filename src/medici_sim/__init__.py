"""medici-sim: a fast Monte Carlo simulator for Medici: The Card Game."""

__version__ = "0.1.0"
