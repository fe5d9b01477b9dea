"""The Python API: names, types, errors."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import stonefield as sf


def test_games_and_defaults() -> None:
    assert "windflowers" in sf.games()
    g = sf.make("windflowers")
    assert g.name == "windflowers"
    assert g.options == {
        "players": 2,
        "grid": "trisquare",
        "size": 4,
        "scoring": "stones",
        "tiebreak": "underdog",
        "last_placer_breaks_ties": False,
        "max_moves": 340,
    }
    assert (g.num_players, g.num_sites, g.num_actions) == (2, 34, 35)
    assert g.coords.dtype == np.float64 and g.coords.shape == (34, 2)
    nb = g.neighbors("orthogonal")
    assert len(nb) == 34 and all(a.dtype == np.int64 for a in nb)
    assert sorted(len(a) for a in nb)[-1] == 5
    assert max(len(a) for a in g.neighbors("all")) == 7
    assert max(len(a) for a in g.neighbors("diagonal")) == 2


def test_exception_hierarchy() -> None:
    for cls in (sf.IllegalMoveError, sf.InvalidOptionError, sf.GameOverError, sf.RecordError):
        assert issubclass(cls, sf.StonefieldError)
    assert issubclass(sf.StonefieldError, ValueError)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"grid": "triangle"}, '"hex", "trisquare", "square"'),
        ({"players": 5}, "2 to 4"),
        ({"players": "two"}, "2 to 4"),
        ({"size": 2}, "3 to 15"),
        ({"colour": "red"}, "players"),
        ({"last_placer_breaks_ties": 1}, "true or false"),
        ({"players": 2.0}, "str, int or bool"),
        ({"players": 10**30}, "out of range"),
    ],
)
def test_bad_options(kwargs: dict, fragment: str) -> None:
    with pytest.raises(sf.InvalidOptionError, match=None) as info:
        sf.make("windflowers", **kwargs)
    assert fragment in str(info.value)


def test_unknown_game_lists_games() -> None:
    with pytest.raises(sf.InvalidOptionError) as info:
        sf.make("go")
    assert "windflowers" in str(info.value)
    with pytest.raises(sf.InvalidOptionError):
        sf.make("windflowers").neighbors("sideways")


def test_state_basics() -> None:
    g = sf.make("windflowers", grid="square", size=3)
    s = g.new_state()
    assert s.current_player == 0 and not s.is_terminal() and not s.truncated
    assert s.board.dtype == np.int8 and s.board.shape == (16,)
    s.apply(np.int64(5))
    s.apply(16)  # pass
    assert s.history == [5, 16]
    assert s.move_count == 2
    assert s.board[5] == 1
    assert list(s.scores()) == [1.0, 0.0]
    assert s.returns() is None and s.ranks() is None
    assert s.undo() == 16
    assert s.undo() == 5
    with pytest.raises(IndexError):
        s.undo()
    with pytest.raises(TypeError):
        s.apply(1.5)  # type: ignore[arg-type]
    assert not s.is_legal(-1) and not s.is_legal(99) and s.is_legal(16)


def test_game_over_and_results() -> None:
    g = sf.make("windflowers", players=3)
    s = g.new_state()
    s.apply(0)
    for _ in range(3):
        s.apply(34)
    assert s.is_terminal() and s.current_player is None
    assert list(s.ranks()) == [1.0, 2.5, 2.5]
    assert list(s.returns()) == [1.0, -0.5, -0.5]
    with pytest.raises(sf.GameOverError):
        s.apply(1)
    assert len(s.legal_actions()) == 0 and not s.legal_mask().any()


def test_copy_pickle_equality() -> None:
    g = sf.make("windflowers", players=4, grid="hex", size=5)
    assert pickle.loads(pickle.dumps(g)) == g
    assert hash(pickle.loads(pickle.dumps(g))) == hash(g)
    assert g != sf.make("windflowers")
    s = g.new_state()
    for a in (0, 1, 2, 60, 7):
        s.apply(a)
    for t in (pickle.loads(pickle.dumps(s)), copy.copy(s), copy.deepcopy(s), s.copy()):
        assert t.history == s.history
        assert np.array_equal(t.board, s.board)
        assert t.current_player == s.current_player
    t = s.copy()
    t.apply(9)
    assert s.history == [0, 1, 2, 60, 7]
    assert "windflowers" in repr(g) and "players=4" in repr(g)
    assert eval(repr(g), {"stonefield": sf}) == g


def test_bool_is_not_an_int_option() -> None:
    with pytest.raises(sf.InvalidOptionError):
        sf.make("windflowers", players=True)
