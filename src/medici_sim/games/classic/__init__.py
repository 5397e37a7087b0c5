"""Medici, the 1995 auction game ("classic"): rules data, reference engine and jitted engine."""
