"""What a user meets first: the README quickstart in the REPL, the CLI's help and option syntax,
the docs' rules from one source, the library versions a training run records."""

from __future__ import annotations

import code
import json
import re
from pathlib import Path

import pytest

from stonefield.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _python_block(path: Path, heading: str) -> str:
    """The first ```python block after ``heading`` in a markdown file."""
    text = path.read_text(encoding="utf-8")
    after = text[text.index(heading) :]
    match = re.search(r"```python\n(.*?)```", after, re.S)
    assert match is not None, f"no python block after {heading!r} in {path.name}"
    return match.group(1)


class _Console(code.InteractiveConsole):
    """The 3.11 REPL's reading of pasted lines, recording errors instead of printing them."""

    def __init__(self) -> None:
        super().__init__({})
        self.errors: list[str] = []

    def showsyntaxerror(self, filename: str | None = None, **kwargs: object) -> None:
        self.errors.append("SyntaxError")

    def showtraceback(self) -> None:
        import sys

        self.errors.append(repr(sys.exc_info()[1]))

    def write(self, data: str) -> None:
        self.errors.append(data)


@pytest.mark.parametrize("page", ["README.md", "docs/getting-started.md"])
def test_the_quickstart_pastes_into_the_repl(page: str) -> None:
    block = _python_block(ROOT / page, "## Quickstart")
    console = _Console()
    more = False
    for line in block.splitlines():
        more = console.push(line)
    if more:
        console.push("")
    assert console.errors == []
    assert "result" in console.locals and console.locals["result"].returns.shape == (100_000, 2)


def test_train_help_lists_every_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for flag, default in [
        ("--games", 64),
        ("--simulations", 64),
        ("--batch-size", 8),
        ("--temperature-moves", 4),
        ("--epochs", 4),
        ("--window", 4),
        ("--hidden", 128),
        ("--layers", 2),
        ("--learning-rate", 0.001),
        ("--eval-games", 40),
        ("--eval-simulations", 200),
        ("--uct-iterations", 200),
        ("--seed", 0),
    ]:
        # The flag's line in the options list: its metavar, help text, then the default.
        assert re.search(rf"{flag} [A-Z_]+ (?:(?! --).)*\(default: {default}\)", out), flag


# ---- One option syntax on the command line ---------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as e:
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "windflowers", "-n", "3", "-q", "--json"],
        ["selfplay", "subsume", "-n", "1", "--agent", "mcts:iterations=8"],
        ["match", "subsume", "random", "random", "--games", "2", "-q"],
        ["solve", "subsume"],
    ],
    ids=lambda argv: argv[0],
)
def test_every_command_takes_dash_dash_option_and_reads_key_value_with_a_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    if argv[0] == "selfplay":
        argv = [*argv, "-o", str(tmp_path / "d.npz")]
    size = "3"
    status, canonical, err = _run(capsys, *argv, "--option", f"size={size}")
    assert status == 0, err
    assert "hint" not in err
    # The other form: a bare key=value among the arguments (after the game, or last).
    status, positional, err = _run(capsys, *argv[:2], f"size={size}", *argv[2:])
    assert status == 0, err
    assert f"hint: game options are written --option KEY=VALUE; read size={size} as" in err
    assert f"--option size={size}" in err
    if argv[0] == "simulate":
        first, second = json.loads(canonical), json.loads(positional)
        assert first["options"]["size"] == second["options"]["size"] == 3
        assert first["win_rates"] == second["win_rates"]


def test_a_flag_value_that_looks_like_an_option_stays_the_flags(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(
        capsys, "lab", "windflowers", "--vary", "size=3,4", "--games", "2", "-q", "--seed", "1"
    )
    assert status == 0, err
    assert "hint" not in err and "size" in out
