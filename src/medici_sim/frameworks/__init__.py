"""medici-sim's games in the game-AI frameworks: OpenSpiel games, PettingZoo and Gymnasium
environments, all stepping the jitted engine (``stepper``). Their front doors are
``medici_sim.openspiel`` and ``medici_sim.pettingzoo``; each needs an optional extra."""


def needs(module: str, extra: str, front_door: str) -> None:
    """Import ``module``, or raise ImportError in one line naming the extra that installs it."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        raise ImportError(f"{front_door} needs the {extra} extra: pip install 'medici-sim[{extra}]'") from None
