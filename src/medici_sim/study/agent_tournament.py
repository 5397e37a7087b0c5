"""A tournament of any mix of built-in strategies and Python agents (``medici_sim.tournament``).

It is compare's tournament (study.tournament, study.studies) with some entries Python
agents (core.agent_kernel): the same lineups, rotated through the seats in the same blocks of
game indices, counted into the same totals and turned into the same tables (per strategy,
Bradley-Terry ratings, head to head, the designer metrics). A lineup of built-ins alone plays
in the batch kernel exactly as in compare, so a tournament of built-ins alone gives compare's
tables for the same seed; a lineup with an agent plays on one thread, the engine stopping at
the agent's decisions and playing every other seat itself.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..core.agent_kernel import AgentKernel, SeatedAgent, stepping_parts
from ..core.arguments import ConfigError, named
from ..core.driver import RunConfig, SeatStrategy
from ..core.registry import Game
from ..core.specs import game_named, parse_strategy_list
from .studies import Study, new_study, plan
from .tournament import Tournament


@dataclass(frozen=True)
class AgentSeat(SeatStrategy):
    """A Python agent's slot in a lineup. ``name`` is a strategy of the tournament's kernel that
    never decides (the slot is an EXTERNAL seat): it only gives the run a valid strategy there."""

    agent_name: str = ""
    agent: SeatedAgent | None = field(default=None, compare=False, hash=False, repr=False)

    @property
    def label(self) -> str:
        return self.agent_name


class AgentTournament(Tournament):
    """A compare tournament whose lineups may hold Python agents (``AgentSeat``)."""

    def _config(self, k: int, lineup: tuple[SeatStrategy, ...]) -> RunConfig:
        config = super()._config(k, lineup)
        return replace(config, threads=1) if _agents(lineup) else config

    def _kernel(self, k: int, config: RunConfig):
        agents = _agents(self.lineups[k])
        if not agents:
            return super()._kernel(k, config)
        if self.follower is not None:
            raise ConfigError("a tournament with Python agents plays one rule set")
        return AgentKernel(config, agents)


def _agents(lineup: tuple[SeatStrategy, ...]) -> dict[int, SeatedAgent]:
    return {slot: s.agent for slot, s in enumerate(lineup) if isinstance(s, AgentSeat)}


def agent_name(agent) -> str:
    """An agent's name in the tables: its ``name`` attribute, else its function's or class's name."""
    name = getattr(agent, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(agent, "__name__", None) or type(agent).__name__


def entries(game: Game, agents) -> tuple[SeatStrategy, ...]:
    """The tournament's entries: built-ins (or plug-ins) named as compare's ``strategies`` are,
    and Python agents, in the order given. ``agents``: a list of names and agents, or a mapping
    of names to agents (or to built-in names, whose parameters the name then labels)."""
    items = list(agents.items()) if isinstance(agents, Mapping) else [(None, a) for a in _sequence(agents)]
    for label, _ in items:
        if label is not None and (not isinstance(label, str) or not label.strip()):
            raise ConfigError(f"{named('agents')}: each name of the mapping must be a non-empty str, got {label!r}")
    built_in = [(label, a) for label, a in items if isinstance(a, str)]
    placeholder = (parse_strategy_list(built_in[0][1], game.name, "agents")[0].name if built_in
                   else game.built_ins[0])
    out: list[SeatStrategy] = []
    for label, agent in items:
        if isinstance(agent, str):
            slots = parse_strategy_list(agent, game.name, "agents")
            if label is not None and len(slots) == 1 and label != slots[0].label:
                raise ConfigError(f"{named('agents')}: {label!r} names {agent!r}; name a built-in by its own name")
            out.extend(slots)
        else:
            name = label if label is not None else agent_name(agent)
            out.append(AgentSeat(placeholder, (), game.name, name, SeatedAgent(name, agent)))
    labels = [s.label for s in out]
    repeated = sorted({x for x in labels if labels.count(x) > 1})
    if repeated:
        raise ConfigError(f"{named('agents')}: two entries are named {repeated[0]}; give each its own name (a mapping "
                          "of names to agents, or the agent's name attribute)")
    if any(isinstance(s, AgentSeat) for s in out):
        stepping_parts(game)  # a game that cannot seat agents says so before any game
    return tuple(out)


def _sequence(agents) -> list:
    if isinstance(agents, str):
        return [agents]
    if not isinstance(agents, Sequence):
        raise ConfigError(f"{named('agents')} must be a list of strategy names and agents, or a mapping of names to "
                          f"them, got {type(agents).__name__}")
    return list(agents)


def agent_study(agents, *, game: str | None, players, rules: str | None, seed: int, components, games: int,
                precision: float | None, threads: int | None) -> tuple[Study, list[Tournament]]:
    """The tournament as a compare study (every argument checked) and its tournaments, one per
    player count, numbered as compare numbers them (the same game indices)."""
    definition = game_named(game)
    study = new_study(game=definition.name, players=players, strategies=definition.built_ins, rules=rules,
                      seed=seed, components=components, games=games, precision=precision, threads=threads, tuned=None)
    study = replace(study, strategies=entries(definition, agents))
    study.check("compare")
    return study, plan(study, "compare", AgentTournament)
