"""Stand-ins for games this build may lack, with the same attributes as Game and State, so the
pictures of every board kind and overlay can be tested before those games land. The geometry
follows boards.md."""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def hex_region(a: int, b: int, spacing: float, row_height: float) -> np.ndarray:
    """Coordinates of an alternating hexagon (a, b) of a triangular lattice, in site order."""
    lengths = [b + i for i in range(a)] + [a + b - 1 - i for i in range(1, b)]
    coords = []
    start = 0.0
    for r, length in enumerate(lengths):
        if r > 0:
            start += -0.5 if lengths[r] > lengths[r - 1] else 0.5
        coords += [((start + i) * spacing, r * row_height) for i in range(length)]
    return np.array(coords, dtype=float)


def trisquare(d: int) -> np.ndarray:
    s, h = math.sqrt(3) / 2, (1 + math.sqrt(3)) / 2
    offsets = [
        (-0.5, -0.5 - s), (0.5, -0.5 - s), (-0.5 - s, -s), (0.5 + s, -s), (0, -0.5),
        (-1 - s, 0), (-s, 0), (s, 0), (1 + s, 0), (0, 0.5),
        (-0.5 - s, s), (0.5 + s, s), (-0.5, 0.5 + s), (0.5, 0.5 + s),
    ]  # fmt: skip
    pts: list[tuple[float, float]] = []
    for r in range(d):
        for c in range(d):
            ox, oy = h * (c - r), h * (r + c)
            for dx, dy in offsets:
                p = (ox + dx, oy + dy)
                if all(math.hypot(p[0] - q[0], p[1] - q[1]) > 0.1 for q in pts):
                    pts.append(p)
    pts.sort(key=lambda p: (round(p[1], 6), p[0]))
    return np.array(pts, dtype=float)


BOARDS = {
    "hex cells, regular hexagon side 4": (
        lambda: hex_region(4, 4, math.sqrt(3), 1.5),
        math.sqrt(3),
        3.0,
    ),
    "lattice points, regular hexagon side 4": (
        lambda: hex_region(4, 4, 1.0, math.sqrt(3) / 2),
        1.0,
        None,
    ),
    "square points 5x5": (
        lambda: np.array([(x, y) for y in range(5) for x in range(5)], dtype=float),
        1.0,
        math.sqrt(2),
    ),
    "triangle-square points, order d = 2": (lambda: trisquare(2), 1.0, math.sqrt(2)),
}


class FakeGame:
    def __init__(self, name: str, shape: str, num_players: int = 2) -> None:
        make_coords, self._orth, self._diag = BOARDS[shape]
        self.name = name
        self.board_shape = shape
        self.coords = make_coords()
        self.num_players = num_players
        self.num_sites = len(self.coords)
        self.num_actions = self.num_sites
        self.options: dict[str, Any] = {}

    def neighbors(self, relation: str = "orthogonal") -> list[np.ndarray]:
        c = self.coords
        dist = np.hypot(*(c[:, None, :] - c[None, :, :]).transpose(2, 0, 1))
        out = []
        for s in range(len(c)):
            mask = np.zeros(len(c), bool)
            if relation in ("orthogonal", "all"):
                mask |= np.isclose(dist[s], self._orth)
            if relation in ("diagonal", "all") and self._diag is not None:
                mask |= np.isclose(dist[s], self._diag)
            out.append(np.flatnonzero(mask))
        return out

    def new_state(self) -> FakeState:
        return FakeState(self, np.zeros(self.num_sites, np.int8), [])


class FakeState:
    """A position: stones put on sites in turn; overlays are attributes set by the test."""

    def __init__(self, game: FakeGame, board: np.ndarray, history: list[int]) -> None:
        self.game = game
        self.board = board
        self.history = history
        self.truncated = False

    @classmethod
    def played(cls, game: FakeGame, sites: list[int]) -> FakeState:
        board = np.zeros(game.num_sites, np.int8)
        for i, s in enumerate(sites):
            board[s] = i % game.num_players + 1
        return cls(game, board, list(sites))

    @property
    def current_player(self) -> int:
        return len(self.history) % self.game.num_players

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.board == 0)

    def is_terminal(self) -> bool:
        return False

    def ranks(self) -> None:
        return None

    def returns(self) -> None:
        return None

    def scores(self) -> None:
        return None

    def copy(self) -> FakeState:
        return FakeState(self.game, self.board.copy(), list(self.history))

    def undo(self) -> int:
        a = self.history.pop()
        self.board[a] = 0
        return a
