"""Runs experiments/solve-growth/growth.py on the 12-cell board: one line a position, games
over before the plies are skipped, and a second run resumes (adds nothing it has)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import growth  # noqa: E402


def test_a_run_writes_its_lines_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        growth,
        "SERIES",
        [("nibbler 12", "smallholder", {"board": "hex232323"}, [6, 2, 30], [1, 2], 60.0)],
    )
    out = tmp_path / "g.jsonl"
    monkeypatch.setattr(sys, "argv", ["growth.py", str(out)])
    growth.main()
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    # 30 plies is past the end of every game on 12 cells: skipped.
    assert sorted((r["plies"], r["seed"]) for r in rows) == [(2, 1), (2, 2), (6, 1), (6, 2)]
    assert all(r["stopped_by"] == "solved" and r["value"] in (-1, 0, 1) for r in rows)
    assert all(r["nodes"] > 0 for r in rows)
    growth.main()
    assert len(out.read_text().splitlines()) == len(rows)
