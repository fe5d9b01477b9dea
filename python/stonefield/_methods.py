"""The methods of :class:`~stonefield.Game` and :class:`~stonefield.State` that are written in
Python (pictures, text, records), attached to the extension's classes when the package loads.

The dependency runs one way: the package uses the bindings, and the bindings never import the
package back.
"""

from __future__ import annotations

from typing import Any

from . import _core
from .records import from_record, to_record
from .render import to_svg
from .text import board_text


def _state_svg(self: _core.State, **kwargs: Any) -> str:
    """The position as SVG; keyword arguments as for :func:`stonefield.to_svg`."""
    return to_svg(self, **kwargs)


def _repr_svg(self: _core.Game | _core.State) -> str:
    """The board as SVG, for notebooks (:func:`stonefield.to_svg`)."""
    return to_svg(self)


def _state_str(self: _core.State) -> str:
    """The board as text (:func:`stonefield.board_text`)."""
    return board_text(self)


def _state_record(self: _core.State) -> dict[str, Any]:
    """The game record as a dict (:func:`stonefield.to_record`)."""
    return to_record(self)


def _state_from_record(record: dict[str, Any] | str | bytes) -> _core.State:
    """Replays a game record (a dict or JSON text); raises RecordError if it is not valid
    (:func:`stonefield.from_record`)."""
    return from_record(record)


#: (class, attribute, function): the stub (_core.pyi) declares each of them on its class.
_METHODS: list[tuple[type, str, Any]] = [
    (_core.Game, "_repr_svg_", _repr_svg),
    (_core.State, "_repr_svg_", _repr_svg),
    (_core.State, "__str__", _state_str),
    (_core.State, "to_svg", _state_svg),
    (_core.State, "to_record", _state_record),
    (_core.State, "from_record", staticmethod(_state_from_record)),
]


def attach() -> None:
    """Puts the methods on the classes (idempotent)."""
    for cls, name, function in _METHODS:
        setattr(cls, name, function)
