"""Python agents in compare's tournament (medici_sim.tournament: study.agent_tournament,
core.agent_kernel, frameworks.agents): built-ins alone give compare's tables exactly; a seat
stepped through the engine's stepping interface plays the batch kernel's games; a Python agent
that decides as a built-in does, on the engine's own state, gives that built-in's tables at
every seat; agents' failures are one line naming the agent, the game and the seat; the same seed
gives the same results; the documented example runs."""
from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

import medici_sim
from medici_sim.core.agent_kernel import AgentError, AgentKernel
from medici_sim.core.driver import ConfigError, PreparedRun, seat_strategy
from medici_sim.core.registry import get_game
from medici_sim.core.specs import run_config

ROOT = Path(__file__).resolve().parents[1]
TABLES = ("strategies", "ratings", "head_to_head", "metrics", "strategy_metrics")
LINEUPS = {"card": ["expert", "greedy", "random", "gambler"], "classic": ["expert", "value", "random", "bargain"]}


def same_tables(a, b, renamed: dict[str, str] | None = None) -> None:
    for name in TABLES:
        left, right = getattr(a, name), getattr(b, name)
        if renamed:
            right = right.replace(renamed)
        assert left.equals(right), name


@pytest.mark.parametrize("game", ["card", "classic"])
def test_a_tournament_of_built_ins_alone_gives_compares_tables(game):
    kwargs = {"game": game, "players": [3, 4], "seed": 5, "threads": 1}
    report = medici_sim.tournament(LINEUPS[game], 300, **kwargs)
    same_tables(report, medici_sim.compare(300, strategies=LINEUPS[game], **kwargs))


@pytest.mark.parametrize("game", ["card", "classic"])
def test_games_stepped_through_the_stepping_interface_count_as_the_batch_kernels(game):
    config = run_config(game=game, players=4, strategies=LINEUPS[game], games=1, seed=9, rules=None,
                        seating="rotate", threads=1, components=None)
    stepped, batch = AgentKernel(config, {}).play(40, 60), PreparedRun(config).play(40, 60)
    for name in ("seat", "slot", "pair_stats", "run"):
        assert np.array_equal(getattr(stepped, name), getattr(batch, name)), name


class Replaying:
    """A Python agent that decides as built-in ``strategy`` does, on the engine's own state (its
    scratch row and the game's generator included): the engine's game, whatever the seat."""

    def __init__(self, game: str, strategy: str):
        registry = get_game(game).registry
        self.name = f"python {strategy}"
        self.decisions = [registry[strategy].decisions[d] for d in registry.decisions]
        self.row = seat_strategy(strategy, game).vector()  # its default parameters, as the engine's slot holds them
        self.params = tuple(float(x) for x in self.row)

    def decide(self, decision) -> int:
        state = decision.state
        state["seat_params"][decision.seat] = self.row
        choice = int(self.decisions[decision.decision](state, decision.seat, self.params))
        return decision.view.action_of(decision.decision, choice)


@pytest.mark.parametrize("game", ["card", "classic"])
def test_a_python_agent_deciding_as_a_built_in_plays_the_engines_games_at_every_seat(game):
    """Rotated seating puts the agent at every seat; expert keeps a model of the rivals in its
    scratch row in the classic game, random draws from the game's generator."""
    for replayed in ("expert", "random"):
        lineup = LINEUPS[game][:3]
        agents = [Replaying(game, name) if name == replayed else name for name in lineup]
        kwargs = {"game": game, "players": 3, "seed": 2, "threads": 1}
        report = medici_sim.tournament(agents, 120, **kwargs)
        same_tables(medici_sim.compare(120, strategies=lineup, **kwargs), report,
                    renamed={f"python {replayed}": replayed})


def test_an_illegal_answer_or_an_exception_is_one_line_naming_the_agent_the_game_and_the_seat():
    def failing(observation, legal_actions):
        raise RuntimeError("no policy loaded\nsecond line")

    with pytest.raises(AgentError, match=r"^agent cheat answered 99 in game 0 at seat 2: not a legal action "
                                         r"\(legal: 0, 1\)$") as caught:
        medici_sim.tournament({"expert": "expert", "cheat": lambda observation, legal: 99}, 8, game="card",
                              players=2)
    assert (caught.value.agent, caught.value.game, caught.value.seat) == ("cheat", 0, 2)
    with pytest.raises(AgentError, match=r"^agent failing raised RuntimeError: no policy loaded in game 0 at seat "
                                         r"2$") as caught:
        medici_sim.tournament(["expert", failing], 8, game="card", players=2)
    assert isinstance(caught.value.__cause__, RuntimeError)
    with pytest.raises(AgentError, match="answered True"):  # a bool is not an action id
        medici_sim.tournament(["expert", lambda observation, legal: True], 8, game="card", players=2)


class Widening:
    """An agent that makes its own answer legal in the decision it was handed."""

    name = "widening"

    def decide(self, decision):
        decision.legal_actions.append(99)
        return 99


def test_an_agent_cannot_make_its_answer_legal_by_changing_what_it_was_handed():
    def widening(observation, legal_actions):
        legal_actions.append(99)
        return 99

    for agent in (widening, Widening()):  # it was 'not a legal choice at this decision', naming no agent
        with pytest.raises(AgentError, match=r"^agent widening answered 99 in game 0 at seat 2: not a legal action"):
            medici_sim.tournament(["expert", agent], 8, game="card", players=2)


def test_bad_entries_are_refused_before_any_game():
    with pytest.raises(ConfigError, match="agents=: two entries are named most"):
        medici_sim.tournament(["expert", most, most], 8, game="card", players=3)
    with pytest.raises(ConfigError, match=r"agents=: agent 3 \(int\) is neither a callable"):
        medici_sim.tournament({"expert": "expert", "3": 3}, 8, game="card", players=2)
    with pytest.raises(ConfigError, match="agents=: each name of the mapping must be a non-empty str, got 3"):
        medici_sim.tournament({"expert": "expert", 3: most}, 8, game="card", players=2)

    class Bot:  # an OpenSpiel bot's shape, unadapted
        def step(self, state):
            return 0

    with pytest.raises(ConfigError, match="an OpenSpiel bot sits through medici_sim.frameworks.agents.openspiel_agent"):
        medici_sim.tournament(["expert", Bot()], 8, game="card", players=2)
    with pytest.raises(ConfigError, match="unknown strategy 'nobody'"):
        medici_sim.tournament(["expert", "nobody", most], 8, game="card", players=3)
    with pytest.raises(ConfigError, match="compare needs at least two different strategies"):
        medici_sim.tournament([most], 8, game="card", players=3)


def most(observation, legal_actions):
    return legal_actions[-1]


class Seeded:
    """A random agent seeded by what reset tells it; it records what it was told."""

    name = "seeded"

    def __init__(self):
        self.starts = []

    def reset(self, start):
        self.starts.append(start)
        self.rng = np.random.default_rng([start.seed, start.game_index, start.seat])

    def __call__(self, observation, legal_actions):
        assert observation.dtype == np.float32 and legal_actions == sorted(legal_actions)
        return int(self.rng.choice(legal_actions))


def test_the_same_seed_gives_the_same_results_and_the_agent_is_told_its_seat_game_and_seed():
    def play(seed):
        agent = Seeded()
        report = medici_sim.tournament(["expert", "value", agent], 60, game="classic", players=3, seed=seed,
                                       threads=2)
        return report, agent.starts

    (first, starts), (again, _), (other, _) = play(4), play(4), play(5)
    same_tables(first, again)
    assert not first.strategies.equals(other.strategies)
    assert [s.game_index for s in starts] == list(range(60))  # one lineup: games 0..59 of its block
    assert {s.seat for s in starts} == {0, 1, 2} and {s.seed for s in starts} == {4}  # rotated through the seats
    assert (starts[0].game, starts[0].players, starts[0].rules) == ("classic", 3, "standard")


def test_a_pettingzoo_style_policy_and_a_plain_callable_are_the_same_agent():
    from medici_sim.frameworks.agents import pettingzoo_agent

    def policy(observation):
        return int(np.flatnonzero(observation["action_mask"])[-1])

    kwargs = {"game": "card", "players": 3, "seed": 1}
    plain = medici_sim.tournament(["expert", "greedy", most], 90, **kwargs)
    adapted = medici_sim.tournament(["expert", "greedy", pettingzoo_agent(policy, name="most")], 90, **kwargs)
    same_tables(plain, adapted)


def test_an_agents_mask_covers_every_action_id_of_the_rules_in_force():
    """With 500 florins to start and majorities paying 60/30 (C4, C15) a seat can bid more than
    the rulebook's most money: the mask a policy is handed spans the environments' action ids
    under these rules, the highest bids included."""
    from medici_sim.frameworks.agents import pettingzoo_agent
    from medici_sim.pettingzoo import seat_env

    rules = "starting_money=500,majority_payouts=60/30"
    sizes, bids = set(), []

    def policy(observation):  # passes (or offers the lot) until it may bid above 580, then bids all it holds
        sizes.add(len(observation["action_mask"]))
        legal = np.flatnonzero(observation["action_mask"])
        bids.append(int(legal[-1]))
        return bids[-1] if bids[-1] > 2 + 580 else int(legal[0])

    medici_sim.tournament(["expert", "value", pettingzoo_agent(policy, name="all in")], 6, game="classic", players=3,
                          rules=rules, seed=2)
    assert sizes == {seat_env(game="classic", players=3, rules=rules).action_space.n} and max(bids) > 2 + 580


def test_an_openspiel_bot_sits_in_the_tournament_in_one_line():
    pytest.importorskip("pyspiel")
    from medici_sim.frameworks.agents import openspiel_agent
    from medici_sim.openspiel import BuiltinBot

    kwargs = {"game": "card", "players": 3, "seed": 3}
    bot = openspiel_agent(lambda spiel_game: BuiltinBot(spiel_game, 0, "greedy"), name="greedy bot")
    report = medici_sim.tournament(["expert", "random", bot], 60, **kwargs)
    # greedy keeps nothing between decisions: the bot plays the engine's greedy exactly
    same_tables(medici_sim.compare(60, strategies=["expert", "random", "greedy"], **kwargs), report,
                renamed={"greedy bot": "greedy"})


class Watching:
    """An OpenSpiel bot factory whose bots are built-in ``spec`` and keep every state handed them."""

    def __init__(self, spec: str):
        self.spec, self.seen = spec, []

    def __call__(self, spiel_game):
        from medici_sim.openspiel import BuiltinBot

        watcher = self

        class Bot(BuiltinBot):
            def step(self, state):
                watcher.seen.append((state.move_number(), state.history(), state.stepped.from_run, state.clone()))
                return super().step(state)

        return Bot(spiel_game, 0, self.spec)


@pytest.mark.parametrize("game", ["card", pytest.param("classic", marks=pytest.mark.slow)])  # classic's: whole suite
def test_an_openspiel_bot_is_handed_the_whole_game_and_a_bridged_expert_gives_experts_tables(game):
    """openspiel_agent hands its bot the game as an OpenSpiel state with its whole history (move
    number, every move, chance outcomes included), played on a copy of the run's game; what the
    bot writes there stays through the game, so the built-in expert as an OpenSpiel bot (the
    classic expert's model of its rivals' bids in its scratch row) gives expert's own tables at
    every seat, and random (whose draws from the game's generator do not move the run's game)
    random's, beside another Python agent."""
    pytest.importorskip("pyspiel")
    from medici_sim.frameworks.agents import openspiel_agent
    from medici_sim.openspiel import state_from_text, state_to_text

    lineup = LINEUPS[game][:3]
    kwargs = {"game": game, "players": 3, "seed": 4, "threads": 1}
    watched = Watching("expert")
    expert = openspiel_agent(watched, name="expert bot")
    report = medici_sim.tournament([expert, Replaying(game, lineup[1]), lineup[2]], 24, **kwargs)
    same_tables(medici_sim.compare(24, strategies=lineup, **kwargs), report,
                renamed={"expert bot": "expert", f"python {lineup[1]}": lineup[1]})
    assert watched.seen and not any(from_run for _, _, from_run, _ in watched.seen)
    number, history, _, state = watched.seen[-1]
    assert number == len(history) > 20 and state_from_text(state_to_text(state)).history() == history
    random_bot = openspiel_agent(Watching("random"), name="random bot")
    report = medici_sim.tournament([lineup[0], lineup[1], random_bot], 24, **kwargs)
    same_tables(medici_sim.compare(24, strategies=lineup, **kwargs), report, renamed={"random bot": "random"})


def test_the_documented_example_runs(capsys):
    runpy.run_path(str(ROOT / "docs" / "examples" / "agent_tournament.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "coin" in out and "most" in out and "AgentError: agent cheat answered 99 in game 0 at seat 2" in out


@pytest.mark.slow  # thousands of an agent's games, twice (8 s)
def test_memory_stays_flat_however_many_games_an_agent_plays():
    import tracemalloc

    from medici_sim.core.agent_kernel import SeatedAgent

    config = run_config(game="card", players=3, strategies=["expert", "greedy", "random"], games=1, seed=1,
                        rules=None, seating="rotate", threads=1, components=None)
    kernel = AgentKernel(config, {2: SeatedAgent("most", most)})
    kernel.play(0, 20)  # compiled and warm
    peaks = []
    for games in (50, 400):
        tracemalloc.start()
        kernel.play(0, games)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < peaks[0] + 200_000  # a game's buffer and the totals, not a record per game
