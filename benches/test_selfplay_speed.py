"""Runs benches/selfplay_speed.py once, briefly, so that it keeps working (CI runs benches)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import selfplay_speed  # noqa: E402


def test_selfplay_speed_runs() -> None:
    table = selfplay_speed.main(
        ["--games", "1", "--simulations", "4", "--repeats", "2", "--game", "subsume"]
    )
    lines = table.splitlines()
    assert lines[0].startswith("| game | native positions/s")
    assert len(lines) == 3 and lines[2].startswith("| subsume |")
