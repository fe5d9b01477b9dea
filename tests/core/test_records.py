"""Game records (round trips for every game, each malformed case) and pickling."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from configs import CONFIGS, config_id
from stonefield.records import FORMAT, FORMAT_VERSION, dumps, from_record, load, save, to_record


def random_game(game: sf.Game, seed: int, limit: int | None = None) -> sf.State:
    state = game.new_state()
    while not state.is_terminal() and (limit is None or len(state.history) < limit):
        state.apply(state.random_action(seed))
    return state


def same_state(a: sf.State, b: sf.State) -> None:
    assert a.game == b.game
    assert a.history == b.history
    assert np.array_equal(a.board, b.board) and a.board.dtype == b.board.dtype
    assert a.current_player == b.current_player
    assert a.is_terminal() == b.is_terminal() and a.truncated == b.truncated
    for f in ("ranks", "returns", "scores"):
        x, y = getattr(a, f)(), getattr(b, f)()
        assert (x is None and y is None) or np.array_equal(x, y)
    assert np.array_equal(a.legal_actions(), b.legal_actions())


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_round_trip_every_config(config: tuple[str, dict[str, Any]], tmp_path: Path) -> None:
    name, options = config
    game = sf.make(name, **options)
    for seed in range(3):
        for limit in (None, 5):
            state = random_game(game, seed, limit)
            record = to_record(state)
            assert record["format"] == FORMAT and record["format_version"] == FORMAT_VERSION
            assert record["game"] == name and record["options"] == game.options
            assert record["actions"] == state.history
            assert record["result"]["terminal"] == state.is_terminal()
            text = json.dumps(record)
            same_state(from_record(text), state)
            same_state(from_record(json.loads(text)), state)
            same_state(sf.State.from_record(record), state)
            assert state.to_record() == record
            path = tmp_path / f"{seed}-{limit}.json"
            save(state, path)
            same_state(load(path), state)
            same_state(sf.load_record(str(path)), state)
            assert json.loads(path.read_text(encoding="utf-8")) == record


def test_record_file_layout(tmp_path: Path) -> None:
    state = random_game(sf.make("windflowers", grid="hex", size=3), seed=4)
    path = tmp_path / "game.json"
    sf.save_record(state, path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "{" and lines[-1] == "}"
    assert lines[1] == '  "format": "stonefield-record",'
    assert any(line.startswith('  "actions": [') for line in lines)
    assert dumps(to_record(state)) == path.read_text(encoding="utf-8")


def test_optional_fields() -> None:
    state = random_game(sf.make("windflowers", size=3), seed=2)
    record = to_record(state)
    for key in ("result", "stonefield_version"):
        reduced = dict(record)
        del reduced[key]
        same_state(from_record(reduced), state)
    partial = dict(record, result={"terminal": True}, metadata={"players": ["Ann", "Bo"]})
    same_state(from_record(partial), state)
    # Options left out take their defaults.
    short = {"format": FORMAT, "format_version": 1, "game": "windflowers", "actions": [3]}
    assert from_record(short).game == sf.make("windflowers")
    # JSON may write 1.0 as 1.
    ints = dict(record, result={k: v for k, v in record["result"].items()})
    ints["result"]["returns"] = [int(v) for v in record["result"]["returns"]]
    same_state(from_record(json.dumps(ints)), state)


def base_record() -> dict[str, Any]:
    state = random_game(sf.make("windflowers", grid="square", size=3), seed=1)
    assert state.is_terminal() and len(state.history) > 4
    return to_record(state)


def set_action(index: int, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(r: dict[str, Any]) -> None:
        r["actions"][index] = value

    return change


def set_key(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(r: dict[str, Any]) -> None:
        r[key] = value

    return change


def del_key(key: str) -> Callable[[dict[str, Any]], None]:
    def change(r: dict[str, Any]) -> None:
        del r[key]

    return change


def set_result(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(r: dict[str, Any]) -> None:
        r["result"][key] = value

    return change


def play_after_end(r: dict[str, Any]) -> None:
    r["actions"].append(0)


def set_option(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(r: dict[str, Any]) -> None:
        r["options"][key] = value

    return change


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str, type | None]] = [
    ("no format", del_key("format"), 'field "format" is missing', None),
    (
        "wrong format",
        set_key("format", "sgf"),
        'field "format": expected "stonefield-record"',
        None,
    ),
    ("version 2", set_key("format_version", 2), "reads version 1, got 2", None),
    (
        "version text",
        set_key("format_version", "1"),
        'field "format_version": expected an int',
        None,
    ),
    ("version bool", set_key("format_version", True), "expected an integer, got true", None),
    ("no game", del_key("game"), 'field "game" is missing', None),
    (
        "unknown game",
        set_key("game", "chess"),
        'field "game": unknown game "chess"; games: "',
        sf.InvalidOptionError,
    ),
    ("game not text", set_key("game", 3), 'field "game": expected a string, got 3', None),
    ("options list", set_key("options", []), 'field "options": expected an object', None),
    (
        "unknown option",
        set_option("colour", "red"),
        'field "options": windflowers: unknown option "colour"',
        sf.InvalidOptionError,
    ),
    (
        "bad option value",
        set_option("grid", "triangle"),
        '"options": windflowers: ',
        sf.InvalidOptionError,
    ),
    ("float option", set_option("size", 3.0), "str, int or bool", sf.InvalidOptionError),
    (
        "version not text",
        set_key("stonefield_version", 1),
        '"stonefield_version": expected a',
        None,
    ),
    ("no actions", del_key("actions"), 'field "actions" is missing', None),
    ("actions object", set_key("actions", {}), 'field "actions": expected a list', None),
    ("action text", set_action(3, "7"), 'action at index 3: actions are integers, got "7"', None),
    ("action float", set_action(2, 1.0), "action at index 2: actions are integers, got 1.0", None),
    ("action bool", set_action(1, True), "action at index 1: actions are integers, got true", None),
    ("action null", set_action(0, None), "action at index 0: actions are integers, got null", None),
    (
        "out of range",
        set_action(3, 10**6),
        "action 1000000 (index 3): windflowers: action 1000000 is out of range",
        sf.IllegalMoveError,
    ),
    ("negative", set_action(0, -1), "action -1 (index 0): ", sf.IllegalMoveError),
    ("after the end", play_after_end, "(index", sf.GameOverError),
    ("result not object", set_key("result", []), 'field "result": expected an object', None),
    (
        "wrong ranks",
        set_result("ranks", [9.0, 9.0]),
        'field "result.ranks": the record says [9.0, 9.0]',
        None,
    ),
    (
        "wrong returns",
        set_result("returns", None),
        'field "result.returns": the record says null',
        None,
    ),
    ("short returns", set_result("returns", [1.0]), '"result.returns"', None),
    ("wrong terminal", set_result("terminal", False), 'field "result.terminal"', None),
    ("terminal as 1", set_result("terminal", 1), 'field "result.terminal"', None),
    ("wrong truncated", set_result("truncated", True), 'field "result.truncated"', None),
    ("wrong scores", set_result("scores", [0, 0]), 'field "result.scores"', None),
]


@pytest.mark.parametrize(
    ("change", "fragment", "cause"), [b[1:] for b in BAD], ids=[b[0] for b in BAD]
)
def test_malformed_records(
    change: Callable[[dict[str, Any]], None], fragment: str, cause: type | None
) -> None:
    record = base_record()
    change(record)
    with pytest.raises(sf.RecordError) as info:
        from_record(record)
    assert fragment in str(info.value)
    assert isinstance(info.value, sf.StonefieldError) and isinstance(info.value, ValueError)
    if cause is not None:
        assert isinstance(info.value.__cause__, cause)
        assert str(info.value.__cause__) in str(info.value)


def test_illegal_action_names_value_and_index() -> None:
    record = {"format": FORMAT, "format_version": 1, "game": "windflowers", "actions": [4, 5, 4]}
    with pytest.raises(sf.RecordError, match=r"^action 4 \(index 2\): windflowers: action 4 is"):
        from_record(record)
    with pytest.raises(sf.RecordError, match=r"^action 4 \(index 2\)"):
        sf.State.from_record(json.dumps(record))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{", "record is not valid JSON: Expecting property name"),
        ('{"format": 1,}', "line 1 column 14"),
        ("", "record is not valid JSON"),
        ("[1, 2]", "a record is a JSON object, got a list"),
        ('"record"', "got a string"),
        ("3", "got int"),
        (b"\xff\xfe{", "record is not"),
    ],
)
def test_malformed_json(text: str | bytes, fragment: str) -> None:
    with pytest.raises(sf.RecordError) as info:
        from_record(text)
    assert fragment in str(info.value)


def test_load_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "stonefield-record", "format_version": 1}', encoding="utf-8")
    with pytest.raises(sf.RecordError, match=r"broken\.json: field \"game\" is missing"):
        load(path)
    with pytest.raises(OSError):
        load(tmp_path / "absent.json")


def test_numpy_actions_in_a_dict() -> None:
    record = base_record()
    record["actions"] = [np.int64(a) for a in record["actions"]]
    assert from_record(record).history == base_record()["actions"]


# Pickling.


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pickle_round_trip(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = sf.make(name, **options)
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again.options == game.options and hash(again) == hash(game)
    for seed, limit in ((0, None), (1, 3), (2, 0)):
        state = random_game(game, seed, limit)
        for protocol in (2, pickle.HIGHEST_PROTOCOL):
            copied = pickle.loads(pickle.dumps(state, protocol=protocol))
            same_state(copied, state)
        same_state(copy.deepcopy(state), state)
        if state.history:
            undone = pickle.loads(pickle.dumps(state))
            undone.undo()
            assert undone.history == state.history[:-1]


def test_records_carry_notation_checked_against_the_actions() -> None:
    game = sf.make("faraday", order=3)
    state = game.new_state()
    for i in range(6):
        state.apply(state.random_action(seed=i))
    record = state.to_record()
    assert record["notation"] == [game.action_name(a) for a in record["actions"]]
    assert any(n.startswith("second ") for n in record["notation"])
    assert sf.State.from_record(record).history == state.history
    # Optional: a record without it reads the same.
    assert sf.State.from_record({k: v for k, v in record.items() if k != "notation"}).history
    for bad, match in (
        ({**record, "notation": record["notation"][:-1]}, "5 names for 6 actions"),
        ({**record, "notation": ["pass"] + record["notation"][1:]}, r"index 0\) is named"),
        ({**record, "notation": "12"}, "notation"),
    ):
        with pytest.raises(sf.RecordError, match=match):
            sf.State.from_record(bad)


#: Records as stonefield 0.1.0 wrote them before sites had names: the notation gives site
#: numbers (``"14"``, ``"second 8"``).
NUMBERED_RECORDS = [
    '{"format": "stonefield-record", "format_version": 1, "game": "faraday", "options": '
    '{"grid": "hex", "order": 3, "scoring": "simple_orthogonal", "surplus_charge": false, '
    '"min_offer_stones": 0}, "rules_version": 1, "stonefield_version": "0.1.0", "actions": '
    '[14, 27, 19, 39, 18, 10, 1], "notation": ["14", "second 8", "second 0", "accept", "18", '
    '"10", "1"], "result": {"terminal": false, "truncated": false, "ranks": null, "returns": '
    'null, "scores": [1.0, 1.0]}}',
    '{"format": "stonefield-record", "format_version": 1, "game": "windflowers", "options": '
    '{"players": 2, "grid": "hex", "size": 3, "scoring": "stones", "tiebreak": "underdog", '
    '"last_placer_breaks_ties": false, "max_moves": 180}, "rules_version": 1, '
    '"stonefield_version": "0.1.0", "actions": [7, 13, 9, 1, 17, 16, 0], "notation": ["7", '
    '"13", "9", "1", "17", "16", "0"], "result": {"terminal": false, "truncated": false, '
    '"ranks": null, "returns": null, "scores": [4.0, 3.0]}}',
]


@pytest.mark.parametrize("text", NUMBERED_RECORDS)
def test_records_with_numbered_notation_still_load(text: str) -> None:
    old = json.loads(text)
    state = sf.State.from_record(text)
    assert state.history == old["actions"]
    # Written again, the notation names the sites, and that reads back too.
    new = state.to_record()
    assert new["actions"] == old["actions"] and new["notation"] != old["notation"]
    names = state.game.site_names
    for action, number, name in zip(new["actions"], old["notation"], new["notation"]):
        site = state.game.action_site(action)
        if site is None:
            assert name == number  # accept, pass, swap
        else:
            assert name == number.replace(str(site), names[site])
    assert sf.State.from_record(new).history == old["actions"]
    # A number or a name of another action is still refused.
    wrong = {**old, "notation": [old["notation"][1]] + old["notation"][1:]}
    with pytest.raises(sf.RecordError, match=r"index 0\) is named"):
        sf.State.from_record(wrong)
