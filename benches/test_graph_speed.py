"""Runs benches/graph_speed.py once, briefly, so the script keeps working (CI runs benches once)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import graph_speed  # noqa: E402


def test_graph_speed_runs(capsys: pytest.CaptureFixture[str]) -> None:
    graph_speed.main(["--hidden", "8", "--blocks", "1", "--seconds", "0.01", "--repeats", "1"])
    out = capsys.readouterr().out
    assert "| batch | numpy evaluations/s" in out
    assert "| native, 2 threads |" in out
