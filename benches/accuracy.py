"""Agents against perfect play on solved boards: how often an agent's move keeps the position's
value, and how often it throws a won position away.

Positions are drawn from two kinds of games, half each: random games and MCTS self-play games
(100 iterations a move), every position of a game with more than one legal action being a
candidate, a tenth of each game's candidates kept, until ``--positions`` per board are
collected, each position once (by its key and move count). Each is solved exactly
(``sf.solve``), and every agent is asked for a move at each iteration budget. The agents are
presets of ``sf.MCTS``: ``uct`` (plain UCT with random playouts) and ``strong``
(``preset="strong"``, the per-game GRAVE/MAST settings). Run::

    python benches/accuracy.py [--positions 200] [--budgets 100,1000,10000] [--agents uct,strong]
                               [--seed 0] [--out FILE]

It prints a markdown table (and writes it with ``--out FILE``), shares with their 95 % Wilson
intervals; the committed numbers are in ``docs/solved/accuracy.md``. This is a benchmark, not a
test: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import random
import time

import stonefield as sf
from stonefield.matches import wilson_interval

#: Boards small enough that every drawn position solves in well under a second.
BOARDS: list[tuple[str, dict[str, object]]] = [
    ("smallholder", {"board": "hex232323"}),
    ("smallholder", {"board": "hex232323", "ruleset": "stymie"}),
    ("faraday", {"grid": "square_omni", "order": 3}),
    ("faraday", {"grid": "hex_limping", "order": 3}),
    ("windflowers", {"size": 3, "max_moves": 12}),
    ("windflowers", {"size": 3}),
]

#: The agents compared, as ``sf.MCTS`` settings besides the budget and seed.
AGENTS: dict[str, dict[str, object]] = {"uct": {}, "strong": {"preset": "strong"}}


def positions(game: sf.Game, count: int, rng: random.Random) -> list[sf.State]:
    """`count` positions, alternately from random games and from MCTS self-play games."""
    out: list[sf.State] = []
    seen: set[tuple[int, int]] = set()
    games = 0
    while len(out) < count:
        s = game.new_state()
        searcher = sf.MCTS(iterations=100, seed=rng.randrange(2**31)) if games % 2 else None
        line = []
        while not s.is_terminal():
            legal = list(s.legal_actions())
            if len(legal) > 1 and (s.key(), s.move_count) not in seen:
                line.append(s.copy())
            a = searcher.act(s) if searcher is not None else int(rng.choice(legal))
            s.apply(a)
        rng.shuffle(line)
        for p in line[: max(1, len(line) // 10)]:
            seen.add((p.key(), p.move_count))
            out.append(p)
        games += 1
    return out[:count]


def share(k: int, n: int) -> str:
    """`k / n` as a percentage with its 95 % interval."""
    if n == 0:
        return "–"
    lo, hi = wilson_interval(k / n, n)
    return f"{k / n:.0%} ({lo:.0%}–{hi:.0%})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--budgets", default="100,1000,10000")
    ap.add_argument("--agents", default="uct,strong")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    agents = args.agents.split(",")
    for a in agents:
        if a not in AGENTS:
            ap.error(f"unknown agent {a!r}; agents are {', '.join(AGENTS)}")
    rows = [
        "| board | agent | iterations | positions | keeps the value | won positions | "
        "throws a win away | seconds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, options in BOARDS:
        game = sf.make(name, **options)  # type: ignore[arg-type]
        label = name + " " + " ".join(f"{k}={v}" for k, v in options.items())
        drawn = positions(game, args.positions, random.Random(args.seed))
        solved = [(s, sf.solve(s, table_mb=64)) for s in drawn]
        for agent_name in agents:
            for it in budgets:
                t0 = time.perf_counter()
                keep = won = thrown = 0
                for i, (s, res) in enumerate(solved):
                    agent = sf.MCTS(iterations=it, seed=args.seed + i, **AGENTS[agent_name])  # type: ignore[arg-type]
                    a = agent.act(s)
                    outcome = int(res.outcomes[list(res.actions).index(a)])
                    keep += outcome == res.value
                    if res.value == 1:
                        won += 1
                        thrown += outcome < 1
                n = len(solved)
                rows.append(
                    f"| {label} | {agent_name} | {it} | {n} | {share(keep, n)} | {won} | "
                    f"{share(thrown, won)} | {time.perf_counter() - t0:.1f} |"
                )
                print(rows[-1], flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
