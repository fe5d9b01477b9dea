"""Board geometry shared by the SVG and text pictures: the board kind, rows and graph edges.

Everything here is derived from what a :class:`~stonefield.Game` reports (``board_kind``,
``coords`` and ``neighbors``), so it works for every game and board size.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Game, State

HEX_CELLS = "hex cells"
LATTICE_POINTS = "lattice points"
SQUARE_POINTS = "square points"
TRISQUARE_POINTS = "triangle-square points"
KINDS = (HEX_CELLS, LATTICE_POINTS, SQUARE_POINTS, TRISQUARE_POINTS)

#: Row tolerance of boards.md: y values equal within 1e-6 are one row.
ROW_EPS = 1e-6


def board_kind(game: Game) -> str:
    """The kind of board a game is played on: one of :data:`KINDS`.

    Read from ``game.board_kind``; objects without it (stand-ins for boards this build does not
    have) are recognised from their geometry: nearest neighbours √3 apart are hex cells;
    otherwise points, told apart by the largest orthogonal degree: 6 lattice, 4 square, 5
    triangle-square.

    >>> import stonefield as sf
    >>> board_kind(sf.make("windflowers", grid="hex"))
    'hex cells'
    >>> board_kind(sf.make("windflowers", grid="trisquare"))
    'triangle-square points'
    """
    kind = getattr(game, "board_kind", None)
    if isinstance(kind, str) and kind in KINDS:
        return kind
    coords = game.coords
    orth = game.neighbors("orthogonal")
    pairs = [(s, int(t)) for s, ts in enumerate(orth) for t in ts]
    if pairs:
        s, t = pairs[0]
        if np.hypot(*(coords[s] - coords[t])) > 1.5:
            return HEX_CELLS
    degree = max((len(ts) for ts in orth), default=0)
    return {6: LATTICE_POINTS, 4: SQUARE_POINTS}.get(degree, TRISQUARE_POINTS)


def as_state(obj: Any) -> tuple[Game, State, bool]:
    """``(game, state, is_game)`` from a State, or from a Game (its starting position).

    Objects with the same attributes are accepted too (duck typing), which lets the pictures be
    tested on boards and overlays of games this build does not have.
    """
    if isinstance(obj, State) or (hasattr(obj, "board") and hasattr(obj, "game")):
        return obj.game, obj, False
    if isinstance(obj, Game) or hasattr(obj, "new_state"):
        return obj, obj.new_state(), True
    raise TypeError(f"expected a stonefield State or Game, got {type(obj).__name__}")


def rows(coords: np.ndarray) -> list[list[int]]:
    """Sites grouped into rows of equal y, bottom row first, each row left to right."""
    order = sorted(range(len(coords)), key=lambda s: (coords[s, 1], coords[s, 0]))
    out: list[list[int]] = []
    last_y = None
    for s in order:
        y = coords[s, 1]
        if last_y is None or y - last_y > ROW_EPS:
            out.append([])
            last_y = y
        out[-1].append(s)
    for row in out:
        row.sort(key=lambda s: coords[s, 0])
    return out


def edges(game: Game, relation: str = "orthogonal") -> list[tuple[int, int]]:
    """Each neighbour pair ``(s, t)`` with ``s < t`` once."""
    return [(s, int(t)) for s, ts in enumerate(game.neighbors(relation)) for t in ts if s < t]


def square_faces(game: Game) -> list[tuple[int, int, int, int]]:
    """The square faces of a point board, as corner cycles.

    Two diagonal neighbours are opposite corners of a square; the other two corners are the two
    points orthogonally adjacent to both. Squares missing a corner at the edge are left out.
    """
    orth = [set(int(t) for t in ts) for ts in game.neighbors("orthogonal")]
    seen: set[frozenset[int]] = set()
    faces: list[tuple[int, int, int, int]] = []
    for s, t in edges(game, "diagonal"):
        common = sorted(orth[s] & orth[t])
        if len(common) != 2:
            continue
        key = frozenset((s, t, *common))
        if key not in seen:
            seen.add(key)
            faces.append((s, common[0], t, common[1]))
    return faces


def last_move_sites(state: State) -> list[int]:
    """The sites the last action played on, found by comparing the board before and after it.

    The action's own site when it is a site number whose content changed; otherwise the sites that
    went from empty to a stone (as when an action encodes the colour, too). Passes, swaps and
    other actions that place no stone mark nothing.
    """
    history = state.history
    if not history:
        return []
    before = state.copy()
    before.undo()
    changed = np.flatnonzero(before.board != state.board)
    action = history[-1]
    if action < len(state.board) and action in changed:
        return [int(action)]
    return [int(s) for s in changed if before.board[s] == 0 and state.board[s] != 0]


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def status(state: State, names: tuple[str, ...] | list[str], long_scores: bool = False) -> str:
    """Who is to move, or the result, with the scores when the game has them.

    >>> import stonefield as sf
    >>> status(sf.make("windflowers").new_state(), ["X", "O"])
    'X to move · scores 0:0'
    """
    if state.is_terminal():
        ranks = state.ranks()
        if state.truncated:
            text = "truncated: a draw"
        elif ranks is None:
            text = "over"
        else:
            best = float(min(ranks))
            winners = [p for p, r in enumerate(ranks) if r == best]
            if len(winners) == 1:
                text = f"{names[winners[0]]} wins"
            elif len(winners) == len(ranks):
                text = "a draw"
            else:
                text = " and ".join(names[p] for p in winners) + " share the win"
    else:
        text = f"{names[state.current_player or 0]} to move"
    scores = state.scores()
    if scores is not None:
        if long_scores:
            text += " · scores " + ", ".join(f"{names[p]} {_fmt(v)}" for p, v in enumerate(scores))
        else:
            text += " · scores " + ":".join(_fmt(v) for v in scores)
    return text
