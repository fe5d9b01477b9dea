"""``stonefield simulate``: random games and their summary."""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from .. import _core
from ..batch import simulate
from ..matches import wilson_interval
from ._common import (
    GAME_HELP,
    MAX_SEED,
    MAX_THREADS,
    Progress,
    UsageError,
    add_option_flag,
    game_id,
    int_in,
    load_average,
    machine_lines,
    make_game,
    median,
    options_help,
    spread,
)

#: Games of a run when none is given: enough for rates within about ±0.3 % and a speed
#: measured over a tenth of a second or more, on every game.
DEFAULT_GAMES = 100_000

#: Blocks of a run shorter than this (seconds) are too short for a rate of their own.
_MIN_BLOCK = 0.01


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
        "-n",
        "--games",
        type=int_in(0, 2**63 - 1, "games"),
        default=DEFAULT_GAMES,
        help=f"games (default: {DEFAULT_GAMES:,}, a second or so on one core)",
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
    # The run's blocks (the core reports after each) are its repeats: their rates give the
    # median and spread of the speed.
    marks: list[tuple[float, int]] = [(time.perf_counter(), 0)]

    def report(done: int, total: int) -> None:
        marks.append((time.perf_counter(), done))
        progress(done, total)

    threads = args.threads or os.cpu_count() or 1
    load_before = load_average()
    cpu = time.process_time()
    try:
        result = simulate(game, args.games, seed=args.seed, threads=args.threads, progress=report)
    except (MemoryError, _core.StonefieldError) as e:
        raise UsageError(str(e)) from e
    finally:
        progress.close()
    cpu = time.process_time() - cpu
    rates = [
        (d1 - d0) / (t1 - t0)
        for (t0, d0), (t1, d1) in zip(marks, marks[1:])
        if t1 - t0 >= _MIN_BLOCK
    ]
    n = result.n_games
    intervals = [list(wilson_interval(float(w), n)) if n else [0.0, 1.0] for w in result.win_rates]
    if args.json:
        print(
            json.dumps(
                {
                    "game": game.name,
                    "options": game.options,
                    "games": n,
                    "seed": args.seed,
                    "threads": threads,
                    "win_rates": result.win_rates.tolist(),
                    "win_rate_intervals": intervals,
                    "draw_rates": result.draw_rates.tolist(),
                    "average_length": float(result.lengths.mean()) if n else 0.0,
                    "truncated": float(result.truncated.mean()) if n else 0.0,
                    "seconds": result.seconds,
                    "cpu_seconds": cpu,
                    "playouts_per_second": result.playouts_per_second,
                    "playouts_per_second_median": median(rates) if rates else None,
                    "playouts_per_second_min": min(rates) if rates else None,
                    "playouts_per_second_max": max(rates) if rates else None,
                    "repeats": len(rates),
                    "moves_per_second": result.moves_per_second,
                    "load_average": [load_before, load_average()],
                    "cores": os.cpu_count(),
                }
            )
        )
        return 0
    print(result.summary())
    busy = cpu / result.seconds if result.seconds > 0 else 0.0
    print(
        f"time            {result.seconds:.3f} s wall, {cpu:.3f} s CPU"
        f" ({busy:.1f} of {threads} thread{'s' if threads != 1 else ''} busy)"
    )
    if len(rates) >= 3:
        print(f"speed           {spread(rates)} playouts/s, one repeat per block of games")
    else:
        print("speed           too short a run for a spread over repeats: give more games (-n)")
    for line in machine_lines(threads, load_before):
        print(line)
    return 0
