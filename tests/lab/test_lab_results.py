"""The results file: every line checked when it is read, the games a chunk keeps included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import stonefield as sf

ARGS: dict[str, Any] = {"fixed": {"size": 3}, "games": 6, "seed": 2}


def _run(path: Path) -> list[dict[str, Any]]:
    sf.lab.evaluate("subsume", out=str(path), **ARGS)
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, lines: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))


@pytest.mark.parametrize(
    ("damage", "match"),
    [
        (lambda acts: [999_999, *acts[1:]], "does not replay: action 999999 at move 0"),
        (lambda acts: [-1, *acts[1:]], "holds -1, not an action"),
        (lambda acts: ["x", *acts[1:]], "holds 'x', not an action"),
        (lambda acts: [1.5, *acts[1:]], "holds 1.5, not an action"),
        (lambda acts: [True, *acts[1:]], "holds True, not an action"),
        (lambda acts: acts[:-1], "actions, its stats"),
        (lambda acts: [*acts[:-1], acts[0]], "does not replay"),
    ],
)
def test_a_kept_record_is_checked_when_the_file_is_read(
    tmp_path: Path, damage: Any, match: str
) -> None:
    path = tmp_path / "r.jsonl"
    lines = _run(path)
    chunk = lines[1]
    assert chunk["records"], "game 0 is kept for the report's board"
    record = chunk["records"][0]
    record["actions"] = damage(record["actions"])
    _write(path, lines)
    with pytest.raises(sf.RecordError, match=rf"r\.jsonl: line 2: .*{match}"):
        sf.lab.evaluate("subsume", out=str(path), **ARGS)


def test_a_kept_record_outside_its_chunk_or_past_the_end_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    lines = _run(path)
    record = lines[1]["records"][0]
    record["index"] = 99
    _write(path, lines)
    with pytest.raises(sf.RecordError, match="line 2: a kept record's index must be a game"):
        sf.lab.evaluate("subsume", out=str(path), **ARGS)
    # A game that replays but stops before its end (its length given as its stats say).
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    record = lines[1]["records"][0]
    record["index"] = 0
    record["actions"] = record["actions"][:-1]
    lines[1]["stats"]["length"][0] -= 1
    _write(path, lines)
    with pytest.raises(sf.RecordError, match="stops before its game ends"):
        sf.lab.evaluate("subsume", out=str(path), **ARGS)


def test_an_intact_file_resumes_with_its_records(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    _run(path)
    lab = sf.lab.evaluate("subsume", out=str(path), **ARGS)
    assert lab.records(0)[0]["lab_game_index"] == 0
