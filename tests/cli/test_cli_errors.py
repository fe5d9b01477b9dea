"""The command line as a package: one error format for every command (usage line, then
``stonefield CMD: error: ...``, exit 2), "did you mean" suggestions, help texts, the
``selfplay`` command, and the small things a newcomer meets first."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield.agents import agent_string, parse_agent
from stonefield.cli import COMMANDS, build_parser, main
from stonefield.cli._common import Progress


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as e:  # argparse's own errors
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


# One mistake found after parsing, per command.
AFTER_PARSING = {
    "simulate": ["simulate", "subsume", "--option", "size=99", "-n", "1"],
    "bench": ["bench", "subsume", "--option", "size=99"],
    "render": ["render", "/nonexistent/record.json"],
    "play": ["play", "subsume", "--option", "size=99", "--no-browser"],
    "match": ["match", "subsume", "random", "random", "--option", "size=99"],
    "analyse": ["analyse", "subsume", "--option", "size=99"],
    "selfplay": ["selfplay", "subsume", "--option", "size=99", "-o", "/tmp/never.npz"],
    "lab": ["lab", "subsume", "--option", "size=99", "--games", "2", "-q"],
    "solve": ["solve", "subsume", "--option", "size=99"],
    "verify-proof": ["verify-proof", "/nonexistent/p.proof"],
    "train": ["train", "subsume", "--option", "size=99", "--iterations", "1", "--out", "/tmp/x"],
}

# One mistake argparse finds, per command.
WHILE_PARSING = {
    "simulate": ["simulate", "subsume", "-n", "x"],
    "bench": ["bench", "--seconds", "0"],
    "render": ["render", "r.json", "--size", "0"],
    "play": ["play", "--port", "70000"],
    "match": ["match", "subsume", "random", "random", "--games", "0"],
    "analyse": ["analyse", "subsume", "--top", "0"],
    "selfplay": ["selfplay", "subsume"],
    "lab": ["lab", "subsume", "--seed", "-1"],
    "solve": ["solve", "subsume", "--nodes", "0"],
    "verify-proof": ["verify-proof"],
    "train": ["train", "subsume", "--iterations", "0", "--out", "/tmp/x"],
}


def test_every_command_is_covered() -> None:
    assert set(AFTER_PARSING) == set(WHILE_PARSING) == set(COMMANDS)


@pytest.mark.parametrize("table", [AFTER_PARSING, WHILE_PARSING], ids=["after", "while"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_error_has_one_format(
    capsys: pytest.CaptureFixture[str], table: dict[str, list[str]], command: str
) -> None:
    code, out, err = _run(capsys, *table[command])
    assert code == 2, err
    lines = err.strip().splitlines()
    assert lines[0].startswith(f"usage: stonefield {command}"), err
    assert lines[-1].startswith(f"stonefield {command}: error: "), err
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize(
    ("argv", "suggestion"),
    [
        (["simulat", "subsume"], "did you mean 'simulate'?"),
        (["simulate", "windflower"], "did you mean 'windflowers'?"),
        (["simulate", "subsume", "sise=4"], "did you mean 'size'?"),
        (["simulate", "windflowers", "grid=hexa"], "did you mean 'hex'?"),
        (["simulate", "smallholder", "ruleset=nibler"], "did you mean 'nibbler'?"),
        (["match", "subsume", "mtcs", "random"], "did you mean 'mcts'?"),
        (["match", "subsume", "mcts:iteration=5", "random"], "did you mean 'iterations'?"),
        (["lab", "subsme", "-q"], "did you mean 'subsume'?"),
        (["lab", "study", "subsume-size", "-q"], "did you mean 'subsume-sizes'?"),
        (["lab", "windflowers", "--vary", "player=2,3", "-q"], "did you mean 'players'?"),
    ],
)
def test_near_misses_get_a_suggestion(
    capsys: pytest.CaptureFixture[str], argv: list[str], suggestion: str
) -> None:
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert suggestion in err, err


def test_no_suggestion_for_names_far_from_any(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "simulate", "chess")
    assert code == 2 and "unknown game 'chess'" in err and "did you mean" not in err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_texts_have_no_doubled_percent(command: str) -> None:
    _, commands = build_parser()
    text = commands[command].format_help()
    assert "%%" not in text
    if command in ("match", "lab"):
        assert "95%" in text


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--help")
    assert code == 0
    for command in COMMANDS:
        assert command in out


def test_python_dash_m_runs_the_package() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "stonefield.cli", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.startswith("stonefield ")


def test_simulate_no_games_prints_integer_lengths(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "simulate", "subsume", "size=3", "-n", "0")
    assert code == 0
    assert "(min 0, max 0)" in out, out


def test_progress_bar_draws_only_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for stream, drawn in ((io.StringIO(), False), (Terminal(), True)):
        bar = Progress(True, stream)
        bar.start -= 5.0  # as if the run had taken five seconds
        bar(3, 10)
        bar.close()
        assert ("\r" in stream.getvalue()) is drawn
    quiet = Terminal()
    bar = Progress(False, quiet)
    bar.start -= 5.0
    bar(3, 10)
    assert quiet.getvalue() == ""


def test_lab_progress_skips_non_terminals(capsys: pytest.CaptureFixture[str]) -> None:
    from stonefield.lab.run import print_progress

    print_progress(5, 10, 1.0)  # pytest's captured stderr is no terminal
    assert capsys.readouterr().err == ""


def test_selfplay_command_writes_data(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "d.npz"
    argv = ["selfplay", "subsume", "size=3", "-n", "3", "--seed", "2", "-o", str(path)]
    code, out, err = _run(capsys, *argv, "--agent", "mcts:iterations=20", "--threads", "1")
    assert code == 0, err
    assert "3 games" in out and str(path) in out
    data = sf.SelfPlayData.load(path)
    same = sf.selfplay("subsume", "mcts:iterations=20", games=3, seed=2, threads=1, size=3)
    assert data.num_games == 3 and data.game == same.game
    np.testing.assert_array_equal(data.actions, same.actions)
    np.testing.assert_array_equal(data.policies, same.policies)
    code, _, err = _run(capsys, *argv, "--agent", "random")
    assert code == 2 and "self-play needs an mcts agent" in err


def test_mcts_without_a_budget_is_the_bare_agent_string() -> None:
    bare = sf.MCTS()
    assert bare.iterations == 1000 and bare.time is None
    assert repr(bare) == repr(sf.parse_agent("mcts"))
    assert sf.MCTS(time=0.5).iterations is None
    state = sf.make("subsume", size=3).new_state()
    assert sf.MCTS(seed=4).analyse(state).iterations == 1000


def test_out_of_range_actions_say_one_range() -> None:
    state = sf.make("subsume", size=3).new_state()
    n = state.game.num_actions
    for bad in (n, -1, 2**70):
        with pytest.raises(sf.IllegalMoveError) as info:
            state.apply(bad)
        message = str(info.value)
        assert f"actions are 0 to {n - 1}" in message and ".." not in message, message


def test_lab_labels_agents_by_their_agent_string() -> None:
    from stonefield.lab.run import make_plan

    plan = make_plan("subsume", None, {"size": 3}, "mcts:iterations=50", 2, 0, 0, 0)
    labels: Any = plan.header()["agents"]
    assert labels == ["mcts:iterations=50,seed=0"]
    assert all("#" not in label for label in labels)
    assert [agent_string(parse_agent(label)) for label in labels] == ["mcts:iterations=50"]
    plan = make_plan("subsume", None, {"size": 3}, "random", 2, 0, 0, 0)
    assert plan.header()["agents"] == ["random:seed=0"]


def _bad_paths(tmp_path: Path) -> dict[str, list[str]]:
    """Commands the reliability review of be7f9ce (finding 11) saw end in a traceback: a bad
    output path, or a count far too large."""
    a_file = tmp_path / "ok.json"
    a_file.write_text("{}")
    train = ["train", "subsume", "--option", "size=3", "--iterations", "1"]
    return {
        "train-out-file": [*train, "--out", str(a_file)],
        "train-out-unmakeable": [*train, "--out", "/proc/nope"],
        "train-hidden": [*train, "--out", str(tmp_path / "run"), "--hidden", "99999999999"],
        "train-layers": [*train, "--out", str(tmp_path / "run"), "--layers", "100000000"],
        "lab-out": ["lab", "subsume", "--option", "size=3", "--out", "/proc/x/y.jsonl", "-q"],
        "match-games": ["match", "subsume", "random", "random", "--games", "9" * 20, "-q"],
    }


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("train-out-file", "is a file, not a folder"),
        ("train-out-unmakeable", "cannot make the folder /proc/nope"),
        ("train-hidden", "hidden must be from 1 to"),
        ("train-layers", "layers must be from 1 to"),
        ("lab-out", "cannot write /proc/x"),
        ("match-games", "games must be at most 10,000,000"),
    ],
)
def test_bad_paths_and_huge_counts_are_usage_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str, message: str
) -> None:
    argv = _bad_paths(tmp_path)[case]
    if case.startswith("train-out"):
        pytest.importorskip("jax")  # the folder is checked once the training loop loads
    code, out, err = _run(capsys, *argv)
    command = argv[0]
    assert code == 2, err
    assert err.strip().splitlines()[-1].startswith(f"stonefield {command}: error: "), err
    assert message in err, err
    assert "Traceback" not in err and out == ""
    assert not (tmp_path / "run").exists()


def test_match_refuses_more_games_than_it_can_keep() -> None:
    with pytest.raises(sf.InvalidOptionError, match="at most 10,000,000"):
        sf.match("subsume", ["random", "random"], games=10**20)
