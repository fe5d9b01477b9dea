"""SVG pictures of boards and positions, for notebooks, documents and the command line.

:func:`to_svg` draws any state (or a game's empty board) on every board kind: hex cells as
pointy-top hexagons; lattice, square and triangle-square points as the graph of their orthogonal
relation, with the square faces of the triangle-square tiling lightly filled. Stones take one of
four colours (black, white, red, blue for players 0 to 3), the last move is ringed, and site
numbers, the sites' names along the board's edge (``coordinates=True``: file letters and rank
numbers, as ``Game.site_names`` names the sites), highlighted sites (for example the legal moves)
and the game's own overlays can be shown.

Every drawn element has a class, so pictures can be styled and tested: ``site`` (one per site),
``edge``, ``square-face``, ``stone p0`` .. ``stone p3``, ``last-move``, ``highlight``, ``number``,
``coordinate`` (a file letter or rank number beside the board),
``territory p0`` .. (Smallholder), ``blocked`` (Smallholder), ``surrounded`` and ``enclosed``
(Subsume: the stones kept inside a settled loop with ``remove_surrounded=False``, drawn faded),
``caption`` and ``phase`` (Faraday). Every element drawn for one site (the site itself, its
stone, marks and number) carries ``data-site="k"``, so a page can tell which site was clicked.

>>> import stonefield as sf
>>> state = sf.make("windflowers", grid="hex", size=3).new_state()
>>> state.apply(4)
>>> svg = to_svg(state, numbers=True, highlight="legal")
>>> svg.startswith("<svg") and svg.count('class="stone p0"')
1
>>> svg == state.to_svg(numbers=True, highlight="legal")
True
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Union
from xml.sax.saxutils import escape

import numpy as np

from . import _layout
from ._core import Game, State

__all__ = ["MAX_SIZE", "PLAYER_COLOURS", "PLAYER_NAMES", "to_svg"]

#: The largest picture size accepted, in pixels (beyond it, coordinates lose their precision
#: in the 2-decimal SVG text and files grow without purpose).
MAX_SIZE = 100_000

#: Stone colours of players 0..3.
PLAYER_COLOURS = ("#202020", "#f7f7f2", "#cf3a30", "#2f6bd0")
#: Colour names of players 0..3, as used in captions.
PLAYER_NAMES = ("black", "white", "red", "blue")
#: The colour that stands out on a stone of each player (last-move ring, site numbers).
_CONTRAST = ("#f7f7f2", "#202020", "#f7f7f2", "#f7f7f2")

_BOARD = "#efd7a2"
_CELL_FILL = "#ead09a"
_CELL_STROKE = "#8c6c3a"
_LINE = "#5e4b2c"
_SQUARE_FILL = "#dcbf85"
_HIGHLIGHT = "#1f9e55"
_BLOCKED = "#8e8e8e"
_SURROUNDED = "#5d6d7e"
_TEXT = "#3d3020"
_CAPTION_HEIGHT = 26

Highlight = Union[str, Iterable[int], np.ndarray, None]


def to_svg(
    state_or_game: State | Game,
    *,
    size: float = 400,
    numbers: bool = False,
    highlight: Highlight = None,
    overlays: bool = True,
    last_move: bool = True,
    caption: bool = True,
    coordinates: bool = False,
) -> str:
    """Draws a state (or the empty board of a game) as an SVG document.

    Args:
        state_or_game: the position to draw; a Game draws its empty board.
        size: the longer side of the board drawing in pixels (the other follows the board).
        numbers: write each site's number on it.
        highlight: sites to mark with a green dot: ``"legal"`` for the sites of the legal
            placements (actions below ``num_sites``), a boolean mask of length ``num_sites``, or
            site numbers.
        overlays: draw the game's own marks: Smallholder territory and blocked groups, Subsume
            surrounded cells, Faraday phase.
        last_move: ring the stone(s) placed by the last action.
        caption: a line below the board with the game, the number of actions and who is to move
            (or the result).
        coordinates: write the file letters and rank numbers of the sites' names
            (``Game.site_names``, the names moves are written in) beside the board: on hexagonal
            boards the row numbers on the left and the letters of the lines slanting up to the
            left below them; on square points as on a chessboard; on triangle-square points the
            letters along the lower right edge and the numbers along the lower left.

    Returns:
        The SVG document as a string (no XML declaration; it can be embedded in HTML).

    Raises:
        TypeError: ``state_or_game`` is neither a State nor a Game, ``size`` is not a number,
            or a highlighted site is not an integer.
        ValueError: ``size`` is not a finite number from 1 to ``MAX_SIZE``, or a highlighted
            site is out of range.

    >>> import stonefield as sf
    >>> svg = to_svg(sf.make("windflowers", grid="square", size=3))
    >>> svg.count('class="site"'), svg.count('class="edge"')
    (16, 24)
    >>> svg = to_svg(sf.make("windflowers", grid="square", size=3), coordinates=True)
    >>> svg.count('class="coordinate"')
    8
    """
    picture_size = _check_size(size)
    game, state, is_game = _layout.as_state(state_or_game)
    kind = _layout.board_kind(game)
    labels = list(game.coordinate_labels) if coordinates else []
    frame = _Frame.fit(
        np.asarray(game.coords, dtype=float),
        kind,
        picture_size,
        np.asarray([[x, y] for _, x, y in labels], dtype=float).reshape(-1, 2),
    )
    board = state.board
    total_height = frame.height + (_CAPTION_HEIGHT if caption else 0)
    width, height = _num(frame.width), _num(total_height)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="stonefield" '
        f'width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f"<title>{escape(_title(game, state, is_game))}</title>",
        f'<rect class="board" x="0" y="0" width="{width}" height="{_num(frame.height)}" '
        f'rx="{frame.unit(0.3)}" fill="{_BOARD}"/>',
    ]
    ov = _overlays(game, state) if overlays and not is_game else {}
    out += _board_layer(frame, game, kind)
    out += _coordinates(frame, labels)
    out += _marks_under(frame, ov)
    out += _stones(frame, board, ov)
    if numbers and not frame.cells:
        out += _number_patches(frame, board)
    out += _marks_over(frame, ov)
    if last_move and not is_game:
        out += _last_move(frame, board, _layout.last_move_sites(state))
    out += _highlights(frame, _highlighted(state, highlight, len(board)))
    if numbers:
        out += _numbers(frame, board)
    if caption:
        out.extend(_caption(game, state, is_game, ov.get("phase"), frame.width, frame.height))
    out.append("</svg>")
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class _Frame:
    """Where the board goes in the picture: board units to pixels, and the sizes of stones."""

    coords: np.ndarray
    cells: bool
    stone_r: float
    xmin: float
    ymax: float
    scale: float
    width: float
    height: float

    @staticmethod
    def fit(
        coords: np.ndarray, kind: str, picture_size: float, labels: np.ndarray | None = None
    ) -> _Frame:
        cells = kind == _layout.HEX_CELLS
        # Board units: hex cells have circumradius 1 (centres √3 apart); points are 1 apart.
        stone_r = 0.8 if cells else 0.4
        pad = 1.15 if cells else 0.7
        xmin, ymin = coords.min(axis=0) - pad
        xmax, ymax = coords.max(axis=0) + pad
        if labels is not None and len(labels):
            # Room for the coordinate labels: about one letter around each.
            room = 0.6 if cells else 0.35
            xmin, ymin = np.minimum([xmin, ymin], labels.min(axis=0) - room)
            xmax, ymax = np.maximum([xmax, ymax], labels.max(axis=0) + room)
        scale = picture_size / max(xmax - xmin, ymax - ymin)
        return _Frame(
            coords, cells, stone_r, xmin, ymax, scale, (xmax - xmin) * scale, (ymax - ymin) * scale
        )

    def px(self, site: int) -> tuple[float, float]:
        # SVG's y axis points down: flip the board's.
        x, y = self.coords[site]
        return (x - self.xmin) * self.scale, (self.ymax - y) * self.scale

    def unit(self, v: float) -> str:
        return _num(v * self.scale)


def _board_layer(f: _Frame, game: Game, kind: str) -> list[str]:
    """The board itself: one element of class "site" per site."""
    out = []
    n = len(f.coords)
    if f.cells:
        for s in range(n):
            out.append(
                f'<polygon class="site" data-site="{s}" points="{_hexagon(f.px(s), f.scale)}" '
                f'fill="{_CELL_FILL}" stroke="{_CELL_STROKE}" stroke-width="{f.unit(0.05)}"/>'
            )
        return out
    if kind == _layout.TRISQUARE_POINTS:
        for face in _layout.square_faces(game):
            pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in map(f.px, face))
            out.append(f'<polygon class="square-face" points="{pts}" fill="{_SQUARE_FILL}"/>')
    for s, t in _layout.edges(game):
        (x1, y1), (x2, y2) = f.px(s), f.px(t)
        out.append(
            f'<line class="edge" x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" '
            f'y2="{_num(y2)}" stroke="{_LINE}" stroke-width="{f.unit(0.05)}" '
            'stroke-linecap="round"/>'
        )
    for s in range(n):
        x, y = f.px(s)
        out.append(
            f'<circle class="site" data-site="{s}" '
            f'cx="{_num(x)}" cy="{_num(y)}" r="{f.unit(0.07)}" '
            f'fill="{_LINE}"/>'
        )
    return out


def _coordinates(f: _Frame, labels: list[tuple[str, float, float]]) -> list[str]:
    """The file letters and rank numbers beside the board."""
    font = 0.6 if f.cells else 0.32
    out = []
    for text, x, y in labels:
        px, py = (x - f.xmin) * f.scale, (f.ymax - y) * f.scale
        out.append(
            f'<text class="coordinate" x="{_num(px)}" y="{_num(py)}" font-size="{f.unit(font)}" '
            f'text-anchor="middle" dominant-baseline="central" fill="{_TEXT}">{escape(text)}</text>'
        )
    return out


def _marks_under(f: _Frame, ov: dict[str, Any]) -> list[str]:
    """Marks under the stones: territory and surrounded cells."""
    out = []
    for p, mask in enumerate(ov.get("territory", [])):
        colour = PLAYER_COLOURS[p % 4]
        for s in np.flatnonzero(mask).tolist():
            if f.cells:
                shape = f'<polygon points="{_hexagon(f.px(s), f.scale * 0.55)}"'
            else:
                x, y = f.px(s)
                h = 0.2 * f.scale
                shape = (
                    f'<rect x="{_num(x - h)}" y="{_num(y - h)}" width="{_num(2 * h)}" '
                    f'height="{_num(2 * h)}"'
                )
            out.append(
                f'{shape} class="territory p{p}" data-site="{s}" '
                f'fill="{colour}" fill-opacity="0.55" '
                f'stroke="{_TEXT}" stroke-width="{f.unit(0.03)}"/>'
            )
    for s in np.flatnonzero(ov.get("surrounded", np.zeros(0, bool))).tolist():
        corners = _hexagon(f.px(s), f.scale * (0.9 if f.cells else 0.35))
        out.append(
            f'<polygon class="surrounded" data-site="{s}" points="{corners}" '
            f'fill="{_SURROUNDED}" fill-opacity="0.45"/>'
        )
    return out


def _stones(f: _Frame, board: np.ndarray, ov: dict[str, Any]) -> list[str]:
    """Stones; Subsume's stones kept inside a settled loop are drawn faded."""
    out = []
    enclosed = ov.get("enclosed", np.zeros(len(board), bool))
    for s in np.flatnonzero(board).tolist():
        p = int(board[s]) - 1
        x, y = f.px(s)
        faded = ' enclosed" opacity="0.35' if enclosed[s] else ""
        out.append(
            f'<circle class="stone p{p}{faded}" data-site="{s}" '
            f'cx="{_num(x)}" cy="{_num(y)}" r="{f.unit(f.stone_r)}" '
            f'fill="{PLAYER_COLOURS[p % 4]}" stroke="#111111" stroke-width="{f.unit(0.04)}"/>'
        )
    return out


def _number_patches(f: _Frame, board: np.ndarray) -> list[str]:
    """Site numbers on empty points get a patch of board so the lines do not cross them."""
    out = []
    for s in np.flatnonzero(board == 0).tolist():
        x, y = f.px(s)
        out.append(
            f'<circle class="number-back" data-site="{s}" '
            f'cx="{_num(x)}" cy="{_num(y)}" r="{f.unit(0.22)}" '
            f'fill="{_BOARD}"/>'
        )
    return out


def _marks_over(f: _Frame, ov: dict[str, Any]) -> list[str]:
    """Marks on top of the stones: blocked groups."""
    out = []
    for s in np.flatnonzero(ov.get("blocked", np.zeros(0, bool))).tolist():
        x, y = f.px(s)
        out.append(
            f'<circle class="blocked" data-site="{s}" '
            f'cx="{_num(x)}" cy="{_num(y)}" r="{f.unit(f.stone_r * 0.3)}" '
            f'fill="{_BLOCKED}" stroke="#111111" stroke-width="{f.unit(0.02)}"/>'
        )
    return out


def _last_move(f: _Frame, board: np.ndarray, sites: list[int]) -> list[str]:
    out = []
    for s in sites:
        x, y = f.px(s)
        colour = _ink(board, s)
        out.append(
            f'<circle class="last-move" data-site="{s}" cx="{_num(x)}" cy="{_num(y)}" '
            f'r="{f.unit(f.stone_r * 0.6)}" fill="none" stroke="{colour}" '
            f'stroke-width="{f.unit(f.stone_r * 0.12)}"/>'
        )
    return out


def _highlights(f: _Frame, sites: Iterable[int]) -> list[str]:
    out = []
    for s in sites:
        x, y = f.px(s)
        out.append(
            f'<circle class="highlight" data-site="{s}" '
            f'cx="{_num(x)}" cy="{_num(y)}" r="{f.unit(f.stone_r * 0.45)}" '
            f'fill="{_HIGHLIGHT}" fill-opacity="0.4" stroke="{_HIGHLIGHT}" '
            f'stroke-width="{f.unit(f.stone_r * 0.1)}"/>'
        )
    return out


def _numbers(f: _Frame, board: np.ndarray) -> list[str]:
    out = []
    font = 0.55 if f.cells else 0.3
    for s in range(len(f.coords)):
        x, y = f.px(s)
        colour = _ink(board, s)
        out.append(
            f'<text class="number" data-site="{s}" '
            f'x="{_num(x)}" y="{_num(y)}" font-size="{f.unit(font)}" '
            f'text-anchor="middle" dominant-baseline="central" fill="{colour}">{s}</text>'
        )
    return out


def _num(v: float) -> str:
    """A coordinate with two decimals, without trailing zeros."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _hexagon(centre: tuple[float, float], r: float) -> str:
    """The corners of a pointy-top hexagon of circumradius ``r`` (pixels) around ``centre``."""
    cx, cy = centre
    corners = []
    for k in range(6):
        a = math.radians(90 + 60 * k)
        corners.append(f"{_num(cx + r * math.cos(a))},{_num(cy - r * math.sin(a))}")
    return " ".join(corners)


def _check_size(size: Any) -> float:
    if isinstance(size, bool) or not isinstance(size, numbers.Real):
        raise TypeError(f"size is a number of pixels, got {type(size).__name__} {size!r}")
    try:
        value = float(size)
    except OverflowError:
        value = math.inf
    if not (math.isfinite(value) and 1 <= value <= MAX_SIZE):
        raise ValueError(
            f"size is the picture width in pixels, a positive number from 1 to {MAX_SIZE};"
            f" got {size!r}"
        )
    return value


def _highlighted(state: State, highlight: Highlight, n: int) -> list[int]:
    if highlight is None:
        return []
    if isinstance(highlight, str):
        if highlight != "legal":
            raise ValueError(
                f'highlight must be "legal", a mask or site numbers, not {highlight!r}'
            )
        return [int(a) for a in state.legal_actions() if a < n]
    arr = np.asarray(list(highlight) if not isinstance(highlight, np.ndarray) else highlight)
    if arr.dtype == bool:
        if arr.shape != (n,):
            raise ValueError(
                f"a highlight mask has one entry per site ({n}), got shape {arr.shape}"
            )
        return [int(s) for s in np.flatnonzero(arr)]
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise TypeError(
            "highlight site numbers are a flat sequence of integers, got"
            f" {arr.dtype} of shape {arr.shape}"
        )
    sites = [int(s) for s in arr]
    bad = [s for s in sites if not 0 <= s < n]
    if bad:
        raise ValueError(f"highlighted site {bad[0]} is out of range; sites are 0..{n - 1}")
    return sites


def _ink(board: np.ndarray, s: int) -> str:
    """The colour that stands out on site s: against its stone, or on the empty board."""
    owner = int(board[s]) - 1
    return _CONTRAST[owner % 4] if owner >= 0 else _TEXT


def _overlays(game: Game, state: State) -> dict[str, Any]:
    """The game's own marks, from its inspection methods."""
    return dict(state.marks())


def _title(game: Game, state: State, is_game: bool) -> str:
    title = game.name.capitalize()
    if is_game:
        return f"{title}: {game.board_shape}"
    return f"{title}: {_layout.status(state, PLAYER_NAMES)}"


def _caption(
    game: Game, state: State, is_game: bool, phase: str | None, width: float, height: float
) -> list[str]:
    y = height + _CAPTION_HEIGHT / 2
    out: list[str] = []
    x = 6.0
    if is_game:
        text = f"{game.name.capitalize()} · {game.board_shape}"
    else:
        text = f"{game.name.capitalize()} · {len(state.history)} actions · "
        text += _layout.status(state, PLAYER_NAMES)
        p = state.current_player
        if p is not None:
            out.append(
                f'<circle class="to-move p{p}" cx="{_num(x + 6)}" cy="{_num(y)}" r="6" '
                f'fill="{PLAYER_COLOURS[p % 4]}" stroke="#111111" stroke-width="1"/>'
            )
            x += 16
    phase_text = f"{phase} phase" if phase is not None else ""
    # Shrink the font when the line would not fit (a sans-serif letter is about 0.6 em wide).
    chars = len(text) + (len(phase_text) + 2 if phase_text else 0)
    font = min(13.0, (width - x - 6) / (0.6 * max(chars, 1)))
    out.append(
        f'<text class="caption" x="{_num(x)}" y="{_num(y)}" font-size="{_num(font)}" '
        f'dominant-baseline="central" fill="{_TEXT}">{escape(text)}</text>'
    )
    if phase_text:
        out.append(
            f'<text class="phase" x="{_num(width - 6)}" y="{_num(y)}" font-size="{_num(font)}" '
            f'text-anchor="end" dominant-baseline="central" font-weight="bold" '
            f'fill="{_TEXT}">{escape(phase_text)}</text>'
        )
    return out
