"""The search commands end to end: `stonefield match`, `analyse` and `bench --search`, with
small budgets, and their argparse-style errors (exit status 2, no traceback)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import stonefield as sf
from stonefield.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_match_prints_the_summary_and_writes_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "games.jsonl"
    code, out, err = _run(
        capsys,
        "match",
        "subsume",
        "mcts:iterations=60,seed=1",
        "random:seed=2",
        "--games",
        "6",
        "--seed",
        "11",
        "--option",
        "size=3",
        "--records",
        str(path),
        "-q",
    )
    assert code == 0, err
    assert (
        "subsume (size=3, anti_blob=True, remove_surrounded=True)" in out
        and "6 games, seed 11" in out
    )
    assert "mcts:iterations=60,seed=1" in out and "Elo difference" in out
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6
    expected = sf.match(
        "subsume", ["mcts:iterations=60,seed=1", "random:seed=2"], games=6, seed=11, size=3
    )
    for i, line in enumerate(lines):
        state = sf.from_record(line)
        assert state.history == expected.game_actions(i)


def test_match_with_three_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(
        capsys,
        "match",
        "windflowers",
        "random",
        "random:seed=1",
        "mcts:iterations=30",
        "--games",
        "3",
        "--option",
        "players=3",
        "--option",
        "size=3",
        "--threads",
        "1",
        "-q",
    )
    assert code == 0, err
    assert "seat 2" in out and "Elo" not in out


def test_match_seats_the_expert(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(
        capsys, "match", "subsume", "expert:simulations=10,seed=3", "random", "-n", "2", "-q"
    )
    assert code == 0, err
    assert "0 expert:simulations=10,seed=3" in out and "2 games" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["match", "subsume", "mcts:iters=3", "random"], 'unknown setting "iters"'),
        (["match", "subsume", "alphago", "random"], 'unknown agent "alphago"'),
        (["match", "subsume", "expret", "random"], "did you mean 'expert'?"),
        (["match", "subsume", "expert:iterations=3", "random"], 'unknown setting "iterations"'),
        (
            ["match", "windflowers", "expert", "random", "random", "--option", "players=3"],
            "the expert network of windflowers",
        ),
        (["match", "subsume", "random"], "takes 2 agents"),
        (["match", "subsume", "random", "random", "--games", "0"], "at least 1"),
        (["match", "subsume", "random", "random", "--games", "x"], "games must be an integer"),
        (["match", "subsume", "random", "random", "--seed", "-1"], "--seed"),
        (["match", "subsume", "random", "random", "--seed", str(2**64)], "--seed"),
        (["match", "subsume", "random", "random", "--threads", "0"], "--threads"),
        (["match", "subsume", "random", "random", "--option", "size"], "KEY=VALUE"),
        (["match", "subsume", "random", "random", "--option", "size=99"], "size"),
        (["match", "go", "random", "random"], "unknown game 'go'"),
        (["analyse", "subsume", "--agent", "random"], "needs a searching agent"),
        (["analyse", "subsume", "--agent", "mcts:c=-1"], "c must be"),
        (["analyse", "subsume", "--option", "colour=red"], "colour"),
        (["analyse", "subsume", "--record", "/nonexistent/x.json"], "x.json"),
        (["bench", "--search", "--seconds", "0"], "--seconds"),
        (
            ["match", "subsume", "random", "random", "--records", "/nonexistent/dir/g.jsonl"],
            "--records: cannot write",
        ),
    ],
)
def test_bad_arguments_exit_2_with_one_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert "Traceback" not in err and out == ""
    assert "error:" in err and words in err


def test_analyse_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(
        capsys,
        "analyse",
        "subsume",
        "--option",
        "size=3",
        "--agent",
        "mcts:iterations=500",
        "--top",
        "3",
    )
    assert code == 0, err
    for word in ("best action", "value", "pv", "iterations   500", "nodes", "visits"):
        assert word in out
    expected = sf.MCTS(iterations=500).analyse(sf.make("subsume", size=3).new_state())
    name = sf.make("subsume", size=3).action_name(expected.best)
    assert f"best action  {expected.best} ({name})" in out
    table = out.split("share   value")[1].strip().splitlines()
    assert len(table) == 4 and table[-1].endswith("more actions)")


def test_analyse_a_record_as_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    state = sf.make("windflowers", size=3).new_state()
    for a in (0, 5, 9):
        state.apply(a)
    path = tmp_path / "game.json"
    sf.save_record(state, path)
    code, out, err = _run(
        capsys,
        "analyse",
        "windflowers",
        "--record",
        str(path),
        "--json",
        "--agent",
        "mcts:iterations=300,seed=4",
    )
    assert code == 0, err
    report = json.loads(out)
    expected = sf.MCTS(iterations=300, seed=4).analyse(state)
    assert report["move"] == 3 and report["player"] == state.current_player
    assert report["best"] == expected.best and report["pv"] == expected.pv
    assert report["visits"] == expected.visits.tolist()
    assert report["iterations"] == 300


def test_analyse_refuses_a_record_of_another_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    sf.save_record(sf.make("windflowers", size=3).new_state(), path)
    code, _, err = _run(capsys, "analyse", "subsume", "--record", str(path))
    assert code == 2 and "a game of windflowers, not subsume" in err
    code, _, err = _run(
        capsys, "analyse", "windflowers", "--record", str(path), "--option", "size=4"
    )
    assert code == 2 and "size=3, not size=4" in err


def test_analyse_refuses_a_finished_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = sf.make("subsume", size=3).new_state()
    while not state.is_terminal():
        state.apply(int(state.legal_actions()[0]))
    path = tmp_path / "over.json"
    sf.save_record(state, path)
    code, _, err = _run(capsys, "analyse", "subsume", "--record", str(path))
    assert code == 2 and "the game is over" in err


def test_bench_search_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(
        capsys,
        "bench",
        "subsume",
        "size=3",
        "--search",
        "--seconds",
        "0.05",
        "--threads",
        "2",
        "--json",
    )
    assert code == 0, err
    rows = json.loads(out)
    assert [(r["position"], r["threads"]) for r in rows] == [
        ("start", 1),
        ("start", 2),
        ("mid-game", 1),
        ("mid-game", 2),
    ]
    for r in rows:
        assert r["iterations"] > 0 and r["iterations_per_second"] > 0
        assert r["iterations_per_cpu_second"] is None or r["iterations_per_cpu_second"] > 0
    assert rows[2]["move"] > 0


def test_bench_search_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(
        capsys,
        "bench",
        "windflowers",
        "size=3",
        "--search",
        "--seconds",
        "0.05",
        "--threads",
        "1",
    )
    assert code == 0, err
    assert "iterations/s" in out and "mid-game" in out


def test_the_installed_command_reports_errors_without_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "stonefield.cli", "match", "subsume", "mcts:time=x", "random"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert 'time must be seconds > 0 or none, got "x"' in proc.stderr
