"""State.observation(player): every player's view of the same position."""

import numpy as np
import pytest

import stonefield as sf
from configs import CONFIGS, config_id


def _midgame(game: sf.Game, moves: int, seed: int) -> sf.State:
    state = game.new_state()
    for i in range(moves):
        if state.is_terminal():
            break
        state.apply(state.random_action(seed=seed + i))
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_each_player_sees_own_stones_first(config: tuple[str, dict[str, object]]) -> None:
    name, options = config
    game = sf.make(name, **options)
    n = game.num_players
    for seed in range(3):
        state = _midgame(game, 9, seed)
        board = state.board
        mover = state.current_player if state.current_player is not None else 0
        assert np.array_equal(state.observation(), state.observation(mover))
        for viewer in range(n):
            obs = state.observation(viewer)
            assert obs.shape == game.observation_shape and obs.dtype == np.float32
            for k in range(n):
                owner = (viewer + k) % n
                assert np.array_equal(obs[k], (board == owner + 1).astype(np.float32))
            assert np.array_equal(obs[n], (board == 0).astype(np.float32))


def test_two_player_views_swap_the_player_planes() -> None:
    state = _midgame(sf.make("smallholder"), 12, 4)
    a, b = state.observation(0), state.observation(1)
    assert np.array_equal(a[0], b[1]) and np.array_equal(a[1], b[0])
    # Territory and blocked planes come in (viewer, opponent) pairs too.
    assert np.array_equal(a[3], b[4]) and np.array_equal(a[5], b[6])


@pytest.mark.parametrize("player", [-1, 2, 99])
def test_a_player_out_of_range_is_refused(player: int) -> None:
    state = sf.make("subsume", size=3).new_state()
    with pytest.raises(sf.StonefieldError, match="players are 0..2"):
        state.observation(player)
