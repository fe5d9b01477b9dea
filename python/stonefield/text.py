"""Text pictures of positions for terminals: ``str(state)`` is :func:`board_text`.

Rows run from the top of the board down, each line starting with the name of its leftmost
site (``Game.site_names``: a file letter and a rank number, the names moves are written in). Hex
rows are offset by half a cell, as on the board. Empty sites are ``.``; the stones of players 0
to 3 are ``X``, ``O``, ``A`` and ``B``. Smallholder territory on empty sites shows as the owner's
letter in lower case, Subsume's surrounded empty cells as ``-`` and its stones kept inside a
settled loop (``remove_surrounded=False``) as their owner's letter in lower case. The last line
says who is to move (or the result), the scores, the number of actions and the last move, by
its name (``Game.action_name``).

>>> import stonefield as sf
>>> state = sf.make("windflowers", grid="hex", size=3).new_state()
>>> for action in (4, 8, 18):
...     state.apply(action)
>>> print(board_text(state))
d5    . .
c4   . . .
b3  . . . .
a2 X . . . O
a1  . . . .
O to move · scores X 1, O 1 · 3 actions, last: pass
"""

from __future__ import annotations

import math

import numpy as np

from . import _layout
from ._core import Game, State

__all__ = ["PLAYER_CHARS", "board_text"]

#: The characters of the stones of players 0..3.
PLAYER_CHARS = ("X", "O", "A", "B")
EMPTY = "."
SURROUNDED = "-"


def board_text(state_or_game: State | Game) -> str:
    """Draws a position (or a game's empty board) as lines of text.

    Args:
        state_or_game: the position; a Game draws its empty board.

    Returns:
        The picture, lines separated by newlines, without a trailing newline.

    >>> import stonefield as sf
    >>> print(board_text(sf.make("windflowers", grid="square", size=3)))
    a4 . . . .
    a3 . . . .
    a2 . . . .
    a1 . . . .
    windflowers: square points 4x4
    """
    game, state, is_game = _layout.as_state(state_or_game)
    kind = _layout.board_kind(game)
    coords = np.asarray(game.coords, dtype=float)
    chars = _site_chars(game, state, is_game)

    # Characters per board unit: hex cells are √3 apart in a row and half a cell offset between
    # rows; points are 1 apart (half a unit offset on the lattice). Two columns per spacing leave
    # a blank between neighbours.
    step = math.sqrt(3) / 2 if kind == _layout.HEX_CELLS else 0.5
    xmin = coords[:, 0].min()
    rows = _layout.rows(coords)[::-1]
    names = game.site_names
    width = max(len(names[row[0]]) for row in rows)
    lines = []
    for row in rows:
        line: list[str] = []
        for s in row:
            col = round((coords[s, 0] - xmin) / step)
            line.extend(" " * (col - len(line) + 1))
            line[col] = chars[s]
        lines.append(f"{names[row[0]]:>{width}} " + "".join(line).rstrip())
    lines.append(_legend(game, state, is_game))
    return "\n".join(lines)


def _site_chars(game: Game, state: State, is_game: bool) -> list[str]:
    board = state.board
    chars = [PLAYER_CHARS[v - 1] if v > 0 else EMPTY for v in board.tolist()]
    if is_game:
        return chars
    marks = state.marks()
    for p, owned in enumerate(marks.get("territory", [])):
        for s in np.flatnonzero(np.asarray(owned, bool)):
            if board[s] == 0:
                chars[s] = PLAYER_CHARS[p].lower()
    if "surrounded" in marks:
        for s in np.flatnonzero(np.asarray(marks["surrounded"], bool)):
            if board[s] == 0:
                chars[s] = SURROUNDED
    if "enclosed" in marks:
        for s in np.flatnonzero(np.asarray(marks["enclosed"], bool)):
            chars[s] = PLAYER_CHARS[board[s] - 1].lower()
    return chars


def _legend(game: Game, state: State, is_game: bool) -> str:
    if is_game:
        return f"{game.name}: {game.board_shape}"
    parts = [_layout.status(state, PLAYER_CHARS, long_scores=True)]
    phase = state.marks().get("phase")
    if phase is not None:
        parts.append(f"{phase} phase")
    history = state.history
    if history:
        parts.append(f"{len(history)} actions, last: {game.action_name(history[-1])}")
    return " · ".join(parts)
