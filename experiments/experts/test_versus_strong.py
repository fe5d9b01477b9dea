"""The expert evaluator's driver: a short evaluation written, resumed and refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = Path(__file__).resolve().parent / "versus_strong.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(DRIVER), *args], capture_output=True, text=True, timeout=600
    )


def test_an_evaluation_is_written_game_by_game_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "subsume.json"
    first = _run("subsume", "--games", "1", "--time", "0.01", "--out", str(out))
    assert first.returncode == 0, first.stderr
    done = json.loads(out.read_text())
    assert [g["game"] for g in done["games"]] == [0]
    assert done["games"][0]["expert_seat"] == 0 and done["games"][0]["score"] in (0.0, 0.5, 1.0)
    # A second sitting plays only the games not yet played.
    second = _run("subsume", "--games", "2", "--time", "0.01", "--out", str(out))
    assert second.returncode == 0, second.stderr
    done = json.loads(out.read_text())
    assert [g["game"] for g in done["games"]] == [0, 1]
    assert done["games"][1]["expert_seat"] == 1
    low, high = done["interval"]
    assert 0 <= low <= done["score"] <= high <= 1
    assert "game 2:" in second.stdout and "game 1:" not in second.stdout


def test_workers_play_the_missing_games_at_once_and_keep_them_in_order(tmp_path: Path) -> None:
    out = tmp_path / "subsume.json"
    assert _run("subsume", "--games", "1", "--time", "0.01", "--out", str(out)).returncode == 0
    more = _run("subsume", "--games", "4", "--time", "0.01", "--workers", "2", "--out", str(out))
    assert more.returncode == 0, more.stderr
    done = json.loads(out.read_text())
    assert [g["game"] for g in done["games"]] == [0, 1, 2, 3]
    assert [g["expert_seat"] for g in done["games"]] == [0, 1, 0, 1]
    assert sorted(line.split(":")[0] for line in more.stdout.splitlines()) == [
        "game 2",
        "game 3",
        "game 4",
    ]
    scores = [g["score"] for g in done["games"]]
    assert done["score"] == pytest.approx(sum(scores) / 4)


def test_another_evaluation_in_the_same_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "subsume.json"
    assert _run("subsume", "--games", "1", "--time", "0.01", "--out", str(out)).returncode == 0
    again = _run("subsume", "--games", "2", "--time", "0.02", "--out", str(out))
    assert again.returncode != 0 and "another evaluation" in again.stderr


@pytest.mark.parametrize("bad", ["--games=x", "--time=y", "--workers=0"])
def test_bad_arguments_are_refused(bad: str, tmp_path: Path) -> None:
    r = _run("subsume", bad, "--out", str(tmp_path / "x.json"))
    assert r.returncode == 2 and ("invalid" in r.stderr or "1 or more" in r.stderr)
