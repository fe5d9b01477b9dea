"""Runs benches/rl_speed.py once, briefly, so the script keeps working (CI runs benches once)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import rl_speed  # noqa: E402


def test_rl_speed_runs(capsys) -> None:
    rl_speed.main(["subsume", "--seconds", "0.01", "--envs", "64"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| game | State.apply")
    assert (
        lines[2].startswith("| subsume | ")
        and len(lines[2].split("|")) == len(rl_speed.COLUMNS) + 3
    )
