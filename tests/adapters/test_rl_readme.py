"""The reinforcement-learning examples of the docs (docs/adapters.md) run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _examples() -> list[str]:
    page = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    examples = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    # The MaskablePPO example needs torch and sb3-contrib, which the test extras leave out.
    return [e for e in examples if "sb3_contrib" not in e]


def test_there_is_an_example_per_adapter() -> None:
    text = "\n".join(_examples())
    for module in ("stonefield.pettingzoo", "stonefield.gymnasium", "stonefield import openspiel"):
        assert module in text


@pytest.mark.parametrize("code", _examples(), ids=lambda c: c.split("\n")[0])
def test_readme_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, "README.md", "exec"), {})
    assert capsys.readouterr().out.strip()
