"""``stonefield simulate``: random games and their summary."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from .. import _core
from ..batch import simulate
from ._common import (
    GAME_HELP,
    MAX_SEED,
    MAX_THREADS,
    Progress,
    UsageError,
    add_option_flag,
    game_id,
    int_in,
    make_game,
    options_help,
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "simulate",
        help="play random games and summarise the results",
        description="Plays uniformly random games in Rust on every core and prints the win and"
        " draw rates, the game lengths and the speed.",
        epilog=options_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", type=game_id, metavar="GAME", help=GAME_HELP)
    add_option_flag(p, "a game option (repeatable), e.g. --option size=4")
    p.add_argument(
        "-n", "--games", type=int_in(0, 2**63 - 1, "games"), default=10_000, help="games"
    )
    p.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), default=0, help="batch seed")
    p.add_argument(
        "--threads",
        type=int_in(1, MAX_THREADS, "threads"),
        default=None,
        help=f"worker threads, 1 to {MAX_THREADS} (default: every core)",
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = make_game(args.game, dict(args.options))
    progress = Progress(not args.quiet)
    try:
        result = simulate(game, args.games, seed=args.seed, threads=args.threads, progress=progress)
    except (MemoryError, _core.StonefieldError) as e:
        raise UsageError(str(e)) from e
    finally:
        progress.close()
    if args.json:
        print(
            json.dumps(
                {
                    "game": game.name,
                    "options": game.options,
                    "games": result.n_games,
                    "seed": args.seed,
                    "threads": args.threads or os.cpu_count(),
                    "win_rates": result.win_rates.tolist(),
                    "draw_rates": result.draw_rates.tolist(),
                    "average_length": float(result.lengths.mean()) if result.n_games else 0.0,
                    "truncated": float(result.truncated.mean()) if result.n_games else 0.0,
                    "seconds": result.seconds,
                    "playouts_per_second": result.playouts_per_second,
                    "moves_per_second": result.moves_per_second,
                }
            )
        )
    else:
        print(result.summary())
    return 0
