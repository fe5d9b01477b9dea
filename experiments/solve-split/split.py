"""A solve split into questions that each finish in minutes, kept in an append-only log.

A proof-number search over the first moves of a game (PN², Allis 1994: a best-first tree at
the top whose leaves are solved by a second search), where the second search is
``sf.solve(..., value_only=True, max_nodes=BUDGET)``: alpha-beta in Rust with its own table.
Each worker solves its leaves in one table kept from leaf to leaf (``sf.SolveTable``), so a
leaf's solve starts with what the worker's earlier ones proved. A leaf that its budget settles
has an exact value; one that it does not is solved again with twice the budget, up to
``--max-budget``, then expanded, keeping the outcomes of the first moves the solve did prove,
and its children become leaves. The question
asked is "does the first player win?" (a value of at least ``--at-least`` for player 0).

Every leaf solved is one line of the log (its moves from the start, its value or none, the
outcomes it proved, its nodes and seconds), so the run resumes from the log alone, on any
machine, with at most the leaves in flight lost: the log is small enough to commit, unlike a
solver checkpoint of gigabytes. Positions are merged when the solver's keys say they are the
same, up to the board's symmetries (the images of a move list are replayed and their keys
compared, as the solver's table does), so the tree is a graph.

    python experiments/solve-split/split.py LOG GAME [--option K=V ...] [--budget N]
        [--workers N] [--threads N] [--table-mb M] [--hours H] [--at-least T] [--init N]
        [--status]

``--workers`` solves that many leaves at once, one process each (the most-proving leaves, each
chosen with those in flight set aside); ``--threads`` gives each leaf's solve that many threads
over its worker's one table, which on the boards measured pays better than more workers.
``--status`` reads the log and prints where the run stands (the root's numbers, the top tree,
the leaves solved, their nodes and hours) without solving or writing anything.

A run stops when the root is proven or disproven, at ``--hours``, or on Ctrl-C / SIGTERM
(leaves in flight are dropped, not logged).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import stonefield as sf

#: Proof and disproof numbers of settled nodes.
INF = 10**12
#: A leaf in flight, as seen by the selection of the next one (only chosen when nothing
#: else is left).
BUSY = 10**9


@dataclass
class Node:
    """A position of the top tree: a move list reaching it, the player to move, its exact
    value for player 0 once known, its children once expanded."""

    moves: tuple[int, ...]
    mover: int | None
    value: int | None = None
    children: dict[int, int] | None = None  # action -> node id
    pn: int = 1
    dn: int = 1
    busy: bool = False
    #: The node budget of its next solve (0: the run's first budget).
    budget: int = 0
    #: A leaf's numbers before any solve: 1 and 1, or from a search's win rate (`--init`).
    prior: tuple[int, int] = (1, 1)
    parents: list[int] = field(default_factory=list)


class Split:
    """The top tree of a split solve of one game from its start."""

    def __init__(
        self,
        game: Any,
        at_least: int = 1,
        budget: int = 2**27,
        max_budget: int | None = None,
        init_iterations: int = 0,
    ) -> None:
        self.game = game
        self.init_iterations = init_iterations
        self.at_least = at_least
        self.first_budget = budget
        self.max_budget = budget if max_budget is None else max(budget, max_budget)
        self.syms = np.asarray(game.symmetries, dtype=np.int64)
        self.nodes: list[Node] = []
        self.index: dict[tuple[int, int], int] = {}
        self.root = self.node_of(())
        #: The leaves' solves put in so far (log lines), their nodes and seconds, and how
        #: many settled their leaf.
        self.leaves = 0
        self.leaf_nodes = 0
        self.leaf_seconds = 0.0
        self.leaves_settled = 0

    # Positions -------------------------------------------------------------------------

    def state(self, moves: tuple[int, ...]) -> Any:
        s = self.game.new_state()
        for a in moves:
            s.apply(int(a))
        return s

    def ident(self, moves: tuple[int, ...]) -> tuple[int, int]:
        """The smallest key among the position's images (each image reached by the move list's
        image; a list whose image is illegal is skipped), with the move count."""
        best = None
        for perm in self.syms:
            try:
                s = self.state(tuple(int(perm[a]) if a < len(perm) else a for a in moves))
            except sf.StonefieldError:
                continue
            k = int(s.key())
            best = k if best is None else min(best, k)
        assert best is not None
        return (best, len(moves))

    def node_of(self, moves: tuple[int, ...]) -> int:
        ident = self.ident(moves)
        i = self.index.get(ident)
        if i is not None:
            return i
        s = self.state(moves)
        i = len(self.nodes)
        node = Node(moves=moves, mover=None if s.is_terminal() else int(s.current_player))
        if s.is_terminal():
            node.value = int(round(float(s.returns()[0])))
        elif self.init_iterations > 0:
            node.prior = self.prior(s)
        self.nodes.append(node)
        self.index[ident] = i
        self.settle_numbers(i)
        return i

    def prior(self, s: Any) -> tuple[int, int]:
        """A new leaf's proof and disproof numbers from the strong MCTS preset's value of it
        (a fixed number of iterations and seed, so a resumed run makes the same ones): w, the
        value for player 0 in [-1, 1], gives 4·e^(-8w) and 4·e^(8w), at least 1 each, so a
        position the search thinks player 0 wins looks cheap to prove and dear to disprove."""
        res = sf.MCTS(preset="strong", iterations=self.init_iterations, seed=0).analyse(s)
        w = float(res.value) if int(s.current_player) == 0 else -float(res.value)
        return (max(1, round(4 * math.exp(-8 * w))), max(1, round(4 * math.exp(8 * w))))

    # Numbers -----------------------------------------------------------------------------

    def settle_numbers(self, i: int) -> None:
        n = self.nodes[i]
        if n.value is not None:
            n.pn, n.dn = (0, INF) if n.value >= self.at_least else (INF, 0)
        elif n.children is None:
            # A leaf tried before costs more: its numbers grow with its budget (1, 2, 3...).
            tried = max(1, n.budget // self.first_budget).bit_length()
            pn, dn = n.prior
            n.pn, n.dn = (BUSY, BUSY) if n.busy else (tried * pn, tried * dn)
        else:
            # Moves that are images of each other reach one node: counted once.
            kids = [self.nodes[c] for c in set(n.children.values())]
            if n.mover == 0:  # the attacker's choice: one child proves
                n.pn = min(k.pn for k in kids)
                n.dn = min(INF, sum(k.dn for k in kids))
            else:
                n.pn = min(INF, sum(k.pn for k in kids))
                n.dn = min(k.dn for k in kids)
            if n.pn == 0 or n.dn == 0:
                vals = [k.value for k in kids]
                if n.mover == 0 and n.pn == 0:
                    n.value = max(v for v in vals if v is not None)
                elif n.mover != 0 and n.dn == 0:
                    n.value = min(v for v in vals if v is not None)
                elif all(v is not None for v in vals):
                    n.value = max(vals) if n.mover == 0 else min(vals)  # type: ignore[type-var]
                else:
                    # Settled for this question without every child's value: keep the bound
                    # as the value's side of the threshold.
                    n.value = self.at_least if n.pn == 0 else self.at_least - 1

    def update_up(self, i: int) -> None:
        """Numbers of `i`, and of every node above it whose numbers change (parents through
        the graph)."""
        stack = [i]
        while stack:
            j = stack.pop()
            n = self.nodes[j]
            before = (n.pn, n.dn, n.value)
            self.settle_numbers(j)
            if j == i or before != (n.pn, n.dn, n.value):
                stack.extend(n.parents)

    def most_proving(self) -> int | None:
        """The leaf to solve next: down from the root, the child with the least proof number
        at the attacker's nodes, the least disproof number at the defender's; None when the
        root is settled or every open leaf is in flight."""
        i = self.root
        seen = set()
        while True:
            n = self.nodes[i]
            if n.value is not None or i in seen:
                return None
            seen.add(i)
            if n.children is None:
                return None if n.busy else i
            open_kids = [c for c in set(n.children.values()) if self.nodes[c].value is None]
            if not open_kids:
                return None
            key = (lambda c: self.nodes[c].pn) if n.mover == 0 else (lambda c: self.nodes[c].dn)
            i = min(open_kids, key=lambda c: (key(c), c))

    # Leaves ------------------------------------------------------------------------------

    def apply_result(self, i: int, row: dict[str, Any]) -> None:
        """Puts a leaf's solve (a log line) into the tree: its value, or its children with the
        outcomes the solve proved."""
        n = self.nodes[i]
        n.busy = False
        self.leaves += 1
        self.leaf_nodes += int(row["nodes"])
        self.leaf_seconds += float(row["seconds"])
        self.leaves_settled += row["value"] is not None
        if n.value is not None or n.children is not None:
            self.update_up(i)
            return
        sign = 1 if n.mover == 0 else -1
        if row["value"] is not None:
            n.value = sign * int(row["value"])
        elif not row.get("split", True):
            # Tried again with twice the budget before it is split: one solve keeps its
            # table for the whole subtree, where its children's solves would each start empty.
            n.budget = 2 * int(row["budget"])
        else:
            n.children = {}
            proven = {int(a): int(o) for a, o in row["outcomes"].items()}
            for a in self.state(n.moves).legal_actions():
                c = self.node_of(n.moves + (int(a),))
                kid = self.nodes[c]
                if int(a) in proven and kid.value is None and kid.children is None:
                    kid.value = sign * proven[int(a)]
                    self.settle_numbers(c)
                n.children[int(a)] = c
                if i not in kid.parents:
                    kid.parents.append(i)
        self.update_up(i)


#: Each worker's table, kept from one leaf's solve to the next (`sf.SolveTable`).
_TABLES: dict[str, Any] = {}


def solve_leaf(
    game_name: str,
    options: dict[str, Any],
    moves: tuple[int, ...],
    budget: int,
    table_mb: int,
    threads: int = 1,
) -> dict[str, Any]:
    """One leaf's solve, in a worker process: value_only alpha-beta under a node budget (all
    threads together), in the worker's table, which keeps what its earlier leaves proved; with
    ``threads`` the leaf's first moves are shared out over that many threads of one table."""
    g = sf.make(game_name, **options)
    key = json.dumps([game_name, options, table_mb], sort_keys=True)
    if key not in _TABLES:
        _TABLES.clear()
        _TABLES[key] = sf.SolveTable(g, table_mb=table_mb)
    s = g.new_state()
    for a in moves:
        s.apply(int(a))
    t = time.perf_counter()
    r = sf.solve(s, value_only=True, max_nodes=budget, table=_TABLES[key], threads=threads)
    outcomes = {
        int(a): int(o)
        for a, o in zip(r.actions, r.outcomes)
        if int(o) != int(sf.SolveResult.NOT_PROVEN)
    }
    return {
        "moves": list(moves),
        "value": None if r.value is None else int(r.value),
        "outcomes": outcomes,
        "nodes": int(r.nodes),
        "seconds": round(time.perf_counter() - t, 3),
        "budget": budget,
        "stopped_by": r.stopped_by,
    }


def run(
    log: Path,
    game_name: str,
    options: dict[str, Any],
    budget: int,
    workers: int,
    table_mb: int,
    hours: float | None,
    at_least: int,
    max_budget: int | None = None,
    init_iterations: int = 0,
    quiet: bool = False,
    threads: int = 1,
    status: bool = False,
) -> Split:
    game = sf.make(game_name, **options)
    tree = Split(game, at_least, budget, max_budget, init_iterations)
    head = {"game": game_name, "options": options, "at_least": at_least}
    if log.exists():
        lines = log.read_text().splitlines()
        saved = json.loads(lines[0])
        if {k: saved.get(k) for k in head} != head:
            raise SystemExit(f"{log} is a run of {saved}, not of {head}: give another log")
        for line in lines[1:]:
            row = json.loads(line)
            tree.apply_result(tree.node_of(tuple(row["moves"])), row)
    elif status:
        raise SystemExit(f"{log} does not exist: there is no run to report on")
    else:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(json.dumps(head) + "\n")
    if status:
        return tree
    deadline = None if hours is None else time.monotonic() + hours * 3600
    stop = {"now": False}

    def on_term(signum: int, frame: Any) -> None:
        stop["now"] = True

    previous = signal.signal(signal.SIGTERM, on_term)
    pool = multiprocessing.get_context("spawn").Pool(workers)
    flight: dict[int, Any] = {}  # node id -> AsyncResult
    try:
        while not stop["now"]:
            if deadline is not None and time.monotonic() > deadline:
                break
            while len(flight) < workers and tree.nodes[tree.root].value is None:
                i = tree.most_proving()
                if i is None:
                    break
                tree.nodes[i].busy = True
                tree.update_up(i)
                flight[i] = pool.apply_async(
                    solve_leaf,
                    (
                        game_name,
                        options,
                        tree.nodes[i].moves,
                        tree.nodes[i].budget or budget,
                        table_mb,
                        threads,
                    ),
                )
            if not flight:
                break
            ready = [i for i, res in flight.items() if res.ready()]
            if not ready:
                time.sleep(0.05)
                continue
            for i in ready:
                row = flight.pop(i).get()
                # Whether an unsettled leaf is split or tried again is decided here and logged,
                # so a resume with other budgets rebuilds the same tree.
                row["split"] = row["value"] is None and 2 * row["budget"] > tree.max_budget
                with log.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                tree.apply_result(i, row)
                if not quiet:
                    r = tree.nodes[tree.root]
                    print(
                        f"{row['moves']} value {row['value']} nodes {row['nodes']:,} "
                        f"({row['seconds']} s); root pn {r.pn} dn {r.dn}",
                        flush=True,
                    )
    except KeyboardInterrupt:
        pass
    finally:
        pool.terminate()
        pool.join()
        signal.signal(signal.SIGTERM, previous)
    return tree


def summary(tree: Split) -> dict[str, Any]:
    r = tree.nodes[tree.root]
    return {
        "root_value_for_player_0": r.value,
        "question": f"player 0 gets at least {tree.at_least}",
        "answer": None if r.value is None else r.value >= tree.at_least,
        "root_pn": r.pn,
        "root_dn": r.dn,
        "top_nodes": len(tree.nodes),
        "settled": sum(n.value is not None for n in tree.nodes),
        "leaves": tree.leaves,
        "leaves_settled": tree.leaves_settled,
        "leaf_nodes": tree.leaf_nodes,
        "leaf_hours": round(tree.leaf_seconds / 3600, 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", type=Path)
    ap.add_argument("game")
    ap.add_argument("--option", action="append", default=[], metavar="K=V")
    ap.add_argument("--budget", type=int, default=2**27, help="nodes a leaf's first solve may take")
    ap.add_argument(
        "--max-budget",
        type=int,
        default=None,
        help="a leaf not settled is solved again with twice the budget up to this "
        "many nodes, then split into its children (default: --budget, split at once)",
    )
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--threads",
        type=int,
        default=1,
        help="threads of each leaf's solve, sharing its worker's table (default 1)",
    )
    ap.add_argument("--table-mb", type=int, default=1024)
    ap.add_argument("--hours", type=float, default=None)
    ap.add_argument("--at-least", type=int, default=1)
    ap.add_argument(
        "--init",
        type=int,
        default=0,
        metavar="ITERATIONS",
        help="a new leaf's proof numbers from the strong MCTS preset's value after this many "
        "iterations (default 0: every new leaf 1 and 1)",
    )
    ap.add_argument(
        "--status",
        action="store_true",
        help="only read the log and print where the run stands (solves nothing, writes nothing)",
    )
    args = ap.parse_args()
    if args.init < 0:
        ap.error("--init must be 0 (none) or a number of iterations")
    if args.workers < 1 or args.threads < 1 or args.budget < 1 or args.table_mb < 1:
        ap.error("--workers, --threads, --budget and --table-mb must be at least 1")
    if args.max_budget is not None and args.max_budget < args.budget:
        ap.error("--max-budget must be at least --budget")
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    tree = run(
        args.log,
        args.game,
        sf.parse_options(args.option),
        args.budget,
        args.workers,
        args.table_mb,
        args.hours,
        args.at_least,
        args.max_budget,
        args.init,
        threads=args.threads,
        status=args.status,
    )
    print(json.dumps(summary(tree)))


if __name__ == "__main__":
    main()
