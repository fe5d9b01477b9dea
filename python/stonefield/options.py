"""What options each game takes: :func:`option_spec`, read from the game's own declaration in
Rust, the one place options are described.

Each option is an :class:`OptionInfo` dict, ready for building forms, help texts and JSON: a
choice among named values (:class:`ValueInfo`, whose ``sets`` lists the options a ruleset sets),
an integer range, or a flag.

>>> import stonefield as sf
>>> [o["name"] for o in sf.option_spec("faraday")]
['grid', 'order', 'scoring', 'surplus_charge', 'min_offer_stones']
>>> order = sf.option_spec("faraday")[1]
>>> order["kind"], order["min"], order["max"], order["default"]
('int', 3, 25, 6)
>>> nibbler = sf.option_spec("smallholder")[1]["values"][0]
>>> nibbler["name"], nibbler["sets"]["capture"]
('nibbler', 'piecewise')
"""

from __future__ import annotations

from typing import Literal, TypedDict, cast

from . import _core
from ._core import Game

__all__ = ["OptionInfo", "ValueInfo", "option_spec"]


class ValueInfo(TypedDict):
    """One allowed value of a choice option."""

    #: The value as :func:`stonefield.make` takes it.
    name: str
    #: A few words on what it means ("" when the name says it all).
    help: str
    #: For a ruleset, the options it sets (an option given explicitly wins); else empty.
    sets: dict[str, str]


class OptionInfo(TypedDict):
    """One option of a game, as the game declares it."""

    name: str
    #: "choice" (one of ``values``), "int" (``min`` to ``max``) or "bool".
    kind: Literal["choice", "int", "bool"]
    #: The default; None when it depends on the board (``help`` says how).
    default: str | int | bool | None
    #: One line on what the option does.
    help: str
    #: The allowed values of a choice, in declaration order; None for other kinds.
    values: list[ValueInfo] | None
    #: The smallest and largest value of an integer option; None for other kinds.
    min: int | None
    max: int | None


def option_spec(game: str | Game) -> list[OptionInfo]:
    """The options a game takes, in the order ``game.options`` lists them.

    Args:
        game: a game id of :func:`stonefield.games`, or a :class:`~stonefield.Game`.

    Returns:
        One :class:`OptionInfo` per option.

    Raises:
        InvalidOptionError: the game id is unknown.

    >>> import stonefield as sf
    >>> [o["name"] for o in option_spec(sf.make("subsume"))]
    ['size', 'anti_blob', 'remove_surrounded']
    """
    name = game if isinstance(game, str) else game.name
    return cast("list[OptionInfo]", _core.option_spec(name))
