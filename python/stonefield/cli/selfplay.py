"""``stonefield selfplay``: self-play training data (positions, search policies, returns)
written to an ``.npz`` file that :meth:`stonefield.SelfPlayData.load` reads."""

from __future__ import annotations

import argparse
import time
from typing import Any

from .. import _core
from ..agents import agent_kind
from ..selfplay import selfplay
from ._common import (
    GAME_HELP,
    MAX_SEED,
    MAX_THREADS,
    add_option_flag,
    fail,
    game_id,
    int_in,
    make_game,
    options_help,
)
from .match import agent_arg, check_writable

#: The agent ``selfplay`` uses without ``--agent``.
DEFAULT_SELFPLAY_AGENT = "mcts:iterations=200"


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "selfplay",
        help="record MCTS self-play games as training data (.npz)",
        description="Plays an MCTS agent against itself in Rust and writes every decision's"
        " observation, root visit policy, player and the game's final returns to an .npz file"
        " (read it back with stonefield.SelfPlayData.load). The first --temperature-moves"
        " actions of each game are drawn in proportion to the visits. The agent defaults to"
        f" {DEFAULT_SELFPLAY_AGENT}.",
        epilog=options_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", type=game_id, metavar="GAME", help=GAME_HELP)
    add_option_flag(p, "a game option (repeatable), e.g. --option size=4")
    p.add_argument("-o", "--output", required=True, metavar="FILE.npz", help="the data file")
    p.add_argument("--agent", type=agent_arg, default=None, metavar="AGENT", help="mcts:...")
    p.add_argument(
        "-n", "--games", type=int_in(1, None, "games"), default=100, help="games (default 100)"
    )
    p.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), default=0, help="the seed")
    p.add_argument(
        "--temperature-moves",
        type=int_in(0, None, "temperature-moves"),
        default=0,
        help="actions per game drawn in proportion to visits (default 0)",
    )
    p.add_argument(
        "--threads",
        type=int_in(1, MAX_THREADS, "threads"),
        default=None,
        help="worker threads (default: every core)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = make_game(args.game, dict(args.options))
    agent = args.agent or agent_arg(DEFAULT_SELFPLAY_AGENT)
    if agent_kind(agent) != "mcts":
        fail("--agent: self-play needs an mcts agent (its visit counts are the policies)")
    check_writable("--output", args.output)
    start = time.perf_counter()
    try:
        data = selfplay(
            game,
            agent,
            games=args.games,
            seed=args.seed,
            temperature_moves=args.temperature_moves,
            threads=args.threads,
        )
    except _core.StonefieldError as e:
        fail(str(e))
    took = time.perf_counter() - start
    try:
        data.save(args.output)
    except OSError as e:
        fail(str(e))
    print(f"{data.num_games} games, {len(data)} positions in {took:.1f} s written to {args.output}")
    return 0
