"""Solves that outlive a process: ``sf.solve(..., checkpoint=DIR)`` and
``stonefield solve --checkpoint DIR`` save the run and resume it."""

from __future__ import annotations

import _thread
import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import stonefield as sf
from stonefield.cli import main


def board(name: str = "hex232323") -> sf.State:
    return sf.make("smallholder", board=name).new_state()


def test_a_stopped_solve_resumes_to_the_straight_result_with_fewer_nodes(tmp_path: Path) -> None:
    s = board()
    straight = sf.solve(s, table_mb=16)
    assert straight.stopped_by == "solved"
    stopped = sf.solve(
        s, max_nodes=straight.nodes // 3, table_mb=16, checkpoint=tmp_path, save_every=0.01
    )
    assert stopped.stopped_by == "nodes"
    assert (tmp_path / "solve.ckpt").is_file()
    resumed = sf.solve(s, table_mb=16, checkpoint=tmp_path)
    assert resumed.stopped_by == "solved"
    assert resumed.value == straight.value and resumed.best == straight.best
    assert np.array_equal(resumed.outcomes, straight.outcomes)
    assert resumed.nodes < straight.nodes


def test_a_damaged_checkpoint_is_refused_and_not_loaded(tmp_path: Path) -> None:
    s = board()
    sf.solve(s, max_nodes=2000, table_mb=16, checkpoint=tmp_path)
    path = tmp_path / "solve.ckpt"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))
    with pytest.raises(sf.RecordError, match="checksum"):
        sf.solve(s, table_mb=16, checkpoint=tmp_path)
    path.write_bytes(bytes(data[:-3]))
    with pytest.raises(sf.RecordError, match="damaged"):
        sf.solve(s, table_mb=16, checkpoint=tmp_path)


def test_a_checkpoint_of_another_board_or_position_is_refused(tmp_path: Path) -> None:
    sf.solve(board(), max_nodes=2000, table_mb=16, checkpoint=tmp_path)
    with pytest.raises(sf.InvalidOptionError, match=r"options is .*hex232323.* there"):
        sf.solve(board("hex3"), max_nodes=10, checkpoint=tmp_path)
    later = board()
    later.apply(0)
    with pytest.raises(sf.InvalidOptionError, match="position is"):
        sf.solve(later, max_nodes=10, checkpoint=tmp_path)
    other_game = sf.make("subsume", size=3).new_state()
    with pytest.raises(sf.InvalidOptionError, match='game is "smallholder" there'):
        sf.solve(other_game, max_nodes=10, checkpoint=tmp_path)


@pytest.mark.parametrize("every", [0, -1, float("nan"), float("inf"), True])
def test_senseless_save_intervals_are_refused(tmp_path: Path, every: float) -> None:
    with pytest.raises(sf.InvalidOptionError, match="save_every must be a finite number > 0"):
        sf.solve(board(), checkpoint=tmp_path, save_every=every)


def test_checkpoints_need_alpha_beta_and_a_directory(tmp_path: Path) -> None:
    with pytest.raises(sf.InvalidOptionError, match="only used with checkpoint"):
        sf.solve(board(), save_every=5)
    with pytest.raises(sf.InvalidOptionError, match="alphabeta"):
        sf.solve(board(), method="pns", checkpoint=tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(sf.InvalidOptionError, match="cannot be written"):
        sf.solve(board(), checkpoint=blocker)
    # margin=True: the outcome search is saved, the margin's is not, and a resume agrees.
    s = sf.make("windflowers", size=3, max_moves=4).new_state()
    first = sf.solve(s, margin=True, table_mb=16, checkpoint=tmp_path / "m")
    again = sf.solve(s, margin=True, table_mb=16, checkpoint=tmp_path / "m")
    assert (first.value, first.margin) == (again.value, again.margin)


def test_cli_checkpoint_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "smallholder", "--option", "board=hex232323", "--json", "--table-mb", "16"]
    argv += ["--checkpoint", str(tmp_path)]
    assert main([*argv, "--nodes", "3000", "--save-every", "0.5"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["stopped_by"] == "nodes" and first["checkpoint"] == str(tmp_path)
    assert main(argv) == 0
    done = json.loads(capsys.readouterr().out)
    assert done["value"] == 1 and done["best"] == [1, 7, 9]
    with pytest.raises(SystemExit):
        main(["solve", "smallholder", "--save-every", "5"])
    with pytest.raises(SystemExit):
        main(["solve", "smallholder", "--option", "board=hex3", "--checkpoint", str(tmp_path)])


@pytest.mark.timing
def test_ctrl_c_saves_the_run_and_a_resume_loads_every_entry(tmp_path: Path) -> None:
    state = sf.make("smallholder", board="hex343434").new_state()
    timer = threading.Timer(0.5, _thread.interrupt_main)  # Ctrl-C, as the terminal sends it
    timer.start()
    try:
        with pytest.raises(sf.SolveInterrupted) as info:
            sf.solve(state, time=60, table_mb=16, checkpoint=tmp_path)
    finally:
        timer.cancel()
    stopped = info.value.result
    assert isinstance(stopped, sf.SolveResult) and stopped.stopped_by == "interrupted"
    assert stopped.table_entries > 0 and (tmp_path / "solve.ckpt").is_file()
    # The next run starts with every saved entry in its table (one node of its own).
    resumed = sf.solve(state, max_nodes=1, table_mb=16, checkpoint=tmp_path)
    assert resumed.stopped_by == "nodes"
    assert resumed.table_entries >= stopped.table_entries


def test_sigterm_stops_a_cli_solve_with_its_work_saved(tmp_path: Path) -> None:
    """`kill PID` stops `stonefield solve` as Ctrl-C does: the run is saved and what it had is
    printed, exit 130; a solve started in the background by a script (SIGINT ignored) can
    be stopped so without losing its work."""
    ckpt = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "stonefield.cli",
        "solve",
        "subsume",
        "--option",
        "size=4",
        "--checkpoint",
        str(ckpt),
        "--json",
        "--table-mb",
        "64",
    ]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # As a script's background job has it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    # Wait until the search runs (its checkpoint directory is made before the search).
    deadline = time.monotonic() + 60
    while not ckpt.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)  # ignored, as in the background
    time.sleep(0.3)
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    res = json.loads(out)
    assert res["stopped_by"] == "interrupted" and res["nodes"] > 0
    assert (ckpt / "solve.ckpt").exists()
