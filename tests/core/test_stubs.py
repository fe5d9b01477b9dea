"""The type stubs of the extension module match it (mypy's stubtest)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.slow  # kept out of the quick tier (tens of seconds)
def test_stubtest() -> None:
    pytest.importorskip("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "stonefield._core"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
