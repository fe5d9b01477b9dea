"""The solver guided by a trained network, against the solver alone: node counts side by side.

Each line of the output file is one solve: the board, the settings (guide, guide_depth,
value_only, method, a time cap; ``rank: mcts`` solves the root's actions in the order of a
strong MCTS search's visits first, through ``try_first``), its value, the first moves
proven, nodes and seconds. A run skips the solves its output file holds already, so it
resumes where it stopped.

    python experiments/solve-guided/guided.py results/guided.jsonl            # every board
    python experiments/solve-guided/guided.py results/guided.jsonl subsume    # boards matching

One thread, 256 MiB table (1 GiB for the 27-cell positions), symmetry on (the solver's
defaults otherwise). Node counts of one thread do not depend on the machine; seconds do
(compare them only within one run).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import stonefield as sf

#: The boards: a name, the game and its options.
BOARDS: list[tuple[str, str, dict[str, Any]]] = [
    ("smallholder hex3 nibbler", "smallholder", {"board": "hex3"}),
    (
        "smallholder hex3 hull_setbacks",
        "smallholder",
        {"board": "hex3", "ruleset": "hull_setbacks"},
    ),
    ("smallholder hex3 stymie", "smallholder", {"board": "hex3", "ruleset": "stymie"}),
    ("subsume size 3", "subsume", {"size": 3}),
    ("windflowers trisquare 3", "windflowers", {"grid": "trisquare", "size": 3}),
    ("windflowers square 3", "windflowers", {"grid": "square", "size": 3}),
    ("faraday hex_limping 3", "faraday", {"grid": "hex_limping", "order": 3}),
]

#: Positions of the 27-cell board a few random moves in (Python's `random.Random(seed)`
#: choosing among the legal actions): a name, the plies and the seed. Only the value is asked.
POSITIONS: list[tuple[str, int, int]] = [
    (f"smallholder hex343434 nibbler, 6 random plies (seed {seed})", 6, seed)
    for seed in (1, 2, 3, 4)
]

#: The settings tried on those positions.
POSITION_SETTINGS: list[dict[str, Any]] = [
    {"value_only": True},
    {"guide": "expert", "guide_depth": 0, "value_only": True},
    {"guide": "expert", "guide_depth": 4, "value_only": True},
    {"value_only": True, "rank": "mcts"},
    {"guide": "expert", "guide_depth": 4, "value_only": True, "rank": "mcts"},
]

#: The settings tried on every board (the first is the solver alone).
SETTINGS: list[dict[str, Any]] = [
    {},
    {"guide": "expert", "guide_depth": 2},
    {"guide": "expert", "guide_depth": 4},
    {"guide": "expert", "guide_depth": 6},
    {"value_only": True},
    {"guide": "expert", "guide_depth": 0, "value_only": True},
    {"guide": "expert", "guide_depth": 4, "value_only": True},
    {"value_only": True, "rank": "mcts"},
    {"guide": "expert", "guide_depth": 4, "value_only": True, "rank": "mcts"},
    {"method": "pns", "value_only": True, "time": 60},
    {"method": "pns", "guide": "expert", "guide_depth": 0, "value_only": True, "time": 60},
]

TABLE_MB = 256
#: Iterations of the strong MCTS preset that ranks the root's actions for ``rank: mcts``.
RANK_ITERATIONS = 20_000


def label(setting: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in setting.items()) or "alone"


def main() -> None:
    out = Path(sys.argv[1])
    pick = sys.argv[2] if len(sys.argv) > 2 else ""
    done = set()
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            done.add((row["board"], row["setting"]))
    out.parent.mkdir(parents=True, exist_ok=True)
    jobs: list[tuple[str, sf.State, list[dict[str, Any]], int]] = []
    for name, game, options in BOARDS:
        jobs.append((name, sf.make(game, **options).new_state(), SETTINGS, TABLE_MB))
    for name, plies, seed in POSITIONS:
        rng = random.Random(seed)
        state = sf.make("smallholder", board="hex343434").new_state()
        while state.move_count < plies and not state.is_terminal():
            state.apply(rng.choice(list(state.legal_actions())))
        jobs.append((name, state, POSITION_SETTINGS, 1024))
    for name, state, settings, table_mb in jobs:
        if pick not in name:
            continue
        for setting in settings:
            key = (name, label(setting))
            if key in done:
                continue
            kw = dict(setting)
            ranked = 0.0
            if kw.pop("rank", None) == "mcts":
                # The root's actions by the visits of a strong search (one thread, seeded).
                t = time.perf_counter()
                res = sf.MCTS(preset="strong", iterations=RANK_ITERATIONS, seed=1).analyse(state)
                kw["try_first"] = [
                    int(a) for a in res.actions[(-res.visits).argsort(kind="stable")]
                ]
                ranked = time.perf_counter() - t
            try:
                t = time.perf_counter()
                r = sf.solve(state, table_mb=table_mb, **kw)
                wall = time.perf_counter() - t
            except sf.InvalidOptionError as e:
                print(f"{name}: {label(setting)}: {e}", flush=True)
                continue
            row = {
                "board": name,
                "setting": label(setting),
                "value": r.value,
                "best": list(r.best),
                "proven": int(sum(1 for o in r.outcomes if o != -128)),
                "first_moves": len(r.outcomes),
                "nodes": int(r.nodes),
                "seconds": round(r.seconds, 4),
                "wall": round(wall, 4),
                "stopped_by": r.stopped_by,
                "rank_seconds": round(ranked, 3),
            }
            with out.open("a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
