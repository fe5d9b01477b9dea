"""Game records: a small JSON format to save, share and replay games.

A record is a JSON object (format version 1)::

    {
      "format": "stonefield-record",
      "format_version": 1,
      "game": "windflowers",
      "options": {"players": 2, "grid": "hex", "size": 4, ...},
      "rules_version": 1,
      "stonefield_version": "0.1.0",
      "actions": [17, 4, 36, ...],
      "notation": ["d3", "e1", "d6", ...],
      "result": {"terminal": true, "truncated": false,
                 "ranks": [1.0, 2.0], "returns": [1.0, -1.0], "scores": [19.0, 17.0]}
    }

``format`` and ``format_version`` identify the format. ``game`` is a game id of
:func:`stonefield.games` and ``options`` its options (writers give every option, resolved, so
that later changes of defaults cannot change the game; readers fill in defaults for missing
ones). ``rules_version`` is the version of the game's rules the record was played under
(:attr:`stonefield.Game.rules_version`; a record without it was written before versions existed
and is read as version 1): a record of another version than this stonefield plays is refused,
since its actions could mean something else now. ``stonefield_version`` is the version that
wrote the record, for information only.
``actions`` are the game's action ids from the start, in order; sites are numbered as in Ludii.
``notation`` (optional) names the same actions in the game's own words
(:meth:`stonefield.Game.action_name`: a site's name such as ``c4``, ``pass``, Faraday's
``second c4``, ``accept``, ``swap``), for people reading the file; a reader checks it against
``actions``, and accepts any name :meth:`stonefield.Game.parse_action` reads as the same action
(records written before sites had names give their numbers: ``"12"``, ``"second 12"``).
``result`` describes the position reached: whether it is terminal or truncated, and ``ranks``,
``returns`` and ``scores`` as :class:`stonefield.State` reports them (``null`` while the game
runs, ``scores`` ``null`` for games without scores). Records of unfinished games are fine.

Reading a record replays it and checks everything: the format marker and version, the game and
options, every action (it must be an integer and legal where it stands) and, when present, every
field of ``result`` against the replay. Any problem raises :class:`stonefield.RecordError` naming
the field or the action and its index, and quoting the underlying error. Unknown top-level keys
(for example ``"metadata"``) are ignored, so records can carry notes.

>>> import stonefield as sf
>>> state = sf.make("windflowers", grid="square", size=3).new_state()
>>> state.apply(5)
>>> record = to_record(state)
>>> record["game"], record["actions"], record["result"]["terminal"]
('windflowers', [5], False)
>>> from_record(record).history
[5]
>>> record["actions"].append(5)
>>> from_record(record)
Traceback (most recent call last):
...
stonefield.RecordError: action 5 (index 1): ...
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

from ._actions import is_action_id
from ._core import RecordError, State, StonefieldError, __version__, games, make
from ._files import atomic_write

__all__ = ["FORMAT", "FORMAT_VERSION", "from_record", "load", "save", "to_record"]

#: The value of a record's ``"format"`` field.
FORMAT = "stonefield-record"
#: The format version this module writes and reads.
FORMAT_VERSION = 1

_RESULT_KEYS = ("terminal", "truncated", "ranks", "returns", "scores")


def to_record(state: State) -> dict[str, Any]:
    """The record of a game: its id, options, the actions played and the result so far.

    Args:
        state: the position; its whole history is recorded.

    Returns:
        A dict ready for :func:`json.dumps` (see the module documentation for the fields).

    >>> import stonefield as sf
    >>> record = to_record(sf.make("windflowers").new_state())
    >>> sorted(record)  # doctest: +NORMALIZE_WHITESPACE
    ['actions', 'format', 'format_version', 'game', 'notation', 'options', 'result',
     'rules_version', 'stonefield_version']
    """
    game = state.game
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.name,
        "options": dict(game.options),
        "rules_version": game.rules_version,
        "stonefield_version": __version__,
        "actions": [int(a) for a in state.history],
        "notation": [game.action_name(int(a)) for a in state.history],
        "result": _result(state),
    }


def from_record(record: dict[str, Any] | str | bytes) -> State:
    """Replays a record, checking it, and returns the position it reaches.

    Args:
        record: a record as a dict, or its JSON text.

    Returns:
        The state after every recorded action, with the full history (so ``undo`` works).

    Raises:
        RecordError: the record is malformed (bad JSON, wrong format marker or version, another
            rules version than this stonefield plays, a field
            of the wrong type, an unknown game or option, a non-integer or illegal action) or
            inconsistent (its result differs from the replay's). The message names the field or
            the action, its index, and quotes the underlying error.

    >>> from_record('{"format": "stonefield-record", "format_version": 1, "game": "chess",'
    ...             ' "actions": []}')
    Traceback (most recent call last):
    ...
    stonefield.RecordError: field "game": unknown game "chess"; games: ...
    """
    if isinstance(record, (str, bytes, bytearray)):
        try:
            record = json.loads(record)
        except UnicodeDecodeError as e:
            raise RecordError(f"record is not UTF-8 text: {e}") from e
        except RecursionError as e:
            raise RecordError("record is not valid JSON: it is nested too deeply") from e
        except ValueError as e:  # JSONDecodeError, and integers beyond int_max_str_digits
            raise RecordError(f"record is not valid JSON: {e}") from e
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, got {_type_name(record)}")

    fmt = _field(record, "format", str)
    if fmt != FORMAT:
        raise RecordError(f'field "format": expected "{FORMAT}", got {_show(fmt)}')
    version = _field(record, "format_version", int)
    if version != FORMAT_VERSION:
        raise RecordError(
            f'field "format_version": this stonefield reads version {FORMAT_VERSION}, got {version}'
        )
    name = _field(record, "game", str)
    options = _field(record, "options", dict, required=False) or {}
    if not all(isinstance(k, str) for k in options):
        raise RecordError(f'field "options": option names are strings, got {list(options)!r}')
    rules_version = _field(record, "rules_version", int, required=False)
    if "stonefield_version" in record:
        _field(record, "stonefield_version", str)
    actions = _field(record, "actions", list)

    try:
        game = make(name, **options)
    except StonefieldError as e:
        raise RecordError(f'field "{"options" if name in games() else "game"}": {e}') from e
    # Records written before rules versions existed were all played under version 1.
    if rules_version is None:
        rules_version = 1
    if rules_version != game.rules_version:
        raise RecordError(
            f'field "rules_version": the record was played under {name} rules version '
            f"{rules_version}, this stonefield plays version {game.rules_version}"
        )
    state = game.new_state()
    for index, action in enumerate(actions):
        if not is_action_id(action):
            raise RecordError(f"action at index {index}: actions are integers, got {_show(action)}")
        try:
            state.apply(action)
        except StonefieldError as e:
            raise RecordError(f"action {action} (index {index}): {e}") from e

    if "notation" in record:
        _check_notation(_field(record, "notation", list), state)
    if "result" in record:
        _check_result(record["result"], state)
    return state


def _check_notation(notation: list[Any], state: State) -> None:
    """Fails unless ``notation`` names the replayed actions, one name each, in order."""
    history = state.history
    if len(notation) != len(history):
        raise RecordError(f'field "notation": {len(notation)} names for {len(history)} actions')
    for index, (name, action) in enumerate(zip(notation, history)):
        want = state.game.action_name(int(action))
        if name != want and not _names(state.game, name, int(action)):
            raise RecordError(
                f'field "notation": action {action} (index {index}) is named {want!r},'
                f" the record says {_show(name)}"
            )


def _names(game: Any, name: Any, action: int) -> bool:
    """Whether ``name`` is another name of ``action`` (such as the site number that records
    written before sites had names give)."""
    if not isinstance(name, str):
        return False
    try:
        return int(game.parse_action(name)) == action
    except StonefieldError:
        return False


def save(state: State, path: str | os.PathLike[str]) -> None:
    """Writes the record of a game to a JSON file (UTF-8, one field per line).

    The record is written to a temporary file beside ``path`` that then replaces it, so an
    error (a wrong argument, a full disk) leaves any earlier file at ``path`` as it was.

    Args:
        state: the game to save.
        path: the file to write (replaced if it exists).
    """
    text = dumps(to_record(state))
    with atomic_write(path) as f:
        f.write(text)


def load(path: str | os.PathLike[str]) -> State:
    """Reads a record file written by :func:`save` (or by hand) and replays it.

    Args:
        path: the JSON file.

    Returns:
        The position the record reaches.

    Raises:
        RecordError: the file's content is not a valid record (the message starts with the path).
        OSError: the file cannot be read.
    """
    with open(path, "rb") as f:
        data = f.read()
    try:
        return from_record(data)
    except RecordError as e:
        raise RecordError(f"{os.fspath(path)}: {e}") from e


def dumps(record: dict[str, Any]) -> str:
    """A record as JSON text: one top-level field per line, each value on one line.

    >>> print(dumps({"format": FORMAT, "actions": [1, 2]}))
    {
      "format": "stonefield-record",
      "actions": [1, 2]
    }
    <BLANKLINE>
    """
    fields = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in record.items()]
    return "{\n" + ",\n".join(fields) + "\n}\n"


def _result(state: State) -> dict[str, Any]:
    def listed(values: Any) -> list[float] | None:
        return None if values is None else [float(v) for v in values]

    return {
        "terminal": state.is_terminal(),
        "truncated": state.truncated,
        "ranks": listed(state.ranks()),
        "returns": listed(state.returns()),
        "scores": listed(state.scores()),
    }


def _check_result(result: Any, state: State) -> None:
    if not isinstance(result, dict):
        raise RecordError(f'field "result": expected an object, got {_type_name(result)}')
    replay = _result(state)
    for key in _RESULT_KEYS:
        if key not in result:
            continue
        claimed, actual = result[key], replay[key]
        if not _same(claimed, actual):
            raise RecordError(
                f'field "result.{key}": the record says {_show(claimed)}, but replaying '
                f"its {len(state.history)} actions gives {json.dumps(actual)}"
            )


def _same(claimed: Any, actual: Any) -> bool:
    """Equal, with numbers compared to 1e-9 (JSON may have written 1.0 as 1)."""
    if isinstance(actual, bool) or actual is None:
        return claimed is actual
    if not isinstance(claimed, list) or len(claimed) != len(actual):
        return False
    return all(_close(c, a) for c, a in zip(claimed, actual))


def _close(claimed: Any, actual: float) -> bool:
    if not isinstance(claimed, (int, float)) or isinstance(claimed, bool):
        return False
    try:
        return math.isclose(float(claimed), actual, rel_tol=0.0, abs_tol=1e-9)
    except OverflowError:  # an integer beyond any float: no score is that large
        return False


def _field(record: dict[str, Any], key: str, kind: type, required: bool = True) -> Any:
    if key not in record:
        if required:
            raise RecordError(f'field "{key}" is missing')
        return None
    value = record[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        expected = {str: "a string", int: "an integer", list: "a list", dict: "an object"}[kind]
        raise RecordError(f'field "{key}": expected {expected}, got {_show(value)}')
    return value


def _type_name(value: Any) -> str:
    names: dict[type, str] = {dict: "an object", list: "a list", str: "a string"}
    return names.get(type(value), type(value).__name__)


def _show(value: Any) -> str:
    """A value as JSON when it is JSON, else its repr (shortened either way)."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        try:
            text = repr(value)
        except (ValueError, RecursionError):  # an integer too long to print, a deep nest
            return f"a {type(value).__name__} too large to show"
    return text if len(text) <= 80 else text[:77] + "..."
