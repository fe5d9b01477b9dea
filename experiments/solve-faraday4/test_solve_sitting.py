"""Runs experiments/solve_sitting.sh (the sittings of the long solves) on a small board: a
sitting stopped by its budget saves and logs what it proved, the next one resumes it and
finishes, and each writes its own result file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "solve_sitting.sh"


def _sitting(tmp: Path, seconds: str) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(
        [
            "bash",
            str(SCRIPT),
            str(tmp / "runs" / "hex"),
            str(tmp / "log.jsonl"),
            '{"grid": "hex"}',
            seconds,
            "1",
            "64",
            "faraday",
            "--option",
            "order=3",
            "--option",
            "min_offer_stones=1",
        ],
        check=True,
        env=env,
        timeout=600,
    )


def test_a_sitting_saves_and_the_next_resumes(tmp_path: Path) -> None:
    _sitting(tmp_path, "0.05")
    _sitting(tmp_path, "600")
    lines = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert [x["grid"] for x in lines] == ["hex", "hex"]
    first, second = lines
    assert first["stopped_by"] == "time" and first["value"] is None
    assert second["stopped_by"] == "solved" and second["value"] == -1
    assert second["proven_first_moves"] == second["first_moves"] > 0
    assert "min_offer_stones=1" in second["arguments"]
    assert (tmp_path / "runs" / "hex" / "checkpoint" / "solve.ckpt").exists()
    results = sorted(p.name for p in (tmp_path / "runs" / "hex").glob("result-*.json"))
    assert results == ["result-1.json", "result-2.json"]
