"""Argument checks shared by the package's entry points (matches, self-play, the lab): each
returns the checked value or raises the package's typed errors naming what is allowed."""

from __future__ import annotations

import numbers
from typing import Any

from . import _core
from ._core import Game, InvalidOptionError


def game_arg(game: Game | str, options: dict[str, Any]) -> Game:
    if isinstance(game, str):
        return _core.make(game, **options)
    if not isinstance(game, Game):
        raise TypeError(f"game must be a stonefield.Game or a game id, got {type(game).__name__}")
    if options:
        raise TypeError(f"options ({', '.join(options)}) are given with a game id, not with a Game")
    return game


def count_arg(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise InvalidOptionError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def seed_arg(seed: Any) -> int:
    seed = count_arg("seed", seed, 0)
    if seed >= 2**64:
        raise InvalidOptionError(f"seed must be below 2**64, got {seed}")
    return int(seed)


def threads_arg(threads: Any) -> int | None:
    return None if threads is None else count_arg("threads", threads, 1)
