"""What a user meets first: the README quickstart in the REPL, the CLI's help and option syntax,
the docs' rules from one source, the library versions a training run records."""

from __future__ import annotations

import code
import json
import re
from pathlib import Path

import pytest

from stonefield.cli import main

ROOT = Path(__file__).resolve().parents[2]


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
        ("--hidden", 64),
        ("--layers", 4),
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


# ---- Benchmarks that explain themselves --------------------------------------------------------


@pytest.mark.parametrize("load", [0.0, 99.0])
def test_simulate_prints_intervals_spread_cpu_threads_and_load(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, load: float
) -> None:
    import os

    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    status, out, err = _run(
        capsys, "simulate", "windflowers", "-n", "20000", "-q", "--threads", "2"
    )
    assert status == 0, err
    # Every win rate with its 95 % Wilson interval.
    assert "95 % interval" in out
    assert len(re.findall(r"\d+\.\d% +\[\d+\.\d%, \d+\.\d%\]", out)) == 2
    assert re.search(r"time +[\d.]+ s wall, [\d.]+ s CPU \([\d.]+ of 2 threads busy\)", out)
    assert re.search(r"speed +[\d,]+ \([\d,]+ to [\d,]+ over \d+ repeats\)", out) or (
        "too short a run for a spread" in out
    )
    assert re.search(r"machine +\d+ cores?.*; 2 threads used", out)
    assert f"load average    {load:.2f} before" in out
    assert ("warning: the machine was loaded" in out) == (load > 0)


def test_simulate_json_has_the_same_fields(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "simulate", "subsume", "-n", "3000", "-q", "--json")
    assert status == 0, err
    data = json.loads(out)
    for key in ("cpu_seconds", "seconds", "threads", "load_average", "cores", "repeats"):
        assert key in data, key
    assert len(data["win_rate_intervals"]) == 2
    for (low, high), rate in zip(data["win_rate_intervals"], data["win_rates"]):
        assert 0 <= low <= rate <= high <= 1


def test_simulate_runs_a_hundred_thousand_games_by_default() -> None:
    from stonefield.cli import build_parser

    _, commands = build_parser()
    assert commands["simulate"].parse_args(["windflowers"]).games == 100_000


def test_bench_prints_medians_spread_cpu_threads_and_load(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    monkeypatch.setattr(os, "getloadavg", lambda: (9.5, 9.0, 8.0))
    status, out, err = _run(
        capsys, "bench", "windflowers", "--option", "size=3", "--seconds", "0.05", "--threads", "2"
    )
    assert status == 0, err
    header = out.splitlines()[0].split()
    for column in ("playouts/s", "spread", "moves/s", "wall", "CPU"):
        assert column in header, column
    assert "median of 5 repeats" in out and "2 threads used" in out
    assert "load average    9.50 before" in out and "warning: the machine was loaded" in out
    status, out, err = _run(
        capsys, "bench", "windflowers", "--option", "size=3", "--seconds", "0.05", "--json"
    )
    rows = json.loads(out)
    for r in rows:
        assert r["repeats"] == 5
        assert r["playouts_per_second_min"] <= r["playouts_per_second"]
        assert r["playouts_per_second"] <= r["playouts_per_second_max"]
        assert r["cpu_seconds"] >= 0 and r["load_average"][0] == 9.5


def test_bench_search_prints_the_machine_and_load(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(
        capsys, "bench", "subsume", "--option", "size=3", "--search", "--seconds", "0.02"
    )
    assert status == 0, err
    assert "per CPU s" in out and "threads used" in out and "load average" in out
