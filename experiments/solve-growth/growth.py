"""How a solve grows with the empty cells left: positions of one board a number of random moves
in, solved whole, nodes per position, so that the empty board's cost can be estimated from
measured growth instead of guessed.

    python experiments/solve-growth/growth.py results/growth.jsonl                # every series
    python experiments/solve-growth/growth.py results/growth.jsonl hex4          # series matching

Each line of the output is one solve: series, plies, seed, value, nodes, seconds, why it
stopped. Positions: `random.Random(seed)` choosing among the legal actions, from the
empty board, for `plies` moves (a game over before that is skipped). One thread, 1 GiB table,
symmetry on, a time cap per solve (a capped solve is a lower bound and says so). A run skips the
lines its output file has, so it resumes.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import stonefield as sf

#: Series: a name, the game, its options, the plies to measure, the seeds, the cap in seconds.
SERIES: list[tuple[str, str, dict[str, Any], list[int], list[int], float]] = [
    (
        "smallholder hex343434 nibbler",
        "smallholder",
        {"board": "hex343434"},
        [14, 10, 6],
        [1, 2, 3, 4],
        300.0,
    ),
    (
        "smallholder hex4 nibbler",
        "smallholder",
        {"board": "hex4"},
        [24, 20, 16],
        [1, 2, 3, 4],
        300.0,
    ),
    ("subsume size 4", "subsume", {"size": 4}, [24, 20, 16, 12], [1, 2, 3, 4], 300.0),
] + [
    (
        f"smallholder hex343434 {ruleset}",
        "smallholder",
        {"board": "hex343434", "ruleset": ruleset},
        [14, 10, 8, 6],
        [1, 2, 3, 4],
        300.0,
    )
    for ruleset in ("gaps_original", "offshore_gaps", "stymie", "hull_setbacks")
]

TABLE_MB = 1024


def position(game: sf.Game, plies: int, seed: int) -> sf.State | None:
    rng = random.Random(seed)
    state = game.new_state()
    while state.move_count < plies:
        if state.is_terminal():
            return None
        state.apply(rng.choice(list(state.legal_actions())))
    return None if state.is_terminal() else state


def main() -> None:
    out = Path(sys.argv[1])
    pick = sys.argv[2] if len(sys.argv) > 2 else ""
    done = set()
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            done.add((row["series"], row["plies"], row["seed"]))
    out.parent.mkdir(parents=True, exist_ok=True)
    for name, game_name, options, plies_list, seeds, cap in SERIES:
        if pick not in name:
            continue
        game = sf.make(game_name, **options)
        for plies in plies_list:
            for seed in seeds:
                if (name, plies, seed) in done:
                    continue
                state = position(game, plies, seed)
                if state is None:
                    continue
                r = sf.solve(state, table_mb=TABLE_MB, time=cap)
                row = {
                    "series": name,
                    "plies": plies,
                    "seed": seed,
                    "value": r.value,
                    "nodes": int(r.nodes),
                    "seconds": round(r.seconds, 3),
                    "stopped_by": r.stopped_by,
                }
                with out.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
