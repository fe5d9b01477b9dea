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
