"""pytest-benchmark benchmarks of the Python paths. Run with
``pytest benches --benchmark-enable``; CI runs each once with benchmarking disabled."""

from __future__ import annotations

import numpy as np

import stonefield as sf


def _apply_loop(game: sf.Game, actions: np.ndarray) -> int:
    """Plays pre-drawn random legal actions through State.apply, one Python call each."""
    state = game.new_state()
    n = 0
    for a in actions:
        if state.is_terminal():
            state = game.new_state()
        state.apply(int(a))
        n += 1
    return n


def test_single_state_apply_loop(benchmark) -> None:
    game = sf.make("windflowers")
    # Placements on a board where every site can be played in turn: a pass-free walk that the
    # rules always allow (place on empty sites in order, then pass to end).
    order = np.concatenate([np.arange(game.num_sites), [game.num_sites, game.num_sites]])
    n = benchmark(_apply_loop, game, order)
    assert n == len(order)


def test_simulate_default_games(benchmark) -> None:
    def run() -> int:
        total = 0
        for name in sf.games():
            total += sf.simulate(name, 200, seed=1).n_games
        return total

    assert benchmark(run) == 200 * len(sf.games())


def test_vector_env_step_with_observations(benchmark) -> None:
    """Steps of 1024 environments with random actions (drawn in Rust each step: pre-drawn
    actions would only be legal in the states they were drawn for)."""
    env = sf.VectorEnv("windflowers", 1024, seed=0)

    def run() -> int:
        for _ in range(4):
            env.step(env.random_actions())
        return env.num_envs * 4

    assert benchmark(run) == 4096


def test_mcts_act_from_the_start(benchmark) -> None:
    """One MCTS decision (1000 iterations, one thread) on each game's default board, through
    the Python binding; iterations/s is 1000 × len(sf.games()) / the mean time."""
    agent = sf.MCTS(iterations=1000, seed=0)
    states = [sf.make(name).new_state() for name in sf.games()]

    def run() -> int:
        return sum(int(s.is_legal(agent.act(s))) for s in states)

    assert benchmark(run) == len(states)


def test_match_mcts_against_random(benchmark) -> None:
    """A short native match: MCTS(200) against random on The Smallholder, all threads."""

    def run() -> int:
        return sf.match("smallholder", ["mcts:iterations=200", "random"], games=8, seed=1).n_games

    assert benchmark(run) == 8
