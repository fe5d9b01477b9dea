"""The web application behind ``stonefield play``: a JSON API and the page that uses it.

Every route answers JSON (errors as ``{"error": message}``) except the page and its two static
files, which are read from the package once, when the application is made: no request ever
touches the file system. See docs/play.md for the routes.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import threading
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from importlib import resources
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import _core
from ..records import dumps, from_record, to_record
from ..render import to_svg
from . import _agents, _coach
from ._agents import Seat, SeatError
from ._options import option_spec
from ._rules import rules
from ._session import Session, SessionError, SessionStore, action_name, parse_action

#: The largest request body accepted (a record of a long game fits many times over).
MAX_BODY = 1 << 20
#: The Content-Security-Policy of every response: the page may load only its own script and
#: style and talk only to this server.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)
_STATIC = {"play.js": "text/javascript", "play.css": "text/css"}
#: The error of a request whose search the server's shutdown stopped (status 503).
SHUTTING_DOWN = "the server is shutting down"

Chooser = Callable[[Seat, _core.State, int, _agents.Publish], int]
_Scope = MutableMapping[str, Any]
_ASGI = Callable[[_Scope, Any, Any], Awaitable[None]]


class HTTPError(Exception):
    """Ends a request with a status and a JSON error message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _JSONErrors:
    """Answers any exception that escapes a route with a JSON 500 (``{"error": ...}``) inside
    the security headers, and logs it; never Starlette's plain-text page. A
    ``KeyboardInterrupt`` (a native call stopped by ``cancel_native_calls`` as the server shuts
    down) is a JSON 503."""

    def __init__(self, app: _ASGI) -> None:
        self.app = app

    async def __call__(self, scope: _Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: MutableMapping[str, Any]) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except KeyboardInterrupt:
            if started:
                raise
            response = JSONResponse({"error": SHUTTING_DOWN}, status_code=503)
            await response(scope, receive, send)
        except Exception as e:
            if started:
                raise
            logging.getLogger("stonefield.play").exception("unhandled error in %s", scope["path"])
            response = JSONResponse(
                {"error": f"internal error ({type(e).__name__}); the server goes on"},
                status_code=500,
            )
            await response(scope, receive, send)


class _SecurityHeaders:
    """Adds the Content-Security-Policy and related headers to every HTTP response."""

    def __init__(self, app: _ASGI) -> None:
        self.app = app

    async def __call__(self, scope: _Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"cache-control", b"no-store"),
                ]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    max_sessions: int = 64,
    choose: Chooser | None = None,
    allowed_hosts: Sequence[str] | None = None,
    checkpoints: Sequence[str] = (),
) -> Starlette:
    """The application: the page at ``/`` and the JSON API under ``/api``.

    Args:
        max_sessions: how many games are kept; a new one drops the one idle longest.
        choose: how agents pick their moves (``stonefield.play._agents.choose``); tests pass
            their own.
        allowed_hosts: the host names requests may address (the ``Host`` header), so that a web
            page elsewhere cannot reach this server through a domain that resolves to it (DNS
            rebinding); None accepts any.
        checkpoints: the network checkpoints a ``puct`` seat may name (those the server was
            started with); a request naming any other file is refused.

    Returns:
        A Starlette (ASGI) application, to run under uvicorn or drive with a test client.
        Its ``state.stopping`` (a ``threading.Event``) is set by
        ``_agents.shut_down(app.state.stopping)`` when its server stops: the searches of its
        agents, hints and reviews then stop and answer 503. It belongs to this application
        only: another made in the same process is not stopped with it.

    >>> from starlette.testclient import TestClient
    >>> client = TestClient(create_app())
    >>> r = client.post("/api/sessions", json={"game": "subsume", "options": {"size": 3},
    ...                                        "seats": ["human", "random"]})
    >>> r.status_code, r.json()["current_player"]
    (201, 0)
    """
    store = SessionStore(max_sessions)
    stopping = threading.Event()
    chooser: Chooser = choose or functools.partial(_agents.choose, stopping=stopping)
    # Searches run one per core at most; more wait their turn rather than slow every game.
    searches = anyio.CapacityLimiter(os.cpu_count() or 1)
    # Reviews (up to a minute each) run one at a time beside those, so that however many are
    # asked for, agents and hints never wait behind them.
    reviews = anyio.CapacityLimiter(1)
    # Random agents take microseconds: they never wait behind other games' searches.
    quick = anyio.CapacityLimiter(8)
    files = resources.files(__package__) / "static"
    page = (files / "index.html").read_bytes()
    static = {name: (files / name).read_bytes() for name in _STATIC}

    def session_of(request: Request) -> Session:
        session = store.get(request.path_params["sid"])
        if session is None:
            raise HTTPError(404, "no such session (it may have been dropped to make room)")
        return session

    def idle(session: Session) -> None:
        if session.busy:
            raise HTTPError(409, "an agent is thinking in this game; wait for its move")

    def running() -> None:
        """A 503 once the server shuts down: no new search starts."""
        if stopping.is_set():
            raise HTTPError(503, SHUTTING_DOWN)

    def unless_stopping(work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in a worker thread, unless the server began to shut down while the
        request waited for its turn (a search started after ``cancel_native_calls`` would not
        be stopped by it)."""
        if stopping.is_set():
            raise KeyboardInterrupt(SHUTTING_DOWN)
        return work(*args)

    def state(session: Session, request: Request, status: int = 200, **extra: Any) -> Response:
        numbers = request.query_params.get("numbers", "") in ("1", "true")
        return JSONResponse({**session.describe(numbers=numbers), **extra}, status_code=status)

    async def index(request: Request) -> Response:
        return Response(page, media_type="text/html; charset=utf-8")

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static:
            raise HTTPError(404, f"no static file {name!r}")
        return Response(static[name], media_type=_STATIC[name] + "; charset=utf-8")

    async def list_games(request: Request) -> Response:
        return JSONResponse(
            {
                "games": [
                    {"name": g, "options": option_spec(g), "defaults": _core.make(g).options}
                    for g in _core.games()
                ],
                "agents": _agents.available_kinds(),
                "strong": _agents.default_opponent() != "mcts",
                "limits": {
                    "max_iterations": _agents.MAX_ITERATIONS,
                    "default_iterations": _agents.DEFAULT_ITERATIONS,
                    "max_body": MAX_BODY,
                    "max_sessions": store.limit,
                    "perfect_max_sites": _agents.PERFECT_MAX_SITES,
                },
            }
        )

    async def create_session(request: Request) -> Response:
        body = await read_json(request)
        unknown = set(body) - {"game", "options", "seats", "record", "step", "moves"}
        if unknown:
            raise HTTPError(400, f"unknown field {sorted(unknown)[0]!r}")
        line: list[int] = []
        if "record" in body and "moves" in body:
            raise HTTPError(400, 'give "record" or "moves", not both')
        if "record" in body:
            try:
                loaded = from_record(body["record"])
            except _core.StonefieldError as e:
                raise HTTPError(400, str(e)) from None
            game = loaded.game
            line = [int(a) for a in loaded.history]
        else:
            game = make_game(body)
            if "moves" in body:
                line = parse_moves(game, body["moves"])
        seats = parse_seats(
            body.get("seats"), game, loose="record" in body, checkpoints=checkpoints
        )
        session = Session(game, seats, line)
        if "step" in body:
            session.goto(as_int(body["step"], "step"))
        store.add(session)
        return state(session, request, status=201)

    async def preview(request: Request) -> Response:
        body = await read_json(request)
        unknown = set(body) - {"game", "options"}
        if unknown:
            raise HTTPError(400, f"unknown field {sorted(unknown)[0]!r}")
        game = make_game(body)
        return JSONResponse(
            {
                "game": game.name,
                "options": dict(game.options),
                "num_players": game.num_players,
                "num_sites": game.num_sites,
                "board_shape": game.board_shape,
                "svg": to_svg(game, size=520, coordinates=True),
            }
        )

    async def game_rules(request: Request) -> Response:
        body = await read_json(request)
        unknown = set(body) - {"game", "options"}
        if unknown:
            raise HTTPError(400, f"unknown field {sorted(unknown)[0]!r}")
        game = make_game(body)
        return JSONResponse(await anyio.to_thread.run_sync(rules, game, limiter=quick))

    async def get_session(request: Request) -> Response:
        return state(session_of(request), request)

    async def delete_session(request: Request) -> Response:
        session = session_of(request)
        idle(session)
        store.remove(session.id)
        return Response(status_code=204)

    async def legal(request: Request) -> Response:
        session = session_of(request)
        view = session.describe()
        return JSONResponse(
            {
                "player": view["current_player"],
                "actions": view["legal"],
                "sites": view["legal_sites"],
                "buttons": view["buttons"],
            }
        )

    async def move(request: Request) -> Response:
        session = session_of(request)
        body = await read_json(request)
        idle(session)
        if "move" in body:
            if not isinstance(body["move"], str):
                raise HTTPError(400, '"move" is a move written out, such as "12" or "pass"')
            action = session.parse_move(body["move"])
        else:
            action = as_int(body.get("action"), "action")
        try:
            session.play(action)
        except _core.StonefieldError as e:
            raise HTTPError(400, str(e)) from None
        return state(session, request)

    async def undo(request: Request) -> Response:
        session = session_of(request)
        body = await read_json(request, optional=True)
        idle(session)
        session.undo(until_human=bool(body.get("until_human", False)))
        return state(session, request)

    async def goto(request: Request) -> Response:
        session = session_of(request)
        body = await read_json(request)
        idle(session)
        session.goto(as_int(body.get("step"), "step"))
        return state(session, request)

    async def truncate(request: Request) -> Response:
        session = session_of(request)
        await read_json(request, optional=True)
        idle(session)
        session.truncate()
        return state(session, request)

    async def set_seats(request: Request) -> Response:
        session = session_of(request)
        body = await read_json(request)
        idle(session)
        seats = parse_seats(body.get("seats"), session.game, loose=False, checkpoints=checkpoints)
        session.seats = seats
        session.touch()
        return state(session, request)

    async def agent_move(request: Request) -> Response:
        session = session_of(request)
        body = await read_json(request, optional=True)
        idle(session)
        player = session.state.current_player
        if player is None:
            raise HTTPError(409, "the game is over")
        if session.over_by_resignation():
            raise HTTPError(409, "the game is over: a player resigned")
        limit = body.get("time")
        if limit is not None and (
            isinstance(limit, bool)
            or not isinstance(limit, (int, float))
            or not 0 < limit <= _agents.MAX_SECONDS
        ):
            raise HTTPError(400, f'"time" is a number of seconds in (0, {_agents.MAX_SECONDS}]')
        if "agent" in body:
            seat = parse_seat(body["agent"], session.game, checkpoints)
        else:
            seat = session.seats[player]
        if not seat.is_agent:
            raise HTTPError(409, f"seat {player} is a human; name an agent to move for it")
        running()
        position = session.state.copy()
        seed = (session.seed + 7919 * position.move_count) % (1 << 31)
        session.busy = True
        session.thinking = {"player": player, "budget": seat.iterations, "iterations": 0}

        def publish(snap: dict[str, Any]) -> None:
            session.thinking = snap  # one assignment: readers see the old or the new snapshot

        try:
            limiter = quick if seat.kind == "random" else searches
            pick: Any = chooser
            if limit is not None:
                pick = functools.partial(chooser, seconds=float(limit))  # type: ignore[call-arg]
            action = await anyio.to_thread.run_sync(
                pick, seat, position, seed, publish, limiter=limiter
            )
            analysis = session.thinking if seat.kind != "random" else None
            session.play(int(action))
        except KeyboardInterrupt:
            # The server is shutting down and stopped the search (cancel_native_calls).
            raise HTTPError(503, SHUTTING_DOWN) from None
        except Exception as e:
            # Nothing was applied: the agent only ever saw a copy.
            raise HTTPError(500, f"the {seat.label} agent failed: {e}") from None
        finally:
            session.busy = False
            session.thinking = None
        return state(session, request, analysis=analysis)

    async def hint(request: Request) -> Response:
        session = session_of(request)
        body = await read_json(request, optional=True)
        idle(session)
        if session.state.is_terminal() or session.over_by_resignation():
            raise HTTPError(409, "the game is over: there is nothing to hint")
        iterations = budget(body, *_coach.budgets(session.game))
        running()
        position = session.state.copy()
        seed = (session.seed + 104_729 * position.move_count) % (1 << 31)
        session.busy = True
        try:
            answer = await anyio.to_thread.run_sync(
                unless_stopping, _coach.hint, position, iterations, seed, limiter=searches
            )
        except KeyboardInterrupt:
            # The server is shutting down and stopped the search (cancel_native_calls).
            raise HTTPError(503, SHUTTING_DOWN) from None
        finally:
            session.busy = False
        return JSONResponse({**answer, "step": position.move_count, "version": session.version})

    async def perfect(request: Request) -> Response:
        session = session_of(request)
        await read_json(request, optional=True)
        idle(session)
        refusal = _agents.perfect_refusal(session.game)
        if refusal is not None:
            raise HTTPError(409, refusal)
        if session.state.is_terminal() or session.over_by_resignation():
            raise HTTPError(409, "the game is over: every move's value is settled")
        running()
        position = session.state.copy()
        session.busy = True
        try:
            answer = await anyio.to_thread.run_sync(
                unless_stopping, _coach.perfect, position, limiter=searches
            )
        except KeyboardInterrupt:
            raise HTTPError(503, SHUTTING_DOWN) from None
        finally:
            session.busy = False
        return JSONResponse({**answer, "step": position.move_count, "version": session.version})

    async def review(request: Request) -> Response:
        session = session_of(request)
        body = await read_json(request, optional=True)
        idle(session)
        iterations = budget(body, *_coach.budgets(session.game, review=True))
        running()
        line = list(session.line)
        session.busy = True
        try:
            answer = await anyio.to_thread.run_sync(
                unless_stopping,
                functools.partial(_coach.review, stopping=stopping),
                session.game,
                line,
                iterations,
                session.seed,
                limiter=reviews,
            )
        except KeyboardInterrupt:
            raise HTTPError(503, SHUTTING_DOWN) from None
        finally:
            session.busy = False
        return JSONResponse(answer)

    async def resign(request: Request) -> Response:
        session = session_of(request)
        body = await read_json(request, optional=True)
        idle(session)
        player = body.get("player", session.state.current_player)
        if player is None:
            raise HTTPError(409, "the game is already over")
        reason = body.get("reason", "resigned")
        if reason not in ("resigned", "time"):
            raise HTTPError(400, '"reason" is "resigned" or "time"')
        session.resign(as_int(player, "player"), reason)
        return state(session, request)

    async def hover(request: Request) -> Response:
        session = session_of(request)
        raw = request.query_params.get("action", "")
        # ASCII digits only: str.isdigit() also takes "²" and "١٢", which int() refuses or
        # reads; and no action id has more than 10 digits (int() of thousands is refused too).
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 10:
            raise HTTPError(400, '"action" is an action id, such as ?action=12')
        try:
            return JSONResponse(session.preview(int(raw)))
        except _core.StonefieldError as e:
            raise HTTPError(400, str(e)) from None

    async def thinking(request: Request) -> Response:
        session = session_of(request)
        snap = session.thinking
        return JSONResponse({"active": session.busy, **(snap or {})})

    async def record(request: Request) -> Response:
        session = session_of(request)
        full = session.game.new_state()
        for a in session.line:
            full.apply(a)
        record = to_record(full)
        # Beside the actions, the moves in the notation the page shows (readers ignore extra
        # keys), and a resignation, which the engine's result does not know of.
        record["moves"] = [action_name(session.game, a) for a in session.line]
        if session.resigned is not None:
            record["resigned"] = {"player": session.resigned, "reason": session.resign_reason}
        text = dumps(record)
        headers = {}
        if request.query_params.get("download", "") in ("1", "true"):
            name = f"{session.game.name}-{len(session.line)}.json"
            headers["content-disposition"] = f'attachment; filename="{name}"'
        return Response(text, media_type="application/json", headers=headers)

    async def error_response(request: Request, exc: Exception) -> Response:
        if isinstance(exc, StarletteHTTPException):
            message = {404: "no such page or route", 405: "method not allowed here"}
            return JSONResponse(
                {"error": message.get(exc.status_code, str(exc.detail))},
                status_code=exc.status_code,
                headers=exc.headers,
            )
        if isinstance(exc, HTTPError):
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        if isinstance(exc, SessionError):
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        if isinstance(exc, SeatError):
            return JSONResponse({"error": str(exc)}, status_code=400)
        raise exc

    sid = "/api/sessions/{sid}"
    routes = [
        Route("/", index),
        Route("/static/{name}", static_file),
        Route("/api/games", list_games),
        Route("/api/preview", preview, methods=["POST"]),
        Route("/api/rules", game_rules, methods=["POST"]),
        Route("/api/sessions", create_session, methods=["POST"]),
        Route(sid, get_session, methods=["GET"]),
        Route(sid, delete_session, methods=["DELETE"]),
        Route(sid + "/legal", legal),
        Route(sid + "/move", move, methods=["POST"]),
        Route(sid + "/undo", undo, methods=["POST"]),
        Route(sid + "/goto", goto, methods=["POST"]),
        Route(sid + "/truncate", truncate, methods=["POST"]),
        Route(sid + "/seats", set_seats, methods=["POST"]),
        Route(sid + "/agent", agent_move, methods=["POST"]),
        Route(sid + "/thinking", thinking),
        Route(sid + "/hint", hint, methods=["POST"]),
        Route(sid + "/perfect", perfect, methods=["POST"]),
        Route(sid + "/review", review, methods=["POST"]),
        Route(sid + "/resign", resign, methods=["POST"]),
        Route(sid + "/hover", hover),
        Route(sid + "/record", record),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            StarletteHTTPException: error_response,
            HTTPError: error_response,
            SessionError: error_response,
            SeatError: error_response,
        },
    )
    # Added innermost first: the JSON 500 comes out through the host check and the headers.
    app.add_middleware(_JSONErrors)
    if allowed_hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    app.add_middleware(_SecurityHeaders)
    app.state.sessions = store
    app.state.stopping = stopping
    return app


async def read_json(request: Request, optional: bool = False) -> dict[str, Any]:
    """The request's JSON object; 413 past :data:`MAX_BODY` bytes, 400 for anything not an
    object. An empty body is ``{}`` when ``optional``.

    The content type must be ``application/json`` (415 otherwise): a page on another site can
    only send that after a CORS preflight, which this server never grants, so no other site can
    make a browser change a game here.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HTTPError(415, 'send the body as JSON, with "content-type: application/json"')
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise HTTPError(413, f"request bodies are at most {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HTTPError(413, f"request bodies are at most {MAX_BODY} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip() and optional:
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        # JSONDecodeError, and integers past Python's digit limit (a ValueError).
        raise HTTPError(400, f"the body is not valid JSON: {str(e)[:200]}") from None
    except RecursionError:
        raise HTTPError(400, "the body is not valid JSON: nested too deeply") from None
    if not isinstance(body, dict):
        raise HTTPError(400, "the body is a JSON object")
    return body


def make_game(body: dict[str, Any]) -> _core.Game:
    """The game a body's ``game`` and ``options`` name, or a 400 quoting the engine."""
    name = body.get("game")
    options = body.get("options", {})
    if not isinstance(name, str):
        raise HTTPError(400, f'"game" is one of {_core.games()}')
    if not isinstance(options, dict) or not all(
        isinstance(v, (bool, int, str)) for v in options.values()
    ):
        raise HTTPError(400, '"options" is an object of booleans, integers and strings')
    try:
        return _core.make(name, **options)
    except _core.StonefieldError as e:
        raise HTTPError(400, str(e)) from None


def as_int(value: Any, name: str) -> int:
    """A JSON integer (not a boolean), or a 400 naming the field."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise HTTPError(400, f'"{name}" is an integer, got {json.dumps(value)}')
    return value


def budget(body: dict[str, Any], default: int, most: int = _agents.MAX_ITERATIONS) -> int:
    """A request's ``iterations`` (1..``most``), or ``default``: the budget of the coach's
    search (see :func:`stonefield.play._coach.budgets`)."""
    if "iterations" not in body:
        return default
    iterations = as_int(body["iterations"], "iterations")
    if not 1 <= iterations <= most:
        raise HTTPError(400, f'"iterations" is 1..{most}, got {iterations}')
    return iterations


def parse_moves(game: _core.Game, moves: Any) -> list[int]:
    """The actions of a list of moves, each an action id or a move in the core's notation (as
    share links carry them), legal in turn from the start; a 400 names the first bad one."""
    if not isinstance(moves, list):
        raise HTTPError(400, '"moves" is a list of moves, such as ["12", "pass"]')
    state = game.new_state()
    line = []
    for i, move in enumerate(moves):
        try:
            if isinstance(move, str):
                action = parse_action(game, move)
            else:
                action = as_int(move, f"moves[{i}]")
            state.apply(action)
        except _core.StonefieldError as e:
            raise HTTPError(400, f"move {i + 1} ({move!r}): {e}") from None
        line.append(action)
    return line


def parse_seat(spec: Any, game: _core.Game, checkpoints: Sequence[str] = ()) -> Seat:
    """A seat that can play ``game``, or a 400 saying why not (a perfect seat where perfect
    play is not offered: a large board, more than two players)."""
    try:
        seat = Seat.parse(spec, checkpoints)
    except SeatError as e:
        raise HTTPError(400, str(e)) from None
    why = seat.refusal(game)
    if why is not None:
        raise HTTPError(400, f"a perfect seat: {why}" if seat.kind == "perfect" else why)
    return seat


def parse_seats(
    spec: Any, game: _core.Game, loose: bool, checkpoints: Sequence[str] = ()
) -> list[Seat]:
    """One seat per player of ``game``. Missing seats are humans; with ``loose`` (a loaded
    record, whose player count the page may not know) a list of the wrong length is
    ignored."""
    players = game.num_players
    if spec is None:
        return [Seat("human")] * players
    if not isinstance(spec, list):
        raise HTTPError(400, '"seats" is a list with one entry per player')
    if len(spec) != players:
        if loose:
            return [Seat("human")] * players
        raise HTTPError(400, f"this game has {players} players; got {len(spec)} seats")
    return [parse_seat(s, game, checkpoints) for s in spec]
