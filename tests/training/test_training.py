"""A short training run through the Gymnasium environment: a linear softmax policy trained by
REINFORCE on small Windflowers beats the random opponent, where the untrained policy does not."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

import stonefield.gymnasium  # noqa: F401 (registers the environments)


class LinearPolicy:
    """Softmax over masked logits, linear in the observation (plus a bias)."""

    def __init__(self, features: int, actions: int, rng: np.random.Generator) -> None:
        self.weights = np.zeros((features + 1, actions))
        self.rng = rng

    def probabilities(
        self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        x = np.append(obs.ravel(), 1.0)
        logits = np.where(mask.astype(bool), x @ self.weights, -np.inf)
        p = np.exp(logits - logits.max())
        return x, p / p.sum()

    def episode(self, env: Any, seed: int, learning_rate: float) -> float:
        obs, info = env.reset(seed=seed)
        steps = []
        while True:
            x, p = self.probabilities(obs, info["action_mask"])
            action = int(self.rng.choice(len(p), p=p))
            steps.append((x, p, action))
            obs, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                break
        for x, p, action in steps:  # REINFORCE: the return times the log-policy gradient
            grad = -p
            grad[action] += 1.0
            self.weights += learning_rate * reward * np.outer(x, grad)
        return float(reward)


def test_reinforce_beats_the_random_opponent() -> None:
    env = gymnasium.make("stonefield/Windflowers-v0", grid="hex", size=3)
    planes, sites = env.observation_space.shape
    policy = LinearPolicy(planes * sites, int(env.action_space.n), np.random.default_rng(0))

    def evaluate() -> float:
        return float(np.mean([policy.episode(env, 10**6 + i, 0.0) for i in range(300)]))

    untrained = evaluate()  # the uniform policy: about as good as its random opponent
    for episode in range(2000):
        policy.episode(env, episode, 0.05)
    trained = evaluate()
    assert abs(untrained) < 0.25
    assert trained > 0.45 and trained > untrained + 0.3
