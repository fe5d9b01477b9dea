"""Pictures: SVG (well-formed, the right sites, stones and marks) and text boards, for every board
kind, every registered game and the game-specific overlays."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from configs import CONFIGS, config_id
from stonefield import _layout
from stonefield.cli import main
from stonefield.render import to_svg
from stonefield.text import PLAYER_CHARS, board_text

SVG_NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg"
    return root


def classes(svg: str) -> Counter[str]:
    """How many elements carry each class (an element with "stone p0" counts for both)."""
    counts: Counter[str] = Counter()
    for el in parse(svg).iter():
        for c in el.get("class", "").split():
            counts[c] += 1
    return counts


def with_class(svg: str, cls: str) -> list[ET.Element]:
    return [el for el in parse(svg).iter() if cls in el.get("class", "").split()]


def midgame(game: Any, moves: int, seed: int = 0) -> Any:
    state = game.new_state()
    for i in range(moves):
        if state.is_terminal():
            break
        state.apply(state.random_action(seed + i))
    return state


def check_picture(state: Any) -> Counter[str]:
    """The checks every picture passes; returns the class counts."""
    game = state.game
    svg = to_svg(state, numbers=True)
    counts = classes(svg)
    n = game.num_sites
    assert counts["site"] == n
    assert counts["number"] == n
    board = np.asarray(state.board)
    assert counts["stone"] == np.count_nonzero(board)
    for p in range(game.num_players):
        stones = [el for el in with_class(svg, "stone") if f"p{p}" in el.get("class", "")]
        assert len(stones) == np.count_nonzero(board == p + 1)
    kind = _layout.board_kind(game)
    if kind == _layout.HEX_CELLS:
        assert counts["edge"] == 0
        for el in with_class(svg, "site"):
            assert el.tag == SVG_NS + "polygon" and len(el.get("points", "").split()) == 6
    else:
        assert counts["edge"] == len(_layout.edges(game))
        for el in with_class(svg, "site"):
            assert el.tag == SVG_NS + "circle"
    if kind == _layout.TRISQUARE_POINTS:
        assert counts["square-face"] > 0
    else:
        assert counts["square-face"] == 0
    return counts


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_config_renders(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = sf.make(name, **options)
    for moves in (0, game.num_sites // 2, 10 * game.num_sites):
        check_picture(midgame(game, moves, seed=moves))


def config_of_kind(kind: str) -> tuple[str, dict[str, Any]]:
    for name, options in CONFIGS:
        if name in sf.games() and _layout.board_kind(sf.make(name, **options)) == kind:
            return name, options
    pytest.skip(f"no registered game is played on {kind}")


@pytest.mark.parametrize("kind", _layout.KINDS)
def test_every_board_kind_of_the_registered_games(kind: str) -> None:
    name, options = config_of_kind(kind)
    game = sf.make(name, **options)
    assert _layout.board_kind(game) == kind
    counts = check_picture(midgame(game, 12))
    assert counts["stone"] > 0


@pytest.mark.parametrize("grid", ["hex", "trisquare", "square"])
def test_kind_from_geometry(grid: str) -> None:
    game = sf.make("windflowers", grid=grid)

    class Described:
        board_shape = "a board"
        coords = game.coords
        neighbors = game.neighbors

    assert _layout.board_kind(Described()) == _layout.board_kind(game)  # type: ignore[arg-type]


def test_y_axis_points_up_on_the_board() -> None:
    game = sf.make("windflowers", grid="square", size=3)
    sites = with_class(to_svg(game), "site")
    assert float(sites[0].get("cy", 0)) > float(sites[-1].get("cy", 0))
    assert float(sites[0].get("cx", 0)) < float(sites[3].get("cx", 0))


def test_hexagons_are_pointy_top_and_tile() -> None:
    game = sf.make("windflowers", grid="hex", size=3)
    svg = to_svg(game, size=300)
    corners = [
        [tuple(map(float, p.split(","))) for p in el.get("points", "").split()]
        for el in with_class(svg, "site")
    ]
    first = np.array(corners[0])
    top = first[np.argmin(first[:, 1])]
    assert abs(top[0] - first[:, 0].mean()) < 0.02  # a corner straight above the centre
    # Neighbouring cells share an edge: two corners in common.
    shared = {c for c in map(lambda p: (round(p[0], 1), round(p[1], 1)), corners[0])} & {
        (round(x, 1), round(y, 1)) for x, y in corners[1]
    }
    assert len(shared) == 2


def test_size_sets_the_width() -> None:
    game = sf.make("windflowers")
    root = parse(to_svg(game, size=250, caption=False))
    assert float(root.get("width", 0)) == pytest.approx(250, abs=0.01) or float(
        root.get("height", 0)
    ) == pytest.approx(250, abs=0.01)
    with pytest.raises(ValueError, match="positive"):
        to_svg(game, size=0)


def test_last_move() -> None:
    state = sf.make("windflowers", grid="hex", size=3).new_state()
    assert classes(to_svg(state))["last-move"] == 0
    state.apply(5)
    marks = with_class(to_svg(state), "last-move")
    stone = with_class(to_svg(state), "stone")[0]
    assert len(marks) == 1 and marks[0].get("cx") == stone.get("cx")
    assert classes(to_svg(state, last_move=False))["last-move"] == 0
    state.apply(state.game.num_sites)  # a pass places nothing
    assert classes(to_svg(state))["last-move"] == 0


def test_highlight() -> None:
    game = sf.make("windflowers", grid="square", size=3)
    state = midgame(game, 5)
    n = game.num_sites
    legal = [a for a in state.legal_actions() if a < n]
    assert classes(to_svg(state, highlight="legal"))["highlight"] == len(legal)
    assert classes(to_svg(state, highlight=[0, 3]))["highlight"] == 2
    mask = np.zeros(n, bool)
    mask[[1, 2, 4]] = True
    assert classes(to_svg(state, highlight=mask))["highlight"] == 3
    assert classes(to_svg(state, highlight=np.array([7])))["highlight"] == 1
    with pytest.raises(ValueError, match="out of range"):
        to_svg(state, highlight=[n])
    with pytest.raises(ValueError, match="one entry per site"):
        to_svg(state, highlight=np.zeros(3, bool))
    with pytest.raises(ValueError, match="legal"):
        to_svg(state, highlight="all")


def test_numbers_and_caption() -> None:
    state = midgame(sf.make("windflowers", players=3), 7)
    svg = to_svg(state, numbers=True)
    texts = [el.text for el in with_class(svg, "number")]
    assert texts == [str(s) for s in range(state.game.num_sites)]
    caption = with_class(svg, "caption")[0].text or ""
    assert "7 actions" in caption and "white to move" in caption
    assert classes(to_svg(state, caption=False))["caption"] == 0


def test_game_and_state_methods() -> None:
    game = sf.make("windflowers", grid="trisquare", size=3)
    assert game._repr_svg_() == to_svg(game)
    assert classes(game._repr_svg_())["stone"] == 0
    state = midgame(game, 6)
    assert state._repr_svg_() == to_svg(state)
    assert state.to_svg(numbers=True, size=200) == to_svg(state, numbers=True, size=200)
    with pytest.raises(TypeError):
        state.to_svg(colour="red")
    with pytest.raises(TypeError, match="State or Game"):
        to_svg("windflowers")  # type: ignore[arg-type]


def configs_of(game: str) -> list[tuple[str, dict[str, Any]]]:
    return [c for c in CONFIGS if c[0] == game]


def test_smallholder_overlays() -> None:
    for name, options in configs_of("smallholder"):
        game = sf.make(name, **options)
        for moves in (4, game.num_sites // 2):
            state = midgame(game, moves, seed=moves)
            territory = sum(
                int(np.count_nonzero(state.territory(p))) for p in range(game.num_players)
            )
            blocked = np.zeros(game.num_sites, bool)
            for p in range(game.num_players):
                blocked |= np.asarray(state.blocked_stones(p), bool)
            counts = classes(to_svg(state))
            assert counts["territory"] == territory
            assert counts["blocked"] == np.count_nonzero(blocked)


def test_subsume_overlays() -> None:
    for name, options in configs_of("subsume"):
        game = sf.make(name, **options)
        for moves in (4, game.num_sites // 2, 10 * game.num_sites):
            state = midgame(game, moves, seed=moves)
            counts = classes(to_svg(state))
            assert counts["surrounded"] == np.count_nonzero(state.surrounded())


def test_faraday_phase() -> None:
    for name, options in configs_of("faraday"):
        state = sf.make(name, **options).new_state()
        while True:
            phases = [el.text for el in with_class(to_svg(state), "phase")]
            assert phases == [f"{state.phase} phase"]
            assert state.phase in ("offer", "choice", "placement")
            if state.is_terminal() or len(state.history) > 6:
                break
            state.apply(state.random_action(len(state.history)))


# Text boards.


def site_chars(text: str) -> str:
    """The site characters of a text board (row labels and the legend line removed)."""
    rows = text.splitlines()[:-1]
    return "".join(re.sub(r"^\s*[a-z]+\d+ ", "", row) for row in rows).replace(" ", "")


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_text_every_config(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = sf.make(name, **options)
    for moves in (0, game.num_sites // 2, 10 * game.num_sites):
        state = midgame(game, moves, seed=moves)
        text = str(state)
        assert text == board_text(state)
        chars = site_chars(text)
        assert len(chars) == game.num_sites
        # Subsume's stones kept inside a settled loop show in lower case.
        kept = state.enclosed_stones() if name == "subsume" else np.zeros(game.num_sites, bool)
        for p in range(game.num_players):
            mine = state.board == p + 1
            assert chars.count(PLAYER_CHARS[p]) == np.count_nonzero(mine & ~kept)
            if name == "subsume":
                assert chars.count(PLAYER_CHARS[p].lower()) == np.count_nonzero(mine & kept)
        legend = text.splitlines()[-1]
        if state.is_terminal():
            assert "win" in legend or "draw" in legend
        else:
            assert f"{PLAYER_CHARS[state.current_player]} to move" in legend


@pytest.mark.parametrize("kind", _layout.KINDS)
def test_text_every_board_kind(kind: str) -> None:
    name, options = config_of_kind(kind)
    game = sf.make(name, **options)
    state = midgame(game, 12)
    text = board_text(state)
    lines = text.splitlines()
    assert len(lines) == len(_layout.rows(game.coords)) + 1
    assert len(site_chars(text)) == game.num_sites
    # The top line holds the highest-numbered row; its label is its first site's name.
    top = _layout.rows(game.coords)[-1]
    assert lines[0].split()[0] == game.site_names[top[0]]
    assert board_text(game).splitlines()[-1].startswith(game.name)


def test_text_rows_are_offset_like_the_board() -> None:
    text = board_text(sf.make("windflowers", grid="hex", size=3))
    assert text.splitlines()[:5] == [
        "d5    . .",
        "c4   . . .",
        "b3  . . . .",
        "a2 . . . . .",
        "a1  . . . .",
    ]


# The command line.


def test_cli_render(tmp_path: Any, capsys: Any) -> None:
    state = midgame(sf.make("windflowers", grid="hex", size=3), 9)
    record = tmp_path / "game.json"
    sf.save_record(state, record)
    out = tmp_path / "game.svg"
    assert main(["render", str(record), "-o", str(out), "--numbers", "--legal"]) == 0
    svg = out.read_text(encoding="utf-8")
    assert svg == to_svg(state, numbers=True, highlight="legal", size=480)
    assert main(["render", str(record)]) == 0
    assert capsys.readouterr().out == to_svg(state, size=480)
    assert main(["render", str(record), "--coordinates"]) == 0
    svg = capsys.readouterr().out
    assert svg == to_svg(state, size=480, coordinates=True)
    # Hex 3's alternating hexagon: files a to e, ranks 1 to 5.
    assert svg.count('class="coordinate"') == 10 and ">e</text>" in svg

    record.write_text('{"format": "stonefield-record"', encoding="utf-8")
    assert main(["render", str(record), "-o", str(out)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["render", str(tmp_path / "missing.json")]) == 2
    assert "missing.json" in capsys.readouterr().err


# The README's example and picture.

ROOT = Path(__file__).resolve().parents[2]


def test_readme_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    section = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    exec("import stonefield as sf\n" + code, namespace)
    assert (tmp_path / "game.json").exists()
    assert parse(namespace["svg"]) is not None
    for name, sites in (("windflowers", 34), ("smallholder", 37), ("faraday", 61), ("subsume", 61)):
        picture = ROOT / "docs" / f"{name}.svg"
        assert classes(picture.read_text(encoding="utf-8"))["site"] == sites


def test_every_site_element_names_its_site() -> None:
    for name in sf.games():
        state = sf.make(name).new_state()
        for _ in range(6):
            state.apply(state.random_action(seed=3))
        svg = to_svg(state, numbers=True, highlight="legal")
        n = state.game.num_sites
        assert [int(el.get("data-site", -1)) for el in with_class(svg, "site")] == list(range(n))
        board = state.board
        for cls in ("stone", "highlight", "number", "last-move"):
            for el in with_class(svg, cls):
                s = int(el.get("data-site", -1))
                assert 0 <= s < n
                if cls == "stone":
                    assert f"p{int(board[s]) - 1}" in el.get("class", "").split()
