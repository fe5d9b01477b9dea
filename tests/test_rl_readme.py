"""The README's reinforcement-learning examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _examples() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("## Reinforcement learning adapters")
    end = readme.index("\n## ", start + 1)
    return re.findall(r"```python\n(.*?)```", readme[start:end], flags=re.S)


def test_there_is_an_example_per_adapter() -> None:
    text = "\n".join(_examples())
    for module in ("stonefield.pettingzoo", "stonefield.gymnasium", "stonefield import openspiel"):
        assert module in text


@pytest.mark.parametrize("code", _examples(), ids=lambda c: c.split("\n")[0])
def test_readme_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, "README.md", "exec"), {})
    assert capsys.readouterr().out.strip()
