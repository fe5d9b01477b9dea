"""sf.PUCT's time budget and root parallelisation (``time=``, ``threads=``).

A time-bounded search stops in the right order of magnitude (never a tight timing), a seeded
search with a simulation budget is the same on every run whatever its thread count says, the
agent strings round-trip, and bad values are refused with what is allowed.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

import stonefield as sf
from stonefield._core import puct_play_games, puct_selfplay_games
from stonefield.agents import agent_string, parse_agent, rebuilt

GAME = sf.make("subsume", size=4)


def _uniform(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return mask.astype(np.float32), np.zeros((len(obs), 2), np.float32)


def test_a_time_budget_alone_stops_the_search_by_the_clock() -> None:
    agent = sf.PUCT(time=0.05, seed=1)
    assert agent.simulations is None and agent.time == 0.05
    start = time.perf_counter()
    result = agent.analyse(GAME.new_state())
    elapsed = time.perf_counter() - start
    assert result.stopped_by == "time"
    assert int(result.visits.sum()) == result.iterations > 0
    # The order of magnitude only: well under a second, not instantly.
    assert 0.02 < elapsed < 2.0


def test_the_first_budget_reached_stops_the_search() -> None:
    few = sf.PUCT(simulations=20, time=30.0, seed=1).analyse(GAME.new_state())
    assert few.stopped_by == "iterations" and int(few.visits.sum()) == 20
    many = sf.PUCT(simulations=10**9, time=0.05, seed=1).analyse(GAME.new_state())
    assert many.stopped_by == "time" and 0 < int(many.visits.sum()) < 10**9


def test_threads_sum_the_visits_of_independent_trees_and_are_seeded() -> None:
    state = GAME.new_state()
    one = sf.PUCT(simulations=200, seed=3).analyse(state)
    two = sf.PUCT(simulations=200, threads=2, seed=3).analyse(state)
    again = sf.PUCT(simulations=200, threads=2, seed=3).analyse(state)
    assert int(two.visits.sum()) == 200
    np.testing.assert_array_equal(two.visits, again.visits)
    assert two.best == again.best
    # Two trees of 100 simulations are not one tree of 200.
    assert not np.array_equal(one.visits, two.visits)


def test_threads_with_a_time_budget() -> None:
    result = sf.PUCT(time=0.05, threads=2, seed=1).analyse(GAME.new_state())
    assert result.stopped_by == "time" and int(result.visits.sum()) > 0


def test_time_and_threads_in_matches_and_selfplay() -> None:
    agents = [sf.PUCT(time=0.005, threads=2, seed=1), sf.PUCT(time=0.005, seed=2)]
    small = sf.make("subsume", size=3)
    out = puct_play_games(small, agents, np.array([[0, 1], [1, 0]]), 7)
    assert out["returns"].shape == (2, 2)
    d = puct_selfplay_games(small, sf.PUCT(simulations=16, threads=2), 2, 5, 2)
    assert d["policies"].shape[0] > 0
    same = puct_selfplay_games(small, sf.PUCT(simulations=16, threads=2), 2, 5, 2)
    np.testing.assert_array_equal(d["policies"], same["policies"])


def test_agent_strings_round_trip() -> None:
    agent = parse_agent("puct:time=0.1,threads=2")
    assert (agent.simulations, agent.time, agent.threads) == (None, 0.1, 2)
    assert agent_string(agent) == "puct:time=0.1,threads=2"
    both = parse_agent("puct:simulations=300,time=0.5")
    assert agent_string(both) == "puct:simulations=300,time=0.5"
    assert agent_string(parse_agent(agent_string(both))) == agent_string(both)
    assert "time=0.1, threads=2" in repr(agent)
    assert rebuilt(agent, threads=3).threads == 3 and rebuilt(agent, threads=3).time == 0.1


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"time": 0}, "time must be a finite number > 0"),
        ({"time": -1.0}, "time must be a finite number > 0"),
        ({"time": float("nan")}, "time must be a finite number > 0"),
        ({"time": float("inf")}, "time must be a finite number > 0"),
        ({"threads": 0}, "threads must be"),
        ({"threads": 257}, "threads must be"),
        ({"threads": 1.5}, "threads must be"),
    ],
)
def test_bad_values_are_refused(settings: dict[str, object], words: str) -> None:
    with pytest.raises(sf.InvalidOptionError, match=words):
        sf.PUCT(**settings)  # type: ignore[arg-type]


def test_bad_values_in_agent_strings_are_refused() -> None:
    with pytest.raises(sf.InvalidOptionError, match="seconds > 0"):
        parse_agent("puct:time=soon")
    with pytest.raises(sf.InvalidOptionError, match="threads must be"):
        parse_agent("puct:threads=0")


def test_a_python_evaluator_runs_on_one_thread() -> None:
    with pytest.raises(sf.InvalidOptionError, match="native evaluation"):
        sf.PUCT(_uniform, threads=2)
    # One thread is fine, with a time budget too.
    result = sf.PUCT(_uniform, time=0.02, batch_size=8).analyse(GAME.new_state())
    assert result.stopped_by == "time"
