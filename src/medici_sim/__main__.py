"""``python -m medici_sim``: the ``medici-sim`` command."""
from .cli import main

main()
