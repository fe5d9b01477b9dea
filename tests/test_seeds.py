"""One seed derivation: an MCTS agent plays the same moves for the same (seed, game, seat)
whether its opponent is native or a Python object."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield._seeds import seat_seed, seated


class Wrapped:
    """A Python agent that searches as a native MCTS with seed 0 would when seated."""

    name = "wrapped"

    def __init__(self, iterations: int) -> None:
        self.iterations = iterations
        self.inner = sf.MCTS(iterations=iterations)

    def reset(self, seed: int) -> None:
        self.inner = sf.MCTS(iterations=self.iterations, seed=seed)

    def act(self, state: Any) -> int:
        return int(self.inner.act(state))


@pytest.mark.parametrize("game", sf.games())
def test_mcts_plays_the_same_against_native_and_python_opponents(game: str) -> None:
    small = {"subsume": {"size": 3}, "faraday": {"order": 3}}.get(game, {})
    native = sf.match(
        game, [sf.MCTS(iterations=20), sf.MCTS(iterations=20, seed=5)], games=4, seed=11, **small
    )
    driven = sf.match(
        game, [Wrapped(20), sf.MCTS(iterations=20, seed=5)], games=4, seed=11, **small
    )
    for i in range(4):
        assert native.game_actions(i) == driven.game_actions(i)
    np.testing.assert_array_equal(native.returns, driven.returns)


def test_seat_seeds_differ_by_game_seat_and_agent() -> None:
    seeds = {seat_seed(3, i, j, a) for i in range(3) for j in range(2) for a in (0, 9)}
    assert len(seeds) == 12
    assert seated(sf.MCTS(iterations=5, seed=9), 3, 1, 0).seed == seat_seed(3, 1, 0, 9)
    assert seated(sf.RandomAgent(seed=9), 3, 1, 0).seed == seat_seed(3, 1, 0, 9)
