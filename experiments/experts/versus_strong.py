"""The expert against the strong preset at equal time per move, game after game, resumable.

    python experiments/experts/versus_strong.py GAME [--games 200] [--time 0.1]
        [--checkpoint PATH] [--out experiments/experts/results/GAME.json] [--workers N]

Each game is played move by move in one process, one search at a time (no other search of the
game shares its time): the expert (``sf.expert``, or PUCT with ``--checkpoint``) at ``--time``
seconds a move on one thread against ``mcts:preset=strong`` at the same time on one thread,
seats alternating (the expert takes seat ``i % 2`` in game ``i``), each game seeded by its
number. Every finished game is appended to the results file at once, so a stopped run resumes
where it stopped (with the games it lacks). ``--workers N`` plays N games at once, each in a
process of its own: one per core, so that no search shares its core.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import stonefield as sf
from stonefield._files import atomic_write


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a score over ``n`` games (draws counted as halves)."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(game_name: str, i: int, seconds: float, checkpoint: str | None) -> dict[str, Any]:
    """Game ``i``: the expert in seat ``i % 2``, both sides seeded by ``i``."""
    game = sf.make(game_name)
    if checkpoint:
        expert = sf.PUCT(checkpoint=checkpoint, time=seconds, seed=i, dirichlet_fraction=0)
    else:
        expert = sf.expert(game, time=seconds, seed=i)
    strong = sf.MCTS(preset="strong", time=seconds, seed=i)
    seat = i % 2
    state = game.new_state()
    moves = [0, 0]
    started = time.perf_counter()
    while not state.is_terminal():
        mine = state.current_player == seat
        state.apply((expert if mine else strong).act(state))
        moves[0 if mine else 1] += 1
    returns = state.returns()
    score = 0.5 * (1.0 + float(returns[seat])) if returns is not None else 0.5
    return {
        "game": i,
        "expert_seat": seat,
        "score": score,
        "moves": moves,
        "seconds": time.perf_counter() - started,
    }


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("game")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--time", type=float, default=0.1)
    p.add_argument("--checkpoint", default=None, help="a checkpoint instead of the shipped one")
    p.add_argument("--out", default=None)
    p.add_argument(
        "--workers", type=int, default=1, help="games played at once, one process each (1 or more)"
    )
    args = p.parse_args()
    if args.workers < 1:
        p.error(f"--workers must be 1 or more, not {args.workers}")
    game = sf.make(args.game)
    here = os.path.dirname(os.path.abspath(__file__))
    out = args.out or os.path.join(here, "results", f"{args.game}.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    done: dict = {"game": args.game, "options": dict(game.options), "time": args.time, "games": []}
    if os.path.exists(out):
        with open(out) as f:
            done = json.load(f)
        if done["time"] != args.time or done["options"] != dict(game.options):
            raise SystemExit(f"{out} holds another evaluation; give another --out")
    played = {g["game"] for g in done["games"]}
    todo = [i for i in range(args.games) if i not in played]

    def record(g: dict[str, Any]) -> None:
        # Written at once, in game order, so that a stopped run resumes with the games missing.
        done["games"] = sorted([*done["games"], g], key=lambda x: x["game"])
        scores = [x["score"] for x in done["games"]]
        mean = sum(scores) / len(scores)
        done["score"] = mean
        done["interval"] = wilson(mean, len(scores))
        with atomic_write(out) as f:
            json.dump(done, f, indent=1)
        low, high = done["interval"]
        n = len(scores)
        print(
            f"game {g['game'] + 1}: expert {g['score']:.1f}; {mean:.3f} [{low:.3f}, {high:.3f}]"
            f" over {n}",
            flush=True,
        )

    if args.workers == 1:
        for i in todo:
            record(play(args.game, i, args.time, args.checkpoint))
        return
    # Each game in a process of its own (its searches never share a core with the others when
    # there are as many cores as workers); a game is recorded as soon as it ends.
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(play, args.game, i, args.time, args.checkpoint) for i in todo]
        for fut in as_completed(futures):
            record(fut.result())


if __name__ == "__main__":
    main()
