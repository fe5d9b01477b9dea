"""Pieces the reinforcement-learning adapters share: choosing the game, rendering a state in each
render mode, and the agent protocol opponents follow. Imports nothing beyond numpy until a picture
is asked for."""

from __future__ import annotations

import io
from typing import Any, Protocol, Union

import numpy as np
import numpy.typing as npt

from ._core import Game, State, make
from .render import to_svg
from .text import board_text

#: The render modes the PettingZoo and Gymnasium environments offer: "human" prints the text
#: board after every change, "ansi" returns it, "rgb_array" returns a picture (uint8, (H, W, 3))
#: and "svg" returns the SVG document.
RENDER_MODES = ["human", "ansi", "rgb_array", "svg"]

#: Width in pixels of "rgb_array" pictures.
RENDER_SIZE = 400

Rendered = Union[str, npt.NDArray[np.uint8], None]


class Agent(Protocol):
    """Anything that chooses an action for the player to move, such as `sf.MCTS`."""

    def act(self, state: State) -> int: ...


def make_game(game: str | Game, options: dict[str, Any]) -> Game:
    """A Game from a game id and options, or a Game given as it is (then without options)."""
    if isinstance(game, Game):
        if options:
            raise TypeError("options are given with a game id, not with a Game")
        return game
    return make(game, **options)


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r} is not one of {RENDER_MODES} or None")


def render(state: State, render_mode: str | None) -> Rendered:
    """The state drawn the way `render_mode` asks (None for "human", which prints it)."""
    if render_mode == "human":
        print(board_text(state), flush=True)
        return None
    if render_mode == "ansi":
        return board_text(state)
    if render_mode == "svg":
        return to_svg(state)
    if render_mode == "rgb_array":
        return rgb_array(state)
    return None


def rgb_array(state: State, size: int = RENDER_SIZE) -> npt.NDArray[np.uint8]:
    """The state's SVG picture rasterised by resvg (a Rust renderer shipped as binary wheels, so
    nothing is needed from the system), decoded by Pillow: uint8 (height, width, 3)."""
    import resvg_py
    from PIL import Image

    png = resvg_py.svg_to_bytes(svg_string=to_svg(state, size=size), background="white")
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


def random_legal(state: State, rng: np.random.Generator) -> int:
    """A uniformly random legal action, drawn from `rng`."""
    legal = state.legal_actions()
    return int(legal[rng.integers(len(legal))])
