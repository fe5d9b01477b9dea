"""The solver and the state graph under Ctrl-C, tight memory and bad budgets (issue 53: M1, M2,
L6, L7, L11, L16): Ctrl-C raises ``SolveInterrupted`` (a KeyboardInterrupt) promptly with the
partial result, every table is sized against the one memory probe, and bad settings are refused
with typed errors before anything runs."""

from __future__ import annotations

import _thread
import doctest
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import stonefield as sf
from stonefield import _core
from stonefield.cli import main


def _tiny() -> sf.State:
    return sf.make("smallholder", board="hex232323").new_state()


def _ctrl_c_after(seconds: float) -> threading.Timer:
    """Ctrl-C as the terminal sends it to the main thread, from a timer thread."""
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def _interrupted(call: Callable[[], Any], after: float = 0.3) -> tuple[sf.SolveInterrupted, float]:
    """The SolveInterrupted that ``call`` raises when Ctrl-C comes ``after`` seconds in, and
    how long after the Ctrl-C it came."""
    timer = _ctrl_c_after(after)
    start = time.monotonic()
    try:
        with pytest.raises(sf.SolveInterrupted) as info:
            call()
    finally:
        timer.cancel()
    return info.value, time.monotonic() - start - after


@pytest.fixture
def solved_before() -> Iterator[sf.SolveResult]:
    """A small position's result, to compare with the same solve after an interruption."""
    yield sf.solve(_tiny(), table_mb=16)


# Ctrl-C ----------------------------------------------------------------------------------


@pytest.mark.timing
@pytest.mark.parametrize("method", ["alphabeta", "pns"])
def test_ctrl_c_stops_a_solve_promptly_with_the_partial_result(
    method: str, solved_before: sf.SolveResult
) -> None:
    state = sf.make("smallholder", board="hex4").new_state()
    err, late = _interrupted(lambda: sf.solve(state, time=60, table_mb=64, method=method))
    assert isinstance(err, KeyboardInterrupt)
    assert late < 3.0, late
    res = err.result
    assert isinstance(res, sf.SolveResult)
    assert res.stopped_by == "interrupted" and res.nodes > 0
    assert len(res.outcomes) == len(res.actions) == len(state.legal_actions())
    # Nothing is left behind: the next solve gives the same answer as before.
    again = sf.solve(_tiny(), table_mb=16)
    assert (again.value, again.best, again.pv) == (
        solved_before.value,
        solved_before.best,
        solved_before.pv,
    )


@pytest.mark.timing
def test_ctrl_c_stops_a_proof_number_solve_whose_nodes_are_slow() -> None:
    # Subsume size 30: one proof-number node builds ~900 children (milliseconds), so a look at
    # the flag every 1,024 nodes came seconds late; the interval now shrinks to every node.
    state = sf.make("subsume", size=30).new_state()
    err, late = _interrupted(lambda: sf.solve(state, time=60, table_mb=64, method="pns"))
    assert late < 2.0, late
    assert isinstance(err.result, sf.SolveResult)
    assert err.result.stopped_by == "interrupted"


@pytest.mark.timing
def test_a_time_budget_holds_where_nodes_are_slow() -> None:
    state = sf.make("subsume", size=30).new_state()
    start = time.monotonic()
    res = sf.solve(state, time=0.5, table_mb=64, method="pns")
    assert res.stopped_by == "time"
    assert time.monotonic() - start < 2.5


@pytest.mark.timing
def test_ctrl_c_stops_a_state_graph_with_the_partial_graph() -> None:
    game = sf.make("subsume", size=3)
    err, late = _interrupted(lambda: sf.state_graph(game, max_mb=256))
    assert late < 3.0, late
    g = err.result
    assert isinstance(g, sf.StateGraph)
    assert g.stopped_by == "interrupted" and not g.complete and g.positions > 0


@pytest.mark.timing
def test_ctrl_c_stops_a_loop_of_solves() -> None:
    # It used to be swallowed: each solve returned "interrupted" and the loop ran on.
    state = sf.make("smallholder", board="hex4").new_state()
    done: list[str] = []
    timer = _ctrl_c_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            for _ in range(5):
                done.append(sf.solve(state, time=3, table_mb=64).stopped_by)
    finally:
        timer.cancel()
    assert done == []


@pytest.mark.timing
def test_ctrl_c_stops_a_match_with_a_solver_seat() -> None:
    solver = sf.Solver(time=30, table_mb=64)
    timer = _ctrl_c_after(0.5)
    try:
        with pytest.raises(sf.MatchInterrupted):
            sf.match(sf.make("smallholder", board="hex4"), [solver, "random"], games=3, seed=1)
    finally:
        timer.cancel()
    assert solver.last is not None and solver.last.stopped_by == "interrupted"


@pytest.mark.timing
def test_the_command_line_exits_130_on_ctrl_c() -> None:
    code = textwrap.dedent(
        """
        import _thread, signal, threading, sys
        from stonefield.cli import main
        signal.signal(signal.SIGINT, signal.default_int_handler)
        threading.Timer(0.5, _thread.interrupt_main).start()
        sys.exit(main(["solve", "smallholder", "--option", "board=hex4", "--time", "60",
                       "--table-mb", "64"]))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 130, done.stderr[-2000:]
    assert "stopped by  interrupted" in done.stdout and "interrupted" in done.stderr
    assert "Traceback" not in done.stderr


# Memory ----------------------------------------------------------------------------------


def test_the_memory_probe_reports_room() -> None:
    room = _core.available_memory()
    assert room is None or room > 0
    if sys.platform.startswith("linux"):
        assert room is not None
    tests = doctest.DocTestFinder(recurse=False).find(_core.available_memory, "available_memory")
    assert tests and tests[0].examples
    runner = doctest.DocTestRunner()
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0


def test_a_table_beyond_the_memory_probe_is_refused_naming_the_range() -> None:
    room = _core.available_memory()
    if room is None:
        pytest.skip("no memory probe on this system")
    most = max(1, room >> 20)
    too_big = most * 4 + 1024
    with pytest.raises(sf.InvalidOptionError, match=r"table_mb .*from 1 to \d+") as info:
        sf.solve(_tiny(), table_mb=too_big)
    assert "MiB" in str(info.value) and str(too_big) in str(info.value)
    with pytest.raises(sf.InvalidOptionError, match=r"max_mb .*from 1 to \d+"):
        sf.state_graph(sf.make("windflowers", size=3), max_mb=too_big)
    with pytest.raises(sf.InvalidOptionError, match="table_mb"):
        sf.Solver(time=1, table_mb=too_big)


_UNDER_A_LIMIT = textwrap.dedent(
    """
    import resource, sys
    import stonefield as sf
    from stonefield import _core
    used = 0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                used = int(line.split()[1]) * 1024
    limit = used + (600 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    room = _core.available_memory()
    assert room is not None and room <= 600 << 20, room
    {body}
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_tables_follow_an_address_space_limit_instead_of_aborting() -> None:
    # Under `ulimit -v` the proof-number table's default used to be sized by MemAvailable and
    # abort the interpreter (exit 134); now every default is sized by the probe, and a size
    # beyond it is a typed error.
    body = textwrap.dedent(
        """
        s = sf.make("smallholder", board="hex232323").new_state()
        print(sf.solve(s, method="pns").value)
        print(sf.solve(s).value)
        try:
            sf.solve(s, table_mb=4096)
        except sf.InvalidOptionError as e:
            print("refused", "ulimit -v" in str(e))
        g = sf.state_graph(sf.make("windflowers", size=3), max_positions=20000)
        print(g.stopped_by)
        """
    )
    code = _UNDER_A_LIMIT.replace("{body}", body)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["1", "1", "refused", "True", "max_positions"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_a_solve_on_a_large_board_keeps_its_scratch_memory_small() -> None:
    # Alpha-beta keeps the children of a position until they are searched (for the enhanced
    # transposition cut-offs); kept at every position of the line on Subsume size 20 (about a
    # thousand children each), 317 nodes took 2.5 GB. Only positions of at most 64 actions keep
    # them now. The table is a mapping (8 MiB here); the peak is the interpreter's and the
    # line's scratch positions. (VmHWM, the peak of this process's own memory: ru_maxrss keeps
    # the peak of the test process that started it, across the exec.)
    code = textwrap.dedent(
        """
        import re
        import stonefield as sf
        r = sf.solve(sf.make("subsume", size=20).new_state(), max_nodes=3000, table_mb=8)
        status = open("/proc/self/status").read()
        print(r.stopped_by, int(re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1)) // 1024)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    stopped_by, peak_mb = done.stdout.split()
    assert stopped_by == "nodes"
    assert int(peak_mb) < 400, f"a solve of 3,000 nodes peaked at {peak_mb} MB"


# Budgets and settings --------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"time": 0},
        {"time": -1},
        {"time": float("nan")},
        {"time": float("inf")},
        {"time": True},
        {"max_nodes": 0},
        {"max_nodes": -3},
        {"max_nodes": 2**64},
        {"max_nodes": 1.5},
        {"table_mb": 0},
        {"table_mb": -1},
        {"threads": 0},
    ],
)
def test_bad_budgets_are_typed_errors(kwargs: dict[str, Any]) -> None:
    with pytest.raises(sf.InvalidOptionError):
        sf.solve(_tiny(), **kwargs)


@pytest.mark.parametrize("seconds", [1e19, 1e300])
def test_a_time_budget_beyond_the_clock_is_no_limit(seconds: float) -> None:
    # It used to panic ("overflow when adding duration to instant").
    res = sf.solve(_tiny(), time=seconds, table_mb=16)
    assert (res.value, res.stopped_by) == (1, "solved")
    assert sf.Solver(time=seconds, table_mb=16).act(_tiny()) == 1


@pytest.mark.parametrize(
    "kwargs",
    [
        {"time": 1, "threads": 0},
        {"time": 1, "threads": "x"},
        {"time": 1, "threads": True},
        {"time": 1, "table_mb": 0},
        {"time": 1, "table_mb": "64"},
        {"max_nodes": 2**64},
        {"time": 1, "fallback": "mcts"},
        {"time": float("nan")},
        {"time": -1},
        {},
    ],
)
def test_a_solver_agent_checks_every_setting_when_made(kwargs: dict[str, Any]) -> None:
    with pytest.raises(sf.InvalidOptionError):
        sf.Solver(**kwargs)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--graph", "--time", "1"], "--time: not used with --graph"),
        (
            ["--graph", "--method", "pns", "--threads", "2"],
            "--threads, --method: not used with --graph",
        ),
        (["--graph", "--table-mb", "8"], "--table-mb"),
        (["--max-positions", "10"], "--max-positions: only used with --graph"),
        (["--max-mb", "10"], "--max-mb: only used with --graph"),
        (["--table-mb", "0"], "table-mb must be at least 1"),
        (["--table-mb", str(1 << 40)], "table_mb must be a whole number of MiB"),
        (["--graph", "--max-mb", str(1 << 40)], "max_mb must be a whole number of MiB"),
        (["--time", "1e19", "--nodes", str(2**64)], "max_nodes"),
    ],
)
def test_the_command_line_refuses_what_it_would_ignore_or_cannot_do(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code, _, err = _cli(capsys, "solve", "subsume", "--option", "size=3", *argv)
    assert code == 2 and says in err, err
    assert "Traceback" not in err


def test_a_graph_too_large_is_an_error_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _cli(capsys, "solve", "subsume", "--option", "size=30", "--graph")
    assert code == 2 and "error:" in err and "Traceback" not in err


def test_the_command_line_takes_a_table_size(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(
        capsys, "solve", "smallholder", "--option", "board=hex232323", "--table-mb", "8"
    )
    assert code == 0 and "stopped by  solved" in out


@pytest.mark.parametrize("value", ["nan", "-5", "inf", "x"])
def test_the_labs_solve_time_is_checked_before_any_game(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    code, _, err = _cli(
        capsys,
        "lab",
        "study",
        "smallholder-rulesets",
        "--strengths",
        "1,2",
        "--solve-time",
        value,
    )
    assert code == 2 and "solve-time must be" in err, err
    assert "Traceback" not in err
