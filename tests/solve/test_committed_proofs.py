"""The proofs committed in experiments/proofs/files/ hold: each is checked by the separate
checker (the rules alone) and gives the value, lines and positions its row records; every
kept file has its row and every row's file is there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import stonefield as sf

HERE = Path(__file__).resolve().parents[2] / "experiments" / "proofs"
ROWS = [
    json.loads(line)
    for line in (HERE / "results" / "proofs.jsonl").read_text(encoding="utf-8").splitlines()
    if line
]
#: Proofs the checker took longer than this to check are left to the documented command.
CI_SECONDS = 5.0


def test_every_kept_file_has_its_row_and_every_row_its_file() -> None:
    kept = {r["kept"] for r in ROWS if r.get("kept")}
    assert kept == {f"files/{p.name}" for p in (HERE / "files").glob("*.proof")}


@pytest.mark.parametrize(
    "row",
    [r for r in ROWS if r.get("kept") and r["check_seconds"] <= CI_SECONDS],
    ids=lambda r: r["board"],
)
def test_a_committed_proof_checks(row: dict) -> None:
    check = sf.verify_proof(HERE / row["kept"])
    assert check.game == row["game"]
    assert check.value == row["value"]
    assert check.moves == row["lines"]
    assert check.positions == row["positions"]
