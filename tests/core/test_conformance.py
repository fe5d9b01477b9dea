"""The conformance suite through the Python API, over every game and option value.

For each configuration and several seeds: random games finish; the mask equals the legal list;
undo after each action restores board, player, legal set and scores exactly; a copy is
independent; illegal actions (forbidden sites, out of range, negative, after the end) raise the
right exception and change nothing; the same seed replays the same game.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from configs import CONFIGS, config_id


def snapshot(state: sf.State) -> tuple[Any, ...]:
    scores = state.scores()
    ranks = state.ranks()
    return (
        state.board.tobytes(),
        state.current_player,
        state.legal_actions().tobytes(),
        None if scores is None else scores.tobytes(),
        None if ranks is None else ranks.tobytes(),
        tuple(state.history),
        state.truncated,
    )


def check_illegal(state: sf.State, rng: random.Random) -> None:
    before = snapshot(state)
    n = state.game.num_actions
    candidates: list[Any] = [-1, n, n + 5, 2**70, np.int64(-3)]
    if not state.is_terminal():
        illegal = np.flatnonzero(~state.legal_mask())
        if len(illegal):
            candidates.append(int(rng.choice(illegal)))
    for a in candidates:
        expected = sf.GameOverError if state.is_terminal() else sf.IllegalMoveError
        with pytest.raises(expected):
            state.apply(a)
        assert snapshot(state) == before


def play(game: sf.Game, seed: int) -> list[int]:
    rng = random.Random(seed)
    state = game.new_state()
    steps = 0
    while not state.is_terminal():
        mask = state.legal_mask()
        legal = state.legal_actions()
        assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
        assert legal.dtype == np.int64
        assert np.array_equal(np.flatnonzero(mask), legal)
        assert state.current_player is not None and len(legal) > 0
        assert state.returns() is None and state.ranks() is None
        before = snapshot(state)
        action = int(rng.choice(legal))
        copy = state.copy()
        copy.apply(action)
        assert snapshot(state) == before, "a copy is independent"
        state.apply(action)
        assert snapshot(state) == snapshot(copy)
        assert state.undo() == action
        assert snapshot(state) == before, "undo restores exactly"
        state.apply(action)
        if rng.random() < 0.1:
            check_illegal(state, rng)
        steps += 1
        assert steps <= 50 * (game.num_actions + 10)
    check_illegal(state, rng)
    ranks, returns = state.ranks(), state.returns()
    assert ranks is not None and returns is not None
    assert ranks.shape == returns.shape == (game.num_players,)
    assert np.all((returns >= -1) & (returns <= 1))
    if state.truncated:
        assert np.all(returns == 0)
    return state.history


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_conformance(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = sf.make(name, **options)
    assert game.name == name
    for key, value in options.items():
        assert game.options[key] == value
    for seed in range(3):
        first = play(game, seed)
        assert play(game, seed) == first, "same seed, same game"
        # Replaying the history reaches the same final state.
        state = game.new_state()
        for a in first:
            state.apply(a)
        assert state.is_terminal()


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_random_action_replays(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = sf.make(name, **options)

    def run(seed: int) -> list[int]:
        s = game.new_state()
        while (a := s.random_action(seed)) is not None:
            assert s.is_legal(a)
            s.apply(a)
        return s.history

    assert run(5) == run(5)
