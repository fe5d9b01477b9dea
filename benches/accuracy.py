"""MCTS against perfect play on solved boards: how often its move keeps the position's value,
and how often it throws a won position away.

Positions are drawn from random games (every position of each game, until ``--positions``
per board are collected, skipping positions with one legal action); each is solved exactly
(``sf.solve``) and MCTS is asked for a move at each iteration budget. Run::

    python benches/accuracy.py [--positions 60] [--budgets 100,1000,10000] [--seed 0]

It prints a markdown table (and writes it with ``--out FILE``); the committed numbers are in
``docs/solved/index.md``. This is a benchmark, not a test: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import random
import time

import stonefield as sf

#: Boards small enough that every drawn position solves in well under a second.
BOARDS: list[tuple[str, dict[str, object]]] = [
    ("smallholder", {"board": "hex232323"}),
    ("smallholder", {"board": "hex232323", "ruleset": "stymie"}),
    ("faraday", {"grid": "square_omni", "order": 3}),
    ("windflowers", {"size": 3, "max_moves": 12}),
]


def positions(game: sf.Game, count: int, rng: random.Random) -> list[sf.State]:
    out: list[sf.State] = []
    while len(out) < count:
        s = game.new_state()
        line = []
        while not s.is_terminal():
            if len(s.legal_actions()) > 1:
                line.append(s.copy())
            s.apply(int(rng.choice(list(s.legal_actions()))))
        rng.shuffle(line)
        out.extend(line[: max(1, count // 10)])
    return out[:count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--budgets", default="100,1000,10000")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    rows = [
        "| board | MCTS iterations | positions | keeps the value | won positions | "
        "throws a win away | seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, options in BOARDS:
        game = sf.make(name, **options)  # type: ignore[arg-type]
        label = name + " " + " ".join(f"{k}={v}" for k, v in options.items())
        drawn = positions(game, args.positions, random.Random(args.seed))
        solved = [(s, sf.solve(s, table_mb=64)) for s in drawn]
        for it in budgets:
            t0 = time.perf_counter()
            keep = won = thrown = 0
            for i, (s, res) in enumerate(solved):
                agent = sf.MCTS(iterations=it, seed=args.seed + i)
                a = agent.act(s)
                outcome = int(res.outcomes[list(res.actions).index(a)])
                keep += outcome == res.value
                if res.value == 1:
                    won += 1
                    thrown += outcome < 1
            n = len(solved)
            rows.append(
                f"| {label} | {it} | {n} | {keep / n:.0%} | {won} | "
                f"{(thrown / won if won else 0):.0%} | {time.perf_counter() - t0:.1f} |"
            )
            print(rows[-1], flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
