"""Agent strings: parsing, the agents they build, and one-line errors naming what is allowed."""

from __future__ import annotations

import math

import pytest

import stonefield as sf
from stonefield.agents import agent_string, is_native, parse_agent


def test_bare_names_build_default_agents() -> None:
    assert parse_agent("random") == sf.RandomAgent(seed=0)
    assert parse_agent("mcts") == sf.MCTS(iterations=1000)
    assert parse_agent("  MCTS ") == sf.MCTS(iterations=1000)


def test_every_mcts_setting_is_parsed() -> None:
    agent = parse_agent(
        "mcts:iterations=2000,c=1.0,threads=2,time=0.5,solver=false,seed=7,max_nodes=50000,"
        "reuse=true"
    )
    assert agent == sf.MCTS(
        iterations=2000,
        c=1.0,
        threads=2,
        time=0.5,
        solver=False,
        seed=7,
        max_nodes=50000,
        reuse=True,
    )


def test_time_alone_is_a_time_budget_and_none_removes_a_budget() -> None:
    assert parse_agent("mcts:time=0.25").iterations is None
    assert parse_agent("mcts:time=0.25").time == 0.25
    both = parse_agent("mcts:iterations=none,time=1")
    assert both.iterations is None and both.time == 1.0
    assert parse_agent("mcts:solver=none").solver is None
    assert parse_agent("random:seed=3").seed == 3
    # With neither budget, the default one: as a bare "mcts" and sf.MCTS().
    assert parse_agent("mcts:iterations=none").iterations == 1000


def test_spaces_case_and_dashes_are_forgiven() -> None:
    assert parse_agent("mcts: iterations = 20 , max-nodes=4096").max_nodes == 4096
    assert parse_agent("mcts:solver=False").solver is False


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("alphazero", ['unknown agent "alphazero"', "random, mcts"]),
        ("", ['unknown agent ""', "random, mcts"]),
        ("mcts:iters=5", ['unknown setting "iters"', "iterations, time, c, threads"]),
        ("random:iterations=5", ['unknown setting "iterations"', "random takes seed"]),
        ("mcts:iterations", ['expected key=value, got "iterations"']),
        ("mcts:=3", ['expected key=value, got "=3"']),
        ("mcts:iterations=many", ['iterations must be an integer ≥ 1 or none, got "many"']),
        ("mcts:iterations=1.5", ["iterations must be an integer"]),
        ("mcts:c=x", ['c must be a number ≥ 0, got "x"']),
        ("mcts:solver=maybe", ['solver must be true, false or none, got "maybe"']),
        ("mcts:reuse=1", ['reuse must be true or false, got "1"']),
        ("mcts:seed=1,seed=2", ['setting "seed" is given twice']),
        ("mcts:iterations=0", ["iterations"]),
        ("mcts:threads=0", ["threads"]),
        ("mcts:c=-1", ["c must be"]),
        ("mcts:time=-1", ["time must be"]),
        ("mcts:time=nan", ["time must be"]),
        ("random:seed=-1", ["seed"]),
    ],
)
def test_bad_strings_raise_one_line_errors(text: str, words: list[str]) -> None:
    with pytest.raises(sf.InvalidOptionError) as info:
        parse_agent(text)
    message = str(info.value)
    assert "\n" not in message
    for w in words:
        assert w.lower() in message.lower(), message


def test_non_strings_are_type_errors() -> None:
    with pytest.raises(TypeError):
        parse_agent(3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "random",
        "random:seed=9",
        "mcts",
        "mcts:iterations=250",
        "mcts:time=0.5",
        "mcts:iterations=1000,time=0.5",
        "mcts:iterations=2000,c=1.0,threads=2,solver=false,seed=3,max_nodes=50000,reuse=true",
    ],
)
def test_agent_string_round_trips(text: str) -> None:
    agent = parse_agent(text)
    assert agent_string(agent) == text
    assert parse_agent(agent_string(agent)) == agent


def test_agent_string_of_python_agents() -> None:
    class Greedy:
        def act(self, state: sf.State) -> int:
            return int(state.legal_actions()[0])

    class Named(Greedy):
        name = "first-legal"

    assert agent_string(Greedy()) == "Greedy"
    assert agent_string(Named()) == "first-legal"
    assert not is_native(Greedy())
    assert is_native(sf.RandomAgent()) and is_native(sf.MCTS(iterations=1))


def test_parsed_mcts_plays_legal_moves() -> None:
    state = sf.make("subsume", size=3).new_state()
    agent = parse_agent("mcts:iterations=50,c=0.5")
    assert state.is_legal(agent.act(state))
    assert math.isclose(agent.c, 0.5)


# ---------------------------------------------------------------------------------------------
# puct agent strings


def test_puct_strings_build_the_search_without_root_noise() -> None:
    agent = parse_agent("puct:simulations=64,c=2,batch_size=8,seed=3")
    assert isinstance(agent, sf.PUCT)
    assert (agent.simulations, agent.c, agent.batch_size, agent.seed) == (64, 2.0, 8, 3)
    assert agent.dirichlet_fraction == 0 and agent.evaluator == "rollout"
    assert parse_agent("puct:simulations=8,dirichlet_fraction=0.25").dirichlet_fraction == 0.25
    state = sf.make("subsume", size=3).new_state()
    assert state.is_legal(agent.act(state))


@pytest.mark.parametrize(
    "text",
    ["puct:simulations=200", "puct:simulations=50,c=2.0,seed=4", "puct:simulations=9,batch_size=4"],
)
def test_puct_agent_strings_round_trip(text: str) -> None:
    agent = parse_agent(text)
    assert agent_string(agent) == text
    assert repr(parse_agent(agent_string(agent))) == repr(agent)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("puct:sims=5", ["unknown setting", "simulations"]),
        ("puct:simulations=0", ["simulations"]),
        ("puct:evaluator=net", ["evaluator must be rollout"]),
        ("puct:checkpoint=/nonexistent/x.npz", ["cannot be read", "/nonexistent/x.npz"]),
        ("puct:checkpoint=a.npz,evaluator=x", ["not both"]),
    ],
)
def test_bad_puct_strings(text: str, words: list[str]) -> None:
    with pytest.raises(sf.InvalidOptionError) as e:
        parse_agent(text)
    assert all(w in str(e.value) for w in words) and "\n" not in str(e.value)
