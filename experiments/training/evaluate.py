"""Evaluates a trained checkpoint against UCT: PUCT with the network at 200 simulations against
MCTS at 200 iterations, and against MCTS given the same time per move as PUCT took.

    python experiments/training/evaluate.py runs/wf3/latest.npz [--games 200] [--simulations 200]
        [--batch-size 8] [--stronger 1000 5000]

PUCT's time per move is measured first, in whole games against UCT played one at a time (so
no other game's leaves share its evaluator calls); UCT then gets that time for every move.
``--stronger N ...`` adds matches against UCT at N iterations a move.
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
    p.add_argument("--batch-size", type=int, default=8, help="leaves per evaluator call")
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument("--stronger", type=int, nargs="*", default=[], help="more UCT iterations")
    args = p.parse_args()
    net = Network.load(args.checkpoint)
    game = net.game
    puct = sf.PUCT(
        net.evaluate,
        simulations=args.simulations,
        batch_size=args.batch_size,
        dirichlet_fraction=0,
        seed=1,
    )
    # PUCT's time per move, over a few whole games against UCT (one game at a time, PUCT
    # taking either seat).
    moves, spent = 0, 0.0
    for g in range(6):
        state = game.new_state()
        uct = sf.MCTS(iterations=args.simulations, seed=100 + g)
        while not state.is_terminal():
            if (state.current_player == 0) == (g % 2 == 0):
                t = time.perf_counter()
                a = puct.act(state)
                spent += time.perf_counter() - t
                moves += 1
            else:
                a = uct.act(state)
            state.apply(a)
    per_move = spent / moves
    print(
        f"{game}: PUCT {args.simulations} simulations (batch {args.batch_size}) take"
        f" {1000 * per_move:.2f} ms a move"
    )
    print("| opponent | games | PUCT score | 95 % interval |")
    print("|---|---:|---:|---|")
    for label, opponent in [
        (f"UCT {args.simulations} iterations", sf.MCTS(iterations=args.simulations, seed=2)),
        (f"UCT {1000 * per_move:.2f} ms a move", sf.MCTS(time=per_move, seed=2)),
    ] + [(f"UCT {n} iterations", sf.MCTS(iterations=n, seed=2)) for n in args.stronger]:
        m = sf.match(game, [puct, opponent], games=args.games, seed=args.seed)
        lo, hi = m.score_ci[0]
        print(f"| {label} | {m.n_games} | {m.score[0]:.3f} | [{lo:.3f}, {hi:.3f}] |")


if __name__ == "__main__":
    main()
