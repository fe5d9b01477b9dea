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
    puct = seated(sf.PUCT(simulations=5, c=0.5, seed=9), 3, 1, 0)
    assert puct.seed == seat_seed(3, 1, 0, 9) and puct.c == 0.5


@pytest.mark.parametrize("name", sf.games())
def test_games_name_their_actions(name: str) -> None:
    game = sf.make(name)
    names = [game.action_name(a) for a in range(game.num_actions)]
    assert len(set(names)) == len(names)
    assert all(game.parse_action(t) == a for a, t in enumerate(names))
    assert game.max_game_length >= game.num_sites
    with pytest.raises(sf.IllegalMoveError, match="out of range"):
        game.action_name(game.num_actions)
    with pytest.raises(sf.IllegalMoveError, match="no action is named"):
        game.parse_action("nowhere")
    sites = [game.action_site(a) for a in range(game.num_actions)]
    assert sites[: game.num_sites] == list(range(game.num_sites))


def test_faraday_names_its_pie() -> None:
    game = sf.make("faraday", order=3)
    n = game.num_sites
    a1 = game.site_names[0]
    assert [game.action_name(a) for a in (0, n, 2 * n, 2 * n + 1, 2 * n + 2)] == [
        a1,
        f"second {a1}",
        "pass",
        "accept",
        "swap",
    ]
    assert game.action_site(n + 1) == 1 and game.action_site(2 * n + 2) is None


@pytest.mark.parametrize(
    "agent",
    [
        "mcts:iterations=30,selection=grave,grave_ref=inf,grave_bias=0.001,playouts=mast",
        "mcts:iterations=30,preset=strong",
    ],
)
def test_a_seated_mcts_keeps_every_setting(agent: str) -> None:
    # Every MCTS setting (GRAVE's and the preset among them) survives seating: only the seed
    # changes, and it is the seat's seed.
    original = sf.parse_agent(agent)
    again = seated(original, 3, 1, 0)
    assert again.seed == seat_seed(3, 1, 0, original.seed)
    for key in ("selection", "grave_ref", "grave_bias", "playouts", "preset", "c", "iterations"):
        assert getattr(again, key) == getattr(original, key), key
    assert repr(sf.parse_agent(sf.agents.agent_string(again))) == repr(again)
