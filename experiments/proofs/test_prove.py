"""The proof driver: a board's proof written, checked, kept and skipped on a second run, and a
writing that runs out of time recorded as such."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import stonefield as sf

DRIVER = Path(__file__).resolve().parent / "prove.py"


def _run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(DRIVER),
            "--out",
            str(tmp / "proofs.jsonl"),
            "--files",
            str(tmp / "files"),
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_proof_is_written_checked_kept_and_not_written_again(tmp_path: Path) -> None:
    first = _run(tmp_path, "hex232323", "ruleset=stymie")
    assert first.returncode == 0, first.stderr
    (row,) = [json.loads(x) for x in (tmp_path / "proofs.jsonl").read_text().splitlines()]
    assert row["board"] == "smallholder board=hex232323 ruleset=stymie"
    assert row["value"] == -1 and row["stopped"] == "" and row["lines"] > 0
    assert row["format_version"] == sf.proofs.FORMAT_VERSION == 2
    assert (tmp_path / "files" / Path(row["kept"]).name).exists()
    assert row["bytes"] == (tmp_path / "files" / Path(row["kept"]).name).stat().st_size
    assert "--proof" in row["command"] and "verify-proof" in row["command"]
    again = _run(tmp_path, "hex232323", "ruleset=stymie")
    assert again.returncode == 0 and again.stdout == ""


def test_a_large_proof_is_checked_and_not_kept(tmp_path: Path) -> None:
    r = _run(tmp_path, "--keep-bytes", "100", "hex232323", "ruleset=nibbler")
    assert r.returncode == 0, r.stderr
    (row,) = [json.loads(x) for x in (tmp_path / "proofs.jsonl").read_text().splitlines()]
    assert row["kept"] is None and row["bytes"] > 100 and row["positions"] > 0
    assert not list((tmp_path / "files").iterdir())


def test_a_writing_out_of_time_is_recorded(tmp_path: Path) -> None:
    r = _run(tmp_path, "--time", "0.01", "grid=trisquare order=3 surplus_charge=false")
    assert r.returncode == 0, r.stderr
    (row,) = [json.loads(x) for x in (tmp_path / "proofs.jsonl").read_text().splitlines()]
    assert row["stopped"] == "time" and "lines" not in row
    assert "out of time" in r.stdout


def test_a_bad_time_is_refused(tmp_path: Path) -> None:
    r = _run(tmp_path, "--time", "0")
    assert r.returncode == 2 and "--time must be above 0" in r.stderr


FORMATS = DRIVER.parent / "formats.py"
# The directory of the package this test imports (its compiled core in it).
PACKAGE = Path(sf.__file__).resolve().parent.parent


def _formats(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(FORMATS), "--out", str(tmp / "formats.jsonl"), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_format_comparison_takes_both_builds_in_turn(tmp_path: Path) -> None:
    # This build stands for both here: two rows a round, the other's first, the same proof.
    r = _formats(tmp_path, "--other", str(PACKAGE), "--rounds", "2", "hex232323", "nibbler")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(x) for x in (tmp_path / "formats.jsonl").read_text().splitlines()]
    assert [(x["build"], x["round"]) for x in rows] == [
        ("other", 0),
        ("this", 0),
        ("other", 1),
        ("this", 1),
    ]
    assert {x["board"] for x in rows} == {"smallholder board=hex232323 ruleset=nibbler"}
    assert {(x["format_version"], x["value"], x["lines"], x["bytes"]) for x in rows} == {
        (2, 1, rows[0]["lines"], rows[0]["bytes"])
    }
    assert all(x["positions"] > x["lines"] > 0 and x["check_seconds"] > 0 for x in rows)


def test_the_format_comparison_refuses_what_it_cannot_run(tmp_path: Path) -> None:
    r = _formats(tmp_path, "--other", str(tmp_path), "hex232323")
    assert r.returncode == 2 and "no stonefield package there" in r.stderr
    r = _formats(tmp_path, "--other", str(PACKAGE), "no-such-board")
    assert r.returncode == 2 and "no board of prove.py's list matches" in r.stderr
    r = _formats(tmp_path, "--other", str(PACKAGE), "--rounds", "0", "hex232323")
    assert r.returncode == 2 and "--rounds must be at least 1" in r.stderr
    assert not (tmp_path / "formats.jsonl").exists()
