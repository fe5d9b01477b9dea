"""The options of each game, described for the page's form.

The games declare their options once (:func:`stonefield.option_spec`); :func:`option_spec` here
turns that declaration into what the page's form needs: plain value lists, a help line per value,
and no default of their own for options that another option sets (the Smallholder's rule
options, which its ruleset sets), so that the form leaves them to the ruleset.
"""

from __future__ import annotations

from typing import Any

from ..options import OptionInfo
from ..options import option_spec as declared

#: One option: ``name``, ``kind`` (``"choice"``, ``"int"`` or ``"bool"``), ``default`` (None
#: when the engine derives it, as ``max_moves`` from the board or a rule from the ruleset),
#: ``values`` and ``value_help`` for choices, ``min`` and ``max`` for integers, and ``help``.
OptionSpec = dict[str, Any]


def option_spec(game: str) -> list[OptionSpec]:
    """The options of a game, in the engine's order, for building a form.

    Args:
        game: a game id of :func:`stonefield.games`.

    Returns:
        One :data:`OptionSpec` per option.

    Raises:
        InvalidOptionError: the game is unknown.

    >>> [o["name"] for o in option_spec("subsume")]
    ['size', 'anti_blob', 'remove_surrounded']
    >>> players = option_spec("windflowers")[0]
    >>> players["kind"], players["min"], players["max"], players["default"]
    ('int', 2, 4, 2)
    >>> option_spec("smallholder")[2]["default"] is None  # "groups": from the ruleset
    True
    """
    return _from_registry(declared(game))


def _from_registry(spec: list[OptionInfo]) -> list[OptionSpec]:
    """Converts the games' declaration to the page's form description.

    >>> _from_registry([
    ...     {"name": "ruleset", "kind": "choice", "default": "a", "help": "", "min": None,
    ...      "max": None, "values": [{"name": "a", "help": "", "sets": {"capture": "x"}},
    ...                              {"name": "b", "help": "", "sets": {"capture": "y"}}]},
    ...     {"name": "capture", "kind": "choice", "default": "x", "help": "what is taken",
    ...      "min": None, "max": None, "values": [{"name": "x", "help": "", "sets": {}},
    ...                                           {"name": "y", "help": "more", "sets": {}}]},
    ...     {"name": "size", "kind": "int", "default": 6, "min": 3, "max": 30, "help": "",
    ...      "values": None},
    ... ])[1:]  # doctest: +NORMALIZE_WHITESPACE
    [{'name': 'capture', 'kind': 'choice', 'default': None,
      'help': 'what is taken (default: from the ruleset)', 'values': ['x', 'y'],
      'value_help': {'y': 'more'}},
     {'name': 'size', 'kind': 'int', 'default': 6, 'help': '', 'min': 3, 'max': 30}]
    """
    # Which options some value of another option sets, and which option that is.
    ruled = {
        key: option["name"]
        for option in spec
        for value in option["values"] or []
        for key in value["sets"]
    }
    out: list[OptionSpec] = []
    for option in spec:
        name = option["name"]
        entry: OptionSpec = {
            "name": name,
            "kind": option["kind"],
            "default": None if name in ruled else option["default"],
            "help": option["help"],
        }
        if name in ruled:
            entry["help"] = f"{entry['help']} (default: from the {ruled[name]})".strip()
        if option["kind"] == "int":
            entry["min"], entry["max"] = option["min"], option["max"]
        if option["values"]:
            entry["values"] = [v["name"] for v in option["values"]]
            helps = {v["name"]: v["help"] for v in option["values"] if v["help"]}
            if helps:
                entry["value_help"] = helps
        out.append(entry)
    return out
