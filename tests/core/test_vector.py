"""VectorEnv and observation tensors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import stonefield as sf
from configs import CONFIGS, config_id

# One configuration per game (its defaults), plus a 4-player Windflowers.
DEFAULTS = [(name, {}) for name in sf.games()] + [("windflowers", {"players": 4})]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_observation_shape_and_planes(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = sf.make(name, **options)
    state = game.new_state()
    for seed in range(40):
        obs = state.observation()
        assert obs.dtype == np.float32 and obs.shape == game.observation_shape
        p = game.num_players
        viewer = state.current_player if state.current_player is not None else 0
        board = state.board
        # Plane k: stones of player (viewer + k) mod p; plane p: empty.
        for k in range(p):
            owner = (viewer + k) % p
            assert np.array_equal(obs[k] == 1, board == owner + 1)
        assert np.array_equal(obs[p] == 1, board == 0)
        assert np.all(np.isfinite(obs))
        a = state.random_action(seed)
        if a is None:
            break
        state.apply(a)


@pytest.mark.parametrize("config", DEFAULTS, ids=config_id)
def test_vector_env_agrees_with_single_states(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = sf.make(name, **options)
    n = 37
    env = sf.VectorEnv(game, n, seed=4, threads=2)
    obs, info = env.reset()
    assert obs.shape == (n, *game.observation_shape) and obs.dtype == np.float32
    assert info["legal_mask"].shape == (n, game.num_actions)
    assert info["current_player"].dtype == np.int32
    singles = [game.new_state() for _ in range(n)]
    ended = 0
    for _ in range(150):
        actions = env.random_actions()
        obs2, rewards, terminated, truncated, info2 = env.step(actions)
        # The same buffers every time.
        assert obs2 is obs and info2["legal_mask"] is info["legal_mask"]
        assert rewards.dtype == np.float32 and rewards.shape == (n, game.num_players)
        for i, s in enumerate(singles):
            s.apply(int(actions[i]))
            if s.is_terminal():
                ended += 1
                assert terminated[i] == (not s.truncated) and truncated[i] == s.truncated
                assert np.allclose(rewards[i], s.returns())
                s = singles[i] = game.new_state()
            else:
                assert not terminated[i] and not truncated[i] and not rewards[i].any()
            assert np.array_equal(obs[i], s.observation())
            assert np.array_equal(info["legal_mask"][i], s.legal_mask())
            assert info["current_player"][i] == s.current_player
            assert np.array_equal(env.state(i).board, s.board)
            assert env.state(i).history == s.history
    assert ended > 0


def test_vector_env_same_seed_same_actions() -> None:
    a = sf.VectorEnv("windflowers", 8, seed=3)
    b = sf.VectorEnv("windflowers", 8, seed=3, threads=1)
    for _ in range(20):
        x, y = a.random_actions(), b.random_actions()
        assert np.array_equal(x, y)
        a.step(x)
        b.step(y)
    assert np.array_equal(a.observations, b.observations)


def test_vector_env_bad_input_changes_nothing() -> None:
    env = sf.VectorEnv("windflowers", 3, grid="square", size=3)
    env.step([0, 1, 2])
    before = env.observations.copy()
    with pytest.raises(sf.IllegalMoveError, match="environment 1"):
        env.step([5, 1, 6])  # site 1 is occupied and not replaceable in environment 1
    with pytest.raises(sf.IllegalMoveError, match="expected 3 actions"):
        env.step([1, 2])
    with pytest.raises(sf.IllegalMoveError, match="environment 0"):
        env.step(np.array([-1, 3, 3]))
    with pytest.raises(TypeError):
        env.step("abc")
    assert np.array_equal(env.observations, before)
    assert [env.state(i).move_count for i in range(3)] == [1, 1, 1]
    with pytest.raises(sf.StonefieldError, match="out of range"):
        env.state(3)
    with pytest.raises(ValueError):
        sf.VectorEnv("windflowers", 0)
    with pytest.raises(sf.InvalidOptionError):
        sf.VectorEnv("windflowers", 2, grid="round")
