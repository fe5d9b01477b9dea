"""Play and replay games in the browser: ``stonefield play``.

A small local web server (Starlette under uvicorn, the ``stonefield[play]`` extra) serves a page
that shows the board as stonefield's SVG, plays human moves by clicks, lets agents (random, MCTS)
move without blocking the page while their search is drawn live, and saves, loads and steps
through game records. The page talks to a JSON API that scripts can use too (see docs/play.md).

This subpackage imports Starlette only when used, so ``import stonefield`` stays light.

>>> from stonefield.play import play_url
>>> play_url("http://127.0.0.1:8000", "windflowers", {"size": 3}, ["human", "random"])
'http://127.0.0.1:8000/?game=windflowers&o.size=3&seats=human%2Crandom'
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
import webbrowser
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from . import _agents
from ._agents import default_opponent

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["create_app", "default_opponent", "play_url", "serve"]


def create_app(
    max_sessions: int = 64,
    allowed_hosts: Sequence[str] | None = None,
    checkpoints: Sequence[str] = (),
) -> Starlette:
    """The ASGI application of the page and its JSON API (see :func:`._app.create_app`)."""
    from ._app import create_app as make

    return make(max_sessions=max_sessions, allowed_hosts=allowed_hosts, checkpoints=checkpoints)


def play_url(
    base: str,
    game: str | None = None,
    options: dict[str, Any] | None = None,
    seats: Sequence[str] | None = None,
) -> str:
    """The page's address, opening ``game`` with ``options`` and ``seats`` at once.

    Without a game the page opens on its form, where the game and its options are chosen.
    """
    query: dict[str, str] = {}
    if game is not None:
        query["game"] = game
        for key, value in (options or {}).items():
            query[f"o.{key}"] = str(value).lower() if isinstance(value, bool) else str(value)
        if seats:
            query["seats"] = ",".join(seats)
    return base.rstrip("/") + "/" + ("?" + urlencode(query) if query else "")


def serve(
    game: str | None = None,
    options: dict[str, Any] | None = None,
    seats: Sequence[str] | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    open_browser: bool = True,
) -> None:
    """Runs the server until Ctrl-C: binds ``host:port`` (port 0: a free one), prints the address
    and opens the browser on it.

    Args:
        game: the game to open at once (None: the page's form).
        options: the game's options.
        seats: one seat per player: ``"human"`` or an agent string (``"random"``,
            ``"mcts:iterations=N"``, ``"puct:simulations=N,checkpoint=PATH"``); the checkpoints
            named here are the only ones the page may seat.
        host: the address to listen on; anything but a loopback address makes the server
            reachable from other machines, which is warned about.
        port: the port; 0 picks a free one.
        open_browser: open the system's browser on the page.
    """
    import uvicorn

    if not _is_loopback(host):
        print(
            f"stonefield: warning: listening on {host}, so other machines can reach this server; "
            "it has no authentication, so anyone who can reach it can use it",
            file=sys.stderr,
        )
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    url = play_url(f"http://{shown}:{bound}", game, options, seats)
    print(f"stonefield play: {url}  (Ctrl-C stops)", flush=True)
    if open_browser:
        # The socket already listens, so the browser's request waits in its backlog.
        webbrowser.open(url)
    # On a loopback address only this machine's own names may be used to reach the server.
    hosts = [shown, "127.0.0.1", "localhost", "[::1]"] if _is_loopback(host) else None
    app = create_app(allowed_hosts=hosts, checkpoints=_agents.checkpoints_of(seats))
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
    _server_class(app.state.stopping)(config).run(sockets=[sock])


def _server_class(stopping: threading.Event) -> type[Any]:
    """uvicorn's server class for an application whose shutdown event is ``stopping``."""
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server, which on Ctrl-C also stops the agents' searches (they run in
        worker threads, which signals never reach), so that it stops within a second or so.
        Only this server's application stops: a later ``serve()`` in the same process plays."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            _agents.shut_down(stopping)
            super().handle_exit(sig, frame)

    return Server


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
