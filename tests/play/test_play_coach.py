"""The play API's routes for players, with Starlette's test client: rules, moves by name,
share links (sessions from moves), hints, reviews, resignation, the preview on hover and the
agents' clock budget."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from test_play_api import SMALL, start

import stonefield as sf
from stonefield.play import _coach
from stonefield.play._app import create_app
from stonefield.play._rules import _find_change, rules
from stonefield.play._session import action_name, parse_action


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def test_rules_for_every_game_and_option_set() -> None:
    """Each game's rules have their diagrams; the text follows the options."""
    for game in sf.games():
        r = rules(sf.make(game))
        diagrams = [d for s in r["sections"] for d in s["diagrams"]]
        assert len(diagrams) >= 3, game
        assert all(d["svg"].startswith("<svg") and d["caption"] for d in diagrams)
        assert any("rule-cross" in d["svg"] for d in diagrams), game
    hull = rules(sf.make("smallholder", ruleset="hull_setbacks"))
    text = " ".join(t for s in hull["sections"] for t in s["text"])
    assert "smallest hexagon" in text and "wholly inside" in text
    cascade = rules(sf.make("windflowers", tiebreak="cascade", scoring="largest_group"))
    text = " ".join(t for s in cascade["sections"] for t in s["text"])
    assert "(cascade)" in text and "largest group" in text
    surplus = rules(sf.make("faraday", surplus_charge=True, grid="square_omni", order=4))
    text = " ".join(t for s in surplus["sections"] for t in s["text"])
    assert "Surplus charge (on)" in text and "4 or more" in text
    kept = rules(sf.make("subsume", anti_blob=False, remove_surrounded=False))
    text = " ".join(t for s in kept["sections"] for t in s["text"])
    assert "drawn faded" in text and "at least as many enemy" not in text


def test_rules_route(client: TestClient) -> None:
    r = client.post("/api/rules", json={"game": "faraday", "options": {"order": 4}})
    assert r.status_code == 200 and r.json()["game"] == "faraday"
    assert "37 sites" in r.json()["sections"][0]["text"][0]
    assert client.post("/api/rules", json={"game": "chess"}).status_code == 400
    assert client.post("/api/rules", json={"game": "subsume", "x": 1}).status_code == 400


def test_diagrams_show_what_they_say() -> None:
    """The capture diagram's position really captures, and the flip's really turns stones."""
    for game, want in (("smallholder", "removed"), ("subsume", "turned")):
        g = sf.make(game)
        found = _find_change(g, want)
        assert found is not None
        state, action = found
        before = state.board.copy()
        state.apply(action)
        changed = [s for s in range(g.num_sites) if before[s] and before[s] != state.board[s]]
        assert changed, game


def test_moves_by_name(client: TestClient) -> None:
    view = start(client, "faraday")
    sid = view["id"]
    # Site numbers, as earlier versions named sites, and site names both read.
    for text, action in (("3", 3), ("second c2", 19 + 5), ("  PASS ", 38), ("swap", 40)):
        r = client.post(f"/api/sessions/{sid}/move", json={"move": text})
        assert r.status_code == 200, r.text
        assert r.json()["line"][-1] == action
    names = [m["name"] for m in r.json()["moves"]]
    assert names == ["a2", "second c2", "pass", "swap"]
    # The move list's own labels are accepted too ("white c2" in the offer), by site name or
    # number.
    black = start(client, "faraday")
    r = client.post(f"/api/sessions/{black['id']}/move", json={"move": "black B1"})
    assert r.json()["line"] == [int(sf.make("faraday").parse_action("b1"))]
    # A name the board does not have says which names there are.
    bad = client.post(f"/api/sessions/{black['id']}/move", json={"move": "z9"})
    assert bad.status_code == 400 and "files a to" in bad.json()["error"]
    # A colour goes with a site only.
    bad = client.post(f"/api/sessions/{black['id']}/move", json={"move": "white pass"})
    assert bad.status_code == 400
    for text in ("White 5", "white c2"):
        view = start(client, "faraday")
        r = client.post(f"/api/sessions/{view['id']}/move", json={"move": text})
        assert r.json()["line"] == [24]
    bad = client.post(f"/api/sessions/{view['id']}/move", json={"move": "accept"})
    assert bad.status_code == 400 and "not a legal move" in bad.json()["error"]
    bad = client.post(f"/api/sessions/{view['id']}/move", json={"move": 5})
    assert bad.status_code == 400
    bad = client.post(f"/api/sessions/{view['id']}/move", json={"move": "  "})
    assert bad.status_code == 400
    assert client.get(f"/api/sessions/{view['id']}").json()["line"] == [24]


def test_every_action_name_parses_back() -> None:
    for game in sf.games():
        g = sf.make(game, **SMALL[game])
        for a in range(g.num_actions):
            assert parse_action(g, action_name(g, a)) == a


def test_sessions_from_moves(client: TestClient) -> None:
    view = start(client, "windflowers", moves=["5", "pass", 7])
    assert view["line"] == [5, 16, 7] and view["step"] == 3
    for moves, words in (
        (["5", "5"], "move 2"),
        ("5,6", "list"),
        ([True], "moves[0]"),
        (["x"], "move 1"),
    ):
        r = client.post(
            "/api/sessions",
            json={"game": "windflowers", "options": SMALL["windflowers"], "moves": moves},
        )
        assert r.status_code == 400 and words in r.json()["error"], (moves, r.json())
    r = client.post("/api/sessions", json={"game": "windflowers", "moves": [], "record": "{}"})
    assert r.status_code == 400


def test_hint_matches_the_strong_search(client: TestClient) -> None:
    view = start(client, "subsume")
    sid = view["id"]
    r = client.post(f"/api/sessions/{sid}/hint", json={"iterations": 500})
    assert r.status_code == 200
    h = r.json()
    state = sf.make("subsume", **SMALL["subsume"]).new_state()
    result = sf.MCTS(iterations=500, seed=h["seed"], preset="strong").analyse(state)
    assert h["action"] == int(result.best) and h["value"] == pytest.approx(float(result.value))
    assert h["site"] == h["action"] and h["player"] == 0
    assert h["name"] == state.game.site_names[h["site"]]
    assert client.post(f"/api/sessions/{sid}/hint", json={}).json()["iterations"] == (
        _coach.HINT_ITERATIONS
    )
    for bad in (0, -1, True, 10**9, "many"):
        assert client.post(f"/api/sessions/{sid}/hint", json={"iterations": bad}).status_code == 400
    # Nothing was played.
    assert client.get(f"/api/sessions/{sid}").json()["line"] == []


def test_review_has_one_entry_per_move(client: TestClient) -> None:
    view = start(client, "subsume", seats=["random", "random"])
    sid = view["id"]
    while not view["terminal"]:
        view = client.post(f"/api/sessions/{sid}/agent", json={}).json()
    r = client.post(f"/api/sessions/{sid}/review", json={"iterations": 200})
    assert r.status_code == 200
    review = r.json()
    assert [m["action"] for m in review["moves"]] == view["line"]
    assert [m["step"] for m in review["moves"]] == list(range(1, len(view["line"]) + 1))
    for m in review["moves"]:
        assert -1 <= m["after"] <= 1 and m["loss"] == pytest.approx(
            max(0, m["before"] - m["after"]), abs=1e-3
        )
        assert m["black"] == (m["after"] if m["player"] == 0 else -m["after"])
    last = review["moves"][-1]
    assert last["after"] == view["returns"][last["player"]]
    assert all(review["moves"][s - 1]["loss"] > 0.2 for s in review["worst"])
    assert review["complete"]


def test_review_finds_a_thrown_away_win() -> None:
    """On a board the solver handles, a move from a proven win to a loss is listed."""
    game = sf.make("smallholder", board="hex232323")
    state = game.new_state()
    win = sf.solve(state)
    assert win.value == 1
    losing = [int(a) for a, o in zip(win.actions, win.outcomes) if o == -1]
    line = [losing[0]]
    review = _coach.review(game, line, 100, seed=1)
    assert review["moves"][0]["solved"] == [1, -1]
    assert review["thrown"] == [1]


def test_resign(client: TestClient) -> None:
    view = start(client, "windflowers")
    sid = view["id"]
    client.post(f"/api/sessions/{sid}/move", json={"action": 3})
    r = client.post(f"/api/sessions/{sid}/resign", json={"player": 1})
    assert r.status_code == 200
    view = r.json()
    assert view["over"] and view["resigned"] == 1 and view["legal"] == []
    assert view["current_player"] is None and not view["human_to_move"]
    for path, body in (("/move", {"action": 4}), ("/agent", {}), ("/hint", {})):
        assert client.post(f"/api/sessions/{sid}{path}", json=body).status_code in (400, 409)
    assert client.post(f"/api/sessions/{sid}/resign", json={}).status_code in (400, 409)
    # Stepping back shows the game as it was, the resignation still at its end.
    back = client.post(f"/api/sessions/{sid}/goto", json={"step": 0}).json()
    assert not back["over"] and back["resigned"] is None
    end = client.post(f"/api/sessions/{sid}/goto", json={"step": 1}).json()
    assert end["resigned"] == 1
    for bad in ({"player": 5}, {"player": "x"}, {"reason": "bored"}):
        view = start(client)
        r = client.post(f"/api/sessions/{view['id']}/resign", json=bad)
        assert r.status_code == 400, bad


def test_preview_says_what_a_placement_does(client: TestClient) -> None:
    g = sf.make("smallholder")
    state, action = _find_change(g, "removed") or (None, 0)
    assert state is not None
    moves = [str(a) for a in state.history]
    r = client.post("/api/sessions", json={"game": "smallholder", "moves": moves})
    sid = r.json()["id"]
    p = client.get(f"/api/sessions/{sid}/hover?action={action}").json()
    after = state.copy()
    after.apply(action)
    gone = [s for s in range(g.num_sites) if state.board[s] and not after.board[s]]
    assert p["removed"] == gone and p["site"] == action and f"removes {len(gone)}" in p["text"]
    mover = state.current_player
    gained = [
        s for s in range(g.num_sites) if after.territory(mover)[s] and not state.territory(mover)[s]
    ]
    assert p["territory"][str(mover)] == gained
    # Nothing changed; a bad action is refused.
    assert client.get(f"/api/sessions/{sid}").json()["line"] == list(state.history)
    for bad in ("x", "-1", "99999"):
        assert client.get(f"/api/sessions/{sid}/hover?action={bad}").status_code == 400


def test_preview_of_faraday_lists_the_next_placements(client: TestClient) -> None:
    view = start(client, "faraday", moves=["3", "second 4", "second 10", "accept"])
    sid = view["id"]
    legal = view["legal"]
    p = client.get(f"/api/sessions/{sid}/hover?action={legal[0]}").json()
    after = sf.make("faraday", **SMALL["faraday"]).new_state()
    for a in view["line"] + [legal[0]]:
        after.apply(a)
    if after.current_player == view["current_player"] and not after.is_terminal():
        assert p["next"] == [int(a) for a in after.legal_actions()]
    else:
        assert p.get("next", []) == []


def test_preview_of_faraday_gives_the_charges_it_changes(client: TestClient) -> None:
    view = start(client, "faraday", moves=["3", "second 4", "second 10", "accept"])
    sid = view["id"]
    before = sf.make("faraday", **SMALL["faraday"]).new_state()
    for a in view["line"]:
        before.apply(a)
    n = before.game.num_sites
    for action in [a for a in view["legal"] if a < n][:6]:
        p = client.get(f"/api/sessions/{sid}/hover?action={action}").json()
        after = before.copy()
        after.apply(action)
        want = {
            str(k): [
                [s, int(after.charge_counts(k)[s])]
                for s in range(n)
                if after.charge_counts(k)[s] != before.charge_counts(k)[s]
            ]
            for k in range(2)
        }
        assert p["charges"] == want
        # A placement changes its owner's charge around it, and the text says so.
        assert want[str(before.current_player)]
        touched = {s for entries in want.values() for s, _ in entries}
        assert f"changes the charge around {len(touched)} sites" in p["text"]
    # Games without charges leave the key out.
    other = start(client, "subsume")
    q = client.get(f"/api/sessions/{other['id']}/hover?action={other['legal'][0]}").json()
    assert "charges" not in q


@pytest.mark.timing
def test_agent_time_budget(client: TestClient) -> None:
    view = start(client, "subsume", seats=["mcts:iterations=200000", "human"])
    sid = view["id"]
    for bad in (0, -1, True, "1", 1000):
        assert client.post(f"/api/sessions/{sid}/agent", json={"time": bad}).status_code == 400
    r = client.post(f"/api/sessions/{sid}/agent", json={"time": 0.05})
    assert r.status_code == 200 and r.json()["step"] == 1
    # The budget was cut short by the time (200,000 iterations take far longer).
    assert r.json()["analysis"]["iterations"] < 200_000
