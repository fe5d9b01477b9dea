"""The sixteen findings of the adversarial review at d7a425b, one test (or a few) each, so that
none comes back. Each test is the finding's reproducer with the expected outcome."""

from __future__ import annotations

import base64
import io
import json
import os
import pickle
import resource
import signal
import subprocess
import sys
import threading
import time
import warnings
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield import _core
from stonefield.lab import ResultsFileBusyError

LAB = dict(vary={"size": [3, 4]}, games=40, seed=5, chunk=10)


def _rows(lab: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in lab.rows()]


def _sigint_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


# 1. OpenSpiel: a state string never unpickles -------------------------------------------


def test_1_openspiel_deserialize_never_unpickles(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from stonefield import openspiel

    openspiel.register()
    game = pyspiel.load_game("stonefield_windflowers(size=3,grid=hex)")
    marker = tmp_path / "pwned.txt"

    class Payload:
        def __reduce__(self) -> Any:
            return (os.system, (f"echo CODE RAN > {marker}",))

    evil = "history=\nmove_number=0\n__dict__=" + base64.b64encode(pickle.dumps(Payload())).decode(
        "ascii"
    )
    state = game.deserialize_state(evil)  # read from its (empty) history alone
    assert state.history() == [] and not marker.exists()
    # A serialization is the actions only, replayed and checked.
    s = game.new_initial_state()
    for a in (4, 7, 2):
        s.apply_action(a)
    text = s.serialize()
    assert text == "4\n7\n2\n" and "__dict__" not in text
    assert game.deserialize_state(text).history() == [4, 7, 2]
    # OpenSpiel's own form (what serialize_game_and_state writes) is read by its history.
    own = "history=0:4,1:7\nmove_number=2\n__dict__=AAAA"
    assert game.deserialize_state(own).history() == [4, 7]
    for bad, error in (
        ("4\n4\n", sf.IllegalMoveError),
        ("x\n", sf.RecordError),
        ("history=1:4\nmove_number=1\n__dict__=", sf.RecordError),  # player 1 out of turn
        ("history=0:4\nmove_number=5\n", sf.RecordError),
        ("history=0:4", sf.RecordError),
    ):
        with pytest.raises(error):
            game.deserialize_state(bad)
    assert not marker.exists()


# 2, 3, 4, 14. The lab results file ---------------------------------------------------------


def test_2_a_second_run_on_a_locked_file_fails_at_once_naming_the_holder(tmp_path: Path) -> None:
    out = str(tmp_path / "runs.jsonl")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, stonefield as sf\n"
            "from stonefield.lab.run import make_plan, open_results\n"
            "plan = make_plan('subsume', {'size': [3, 4]}, None, None, 40, 5, 10, 0)\n"
            f"f = open_results(plan, {out!r})\n"
            "print('locked', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(ResultsFileBusyError) as info:
            sf.lab.evaluate("subsume", **LAB, out=out)  # type: ignore[arg-type]
        assert f"process {holder.pid}" in str(info.value)
    finally:
        holder.communicate("")
    # Once the holder is gone (the lock goes with it) the run proceeds.
    lab = sf.lab.evaluate("subsume", **LAB, out=out)  # type: ignore[arg-type]
    assert [r["games"] for r in lab.rows()] == [40, 40]


def test_2_joined_files_never_count_a_game_twice(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    clean = sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]
    lines = out.read_text().splitlines(keepends=True)
    # An exact copy of a chunk line (cat a b) is dropped with a warning.
    out.write_text("".join(lines + lines[1:3]))
    with pytest.warns(RuntimeWarning, match="repeats line"):
        again = sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]
    assert _rows(again) == _rows(clean)
    # A chunk that overlaps another but differs is refused, naming both lines.
    entry = json.loads(lines[1])
    entry["first"] += 1
    entry["count"] -= 1
    entry["stats"] = {k: None if v is None else v[1:] for k, v in entry["stats"].items()}
    # The games it keeps are the chunk's own (a record of the dropped first game goes with it).
    entry["records"] = [r for r in entry.get("records", []) if r["index"] >= entry["first"]]
    out.write_text("".join(lines) + json.dumps(entry) + "\n")
    with pytest.raises(sf.RecordError, match=f"line {len(lines) + 1}: .*overlap line 2"):
        sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]


def test_3_a_last_line_without_its_newline_is_completed(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    clean = sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]
    lines = out.read_text().split("\n")
    out.write_text("\n".join(lines[:5]))  # four chunks kept, the last "\n" missing
    resumed = sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]
    again = sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]
    assert _rows(resumed) == _rows(again) == _rows(clean)
    assert len(out.read_text().splitlines()) == len(lines) - 1


def test_3_4_a_full_disk_at_any_byte_resumes_to_the_same_numbers(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    clean = sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]
    size = out.stat().st_size
    header = out.read_text().index("\n") + 1
    code = (
        "import resource, signal, sys, stonefield as sf\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]),) * 2)\n"
        "try:\n"
        f"    sf.lab.evaluate('subsume', out={str(out)!r}, **{LAB!r})\n"
        "except OSError:\n"
        "    sys.exit(3)\n"
    )
    # A cut inside the header (finding 4), just before a chunk's newline (finding 3), inside
    # a chunk line, and just after one.
    second = out.read_text().index("\n", header) + 1
    for limit in (40, header - 1, second - 1, second + 30, second):
        out.unlink()
        done = subprocess.run([sys.executable, "-c", code, str(limit)], capture_output=True)
        assert done.returncode == 3, done.stderr
        assert out.stat().st_size <= limit < size
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # "the last line is incomplete"
            resumed = sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]
        assert _rows(resumed) == _rows(clean), limit
        assert _rows(sf.lab.evaluate("subsume", **LAB, out=str(out))) == _rows(clean)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("123", "an entry is a JSON object"),
        ("null", "an entry is a JSON object"),
        ('"x"', "an entry is a JSON object"),
        ("[]", "an entry is a JSON object"),
        ("NaN", "an entry is a JSON object"),
        ("{}", "kind must be one of"),
        ('{"kind":"games"}', "variant must be an integer"),
        ('{"kind":"games","variant":7}', "variant must be an integer from 0 to 1"),
        ('{"kind":"games","variant":0,"first":"a","count":1}', "first and count"),
        ('{"kind":"games","variant":0,"first":0,"count":-5}', "first and count"),
        ('{"kind":"games","variant":0,"first":0,"count":5}', "a chunk holds its games' stats"),
        ('{"kind":"kingmaking","variant":0}', "a kingmaking entry holds a list"),
    ],
)
def test_14_every_line_is_checked(tmp_path: Path, line: str, words: str) -> None:
    out = tmp_path / "runs.jsonl"
    sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]
    lines = out.read_text().splitlines()
    lines.insert(3, line)
    out.write_text("\n".join(lines) + "\n")
    with pytest.raises(sf.RecordError, match=f"line 4: {words}"):
        sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]


def test_14_a_line_that_is_not_utf8_is_a_record_error(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]
    data = out.read_bytes().split(b"\n")
    data.insert(2, b"\xff")
    out.write_bytes(b"\n".join(data))
    with pytest.raises(sf.RecordError, match="line 3 is not UTF-8"):
        sf.lab.evaluate("subsume", **LAB, out=str(out))  # type: ignore[arg-type]


# 5, 15. Self-play archives ------------------------------------------------------------------


@pytest.fixture(scope="module")
def selfplay_file(tmp_path_factory: Any) -> Path:
    path = tmp_path_factory.mktemp("sp") / "ok.npz"
    sf.selfplay("subsume", "mcts:iterations=30", games=3, seed=3, size=3).save(path)
    return Path(path)


def _rewrite(src: Path, dst: Path, extra: dict[str, bytes] | None = None, **arrays: Any) -> None:
    with np.load(src) as ok, zipfile.ZipFile(dst, "w") as z:
        for k in ok.files:
            b = io.BytesIO()
            np.lib.format.write_array(b, arrays.get(k, ok[k]))
            z.writestr(k + ".npy", b.getvalue())
        for name, data in (extra or {}).items():
            z.writestr(name, data)


def test_5_unknown_members_are_refused_before_any_is_read(
    selfplay_file: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "extra.npz"
    _rewrite(selfplay_file, bad, extra={"extra.npy": b"\x93NUMPY anything"})
    with pytest.raises(sf.RecordError, match="unexpected entry 'extra.npy'"):
        sf.SelfPlayData.load(bad)


def test_5_a_header_promising_more_than_the_member_holds_is_refused(
    selfplay_file: Path, tmp_path: Path
) -> None:
    # A "bomb" member: the header claims 2**28 floats (1 GiB); the data is never read.
    head = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        head, {"descr": "<f4", "fortran_order": False, "shape": (2**28, 2, 9)}
    )
    bad = tmp_path / "bomb.npz"
    with np.load(selfplay_file) as ok, zipfile.ZipFile(bad, "w", zipfile.ZIP_DEFLATED) as z:
        for k in ok.files:
            if k == "observations":
                z.writestr(k + ".npy", head.getvalue() + bytes(1 << 16))
            else:
                b = io.BytesIO()
                np.lib.format.write_array(b, ok[k])
                z.writestr(k + ".npy", b.getvalue())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(sf.RecordError, match='entry "observations"'):
        sf.SelfPlayData.load(bad)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 200_000  # KiB


def test_15_inconsistent_archives_fail_at_load(selfplay_file: Path, tmp_path: Path) -> None:
    data = sf.SelfPlayData.load(selfplay_file)
    bad = tmp_path / "bad.npz"
    nan_policy = data.policies.copy()
    nan_policy[0, 0] = np.nan
    cases: list[tuple[dict[str, Any], str]] = [
        ({"policies": nan_policy}, 'entry "policies"'),
        ({"observations": data.observations + np.float32(5)}, 'entry "observations"'),
        ({"actions": np.zeros_like(data.actions)}, "do not replay"),
        ({"offsets": np.array([0, 1, 2, len(data.actions)], dtype=np.int64)}, "game_index"),
    ]
    for arrays, words in cases:
        _rewrite(selfplay_file, bad, **arrays)
        with pytest.raises(sf.RecordError, match=words):
            sf.SelfPlayData.load(bad)
    # The header of a .npy nested 100,000 deep, and a compression method zipfile lacks.
    head = b"\x93NUMPY\x02\x00" + (100_010).to_bytes(4, "little")
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("header.npy", head + b"[" * 100_010)
    with pytest.raises(sf.RecordError):
        sf.SelfPlayData.load(bad)


def test_15_random_byte_flips_give_only_record_errors(selfplay_file: Path) -> None:
    good = selfplay_file.read_bytes()
    rng = np.random.default_rng(15)
    for _ in range(300):
        data = bytearray(good)
        for i in rng.integers(0, len(data), size=int(rng.integers(1, 4))):
            data[i] ^= int(rng.integers(1, 256))
        try:
            sf.SelfPlayData.load(io.BytesIO(bytes(data)))
        except sf.RecordError:
            pass


# 6. An MCTS tree that would outgrow memory ------------------------------------------------


def test_6_a_tree_bigger_than_memory_stops_cleanly() -> None:
    code = (
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (600 << 20, 600 << 20))\n"
        "import stonefield as sf\n"
        "r = sf.MCTS(iterations=10**9, time=4, max_nodes=2**32 - 1, threads=2)"
        ".analyse(sf.make('faraday').new_state())\n"
        "print(r.stopped_by, r.nodes)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    stopped, nodes = done.stdout.split()
    assert stopped in ("nodes", "time") and int(nodes) * 24 < 600 << 20


# 7, 9, 10. Searches ---------------------------------------------------------------------


@pytest.mark.timing
def test_7_ctrl_c_stops_a_search_of_20000_iterations_on_a_large_board() -> None:
    state = sf.make("subsume", size=30).new_state()
    timer = _sigint_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            sf.MCTS(iterations=20_000).act(state)
    finally:
        timer.cancel()


@pytest.mark.timing
def test_9_a_time_budget_overshoots_by_about_one_iteration_on_a_large_board() -> None:
    state = sf.make("subsume", size=30).new_state()
    r = sf.MCTS(time=1e-4).analyse(state)
    # A subsume-30 iteration takes far more than 0.1 ms: the clock is read after each one.
    assert r.stopped_by == "time" and r.iterations <= 3


def test_10_a_huge_time_budget_is_no_limit_never_a_panic() -> None:
    state = sf.make("windflowers").new_state()
    for t in (9.3e18, 1e19, 1e300):
        r = sf.MCTS(time=t, iterations=100).analyse(state)
        assert r.stopped_by == "iterations" and r.iterations == 100
    agent = sf.parse_agent("mcts:time=1e19,iterations=50")
    assert state.is_legal(agent.act(state))
    m = sf.match("windflowers", [agent, "random"], games=2, size=3)
    assert m.n_games == 2


# 8, 11, 13. The play server ---------------------------------------------------------------


def test_8_random_agents_never_wait_behind_searches() -> None:
    from starlette.testclient import TestClient

    from stonefield.play._agents import Seat
    from stonefield.play._app import create_app

    release = threading.Event()

    def chooser(seat: Seat, state: Any, seed: int, publish: Any) -> int:
        if seat.kind == "mcts":
            release.wait(30)
        return int(state.legal_actions()[0])

    app = create_app(choose=chooser)
    with TestClient(app) as client:
        new = {"game": "subsume", "options": {"size": 3}, "seats": ["mcts:10", "random"]}
        busy = [client.post("/api/sessions", json=new).json()["id"] for _ in range(8)]
        threads = [
            threading.Thread(target=client.post, args=(f"/api/sessions/{sid}/agent",))
            for sid in busy
        ]
        for t in threads:
            t.start()
        try:
            # Every search slot is taken; a random reply is still answered.
            sid = client.post("/api/sessions", json=new).json()["id"]
            r = client.post(f"/api/sessions/{sid}/agent", json={"agent": "random"})
            assert r.status_code == 200 and not release.is_set()
        finally:
            release.set()
            for t in threads:
                t.join()


@pytest.mark.parametrize(
    "body",
    [b"[" * 200_000, b'{"step": ' + b"9" * 5000 + b"}", b'{"a": 1e999999}'],
)
def test_11_hostile_json_is_a_json_400_with_the_security_headers(body: bytes) -> None:
    from starlette.testclient import TestClient

    from stonefield.play import create_app

    client = TestClient(create_app())
    sid = client.post("/api/sessions", json={"game": "subsume"}).json()["id"]
    for route in ("/api/sessions", "/api/preview", f"/api/sessions/{sid}/goto"):
        r = client.post(route, content=body, headers={"content-type": "application/json"})
        assert r.status_code in (400, 409), (route, r.status_code)
        assert "error" in r.json() and "content-security-policy" in r.headers


def test_11_an_unexpected_error_is_a_json_500_with_the_security_headers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from starlette.testclient import TestClient

    from stonefield.play import _app, create_app

    def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("boom")

    monkeypatch.setattr(_app, "to_svg", broken)
    client = TestClient(create_app(), raise_server_exceptions=False)
    r = client.post("/api/preview", json={"game": "subsume"})
    assert r.status_code == 500 and r.json()["error"].startswith("internal error")
    assert "content-security-policy" in r.headers


@pytest.mark.timing
def test_13_stonefield_play_stops_promptly_with_searches_running() -> None:
    import urllib.request

    from play.test_play_cli import serve  # tests/ is on the path (pyproject)

    proc, url = serve("subsume", "--option", "size=12")
    base = url.split("/?")[0].rstrip("/")

    def post(path: str, body: dict[str, Any]) -> Any:
        req = urllib.request.Request(
            base + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read())
        except Exception:
            return None

    sessions = [
        post("/api/sessions", {"game": "subsume", "options": {"size": 12}}) for _ in range(3)
    ]
    for s in sessions:
        assert s is not None
        threading.Thread(
            target=post,
            args=(f"/api/sessions/{s['id']}/agent", {"agent": "mcts:200000"}),
            daemon=True,
        ).start()
    time.sleep(1.0)  # the searches are running (not a timing assertion)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    # Measured at about 0.3 s on an idle machine; the bound only catches a wait for the
    # searches' 20-second cap.
    assert time.monotonic() - started < 15


# 12. A match interrupted keeps its finished games ---------------------------------------


def test_12_an_interrupted_python_match_keeps_the_finished_games() -> None:
    class Stops:
        def __init__(self) -> None:
            self.moves = 0

        def act(self, state: sf.State) -> int:
            if state.move_count == 0 and self.moves > 0:
                self.games = getattr(self, "games", 0) + 1
                if self.games == 3:
                    raise KeyboardInterrupt
            self.moves += 1
            return int(state.legal_actions()[0])

    with pytest.raises(sf.MatchInterrupted) as info:
        sf.match("subsume", [Stops(), "random"], games=10, seed=1, size=3)
    m = info.value.match
    assert m is not None and m.n_games in (5, 6)
    assert len(m.records()) == m.n_games and m.seats.shape[0] == m.n_games


@pytest.mark.timing
def test_12_an_interrupted_native_match_keeps_the_finished_games() -> None:
    agents = [sf.MCTS(iterations=3000), sf.RandomAgent()]
    timer = _sigint_after(1.5)
    try:
        with pytest.raises(sf.MatchInterrupted) as info:
            sf.match("subsume", agents, games=2000, seed=1, threads=1, size=5)
    finally:
        timer.cancel()
    m = info.value.match
    if m is not None:  # on a very slow machine no game may have finished
        assert 0 < m.n_games < 2000 and len(m.records()) == m.n_games


def test_12_the_cli_prints_and_writes_the_finished_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from stonefield.cli import main
    from stonefield.cli import match as cli_match

    finished = sf.match("subsume", ["random", "random"], games=4, seed=1, size=3)

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise sf.MatchInterrupted(finished)

    monkeypatch.setattr(cli_match, "match", interrupted)
    records = tmp_path / "m.jsonl"
    assert main(["match", "subsume", "random", "random", "--records", str(records)]) == 130
    out = capsys.readouterr()
    assert "4 games" in out.out and "interrupted" in out.err
    assert len(records.read_text().splitlines()) == 4


# 16. Actions are integers everywhere --------------------------------------------------------


@pytest.mark.parametrize("action", [1.5, "3", True, np.float64(2.0), np.bool_(True)])
def test_16_adapters_refuse_actions_that_are_not_integers(action: Any) -> None:
    pytest.importorskip("pettingzoo")
    from stonefield.gymnasium import SelfPlayVectorEnv, StonefieldEnv
    from stonefield.pettingzoo import raw_env

    e = raw_env("subsume", size=3)
    e.reset(seed=0)
    with pytest.raises(TypeError):
        e.step(action)
    assert e.state.move_count == 0
    g = StonefieldEnv("subsume", size=3)
    g.reset(seed=0)
    with pytest.raises(TypeError):
        g.step(action)
    v = SelfPlayVectorEnv("subsume", num_envs=3, size=3)
    v.reset(seed=0)
    with pytest.raises(TypeError):
        v.step(np.full(3, action))
    assert g.step(np.int64(0))[0] is not None  # numpy integers are integers


def test_16_the_lab_refuses_a_python_agent_returning_floats() -> None:
    class Floaty:
        def act(self, state: sf.State) -> float:
            return float(state.legal_actions()[0]) + 0.7

    with pytest.raises(sf.IllegalMoveError, match="not legal"):
        sf.lab.evaluate("subsume", fixed={"size": 3}, agents=Floaty(), games=2)


def test_16_threads_message_names_the_range_allowed() -> None:
    with pytest.raises(sf.StonefieldError, match="from 1 to 256"):
        sf.simulate("windflowers", 10, threads=10**6)
    with pytest.raises(sf.StonefieldError, match="from 1 to 256"):
        _core.simulate_raw(sf.make("windflowers"), 10, threads=0)
