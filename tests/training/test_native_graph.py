"""The graph network played natively (issue 54 item 2): ``sf.PUCT(checkpoint=PATH)`` with a
graph checkpoint evaluates its leaves in Rust. Its outputs are the numpy reference's
(``graph_forward``) on every game at two sizes, a seeded search gives the visits the numpy
evaluator gives, threads work with it, and a board of another game is refused by name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield._checkpoint import CheckpointNetwork
from stonefield._core import graph_evaluate
from stonefield.agents import agent_string, parse_agent

# Each game at its default board and a second size.
BOARDS = [
    ("subsume", {}),
    ("subsume", {"size": 4}),
    ("windflowers", {}),
    ("windflowers", {"size": 3}),
    ("faraday", {}),
    ("faraday", {"order": 4}),
    ("smallholder", {}),
    ("smallholder", {"board": "hex3"}),
]


def _positions(game: sf.Game, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of the positions of a random game's first ``count`` moves."""
    rng = np.random.default_rng(seed)
    state = game.new_state()
    obs, masks = [], []
    while len(obs) < count and not state.is_terminal():
        obs.append(state.observation())
        masks.append(state.legal_mask())
        state.apply(int(rng.choice(state.legal_actions())))
    return np.array(obs, np.float32), np.array(masks)


class Numpy:
    """The network played in numpy through a Python callable (PUCT's Python path)."""

    def __init__(self, net: CheckpointNetwork) -> None:
        self.net = net

    def check_game(self, game: sf.Game) -> None:
        self.net.check_game(game)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> Any:
        return self.net(obs, mask)


@pytest.mark.parametrize(("name", "options"), BOARDS)
def test_native_outputs_are_the_numpy_reference(name: str, options: dict[str, Any]) -> None:
    game = sf.make(name, **options)
    base = sf.make(name)
    net = CheckpointNetwork.random(base, hidden=16, layers=2, seed=len(options))
    obs, masks = _positions(game, 12, seed=1)
    net.check_game(game)
    priors, values = graph_evaluate(net, game, obs, masks)
    want_p, want_v = net(obs, masks)
    assert priors.dtype == np.float32 and priors.shape == want_p.shape
    np.testing.assert_allclose(priors, want_p, atol=1e-4)
    np.testing.assert_allclose(values, want_v, atol=1e-4)
    assert np.all(priors[~masks] < 1e-6)


@pytest.mark.parametrize("name", ["subsume", "windflowers", "faraday", "smallholder"])
def test_a_seeded_search_gives_the_numpy_evaluators_visits(name: str) -> None:
    # Outputs agree to about 1e-7, far below what separates two PUCT scores here, so the
    # visits are the same.
    game = sf.make(name)
    net = CheckpointNetwork.random(game, hidden=16, layers=2, seed=2)
    state = game.new_state()
    settings: dict[str, Any] = {"simulations": 120, "batch_size": 8, "seed": 5}
    native = sf.PUCT(net, **settings).analyse(state)
    numpy = sf.PUCT(Numpy(net), **settings).analyse(state)
    np.testing.assert_array_equal(native.visits, numpy.visits)
    assert native.best == numpy.best


def test_a_checkpoint_is_played_natively_on_threads(tmp_path: Path) -> None:
    game = sf.make("subsume", size=4)
    path = tmp_path / "net.npz"
    CheckpointNetwork.random(game, hidden=8, layers=1).save(path)
    agent = sf.PUCT(checkpoint=str(path), simulations=64, threads=2, seed=1)
    assert isinstance(agent.evaluator, CheckpointNetwork)
    result = agent.analyse(game.new_state())
    assert int(result.visits.sum()) == 64
    again = agent.analyse(game.new_state())
    np.testing.assert_array_equal(result.visits, again.visits)
    timed = sf.PUCT(checkpoint=str(path), time=0.05, threads=2).analyse(game.new_state())
    assert timed.stopped_by == "time"
    text = agent_string(parse_agent(f"puct:simulations=64,threads=2,checkpoint={path}"))
    assert text == f"puct:simulations=64,threads=2,checkpoint={path}"
    # The numpy path stays one thread.
    with pytest.raises(sf.InvalidOptionError, match="native evaluation"):
        sf.PUCT(Numpy(CheckpointNetwork.load(path)), threads=2)


def test_a_search_of_another_game_is_refused_by_name() -> None:
    net = CheckpointNetwork.random(sf.make("subsume"), hidden=8, layers=1)
    agent = sf.PUCT(net, simulations=10, threads=2)
    with pytest.raises(sf.InvalidOptionError, match="cannot play"):
        agent.analyse(sf.make("windflowers").new_state())
    with pytest.raises(sf.InvalidOptionError, match="cannot play"):
        graph_evaluate(net, sf.make("windflowers"), np.zeros((1, 1, 1)), np.zeros((1, 1)))


def test_matches_and_selfplay_use_the_native_network() -> None:
    from stonefield._core import puct_play_games, puct_selfplay_games

    game = sf.make("subsume", size=3)
    net = CheckpointNetwork.random(game, hidden=8, layers=1)
    agents = [sf.PUCT(net, simulations=16, threads=2), sf.PUCT(net, simulations=16, seed=1)]
    out = puct_play_games(game, agents, np.array([[0, 1], [1, 0]]), 3)
    assert out["returns"].shape == (2, 2)
    numpy_agents = [sf.PUCT(Numpy(net), simulations=16, seed=s) for s in (0, 1)]
    native_agents = [sf.PUCT(net, simulations=16, seed=s) for s in (0, 1)]
    a = puct_play_games(game, native_agents, np.array([[0, 1]]), 3)
    again = puct_play_games(game, native_agents, np.array([[0, 1]]), 3)
    np.testing.assert_array_equal(a["actions"], again["actions"])
    b = puct_play_games(game, numpy_agents, np.array([[0, 1]]), 3)
    # The two evaluators agree to about 1e-7, but on this symmetric board moves that are images
    # of each other tie exactly, and rounding (numpy's kernels against Rust's, which differ from
    # one processor to another) breaks such a tie either way: the games may part after one. The
    # first search, from the same position, finds the same value whichever image it prefers.
    assert abs(float(a["values"][0]) - float(b["values"][0])) < 1e-3
    assert len(b["actions"]) > 0 and np.all(b["values"] <= 1) and np.all(b["values"] >= -1)
    d = puct_selfplay_games(game, sf.PUCT(net, simulations=16), 2, 5, 2)
    assert d["policies"].shape[0] > 0


def test_a_subclass_keeps_its_own_forward_pass() -> None:
    class Scaled(CheckpointNetwork):
        def __call__(self, obs: np.ndarray, mask: np.ndarray) -> Any:
            return super().__call__(obs, mask)

    net = CheckpointNetwork.random(sf.make("subsume", size=3), hidden=8, layers=1)
    sub = Scaled(net.game, net.hidden, net.layers, net.weights)
    # Played through Python, so one thread only.
    with pytest.raises(sf.InvalidOptionError, match="native evaluation"):
        sf.PUCT(sub, threads=2)
    assert sf.PUCT(sub, simulations=8).analyse(net.game.new_state()).visits.sum() == 8
