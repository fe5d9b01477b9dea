"""Properties over arbitrary games, with hypothesis: any sequence of legal actions of any
configuration can be undone to the start, survives pickling and game records unchanged, and
gives observations that agree with the board. The number of examples comes from the profile
chosen in conftest.py."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import stonefield as sf
from configs import CONFIGS

GAMES = {i: sf.make(name, **options) for i, (name, options) in enumerate(CONFIGS)}


def play(game: sf.Game, choices: list[int]) -> sf.State:
    """Plays choice c as the (c mod k)-th of the k legal actions, until choices or game run out."""
    state = game.new_state()
    for c in choices:
        legal = state.legal_actions()
        if len(legal) == 0:
            break
        state.apply(int(legal[c % len(legal)]))
    return state


def snapshot(state: sf.State) -> tuple[Any, ...]:
    return (
        state.board.tobytes(),
        state.current_player,
        state.legal_actions().tobytes(),
        state.is_terminal(),
        None if state.ranks() is None else state.ranks().tobytes(),
    )


game_ids = st.sampled_from(sorted(GAMES))
choice_lists = st.lists(st.integers(min_value=0, max_value=10**6), max_size=120)


@given(game_ids, choice_lists)
def test_undo_returns_to_every_earlier_position(gid: int, choices: list[int]) -> None:
    game = GAMES[gid]
    state = game.new_state()
    seen = [snapshot(state)]
    for c in choices:
        legal = state.legal_actions()
        if len(legal) == 0:
            break
        state.apply(int(legal[c % len(legal)]))
        seen.append(snapshot(state))
    while seen:
        assert snapshot(state) == seen.pop()
        if seen:
            state.undo()
    assert state.history == []


@given(game_ids, choice_lists)
def test_pickle_and_records_round_trip(gid: int, choices: list[int]) -> None:
    state = play(GAMES[gid], choices)
    for copy in (pickle.loads(pickle.dumps(state)), sf.from_record(sf.to_record(state))):
        assert copy.history == state.history
        assert snapshot(copy) == snapshot(state)


@given(game_ids, choice_lists)
def test_observation_agrees_with_the_board(gid: int, choices: list[int]) -> None:
    game = GAMES[gid]
    state = play(game, choices)
    obs = state.observation()
    p = game.num_players
    viewer = state.current_player if state.current_player is not None else 0
    assert obs.shape == game.observation_shape
    assert np.array_equal(obs[:p].sum(axis=0) + obs[p], np.ones(game.num_sites))
    assert np.array_equal(obs[0] == 1, state.board == viewer + 1)
    assert np.all((obs >= 0) & (obs <= 1))


@given(game_ids, st.integers(min_value=0, max_value=2**63), st.integers(1, 40))
def test_simulate_is_reproducible(gid: int, seed: int, n: int) -> None:
    game = GAMES[gid]
    a = sf.simulate(game, n, seed=seed, threads=1)
    b = sf.simulate(game, n, seed=seed, threads=2)
    assert np.array_equal(a.ranks, b.ranks) and np.array_equal(a.lengths, b.lengths)
