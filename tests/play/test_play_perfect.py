"""Perfect play on the page's small boards: the perfect-play value of every legal move
(``POST /api/sessions/{id}/perfect``), the perfect seat (the solver), and the review's marks on
every move that changed the perfect-play value."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

import stonefield as sf
from stonefield.play import _agents, _coach
from stonefield.play._app import create_app

#: Windflowers on the trisquare board of size 3 with a cap of 12 moves, after 8 moves: four
#: moves are left, so every line can be played out by hand (below, by brute force). The mover
#: (player 0) draws with every placement; passing (action 14) loses.
DRAWN = {"game": "windflowers", "options": {"size": 3, "max_moves": 12}}
DRAWN_LINE = [12, 6, 0, 5, 10, 11, 9, 7]


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def negamax(state: sf.State) -> int:
    """The value for the mover by playing every line out (the rules alone, no solver)."""
    if state.is_terminal():
        raise AssertionError("asked of a finished game")
    mover = state.current_player
    best = -2
    for a in state.legal_actions().tolist():
        child = state.copy()
        child.apply(int(a))
        best = max(best, value_for(child, mover))
    return best


def value_for(state: sf.State, player: int | None) -> int:
    """The value of ``state`` for ``player`` under perfect play."""
    if state.is_terminal():
        returns = state.returns()
        assert returns is not None and player is not None
        return int(round(float(returns[player])))
    v = negamax(state)
    return v if state.current_player == player else -v


def session(client: TestClient, body: dict[str, Any]) -> str:
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_perfect_values_of_every_move_match_the_game_played_out(client: TestClient) -> None:
    sid = session(client, {**DRAWN, "moves": DRAWN_LINE, "seats": ["human", "human"]})
    r = client.post(f"/api/sessions/{sid}/perfect", json={})
    assert r.status_code == 200, r.text
    p = r.json()
    state = sf.make(DRAWN["game"], **DRAWN["options"]).new_state()  # type: ignore[arg-type]
    for a in DRAWN_LINE:
        state.apply(a)
    assert p["player"] == state.current_player == 0
    assert p["settled"] and p["stopped_by"] == "solved" and p["step"] == len(DRAWN_LINE)
    assert [m["action"] for m in p["moves"]] == state.legal_actions().tolist()
    by_hand = {}
    for a in state.legal_actions().tolist():
        child = state.copy()
        child.apply(int(a))
        by_hand[int(a)] = value_for(child, 0)
    assert {m["action"]: m["value"] for m in p["moves"]} == by_hand
    assert {m["action"]: m["word"] for m in p["moves"]} == {
        1: "draw",
        2: "draw",
        3: "draw",
        4: "draw",
        8: "draw",
        13: "draw",
        14: "loss",
    }
    assert p["value"] == negamax(state) == 0
    assert all(m["site"] == state.game.action_site(m["action"]) for m in p["moves"])
    assert [m["site"] for m in p["moves"] if m["action"] == 14] == [None]  # the pass
    assert "draw for the player to move" in p["message"]
    # Nothing was played.
    assert client.get(f"/api/sessions/{sid}").json()["line"] == DRAWN_LINE


def test_perfect_play_is_refused_where_the_solver_does_not_reach(client: TestClient) -> None:
    big = session(client, {"game": "subsume", "seats": ["human", "human"]})
    r = client.post(f"/api/sessions/{big}/perfect", json={})
    assert r.status_code == 409
    assert "at most 30 sites" in r.json()["error"] and "has 91" in r.json()["error"]
    three = session(
        client,
        {"game": "windflowers", "options": {"players": 3, "size": 3}, "seats": ["human"] * 3},
    )
    r = client.post(f"/api/sessions/{three}/perfect", json={})
    assert r.status_code == 409 and "two-player" in r.json()["error"]
    # A finished game has no moves to value.
    sid = session(client, {"game": "smallholder", "options": {"board": "hex232323"}})
    state = sf.make("smallholder", board="hex232323").new_state()
    while not state.is_terminal():
        a = int(state.legal_actions()[0])
        state.apply(a)
        client.post(f"/api/sessions/{sid}/move", json={"action": a})
    r = client.post(f"/api/sessions/{sid}/perfect", json={})
    assert r.status_code == 409 and "over" in r.json()["error"]


def test_a_position_the_solver_does_not_settle_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_agents, "PERFECT_NODES", 50)
    state = sf.make("smallholder", board="hex343434").new_state()
    p = _coach.perfect(state)
    assert not p["settled"] and p["stopped_by"] == "nodes" and p["value"] is None
    assert any(m["word"] == "unknown" for m in p["moves"])
    assert "within its budget" in p["message"] and "unknown" in p["message"]


def test_the_perfect_seat_keeps_a_won_game_won(client: TestClient) -> None:
    # hex232323 is a first-player win (docs/solved/results.md); site 0 throws it away, and
    # the perfect seat, moving second, takes the win and keeps it to the end.
    catalog = client.get("/api/games").json()
    assert "perfect" in catalog["agents"] and catalog["limits"]["perfect_max_sites"] == 30
    body = {"game": "smallholder", "options": {"board": "hex232323"}}
    sid = session(client, {**body, "seats": ["human", "perfect"]})
    view = client.post(f"/api/sessions/{sid}/move", json={"action": 0}).json()
    assert view["players"][1]["label"] == "perfect (solver)"
    while not view["terminal"]:
        if view["current_player"] == 1:
            r = client.post(f"/api/sessions/{sid}/agent", json={})
        else:
            # Player 0 plays the solver's best reply too: the game is lost all the same.
            state = sf.make("smallholder", board="hex232323").new_state()
            for a in view["line"]:
                state.apply(a)
            assert sf.solve(state).value == -1
            r = client.post(f"/api/sessions/{sid}/agent", json={"agent": "perfect"})
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["returns"] == [-1.0, 1.0]


def test_the_perfect_seat_is_refused_on_big_boards(client: TestClient) -> None:
    r = client.post("/api/sessions", json={"game": "subsume", "seats": ["human", "perfect"]})
    assert r.status_code == 400 and "at most 30 sites" in r.json()["error"]
    sid = session(client, {"game": "subsume", "seats": ["human", "human"]})
    r = client.post(f"/api/sessions/{sid}/seats", json={"seats": ["perfect", "human"]})
    assert r.status_code == 400 and "perfect seat" in r.json()["error"]
    r = client.post(f"/api/sessions/{sid}/agent", json={"agent": "perfect"})
    assert r.status_code == 400 and "has 91" in r.json()["error"]
    with pytest.raises(_agents.SeatError, match="takes no settings"):
        _agents.Seat.parse("perfect:nodes=5")
    assert _agents.Seat.parse(_agents.Seat.parse("perfect").agent) == _agents.Seat("perfect")


def test_review_marks_every_move_that_changed_the_perfect_value(client: TestClient) -> None:
    # The drawn position above, then a pass: a draw thrown into a loss (not a thrown win).
    line = [*DRAWN_LINE, 14]
    sid = session(client, {**DRAWN, "moves": line, "seats": ["human", "human"]})
    r = client.post(f"/api/sessions/{sid}/review", json={"iterations": 50})
    assert r.status_code == 200, r.text
    review = r.json()
    last = review["moves"][-1]
    assert last["solved"] == [0, -1] and last["perfect"] == "draw → loss"
    assert len(line) in review["changed"] and len(line) not in review["thrown"]
    # Every listed move changed a value the solver proved on both sides, and only those.
    for m in review["moves"]:
        changed = "solved" in m and m["solved"][0] != m["solved"][1]
        assert (m["step"] in review["changed"]) == changed == ("perfect" in m)
    # A won position thrown into a loss is both changed and thrown.
    game = sf.make("smallholder", board="hex232323")
    thrown = _coach.review(game, [0], 50, seed=1)
    assert thrown["changed"] == thrown["thrown"] == [1]
    assert thrown["moves"][0]["perfect"] == "win → loss"
