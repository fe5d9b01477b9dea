"""The documentation's printed numbers stay true: the summary of its batch example is the same
on every machine (all but the timings), so it is held here line by line. The per-game golden
games are in tests/playthroughs.rs (Rust) and tests/data/playthroughs/."""

from __future__ import annotations

import re
from pathlib import Path

import stonefield as sf

# The page of the docs site with the batch example.
README = Path(__file__).resolve().parents[2] / "docs" / "batches.md"
_TIMED = ("playouts/s", "moves/s")


def _without_timings(text: str) -> list[str]:
    lines = []
    for line in text.strip().splitlines():
        if line.startswith(_TIMED):
            continue
        lines.append(re.sub(r", [0-9.]+ s$", "", line))
    return lines


def test_the_readme_summary_is_what_simulate_prints() -> None:
    readme = README.read_text(encoding="utf-8")
    call = 'r = sf.simulate("faraday", 10_000, seed=1, grid="hex_omni")'
    assert call in readme
    printed = readme.split("`print(r.summary())` prints", 1)[1]
    printed = printed.split("```text\n", 1)[1].split("```", 1)[0]
    r = sf.simulate("faraday", 10_000, seed=1, grid="hex_omni")
    assert _without_timings(r.summary()) == _without_timings(printed)
