"""Every figure the README quotes is its data's: each table of the README is one that
experiments/tables.py renders from the experiments' files (the docs show the same tables), and
no interval is quoted outside a table."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def _tables_module() -> Any:
    spec = importlib.util.spec_from_file_location(
        "experiments_tables", ROOT / "experiments" / "tables.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TABLES = _tables_module()


def _readme_tables() -> list[str]:
    """Every Markdown table of the README, as its lines joined."""
    blocks: list[list[str]] = []
    inside = False
    for line in README.splitlines():
        if line.startswith("|"):
            if not inside:
                blocks.append([])
            blocks[-1].append(line)
            inside = True
        else:
            inside = False
    return ["\n".join(b) for b in blocks]


#: The README's tables that hold measured figures, by the name experiments/tables.py gives them.
QUOTED = ["strength/strong-over-uct", "training/subsume4", "solved/values", "solved/graphs"]


@pytest.mark.parametrize("name", QUOTED)
def test_each_quoted_table_is_rendered_from_its_data(name: str) -> None:
    assert TABLES.render(name) in _readme_tables()


def test_every_readme_table_is_a_rendered_one() -> None:
    rendered = {TABLES.render(name) for name in QUOTED}
    assert [t for t in _readme_tables() if t not in rendered] == []


def test_no_interval_outside_a_table() -> None:
    prose = [line for line in README.splitlines() if not line.startswith("|")]
    assert [line for line in prose if "±" in line] == []


def test_a_figure_read_back_from_its_ladder() -> None:
    # The strong preset's lead in Subsume at 1 s, from the Bradley-Terry fit its run saved.
    strong = TABLES.board("time-1-subsume-round-robin-120", "subsume")["elo"]["strong"]
    row = next(line for line in README.splitlines() if line.startswith("| subsume |"))
    assert f"+{strong[0]:.0f} ± {strong[1]:.0f}" in row
    assert re.search(r"\| subsume \| \+\d+ ± \d+ \| \+296 ± 53 \|", row)
