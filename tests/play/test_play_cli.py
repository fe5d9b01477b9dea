"""``stonefield play`` on the command line: its checks, and a real server in a subprocess."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from stonefield.cli import main
from stonefield.play import _is_loopback


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "windflowers", "--option", "size=99"], "size"),
        (["play", "windflowers", "--opponent", "robot"], "--opponent: seat kind"),
        (["play", "subsume", "--seat", "2"], "--seat is 0..1"),
        (["play", "subsume", "--opponent", "expert:iterations=5"], 'unknown setting "iterations"'),
        (
            ["play", "windflowers", "--option", "players=3", "--opponent", "expert"],
            "--opponent: the expert network of windflowers",
        ),
        (["play", "--option", "size=3"], "need a GAME"),
    ],
)
def test_play_rejects_bad_arguments(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert words in capsys.readouterr().err


def serve(*args: str) -> tuple[subprocess.Popen[str], str]:
    """Starts ``stonefield play`` and returns it with the address it printed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "stonefield.cli", "play", "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        # SIGINT as Ctrl-C sends it must reach the server, even when these tests were started
        # with it ignored (a background job), which children would inherit.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"http://\S+", line)
    assert match, line
    return proc, match.group(0)


def stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    return err


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.headers, r.read()


@pytest.mark.timing
def test_play_serves_the_page_on_a_free_local_port() -> None:
    proc, url = serve("subsume", "--option", "size=4", "--opponent", "random", "--seat", "1")
    try:
        assert url.startswith("http://127.0.0.1:")
        assert url.endswith("/?game=subsume&o.size=4&seats=random%2Chuman")
        headers, page = get(url)
        assert b"/static/play.js" in page and "content-security-policy" in headers
        base = url.split("/?")[0]
        _, games = get(base + "/api/games")
        assert "subsume" in [g["name"] for g in json.loads(games)["games"]]
    finally:
        err = stop(proc)
    assert "warning" not in err


@pytest.mark.timing
def test_play_warns_when_listening_beyond_this_machine() -> None:
    proc, url = serve("--host", "0.0.0.0")
    try:
        assert url.startswith("http://0.0.0.0:") and url.endswith("/")
        port = url.rsplit(":", 1)[1].rstrip("/")
        _, page = get(f"http://127.0.0.1:{port}/")
        assert b"stonefield" in page
    finally:
        err = stop(proc)
    assert "warning: listening on 0.0.0.0" in err


def test_loopback_hosts() -> None:
    assert _is_loopback("127.0.0.1") and _is_loopback("::1") and _is_loopback("localhost")
    assert not _is_loopback("0.0.0.0") and not _is_loopback("192.168.1.2")


def test_play_seats_the_human_and_the_default_opponent(monkeypatch: pytest.MonkeyPatch) -> None:
    import stonefield.play

    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(stonefield.play, "serve", lambda *a, **k: calls.append((a, k)))
    assert main(["play", "windflowers", "--option", "players=3", "--seat", "2"]) == 0
    (game, options, seats), kwargs = calls[0]
    strong = stonefield.play.default_opponent()
    assert (game, options, seats) == ("windflowers", {"players": 3}, [strong, strong, "human"])
    assert kwargs == {"host": "127.0.0.1", "port": 0, "open_browser": True}
    assert main(["play", "--no-browser", "--port", "8765"]) == 0
    assert calls[1] == (
        (None, {}, None),
        {"host": "127.0.0.1", "port": 8765, "open_browser": False},
    )


#: The trained network the repository keeps (a path that holds from any working folder).
CHECKPOINT = str(
    Path(__file__).resolve().parents[2] / "experiments/training/subsume4-30min/latest.npz"
)


@pytest.mark.parametrize(
    "opponent",
    [
        "random:seed=2",
        "mcts:iterations=300,c=0.5",
        "mcts:preset=strong",
        "puct:simulations=50",
        "puct:simulations=50,checkpoint=" + CHECKPOINT,
        "expert",
        "expert:simulations=20,seed=1",
    ],
)
def test_play_seats_every_agent_string_match_reads(
    opponent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import stonefield.play

    if "checkpoint" in opponent:
        pytest.importorskip("jax")
        monkeypatch.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    served: dict[str, Any] = {}
    monkeypatch.setattr(stonefield.play, "serve", lambda *a, **k: served.update(args=a))
    assert main(["play", "subsume", "--option", "size=4", "--opponent", opponent]) == 0
    assert served["args"][2] == ["human", opponent]
    assert (
        main(["match", "subsume", "--option", "size=4", "-n", "1", "-q", opponent, "random"]) == 0
    )
