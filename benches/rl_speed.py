"""Steps per second through each reinforcement-learning adapter against the native API.

Run: `python benches/rl_speed.py [--seconds S] [--envs E] [GAME ...]` (defaults: 2 s per
measurement, 4,096 vector environments, every game in its default configuration). Prints a
Markdown table. Every single-game loop picks uniformly random legal actions the same way (an
index drawn from the legal list or mask), so the columns differ only by the adapter; a step is one
action applied to a game (in the Gymnasium column, one learner action, the random opponent's
replies included in its time). Vector columns step every environment with
`sf.VectorEnv.random_actions()`, whose time is left out, and take turns step by step so that
other load on the machine weighs on each alike.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

import numpy as np

import stonefield as sf


def _pick(rng: np.random.Generator, legal: Any) -> int:
    return int(legal[rng.integers(len(legal))])


def native_apply(name: str, seconds: float) -> float:
    game, rng = sf.make(name), np.random.default_rng(0)
    state, steps, start = game.new_state(), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            if state.is_terminal():
                state = game.new_state()
            state.apply(_pick(rng, state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo_env(name: str, seconds: float, wrapped: bool = True) -> float:
    from stonefield.pettingzoo import env, raw_env

    e, rng = (env(name) if wrapped else raw_env(name)), np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset()
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
            else:
                e.step(_pick(rng, np.flatnonzero(obs["action_mask"])))
                steps += 1
    return steps / (time.perf_counter() - start)


def gymnasium_env(name: str, seconds: float) -> float:
    import gymnasium

    from stonefield.gymnasium import ENV_IDS

    e, rng = gymnasium.make(ENV_IDS[name]), np.random.default_rng(0)
    steps, start, episode = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        _, info = e.reset(seed=episode)
        episode += 1
        done = False
        while not done:
            _, _, terminated, truncated, info = e.step(
                _pick(rng, np.flatnonzero(info["action_mask"]))
            )
            done = terminated or truncated
            steps += 1
    return steps / (time.perf_counter() - start)


def openspiel_state(name: str, seconds: float) -> float:
    import pyspiel

    from stonefield import openspiel

    openspiel.register()
    game, rng = pyspiel.load_game(f"stonefield_{name}"), np.random.default_rng(0)
    state, steps, start = game.new_initial_state(), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            if state.is_terminal():
                state = game.new_initial_state()
            state.apply_action(_pick(rng, state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def vectors(name: str, seconds: float, n: int) -> list[float]:
    """`sf.VectorEnv.step` and `SelfPlayVectorEnv.step` (copying and not), stepped in turn so
    that other load on the machine weighs on each alike; steps/s from the median step time."""
    from stonefield.gymnasium import SelfPlayVectorEnv

    native = sf.VectorEnv(name, n, seed=0)
    copying = SelfPlayVectorEnv(name, n, copy=True)
    sharing = SelfPlayVectorEnv(name, n, copy=False)
    runs: list[tuple[Callable[[Any], Any], Callable[[], Any]]] = [
        (native.step, native.random_actions),
        (copying.step, copying.native.random_actions),
        (sharing.step, sharing.native.random_actions),
    ]
    times: list[list[float]] = [[], [], []]
    start = time.perf_counter()
    while time.perf_counter() - start < 3 * seconds or len(times[0]) < 3:
        for (step, actions), record in zip(runs, times):
            a = actions()
            t = time.perf_counter()
            step(a)
            record.append(time.perf_counter() - t)
    return [n / float(np.median(record)) for record in times]


COLUMNS = [
    "State.apply",
    "PettingZoo env()",
    "PettingZoo raw_env",
    "Gymnasium env",
    "OpenSpiel state",
    "VectorEnv.step",
    "SelfPlayVectorEnv",
    "SelfPlayVectorEnv copy=False",
]


def measure(name: str, seconds: float, envs: int) -> list[float]:
    """Steps per second of each column for one game."""
    return [
        native_apply(name, seconds),
        pettingzoo_env(name, seconds),
        pettingzoo_env(name, seconds, wrapped=False),
        gymnasium_env(name, seconds),
        openspiel_state(name, seconds),
        *vectors(name, seconds, envs),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=sf.games())
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--envs", type=int, default=4096)
    args = parser.parse_args(argv)
    print("| game | " + " | ".join(COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    for name in args.games:
        row = measure(name, args.seconds, args.envs)
        print(f"| {name} | " + " | ".join(f"{v:,.0f}" for v in row) + " |", flush=True)


if __name__ == "__main__":
    main()
