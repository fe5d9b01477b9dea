"""Runs experiments/strength/strength.py briefly: chunked ladders equal unchunked ones, resume."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import strength  # noqa: E402

ARGS = ["--iterations", "10", "--games", "6", "--agents", "uct,grave,strong", "--game", "subsume"]


def _run(out: Path, *extra: str) -> list[dict[str, Any]]:
    strength.main([*ARGS, "--out", str(out), "--tag", "t", *extra])
    runs: list[dict[str, Any]] = json.loads((out / "ladder-t.json").read_text())
    return runs


def test_one_chunk_is_the_unchunked_ladder(tmp_path: Path) -> None:
    whole = _run(tmp_path / "whole")
    chunked = _run(tmp_path / "chunked", "--chunk", "6")
    assert whole == chunked
    (pairs,) = [r["pairs"] for r in whole]
    assert [p["games"] for p in pairs] == [6, 6, 6]
    assert not (tmp_path / "whole" / "ladder-t.chunks.jsonl").exists()


def test_a_stopped_ladder_resumes_where_it_stopped(tmp_path: Path) -> None:
    full = _run(tmp_path, "--chunk", "2")
    log = tmp_path / "ladder-t.chunks.jsonl"
    lines = log.read_text().splitlines()
    # Three pairings of three chunks of two games each.
    assert len(lines) == 9
    rows = [json.loads(line) for line in lines]
    # In rounds: every pairing's first chunk, then every pairing's second, ...
    assert [json.loads(r["key"])["index"] for r in rows] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    # Stopped after four chunks, the fifth cut short in mid-write: resuming plays the other
    # five and gets the same ladder.
    log.write_text("\n".join(lines[:4]) + "\n" + lines[4][:20])
    resumed = _run(tmp_path, "--chunk", "2", "--resume")
    assert resumed == full
    assert len([line for line in log.read_text().splitlines() if line.endswith("}")]) == 9
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
    keys = [
        json.loads(json.loads(line)["key"])
        for line in (tmp_path / "ladder-t.chunks.jsonl").read_text().splitlines()
    ]
    assert {k["budget"]["iterations"] for k in keys} == {10}
    assert {k["games"] for k in keys} == {2} and {k["chunk"] for k in keys} == {2}
    assert {tuple(k["agents"]) for k in keys} == {
        ("uct", "grave"),
        ("uct", "strong"),
        ("grave", "strong"),
    }


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
    log = tmp_path / "ladder-t.chunks.jsonl"
    # Nothing played yet: nothing to report, and nothing is played.
    log.write_text("")
    with pytest.raises(SystemExit):
        _run(tmp_path, "--chunk", "2", "--played")
    assert "nothing to report" in capsys.readouterr().err
    assert log.read_text() == ""
    _run(tmp_path, "--chunk", "2")
    lines = log.read_text().splitlines()
    two_rounds = _run(tmp_path / "two", "--games", "4", "--chunk", "2")
    # Stopped in the third round, after one of its three chunks: the report is the first two
    # rounds (4 games a pairing), the ladder of 4 games, and nothing more is played.
    log.write_text("\n".join(lines[:7]) + "\n")
    assert _run(tmp_path, "--chunk", "2", "--played") == two_rounds
    assert [p["games"] for p in two_rounds[0]["pairs"]] == [4, 4, 4]
    assert log.read_text().splitlines() == lines[:7]
    report = (tmp_path / "ladder-t.md").read_text()
    assert "the games played so far of 6 per pairing" in report
    assert "no game played; 6 chunks of 2 games read back, the rounds every pairing" in report


DEFINE_ARGS = ["--iterations", "10", "--games", "2", "--game", "subsume", "--chunk", "2"]


def test_a_defined_agent_plays_with_its_settings(tmp_path: Path) -> None:
    strength.main(
        [
            *DEFINE_ARGS,
            "--agents",
            "uct,biased",
            "--define",
            "biased=selection=grave,c=0,grave_bias=1e-3,playouts=mast",
            "--out",
            str(tmp_path),
            "--tag",
            "d",
            "--resume",
        ]
    )
    (line,) = (tmp_path / "ladder-d.chunks.jsonl").read_text().splitlines()
    key = json.loads(json.loads(line)["key"])
    assert key["agents"] == ["uct", "biased"]
    assert key["defined"] == {
        "biased": {"selection": "grave", "c": 0.0, "grave_bias": 1e-3, "playouts": "mast"}
    }
    # The same name with other settings is another agent: nothing is read back for it.
    strength.main(
        [
            *DEFINE_ARGS,
            "--agents",
            "uct,biased",
            "--define",
            "biased=selection=grave,c=0,grave_bias=1e-2",
            "--out",
            str(tmp_path),
            "--tag",
            "d",
            "--resume",
        ]
    )
    assert "read back" not in (tmp_path / "ladder-d.md").read_text()
    assert len((tmp_path / "ladder-d.chunks.jsonl").read_text().splitlines()) == 2
    # Built-in agents keep the keys they had: no "defined" entry.
    strength.main([*ARGS, "--chunk", "2", "--out", str(tmp_path), "--tag", "b"])
    for row in (tmp_path / "ladder-b.chunks.jsonl").read_text().splitlines():
        assert "defined" not in json.loads(json.loads(row)["key"])
    # The defined agent is this run's only.
    assert strength.DEFINED == {}


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
