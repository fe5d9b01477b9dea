"""``stonefield play``: the play page in the browser."""

from __future__ import annotations

import argparse
from typing import Any

from .. import _core
from ._common import GAME_HELP, fail, game_id, int_in, make_game, parse_options


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play and replay games in the browser",
        description="Serves the play page on this machine and opens it in the browser: play"
        " against an agent, watch agents play, replay and download game records.",
    )
    p.add_argument("game", nargs="?", type=game_id, metavar="GAME", help=GAME_HELP)
    p.add_argument(
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (repeatable)",
    )
    p.add_argument(
        "--opponent",
        default=None,
        metavar="AGENT",
        help="the other seats: an agent string (random, mcts:iterations=N, mcts:preset=strong,"
        " expert (the network shipped for the game), ...; default: the strong search,"
        " mcts:preset=strong, 10,000 iterations a move)",
    )
    p.add_argument("--seat", type=int, default=0, help="your seat, 0 moves first")
    p.add_argument(
        "--port", type=int_in(0, 65535, "port"), default=0, help="the port (default: a free one)"
    )
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..play import default_opponent, serve
        from ..play._agents import Seat, SeatError
    except ImportError as e:
        fail(
            f"the play page needs the play extra ({e.name} is missing):"
            ' pip install "stonefield[play]"'
        )
    options = parse_options(args.options)
    seats: list[str] | None = None
    if args.game is not None:
        game: _core.Game = make_game(args.game, options)
        opponent = args.opponent or default_opponent()
        try:
            why = Seat.parse(opponent).refusal(game)
        except SeatError as e:
            why = str(e)
        if why is not None:
            fail(f"--opponent: {why}")
        if not 0 <= args.seat < game.num_players:
            fail(f"--seat is 0..{game.num_players - 1} for this game, got {args.seat}")
        seats = [opponent] * game.num_players
        seats[args.seat] = "human"
    elif options or args.opponent:
        fail("--option and --opponent need a GAME")
    try:
        serve(
            args.game,
            options,
            seats,
            host=args.host,
            port=args.port,
            open_browser=not args.no_browser,
        )
    except OSError as e:
        fail(f"cannot listen on {args.host}:{args.port}: {e}")
    except KeyboardInterrupt:
        pass
    return 0
