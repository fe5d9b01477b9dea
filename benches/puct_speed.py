"""PUCT speed: (1) simulations per second with the native rollout evaluator against MCTS's
iterations per second, per game, one thread, from the empty board; (2) self-play of many games
at once with a Python evaluator that returns constant arrays: the share of the time spent inside
the evaluator's body, and the batch sizes it got; (3) with ``--mctx`` (needs mctx and JAX),
mctx's ``muzero_policy`` with a constant network on the same board, side by side.

    python benches/puct_speed.py [--seconds S] [--games N] [--simulations K] [--mctx]

The machine may be shared: each search rate is per CPU second of this process, the best of
``--repeats`` interleaved runs; the self-play figures are wall time.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

import stonefield as sf

GAMES = [
    ("smallholder", {}),
    ("windflowers", {}),
    ("faraday", {}),
    ("subsume", {}),
]


def _rate(agent: Any, state: Any) -> float:
    """Iterations (simulations) per CPU second of this process: the machine may be shared."""
    t = time.process_time()
    r = agent.analyse(state)
    return float(r.iterations) / max(time.process_time() - t, 1e-9)


def search_rates(seconds: float, repeats: int) -> list[tuple[str, float, float]]:
    """(game, MCTS iterations/s, PUCT rollout simulations/s), best of ``repeats``."""
    out = []
    for name, options in GAMES:
        game = sf.make(name, **options)
        state = game.new_state()
        # Size the budget from a quick look at MCTS's pace.
        probe = sf.MCTS(iterations=200, solver=False).analyse(state)
        n = max(100, int(200 / max(probe.seconds, 1e-6) * seconds))
        best_m = best_p = 0.0
        for _ in range(repeats):
            best_m = max(best_m, _rate(sf.MCTS(iterations=n, solver=False, seed=1), state))
            best_p = max(best_p, _rate(sf.PUCT(simulations=n, dirichlet_fraction=0, seed=1), state))
        out.append((name, best_m, best_p))
    return out


class Timed:
    """Wraps an evaluator, timing its calls."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.inside = 0.0
        self.calls = 0
        self.rows = 0

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        t = time.perf_counter()
        out = self.inner(obs, mask)
        self.inside += time.perf_counter() - t
        self.calls += 1
        self.rows += len(obs)
        return out  # type: ignore[no-any-return]


class Constant:
    """An evaluator of constant arrays (cached per batch size), timing its own body."""

    def __init__(self, game: sf.Game) -> None:
        self.actions, self.players = game.num_actions, game.num_players
        self.cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.inside = 0.0
        self.calls = 0
        self.rows = 0

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        t = time.perf_counter()
        b = len(obs)
        if b not in self.cache:
            self.cache[b] = (
                np.ones((b, self.actions), np.float32),
                np.zeros((b, self.players), np.float32),
            )
        self.calls += 1
        self.rows += b
        out = self.cache[b]
        self.inside += time.perf_counter() - t
        return out


def batched_selfplay(
    game: sf.Game, games: int, simulations: int, evaluator: Any = None
) -> dict[str, float]:
    ev = Constant(game) if evaluator is None else Timed(evaluator)
    agent = sf.PUCT(ev, simulations=simulations, batch_size=1, seed=0)
    t = time.perf_counter()
    d = sf.selfplay(game, agent, games=games, seed=0)
    total = time.perf_counter() - t
    return {
        "positions": float(len(d)),
        "seconds": total,
        "inside": ev.inside / total,
        "mean_batch": ev.rows / max(ev.calls, 1),
        "sims_per_s": len(d) * simulations / total,
    }


def mctx_rate(game: sf.Game, batch: int, simulations: int) -> float:
    """Simulations per second of mctx.muzero_policy with a constant network (after jit)."""
    import jax
    import jax.numpy as jnp
    import mctx

    a = game.num_actions

    def recurrent_fn(params: Any, rng: Any, action: Any, embedding: Any) -> Any:
        out = mctx.RecurrentFnOutput(
            reward=jnp.zeros(batch),
            discount=-jnp.ones(batch),
            prior_logits=jnp.zeros((batch, a)),
            value=jnp.zeros(batch),
        )
        return out, embedding

    root = mctx.RootFnOutput(
        prior_logits=jnp.zeros((batch, a)), value=jnp.zeros(batch), embedding=jnp.zeros(batch)
    )

    @jax.jit
    def run(key: Any) -> Any:
        return mctx.muzero_policy(
            params=(), rng_key=key, root=root, recurrent_fn=recurrent_fn,
            num_simulations=simulations,
        )  # fmt: skip

    key = jax.random.PRNGKey(0)
    jax.block_until_ready(run(key).action)
    best = 0.0
    for i in range(3):
        t = time.perf_counter()
        jax.block_until_ready(run(jax.random.PRNGKey(i)).action)
        best = max(best, batch * simulations / (time.perf_counter() - t))
    return best


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=1.0, help="per search (default 1)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--games", type=int, default=256, help="self-play games at once")
    p.add_argument("--simulations", type=int, default=64, help="per self-play move")
    p.add_argument("--board", default="windflowers:size=3", help="self-play game:key=value")
    p.add_argument("--mctx", action="store_true", help="compare with mctx (needs it)")
    p.add_argument(
        "--mlp",
        action="store_true",
        help="also time stonefield.alphazero's network (needs stonefield[jax])",
    )
    args = p.parse_args(argv)
    print("| game | MCTS iterations/s | PUCT rollout simulations/s | PUCT / MCTS |")
    print("|---|---:|---:|---:|")
    for name, m, q in search_rates(args.seconds, args.repeats):
        print(f"| {name} | {m:,.0f} | {q:,.0f} | {q / m:.2f} |")
    name, _, opts = args.board.partition(":")
    game = sf.make(name, **sf.parse_options(o for o in opts.split(",") if o))
    r = batched_selfplay(game, args.games, args.simulations)
    print()
    print(
        f"self-play {args.games} games of {args.board} at once, {args.simulations} simulations,"
        f" batch_size 1: {r['positions']:.0f} positions in {r['seconds']:.2f} s,"
        f" {r['sims_per_s']:,.0f} simulations/s, mean evaluator batch {r['mean_batch']:.0f},"
        f" {100 * r['inside']:.1f} % of the time inside the evaluator's body"
    )
    if args.mlp:
        from stonefield.alphazero import Network

        net = Network.create(game, hidden=128, seed=0)
        r = batched_selfplay(game, args.games, args.simulations, net.evaluate)
        print(
            "the same with the network of stonefield.alphazero (hidden 128, two layers) as the"
            " evaluator:"
            f" {r['positions']:.0f} positions in {r['seconds']:.2f} s, {r['sims_per_s']:,.0f}"
            f" simulations/s, mean batch {r['mean_batch']:.0f}, {100 * r['inside']:.1f} % of the"
            " time inside the evaluator"
        )
    if args.mctx:
        rate = mctx_rate(game, args.games, args.simulations)
        print(
            f"mctx.muzero_policy, batch {args.games}, {args.simulations} simulations, constant"
            f" network: {rate:,.0f} simulations/s"
        )


if __name__ == "__main__":
    main()
