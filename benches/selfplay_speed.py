"""Self-play with a graph network, two ways side by side: the network played natively by PUCT
(the forward pass in Rust, no Python call a batch: how training plays graph networks) and the
same network's numpy forward pass as a Python evaluator (in blocks of 32 rows, how training
played them before). Each game's shipped expert network on the game's default board.

    python benches/selfplay_speed.py [--games N] [--simulations K] [--repeats R] [--game NAME ...]

The two ways are taken in turn (native first in even repeats, numpy first in odd ones) and the
rates are self-play positions per CPU second of this process (the machine may be shared); the
table gives the best and the median of the repeats, and for the numpy way the share of its time
inside the evaluator. This is a benchmark: nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import stonefield as sf
from stonefield._checkpoint import read_checkpoint
from stonefield._workers import _Timed
from stonefield.experts import network_path
from stonefield.selfplay import selfplay


def _play(
    game: sf.Game, net: Any, native: bool, games: int, simulations: int, seed: int
) -> tuple[float, float]:
    """(positions per CPU second, the share of the time inside the Python evaluator)."""
    timed = _Timed(net)
    agent = sf.PUCT(net if native else timed, simulations=simulations, batch_size=8, seed=seed)
    wall, cpu = time.perf_counter(), time.process_time()
    data = selfplay(game, agent, games=games, seed=seed, temperature_moves=4)
    cpu = max(time.process_time() - cpu, 1e-9)
    wall = max(time.perf_counter() - wall, 1e-9)
    return len(data.players) / cpu, (0.0 if native else timed.seconds / wall)


def main(argv: list[str] | None = None) -> str:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--simulations", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--game", action="append", default=None, choices=sf.games())
    args = ap.parse_args(argv)
    lines = [
        "| game | native positions/s (best, median) | numpy positions/s (best, median) | "
        "numpy: time in the evaluator | native over numpy (best) |",
        "|---|---|---|---|---|",
    ]
    for name in args.game or sf.games():
        game = sf.make(name)
        net = read_checkpoint(network_path(name), game)
        rates: dict[bool, list[float]] = {True: [], False: []}
        inside: list[float] = []
        for r in range(args.repeats):
            for native in (True, False) if r % 2 == 0 else (False, True):
                rate, share = _play(game, net, native, args.games, args.simulations, seed=r)
                rates[native].append(rate)
                if not native:
                    inside.append(share)
        n, p = rates[True], rates[False]
        lines.append(
            f"| {name} | {max(n):,.0f}, {statistics.median(n):,.0f} | {max(p):,.0f}, "
            f"{statistics.median(p):,.0f} | {statistics.median(inside):.0%} | "
            f"{max(n) / max(p):.2f}× |"
        )
        print(lines[-1], flush=True)
    return "\n".join(lines)


if __name__ == "__main__":
    print(main())
