"""The option declarations: ``sf.option_spec``, the docs tables generated from it, rules
versions in records, the board kind, and the one ``key=value`` rule of the command line."""

from __future__ import annotations

import importlib
import types
from pathlib import Path
from typing import Any

import pytest

import stonefield as sf
from configs import CONFIGS, config_id
from stonefield import _core, _layout, _optiondocs
from stonefield.records import from_record, to_record

# The docs' game pages, one option table each.
GAME_PAGES = Path(__file__).resolve().parents[2] / "docs" / "games"


@pytest.mark.parametrize("name", sf.games())
def test_spec_describes_the_resolved_options(name: str) -> None:
    spec = sf.option_spec(name)
    game = sf.make(name)
    assert [o["name"] for o in spec] == list(game.options)
    assert sf.option_spec(game) == spec
    for o in spec:
        assert set(o) == {"name", "kind", "default", "help", "values", "min", "max"}
        assert o["help"], o["name"]
        if o["default"] is not None:
            assert game.options[o["name"]] == o["default"]
        if o["kind"] == "choice":
            assert o["values"] and o["min"] is None and o["max"] is None
            names = [v["name"] for v in o["values"]]
            assert o["default"] in names
            for v in o["values"]:
                options: dict[str, Any] = {o["name"]: v["name"]}
                made = sf.make(name, **options)
                assert made.options[o["name"]] == v["name"]
                for key, value in v["sets"].items():
                    assert made.options[key] == value
        elif o["kind"] == "int":
            assert o["values"] is None and o["min"] is not None and o["max"] is not None
            assert o["min"] <= o["max"]
            if o["default"] is not None:
                assert o["min"] <= o["default"] <= o["max"]
            with pytest.raises(sf.InvalidOptionError, match=f"from {o['min']} to {o['max']}"):
                sf.make(name, **{o["name"]: o["min"] - 1})
        else:
            assert o["kind"] == "bool" and isinstance(o["default"], bool)


def test_a_ruleset_loses_to_an_explicit_option() -> None:
    game = sf.make("smallholder", ruleset="hull_setbacks", capture="piecewise")
    assert game.options["territory"] == "hull" and game.options["capture"] == "piecewise"


def test_unknown_names_are_refused_naming_what_is_allowed() -> None:
    with pytest.raises(sf.InvalidOptionError, match='games: "smallholder"'):
        sf.option_spec("chess")
    with pytest.raises(sf.InvalidOptionError, match='"square_omni"'):
        sf.make("faraday", grid="square")
    with pytest.raises(sf.InvalidOptionError, match='"largest_group"'):
        sf.make("faraday", scoring="largest_group")


@pytest.mark.parametrize("game", sf.games())
def test_docs_option_tables_match_the_declarations(game: str) -> None:
    page = GAME_PAGES / f"{game}.md"
    text = page.read_text(encoding="utf-8")
    assert _optiondocs.blocks(text) == [game]
    assert _optiondocs.render(text) == text, (
        f"run python -m stonefield._optiondocs --write docs/games/{game}.md"
    )


def test_optiondocs_check_flags_a_stale_table(tmp_path: Path) -> None:
    stale = tmp_path / "README.md"
    stale.write_text("x\n<!-- options: subsume -->\nold\n<!-- /options -->\n", encoding="utf-8")
    assert _optiondocs.main(["--check", str(stale)]) == 1
    assert _optiondocs.main(["--write", str(stale)]) == 0
    assert _optiondocs.main(["--check", str(stale)]) == 0
    assert "| `size` | 3 to 30 |" in stale.read_text(encoding="utf-8")


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_board_kind_is_structured_and_agrees_with_the_geometry(
    config: tuple[str, dict[str, Any]],
) -> None:
    game = sf.make(config[0], **config[1])
    assert game.board_kind in _layout.KINDS

    class Undescribed:
        coords = game.coords
        neighbors = game.neighbors

    assert _layout.board_kind(Undescribed()) == game.board_kind  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sf.games())
def test_records_carry_the_rules_version(name: str) -> None:
    game = sf.make(name)
    assert game.rules_version == 1
    state = game.new_state()
    state.apply(int(state.legal_actions()[0]))
    record = to_record(state)
    assert record["rules_version"] == game.rules_version
    old = {k: v for k, v in record.items() if k != "rules_version"}
    assert from_record(old).history == state.history
    newer = dict(record, rules_version=game.rules_version + 1)
    with pytest.raises(sf.RecordError, match=r'"rules_version".* version 2, .* version 1'):
        from_record(newer)
    with pytest.raises(sf.RecordError, match="expected an integer"):
        from_record(dict(record, rules_version="1"))


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("grid=hex", ("grid", "hex")),
        ("size=5", ("size", 5)),
        ("size=-2", ("size", -2)),
        ("surplus-charge=TRUE", ("surplus_charge", True)),
        ("last_placer_breaks_ties=False", ("last_placer_breaks_ties", False)),
        ("name=a=b", ("name", "a=b")),
        ("grid=", ("grid", "")),
    ],
)
def test_one_key_value_rule(item: str, expected: tuple[str, Any]) -> None:
    key, value = _core.parse_option(item)
    assert (key, value) == expected and type(value) is type(expected[1])


@pytest.mark.parametrize("item", ["grid", "=hex", ""])
def test_key_value_without_a_key_is_refused(item: str) -> None:
    with pytest.raises(sf.InvalidOptionError, match="key=value"):
        _core.parse_option(item)


def test_parse_options_reads_a_command_line_for_make() -> None:
    options = sf.parse_options(
        ["board=hex343434", "ruleset=stymie", "max-moves=40", "board=hex3", "swap=False"]
    )
    assert options == {"board": "hex3", "ruleset": "stymie", "max_moves": 40, "swap": False}
    assert sf.parse_options("board=hex3") == {"board": "hex3"}
    assert sf.parse_options([]) == {}
    game = sf.make("smallholder", **sf.parse_options(["board=hex343434", "ruleset=stymie"]))
    assert game.num_sites == 27 and game.options["ruleset"] == "stymie"
    # What the CLI reads is what scripts read.
    from stonefield.cli._common import parse_options as cli_parse_options

    items = ["grid=square", "size=3", "last-placer-breaks-ties=TRUE"]
    assert cli_parse_options(items) == sf.parse_options(items)


@pytest.mark.parametrize("items", [["board=hex3", "size"], ["=hex"], [""]])
def test_parse_options_refuses_an_item_without_a_key(items: list[str]) -> None:
    with pytest.raises(sf.InvalidOptionError, match="key=value"):
        sf.parse_options(items)


def test_parse_options_refuses_what_is_not_a_string() -> None:
    with pytest.raises(TypeError, match="key=value, got int"):
        sf.parse_options(["board=hex3", 3])  # type: ignore[list-item]


def test_the_batch_module_and_the_simulate_function() -> None:
    module = importlib.import_module("stonefield.batch")
    assert isinstance(module, types.ModuleType)
    assert module.simulate is sf.simulate and callable(sf.simulate)
    assert sf.simulate("subsume", 2, seed=1).n_games == 2


def test_cli_help_lists_every_declared_option(capsys: pytest.CaptureFixture[str]) -> None:
    from stonefield.cli import main

    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = capsys.readouterr().out
    for game in sf.games():
        assert f"  {game}:" in out
        for o in sf.option_spec(game):
            assert f"    {o['name']}=" in out
    assert "grid=trisquare_omni|trisquare|hex_limping|hex|hex_omni|square_omni [hex]" in out
