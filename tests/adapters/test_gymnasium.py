"""The Gymnasium adapter: Gymnasium's env checker on every game, the single-seat environment's
rules, and the self-play vector environment against single states."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from rl_configs import RL_CONFIGS, rl_id

import stonefield as sf
from stonefield.gymnasium import ENV_IDS, SelfPlayVectorEnv, StonefieldEnv


@pytest.mark.parametrize("config", RL_CONFIGS, ids=rl_id)
@pytest.mark.parametrize("seat", [0, None])
def test_check_env(config: tuple[str, dict[str, Any]], seat: int | None, capsys: Any) -> None:
    name, options = config
    # Made through the registry so that check_env also tries every render mode.
    env = gymnasium.make(ENV_IDS[name], seat=seat, render_mode="rgb_array", **options)
    check_env(env.unwrapped, skip_render_check=False)
    env.close()
    capsys.readouterr()


def test_every_game_is_registered() -> None:
    assert sorted(ENV_IDS) == sorted(sf.games())
    assert ENV_IDS["windflowers"] == "stonefield/Windflowers-v0"
    for env_id in ENV_IDS.values():
        assert env_id in gymnasium.registry


def _episode(env: StonefieldEnv, seed: int) -> tuple[float, bool, bool, dict[str, Any]]:
    _, info = env.reset(seed=seed)
    while True:
        action = env.action_space.sample(info["action_mask"])
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return reward, terminated, truncated, info


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_reward_is_the_learners_return(seat: int) -> None:
    env = StonefieldEnv("windflowers", seat=seat, players=3, size=3)
    env.action_space.seed(seat)
    for seed in range(5):
        reward, terminated, truncated, info = _episode(env, seed)
        returns = env.state.returns()
        assert terminated and not truncated and returns is not None
        assert reward == returns[seat] and info["seat"] == seat
        assert not info["action_mask"].any()


class FirstLegal:
    """An opponent that always plays the lowest legal action, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def act(self, state: sf.State) -> int:
        self.calls += 1
        return int(state.legal_actions()[0])


def test_opponent_agent_plays_the_other_seats() -> None:
    opponent = FirstLegal()
    env = StonefieldEnv("subsume", seat=1, opponent=opponent, size=3)
    obs, info = env.reset(seed=0)
    assert env.state.history == [0] and opponent.calls == 1
    assert obs[1, 0] == 1.0  # the opponent's stone, seen from seat 1
    env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    assert opponent.calls == 2 and env.state.current_player == 1


def test_seeded_resets_replay_the_same_episode() -> None:
    runs = []
    for _ in range(2):
        env = StonefieldEnv("faraday", seat=None, order=3)
        env.action_space.seed(3)
        _episode(env, 11)
        runs.append((env.seat, env.state.history))
    assert runs[0] == runs[1]


def test_illegal_action_ends_the_episode() -> None:
    env = StonefieldEnv("smallholder", board="hex3", illegal_reward=-2.0)
    env.reset(seed=0)
    env.step(0)
    before = env.state.history
    occupied = 0
    obs, reward, terminated, truncated, info = env.step(occupied)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, True)
    assert env.state.history == before
    with pytest.raises(sf.GameOverError, match="reset"):
        env.step(1)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(10_000)
    assert reward == -2.0 and terminated and info["illegal_action"]


def test_move_cap_truncates() -> None:
    env = StonefieldEnv("windflowers", size=3, max_moves=6)
    reward, terminated, truncated, _ = _episode(env, 0)
    assert (reward, terminated, truncated) == (0.0, False, True)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seat"):
        StonefieldEnv("subsume", seat=2)
    with pytest.raises(ValueError, match="render_mode"):
        StonefieldEnv("subsume", render_mode="video")
    with pytest.raises(sf.InvalidOptionError):
        gymnasium.make("stonefield/Subsume-v0", size=99)


@pytest.mark.parametrize(
    "name,options",
    [
        ("windflowers", {"players": 3, "size": 3}),
        ("faraday", {"order": 3}),
        ("smallholder", {"board": "hex3", "max_moves": 7}),  # truncations too
    ],
)
def test_self_play_vector_env_follows_single_states(name: str, options: dict[str, Any]) -> None:
    envs = SelfPlayVectorEnv(name, 6, seed=1, **options)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    game = sf.make(name, **options)
    singles = [game.new_state() for _ in range(6)]
    obs, info = envs.reset(seed=5)
    assert obs.dtype == np.float32 and obs.shape == (6, *game.observation_shape)
    assert info["action_mask"].dtype == np.int8
    ended = cut = 0
    for _ in range(120):
        actions = envs.action_space.sample(mask=tuple(info["action_mask"]))
        movers = [s.current_player for s in singles]
        obs, rewards, terminations, truncations, info = envs.step(actions)
        assert rewards.dtype == np.float64 and terminations.dtype == np.bool_
        for i, s in enumerate(singles):
            s.apply(int(actions[i]))
            if s.is_terminal():
                ended += 1
                cut += s.truncated
                returns = s.returns()
                assert returns is not None and info["_final_obs"][i]
                assert (terminations[i], truncations[i]) == (not s.truncated, s.truncated)
                assert rewards[i] == returns[movers[i]]
                assert np.array_equal(info["returns"][i], returns.astype(np.float32))
                assert np.array_equal(info["final_obs"][i], s.observation(movers[i]))
                singles[i] = s = game.new_state()
            else:
                assert rewards[i] == 0.0 and not terminations[i] and not truncations[i]
                assert "final_obs" not in info or info["final_obs"][i] is None
            assert np.array_equal(obs[i], s.observation())
            assert np.array_equal(info["action_mask"][i], s.legal_mask().astype(np.int8))
            assert info["current_player"][i] == s.current_player
    assert ended > 0 and (cut > 0) == ("max_moves" in options)


def test_self_play_vector_env_buffers_and_errors() -> None:
    copied = SelfPlayVectorEnv("subsume", 4, size=3)
    a, _ = copied.reset()
    b, _ = copied.reset()
    assert a is not b
    shared = SelfPlayVectorEnv("subsume", 4, size=3, copy=False)
    a, _ = shared.reset()
    b, _ = shared.reset()
    assert a is b
    with pytest.raises(sf.IllegalMoveError, match="environment 0"):
        copied.step(np.full(4, 10_000))


def test_search_agents_play_as_opponents() -> None:
    game = sf.make("subsume", size=3)
    env = StonefieldEnv(game, seat=1, opponent=sf.MCTS(iterations=200, seed=3))
    _, info = env.reset(seed=0)
    assert env.state.history == [sf.MCTS(iterations=200, seed=3).act(game.new_state())]
    env.action_space.seed(0)
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(
            env.action_space.sample(info["action_mask"])
        )
        done = terminated or truncated
    assert env.state.is_terminal() and reward in (-1.0, 1.0)
    made = gymnasium.make("stonefield/Subsume-v0", size=3, opponent=sf.RandomAgent(seed=1))
    check_env(made.unwrapped)


def test_seat_message_names_the_seats() -> None:
    with pytest.raises(ValueError, match=r"seats are 0 to 1 \(or None"):
        StonefieldEnv("subsume", seat=2, size=3)


def test_action_masks_follow_sb3_contribs_protocol() -> None:
    # sb3-contrib's MaskablePPO calls env.action_masks() and wants one bool per action.
    env = StonefieldEnv("windflowers", size=3, grid="hex")
    _, info = env.reset(seed=3)
    for _ in range(100):
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and mask.shape == (env.action_space.n,)
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        np.testing.assert_array_equal(mask, env.state.legal_mask())
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        if terminated or truncated:
            assert not env.action_masks().any()
            _, info = env.reset()


@pytest.mark.parametrize("name", sf.games())
def test_flat_observations(name: str) -> None:
    flat = StonefieldEnv(name, flatten=True)
    plain = StonefieldEnv(name)
    planes, sites = plain.game.observation_shape
    assert flat.observation_space.shape == (planes * sites,)
    a, _ = flat.reset(seed=5)
    b, _ = plain.reset(seed=5)
    assert a.shape == (planes * sites,) and a.dtype == np.float32
    np.testing.assert_array_equal(a, b.reshape(-1))
    assert flat.observation_space.contains(a)
    check_env(flat, skip_render_check=True)
    with pytest.raises(TypeError, match="flatten"):
        StonefieldEnv(name, flatten="yes")  # type: ignore[arg-type]


def test_flatten_through_the_registry() -> None:
    env = gymnasium.make("stonefield/Subsume-v0", size=3, flatten=True)
    observation, _ = env.reset(seed=0)
    assert observation.ndim == 1
    assert env.unwrapped.action_masks().dtype == np.bool_  # type: ignore[attr-defined]
