"""The native search agents of stonefield._core: MCTS, RandomAgent, SearchResult, play_games and
selfplay_games (settings, errors, shapes and dtypes, determinism, pickling, docstrings)."""

from __future__ import annotations

import doctest
import os
import pickle
import signal
import threading
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield import _core


def small(name: str) -> sf.Game:
    sizes: dict[str, dict[str, Any]] = {
        "smallholder": {"board": "hex3"},
        "windflowers": {"size": 3},
        "faraday": {"order": 3},
        "subsume": {"size": 3},
    }
    return sf.make(name, **sizes[name])


def finished(game: sf.Game) -> sf.State:
    state = game.new_state()
    seed = 0
    while not state.is_terminal():
        action = state.random_action(seed)
        assert action is not None
        state.apply(action)
        seed += 1
    return state


@pytest.mark.parametrize(
    "obj",
    [
        _core.MCTS,
        _core.MCTS.with_seed,
        _core.RandomAgent,
        _core.RandomAgent.with_seed,
        _core.SearchResult,
        _core.play_games,
        _core.selfplay_games,
    ],
)
def test_docstring_examples_run(obj: Any) -> None:
    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(obj, obj.__name__, globs={})
    assert tests and tests[0].examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", sf.games())
def test_act_and_analyse(name: str) -> None:
    state = small(name).new_state()
    before = state.history
    agent = sf.MCTS(iterations=200, seed=3)
    res = agent.analyse(state)
    assert state.history == before
    assert res.best == agent.act(state)
    assert bool(state.is_legal(res.best))
    legal = state.legal_actions()
    assert res.actions.dtype == np.int64 and np.array_equal(res.actions, legal)
    assert res.visits.dtype == np.int64 and int(res.visits.sum()) == 200
    assert res.values.dtype == np.float64 and res.values.shape == legal.shape
    assert res.policy.dtype == np.float64 and res.policy.shape == (state.game.num_actions,)
    assert res.policy.sum() == pytest.approx(1.0)
    assert res.iterations == 200 and res.nodes >= 1 + len(legal)
    assert res.stopped_by in ("iterations", "proven")
    assert res.pv[0] == res.best and all(isinstance(a, int) for a in res.pv)
    assert -1.0 <= res.value <= 1.0
    assert res.proven in (None, -1, 0, 1)
    assert "SearchResult(best=" in repr(res)
    assert bool(state.is_legal(sf.RandomAgent(seed=1).act(state)))


def test_same_seed_same_move_and_threads() -> None:
    state = sf.make("windflowers").new_state()
    for threads in (1, 2):
        a = sf.MCTS(iterations=500, seed=5, threads=threads).analyse(state)
        b = sf.MCTS(iterations=500, seed=5, threads=threads).analyse(state)
        assert a.best == b.best
        assert np.array_equal(a.visits, b.visits)


@pytest.mark.timing
def test_limits_are_reported() -> None:
    state = sf.make("subsume").new_state()
    res = sf.MCTS(iterations=10**6, max_nodes=2048).analyse(state)
    assert res.stopped_by == "nodes" and res.nodes <= 2048
    res = sf.MCTS(time=0.02).analyse(state)
    assert res.stopped_by == "time" and res.iterations > 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"iterations": 0},
        {"iterations": -5},
        {"iterations": True},
        {"iterations": 2.5},
        {"iterations": "100"},
        {"iterations": 2**80},
        {"time": 0},
        {"time": -1.0},
        {"time": float("nan")},
        {"time": True},
        {"iterations": 10, "c": -0.1},
        {"iterations": 10, "c": float("inf")},
        {"iterations": 10, "c": "big"},
        {"iterations": 10, "threads": 0},
        {"iterations": 10, "threads": 257},
        {"iterations": 10, "threads": False},
        {"iterations": 10, "seed": -1},
        {"iterations": 10, "seed": 2**64},
        {"iterations": 10, "seed": True},
        {"iterations": 10, "solver": 1},
        {"iterations": 10, "reuse": "yes"},
        {"iterations": 10, "max_nodes": 10},
        {"iterations": 10, "max_nodes": -1},
        {"iterations": 10, "max_nodes": 2000, "threads": 2},
    ],
)
def test_bad_settings_raise_invalid_option(kwargs: dict[str, Any]) -> None:
    with pytest.raises(sf.InvalidOptionError):
        sf.MCTS(**kwargs)


def test_numpy_integers_are_accepted() -> None:
    agent = sf.MCTS(iterations=np.int64(10), seed=np.uint64(3), threads=np.int32(1))
    assert agent.iterations == 10 and agent.seed == 3
    assert sf.MCTS(iterations=10, seed=2**64 - 1).seed == 2**64 - 1


def test_random_agent_settings() -> None:
    for bad in (-1, True, 1.0, "0", 2**64):
        with pytest.raises(sf.InvalidOptionError):
            sf.RandomAgent(seed=bad)


def test_finished_games_and_wrong_states() -> None:
    state = finished(small("subsume"))
    with pytest.raises(sf.GameOverError):
        sf.MCTS(iterations=10).act(state)
    with pytest.raises(sf.GameOverError):
        sf.MCTS(iterations=10).analyse(state)
    with pytest.raises(sf.GameOverError):
        sf.RandomAgent().act(state)
    with pytest.raises(TypeError):
        sf.MCTS(iterations=10).act(sf.make("subsume"))  # type: ignore[arg-type]


def test_agents_pickle_and_repr() -> None:
    agent = sf.MCTS(iterations=300, time=1.5, c=0.5, threads=2, solver=False, seed=9, reuse=True)
    copy = pickle.loads(pickle.dumps(agent))
    assert copy == agent and repr(copy) == repr(agent) and hash(copy) == hash(agent)
    assert agent != sf.MCTS(iterations=300)
    assert (copy.iterations, copy.time, copy.c, copy.threads) == (300, 1.5, 0.5, 2)
    assert (copy.solver, copy.seed, copy.reuse) == (False, 9, True)
    assert eval(repr(agent), {"MCTS": sf.MCTS}) == agent
    rnd = sf.RandomAgent(seed=4)
    assert pickle.loads(pickle.dumps(rnd)) == rnd
    assert repr(rnd) == "RandomAgent(seed=4)"


def test_reuse_carries_statistics_to_the_next_move() -> None:
    state = sf.make("windflowers").new_state()
    agent = sf.MCTS(iterations=1000, seed=2, reuse=True)
    first = agent.analyse(state)
    state.apply(first.pv[0])
    state.apply(first.pv[1])
    second = agent.analyse(state)
    assert second.iterations == 1000 and int(second.visits.sum()) > 1000
    agent.reset()
    assert int(agent.analyse(state).visits.sum()) == 1000


def test_play_games_outputs() -> None:
    game = small("windflowers")
    agents = [sf.MCTS(iterations=40, seed=1), sf.RandomAgent(seed=2)]
    seats = np.array([[0, 1], [1, 0], [0, 1], [1, 0]])
    out = _core.play_games(game, agents, seats, 3)
    offsets = out["offsets"]
    assert offsets.dtype == np.int64 and offsets.shape == (5,) and offsets[0] == 0
    assert out["actions"].dtype == np.uint32 and len(out["actions"]) == offsets[-1]
    assert out["movers"].dtype == np.int8 and out["values"].dtype == np.float32
    assert out["returns"].dtype == np.float64 and out["returns"].shape == (4, 2)
    assert out["ranks"].shape == (4, 2) and out["truncated"].dtype == np.bool_
    assert out["scores"] is None or out["scores"].shape == (4, 2)
    for i in range(4):
        state = game.new_state()
        lo, hi = offsets[i], offsets[i + 1]
        for action, mover, value in zip(
            out["actions"][lo:hi], out["movers"][lo:hi], out["values"][lo:hi], strict=True
        ):
            assert state.current_player == mover
            assert np.isnan(value) == (seats[i, mover] == 1)
            state.apply(int(action))
        assert state.is_terminal()
        assert np.array_equal(state.returns(), out["returns"][i])
    again = _core.play_games(game, agents, seats.tolist(), 3, threads=1)
    assert np.array_equal(again["actions"], out["actions"])


@pytest.mark.parametrize(
    ("agents", "seats", "seed", "error"),
    [
        ([sf.RandomAgent()], [[0, 1]], 0, sf.InvalidOptionError),
        ([sf.RandomAgent()], [[0, 0, 0]], 0, sf.InvalidOptionError),
        ([sf.RandomAgent()], [[0, -1]], 0, sf.InvalidOptionError),
        ([], np.zeros((1, 2), dtype=np.int64), 0, sf.InvalidOptionError),
        ([sf.RandomAgent()], [[0.5, 0.0]], 0, TypeError),
        ([sf.RandomAgent()], [[0, 0]], -1, sf.InvalidOptionError),
        ([sf.RandomAgent()], [[0, 0]], True, sf.InvalidOptionError),
        (["random"], [[0, 0]], 0, TypeError),
    ],
)
def test_play_games_bad_input(agents: Any, seats: Any, seed: Any, error: type) -> None:
    with pytest.raises(error):
        _core.play_games(small("subsume"), agents, seats, seed)


def test_play_games_bad_threads() -> None:
    for threads in (0, -1, True):
        with pytest.raises(sf.InvalidOptionError):
            _core.play_games(small("subsume"), [sf.RandomAgent()], [[0, 0]], 0, threads=threads)


def test_selfplay_outputs() -> None:
    game = small("subsume")
    d = _core.selfplay_games(game, sf.MCTS(iterations=30, seed=1), 3, 4, 2)
    n = len(d["players"])
    planes, sites = game.observation_shape
    assert d["observations"].dtype == np.float32
    assert d["observations"].shape == (n, planes, sites)
    assert d["policies"].dtype == np.float32 and d["policies"].shape == (n, game.num_actions)
    assert np.allclose(d["policies"].sum(axis=1), 1.0, atol=1e-5)
    assert d["players"].dtype == np.int8
    assert d["returns"].dtype == np.float32 and d["returns"].shape == (n, 2)
    assert d["game_index"].dtype == np.uint32
    assert np.array_equal(np.unique(d["game_index"]), [0, 1, 2])
    assert d["offsets"].shape == (4,) and d["offsets"][-1] == n
    state = game.new_state()
    for k in range(d["offsets"][1]):
        assert np.array_equal(state.observation(), d["observations"][k])
        assert state.current_player == d["players"][k]
        state.apply(int(d["actions"][k]))
    assert np.array_equal(state.returns(), d["returns"][0])
    again = _core.selfplay_games(game, sf.MCTS(iterations=30, seed=1), 3, 4, 2, threads=1)
    assert np.array_equal(again["actions"], d["actions"])


def test_selfplay_bad_input() -> None:
    game = small("subsume")
    with pytest.raises(TypeError):
        _core.selfplay_games(game, sf.RandomAgent(), 1, 0, 0)  # type: ignore[arg-type]
    for games, seed, temperature in ((-1, 0, 0), (1, -1, 0), (1, 0, -2), (True, 0, 0)):
        with pytest.raises(sf.InvalidOptionError):
            _core.selfplay_games(game, sf.MCTS(iterations=5), games, seed, temperature)


@pytest.mark.timing
def test_ctrl_c_stops_a_long_search() -> None:
    state = sf.make("windflowers").new_state()
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            sf.MCTS(time=30.0).act(state)
    finally:
        timer.cancel()
    # The agent is usable afterwards.
    assert bool(state.is_legal(sf.MCTS(iterations=50).act(state)))


def test_a_forced_move_is_played_under_a_time_budget(forced_state: sf.State) -> None:
    only = int(forced_state.legal_actions()[0])
    assert sf.MCTS(time=0.05, seed=1).act(forced_state) == only
    res = sf.MCTS(time=0.05, seed=1).analyse(forced_state)
    assert res.best == only and res.stopped_by in ("time", "proven")
    assert sf.MCTS(iterations=100, seed=1).act(forced_state) == only
