"""The ``medici-sim`` command line: one module per command, shared parts in ``common``."""
from .main import cli, main

__all__ = ["cli", "main"]
