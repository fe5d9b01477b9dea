"""The expert on the play page: its level, its seats, and Hint and Review where it coaches."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

import stonefield as sf
from stonefield.experts import DEFAULT_SIMULATIONS
from stonefield.play import _agents, _coach
from stonefield.play._app import create_app


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def test_the_level_menu_offers_the_expert(client: TestClient) -> None:
    assert "expert" in client.get("/api/games").json()["agents"]
    assert "Expert (trained network)" in client.get("/static/play.js").text
    seat = _agents.Seat.parse("expert")
    assert seat.label == "Expert (trained network)" and seat.agent == "expert"
    assert seat.iterations == DEFAULT_SIMULATIONS
    assert _agents.Seat.parse("expert:simulations=50").label == (
        "Expert (trained network), 50 simulations"
    )


@pytest.mark.parametrize(
    ("game", "options"),
    [("subsume", {}), ("subsume", {"size": 4}), ("faraday", {"order": 4})],
)
def test_an_expert_seat_moves_on_any_size(
    client: TestClient, game: str, options: dict[str, int]
) -> None:
    payload = {"game": game, "options": options, "seats": ["expert:simulations=16", "human"]}
    r = client.post("/api/sessions", json=payload)
    assert r.status_code == 201, r.text
    view = r.json()
    assert view["players"][0]["agent"] == "expert:simulations=16"
    r = client.post(f"/api/sessions/{view['id']}/agent", json={})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["step"] == 1 and body["analysis"]["budget"] == 16
    assert body["line"][0] in sf.make(game, **options).new_state().legal_actions()


def test_a_board_the_expert_cannot_play_is_refused(client: TestClient) -> None:
    payload = {"game": "windflowers", "options": {"players": 3}, "seats": ["expert"] * 3}
    r = client.post("/api/sessions", json=payload)
    assert r.status_code == 400
    assert "the expert network of windflowers" in r.json()["error"]
    for bad in ("expert:time=1", "expert:threads=2", "expert:simulations=0", "expert:c=x"):
        with pytest.raises(_agents.SeatError):
            _agents.Seat.parse(bad)


def test_the_coach_is_the_expert_on_the_board_its_network_learned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The games whose network beat the strong search (EXPERT_COACHES) follow the measurements;
    # the rule is checked with every game in the list, and with none.
    monkeypatch.setattr(_coach, "EXPERT_COACHES", tuple(sf.games()))
    for name in sf.games():
        assert _coach.coach(sf.make(name)) == "expert"
    assert _coach.coach(sf.make("subsume", size=3)) == "strong"
    assert _coach.coach(sf.make("windflowers", players=3)) == "strong"
    assert _coach.budgets(sf.make("subsume")) == (
        _coach.HINT_SIMULATIONS,
        _coach.HINT_MAX_SIMULATIONS,
    )
    assert _coach.budgets(sf.make("subsume", size=3), review=True) == (
        _coach.REVIEW_ITERATIONS,
        _coach.REVIEW_MAX_ITERATIONS,
    )
    monkeypatch.setattr(_coach, "EXPERT_COACHES", ())
    for name in sf.games():
        assert _coach.coach(sf.make(name)) == "strong"
    assert _coach.budgets(sf.make("subsume")) == (
        _coach.HINT_ITERATIONS,
        _coach.MAX_ITERATIONS,
    )


def test_hint_on_a_default_board_is_the_experts(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_coach, "EXPERT_COACHES", ("subsume",))
    r = client.post("/api/sessions", json={"game": "subsume", "seats": ["human", "random"]})
    sid = r.json()["id"]
    h = client.post(f"/api/sessions/{sid}/hint", json={"iterations": 24}).json()
    assert h["coach"] == "expert" and h["iterations"] == 24
    state = sf.make("subsume").new_state()
    result = sf.expert(state.game, simulations=24, seed=h["seed"]).analyse(state)
    assert h["action"] == int(result.best) and h["value"] == pytest.approx(float(result.value))
    too_many = _coach.HINT_MAX_SIMULATIONS + 1
    r = client.post(f"/api/sessions/{sid}/hint", json={"iterations": too_many})
    assert r.status_code == 400
    # A small board keeps the strong search.
    r = client.post(
        "/api/sessions", json={"game": "subsume", "options": {"size": 3}, "seats": ["human"] * 2}
    )
    h = client.post(f"/api/sessions/{r.json()['id']}/hint", json={"iterations": 50}).json()
    assert h["coach"] == "strong"


def test_review_on_a_default_board_is_the_experts(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_coach, "EXPERT_COACHES", ("faraday",))
    game = sf.make("faraday")
    state = game.new_state()
    line = []
    for _ in range(3):
        line.append(int(state.legal_actions()[0]))
        state.apply(line[-1])
    r = client.post("/api/sessions", json={"game": "faraday", "moves": line})
    assert r.status_code == 201, r.text
    review = client.post(f"/api/sessions/{r.json()['id']}/review", json={"iterations": 8}).json()
    assert review["coach"] == "expert" and review["iterations"] == 8
    assert [m["action"] for m in review["moves"]] == line and review["complete"]
