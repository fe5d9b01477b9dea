"""Fixed-strategy and restricted agents (``sf.MirrorAgent``, ``sf.RestrictedAgent``)."""

from __future__ import annotations

import numpy as np
import pytest

import stonefield as sf
from stonefield.strategies import mirror_map, move_classes


def test_mirror_map_of_a_square_board_by_hand() -> None:
    # 4 × 4 square points, site y·4 + x: the centre reflection sends (x, y) to (3 − x, 3 − y),
    # site s to 15 − s.
    sigma = mirror_map(sf.make("windflowers", grid="square", size=3))
    assert sigma is not None and sigma.tolist() == [15 - s for s in range(16)]


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("windflowers", {"grid": "trisquare", "size": 4}),
        ("windflowers", {"grid": "square", "size": 4}),
        ("subsume", {"size": 5}),
        ("faraday", {"grid": "hex_omni", "order": 4}),
        ("smallholder", {"board": "hex4"}),
    ],
)
def test_mirror_map_keeps_sites_and_relations(name: str, options: dict[str, object]) -> None:
    game = sf.make(name, **options)
    sigma = mirror_map(game)
    assert sigma is not None
    assert np.array_equal(sigma[sigma], np.arange(game.num_sites))
    coords = game.coords
    centre = coords.mean(axis=0)
    assert np.allclose(coords[sigma], 2 * centre - coords)
    for relation in ("orthogonal", "diagonal"):
        nb = game.neighbors(relation)
        for s in range(game.num_sites):
            assert sorted(sigma[nb[s]].tolist()) == sorted(nb[sigma[s]].tolist())


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("windflowers", {"grid": "hex", "size": 4}),
        ("faraday", {"grid": "hex_limping", "order": 4}),
        ("smallholder", {"board": "hex232323"}),
    ],
)
def test_mirror_agent_refuses_boards_without_a_point_reflection(
    name: str, options: dict[str, object]
) -> None:
    game = sf.make(name, **options)
    assert mirror_map(game) is None
    state = game.new_state()
    with pytest.raises(sf.InvalidOptionError, match="symmetric through their centre"):
        sf.MirrorAgent(sf.RandomAgent()).act(state)
    with pytest.raises(sf.InvalidOptionError, match="act"):
        sf.MirrorAgent(object())


def test_the_mirror_copies_every_move_it_can() -> None:
    game = sf.make("windflowers", grid="square", size=3)
    sigma = mirror_map(game)
    assert sigma is not None
    for seed in range(6):
        mirror = sf.MirrorAgent(sf.RandomAgent(seed=seed))
        mirror.reset(seed=seed)
        first = sf.RandomAgent(seed=100 + seed)
        state = game.new_state()
        while not state.is_terminal():
            if state.current_player == 1:
                last = state.history[-1]
                a = mirror.act(state)
                image = int(sigma[last]) if last < game.num_sites else last
                if state.legal_mask()[image]:
                    assert a == image
                state.apply(a)
            else:
                state.apply(first.act(state))
        assert mirror.mirrored > 0
    # In a match (Python agents play on this thread), seats rotating.
    m = sf.match(game, [sf.MCTS(iterations=16), sf.MirrorAgent(sf.RandomAgent())], games=4)
    assert m.returns.shape == (4, 2)


def test_move_classes() -> None:
    assert move_classes(sf.make("windflowers", size=3)) == {"pass": [14]}
    n = sf.make("faraday", order=3).num_sites
    assert move_classes(sf.make("faraday", order=3)) == {
        "pass": [2 * n],
        "accept": [2 * n + 1],
        "swap": [2 * n + 2],
    }
    assert move_classes(sf.make("subsume")) == {}


def test_restricted_agents_never_take_a_forbidden_move() -> None:
    game = sf.make("windflowers", grid="square", size=3)
    n = game.num_sites
    for inner in (sf.RandomAgent(seed=1), sf.MCTS(iterations=20, seed=2)):
        agent = sf.RestrictedAgent(inner, forbid=["pass"])
        agent.reset(seed=5)
        other = sf.RandomAgent(seed=9)
        state = game.new_state()
        while not state.is_terminal() and len(state.history) < 200:
            if state.current_player == 0:
                a = agent.act(state)
                legal = state.legal_actions().tolist()
                assert a in legal
                assert a != n or legal == [n], "a pass only when nothing else is legal"
            else:
                a = other.act(state)
            state.apply(a)
    with pytest.raises(sf.InvalidOptionError, match="classes: pass"):
        sf.RestrictedAgent(sf.RandomAgent(), forbid=["swap"]).act(game.new_state())
    with pytest.raises(sf.InvalidOptionError, match="at least one"):
        sf.RestrictedAgent(sf.RandomAgent(), forbid=[])


def test_a_restricted_agent_in_the_lab_never_swaps() -> None:
    never_swap = sf.RestrictedAgent(sf.RandomAgent(), forbid=["swap"])
    lab = sf.lab.evaluate(
        "faraday", fixed={"order": 3}, agents=[sf.RandomAgent(), never_swap], games=12, seed=1
    )
    m = lab.metrics()[0]
    assert m["pie_swap"].value == 0.0 and m["pie_swap"].n > 0
    assert "restricted(swap;" in lab.agents_label()
