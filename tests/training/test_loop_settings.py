"""The loop's knobs for small-compute training (issue 54, item 4): playout-cap randomisation,
exact values from sf.solve, a curriculum of boards, evaluation against the strong preset and
the throughput columns; settings that make no sense are refused with what is allowed, and a
resume across a board change gives the network of a run that went through."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield.alphazero import Network, TrainConfig, train
from stonefield.alphazero.loop import exact_values, parse_curriculum
from stonefield.cli import main

GAME = sf.make("subsume", size=3)
TINY: dict[str, Any] = dict(
    games=2,
    simulations=8,
    batch_size=4,
    epochs=1,
    window=2,
    hidden=8,
    layers=1,
    eval_games=0,
    seed=5,
)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"full_search_share": 1.5}, "full_search_share must be from 0 to 1"),
        ({"full_search_share": -0.1}, "full_search_share must be from 0 to 1"),
        ({"fast_simulations": 8}, "fast_simulations must be 1 to 7"),
        ({"fast_simulations": 0}, "fast_simulations must be 1 to 7"),
        ({"value_mix": 2.0}, "value_mix must be from 0 to 1"),
        ({"workers": 0}, "workers must be at least 1"),
        ({"address": "127.0.0.1:1"}, "address needs workers"),
        ({"curriculum": "size=3"}, "OPTIONS:ROUNDS"),
        ({"curriculum": "size=3:0"}, "OPTIONS:ROUNDS"),
        ({"curriculum": "size:2"}, "OPTIONS:ROUNDS"),
        ({"curriculum": "size=99:2"}, "curriculum {'size': 99}"),
        ({"exact_empty": -1}, "exact_empty must be at least 0"),
    ],
)
def test_settings_that_make_no_sense_are_refused(
    changes: dict[str, Any], words: str, tmp_path: Path
) -> None:
    with pytest.raises(sf.InvalidOptionError, match=words):
        train(GAME, 1, tmp_path / "run", TrainConfig(**{**TINY, **changes}))
    assert not (tmp_path / "run").exists()


def test_the_command_refuses_a_share_outside_0_to_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["train", "subsume", "--iterations", "1", "--out", str(tmp_path / "r")]
    with pytest.raises(SystemExit):
        main([*args, "--full-search-share", "1.5"])
    assert "full-search-share must be a number from 0 to 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*args, "--gate-threshold", "0"])
    assert "gate-threshold must be a number above 0 and at most 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*args, "--gate-games", "-2"])
    assert "gate-games" in capsys.readouterr().err


def test_curriculum_syntax() -> None:
    assert parse_curriculum("size=3:4, size=4+anti_blob=false:8") == [
        ({"size": 3}, 4),
        ({"size": 4, "anti_blob": False}, 8),
    ]


def test_exact_values_make_the_targets_of_small_positions_proven_outcomes() -> None:
    data = sf.selfplay("subsume", sf.PUCT(simulations=8, seed=1), games=3, seed=2, size=3)
    legal = data.legal_masks.sum(axis=1)
    exact, stats = exact_values(data, 4, 5000)
    small = legal <= 4
    assert stats["exact_tried"] == int(small.sum()) > 0
    assert 0 < stats["exact_proven"] <= stats["exact_tried"]
    assert np.array_equal(exact.returns[~small], data.returns[~small])
    for row in np.flatnonzero(small):
        g = int(data.game_index[row])
        state = GAME.new_state()
        for a in data.game_actions(g)[: row - int(data.offsets[g])]:
            state.apply(a)
        r = sf.solve(state, max_nodes=5000, threads=1)
        mover = int(data.players[row])
        if r.value is not None:
            assert exact.returns[row, mover] == r.value == exact.search_values[row]
        else:
            assert exact.returns[row, mover] == data.returns[row, mover]


def _same_network(a: Path, b: Path) -> None:
    with np.load(a / "latest.npz") as x, np.load(b / "latest.npz") as y:
        for k in x.files:
            if k != "header":
                np.testing.assert_allclose(x[k], y[k], rtol=1e-5, atol=1e-6)


def test_a_capped_run_with_exact_values_and_the_strong_match_resumes_to_the_same_network(
    tmp_path: Path,
) -> None:
    config = TrainConfig(
        **{
            **TINY,
            "full_search_share": 0.5,
            "fast_simulations": 2,
            "exact_empty": 3,
            "strong_games": 2,
            "eval_simulations": 8,
        }
    )
    through, stopped = tmp_path / "through", tmp_path / "stopped"
    rows = train(GAME, 2, through, config)
    for r in rows:
        assert r["board"] == "size=3 anti_blob=True remove_surrounded=True"
        assert 0 < r["full_searches"] < r["positions"]
        assert r["positions_per_core_second"] > 0
        # The graph network is played natively, inside the search, where no one times it.
        assert "network_share" not in r
        assert r["selfplay_cores"] == 1
        assert r["exact_tried"] >= r["exact_proven"] >= 0
        assert 0 <= r["strong_low"] <= r["score_vs_strong"] <= r["strong_high"] <= 1
        assert r["seconds_per_move"] > 0
    table = (through / "results.md").read_text()
    assert "score vs strong" in table and "positions/s/core" in table and "anti_blob=True" in table
    saved = json.loads((through / "results.json").read_text())
    assert saved["rows"][1]["board"] == rows[1]["board"]
    train(GAME, 1, stopped, config)
    other = TrainConfig(**{**config.__dict__, "full_search_share": 0.25})
    with pytest.raises(
        sf.InvalidOptionError, match="full_search_share=0.5.*full_search_share=0.25"
    ):
        train(GAME, 2, stopped, other, resume=True)
    # The time budget of a sitting may change on a resume.
    again = train(GAME, 2, stopped, TrainConfig(**{**config.__dict__, "minutes": 60}), resume=True)
    assert [r["iteration"] for r in again] == [1, 2]
    _same_network(stopped, through)


def test_a_curriculum_names_its_boards_and_resumes_across_the_change(tmp_path: Path) -> None:
    if "architecture" not in inspect.signature(Network.create).parameters:
        pytest.skip("a change of board needs the graph network, which plays every size")
    config = TrainConfig(**{**TINY, "curriculum": "size=3:1,size=4:1"})
    through, stopped = tmp_path / "through", tmp_path / "stopped"
    rows = train(GAME, 3, through, config)
    boards = [r["board"].split()[0] for r in rows]
    assert boards == ["size=3", "size=4", "size=4"]
    train(GAME, 1, stopped, config)
    again = train(GAME, 3, stopped, config, resume=True)
    assert [r["board"] for r in again] == [r["board"] for r in rows]
    _same_network(stopped, through)
