"""``stonefield bench``: random playouts per second, the lab's games (``--lab``) and MCTS
iterations per second (``--search``)."""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from typing import Any

from .. import _core
from ..batch import simulate
from ._common import (
    MAX_THREADS,
    add_option_flag,
    fail,
    int_in,
    make_game,
    options_help,
    seconds,
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "bench",
        help="measure random playouts per second",
        description="Measures random playouts per second on one thread and on --threads (every"
        " core by default); with --lab also the variant lab's games, with --search MCTS"
        " iterations per second.",
        epilog=options_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", nargs="?", help="one game id (default: every game's defaults)")
    add_option_flag(p, "a game option (repeatable), e.g. --option size=4")
    p.add_argument("--seconds", type=seconds, default=2.0, help="time per measurement")
    p.add_argument(
        "--threads",
        type=int_in(1, MAX_THREADS, "threads"),
        default=None,
        help="the multithreaded count",
    )
    p.add_argument(
        "--lab",
        action="store_true",
        help="also time the variant lab's random games (every per-game fact measured)",
    )
    p.add_argument(
        "--search",
        action="store_true",
        help="measure MCTS iterations/s (start and mid-game, 1 thread and --threads)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _targets(args: argparse.Namespace) -> list[_core.Game]:
    if args.game:
        return [make_game(args.game, dict(args.options))]
    if args.options:
        fail("options need a game id before them")
    return [_core.make(name) for name in _core.games()]


def run(args: argparse.Namespace) -> int:
    if args.search:
        return _run_search(args)
    targets = _targets(args)
    all_threads = args.threads or os.cpu_count() or 1
    thread_counts = [1] if all_threads == 1 else [1, all_threads]
    rows = []
    for g in targets:
        for t in thread_counts:
            rows.append({**_bench_one(g, args.seconds, t), "kind": "simulate"})
            if args.lab:
                lab = _bench_lab_one(g, args.seconds, t)
                lab["slowdown"] = rows[-1]["playouts_per_second"] / lab["playouts_per_second"]
                rows.append(lab)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    kind = f" {'kind':<8}" if args.lab else ""
    print(
        f"{'game':<14}{kind} {'threads':>7} {'playouts/s':>12} {'moves/s':>14} {'avg length':>10}"
    )
    for r in rows:
        kind = f" {r['kind']:<8}" if args.lab else ""
        slower = f"  ({r['slowdown']:.2f}× simulate's time)" if "slowdown" in r else ""
        print(
            f"{r['game']:<14}{kind} {r['threads']:>7} {r['playouts_per_second']:>12,.0f}"
            f" {r['moves_per_second']:>14,.0f} {r['average_length']:>10.1f}{slower}"
        )
    return 0


def _bench_one(game: _core.Game, seconds: float, threads: int) -> dict[str, Any]:
    """Runs batches until `seconds` have passed; returns playouts/s and moves/s."""
    n, total_games, total_moves, elapsed = 64, 0, 0, 0.0
    simulate(game, 16, seed=0, threads=threads)  # warm-up
    seed = 1
    while elapsed < seconds:
        r = simulate(game, n, seed=seed, threads=threads)
        total_games += r.n_games
        total_moves += int(r.lengths.sum())
        elapsed += r.seconds
        seed += 1
        if r.seconds < seconds / 10:
            n *= 2
    return {
        "game": game.name,
        "options": game.options,
        "threads": threads,
        "games": total_games,
        "seconds": elapsed,
        "playouts_per_second": total_games / elapsed if elapsed > 0 else math.inf,
        "moves_per_second": total_moves / elapsed if elapsed > 0 else math.inf,
        "average_length": total_moves / max(total_games, 1),
    }


def _bench_lab_one(game: _core.Game, seconds: float, threads: int) -> dict[str, Any]:
    """The variant lab's random games (every per-game fact its metrics need, gathered in Rust
    while each game is played), timed as :func:`_bench_one` times ``simulate``."""
    import numpy as np

    agents = [_core.RandomAgent()]
    players = game.num_players

    def play(n: int, first: int) -> tuple[int, int, float]:
        seats = np.zeros((n, players), dtype=np.int64)
        start = time.perf_counter()
        facts = _core.lab_play(game, agents, seats, 1, first, threads)
        took = time.perf_counter() - start
        length = facts.column("length")
        assert length is not None
        return n, int(length.sum()), took

    play(16, 0)  # warm-up
    n, first, total_games, total_moves, elapsed = 64, 0, 0, 0, 0.0
    while elapsed < seconds:
        games, moves, took = play(n, first)
        total_games += games
        total_moves += moves
        elapsed += took
        first += n
        if took < seconds / 10:
            n *= 2
    return {
        "game": game.name,
        "options": game.options,
        "threads": threads,
        "kind": "lab",
        "games": total_games,
        "seconds": elapsed,
        "playouts_per_second": total_games / elapsed if elapsed > 0 else math.inf,
        "moves_per_second": total_moves / elapsed if elapsed > 0 else math.inf,
        "average_length": total_moves / max(total_games, 1),
    }


def _mid_game(game: _core.Game) -> _core.State:
    """A position halfway through a typical random game (fixed seeds, so always the same)."""
    half = int(simulate(game, 64, seed=0, threads=1).lengths.mean()) // 2
    state = game.new_state()
    for i in range(half):
        action = state.random_action(seed=i)
        if action is None:
            break
        state.apply(action)
        if state.is_terminal():
            state.undo()
            break
    return state


def _run_search(args: argparse.Namespace) -> int:
    targets = _targets(args)
    many = args.threads or min(os.cpu_count() or 1, 2)
    thread_counts = sorted({1, many})
    rows = []
    for game in targets:
        for where, state in (("start", game.new_state()), ("mid-game", _mid_game(game))):
            one = None
            for threads in thread_counts:
                agent = _core.MCTS(iterations=None, time=args.seconds, threads=threads)
                cpu = time.process_time()
                res = agent.analyse(state)
                # CPU time of every thread: on a busy machine iterations per CPU second
                # still say what the search costs, where wall-clock rates do not.
                cpu = time.process_time() - cpu
                rate = res.iterations / res.seconds
                one = one or rate
                rows.append(
                    {
                        "game": game.name,
                        "options": game.options,
                        "position": where,
                        "move": state.move_count,
                        "threads": threads,
                        "iterations": res.iterations,
                        "seconds": res.seconds,
                        "nodes": res.nodes,
                        "iterations_per_second": rate,
                        "iterations_per_cpu_second": res.iterations / cpu if cpu else None,
                        "speedup": rate / one,
                    }
                )
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(
        f"{'game':<14} {'position':<9} {'move':>5} {'threads':>7} {'iterations/s':>13}"
        f" {'speed-up':>8} {'per CPU s':>10} {'nodes':>11}"
    )
    for r in rows:
        per_cpu = r["iterations_per_cpu_second"]
        print(
            f"{r['game']:<14} {r['position']:<9} {r['move']:>5} {r['threads']:>7}"
            f" {r['iterations_per_second']:>13,.0f} {r['speedup']:>8.2f}"
            f" {'-' if per_cpu is None else f'{per_cpu:,.0f}':>10} {r['nodes']:>11,}"
        )
    return 0
