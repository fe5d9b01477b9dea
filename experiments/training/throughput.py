"""Self-play throughput of ``stonefield train``, side by side: rounds of self-play with and
without playout-cap randomisation (and optionally over Ray workers), interleaved, printing
positions per second per core and the share of the time inside the network; and the reach
and cost of exact values from ``sf.solve`` (``--exact-empty``) on the same games.

    python experiments/training/throughput.py --size 4 --games 32 --simulations 64 --repeats 3

Needs numpy alone (Ray for ``--workers``): the network is a random graph network of the
checkpoint format (the forward pass costs the same whatever the weights).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np

import stonefield as sf
from stonefield._checkpoint import CheckpointNetwork
from stonefield._workers import RoundSettings, play_round


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="subsume")
    p.add_argument("--size", type=int, default=4)
    p.add_argument("--games", type=int, default=32)
    p.add_argument("--simulations", type=int, default=64)
    p.add_argument("--share", type=float, default=0.25)
    p.add_argument("--fast", type=int, default=None, help="default: simulations // 4")
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--architecture", default="graph")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--exact-empty", type=int, nargs="*", default=[])
    p.add_argument("--exact-nodes", type=int, default=2000)
    args = p.parse_args()

    game = sf.make(args.game, size=args.size)
    net = CheckpointNetwork.random(
        game, hidden=args.hidden, layers=args.layers, seed=0, architecture=args.architecture
    )
    path = os.path.join(tempfile.mkdtemp(), "net.npz")
    net.save(path)
    with open(path, "rb") as f:
        blob = f.read()
    fast = args.fast or max(1, args.simulations // 4)
    variants = {
        "every move in full": (1.0, None),
        f"playout cap {args.share} (fast {fast})": (args.share, fast),
    }
    results: dict[str, list[tuple[float, float, int, int, float]]] = {k: [] for k in variants}
    data = None
    for r in range(args.repeats):
        for name, (share, fast_sims) in variants.items():
            settings = RoundSettings(
                games=args.games,
                simulations=args.simulations,
                batch_size=8,
                temperature_moves=4,
                agent_seed=r,
                seed=r,
                full_search_share=share,
                fast_simulations=fast_sims,
            )
            d, stats = play_round(game, blob, settings, workers=args.workers)
            results[name].append(
                (
                    len(d) / stats.cpu_seconds,
                    # None for a graph network, played natively (untimed).
                    float("nan")
                    if stats.network_seconds is None
                    else stats.network_seconds / stats.part_seconds,
                    len(d),
                    int(d.full_search.sum()),
                    len(d) / stats.seconds,
                )
            )
            data = d if data is None else data
    print(
        f"{args.game} size {args.size}, {args.games} games a round, {args.simulations}"
        f" simulations, {args.architecture} network (hidden {args.hidden}, layers"
        f" {args.layers}), {args.repeats} rounds each, interleaved"
    )
    where = "in this process" if args.workers is None else f"{args.workers} Ray workers"
    print(
        f"| self-play ({where}) | positions/s/core (best) | mean | positions/s, wall (best) |"
        " in network | full searches a round |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name, rs in results.items():
        speed = np.array([x[0] for x in rs])
        print(
            f"| {name} | {speed.max():.1f} | {speed.mean():.1f} | {max(x[4] for x in rs):.1f} |"
            f" {100 * np.mean([x[1] for x in rs]):.0f} % |"
            f" {np.mean([x[3] for x in rs]):.0f} of {np.mean([x[2] for x in rs]):.0f} |"
        )
    if args.exact_empty and data is not None:
        from stonefield.alphazero.loop import exact_values

        print("\n| exact-empty K | positions solved | proven | outcome target changed | s |")
        print("|---:|---:|---:|---:|---:|")
        for k in args.exact_empty:
            t = time.perf_counter()
            _, st = exact_values(data, k, args.exact_nodes)
            print(
                f"| {k} | {st['exact_tried']} of {len(data)} | {st['exact_proven']} |"
                f" {st['exact_changed']} | {time.perf_counter() - t:.2f} |"
            )


if __name__ == "__main__":
    main()
