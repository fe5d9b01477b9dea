"""sf.PUCT: the network-guided search with a Python evaluator.

The evaluator is called with the documented shapes and dtypes; what it returns is checked
(a typed EvaluatorError naming what was expected and what came back, nothing half-done); an
exception it raises comes through; a seed gives the same search; Ctrl-C stops a search and a
batched self-play run.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

import numpy as np
import pytest

import stonefield as sf

GAME = sf.make("subsume", size=3)


class Recorder:
    """An evaluator of uniform priors and zero values that records every call."""

    def __init__(self, players: int = 2) -> None:
        self.players = players
        self.calls: list[tuple[Any, Any]] = []

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.calls.append((obs.copy(), mask.copy()))
        return mask.astype(np.float32), np.zeros((len(obs), self.players), np.float32)


def _uniform(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return mask.astype(np.float32), np.zeros((len(obs), 2), np.float32)


def test_the_evaluator_gets_the_documented_shapes_and_dtypes() -> None:
    state = GAME.new_state()
    ev = Recorder()
    res = sf.PUCT(ev, simulations=100, batch_size=8, seed=0).analyse(state)
    planes, sites = GAME.observation_shape
    assert ev.calls
    for obs, mask in ev.calls:
        assert obs.dtype == np.float32 and obs.ndim == 3 and obs.shape[1:] == (planes, sites)
        assert mask.dtype == np.bool_ and mask.shape == (len(obs), GAME.num_actions)
        assert 1 <= len(obs) <= 8
    # The first call is the root: its observation and mask are the state's.
    obs, mask = ev.calls[0]
    assert len(obs) == 1
    assert np.array_equal(obs[0], state.observation())
    assert np.array_equal(mask[0], state.legal_mask())
    assert int(res.visits.sum()) == 100 and res.iterations == 100
    assert res.policy.shape == (GAME.num_actions,) and abs(res.policy.sum() - 1) < 1e-9


@pytest.mark.parametrize("batch_size", [1, 3, 32, 1000])
def test_visits_add_up_to_the_simulations(batch_size: int) -> None:
    state = GAME.new_state()
    for agent in (
        sf.PUCT(simulations=77, batch_size=batch_size),
        sf.PUCT(_uniform, simulations=77, batch_size=batch_size),
    ):
        res = agent.analyse(state)
        assert int(res.visits.sum()) == 77
        assert np.all(np.abs(res.values) <= 1)


def test_uniform_priors_and_rollouts_find_the_winning_ring() -> None:
    # Subsume size 3, Blue to move: 15 closes a ring that wins at once (see
    # src/search/tests.rs, takes_a_win_at_once); UCT finds it too.
    state = GAME.new_state()
    for a in [18, 8, 13, 2, 6, 11, 1, 17, 4]:
        state.apply(a)
    puct = sf.PUCT(simulations=2000, dirichlet_fraction=0, seed=1).analyse(state)
    uct = sf.MCTS(iterations=2000, solver=False, seed=1).analyse(state)
    assert puct.best == uct.best == 15
    assert puct.pv[0] == 15


def test_priors_steer_the_search_and_values_are_per_player() -> None:
    state = GAME.new_state()

    def on_seven(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = np.zeros(mask.shape, np.float32)
        p[:, 7] = 1.0
        return p, np.zeros((len(obs), 2), np.float32)

    assert sf.PUCT(on_seven, simulations=100, dirichlet_fraction=0).act(state) == 7

    def sides(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return mask.astype(np.float32), np.tile(np.float32([0.5, -0.5]), (len(obs), 1))

    # Entry 0 is the value of the player to move at the leaf (the observation's frame): five
    # simulations end at five root children, where the opponent moves, so the root's mover
    # sees -0.5.
    res = sf.PUCT(sides, simulations=5, batch_size=1, dirichlet_fraction=0).analyse(state)
    assert res.value == pytest.approx(-0.5)


def _returning(priors: Any, values: Any) -> Any:
    def ev(obs: np.ndarray, mask: np.ndarray) -> Any:
        b = len(obs)
        p = priors(b, mask) if callable(priors) else priors
        v = values(b) if callable(values) else values
        return p, v

    return ev


def _ok_priors(b: int, mask: np.ndarray) -> np.ndarray:
    return mask.astype(np.float32)


def _ok_values(b: int) -> np.ndarray:
    return np.zeros((b, 2), np.float32)


@pytest.mark.parametrize(
    ("evaluator", "words"),
    [
        (lambda o, m: None, "must return a tuple (priors, values), got NoneType"),
        (lambda o, m: (m.astype(np.float32),), "got a tuple of 1"),
        (
            _returning(lambda b, m: m.astype(np.float64), _ok_values),
            "priors must be a float32 array of shape (1, 19), got float64 of shape [1, 19]",
        ),
        (
            _returning(lambda b, m: np.ones((b, 5), np.float32), _ok_values),
            "priors must be a float32 array of shape (1, 19), got float32 of shape [1, 5]",
        ),
        (
            _returning(_ok_priors, lambda b: np.zeros((b, 3), np.float32)),
            "values must be a float32 array of shape (1, 2), got float32 of shape [1, 3]",
        ),
        (
            _returning(_ok_priors, lambda b: np.zeros(b, np.float32)),
            "values must be a float32 array of shape (1, 2)",
        ),
        (
            _returning(lambda b, m: np.full(m.shape, np.nan, np.float32), _ok_values),
            "priors must be finite and ≥ 0; row 0, action 0 is NaN",
        ),
        (
            _returning(lambda b, m: -m.astype(np.float32), _ok_values),
            "priors must be finite and ≥ 0",
        ),
        (
            _returning(_ok_priors, lambda b: np.full((b, 2), 1.5, np.float32)),
            "values must be in [-1, 1]; row 0, player 0 is 1.5",
        ),
        (
            _returning(_ok_priors, lambda b: np.full((b, 2), np.nan, np.float32)),
            "values must be in [-1, 1]",
        ),
        (_returning("priors", _ok_values), "priors must be a float32 array"),
    ],
)
def test_bad_evaluator_outputs_raise_evaluator_errors(evaluator: Any, words: str) -> None:
    state = GAME.new_state()
    before = state.to_json() if hasattr(state, "to_json") else None
    with pytest.raises(sf.EvaluatorError) as info:
        sf.PUCT(evaluator, simulations=10).act(state)
    assert words in str(info.value)
    assert isinstance(info.value, sf.StonefieldError)
    if before is not None:
        assert state.to_json() == before
    # Self-play gives nothing back either.
    with pytest.raises(sf.EvaluatorError):
        sf.selfplay(GAME, sf.PUCT(evaluator, simulations=5), games=2, seed=0)


def test_a_bad_row_later_in_the_search_is_caught_too() -> None:
    calls = []

    def late(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        calls.append(len(obs))
        v = np.zeros((len(obs), 2), np.float32)
        if len(calls) == 3:
            v[-1, 1] = -2.0
        return mask.astype(np.float32), v

    with pytest.raises(sf.EvaluatorError, match="player 1 is -2"):
        sf.PUCT(late, simulations=50, batch_size=4).analyse(GAME.new_state())


def test_an_exception_of_the_evaluator_propagates() -> None:
    class Boom(RuntimeError):
        pass

    def boom(obs: np.ndarray, mask: np.ndarray) -> Any:
        raise Boom("network on fire")

    with pytest.raises(Boom, match="network on fire"):
        sf.PUCT(boom, simulations=10).act(GAME.new_state())
    with pytest.raises(Boom):
        sf.selfplay(GAME, sf.PUCT(boom, simulations=5), games=3, seed=0)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"simulations": 0}, "simulations"),
        ({"batch_size": 0}, "batch_size"),
        ({"batch_size": 70000}, "batch_size"),
        ({"c": -1.0}, "c must be a finite number ≥ 0"),
        ({"c": float("nan")}, "c must be"),
        ({"dirichlet_alpha": 0.0}, "dirichlet_alpha must be a finite number > 0"),
        ({"dirichlet_alpha": -1}, "dirichlet_alpha"),
        ({"dirichlet_fraction": 1.5}, "dirichlet_fraction must be a number from 0 to 1"),
        ({"dirichlet_fraction": -0.1}, "dirichlet_fraction"),
        ({"evaluator": "network"}, 'evaluator must be "rollout" or a callable'),
        ({"max_nodes": 10}, "max_nodes"),
    ],
)
def test_nonsense_settings_are_refused(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(sf.InvalidOptionError, match=None) as info:
        sf.PUCT(**kwargs)
    assert words in str(info.value)


def test_an_evaluator_that_is_not_callable_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="callable"):
        sf.PUCT(42)


def test_finished_games_are_refused() -> None:
    state = GAME.new_state()
    while not state.is_terminal():
        state.apply(int(state.legal_actions()[0]))
    with pytest.raises(sf.GameOverError):
        sf.PUCT(_uniform).act(state)


def test_same_seed_same_search() -> None:
    state = GAME.new_state()
    for ev in ("rollout", _uniform):
        a = sf.PUCT(ev, simulations=200, batch_size=8, seed=3).analyse(state)
        b = sf.PUCT(ev, simulations=200, batch_size=8, seed=3).analyse(state)
        assert np.array_equal(a.visits, b.visits) and np.array_equal(a.values, b.values)
        assert a.pv == b.pv and a.best == b.best
    c = sf.PUCT(simulations=200, batch_size=8, seed=4).analyse(state)
    assert not np.array_equal(a.visits, c.visits)


def test_selfplay_batches_leaves_across_games() -> None:
    ev = Recorder()
    agent = sf.PUCT(ev, simulations=20, batch_size=4, seed=1)
    d = sf.selfplay(GAME, agent, games=8, seed=2, temperature_moves=3)
    assert d.num_games == 8
    assert max(len(o) for o, _ in ev.calls) == 8 * 4  # all games' leaves in one call
    assert d.legal_masks.shape == d.policies.shape and d.legal_masks.dtype == np.bool_
    assert (d.policies[~d.legal_masks] == 0).all()
    np.testing.assert_allclose(d.policies.sum(axis=1), 1, atol=1e-5)
    # The same run, the same data; the data round-trip through a file.
    again = sf.selfplay(
        GAME,
        sf.PUCT(Recorder(), simulations=20, batch_size=4, seed=1),
        games=8,
        seed=2,
        temperature_moves=3,
    )
    assert np.array_equal(d.actions, again.actions)
    rollout = sf.selfplay(GAME, sf.PUCT(simulations=20), games=4, seed=2, threads=2)
    same = sf.selfplay(GAME, sf.PUCT(simulations=20), games=4, seed=2, threads=1)
    assert np.array_equal(rollout.actions, same.actions)


def test_three_players() -> None:
    game = sf.make("windflowers", size=3, players=3)
    ev = Recorder(players=3)
    res = sf.PUCT(ev, simulations=60, batch_size=4).analyse(game.new_state())
    assert int(res.visits.sum()) == 60
    d = sf.selfplay(game, sf.PUCT(simulations=10), games=2, seed=0)
    assert d.returns.shape[1] == 3


def _sigint_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def _slow_uniform(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`_uniform` taking 5 ms a batch: a search that cannot end before the test's Ctrl-C. (With
    `_uniform` itself the search filled its 10 M-node tree on Subsume size 12, about 400 new
    nodes an evaluation, in 0.29 s on a quiet machine, before the Ctrl-C at 0.3 s.)"""
    time.sleep(0.005)
    return _uniform(obs, mask)


@pytest.mark.timing
def test_ctrl_c_stops_a_long_search_and_a_batched_selfplay() -> None:
    state = sf.make("subsume", size=12).new_state()
    timer = _sigint_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            sf.PUCT(_slow_uniform, simulations=10_000_000, batch_size=16).act(state)
    finally:
        timer.cancel()
    timer = _sigint_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            sf.PUCT(simulations=10_000_000).act(state)
    finally:
        timer.cancel()
    timer = _sigint_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            sf.selfplay("subsume", sf.PUCT(_uniform, simulations=100_000), games=4, size=8)
    finally:
        timer.cancel()


def test_match_plays_puct_agents_in_rust_batching_across_games() -> None:
    ev = Recorder()
    agents = [sf.PUCT(ev, simulations=30, batch_size=2, dirichlet_fraction=0), sf.RandomAgent()]
    m = sf.match(GAME, agents, games=6, seed=4)
    assert m.n_games == 6 and m.returns.shape == (6, 2)
    assert max(len(o) for o, _ in ev.calls) == 6 * 2
    again = sf.match(
        GAME,
        [sf.PUCT(Recorder(), simulations=30, batch_size=2, dirichlet_fraction=0), sf.RandomAgent()],
        games=6,
        seed=4,
    )
    assert np.array_equal(m.actions, again.actions)
    # Two PUCT agents, one with rollouts: each evaluator gets only its own seats' leaves.
    ev2 = Recorder()
    m = sf.match(GAME, [sf.PUCT(ev2, simulations=10), sf.PUCT(simulations=10)], games=4, seed=0)
    assert m.n_games == 4 and ev2.calls
    # Rollout PUCT at 300 simulations beats random play on the small board.
    m = sf.match(GAME, [sf.PUCT(simulations=300, dirichlet_fraction=0), "random"], games=10, seed=1)
    assert m.score[0] > 0.5


class SeatedPuct:
    """A Python agent that searches as a PUCT with seed 0 and ``evaluator`` would when seated."""

    name = "seated-puct"

    def __init__(self, evaluator: Any = None) -> None:
        self.evaluator = evaluator
        self.inner = sf.PUCT(evaluator, simulations=20)

    def reset(self, seed: int) -> None:
        self.inner = sf.PUCT(self.evaluator, simulations=20, seed=seed)

    def act(self, state: Any) -> int:
        return int(self.inner.act(state))


@pytest.mark.parametrize("evaluator", [None, _uniform], ids=["rollout", "numpy"])
def test_puct_seats_are_reseeded_per_game_and_seat_as_mcts_seats_are(evaluator: Any) -> None:
    def run(first: Any) -> sf.Match:
        return sf.match(GAME, [first, sf.PUCT(evaluator, simulations=20, seed=5)], games=6, seed=11)

    native = run(sf.PUCT(evaluator, simulations=20))
    driven = run(SeatedPuct(evaluator))
    # A game driven from Python seats each PUCT with the seed a native run gives it.
    for i in range(6):
        assert native.game_actions(i) == driven.game_actions(i)
    # Games with the same seating are different games: each seat's search has its own seed...
    for m in (native, driven):
        assert len({tuple(m.game_actions(i)) for i in range(0, 6, 2)}) > 1
    # ...and the whole match comes back from its seed.
    np.testing.assert_array_equal(run(SeatedPuct(evaluator)).actions, driven.actions)
    np.testing.assert_array_equal(run(sf.PUCT(evaluator, simulations=20)).actions, native.actions)


def test_with_seed_keeps_the_evaluator_and_every_other_setting() -> None:
    a = sf.PUCT(_uniform, simulations=7, c=0.5, batch_size=2, seed=1, max_nodes=5000)
    b = a.with_seed(2**64 - 1)
    assert b.seed == 2**64 - 1 and b.evaluator is _uniform
    assert [b.simulations, b.c, b.batch_size, b.max_nodes] == [7, 0.5, 2, 5000]
    for agent in (a, sf.MCTS(iterations=5), sf.RandomAgent()):
        with pytest.raises(sf.InvalidOptionError):
            agent.with_seed(-1)


def test_match_raises_what_the_evaluator_raises() -> None:
    def boom(obs: np.ndarray, mask: np.ndarray) -> Any:
        raise ZeroDivisionError("nope")

    with pytest.raises(ZeroDivisionError):
        sf.match(GAME, [sf.PUCT(boom, simulations=5), sf.RandomAgent()], games=2)
    with pytest.raises(sf.EvaluatorError):
        sf.match(GAME, [sf.PUCT(lambda o, m: (m, m), simulations=5), "random"], games=2)


@pytest.mark.parametrize(
    "obj",
    [
        sf._core.PUCT,
        sf._core.PUCT.with_seed,
        sf._core.puct_play_games,
        sf._core.puct_selfplay_games,
    ],
)
def test_docstring_examples_run(obj: Any) -> None:
    import doctest

    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(obj, obj.__name__, globs={})
    assert tests and tests[0].examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0
