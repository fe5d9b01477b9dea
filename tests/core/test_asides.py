"""The rule options from the designers' texts, through the Python API: Subsume's ``anti_blob`` and
``remove_surrounded``, Faraday's ``min_offer_stones``. The rules themselves are held by the Rust
hand-checked positions and brute force; here: options, records (old records read with the
defaults), the inspection method, pictures and errors."""

from __future__ import annotations

import numpy as np
import pytest

import stonefield as sf
from stonefield.records import from_record, to_record


def kept_position(seed_from: int = 0) -> sf.State:
    """A random Subsume game with ``remove_surrounded=False`` that has kept a stone."""
    for seed in range(seed_from, seed_from + 400):
        state = sf.make("subsume", size=4, remove_surrounded=False).new_state()
        i = 0
        while not state.is_terminal():
            state.apply(state.random_action(seed * 1000 + i))
            i += 1
            if state.enclosed_stones().any():
                return state
    raise AssertionError("no game kept a stone")


def test_defaults_and_errors() -> None:
    assert sf.make("subsume").options == {"size": 6, "anti_blob": True, "remove_surrounded": True}
    assert sf.make("faraday").options["min_offer_stones"] == 0
    with pytest.raises(sf.InvalidOptionError, match="true or false"):
        sf.make("subsume", anti_blob=1)
    with pytest.raises(sf.InvalidOptionError, match="0 to 3"):
        sf.make("faraday", min_offer_stones=4)
    names = {o["name"] for o in sf.option_spec("subsume")}
    assert {"anti_blob", "remove_surrounded"} <= names


def test_old_records_read_with_the_defaults() -> None:
    for name, options, key in [
        ("subsume", {"size": 4}, "anti_blob"),
        ("faraday", {"order": 3}, "min_offer_stones"),
    ]:
        state = sf.make(name, **options).new_state()
        for i in range(4):
            state.apply(state.random_action(i))
        record = to_record(state)
        assert key in record["options"]
        old = dict(record, options=dict(options))
        again = from_record(old)
        assert again.history == state.history
        assert again.game.options == state.game.options


def test_kept_stones_are_shown_faded_and_in_records() -> None:
    state = kept_position()
    kept = state.enclosed_stones()
    assert kept.dtype == np.bool_ and kept.shape == (state.game.num_sites,)
    assert np.all(state.board[kept] > 0)
    assert not np.any(state.legal_mask()[: state.game.num_sites][kept])
    svg = state.to_svg()
    assert svg.count(" enclosed") == int(kept.sum())
    text = str(state)
    assert any(c in text for c in "xo")
    # A record replays to the same board, kept stones included.
    again = from_record(to_record(state))
    assert np.array_equal(again.board, state.board)
    assert np.array_equal(again.enclosed_stones(), kept)
    # With removal the same actions leave those cells empty.
    removed = sf.make("subsume", size=4).new_state()
    for a in state.history:
        removed.apply(a)
    assert np.all(removed.board[kept] == 0)
    assert not removed.enclosed_stones().any()
    assert np.array_equal(removed.board[~kept], state.board[~kept])
    with pytest.raises(AttributeError, match="subsume"):
        sf.make("faraday").new_state().enclosed_stones()


def test_without_the_anti_blob_rule_a_blob_may_grow() -> None:
    # On the empty board every cell is legal either way; after a Red stone, Blue may not play
    # beside only Blue stones with the rule, and may without it.
    with_rule = sf.make("subsume", size=3).new_state()
    without = sf.make("subsume", size=3, anti_blob=False).new_state()
    for s in (with_rule, without):
        s.apply(9)  # Red in the centre
        s.apply(0)  # Blue in a corner
        s.apply(18)  # Red in the far corner
    # Blue to move: cell 1 touches Blue's 0 and nothing else.
    assert not with_rule.legal_mask()[1]
    assert without.legal_mask()[1]


def test_min_offer_stones_from_python() -> None:
    game = sf.make("faraday", order=3, min_offer_stones=2)
    n = game.num_sites
    state = game.new_state()
    assert 2 * n not in state.legal_actions()
    with pytest.raises(sf.IllegalMoveError):
        state.apply(2 * n)
    assert state.history == [] and state.pie_actions_left == 3
    state.apply(0)
    state.apply(n + 1)
    assert 2 * n in state.legal_actions()
    state.apply(2 * n)
    assert state.phase == "choice"


def test_the_shape_over_the_game_with_and_without_the_asides() -> None:
    """The lab's series of Subsume's shape: kept stones take no part, so random games (the
    same draws either way) give the same series with and without removal; without the anti-blob
    rule each colour's stones hang together more in mid-game (fewer groups of one colour, a
    larger share in the largest), and every series ends at the game's final column."""
    lab = sf.lab.evaluate(
        "subsume",
        vary={"anti_blob": [True, False], "remove_surrounded": [True, False]},
        fixed={"size": 4},
        games=200,
        seed=3,
    )
    names = ("groups_final_0", "groups_final_1", "largest_group_share_0", "largest_group_share_1")
    cols = [lab.columns(v) for v in range(4)]
    for a, b in ((0, 1), (2, 3)):
        for name in names:
            np.testing.assert_array_equal(cols[a][f"{name}_series"], cols[b][f"{name}_series"])
    for c in cols:
        for name in names:
            np.testing.assert_array_equal(c[f"{name}_series"][:, 9], c[name])
    m = lab.metrics()
    # Mid-game: the end of tenth 4, half the game played.
    assert m[2]["groups_final_0_series_4"].high < m[0]["groups_final_0_series_4"].low
    assert m[2]["largest_group_share_0_series_4"].low > m[0]["largest_group_share_0_series_4"].high
