"""Runs experiments/accuracy/accuracy.py briefly: the outcome it charges a move with is the
child's own solve, and a run on some boards keeps the other boards' rows of the file it writes."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import stonefield as sf

sys.path.insert(0, str(Path(__file__).parent))

import accuracy  # noqa: E402


def _child_outcome(state: sf.State, action: int) -> int:
    """The mover's outcome after `action`, by solving the child on its own."""
    mover = state.current_player
    assert mover is not None
    child = state.copy()
    child.apply(action)
    if child.is_terminal():
        r = child.returns()
        assert r is not None
        return int((r[mover] > r[1 - mover]) - (r[mover] < r[1 - mover]))
    value = sf.solve(child, table_mb=16).value
    assert value is not None
    return value if child.current_player == mover else -value


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("subsume", {"size": 3}),
        ("smallholder", {"board": "hex232323"}),
        ("faraday", {"grid": "square_omni", "order": 3}),
    ],
)
def test_a_move_is_charged_with_its_childs_value(name: str, options: dict[str, object]) -> None:
    game = sf.make(name, **options)  # type: ignore[arg-type]
    drawn = accuracy.positions(game, 3, random.Random(1))
    assert len(drawn) == 3
    for s in drawn:
        res = sf.solve(s, table_mb=16)
        assert res.value is not None
        for a in s.legal_actions():
            assert accuracy.outcome_of(res, int(a)) == _child_outcome(s, int(a))
        # The value is the best of the outcomes, and `best` holds exactly the moves that keep it.
        outcomes = {int(a): accuracy.outcome_of(res, int(a)) for a in s.legal_actions()}
        assert res.value == max(outcomes.values())
        assert sorted(res.best) == sorted(a for a, o in outcomes.items() if o == res.value)


def test_a_run_on_one_board_keeps_the_other_rows(tmp_path: Path) -> None:
    out = tmp_path / "accuracy.md"
    args = ["--positions", "4", "--budgets", "10,20", "--agents", "uct", "--out", str(out)]
    sub = accuracy.main([*args, "--board", "subsume"])
    assert [r.split(" | ")[0] for r in sub] == ["| subsume size=3"] * 2
    wind = accuracy.main([*args, "--board", "max_moves=12"])
    lines = out.read_text().splitlines()
    assert lines[:2] == accuracy.HEADER
    # Both boards are in the file, in the order of BOARDS (Windflowers before Subsume).
    assert lines[2:] == wind + sub
    for row in lines[2:]:
        cells = row.strip("|").split(" | ")
        assert cells[1] == "uct" and cells[2] in ("10", "20") and cells[3].strip() == "4"
    # Running a board again replaces its rows and leaves the others.
    again = accuracy.main([*args, "--board", "subsume", "--seed", "5"])
    assert out.read_text().splitlines()[2:] == wind + again


def test_an_unknown_board_is_refused_with_the_list() -> None:
    with pytest.raises(SystemExit):
        accuracy.main(["--board", "chess"])


def test_the_expert_plays_the_solved_boards(tmp_path: Path) -> None:
    # The shipped network of each game plays its small boards too; its rows name it and the
    # budget is its simulations.
    rows = accuracy.main(
        ["--positions", "3", "--budgets", "8", "--agents", "expert", "--board", "subsume"]
    )
    assert len(rows) == 1
    cells = [c.strip() for c in rows[0].strip("|").split(" | ")]
    assert cells[:4] == ["subsume size=3", "expert", "8", "3"]
    agent = accuracy.make_agent("expert", sf.make("subsume", size=3), 8, 1)
    assert isinstance(agent, sf.PUCT)


def test_a_run_of_one_agent_keeps_the_other_agents_rows(tmp_path: Path) -> None:
    out = tmp_path / "accuracy.md"
    args = ["--positions", "3", "--budgets", "5", "--board", "subsume", "--out", str(out)]
    uct = accuracy.main([*args, "--agents", "uct"])
    strong = accuracy.main([*args, "--agents", "strong"])
    assert out.read_text().splitlines()[2:] == uct + strong
    again = accuracy.main([*args, "--agents", "uct", "--seed", "3"])
    assert out.read_text().splitlines()[2:] == strong + again
