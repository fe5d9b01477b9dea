"""The options of each game, described for the page's form.

:func:`option_spec` is the one place the page learns which options a game has and which values
they take. It prefers ``stonefield.option_spec`` (the registry every game declares its options
in) when this build has it, and otherwise falls back to the values listed below, checked against
``game.options`` so that an option the engine has and the table lacks still shows (as free text).
"""

from __future__ import annotations

from typing import Any

from .. import _core

#: One option: ``name``, ``kind`` (``"choice"``, ``"int"`` or ``"bool"``), ``default`` (None when
#: the engine derives it, as ``max_moves`` from the board), ``values`` for choices, ``min`` and
#: ``max`` for integers, and a one-line ``help``.
OptionSpec = dict[str, Any]

_SMALLHOLDER_BOARDS = [f"hex{n}" for n in range(3, 19)] + ["hex232323", "hex343434", "hex454545"]
_RULE_OPTIONS = ("groups", "adjacent", "territory", "capture")

_KNOWN: dict[str, list[OptionSpec]] = {
    "smallholder": [
        {
            "name": "board",
            "kind": "choice",
            "default": "hex4",
            "values": _SMALLHOLDER_BOARDS,
            "help": "regular hexagon of side n, or an alternating hexagon",
        },
        {
            "name": "ruleset",
            "kind": "choice",
            "default": "nibbler",
            "values": ["nibbler", "gaps_original", "offshore_gaps", "stymie", "hull_setbacks"],
            "help": "sets the four rule options below unless they are given",
        },
        {
            "name": "groups",
            "kind": "choice",
            "default": None,
            "values": [
                "must_create_if_1_playable",
                "must_create_if_only_1",
                "priority_if_only_1",
                "priority_if_1_playable",
                "priority_always",
            ],
            "help": "when a new group must or may be created (default: from the ruleset)",
        },
        {
            "name": "adjacent",
            "kind": "choice",
            "default": None,
            "values": [
                "smallest_playable",
                "smallest_playable_only",
                "smallest_else_lose",
                "smallest_only_else_lose",
            ],
            "help": "which groups a placement may extend (default: from the ruleset)",
        },
        {
            "name": "territory",
            "kind": "choice",
            "default": None,
            "values": ["gap", "hull"],
            "help": "how a group holds cells (default: from the ruleset)",
        },
        {
            "name": "capture",
            "kind": "choice",
            "default": None,
            "values": ["piecewise", "groupwise", "groupwise_reentry"],
            "help": "what an extension captures (default: from the ruleset)",
        },
        {
            "name": "max_moves",
            "kind": "int",
            "default": None,
            "min": 1,
            "max": 1 << 40,
            "help": "move cap, a draw when reached (default: 10 × cells)",
        },
    ],
    "windflowers": [
        {
            "name": "players",
            "kind": "choice",
            "default": 2,
            "values": [2, 3, 4],
            "help": "number of players",
        },
        {
            "name": "grid",
            "kind": "choice",
            "default": "trisquare",
            "values": ["trisquare", "hex", "square"],
            "help": "the board",
        },
        {"name": "size", "kind": "int", "default": 4, "min": 3, "max": 15, "help": "board size"},
        {
            "name": "scoring",
            "kind": "choice",
            "default": "stones",
            "values": ["stones", "largest_group"],
            "help": "what scores",
        },
        {
            "name": "tiebreak",
            "kind": "choice",
            "default": "underdog",
            "values": ["underdog", "cascade"],
            "help": "how equal scores are broken",
        },
        {
            "name": "last_placer_breaks_ties",
            "kind": "bool",
            "default": False,
            "help": "the most recent placer wins a remaining tie",
        },
        {
            "name": "max_moves",
            "kind": "int",
            "default": None,
            "min": 1,
            "max": 1 << 40,
            "help": "move cap, a draw when reached (default: 10 × sites)",
        },
    ],
    "faraday": [
        {
            "name": "grid",
            "kind": "choice",
            "default": "hex",
            "values": [
                "hex",
                "hex_limping",
                "hex_omni",
                "trisquare",
                "trisquare_omni",
                "square_omni",
            ],
            "help": "the board and placement relation",
        },
        {"name": "order", "kind": "int", "default": 6, "min": 3, "max": 25, "help": "board size"},
        {
            "name": "scoring",
            "kind": "choice",
            "default": "simple_orthogonal",
            "values": ["simple_orthogonal", "simple", "special_orthogonal", "special"],
            "help": "what scores",
        },
        {
            "name": "surplus_charge",
            "kind": "bool",
            "default": False,
            "help": "the designer's surplus-charge variant",
        },
    ],
    "subsume": [
        {
            "name": "size",
            "kind": "int",
            "default": 6,
            "min": 3,
            "max": 30,
            "help": "side of the hexagon",
        },
    ],
}


def option_spec(game: str) -> list[OptionSpec]:
    """The options of a game, in the engine's order, for building a form.

    Args:
        game: a game id of :func:`stonefield.games`.

    Returns:
        One :data:`OptionSpec` per option.

    Raises:
        InvalidOptionError: the game is unknown.

    >>> [o["name"] for o in option_spec("subsume")]
    ['size']
    >>> option_spec("windflowers")[0]["values"]
    [2, 3, 4]
    """
    resolved = _core.make(game).options  # raises InvalidOptionError for an unknown game
    import stonefield

    registry = getattr(stonefield, "option_spec", None) or getattr(_core, "option_spec", None)
    if registry is not None:
        return _from_registry(registry(game))
    known = {o["name"]: o for o in _KNOWN.get(game, [])}
    out: list[OptionSpec] = []
    for name, value in resolved.items():
        if name in known:
            out.append(dict(known[name]))
        else:
            kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "str"
            out.append({"name": name, "kind": kind, "default": value, "help": ""})
    return out


def _from_registry(spec: Any) -> list[OptionSpec]:
    """Converts the registry's description to the page's, accepting dicts or objects.

    >>> _from_registry([{"name": "size", "type": "integer", "default": 6, "min": 3, "max": 30},
    ...                 {"name": "grid", "values": ("hex", "square"), "default": "hex"}])
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'name': 'size', 'kind': 'int', 'default': 6, 'help': '', 'min': 3, 'max': 30},
     {'name': 'grid', 'kind': 'choice', 'default': 'hex', 'help': '', 'values': ['hex', 'square']}]
    """
    out: list[OptionSpec] = []
    for item in spec:

        def get(key: str, item: Any = item) -> Any:
            return item.get(key) if isinstance(item, dict) else getattr(item, key, None)

        values = get("values") or get("choices")
        raw = str(get("kind") or get("type") or "").lower()
        if values is not None and raw not in ("int", "integer", "bool", "boolean"):
            kind = "choice"
        elif raw in ("int", "integer", "range"):
            kind = "int"
        elif raw in ("bool", "boolean", "flag"):
            kind = "bool"
        else:
            kind = "str"
        entry: OptionSpec = {
            "name": get("name"),
            "kind": kind,
            "default": get("default"),
            "help": get("help") or get("doc") or "",
        }
        for key in ("min", "max"):
            if get(key) is not None:
                entry[key] = get(key)
        if kind == "choice":
            entry["values"] = list(values)
        out.append(entry)
    return out
