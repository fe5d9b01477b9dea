"""The graph network natively and in numpy: (1) leaf evaluations per second of the numpy
forward pass (``CheckpointNetwork``) and of the native one (``stonefield._core.graph_evaluate``,
what ``sf.PUCT`` plays a graph checkpoint with) at batch sizes 1, 8 and 32; (2) PUCT simulations
per second with ``time=SECONDS`` on one thread and on two, native, against the numpy
evaluator on one thread. Subsume size 6, a random network of ``--hidden`` (32) wide and
``--blocks`` (4) blocks.

    python benches/graph_speed.py [--hidden H] [--blocks B] [--seconds S] [--repeats R]

The machine may be shared: evaluation rates are the best of ``--repeats`` runs of about
``--seconds`` each (wall time, one thread); the search rates are wall time too, since threads
are what they compare.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

import stonefield as sf
from stonefield._checkpoint import CheckpointNetwork
from stonefield._core import graph_evaluate

BATCHES = (1, 8, 32)


def _positions(game: Any, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of ``count`` positions of random games."""
    rng = np.random.default_rng(0)
    obs, masks = [], []
    state = game.new_state()
    while len(obs) < count:
        if state.is_terminal():
            state = game.new_state()
        obs.append(state.observation())
        masks.append(state.legal_mask())
        state.apply(int(rng.choice(state.legal_actions())))
    return np.array(obs, np.float32), np.array(masks)


def _rate(call: Any, rows: int, seconds: float, repeats: int) -> float:
    """Rows per second of ``call()``, the best of ``repeats`` timed runs."""
    best = 0.0
    for _ in range(repeats):
        n, start = 0, time.perf_counter()
        while True:
            call()
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        best = max(best, n * rows / elapsed)
    return best


class Numpy:
    """The network through PUCT's Python path (numpy)."""

    def __init__(self, net: CheckpointNetwork) -> None:
        self.net = net

    def check_game(self, game: Any) -> None:
        self.net.check_game(game)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> Any:
        return self.net(obs, mask)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--blocks", type=int, default=4)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--repeats", type=int, default=3)
    a = p.parse_args(argv)
    game = sf.make("subsume", size=6)
    net = CheckpointNetwork.random(game, hidden=a.hidden, layers=a.blocks)
    net.check_game(game)
    obs, masks = _positions(game, max(BATCHES))
    print(f"Subsume size 6, hidden={a.hidden}, blocks={a.blocks}")
    print()
    print("| batch | numpy evaluations/s | native evaluations/s | native / numpy |")
    print("|---:|---:|---:|---:|")
    for b in BATCHES:
        o, m = obs[:b], masks[:b]
        slow = _rate(lambda o=o, m=m: net(o, m), b, a.seconds, a.repeats)
        fast = _rate(lambda o=o, m=m: graph_evaluate(net, game, o, m), b, a.seconds, a.repeats)
        print(f"| {b} | {slow:,.0f} | {fast:,.0f} | {fast / slow:.1f} |")
    print()
    print(f"| PUCT, time={a.seconds} | simulations/s |")
    print("|---|---:|")
    state = game.new_state()
    runs = [
        ("numpy, 1 thread", sf.PUCT(Numpy(net), time=a.seconds, dirichlet_fraction=0)),
        ("native, 1 thread", sf.PUCT(net, time=a.seconds, dirichlet_fraction=0)),
        ("native, 2 threads", sf.PUCT(net, time=a.seconds, threads=2, dirichlet_fraction=0)),
    ]
    for label, agent in runs:
        best = 0.0
        for _ in range(a.repeats):
            r = agent.analyse(state)
            best = max(best, r.iterations / max(r.seconds, 1e-9))
        print(f"| {label} | {best:,.0f} |")


if __name__ == "__main__":
    main()
