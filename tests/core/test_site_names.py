"""Site names (a file letter and a rank number) on every board kind, as moves are written.

The corner names below are checked by hand against the pictures in ``src/board/mod.rs``
(``Board::file_rank``): hexagonal boards name the row as the rank and the line slanting up to the
left as the file; square points are a chessboard; triangle-square points a chessboard turned by
45° that misses its bottom and top corners.
"""

from __future__ import annotations

from typing import Any

import pytest

import stonefield as sf

#: Every board kind, with the names of its corner sites (the sites with the fewest orthogonal
#: neighbours), in site order.
CORNERS: list[tuple[str, dict[str, Any], list[str]]] = [
    # Hex cells, a regular hexagon of side 4: a1, d1 along the bottom row, a4 and g4 at the ends
    # of the middle row, d7 and g7 along the top.
    ("subsume", {"size": 4}, ["a1", "d1", "a4", "g4", "d7", "g7"]),
    ("smallholder", {"board": "hex4"}, ["a1", "d1", "a4", "g4", "d7", "g7"]),
    # Lattice points, a regular hexagon of side 3.
    ("faraday", {"order": 3}, ["a1", "c1", "a3", "e3", "c5", "e5"]),
    # Hex cells, the alternating hexagon (2, 4): rows of 4, 5, 4, 3 and 2 cells.
    ("windflowers", {"grid": "hex", "size": 3}, ["a1", "d1", "a2", "e2", "d5", "e5"]),
]


@pytest.mark.parametrize(("game", "options", "corners"), CORNERS)
def test_the_corners_of_hexagonal_boards(
    game: str, options: dict[str, Any], corners: list[str]
) -> None:
    g = sf.make(game, **options)
    nb = g.neighbors("orthogonal")
    got = [g.site_names[s] for s in range(g.num_sites) if len(nb[s]) <= 3]
    assert got == corners


def test_square_points_are_named_as_a_chessboard() -> None:
    g = sf.make("windflowers", grid="square", size=4)  # 6 × 6
    names = g.site_names
    assert [names[s] for s in (0, 5, 30, 35)] == ["a1", "f1", "a6", "f6"]
    assert names == [f"{'abcdef'[s % 6]}{s // 6 + 1}" for s in range(36)]


def test_triangle_square_points_by_hand() -> None:
    # Order 1, from the bottom row up: the diamond of 4 × 4 names less a1 and d4.
    g = sf.make("windflowers", grid="trisquare", size=3)
    assert g.site_names == [
        "a2", "b1", "a3", "c1", "b2", "a4", "b3", "c2", "d1", "c3", "b4", "d2", "c4", "d3",
    ]  # fmt: skip


BOARDS = [
    ("windflowers", {"grid": grid, "size": size})
    for grid in ("hex", "square", "trisquare")
    for size in (3, 5)
] + [
    ("smallholder", {"board": "hex343434"}),
    ("subsume", {"size": 6}),
    ("faraday", {"order": 4}),
    ("faraday", {"order": 3, "grid": "hex_limping"}),
]


@pytest.mark.parametrize(("game", "options"), BOARDS)
def test_every_action_reads_back_by_name_and_by_number(game: str, options: dict[str, Any]) -> None:
    g = sf.make(game, **options)
    names = g.site_names
    assert len(set(names)) == g.num_sites
    for action in range(g.num_actions):
        name = g.action_name(action)
        assert g.parse_action(name) == action
        assert g.parse_action(f"  {name.upper()} ") == action
        site = g.action_site(action)
        if site is not None:
            assert names[site] in name
            # The site's number where its name goes, as records of earlier versions wrote it.
            old = name.replace(names[site], str(site))
            assert g.parse_action(old) == action
            assert g.action_name(g.parse_action(old)) == name


@pytest.mark.parametrize("text", ["z99", "a0", "a01", "1a", "c 4", "", "-1", "aaaa1"])
def test_names_the_board_lacks_say_what_is_allowed(text: str) -> None:
    g = sf.make("windflowers", grid="square", size=3)
    with pytest.raises(sf.IllegalMoveError) as info:
        g.parse_action(text)
    message = str(info.value)
    assert "a site name such as a1 or d4 (files a to d, ranks 1 to 4" in message
    assert "a site number 0 to 15" in message and "pass" in message


def _every_accepted_board() -> list[tuple[str, dict[str, Any]]]:
    boards: list[tuple[str, dict[str, Any]]] = []
    for grid in ("hex", "trisquare", "square"):
        boards += [("windflowers", {"grid": grid, "size": s}) for s in range(3, 16)]
    for o in sf.option_spec("faraday"):
        if o["name"] == "grid":
            for v in o["values"]:
                boards += [("faraday", {"grid": v["name"], "order": n}) for n in range(3, 26)]
    boards += [("subsume", {"size": s}) for s in range(3, 31)]
    for o in sf.option_spec("smallholder"):
        if o["name"] == "board":
            boards += [("smallholder", {"board": v["name"]}) for v in o["values"]]
    return boards


def test_every_accepted_board_names_each_site_once() -> None:
    """Every board the options accept, up to the largest sizes, has one name per site, and each
    name reads back as its site."""
    checked = 0
    for game, options in _every_accepted_board():
        try:
            g = sf.make(game, **options)
        except sf.InvalidOptionError:
            continue  # a combination the game refuses (too large for its bit sets)
        names = g.site_names
        assert len(set(names)) == g.num_sites, (game, options)
        for site, name in enumerate(names):
            assert g.action_site(g.parse_action(name)) == site, (game, options, name)
        checked += 1
    assert checked > 150
