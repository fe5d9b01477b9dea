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
    """Converts the registry's description to the page's.

    Choice values may be plain or ``{"name", "help", "sets"}`` objects; an option that some
    value of another option ``sets`` (the Smallholder's rule options, set by its ruleset) gets
    no default of its own, so the form leaves it to the ruleset unless the user picks a value.

    >>> _from_registry([
    ...     {"name": "ruleset", "kind": "choice", "default": "a", "help": "",
    ...      "values": [{"name": "a", "help": "", "sets": {"capture": "x"}},
    ...                 {"name": "b", "help": "", "sets": {"capture": "y"}}]},
    ...     {"name": "capture", "kind": "choice", "default": "x", "help": "what is taken",
    ...      "values": [{"name": "x", "help": ""}, {"name": "y", "help": "more"}]},
    ...     {"name": "size", "kind": "int", "default": 6, "min": 3, "max": 30, "help": ""},
    ... ])[1:]  # doctest: +NORMALIZE_WHITESPACE
    [{'name': 'capture', 'kind': 'choice', 'default': None,
      'help': 'what is taken (default: from the ruleset)', 'values': ['x', 'y'],
      'value_help': {'y': 'more'}},
     {'name': 'size', 'kind': 'int', 'default': 6, 'help': '', 'min': 3, 'max': 30}]
    """

    def get(item: Any, key: str) -> Any:
        return item.get(key) if isinstance(item, dict) else getattr(item, key, None)

    items = list(spec)
    ruled: dict[str, str] = {}
    for item in items:
        for value in get(item, "values") or []:
            sets = {} if isinstance(value, (str, int)) else get(value, "sets") or {}
            for key in sets:
                ruled[key] = str(get(item, "name"))
    out: list[OptionSpec] = []
    for item in items:
        name = str(get(item, "name"))
        values = get(item, "values")
        raw = str(get(item, "kind") or "").lower()
        kind = raw if raw in ("choice", "int", "bool") else "choice" if values else "str"
        entry: OptionSpec = {
            "name": name,
            "kind": kind,
            "default": None if name in ruled else get(item, "default"),
            "help": str(get(item, "help") or ""),
        }
        if name in ruled:
            entry["help"] = (entry["help"] + f" (default: from the {ruled[name]})").strip()
        for key in ("min", "max"):
            if get(item, key) is not None:
                entry[key] = get(item, key)
        if kind == "choice" and values:
            plain = [v if isinstance(v, (str, int)) else get(v, "name") for v in values]
            entry["values"] = plain
            helps = {
                str(get(v, "name")): str(get(v, "help"))
                for v in values
                if not isinstance(v, (str, int)) and get(v, "help")
            }
            if helps:
                entry["value_help"] = helps
        out.append(entry)
    return out
