"""Runs benches/puct_speed.py once, briefly, so the script keeps working (CI runs benches once)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import puct_speed  # noqa: E402


def test_puct_speed_runs(capsys: pytest.CaptureFixture[str]) -> None:
    puct_speed.main(["--seconds", "0.01", "--repeats", "1", "--games", "4", "--simulations", "4"])
    out = capsys.readouterr().out
    assert out.startswith("| game | MCTS iterations/s")
    assert "of the time inside the evaluator" in out
