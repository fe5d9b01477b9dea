"""The RL adapters take what RL libraries hand them: the loops that sb3-contrib and Tianshou
document, played with the values those libraries produce.

torch (and so stable-baselines3, sb3-contrib and Tianshou) is not in the test extras: its wheels
on the package index bring several GB of CUDA libraries. These tests therefore build each
library's action exactly as the library does, from its source: SB3's ``predict`` on one
observation reshapes the policy's action to ``(-1, *action_space.shape)`` and squeezes the batch
axis away, a **0-d int64 array**; a Tianshou collector indexes the batch of actions of its
vector environment, a **numpy int64 scalar**; and sb3-contrib's ``ActionMasker(env, mask_fn)``
calls ``mask_fn(env)`` with the environment it wraps.
"""

from __future__ import annotations

from typing import Any, Callable

import gymnasium
import numpy as np
import pytest

import stonefield as sf
import stonefield.gymnasium  # noqa: F401  (registers the environments)
from stonefield.gymnasium import SelfPlayVectorEnv
from stonefield.pettingzoo import env as pettingzoo_env
from stonefield.pettingzoo import raw_env


def sb3_predict_output(action: int, space: gymnasium.spaces.Discrete) -> Any:
    """What ``model.predict(obs)`` returns for one (not vectorised) observation: the policy's
    batch of one action, reshaped and squeezed as SB3's ``BasePolicy.predict`` does."""
    actions = np.array([action], dtype=np.int64)  # the policy's output on a batch of one
    actions = actions.reshape((-1, *space.shape))
    return actions.squeeze(axis=0)


def masked_choice(rng: np.random.Generator, mask: Any) -> int:
    """A maskable policy's choice: a legal action (uniformly at random here)."""
    legal = np.flatnonzero(np.asarray(mask))
    return int(rng.choice(legal))


def test_the_sb3_predict_output_is_a_0d_int64_array() -> None:
    action = sb3_predict_output(9, gymnasium.spaces.Discrete(20))
    assert isinstance(action, np.ndarray) and action.shape == () and action.dtype == np.int64


def test_maskable_ppo_predict_loop(seed: int = 3) -> None:
    """sb3-contrib's documented loop after ``learn``: ``action, _ = model.predict(obs,
    action_masks=get_action_masks(env))``, then ``env.step(action)``, until the episode ends."""
    env = gymnasium.make("stonefield/Windflowers-v0", size=3, grid="hex", flatten=True)
    rng = np.random.default_rng(seed)
    for episode in range(5):
        obs, info = env.reset(seed=seed + episode)
        done = False
        steps = 0
        while not done:
            # sb3-contrib's get_action_masks(env) calls env.action_masks() through the wrappers
            # (env.get_wrapper_attr in Gymnasium 1.x).
            masks = env.get_wrapper_attr("action_masks")()
            action = sb3_predict_output(masked_choice(rng, masks), env.action_space)
            assert env.action_space.contains(action)
            obs, reward, terminated, truncated, info = env.step(action)
            assert "illegal_action" not in info
            done = terminated or truncated
            steps += 1
        assert steps > 0 and reward in (-1.0, 0.0, 1.0)


class ActionMasker(gymnasium.Wrapper[Any, Any, Any, Any]):
    """sb3-contrib's ``ActionMasker`` as it is written: ``action_masks()`` returns
    ``mask_fn(self.env)``, the environment it wraps (here a ``gymnasium.make`` chain)."""

    def __init__(self, env: gymnasium.Env[Any, Any], mask_fn: Callable[[Any], Any]) -> None:
        super().__init__(env)
        self._action_mask_fn = mask_fn

    def action_masks(self) -> Any:
        return self._action_mask_fn(self.env)


def test_action_masker_with_the_documented_mask_fn() -> None:
    def mask_fn(env: gymnasium.Env[Any, Any]) -> np.ndarray:
        return env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]

    env = ActionMasker(gymnasium.make("stonefield/Subsume-v0", size=3, flatten=True), mask_fn)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=1)
    done = False
    while not done:
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and np.array_equal(mask, info["action_mask"].astype(bool))
        action = sb3_predict_output(masked_choice(rng, mask), env.action_space)
        obs, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    # The obvious mask_fn, env.action_masks(), does not reach through Gymnasium 1.x's wrappers
    # (they no longer forward attributes): why the docs show env.unwrapped.action_masks().
    plain = gymnasium.make("stonefield/Subsume-v0", size=3, flatten=True)
    with pytest.raises(AttributeError):
        plain.action_masks()  # type: ignore[attr-defined]


def test_tianshou_style_collector_on_the_pettingzoo_env() -> None:
    """Tianshou's ``PettingZooEnv`` passes each agent's action through to ``env.step``; its
    collector takes the actions of a batch (an int64 array) one by one, numpy int64 scalars; a
    random policy picks among the mask's legal actions."""
    rng = np.random.default_rng(5)
    for episode in range(3):
        aec = pettingzoo_env("windflowers", players=3, size=3)
        aec.reset(seed=episode)
        rewards = {a: 0.0 for a in aec.possible_agents}
        for agent in aec.agent_iter():
            obs, reward, terminated, truncated, _ = aec.last()
            rewards[agent] += reward
            if terminated or truncated:
                aec.step(None)
                continue
            batch = np.array([masked_choice(rng, obs["action_mask"])], dtype=np.int64)
            action = batch[0]  # np.int64, as the collector hands it on
            assert isinstance(action, np.int64) and aec.action_space(agent).contains(action)
            aec.step(action)
        assert sorted(rewards) == sorted(aec.possible_agents)
        assert abs(sum(rewards.values())) < 1e-9 or max(rewards.values()) > 0


# What each environment accepts as one action, held against Gymnasium's Discrete.contains.
ACCEPTED = [
    3,
    np.int64(3),
    np.int32(3),
    np.uint8(3),
    np.array(3),
    np.array(3, dtype=np.int16),
]
REFUSED = [3.0, np.float32(3), np.array(3.0), np.array([3]), np.array([[3]]), "3", None, [3]]


@pytest.mark.parametrize("action", ACCEPTED, ids=lambda a: f"{type(a).__name__}-{a!r}")
def test_every_integer_like_the_space_accepts_is_an_action(action: Any) -> None:
    env = gymnasium.make("stonefield/Windflowers-v0", size=3, grid="hex")
    env.reset(seed=0)
    assert env.action_space.contains(action)
    _, _, _, _, info = env.step(action)
    assert "illegal_action" not in info and 3 in env.unwrapped.state.history

    aec = pettingzoo_env("windflowers", size=3, grid="hex")
    aec.reset(seed=0)
    assert aec.action_space(aec.agent_selection).contains(action)
    aec.step(action)
    assert aec.unwrapped.state.history == [3]


@pytest.mark.parametrize("action", REFUSED, ids=lambda a: f"{type(a).__name__}-{a!r}")
def test_anything_else_is_a_type_error_that_changes_nothing(action: Any) -> None:
    env = gymnasium.make("stonefield/Windflowers-v0", size=3, grid="hex")
    env.reset(seed=0)
    assert not env.action_space.contains(action)
    before = list(env.unwrapped.state.history)
    with pytest.raises(TypeError, match="must be an integer .*0-d integer array"):
        env.step(action)
    assert env.unwrapped.state.history == before
    env.step(0)  # the episode goes on

    # PettingZoo's env() wraps the game in its own AssertOutOfBoundsWrapper, which asserts
    # action_space.contains first; the raw environment refuses with the typed error itself.
    # (None is PettingZoo's step for agents whose game has ended, refused as a ValueError.)
    aec = raw_env("windflowers", size=3, grid="hex")
    aec.reset(seed=0)
    with pytest.raises(ValueError if action is None else TypeError, match="integer|None"):
        aec.step(action)
    assert aec.state.history == []


@pytest.mark.parametrize("flag", [True, np.True_])
def test_booleans_are_refused_as_everywhere_in_stonefield(flag: Any) -> None:
    # Discrete.contains takes Python's True (bool subclasses int); stonefield refuses it, as
    # State.apply does: an RL library never hands one back as an action.
    env = gymnasium.make("stonefield/Windflowers-v0", size=3, grid="hex")
    env.reset(seed=0)
    with pytest.raises(TypeError, match="must be an integer"):
        env.step(flag)
    assert env.unwrapped.state.history == []


def test_the_vector_env_takes_what_vectorised_policies_return() -> None:
    envs = SelfPlayVectorEnv("windflowers", 4, size=3)
    _, info = envs.reset(seed=0)
    rng = np.random.default_rng(1)
    for _ in range(5):
        picks = [masked_choice(rng, m) for m in info["action_mask"]]
        # SB3's predict on a batch: an int64 array; a list of 0-d arrays or numpy scalars too.
        for actions in (
            np.array(picks, dtype=np.int64),
            [np.array(p) for p in picks],
            [np.int32(p) for p in picks],
        ):
            assert envs.action_space.contains(np.asarray(actions))
        _, _, _, _, info = envs.step([np.array(p) for p in picks])
    for bad in (np.array(picks, dtype=np.float64), np.array([True] * 4)):
        with pytest.raises(TypeError, match="integers"):
            envs.step(bad)
    assert isinstance(sf.VectorEnv, type)
