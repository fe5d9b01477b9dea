"""The game pages' rules come from the play page's one source (docs/hooks.py renders
``<!-- rules: GAME -->`` with stonefield.play._rules), so the two cannot disagree."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

import stonefield as sf
from stonefield.play._rules import rules

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _hooks() -> Any:
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", sf.games())
def test_each_game_page_renders_the_play_pages_rules(game: str) -> None:
    page = (DOCS / "games" / f"{game}.md").read_text()
    assert page.count(f"<!-- rules: {game} -->") == 1
    text = _hooks().on_page_markdown(page, None, None, None)
    assert "<!-- rules:" not in text
    r = rules(sf.make(game))
    # Every heading, paragraph and diagram caption of the play page is on the game page.
    for section in r["sections"]:
        assert f"### {section['heading']}" in text
        for paragraph in section["text"]:
            assert paragraph in text
        for d in section["diagrams"]:
            assert d["caption"] in text
    assert text.count("<figure") >= sum(len(s["diagrams"]) for s in r["sections"])
