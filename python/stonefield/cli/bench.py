"""``stonefield bench``: random playouts per second, the lab's games (``--lab``) and MCTS
iterations per second (``--search``)."""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Callable
from typing import Any

from .. import _core
from ..batch import simulate
from ._common import (
    MAX_THREADS,
    add_option_flag,
    fail,
    int_in,
    load_average,
    machine_lines,
    make_game,
    median,
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


#: Each measurement is this many repeats of a fifth of its time: their median is the rate,
#: their range its spread.
REPEATS = 5


def run(args: argparse.Namespace) -> int:
    load_before = load_average()
    if args.search:
        return _run_search(args, load_before)
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
        for r in rows:
            r["load_average"] = [load_before, load_average()]
            r["cores"] = os.cpu_count()
        print(json.dumps(rows, indent=2))
        return 0
    kind = f" {'kind':<8}" if args.lab else ""
    print(
        f"{'game':<14}{kind} {'threads':>7} {'playouts/s':>12} {'spread':>17}"
        f" {'moves/s':>14} {'avg length':>10} {'wall s':>7} {'CPU s':>7}"
    )
    for r in rows:
        kind = f" {r['kind']:<8}" if args.lab else ""
        slower = f"  ({r['slowdown']:.2f}× simulate's time)" if "slowdown" in r else ""
        low, high = r["playouts_per_second_min"], r["playouts_per_second_max"]
        print(
            f"{r['game']:<14}{kind} {r['threads']:>7} {r['playouts_per_second']:>12,.0f}"
            f" {f'{low:,.0f}-{high:,.0f}':>17} {r['moves_per_second']:>14,.0f}"
            f" {r['average_length']:>10.1f} {r['seconds']:>7.2f} {r['cpu_seconds']:>7.2f}{slower}"
        )
    print(
        f"playouts/s is the median of {REPEATS} repeats, spread their range; CPU s counts every"
        " thread (CPU s / wall s: how many cores the run kept busy)"
    )
    slower_games = sorted(
        {
            a["game"]
            for a, b in zip(rows, rows[1:])
            if a["threads"] == 1
            and b["threads"] > 1
            and a["kind"] == b["kind"]
            and b["playouts_per_second"] < a["playouts_per_second"]
        }
    )
    if slower_games:
        print(
            f"note: more threads were slower than one for {', '.join(slower_games)}: the threads"
            " waited for cores that other programs held (see the load below)"
        )
    for line in machine_lines(all_threads, load_before):
        print(line)
    return 0


def _repeats(
    measure: Callable[[int, int], tuple[int, int, float]], seconds: float
) -> tuple[list[float], int, int, float, float]:
    """Runs ``measure(n, first)`` (games, moves, seconds of ``n`` games from game ``first``) in
    :data:`REPEATS` repeats of ``seconds / REPEATS`` each, doubling ``n`` while a batch is short.
    Returns each repeat's games per second, the games, moves, wall and CPU seconds in all."""
    n, first, total_games, total_moves, elapsed, rates = 64, 0, 0, 0, 0.0, []
    cpu = time.process_time()
    for _ in range(REPEATS):
        games = moves = 0
        took = 0.0
        while took < seconds / REPEATS:
            g, m, t = measure(n, first)
            games, moves, took, first = games + g, moves + m, took + t, first + n
            if t < seconds / (10 * REPEATS):
                n *= 2
        rates.append(games / took if took > 0 else math.inf)
        total_games, total_moves, elapsed = total_games + games, total_moves + moves, elapsed + took
    return rates, total_games, total_moves, elapsed, time.process_time() - cpu


def _row(
    game: _core.Game, threads: int, measured: tuple[list[float], int, int, float, float]
) -> dict[str, Any]:
    rates, games, moves, elapsed, cpu = measured
    return {
        "game": game.name,
        "options": game.options,
        "threads": threads,
        "games": games,
        "seconds": elapsed,
        "cpu_seconds": cpu,
        "repeats": len(rates),
        "playouts_per_second": median(rates),
        "playouts_per_second_min": min(rates),
        "playouts_per_second_max": max(rates),
        "moves_per_second": moves / elapsed if elapsed > 0 else math.inf,
        "average_length": moves / max(games, 1),
    }


def _bench_one(game: _core.Game, seconds: float, threads: int) -> dict[str, Any]:
    """Random games of ``simulate`` for ``seconds`` in :data:`REPEATS` repeats: the median
    playouts/s, its spread, moves/s, wall and CPU time."""
    simulate(game, 16, seed=0, threads=threads)  # warm-up

    def measure(n: int, first: int) -> tuple[int, int, float]:
        r = simulate(game, n, seed=1 + first, threads=threads)
        return r.n_games, int(r.lengths.sum()), r.seconds

    return _row(game, threads, _repeats(measure, seconds))


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
    return {**_row(game, threads, _repeats(play, seconds)), "kind": "lab"}


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


def _run_search(args: argparse.Namespace, load_before: float | None) -> int:
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
        for r in rows:
            r["load_average"] = [load_before, load_average()]
            r["cores"] = os.cpu_count()
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
    print("one search per row; per CPU s: iterations per second of CPU time, every thread counted")
    for line in machine_lines(max(thread_counts), load_before):
        print(line)
    return 0
