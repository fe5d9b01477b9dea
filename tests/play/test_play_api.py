"""The JSON API behind ``stonefield play``, route by route, with Starlette's test client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

import stonefield as sf
from stonefield.play import _agents, play_url
from stonefield.play._app import CSP, MAX_BODY, create_app
from stonefield.play._options import option_spec

SMALL = {
    "smallholder": {"board": "hex3"},
    "windflowers": {"grid": "square", "size": 3},
    "faraday": {"order": 3},
    "subsume": {"size": 3},
}


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def start(client: TestClient, game: str = "windflowers", **body: Any) -> dict[str, Any]:
    payload = {"game": game, "options": SMALL[game], "seats": ["human", "random"], **body}
    r = client.post("/api/sessions", json=payload)
    assert r.status_code == 201, r.text
    return r.json()


def engine(view: dict[str, Any]) -> sf.State:
    """The engine's own state for a session's view: its game replayed over its steps."""
    state = sf.make(view["game"], **view["options"]).new_state()
    for a in view["line"][: view["step"]]:
        state.apply(a)
    return state


def test_page_and_static_files_carry_the_security_headers(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<script src="/static/play.js"' in page.text
    assert page.headers["content-security-policy"] == CSP
    assert "script-src 'self'" in CSP and "connect-src 'self'" in CSP
    assert page.headers["x-content-type-options"] == "nosniff"
    js = client.get("/static/play.js")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
    assert client.get("/static/play.css").headers["content-type"].startswith("text/css")
    # Only the page's own files are served: no path reaches the file system.
    for name in ("index.html", "..%2F__init__.py", "nothing.js"):
        missing = client.get(f"/static/{name}")
        assert missing.status_code == 404
        assert missing.headers["content-security-policy"] == CSP
    assert client.get("/static/../_app.py").status_code == 404


def test_unknown_routes_and_methods_answer_json(client: TestClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json() == {"error": "no such page or route"}
    assert r.headers["content-security-policy"] == CSP
    r = client.get("/api/sessions")
    assert r.status_code == 405 and r.json() == {"error": "method not allowed here"}
    assert "POST" in r.headers["allow"]


def test_games_lists_every_game_with_its_options(client: TestClient) -> None:
    data = client.get("/api/games").json()
    assert [g["name"] for g in data["games"]] == sf.games()
    for g in data["games"]:
        assert [o["name"] for o in g["options"]] == list(sf.make(g["name"]).options)
        assert g["defaults"] == sf.make(g["name"]).options
        for o in g["options"]:
            assert o["kind"] in ("choice", "int", "bool")
            if o["kind"] == "choice":
                # Every listed value makes a game.
                for v in o["values"]:
                    sf.make(g["name"], **{o["name"]: v})
    assert data["agents"][:2] == ["human", "random"]
    assert data["limits"]["max_iterations"] == _agents.MAX_ITERATIONS


def test_option_spec_defaults_are_the_engines() -> None:
    for name in sf.games():
        resolved = sf.make(name).options
        for o in option_spec(name):
            if o["default"] is not None:
                assert resolved[o["name"]] == o["default"], (name, o)


def test_preview_draws_the_empty_board(client: TestClient) -> None:
    r = client.post("/api/preview", json={"game": "subsume", "options": {"size": 4}})
    data = r.json()
    assert r.status_code == 200 and data["num_sites"] == 37 and data["num_players"] == 2
    assert data["svg"].count('class="site"') == 37 and 'class="stone p' not in data["svg"]
    bad = client.post("/api/preview", json={"game": "subsume", "options": {"size": 1}})
    assert bad.status_code == 400 and "size" in bad.json()["error"]
    bad = client.post("/api/preview", json={"game": "subsume", "seats": []})
    assert bad.status_code == 400 and "unknown field 'seats'" in bad.json()["error"]


def test_create_session_describes_the_start(client: TestClient) -> None:
    view = start(client)
    state = sf.make("windflowers", **SMALL["windflowers"]).new_state()
    assert view["step"] == 0 and view["line"] == [] and view["moves"] == []
    assert view["current_player"] == 0 and view["human_to_move"] and not view["agent_to_move"]
    assert view["legal"] == state.legal_actions().tolist()
    assert view["legal_sites"] == list(range(16))
    assert view["buttons"] == [{"action": 16, "label": "pass"}]
    assert view["board"] == [0] * 16
    assert view["svg"].count('class="highlight"') == 16
    assert view["svg"].count("data-site=") >= 16
    assert [p["kind"] for p in view["players"]] == ["human", "random"]
    again = client.get(f"/api/sessions/{view['id']}").json()
    assert again["board"] == view["board"] and again["version"] == view["version"]
    assert 'class="number"' in client.get(f"/api/sessions/{view['id']}?numbers=1").json()["svg"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": 3}, '"game" is one of'),
        ({"game": "windflowers", "options": {"size": 99}}, "size"),
        ({"game": "windflowers", "options": {"colour": "red"}}, "colour"),
        ({"game": "windflowers", "options": {"size": [3]}}, '"options" is an object'),
        ({"game": "windflowers", "options": []}, '"options" is an object'),
        ({"game": "windflowers", "seats": ["human"]}, "2 players; got 1 seats"),
        ({"game": "windflowers", "seats": "human"}, '"seats" is a list'),
        ({"game": "windflowers", "seats": ["human", "robot"]}, "seat kind must be one of"),
        (
            {"game": "windflowers", "seats": ["human", {"kind": "random", "x": 1}]},
            "unknown setting",
        ),
        ({"game": "windflowers", "seats": ["human", "mcts:iterations=0"]}, "iterations must be"),
        ({"game": "windflowers", "seats": ["human", "mcts:iterations=x"]}, "iterations must be"),
        ({"game": "windflowers", "seats": ["human", {"kind": "mcts", "iterations": 1.5}]}, "whole"),
        ({"game": "windflowers", "colour": 1}, "unknown field 'colour'"),
        ({"game": "windflowers", "step": 3}, "step must be 0..0"),
        ({"game": "windflowers", "step": "3"}, '"step" is an integer'),
        ({"record": {"format": "x"}}, "format"),
        ({"record": "{not json"}, "not valid JSON"),
    ],
)
def test_create_session_rejects_bad_requests(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 400
    assert words in r.json()["error"]


def test_changes_need_a_json_content_type(client: TestClient) -> None:
    """Other sites' pages cannot send JSON without a preflight, so they cannot drive games."""
    sid = start(client)["id"]
    for path in ("/api/sessions", f"/api/sessions/{sid}/move", f"/api/sessions/{sid}/agent"):
        for headers in (
            {},
            {"content-type": "text/plain"},
            {"content-type": "multipart/form-data"},
        ):
            r = client.post(path, content=b'{"action": 0}', headers=headers)
            assert r.status_code == 415, (path, headers)
    r = client.post(f"/api/sessions/{sid}/truncate")
    assert r.status_code == 415
    assert client.get(f"/api/sessions/{sid}").json()["line"] == []


def test_only_allowed_host_names_reach_the_server() -> None:
    client = TestClient(create_app(allowed_hosts=["127.0.0.1", "localhost"]))
    assert client.get("/api/games").status_code == 400  # the test client says "testserver"
    assert client.get("/api/games", headers={"host": "127.0.0.1:8000"}).status_code == 200
    client = TestClient(create_app(allowed_hosts=["[::1]"]))
    assert client.get("/api/games", headers={"host": "[::1]:8000"}).status_code == 200
    assert client.get("/", headers={"host": "evil.example:8000"}).status_code == 400


def test_bodies_must_be_json_objects(client: TestClient) -> None:
    for raw in (b"[1, 2]", b"not json", b"\xff\xfe", b"", b"3"):
        r = client.post("/api/sessions", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 400, raw
        assert "error" in r.json()


def test_oversized_bodies_get_413(client: TestClient) -> None:
    view = start(client)
    big = b'{"action": 1, "pad": "' + b"x" * MAX_BODY + b'"}'
    for path in ("/api/sessions", f"/api/sessions/{view['id']}/move"):
        r = client.post(path, content=big, headers={"content-type": "application/json"})
        assert r.status_code == 413 and "at most" in r.json()["error"]

    def chunks() -> Any:  # no content-length: the stream is counted as it arrives
        for _ in range(MAX_BODY // 65536 + 2):
            yield b" " * 65536

    r = client.post("/api/sessions", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert client.get(f"/api/sessions/{view['id']}").json()["step"] == 0


def test_unknown_sessions_get_404_on_every_route(client: TestClient) -> None:
    base = "/api/sessions/nope"
    calls = [
        ("GET", ""),
        ("DELETE", ""),
        ("GET", "/legal"),
        ("POST", "/move"),
        ("POST", "/undo"),
        ("POST", "/goto"),
        ("POST", "/truncate"),
        ("POST", "/seats"),
        ("POST", "/agent"),
        ("GET", "/thinking"),
        ("GET", "/record"),
    ]
    for method, path in calls:
        r = client.request(method, base + path, json={"action": 0, "step": 0})
        assert r.status_code == 404, (method, path)
        assert "no such session" in r.json()["error"]


def test_moves_follow_the_engine_and_illegal_moves_change_nothing(client: TestClient) -> None:
    view = start(client)
    sid = view["id"]
    r = client.post(f"/api/sessions/{sid}/move", json={"action": 5})
    assert r.status_code == 200
    view = r.json()
    assert view["board"][5] == 1 and view["line"] == [5] and view["current_player"] == 1
    assert view["moves"] == [{"step": 1, "player": 0, "action": 5, "label": "b2", "name": "b2"}]
    state = engine(view)
    for bad in (5, 17, -1, 10**12):
        r = client.post(f"/api/sessions/{sid}/move", json={"action": bad})
        assert r.status_code == 400
        with pytest.raises(sf.StonefieldError) as e:
            state.apply(bad)
        assert r.json()["error"] == str(e.value)
    for bad in ("5", 5.0, True, None):
        r = client.post(f"/api/sessions/{sid}/move", json={"action": bad})
        assert r.status_code == 400 and '"action" is an integer' in r.json()["error"]
    after = client.get(f"/api/sessions/{sid}").json()
    assert after["line"] == [5] and after["board"] == view["board"]


def test_legal_lists_the_engines_actions(client: TestClient) -> None:
    view = start(client, "faraday")
    legal = client.get(f"/api/sessions/{view['id']}/legal").json()
    state = engine(view)
    assert legal["player"] == 0
    assert legal["actions"] == state.legal_actions().tolist()
    n = state.game.num_sites
    # The offer: either colour on any site, or a pass, which is the one button.
    assert legal["sites"] == list(range(n))
    assert legal["buttons"] == [{"action": 2 * n, "label": "offer pass"}]


def test_undo_goto_and_truncate_walk_the_line(client: TestClient) -> None:
    sid = start(client, seats=["human", "human"])["id"]
    for a in (0, 1, 2, 3):
        assert client.post(f"/api/sessions/{sid}/move", json={"action": a}).status_code == 200
    view = client.post(f"/api/sessions/{sid}/goto", json={"step": 1}).json()
    assert view["step"] == 1 and view["line"] == [0, 1, 2, 3] and view["board"][1] == 0
    assert view["board"] == engine(view).board.tolist()
    # Playing the line's own next move steps along it; anything else cuts it.
    view = client.post(f"/api/sessions/{sid}/move", json={"action": 1}).json()
    assert view["step"] == 2 and view["line"] == [0, 1, 2, 3]
    view = client.post(f"/api/sessions/{sid}/move", json={"action": 9}).json()
    assert view["step"] == 3 and view["line"] == [0, 1, 9]
    view = client.post(f"/api/sessions/{sid}/undo", json={}).json()
    assert view["step"] == 2 and view["line"] == [0, 1]
    view = client.post(f"/api/sessions/{sid}/goto", json={"step": 0}).json()
    view = client.post(f"/api/sessions/{sid}/truncate", json={}).json()
    assert view["line"] == [] and view["board"] == [0] * 16
    r = client.post(f"/api/sessions/{sid}/undo", json={})
    assert r.status_code == 400 and "nothing to undo" in r.json()["error"]
    r = client.post(f"/api/sessions/{sid}/goto", json={"step": 1})
    assert r.status_code == 400 and "step must be 0..0" in r.json()["error"]


def test_undo_until_human_takes_back_the_agents_reply(client: TestClient) -> None:
    sid = start(client)["id"]
    client.post(f"/api/sessions/{sid}/move", json={"action": 3})
    view = client.post(f"/api/sessions/{sid}/agent", json={}).json()
    assert view["step"] == 2 and view["human_to_move"]
    view = client.post(f"/api/sessions/{sid}/undo", json={"until_human": True}).json()
    assert view["step"] == 0 and view["line"] == [] and view["human_to_move"]


def test_agent_moves_for_agent_seats_only(client: TestClient) -> None:
    sid = start(client, seats=["random", "human"])["id"]
    view = client.post(f"/api/sessions/{sid}/agent", json={}).json()
    assert view["step"] == 1 and view["current_player"] == 1 and view["analysis"] is None
    assert engine(view).board.tolist() == view["board"]
    r = client.post(f"/api/sessions/{sid}/agent", json={})
    assert r.status_code == 409 and "seat 1 is a human" in r.json()["error"]
    # Asked by name, an agent moves for a human seat.
    view = client.post(f"/api/sessions/{sid}/agent", json={"agent": "random"}).json()
    assert view["step"] == 2
    r = client.post(f"/api/sessions/{sid}/agent", json={"agent": "mcts:iterations=999999999"})
    assert r.status_code == 400


def test_agents_play_whole_games_of_every_game(client: TestClient) -> None:
    for game in sf.games():
        view = start(client, game, seats=["random", "random"])
        while not view["terminal"]:
            r = client.post(f"/api/sessions/{view['id']}/agent", json={})
            assert r.status_code == 200, r.text
            view = r.json()
            assert view["board"] == engine(view).board.tolist()
        state = engine(view)
        assert view["ranks"] == state.ranks().tolist()
        r = client.post(f"/api/sessions/{view['id']}/agent", json={})
        assert r.status_code == 409 and "over" in r.json()["error"]
        r = client.post(f"/api/sessions/{view['id']}/move", json={"action": 0})
        assert r.status_code == 400 and r.json()["error"]


def test_mcts_moves_with_its_analysis(client: TestClient) -> None:
    view = start(client, "faraday", seats=["mcts:iterations=300", "human"])
    assert view["players"][0]["label"] == "MCTS 300" and view["agent_to_move"]
    view = client.post(f"/api/sessions/{view['id']}/agent", json={}).json()
    analysis = view["analysis"]
    assert view["step"] == 1 and analysis["player"] == 0 and analysis["budget"] == 300
    assert analysis["iterations"] == 300 and -1 <= analysis["value"] <= 1
    assert analysis["proven"] is None
    assert view["line"] == [analysis["best"]]
    shares = list(analysis["sites"].values()) + list(analysis["actions"].values())
    assert abs(sum(shares) - 1) < 0.01 and all(
        0 <= int(s) < view["num_sites"] for s in analysis["sites"]
    )
    assert client.get(f"/api/sessions/{view['id']}/thinking").json() == {"active": False}
    # The same search from the same position and seed makes the same choice.
    seat = _agents.Seat("mcts", 300)
    state = sf.make("faraday", order=3).new_state()
    first = _agents.choose(seat, state, 5, lambda snap: None)
    assert _agents.choose(seat, state, 5, lambda snap: None) == first
    assert state.move_count == 0


def test_a_forced_move_is_chosen_after_one_search(forced_state: sf.State) -> None:
    state = forced_state
    shown: list[dict[str, Any]] = []
    action = _agents.choose(_agents.Seat("mcts", 3000), state, 5, shown.append)
    assert action == int(state.legal_actions()[0])
    assert len(shown) == 1 and shown[0]["best"] == action
    assert shown[0]["iterations"] < shown[0]["budget"] == 3000


def test_a_crashed_agent_leaves_the_game_as_it_was() -> None:
    def crash(seat: Any, state: sf.State, seed: int, publish: Any) -> int:
        publish({"player": 0, "value": 0.0, "iterations": 1, "budget": 1, "best": 0, "sites": {}})
        state.apply(int(state.legal_actions()[0]))  # even a stray change to its copy
        raise RuntimeError("out of memory")

    client = TestClient(create_app(choose=crash))
    view = start(client, seats=["random", "human"])
    r = client.post(f"/api/sessions/{view['id']}/agent", json={})
    assert r.status_code == 500 and "out of memory" in r.json()["error"]
    after = client.get(f"/api/sessions/{view['id']}").json()
    assert after["step"] == 0 and after["board"] == view["board"] and not after["busy"]
    assert client.get(f"/api/sessions/{view['id']}/thinking").json() == {"active": False}


def test_a_busy_game_refuses_changes(client: TestClient) -> None:
    view = start(client)
    session = client.app.state.sessions.get(view["id"])  # type: ignore[attr-defined]
    session.busy = True
    for path, body in (("/move", {"action": 0}), ("/undo", {}), ("/goto", {"step": 0})):
        r = client.post(f"/api/sessions/{view['id']}{path}", json=body)
        assert r.status_code == 409 and "thinking" in r.json()["error"]
    assert client.get(f"/api/sessions/{view['id']}/thinking").json()["active"] is True
    assert client.delete(f"/api/sessions/{view['id']}").status_code == 409
    session.busy = False
    assert client.delete(f"/api/sessions/{view['id']}").status_code == 204
    assert client.get(f"/api/sessions/{view['id']}").status_code == 404


def test_seats_can_change(client: TestClient) -> None:
    sid = start(client)["id"]
    view = client.post(f"/api/sessions/{sid}/seats", json={"seats": ["random", "human"]}).json()
    assert [p["kind"] for p in view["players"]] == ["random", "human"] and view["agent_to_move"]
    r = client.post(f"/api/sessions/{sid}/seats", json={"seats": ["random"]})
    assert r.status_code == 400


def test_records_download_and_load_back(client: TestClient) -> None:
    sid = start(client, "subsume", seats=["random", "random"])["id"]
    for _ in range(5):
        client.post(f"/api/sessions/{sid}/agent", json={})
    client.post(f"/api/sessions/{sid}/goto", json={"step": 2})
    r = client.get(f"/api/sessions/{sid}/record")
    assert r.headers["content-type"].startswith("application/json")
    assert "content-disposition" not in r.headers
    record = r.json()
    # The whole line is recorded, wherever the view stands.
    assert len(record["actions"]) == 5
    assert sf.from_record(record).history == record["actions"]
    download = client.get(f"/api/sessions/{sid}/record?download=1")
    assert download.headers["content-disposition"] == 'attachment; filename="subsume-5.json"'
    assert json.loads(download.text) == record

    view = client.post("/api/sessions", json={"record": download.text}).json()
    assert view["line"] == record["actions"] and view["step"] == 5
    assert [p["kind"] for p in view["players"]] == ["human", "human"]
    view = client.post("/api/sessions", json={"record": record, "step": 3}).json()
    assert view["step"] == 3 and view["board"] == engine(view).board.tolist()
    # The seats of a record load are ignored when they do not fit its game.
    view = client.post("/api/sessions", json={"record": record, "seats": ["human"] * 3}).json()
    assert len(view["players"]) == 2
    bad = dict(record, actions=record["actions"] + [10**6])
    r = client.post("/api/sessions", json={"record": bad})
    assert r.status_code == 400 and "index 5" in r.json()["error"]


def test_sessions_are_bounded_oldest_idle_first() -> None:
    client = TestClient(create_app(max_sessions=2))
    a, b = start(client)["id"], start(client)["id"]
    client.get(f"/api/sessions/{a}")  # a is now the more recently used
    c = start(client)["id"]
    assert client.get(f"/api/sessions/{b}").status_code == 404
    assert client.get(f"/api/sessions/{a}").status_code == 200
    assert client.get(f"/api/sessions/{c}").status_code == 200
    client.app.state.sessions.get(a).busy = True  # type: ignore[attr-defined]
    client.app.state.sessions.get(c).busy = True  # type: ignore[attr-defined]
    r = client.post("/api/sessions", json={"game": "subsume"})
    assert r.status_code == 503


def test_windflowers_with_four_players_and_three_agents(client: TestClient) -> None:
    view = start(
        client,
        options={"players": 4, "grid": "hex", "size": 3},
        seats=["random", "human", "random", "random"],
    )
    assert view["num_players"] == 4 and len(view["players"]) == 4
    view = client.post(f"/api/sessions/{view['id']}/agent", json={}).json()
    assert view["current_player"] == 1 and view["human_to_move"]
    assert view["board"] == engine(view).board.tolist()


def test_seat_strings() -> None:
    assert _agents.Seat.parse("random") == _agents.Seat("random")
    assert _agents.Seat.parse({"kind": "human"}).is_agent is False
    for bad in (
        "robot",
        3,
        {"kind": "random", "depth": 1},
        "mcts:iterations=0",
        "mcts:threads=64",
        "human:x=1",
        {"kind": "mcts", "iterations": 1.5},
    ):
        with pytest.raises(_agents.SeatError):
            _agents.Seat.parse(bad)
    # One grammar with sf.parse_agent: every MCTS setting, the shorthand, and the JSON form.
    seat = _agents.Seat.parse("mcts:iterations=300,c=0.5,solver=false,reuse=true")
    assert seat == _agents.Seat("mcts", 300, (("c", 0.5), ("solver", False), ("reuse", True)))
    assert _agents.Seat.parse({"kind": "mcts", "iterations": 300, "c": 0.5}) == _agents.Seat.parse(
        "mcts:300,c=0.5"
    )
    assert _agents.Seat.parse("random:seed=4") == _agents.Seat("random", None, (("seed", 4),))
    assert sf.parse_agent("mcts:300").iterations == 300


def test_play_url_encodes_the_game() -> None:
    url = play_url("http://127.0.0.1:5", "faraday", {"surplus_charge": True}, ["random", "human"])
    assert url == "http://127.0.0.1:5/?game=faraday&o.surplus_charge=true&seats=random%2Chuman"
    assert play_url("http://127.0.0.1:5/") == "http://127.0.0.1:5/"


def test_heat_map_snapshot_folds_faraday_offer_colours() -> None:
    state = sf.make("faraday", order=3).new_state()
    n = state.game.num_sites

    class Result:
        # Black and white offers on site 0 count for site 0; the offer pass is not a site.
        actions = np.array([0, 1, n, 2 * n])
        visits = np.array([1, 1, 2, 6])
        value = 0.25
        iterations = 10
        best = 2 * n
        proven = None

    snap = _agents.snapshot(state, Result(), 100)
    assert snap["sites"] == {"0": 0.3, "1": 0.1}
    assert snap["actions"] == {str(2 * n): 0.6}
    assert snap["value"] == 0.25 and snap["budget"] == 100 and snap["player"] == 0


# ---- Every agent string that `stonefield match` reads is a seat ------------------------------

CHECKPOINT = str(
    Path(__file__).resolve().parents[2] / "experiments/training/subsume4-30min/latest.npz"
)

AGENT_STRINGS = [
    "random",
    "random:seed=3",
    "mcts:200",
    "mcts:iterations=150,c=0.5,solver=false",
    "mcts:preset=strong,iterations=300",
    "mcts:selection=grave,iterations=120",
    "puct:simulations=40",
    "puct:simulations=30,c=2,batch_size=4",
    "expert",
    "expert:simulations=30,seed=2",
]


def test_the_seat_kinds_are_every_agent_kind() -> None:
    from stonefield.agents import AGENT_KINDS

    # Every agent kind, and the perfect seat (the solver; small boards only).
    assert _agents.available_kinds() == ["human", *AGENT_KINDS, "perfect"]
    assert "puct" in AGENT_KINDS


@pytest.mark.parametrize("text", AGENT_STRINGS)
def test_every_agent_string_is_a_seat_that_moves(client: TestClient, text: str) -> None:
    from stonefield.agents import agent_string

    seat = _agents.Seat.parse(text)
    assert seat.is_agent and seat.agent is not None
    # The seat's own agent string names the same agent as the one it was given.
    assert agent_string(sf.parse_agent(seat.agent)) == agent_string(sf.parse_agent(text))
    assert _agents.Seat.parse(seat.agent) == seat
    assert _agents.Seat.parse(seat.to_json()) == seat
    view = start(client, "subsume", seats=[text, "human"])
    assert view["players"][0]["agent"] == seat.agent
    view = client.post(f"/api/sessions/{view['id']}/agent", json={})
    assert view.status_code == 200, view.text
    body = view.json()
    assert body["step"] == 1 and engine(body).board.tolist() == body["board"]
    if seat.kind != "random":
        assert body["analysis"]["budget"] == seat.iterations


def test_a_puct_seat_plays_a_trained_network_named_when_the_server_started() -> None:
    pytest.importorskip("jax")
    text = f"puct:simulations=24,checkpoint={CHECKPOINT}"
    seat = _agents.Seat.parse(text)
    assert seat.kind == "puct" and seat.iterations == 24
    assert seat.label == "PUCT 24 (network latest.npz)"
    client = TestClient(create_app(checkpoints=[CHECKPOINT]))
    payload = {"game": "subsume", "options": {"size": 4}, "seats": ["human", text]}
    r = client.post("/api/sessions", json=payload)
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    client.post(f"/api/sessions/{sid}/move", json={"action": 0})
    view = client.post(f"/api/sessions/{sid}/agent", json={}).json()
    assert view["step"] == 2 and view["analysis"]["budget"] == 24
    # A server started without that checkpoint never reads it for a request.
    other = TestClient(create_app())
    r = other.post("/api/sessions", json=payload)
    assert r.status_code == 400 and "checkpoint is named when the server starts" in r.text
    r = other.post(
        "/api/sessions", json={**payload, "seats": ["human", "puct:checkpoint=/etc/passwd"]}
    )
    assert r.status_code == 400


def test_seat_budgets_of_puct_are_capped() -> None:
    for bad in (f"puct:simulations={_agents.MAX_ITERATIONS + 1}", "puct:simulations=0", "puct:x=1"):
        with pytest.raises(_agents.SeatError):
            _agents.Seat.parse(bad)
