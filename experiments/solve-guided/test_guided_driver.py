"""Runs experiments/solve-guided/guided.py on the 12-cell board: one line a solve, the same
answers guided or not, and a second run resumes (adds nothing it has)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import guided  # noqa: E402


def test_a_run_writes_its_lines_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guided, "BOARDS", [("nibbler 12", "smallholder", {"board": "hex232323"})])
    monkeypatch.setattr(guided, "POSITIONS", [])
    out = tmp_path / "g.jsonl"
    monkeypatch.setattr(sys, "argv", ["guided.py", str(out)])
    guided.main()
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["setting"] for r in rows] == [guided.label(s) for s in guided.SETTINGS]
    assert {r["value"] for r in rows} == {1}
    whole = [r for r in rows if r["stopped_by"] == "solved"]
    assert whole and all(r["best"] == [1, 7, 9] for r in whole)
    assert all(r["stopped_by"] == "value" for r in rows if "value_only" in r["setting"])
    guided.main()
    assert len(out.read_text().splitlines()) == len(rows)
