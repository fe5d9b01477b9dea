"""Crash test of the lab's results file: a run in a subprocess is killed (SIGKILL, no chance to
clean up) at random moments, again and again on the same file, and after every kill a resume of
a copy of the file must end with exactly the numbers of an uninterrupted run.

CI kills 10 times (about 30 s on a loaded machine); more on demand, for example 300 kills:

    STONEFIELD_CRASH_KILLS=300 pytest tests/lab/test_lab_crash.py -s
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

import stonefield as sf

KILLS = int(os.environ.get("STONEFIELD_CRASH_KILLS", "10"))
# 40 chunks of random games, each a few tens of milliseconds: kills land before, inside and
# between the writes of chunk lines.
ARGS: dict[str, Any] = dict(vary={"size": [5, 6]}, games=8_000, seed=11, chunk=400, threads=1)
CODE = f"import sys, stonefield as sf\nsf.lab.evaluate('subsume', out=sys.argv[1], **{ARGS!r})\n"


def _numbers(lab: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in lab.rows()]


def _resume(path: Path) -> list[dict[str, Any]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # "the last line is incomplete"
        return _numbers(sf.lab.evaluate("subsume", out=str(path), **ARGS))


@pytest.mark.slow  # kept out of the quick tier (tens of seconds)
def test_sigkill_at_random_moments_then_resume_gives_the_uninterrupted_numbers(
    tmp_path: Path,
) -> None:
    reference = _numbers(sf.lab.evaluate("subsume", **ARGS))
    rng = random.Random(int(os.environ.get("STONEFIELD_CRASH_SEED", "25")))
    path = tmp_path / "runs.jsonl"
    # One run's length, to spread the kills over it (startup included).
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", CODE, str(tmp_path / "timing.jsonl")], check=True)
    span = time.monotonic() - started
    kills = torn = complete = 0
    for k in range(KILLS):
        if path.exists() and _finished(path):
            path.unlink()  # the run finished between kills: start the file again
            complete += 1
        proc = subprocess.Popen([sys.executable, "-c", CODE, str(path)])
        time.sleep(rng.uniform(0.0, span))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        kills += proc.returncode == -signal.SIGKILL
        if not path.exists():
            continue  # killed before the file was made
        torn += path.stat().st_size > 0 and not path.read_bytes().endswith(b"\n")
        copy = tmp_path / f"resume-{k}.jsonl"
        shutil.copy(path, copy)
        assert _resume(copy) == reference, f"kill {k}"
        assert _resume(copy) == reference, f"kill {k}, second resume"
    print(
        f"\ncrash test: {KILLS} runs, {kills} killed by SIGKILL ({torn} mid-line),"
        f" {complete} finished before their kill; every resume matched"
    )
    assert kills > 0


def _finished(path: Path) -> bool:
    lines = path.read_bytes().count(b"\n")
    return lines >= 1 + 2 * ARGS["games"] // ARGS["chunk"]
