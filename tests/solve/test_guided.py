"""The solver guided by a trained network (``sf.solve(..., guide=...)``) and ``value_only``:
the same answers as the solver alone, the guide's order at the root, bad input refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield._checkpoint import CheckpointNetwork
from stonefield.cli import main


def nibbler12() -> sf.State:
    return sf.make("smallholder", board="hex232323").new_state()


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("smallholder", {"board": "hex232323"}),
        ("smallholder", {"board": "hex232323", "ruleset": "stymie"}),
        ("subsume", {"size": 3}),
        ("windflowers", {"size": 3, "grid": "trisquare"}),
        ("faraday", {"order": 3, "grid": "hex_limping"}),
    ],
)
def test_the_expert_guide_changes_nothing_but_the_work(name: str, options: dict[str, Any]) -> None:
    game = sf.make(name, **options)
    s = game.new_state()
    if game.num_sites > 12:
        # Far enough in for a quick solve.
        for a in (0, 5, 9, 2, 14, 7)[: game.num_sites - 12]:
            if s.is_terminal():
                break
            legal = list(s.legal_actions())
            s.apply(legal[a % len(legal)])
    alone = sf.solve(s)
    for depth in (0, 4, 64):
        guided = sf.solve(s, guide="expert", guide_depth=depth)
        assert guided.value == alone.value and guided.best == alone.best
        assert np.array_equal(guided.outcomes, alone.outcomes)
        assert guided.stopped_by == "solved"


def test_value_only_stops_at_the_first_proven_win() -> None:
    whole = sf.solve(nibbler12())
    assert whole.value == 1 and whole.best == [1, 7, 9]
    res = sf.solve(nibbler12(), value_only=True)
    assert res.value == 1 and res.best == [1] and res.stopped_by == "value"
    unproven = res.outcomes == sf.SolveResult.NOT_PROVEN
    assert unproven[2:].all() and not unproven[:2].any() and res.pv == []
    assert res.nodes < whole.nodes
    # The guide's order at the root: its favourite winning first move is the one proven.
    guided = sf.solve(nibbler12(), value_only=True, guide="expert")
    assert guided.value == 1 and guided.stopped_by == "value"
    assert len(guided.best) == 1 and guided.best[0] in whole.best
    # A lost root is solved whole.
    lost = sf.make("smallholder", board="hex232323", ruleset="stymie").new_state()
    res = sf.solve(lost, value_only=True)
    assert res.value == -1 and res.stopped_by == "solved"


def test_a_guide_from_a_checkpoint_path_or_object(tmp_path: Path) -> None:
    game = sf.make("smallholder", board="hex232323")
    net = CheckpointNetwork.random(game, hidden=8, layers=1, architecture="graph")
    path = tmp_path / "net.npz"
    net.save(path)
    whole = sf.solve(game.new_state())
    for guide in (net, path, str(path)):
        res = sf.solve(game.new_state(), guide=guide, guide_depth=3)
        assert res.value == whole.value and res.best == whole.best


def test_bad_guides_are_refused(tmp_path: Path) -> None:
    s = nibbler12()
    with pytest.raises(sf.InvalidOptionError, match="guide must be a graph network"):
        sf.solve(s, guide=42)
    mlp = CheckpointNetwork.random(
        sf.make("smallholder", board="hex232323"), hidden=8, layers=1, architecture="mlp"
    )
    with pytest.raises(sf.InvalidOptionError, match="guide must be a graph network"):
        sf.solve(s, guide=mlp)
    # Another game's network: the core names both.
    other = CheckpointNetwork.random(
        sf.make("windflowers", size=3), hidden=8, layers=1, architecture="graph"
    )
    with pytest.raises(sf.InvalidOptionError):
        sf.solve(s, guide=other)
    with pytest.raises(sf.RecordError, match="cannot be read"):
        sf.solve(s, guide=tmp_path / "missing.npz")
    with pytest.raises(sf.InvalidOptionError, match="guide_depth is only used with guide"):
        sf.solve(s, guide_depth=3)
    for depth in (-1, 65, 1.5, True):
        with pytest.raises(sf.InvalidOptionError, match="guide_depth"):
            sf.solve(s, guide="expert", guide_depth=depth)
    with pytest.raises(sf.InvalidOptionError, match="value_only"):
        sf.solve(
            sf.make("windflowers", size=3, max_moves=4).new_state(), value_only=True, margin=True
        )
    with pytest.raises(sf.InvalidOptionError, match="value_only"):
        sf.solve(s, value_only=1)


def test_cli_guide_and_value_only(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solve", "smallholder", "--option", "board=hex232323", "--json"]
    assert main([*args, "--guide", "expert", "--guide-depth", "2", "--value-only"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == 1 and out["stopped_by"] == "value" and len(out["best"]) == 1
    assert sum(o is not None for o in out["outcomes"]) >= 1
    with pytest.raises(SystemExit):
        main([*args, "--guide-depth", "2"])
    assert "only used with --guide" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*args, "--guide", "expert", "--graph"])
    assert "not used with --graph" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*args, "--guide", "/no/such/net.npz"])
    assert "--guide" in capsys.readouterr().err


def test_try_first_sets_the_root_order() -> None:
    whole = sf.solve(nibbler12())
    res = sf.solve(nibbler12(), value_only=True, try_first=[9, 1])
    assert res.value == 1 and res.best == [9] and res.stopped_by == "value"
    # A loser first is proven, then the next.
    res = sf.solve(nibbler12(), value_only=True, try_first=np.array([0, 7]))
    assert res.best == [7] and res.outcomes[0] == whole.outcomes[0]
    # The whole solve is the same in any order.
    res = sf.solve(nibbler12(), try_first=[11, 10, 9])
    assert np.array_equal(res.outcomes, whole.outcomes)
    for bad, match in [
        ([99], "not legal here"),
        ([1, 1], "there twice"),
        ([-1], "try_first"),
        ("1,2", "sequence of root actions"),
        (3, "sequence of root actions"),
        ([1.5], "try_first"),
    ]:
        with pytest.raises(sf.InvalidOptionError, match=match):
            sf.solve(nibbler12(), try_first=bad)


def test_cli_try_first(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solve", "smallholder", "--option", "board=hex232323", "--json", "--value-only"]
    assert main([*args, "--try-first", "9,1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["best"] == [9] and out["stopped_by"] == "value"
    with pytest.raises(SystemExit):
        main([*args, "--try-first", "a,b"])
    assert "action ids separated by commas" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*args, "--try-first", "99"])
    assert "not legal here" in capsys.readouterr().err
