"""Compact checkpoints: how much of a stopped solve's work a checkpoint of only its dearest
table entries (``save_min_nodes``) spares the resumed solve, against the whole table and
against none.

For each board and each ``save_min_nodes`` (1: every entry), a solve is stopped after a share of
the nodes the whole solve takes, saved, and resumed to the end; one JSON line a run: the file's
bytes and entries, the resumed run's nodes, against the straight solve's.

    python experiments/compact-checkpoints/compact.py [--share 0.5] [--table-mb 256] OUT.jsonl [FILTER]

Resumable: a (board, share, min_nodes) already in OUT is not run again.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

import stonefield as sf

BOARDS = [
    ("smallholder hex3 nibbler", "smallholder", {"board": "hex3"}),
    ("smallholder hex3 stymie", "smallholder", {"board": "hex3", "ruleset": "stymie"}),
    ("windflowers square 3", "windflowers", {"grid": "square", "size": 3}),
    ("subsume size 3", "subsume", {"size": 3}),
]
MIN_NODES = [1, 2**4, 2**8, 2**12, 2**16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("filter", nargs="*")
    ap.add_argument("--share", type=float, default=0.5)
    ap.add_argument("--table-mb", type=int, default=256)
    args = ap.parse_args()
    done = set()
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            r = json.loads(line)
            done.add((r["board"], r["share"], r["min_nodes"]))
    for label, game, options in BOARDS:
        if args.filter and not all(f in label for f in args.filter):
            continue
        state = sf.make(game, **options).new_state()
        straight = sf.solve(state, table_mb=args.table_mb)
        for min_nodes in MIN_NODES:
            if (label, args.share, min_nodes) in done:
                continue
            d = Path(tempfile.mkdtemp(prefix="sf-compact-"))
            try:
                first = sf.solve(
                    state,
                    table_mb=args.table_mb,
                    max_nodes=int(straight.nodes * args.share),
                    checkpoint=d,
                    save_min_nodes=min_nodes,
                )
                size = (d / "solve.ckpt").stat().st_size
                t = time.perf_counter()
                resumed = sf.solve(state, table_mb=args.table_mb, checkpoint=d)
                seconds = time.perf_counter() - t
            finally:
                shutil.rmtree(d, ignore_errors=True)
            assert resumed.value == straight.value and list(resumed.outcomes) == list(straight.outcomes)
            row = {
                "board": label,
                "share": args.share,
                "min_nodes": min_nodes,
                "straight_nodes": straight.nodes,
                "first_nodes": first.nodes,
                "first_stopped_by": first.stopped_by,
                "file_bytes": size,
                "resumed_nodes": resumed.nodes,
                "resumed_seconds": round(seconds, 3),
                "total_over_straight": round((first.nodes + resumed.nodes) / straight.nodes, 3),
                "table_mb": args.table_mb,
                "date": time.strftime("%Y-%m-%d"),
            }
            print(json.dumps(row), flush=True)
            with args.out.open("a") as f:
                f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
