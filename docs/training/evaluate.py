"""Evaluates a trained checkpoint against UCT: PUCT with the network at 200 simulations against
MCTS at 200 iterations, and against MCTS given the same time per move as PUCT took.

    python docs/training/evaluate.py runs/wf3/latest.npz [--games 200] [--simulations 200]
"""

from __future__ import annotations

import argparse
import time

import stonefield as sf
from stonefield.alphazero import Network


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("checkpoint")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--simulations", type=int, default=200)
    p.add_argument("--seed", type=int, default=12345)
    args = p.parse_args()
    net = Network.load(args.checkpoint)
    game = net.game
    puct = sf.PUCT(net.evaluate, simulations=args.simulations, dirichlet_fraction=0, seed=1)
    # PUCT's time per move, from searches of positions of a few games (one at a time).
    moves, spent = 0, 0.0
    for g in range(4):
        state = game.new_state()
        rng = sf.RandomAgent(seed=g)
        while not state.is_terminal():
            t = time.perf_counter()
            a = puct.act(state)
            spent += time.perf_counter() - t
            moves += 1
            state.apply(a if moves % 2 else rng.act(state))
    per_move = spent / moves
    print(f"{game}: PUCT {args.simulations} simulations take {1000 * per_move:.2f} ms a move")
    print("| opponent | games | PUCT score | 95 % interval |")
    print("|---|---:|---:|---|")
    for label, opponent in [
        (f"UCT {args.simulations} iterations", sf.MCTS(iterations=args.simulations, seed=2)),
        (f"UCT {1000 * per_move:.2f} ms a move", sf.MCTS(time=per_move, seed=2)),
    ]:
        m = sf.match(game, [puct, opponent], games=args.games, seed=args.seed)
        lo, hi = m.score_ci[0]
        print(f"| {label} | {m.n_games} | {m.score[0]:.3f} | [{lo:.3f}, {hi:.3f}] |")


if __name__ == "__main__":
    main()
