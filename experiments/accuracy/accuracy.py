"""Agents against perfect play on solved boards: how often an agent's move keeps the position's
value, and how often it throws a won position away.

Positions are drawn from two kinds of games, half each: random games and MCTS self-play games
(100 iterations a move), every position of a game with more than one legal action being a
candidate, a tenth of each game's candidates kept, until ``--positions`` per board are
collected, each position once (by its key and move count). Each is solved exactly
(``sf.solve``), and every agent is asked for a move at each iteration budget. The agents are
presets of ``sf.MCTS``: ``uct`` (plain UCT with random playouts) and ``strong``
(``preset="strong"``, the per-game GRAVE/MAST settings), and ``expert`` (``sf.expert``: PUCT
guided by the network the package ships for the game, which plays every board of its game; the
budget is its simulations; boards with other rules than its network was trained with are
skipped for it, with the reason printed). Run::

    python experiments/accuracy/accuracy.py [--positions 200] [--budgets 100,1000,10000]
        [--agents uct,strong,expert] [--seed 0] [--board TEXT ...] [--out FILE]

It prints a markdown table (and writes it with ``--out FILE``), shares with their 95 % Wilson
intervals; the committed numbers are in ``experiments/accuracy/accuracy.md`` (the docs show
them in docs/solved/accuracy.md). ``--board TEXT`` (repeatable) runs only the boards whose
label (``game key=value ...``) contains one of the texts; the rows of the other boards already
in ``--out FILE`` are kept, in the order of ``BOARDS``. This is a benchmark, not a test: nothing
here is asserted.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import stonefield as sf
from stonefield.matches import wilson_interval

#: Boards small enough that every drawn position solves in seconds at most (the Smallholder hex3's
#: openings take the longest, a few seconds each).
BOARDS: list[tuple[str, dict[str, object]]] = [
    ("smallholder", {"board": "hex232323"}),
    ("smallholder", {"board": "hex232323", "ruleset": "stymie"}),
    ("faraday", {"grid": "square_omni", "order": 3}),
    ("faraday", {"grid": "hex_limping", "order": 3}),
    ("windflowers", {"size": 3, "max_moves": 12}),
    ("windflowers", {"size": 3}),
    ("subsume", {"size": 3}),
    ("smallholder", {"board": "hex3"}),
]

#: The agents compared, as ``sf.MCTS`` settings besides the budget and seed; ``expert`` is
#: ``sf.expert`` instead (the budget its simulations).
AGENTS: dict[str, dict[str, object]] = {"uct": {}, "strong": {"preset": "strong"}, "expert": {}}


def make_agent(name: str, game: sf.Game, budget: int, seed: int) -> sf.MCTS | sf.PUCT:
    """The agent ``name`` (a key of :data:`AGENTS`) with ``budget`` iterations or simulations."""
    if name == "expert":
        return sf.expert(game, simulations=budget, seed=seed)
    return sf.MCTS(iterations=budget, seed=seed, **AGENTS[name])  # type: ignore[arg-type]


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


def label(name: str, options: dict[str, object]) -> str:
    """A board's label in the table: the game's name and its options, ``key=value``."""
    return " ".join([name, *(f"{k}={v}" for k, v in options.items())])


def outcome_of(result: sf.SolveResult, action: int) -> int:
    """The mover's perfect-play outcome after `action`, from the position's solve."""
    return int(result.outcomes[list(result.actions).index(action)])


def merge(old: list[str], new: dict[str, list[str]]) -> list[str]:
    """The table's data rows: `new` rows by board label, and the `old` rows of every other board
    and of the other agents of a board run again, in the order of ``BOARDS`` (boards no longer
    listed go last, as they were)."""

    def cells(row: str) -> list[str]:
        return [c.strip() for c in row.strip().strip("|").split(" | ")]

    by_board: dict[str, list[str]] = {}
    for row in old:
        by_board.setdefault(cells(row)[0], []).append(row)
    for board, rows in new.items():
        rerun = {cells(r)[1] for r in rows}
        kept = [r for r in by_board.get(board, []) if cells(r)[1] not in rerun]
        by_board[board] = kept + rows
    order = [label(n, o) for n, o in BOARDS]
    order += [b for b in by_board if b not in order]
    return [row for b in order for row in by_board.get(b, [])]


HEADER = [
    "| board | agent | iterations | positions | keeps the value | won positions | "
    "throws a win away | seconds |",
    "|---|---|---|---|---|---|---|---|",
]


def main(argv: list[str] | None = None) -> list[str]:
    """Runs the benchmark; returns the rows it played (the file, with ``--out``, keeps the rest)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--budgets", default="100,1000,10000")
    ap.add_argument("--agents", default="uct,strong")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--board", action="append", default=None, metavar="TEXT")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    agents = args.agents.split(",")
    for a in agents:
        if a not in AGENTS:
            ap.error(f"unknown agent {a!r}; agents are {', '.join(AGENTS)}")
    boards = [
        (n, o) for n, o in BOARDS if not args.board or any(t in label(n, o) for t in args.board)
    ]
    if not boards:
        ap.error(f"no board matches {args.board}; boards are {[label(n, o) for n, o in BOARDS]}")
    new: dict[str, list[str]] = {}
    for name, options in boards:
        game = sf.make(name, **options)  # type: ignore[arg-type]
        board = label(name, options)
        drawn = positions(game, args.positions, random.Random(args.seed))
        # One table for the board's positions: each solve keeps what the earlier ones proved
        # (200 positions of hex3: 19 M nodes, 9 s, where a table each took 263 M, 96 s).
        table = sf.SolveTable(game, table_mb=256)
        solved = [(s, sf.solve(s, table=table)) for s in drawn]
        rows = new.setdefault(board, [])
        for agent_name in agents:
            why = sf.experts.plays(game) if agent_name == "expert" else None
            if why is not None:
                print(f"{board}: no expert rows: {why}", flush=True)
                continue
            for it in budgets:
                t0 = time.perf_counter()
                keep = won = thrown = 0
                for i, (s, res) in enumerate(solved):
                    agent = make_agent(agent_name, game, it, args.seed + i)
                    outcome = outcome_of(res, agent.act(s))
                    keep += outcome == res.value
                    if res.value == 1:
                        won += 1
                        thrown += outcome < 1
                n = len(solved)
                rows.append(
                    f"| {board} | {agent_name} | {it} | {n} | {share(keep, n)} | {won} | "
                    f"{share(thrown, won)} | {time.perf_counter() - t0:.1f} |"
                )
                print(rows[-1], flush=True)
    if args.out:
        out = Path(args.out)
        old = out.read_text(encoding="utf-8").splitlines()[2:] if out.exists() else []
        table = merge([row for row in old if row.startswith("| ")], new)
        out.write_text("\n".join(HEADER + table) + "\n", encoding="utf-8")
    return [row for rows in new.values() for row in rows]


if __name__ == "__main__":
    main()
