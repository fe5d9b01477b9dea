"""The split solve: the value of small boards by a tree of budgeted leaf solves agrees with the
solver's, whether the run goes straight through or resumes from a cut log, and a log of another
run is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import stonefield as sf

DRIVER = Path(__file__).resolve().parent / "split.py"


def _driver(log: Path, game: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(DRIVER), str(log), game, *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def _run(log: Path, game: str, *args: str) -> dict[str, object]:
    out = _driver(log, game, *args)
    assert out.returncode == 0, out.stderr
    summary: dict[str, object] = json.loads(out.stdout.splitlines()[-1])
    return summary


def _refused(log: Path, game: str, *args: str) -> str:
    """The driver's error output for a run it must refuse (it exits with an error)."""
    out = _driver(log, game, *args)
    assert out.returncode != 0, out.stdout
    return out.stderr


@pytest.mark.parametrize(
    ("game", "options", "at_least", "budget"),
    [
        ("smallholder", {"board": "hex232323"}, 1, 150),
        ("smallholder", {"board": "hex232323", "ruleset": "stymie"}, 1, 150),
        # A draw: player 0 does not win, and gets at least a draw.
        ("faraday", {"grid": "hex_limping", "order": 3}, 1, 5000),
        ("faraday", {"grid": "hex_limping", "order": 3}, 0, 5000),
    ],
)
def test_the_split_answers_as_the_solver_does(
    tmp_path: Path, game: str, options: dict[str, object], at_least: int, budget: int
) -> None:
    value = sf.solve(sf.make(game, **options).new_state()).value
    assert value is not None
    flags = [f"--option={k}={v}" for k, v in options.items()]
    # Budgets far below the whole solve's, so the tree grows several moves deep.
    log = tmp_path / "run.jsonl"
    res = _run(
        log,
        game,
        *flags,
        "--budget",
        str(budget),
        "--workers",
        "2",
        "--table-mb",
        "8",
        "--at-least",
        str(at_least),
    )
    assert res["answer"] == (value >= at_least), res
    rows = [json.loads(x) for x in log.read_text().splitlines()]
    assert rows[0] == {"game": game, "options": options, "at_least": at_least}
    assert len(rows) > 5 and max(len(r["moves"]) for r in rows[1:]) >= 2
    assert all(r["nodes"] <= budget + 2000 for r in rows[1:])
    # Resumed from the first half of its log, one worker of two threads this time, it reaches
    # the same answer and logs on.
    half = rows[: len(rows) // 2]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(json.dumps(r) + "\n" for r in half))
    again = _run(
        cut,
        game,
        *flags,
        "--budget",
        str(budget),
        "--table-mb",
        "8",
        "--threads",
        "2",
        "--at-least",
        str(at_least),
    )
    assert again["answer"] == res["answer"]
    assert len(cut.read_text().splitlines()) > len(half)
    # A finished log answers at once, solving nothing more.
    lines = len(log.read_text().splitlines())
    assert _run(log, game, *flags, "--at-least", str(at_least))["answer"] == res["answer"]
    assert len(log.read_text().splitlines()) == lines
    # --status reads it and says where it stands: every leaf counted, nothing written.
    status = _run(log, game, *flags, "--at-least", str(at_least), "--status")
    rows = [json.loads(x) for x in log.read_text().splitlines()[1:]]
    assert status["answer"] == res["answer"] and status["leaves"] == len(rows) == lines - 1
    assert status["leaf_nodes"] == sum(r["nodes"] for r in rows)
    assert status["leaves_settled"] == sum(r["value"] is not None for r in rows)
    assert len(log.read_text().splitlines()) == lines


def test_the_status_of_a_run_not_started_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "none.jsonl"
    assert "no run to report on" in _refused(log, "smallholder", "--status")
    assert not log.exists()


def test_a_log_of_another_run_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    _run(log, "smallholder", "--option=board=hex232323", "--budget", "100000")
    assert "give another log" in _refused(log, "smallholder", "--option=board=hex3")


@pytest.mark.parametrize(
    ("flag", "value"), [("--threads", "0"), ("--workers", "0"), ("--budget", "0")]
)
def test_counts_below_one_are_refused(tmp_path: Path, flag: str, value: str) -> None:
    log = tmp_path / "run.jsonl"
    err = _refused(log, "smallholder", "--option=board=hex232323", flag, value)
    assert "must be at least 1" in err and flag in err
    assert not log.exists()


def test_a_leaf_is_tried_again_with_twice_the_budget_before_it_is_split(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    game, flags = "smallholder", ["--option=board=hex232323", "--table-mb", "8"]
    res = _run(log, game, *flags, "--budget", "64", "--max-budget", "512")
    assert res["answer"] is True
    rows = [json.loads(x) for x in log.read_text().splitlines()[1:]]
    root = [r for r in rows if r["moves"] == []]
    assert [r["budget"] for r in root][:4] == [64, 128, 256, 512]
    assert [r["split"] for r in root[:3]] == [False] * 3
    # Replayed with other budgets, the log rebuilds the same settled tree: nothing more.
    again = _run(log, game, *flags, "--budget", "1000")
    assert again["answer"] is True
    assert len(log.read_text().splitlines()) == len(rows) + 1


def test_win_rates_order_the_split_and_change_no_answer(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    flags = ["--option=board=hex232323", "--option=ruleset=stymie", "--table-mb", "8"]
    res = _run(log, "smallholder", *flags, "--budget", "100", "--init", "500")
    assert res["answer"] is False
    plain = _run(tmp_path / "plain.jsonl", "smallholder", *flags, "--budget", "100")
    assert plain["answer"] is False
    # A resume with the same win rates rebuilds the same tree and goes on from it.
    lines = log.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    assert _run(cut, "smallholder", *flags, "--budget", "100", "--init", "500")["answer"] is False
