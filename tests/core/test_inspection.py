"""Game-specific inspection from Python: Smallholder territory and blocked groups, Faraday's
phase and charges, Subsume's surrounded cells."""

from __future__ import annotations

import numpy as np
import pytest

import stonefield as sf


def play(state: sf.State, n: int, seed: int = 0) -> sf.State:
    for i in range(n):
        a = state.random_action(seed + i)
        if a is None:
            break
        state.apply(a)
    return state


def test_attributes_belong_to_their_game() -> None:
    w = sf.make("windflowers").new_state()
    # Properties of other games are absent; their methods raise AttributeError when called.
    for name in ("phase", "pie_actions_left", "forced_surplus", "last_placer", "winner"):
        assert not hasattr(w, name)
    with pytest.raises(AttributeError, match="smallholder"):
        w.territory(0)
    with pytest.raises(AttributeError, match="subsume"):
        w.surrounded()
    with pytest.raises(AttributeError, match="faraday"):
        w.charge_counts(0)
    s = sf.make("smallholder").new_state()
    with pytest.raises(sf.StonefieldError, match="players are 0..2"):
        s.territory(2)


def test_smallholder_gap_territory_by_hand() -> None:
    # hex3 rows 3, 4, 5, 4, 3 (sites 0-2, 3-6, 7-11, 12-15, 16-18). Black on 7 and 9 (one row,
    # two apart) are two groups (the first stones must create groups); Black 8 then joins them
    # into 7, 8, 9, which holds 8 (between 7 and 9): its own stone.
    game = sf.make("smallholder", board="hex3")
    state = game.new_state()
    for a in (7, 0, 9, 2, 8):
        state.apply(a)
    territory = state.territory(0)
    assert territory.dtype == np.bool_ and territory.shape == (19,)
    assert list(np.flatnonzero(territory)) == [8]
    assert not state.territory(1).any()
    assert sorted(map(sorted, state.groups(0))) == [[7, 8, 9]]
    assert state.blocked_stones(0).dtype == np.bool_


def test_faraday_phases_and_charges() -> None:
    game = sf.make("faraday", order=3)
    n = game.num_sites
    state = game.new_state()
    assert (state.phase, state.pie_actions_left) == ("offer", 3)
    state.apply(0)  # a player-0 stone on site 0
    state.apply(n + 1)  # a player-1 stone on site 1
    state.apply(2 * n)  # pass
    assert (state.phase, state.pie_actions_left) == ("choice", 0)
    assert state.current_player == 1
    state.apply(2 * n + 1)  # accept: player 1 moves first
    assert state.phase == "placement" and state.current_player == 1
    # Charges: each site counts the stones of a colour among its lattice neighbours.
    neighbors = game.neighbors("orthogonal")
    for p in (0, 1):
        counts = state.charge_counts(p)
        expected = [int(np.sum(state.board[nb] == p + 1)) for nb in neighbors]
        assert list(counts) == expected
    # The placement rule, by hand: opp > own or opp >= 3 (F on the hex grid).
    own, opp = state.charge_counts(1), state.charge_counts(0)
    rule = (state.board == 0) & ((opp > own) | (opp >= 3))
    assert np.array_equal(state.placeable(1), rule)
    assert state.last_placer == 0


def test_subsume_surrounded_is_the_enclosed_empty_region() -> None:
    """Surrounded cells are the empty cells whose empty region cannot reach the perimeter
    (checked by a flood fill here), over random games."""
    for size in (3, 4, 5):
        game = sf.make("subsume", size=size)
        neighbors = game.neighbors("orthogonal")
        perimeter = set(game.perimeter.tolist())
        for seed in range(20):
            state = play(game.new_state(), 3 * game.num_sites // 4, seed * 1000)
            empty = state.board == 0
            reach = np.zeros(game.num_sites, bool)
            stack = [c for c in perimeter if empty[c]]
            for c in stack:
                reach[c] = True
            while stack:
                c = stack.pop()
                for t in neighbors[c]:
                    if empty[t] and not reach[t]:
                        reach[t] = True
                        stack.append(int(t))
            assert np.array_equal(state.surrounded(), empty & ~reach)
            if state.is_terminal() and state.returns() is not None:
                w = state.winner
                assert w is None or state.ranks()[w] == 1.0
