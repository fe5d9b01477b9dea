"""Fuzz targets kept in the suite (hypothesis): every input that reaches a parser, a loader or
the play server's JSON API has exactly two outcomes, success or the documented typed error.

* records (`from_record`): a State, or RecordError;
* results-file lines (the lab): a run, or RecordError naming the line;
* self-play archives (`SelfPlayData.load`): the data, or RecordError;
* agent strings (`parse_agent`): an agent, or InvalidOptionError;
* every JSON route of the play server, with arbitrary bodies, ids and content types: a JSON
  answer with the security headers and a status among 200, 201, 204 (a DELETE, no body), 400,
  404, 409, 413 and 415,
  never a 500 or a plain-text error.

CI runs the modest profile; a long search (STONEFIELD_HYPOTHESIS=long, see conftest.py):

    STONEFIELD_HYPOTHESIS=long pytest tests/core/test_fuzz.py
"""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stonefield as sf

# JSON values of every shape, with the edge values that broke parsers before.
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["subsume", "windflowers", "faraday", "smallholder", "mcts", "random"])
)
_json = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_no_fixture_check = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])


# -- records --------------------------------------------------------------------------------


def _record_like() -> st.SearchStrategy[Any]:
    base = sf.to_record(sf.make("subsume", size=3).new_state())
    fields = st.fixed_dictionaries(
        {},
        optional={
            "format": st.sampled_from([base["format"], "x"]) | _json,
            "format_version": st.sampled_from([base["format_version"]]) | _json,
            "game": st.sampled_from(sf.games()) | _json,
            "options": st.dictionaries(st.sampled_from(["size", "players", "x"]), _scalars),
            "rules_version": st.just(base["rules_version"]) | _json,
            "actions": st.lists(st.integers(-2, 40) | _scalars, max_size=8),
            "result": _json,
        },
    )
    return fields | _json


@given(_record_like())
def test_records_load_or_raise_record_error(record: Any) -> None:
    for form in (record, json.dumps(record)):
        try:
            state = sf.from_record(form)
        except sf.RecordError:
            continue
        assert isinstance(state, sf.State)


# -- results-file lines ---------------------------------------------------------------------

_LAB: dict[str, Any] = dict(vary={"size": [3, 4]}, games=20, seed=2, chunk=10, threads=1)


@pytest.fixture(scope="module")
def results_file(tmp_path_factory: Any) -> bytes:
    path = tmp_path_factory.mktemp("lab") / "runs.jsonl"
    sf.lab.evaluate("subsume", out=str(path), **_LAB)
    return Path(path).read_bytes()


def _line() -> st.SearchStrategy[bytes]:
    entry = st.fixed_dictionaries(
        {},
        optional={
            "kind": st.sampled_from(["games", "skill", "kingmaking"]) | _scalars,
            "variant": st.integers(-1, 3) | _scalars,
            "first": st.integers(-1, 25) | _scalars,
            "count": st.integers(-1, 25) | _scalars,
            "stats": st.dictionaries(st.sampled_from(["length", "returns", "x"]), _json),
            "records": _json,
            "games": _json,
        },
    )
    as_text = (entry | _json).map(lambda v: json.dumps(v).encode())
    return as_text | st.binary(max_size=40)


@_no_fixture_check
@given(where=st.integers(0, 5), line=_line(), newline=st.booleans())
def test_results_file_lines_run_or_raise_record_error(
    results_file: bytes, tmp_path: Path, where: int, line: bytes, newline: bool
) -> None:
    lines = results_file.split(b"\n")[:-1]
    lines.insert(min(where, len(lines)), line.replace(b"\n", b" "))
    path = tmp_path / "fuzz.jsonl"
    path.write_bytes(b"\n".join(lines) + (b"\n" if newline else b""))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            lab = sf.lab.evaluate("subsume", out=str(path), **_LAB)
    except sf.RecordError:
        return
    except sf.InvalidOptionError as e:  # a header changed into other arguments
        assert where == 0 and "other arguments" in str(e)
        return
    assert [r["games"] for r in lab.rows()] == [20, 20]


# -- self-play archives ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def archive() -> bytes:
    buf = io.BytesIO()
    sf.selfplay("subsume", "mcts:iterations=20", games=2, seed=1, size=3).save(buf)
    return buf.getvalue()


@_no_fixture_check
@given(
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)), max_size=4),
    cut=st.none() | st.integers(0, 10**6),
)
def test_selfplay_archives_load_or_raise_record_error(
    archive: bytes, flips: list[tuple[int, int]], cut: int | None
) -> None:
    data = bytearray(archive)
    for at, xor in flips:
        data[at % len(data)] ^= xor
    if cut is not None:
        data = data[: cut % (len(data) + 1)]
    try:
        loaded = sf.SelfPlayData.load(io.BytesIO(bytes(data)))
    except sf.RecordError:
        return
    assert loaded.observations.shape[0] == loaded.policies.shape[0]


# -- agent strings --------------------------------------------------------------------------

_agent_text = st.one_of(
    st.text(max_size=30),
    st.builds(
        lambda name, items: name + (":" if items else "") + ",".join(items),
        st.sampled_from(["mcts", "random", "MCTS", "x", ""]),
        st.lists(
            st.builds(
                lambda k, v: f"{k}={v}",
                st.sampled_from(
                    ["iterations", "time", "c", "threads", "solver", "seed", "max_nodes", "reuse"]
                )
                | st.text(max_size=5),
                st.sampled_from(["0", "-1", "1e19", "nan", "inf", "true", "2**64", "1.5", ""])
                | st.integers(-(2**65), 2**65).map(str)
                | st.text(max_size=5),
            ),
            max_size=4,
        ),
    ),
)


@given(_agent_text)
def test_agent_strings_parse_or_raise_invalid_option(text: str) -> None:
    try:
        agent = sf.parse_agent(text)
    except sf.InvalidOptionError:
        return
    assert callable(agent.act)


# -- the play server's JSON API -------------------------------------------------------------

_ALLOWED = {200, 201, 204, 400, 404, 409, 413, 415}


@pytest.fixture(scope="module")
def client() -> Any:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from stonefield.play._app import create_app

    def quick(seat: Any, state: sf.State, seed: int, publish: Any) -> int:
        return int(state.legal_actions()[0])  # agents answer at once

    with TestClient(create_app(choose=quick), raise_server_exceptions=False) as c:
        yield c


_ROUTES = [
    ("POST", "/api/sessions"),
    ("POST", "/api/preview"),
    ("GET", "/api/sessions/{sid}"),
    ("DELETE", "/api/sessions/{sid}"),
    ("GET", "/api/sessions/{sid}/legal"),
    ("POST", "/api/sessions/{sid}/move"),
    ("POST", "/api/sessions/{sid}/undo"),
    ("POST", "/api/sessions/{sid}/goto"),
    ("POST", "/api/sessions/{sid}/truncate"),
    ("POST", "/api/sessions/{sid}/seats"),
    ("POST", "/api/sessions/{sid}/agent"),
    ("GET", "/api/sessions/{sid}/thinking"),
    ("GET", "/api/sessions/{sid}/record"),
    ("GET", "/api/games"),
    ("POST", "/api/rules"),
    ("POST", "/api/sessions/{sid}/hint"),
    ("POST", "/api/sessions/{sid}/review"),
    ("POST", "/api/sessions/{sid}/perfect"),
    ("POST", "/api/sessions/{sid}/resign"),
    ("GET", "/api/sessions/{sid}/hover"),
    ("GET", "/api/sessions/{sid}/hover?action=3"),
]
_body_dict = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["subsume", "windflowers", "faraday", "smallholder"]) | _scalars,
        "options": st.dictionaries(st.sampled_from(["size", "players", "grid", "x"]), _scalars),
        "seats": st.lists(
            st.sampled_from(["human", "random", "mcts:5", "mcts:0", "x"]) | _json, max_size=5
        )
        | _scalars,
        "action": st.integers(-2, 50) | _scalars,
        "step": st.integers(-2, 50) | _scalars,
        "agent": st.sampled_from(["random", "mcts:3", "human", "x"]) | _json,
        "record": _json,
        "until_human": _scalars,
        "move": st.sampled_from(["3", "pass", "second 2", "x"]) | _scalars,
        "moves": st.lists(st.sampled_from(["3", "4", "pass", "x"]) | _scalars, max_size=4)
        | _scalars,
        "iterations": st.integers(-2, 50) | _scalars,
        "player": st.integers(-1, 3) | _scalars,
        "reason": st.sampled_from(["resigned", "time", "x"]) | _scalars,
        "time": st.floats(-1, 0.05) | _scalars,
    },
)
_body = st.one_of(
    (_body_dict | _json).map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=30),
    st.sampled_from([b"", b"[" * 5000, b'{"step": ' + b"9" * 5000 + b"}", b"\xff\xfe"]),
)
_content_type = st.sampled_from(
    ["application/json", "application/json; charset=utf-8", "text/plain", "", "APPLICATION/JSON"]
)


@_no_fixture_check
@given(
    route=st.sampled_from(_ROUTES),
    body=_body,
    content_type=_content_type,
    sid=st.sampled_from(["real", "real", "nope", "..", "%2e%2e", "x" * 300]),
)
def test_every_json_route_answers_json_with_a_documented_status(
    client: Any, route: tuple[str, str], body: bytes, content_type: str, sid: str
) -> None:
    if sid == "real":
        made = client.post("/api/sessions", json={"game": "subsume", "options": {"size": 3}})
        sid = made.json()["id"]
    method, path = route
    headers = {"content-type": content_type} if content_type else {}
    r = client.request(method, path.format(sid=sid), content=body, headers=headers)
    assert r.status_code in _ALLOWED, (method, path, r.status_code, r.text[:200])
    assert "content-security-policy" in r.headers
    if r.status_code == 204:  # DELETE of a session: success, no body
        assert r.content == b""
        return
    assert r.headers["content-type"].startswith("application/json"), r.headers["content-type"]
    assert "content-security-policy" in r.headers
    payload = r.json()
    if r.status_code >= 400:
        assert isinstance(payload.get("error"), str)


def test_the_fuzzed_routes_are_every_api_route() -> None:
    pytest.importorskip("starlette")
    from stonefield.play import create_app

    app = create_app()
    api = {
        (m, r.path)
        for r in app.routes
        if getattr(r, "path", "").startswith("/api")
        for m in (getattr(r, "methods", None) or {"GET"}) - {"HEAD"}
    }
    fuzzed = {(m, path.partition("?")[0]) for m, path in _ROUTES}
    assert api == fuzzed
