"""Runs experiments/strength/strength.py briefly: chunked ladders equal unchunked ones, resume."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import strength  # noqa: E402

import stonefield as sf  # noqa: E402
from stonefield._seeds import seat_seed  # noqa: E402
from stonefield.lab.results import FORMAT  # noqa: E402

ARGS = ["--iterations", "10", "--games", "6", "--agents", "uct,grave,strong", "--game", "subsume"]


def _run(out: Path, *extra: str) -> list[dict[str, Any]]:
    strength.main([*ARGS, "--out", str(out), "--tag", "t", *extra])
    runs: list[dict[str, Any]] = json.loads((out / "ladder-t.json").read_text())
    return runs


def _entries(path: Path) -> list[dict[str, Any]]:
    """The chunks of a results file (its lines after the header)."""
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_one_chunk_is_the_unchunked_ladder(tmp_path: Path) -> None:
    whole = _run(tmp_path / "whole")
    chunked = _run(tmp_path / "chunked", "--chunk", "6")
    assert whole == chunked
    (pairs,) = [r["pairs"] for r in whole]
    assert [p["games"] for p in pairs] == [6, 6, 6]
    assert not (tmp_path / "whole" / "ladder-t.results.jsonl").exists()


def test_a_chunk_is_the_match_of_its_lab_seed(tmp_path: Path) -> None:
    _run(tmp_path, "--agents", "uct,strong", "--games", "4", "--chunk", "2")
    second = _entries(tmp_path / "ladder-t.results.jsonl")[1]
    assert (second["first"], second["count"]) == (2, 2)
    m = sf.match(
        "subsume",
        [sf.MCTS(iterations=10), sf.MCTS(iterations=10, preset="strong")],
        games=2,
        seed=seat_seed(1, 1, 0),
    )
    assert second["points"] == float(m.score[0]) * 2
    assert second["stats"]["length"] == [int(x) for x in m.lengths]
    assert sum(second["stats"]["score"]) == second["points"]


def test_a_stopped_ladder_resumes_where_it_stopped(tmp_path: Path) -> None:
    full = _run(tmp_path, "--chunk", "2")
    log = tmp_path / "ladder-t.results.jsonl"
    head, *lines = log.read_text().splitlines()
    assert json.loads(head)["format"] == FORMAT
    # Three pairings of three chunks of two games each.
    assert len(lines) == 9
    rows = [json.loads(line) for line in lines]
    # In rounds: every pairing's first chunk, then every pairing's second, ...
    assert [r["first"] for r in rows] == [0, 0, 0, 2, 2, 2, 4, 4, 4]
    # Stopped after four chunks, the fifth cut short in mid-write: resuming plays the other
    # five and gets the same ladder.
    log.write_text("\n".join([head, *lines[:4]]) + "\n" + lines[4][:20])
    with pytest.warns(RuntimeWarning, match="the last line is incomplete"):
        resumed = _run(tmp_path, "--chunk", "2", "--resume")
    assert resumed == full
    assert len(_entries(log)) == 9
    assert "4 chunks of 2 games read back" in (tmp_path / "ladder-t.md").read_text()
    # Everything read back: nothing is played, and the result is the same again.
    assert _run(tmp_path, "--chunk", "2", "--resume") == full
    assert "9 chunks of 2 games read back" in (tmp_path / "ladder-t.md").read_text()
    # Without --resume the file starts afresh.
    assert _run(tmp_path, "--chunk", "2") == full
    assert "read back" not in (tmp_path / "ladder-t.md").read_text()


def test_chunks_record_what_was_asked(tmp_path: Path) -> None:
    rows = _run(tmp_path, "--chunk", "2")
    assert all(0.0 <= p["score"] <= 1.0 for p in rows[0]["pairs"])
    log = tmp_path / "ladder-t.results.jsonl"
    head = json.loads(log.read_text().splitlines()[0])["ladder"]
    assert head["budget"] == {"iterations": 10} and head["chunk"] == 2 and head["seed"] == 1
    entries = _entries(log)
    assert {e["count"] for e in entries} == {2}
    assert {tuple(e["pairing"]["agents"]) for e in entries} == {
        ("uct", "grave"),
        ("uct", "strong"),
        ("grave", "strong"),
    }
    # One variant per pairing, and every chunk's games once.
    assert len({(e["variant"], e["first"]) for e in entries}) == 9


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--chunk", "0"], "--chunk must be at least 1"),
        (["--games", "0"], "--games must be at least 1"),
        (["--resume"], "--resume needs --out and --chunk"),
        (["--played", "--chunk", "2"], "--played needs --out and --chunk"),
    ],
)
def test_bad_chunk_arguments(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        strength.main([*ARGS, *extra])
    assert message in capsys.readouterr().err


def test_more_games_reuse_the_chunks_played(tmp_path: Path) -> None:
    _run(tmp_path, "--chunk", "2")
    args = ["--games", "8", "--chunk", "2", "--resume"]
    strength.main([*ARGS, "--out", str(tmp_path), "--tag", "t", *args])
    assert "9 chunks of 2 games read back" in (tmp_path / "ladder-t.md").read_text()
    runs = json.loads((tmp_path / "ladder-t.json").read_text())
    assert [p["games"] for p in runs[0]["pairs"]] == [8, 8, 8]


def test_played_reports_the_rounds_every_pairing_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "ladder-t.results.jsonl"
    # Nothing played yet: nothing to report, and nothing is played.
    with pytest.raises(SystemExit):
        _run(tmp_path, "--chunk", "2", "--played")
    assert "nothing to report" in capsys.readouterr().err
    assert not log.exists()
    _run(tmp_path, "--chunk", "2")
    lines = log.read_text().splitlines()
    two_rounds = _run(tmp_path / "two", "--games", "4", "--chunk", "2")
    # Stopped in the third round, after one of its three chunks: the report is the first two
    # rounds (4 games a pairing), the ladder of 4 games, and nothing more is played.
    log.write_text("\n".join(lines[:8]) + "\n")
    assert _run(tmp_path, "--chunk", "2", "--played") == two_rounds
    assert [p["games"] for p in two_rounds[0]["pairs"]] == [4, 4, 4]
    assert log.read_text().splitlines() == lines[:8]
    report = (tmp_path / "ladder-t.md").read_text()
    assert "the games played so far of 6 per pairing" in report
    assert "no game played; 6 chunks of 2 games read back, the rounds every pairing" in report


DEFINE_ARGS = ["--iterations", "10", "--games", "2", "--game", "subsume", "--chunk", "2"]


def _define(tmp_path: Path, define: str) -> None:
    strength.main(
        [
            *DEFINE_ARGS,
            *("--agents", "uct,biased", "--define", define),
            *("--out", str(tmp_path), "--tag", "d", "--resume"),
        ]
    )


def test_a_defined_agent_plays_with_its_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _define(tmp_path, "biased=selection=grave,c=0,grave_bias=1e-3,playouts=mast")
    log = tmp_path / "ladder-d.results.jsonl"
    (entry,) = _entries(log)
    assert entry["pairing"]["agents"] == ["uct", "biased"]
    head = json.loads(log.read_text().splitlines()[0])["ladder"]
    assert head["defined"] == {
        "biased": {"selection": "grave", "c": 0.0, "grave_bias": 1e-3, "playouts": "mast"}
    }
    # The same name with other settings is another agent: the file is not resumed with it.
    with pytest.raises(SystemExit):
        _define(tmp_path, "biased=selection=grave,c=0,grave_bias=1e-2")
    assert "holds results of other arguments" in capsys.readouterr().err
    assert len(_entries(log)) == 1
    # Built-in agents only: nothing defined.
    strength.main([*ARGS, "--chunk", "2", "--out", str(tmp_path), "--tag", "b"])
    head = json.loads((tmp_path / "ladder-b.results.jsonl").read_text().splitlines()[0])
    assert head["ladder"]["defined"] == {}
    # The defined agent is that run's only: a later run does not know it.
    with pytest.raises(SystemExit):
        strength.main([*DEFINE_ARGS, "--agents", "uct,biased"])
    assert "unknown agents ['biased']" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("define", "message"),
    [
        ("uct=c=0.5", "the name is taken"),
        ("fast=time=0.5,c=0.5", "time are the ladder's to set"),
        ("many=500", "500 are the ladder's to set"),
        ("odd=grave_bias=-1", "grave_bias"),
        ("odd=colour=red", 'unknown setting "colour"'),
        ("noequals", "NAME=SETTINGS"),
    ],
)
def test_bad_defines_are_refused(
    define: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        strength.main([*ARGS, "--define", define])
    assert message in capsys.readouterr().err


def test_refitting_a_committed_ladder_gives_its_published_elo(tmp_path: Path) -> None:
    """The Subsume round robin at 1 s, read back from its converted results file (played
    with the former chunk files), fits to the ratings its report was published with."""
    tag = "time-1-subsume-round-robin-120"
    here = Path(__file__).parent
    shutil.copy(here / f"ladder-{tag}.results.jsonl", tmp_path)
    args = ["--time", "1", "--games", "120", "--agents", "uct,grave,uct+mast,strong"]
    args += ["--game", "subsume", "--chunk", "10", "--tag", tag, "--out", str(tmp_path)]
    strength.main([*args, "--played"])
    (refit,) = json.loads((tmp_path / f"ladder-{tag}.json").read_text())
    (published,) = json.loads((here / f"ladder-{tag}.json").read_text())
    assert refit["pairs"] == published["pairs"]
    assert refit["elo"].keys() == published["elo"].keys()
    for agent, (elo, half) in published["elo"].items():
        assert refit["elo"][agent] == pytest.approx([elo, half], rel=1e-9, abs=1e-9)
    # The published page's figure: strong +296 ± 53 over UCT.
    assert [round(x) for x in refit["elo"]["strong"]] == [296, 53]


def test_the_expert_plays_in_the_ladder(tmp_path: Path) -> None:
    """The shipped network's agent is a ladder agent: a tiny ladder against UCT at 10
    iterations (the expert's simulations)."""
    args = ["--iterations", "10", "--games", "2", "--agents", "uct,expert", "--game", "subsume"]
    strength.main([*args, "--out", str(tmp_path), "--tag", "e", "--speed", "--chunk", "2"])
    (run,) = json.loads((tmp_path / "ladder-e.json").read_text())
    (pair,) = run["pairs"]
    assert pair["games"] == 2 and 0.0 <= pair["score"] <= 1.0
    assert set(run["elo"]) == {"uct", "expert"}
    assert run["speed"]["expert"] > 0
    # Named, it joins the run's agents after the built-in ones; it is not a defined agent.
    head = json.loads((tmp_path / "ladder-e.results.jsonl").read_text().splitlines()[0])
    assert head["ladder"]["agents"] == [*strength.AGENTS, "expert"]
    assert head["ladder"]["defined"] == {}
    assert [e["pairing"]["agents"] for e in _entries(tmp_path / "ladder-e.results.jsonl")] == [
        ["uct", "expert"]
    ]
