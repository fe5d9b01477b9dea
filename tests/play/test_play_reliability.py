"""The play server where it stops, is pushed, or is sent odd text (findings 8, 9 and 10 of the
reliability review of be7f9ce): a second server in one process still plays after the first
stopped; hover ids, lone surrogates and a shutdown during a hint or a review answer a JSON 4xx or
503, never a 500; reviews never hold the agents' searches."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

import stonefield as sf
from stonefield.play import _agents, _coach, _server_class, create_app
from stonefield.play import _app as app_module
from stonefield.play._app import CSP

SMALL = {"game": "subsume", "options": {"size": 3}}


def _session(client: TestClient, **body: Any) -> str:
    r = client.post("/api/sessions", json={**SMALL, **body})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _json_error(r: Any, status: int) -> str:
    """The error message of a JSON answer with ``status`` and the security headers."""
    assert r.status_code == status, r.text
    assert r.headers["content-security-policy"] == CSP
    assert r.headers["content-type"].startswith("application/json")
    return str(r.json()["error"])


def _wait_busy(client: TestClient, sid: str) -> None:
    """Waits (up to a minute) until the session's search has started."""
    deadline = time.monotonic() + 60
    while not client.get(f"/api/sessions/{sid}/thinking").json()["active"]:
        assert time.monotonic() < deadline, "the search never started"
        time.sleep(0.02)
    time.sleep(0.3)  # let the worker thread enter the native call (not a timing assertion)


# 8. A second server in the same process -------------------------------------------------------


def test_a_second_server_plays_after_the_first_one_stopped() -> None:
    import uvicorn

    first = create_app()
    second = create_app()  # made before the first stops, as a notebook might
    with TestClient(first) as one:
        sid = _session(one, seats=["mcts:50", "random"])
        # Ctrl-C as uvicorn hands it to the server of `serve()`.
        server = _server_class(first.state.stopping)(uvicorn.Config(first))
        server.handle_exit(signal.SIGINT, None)
        assert server.should_exit and first.state.stopping.is_set()
        assert "shutting down" in _json_error(one.post(f"/api/sessions/{sid}/agent", json={}), 503)
    for app in (second, create_app()):  # one made before the stop, one after
        assert not app.state.stopping.is_set()
        with TestClient(app) as client:
            sid = _session(client, seats=["mcts:50", "random"])
            r = client.post(f"/api/sessions/{sid}/agent", json={})
            assert r.status_code == 200, r.text
            assert len(r.json()["line"]) == 1 and r.json()["analysis"] is not None
            assert client.post(f"/api/sessions/{sid}/hint", json={"iterations": 50}).is_success


# 9. Requests that gave 500 --------------------------------------------------------------------


@pytest.mark.parametrize("action", ["²", "١٢", "9" * 5000, "99999999999", "+1", " 1", "1.0"])
def test_hover_takes_ascii_action_ids_only(action: str) -> None:
    client = TestClient(create_app(), raise_server_exceptions=False)
    sid = _session(client)
    r = client.get(f"/api/sessions/{sid}/hover", params={"action": action})
    assert "action id" in _json_error(r, 400)
    assert client.get(f"/api/sessions/{sid}/hover", params={"action": "0"}).status_code == 200


def test_hover_of_an_out_of_range_id_is_a_400() -> None:
    client = TestClient(create_app(), raise_server_exceptions=False)
    sid = _session(client)
    beyond = str(sf.make("subsume", size=3).num_actions)
    for action in ("9999999999", "4294967296", beyond):
        r = client.get(f"/api/sessions/{sid}/hover", params={"action": action})
        _json_error(r, 400)


def test_a_lone_surrogate_is_an_illegal_move() -> None:
    game = sf.make("subsume", size=3)
    for text in ("\ud800", "1\udfff", "\udc80pass"):
        with pytest.raises(sf.IllegalMoveError, match="lone surrogate"):
            game.parse_action(text)
    with pytest.raises(TypeError):
        game.parse_action(12)  # type: ignore[arg-type]
    assert game.parse_action("0") == 0
    client = TestClient(create_app(), raise_server_exceptions=False)
    sid = _session(client)
    # JSON escapes a lone surrogate ("\ud800"), and json.loads gives it back as one.
    kind = {"content-type": "application/json"}
    body = b'{"move": "\\ud800"}'
    _json_error(client.post(f"/api/sessions/{sid}/move", content=body, headers=kind), 400)
    assert client.get(f"/api/sessions/{sid}").json()["line"] == []
    body = b'{"game": "subsume", "options": {"size": 3}, "moves": ["0", "\\ud800"]}'
    assert "move 2" in _json_error(client.post("/api/sessions", content=body, headers=kind), 400)


def test_a_hint_stopped_by_the_shutdown_is_a_json_503() -> None:
    app = create_app()
    client = TestClient(app, raise_server_exceptions=False)
    sid = _session(client, options={"size": 12})
    answers: list[Any] = []
    asking = threading.Thread(
        target=lambda: answers.append(
            client.post(f"/api/sessions/{sid}/hint", json={"iterations": 200_000})
        )
    )
    asking.start()
    try:
        _wait_busy(client, sid)
    finally:
        _agents.shut_down(app.state.stopping)
        asking.join(60)
    assert not asking.is_alive()
    assert "shutting down" in _json_error(answers[0], 503)
    # The session is free again, and no new search starts.
    assert not client.get(f"/api/sessions/{sid}/thinking").json()["active"]
    _json_error(client.post(f"/api/sessions/{sid}/hint", json={"iterations": 10}), 503)


def test_a_review_stopped_by_the_shutdown_is_a_json_503() -> None:
    app = create_app()
    client = TestClient(app, raise_server_exceptions=False)
    game = sf.make("subsume", size=12)
    state = game.new_state()
    for _ in range(40):
        state.apply(int(sf.RandomAgent(seed=state.move_count).act(state)))
    moves = [str(a) for a in state.history]
    sid = _session(client, options={"size": 12}, moves=moves)
    answers: list[Any] = []
    asking = threading.Thread(
        target=lambda: answers.append(
            client.post(f"/api/sessions/{sid}/review", json={"iterations": 20_000})
        )
    )
    asking.start()
    try:
        _wait_busy(client, sid)
    finally:
        _agents.shut_down(app.state.stopping)
        asking.join(60)
    assert not asking.is_alive()
    assert "shutting down" in _json_error(answers[0], 503)
    _json_error(client.post(f"/api/sessions/{sid}/review", json={"iterations": 10}), 503)


def test_a_review_asked_to_stop_stops_before_its_next_position() -> None:
    stopping = threading.Event()
    stopping.set()
    game = sf.make("subsume", size=3)
    with pytest.raises(KeyboardInterrupt):
        _coach.review(game, [0], 10, seed=1, stopping=stopping)
    done = _coach.review(game, [0], 10, seed=1, solver=False, stopping=threading.Event())
    assert done["complete"]


def test_a_keyboard_interrupt_in_any_route_is_a_json_503(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: Any) -> Any:
        raise KeyboardInterrupt  # as cancel_native_calls raises in a native call

    monkeypatch.setattr(app_module, "rules", interrupted)
    client = TestClient(create_app(), raise_server_exceptions=False)
    r = client.post("/api/rules", json=SMALL)
    assert "shutting down" in _json_error(r, 503)
    assert client.get("/api/games").status_code == 200  # the server goes on


# 10. Reviews hold no search slot ---------------------------------------------------------------


def test_an_agent_moves_while_reviews_run(monkeypatch: pytest.MonkeyPatch) -> None:
    started = threading.Event()
    release = threading.Event()

    def slow_review(*args: Any, **kwargs: Any) -> dict[str, Any]:
        started.set()
        release.wait(60)  # a review that takes its full minute
        return {"moves": []}

    monkeypatch.setattr(_coach, "review", slow_review)
    app = create_app()
    with TestClient(app) as client:
        # More reviews than the server has search slots (one per core).
        reviewing = [_session(client) for _ in range(min(os.cpu_count() or 1, 8) + 1)]
        answers: list[Any] = []
        threads = [
            threading.Thread(
                target=lambda sid=sid: answers.append(
                    client.post(f"/api/sessions/{sid}/review", json={})
                )
            )
            for sid in reviewing
        ]
        for t in threads:
            t.start()
        try:
            assert started.wait(60)
            sid = _session(client, seats=["mcts:200", "random"])
            moved: list[Any] = []
            mover = threading.Thread(
                target=lambda: moved.append(client.post(f"/api/sessions/{sid}/agent", json={}))
            )
            mover.start()
            # A 200-iteration search on a 3x3 board takes milliseconds; before, it waited for
            # the reviews' minute. The bound is generous for a loaded machine.
            mover.join(40)
            assert not mover.is_alive() and not release.is_set()
            assert moved[0].status_code == 200 and len(moved[0].json()["line"]) == 1
            hint = client.post(f"/api/sessions/{sid}/hint", json={"iterations": 100})
            assert hint.status_code == 200 and not release.is_set()
        finally:
            release.set()
            for t in threads:
                t.join(60)
        assert [r.status_code for r in answers] == [200] * len(reviewing)
