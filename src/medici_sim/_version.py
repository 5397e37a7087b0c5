"""The package's version (its own module: the checkpoint envelope records it, and nothing it
imports may import the package root)."""

__version__ = "0.2.0"
