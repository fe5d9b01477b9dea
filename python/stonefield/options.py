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

from collections.abc import Iterable
from typing import Literal, TypedDict, cast

from . import _core
from ._core import Game

__all__ = ["OptionInfo", "ValueInfo", "option_spec", "parse_options"]


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


def parse_options(items: str | Iterable[str]) -> dict[str, str | int | bool]:
    """Game options written ``key=value``, as the command line takes them, ready for
    :func:`stonefield.make`: read by the one rule of the Rust core, so a script's ``--option``
    means what the CLI's does. ``-`` in a key is read as ``_``; the value ``true`` or ``false``
    in any case is a flag, an integer is an integer, anything else a string. A later item
    with the same key wins. A single string is one item.

    >>> import stonefield as sf
    >>> sf.parse_options(["board=hex343434", "ruleset=stymie", "max-moves=40", "swap=TRUE"])
    {'board': 'hex343434', 'ruleset': 'stymie', 'max_moves': 40, 'swap': True}

    Whether the game takes those options is :func:`stonefield.make`'s to say.

    Raises:
        InvalidOptionError: an item without ``=`` or without a key (nothing is returned).
        TypeError: an item that is not a string.
    """
    if isinstance(items, str):
        items = [items]
    out: dict[str, str | int | bool] = {}
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"options are strings key=value, got {type(item).__name__}")
        key, value = _core.parse_option(item)
        out[key] = value
    return out
