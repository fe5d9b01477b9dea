"""The cost of one evaluator call to PUCT, around the evaluator's body: PUCT at 200 simulations
on Subsume size 4 with an evaluator that returns constant arrays, microseconds per call at
batch 1 and at batch 8; then self-play of 256 Windflowers size 3 games at once (64
simulations, batch 1, constant evaluator), simulations per second. Prints the three numbers.

To compare two builds, run it with each one's Python in turn, a few times, and keep minima:

    for i in 1 2 3 4 5; do old/bin/python benches/evaluator_call.py
                           new/bin/python benches/evaluator_call.py; done
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

import stonefield as sf


def main() -> None:
    g = sf.make("subsume", size=4)
    priors = {b: np.ones((b, g.num_actions), np.float32) for b in range(1, 65)}
    values = {b: np.zeros((b, 2), np.float32) for b in range(1, 65)}
    calls = [0]

    def constant(obs: Any, mask: Any) -> Any:
        calls[0] += 1
        return priors[len(obs)], values[len(obs)]

    out = []
    for bs in (1, 8):
        p = sf.PUCT(constant, simulations=200, batch_size=bs, dirichlet_fraction=0, seed=1)
        s = g.new_state()
        p.act(s)
        calls[0] = 0
        t = time.perf_counter()
        for _ in range(30):
            p.act(s)
        out.append((time.perf_counter() - t) / calls[0] * 1e6)
    w = sf.make("windflowers", size=3)
    cache: dict[int, Any] = {}

    def constant2(obs: Any, mask: Any) -> Any:
        b = len(obs)
        if b not in cache:
            cache[b] = (np.ones((b, w.num_actions), np.float32), np.zeros((b, 2), np.float32))
        return cache[b]

    t = time.perf_counter()
    d = sf.selfplay(w, sf.PUCT(constant2, simulations=64, batch_size=1, seed=0), games=256, seed=0)
    out.append(len(d) * 64 / (time.perf_counter() - t))
    print(
        f"batch 1: {out[0]:.1f} µs a call; batch 8: {out[1]:.1f} µs a call;"
        f" self-play: {out[2]:,.0f} simulations/s"
    )


if __name__ == "__main__":
    main()
