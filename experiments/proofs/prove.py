"""Writes and checks a proof of every solved board's value, one board after another, resumable.

    python experiments/proofs/prove.py [--time SECONDS] [--keep-bytes N] [--out FILE]
        [--files DIR] [FILTER ...]

For each board of :data:`BOARDS` (those whose label contains every FILTER, all without one)
that has no row in the results file yet: solve the empty board (``sf.solve``), write a proof of
its value (``sf.proofs.write_proof``, at most ``--time`` seconds, default 600) and check it with
the separate checker (``sf.verify_proof``, the rules alone). One JSON line a board goes to the
results file (default ``results/proofs.jsonl``): the value, the proof's lines and bytes, the
positions the checker visited, the seconds of each step, and the file kept under ``files/``
when it is at most ``--keep-bytes`` (default 1,000,000) bytes; a larger proof is checked and
deleted (the row's command writes it again). A board whose proof takes longer than ``--time``
gets a row saying so. A stopped run goes on with the boards it lacks.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from datetime import date
from pathlib import Path
from typing import Any

import stonefield as sf

HERE = Path(__file__).resolve().parent

SMALLHOLDER_RULESETS = ("nibbler", "gaps_original", "offshore_gaps", "stymie", "hull_setbacks")
FARADAY_GRIDS = ("square_omni", "hex_limping", "trisquare", "trisquare_omni", "hex", "hex_omni")
WINDFLOWERS_VARIANTS = [
    {"scoring": scoring, "tiebreak": tiebreak, "last_placer_breaks_ties": last}
    for scoring in ("stones", "largest_group")
    for tiebreak in ("underdog", "cascade")
    for last in (False, True)
]

#: The solved boards (``docs/solved/``), as (game, options), roughly the cheapest proofs first
#: (the largest Faraday order 3 grids, hex and hex_omni, write proofs of tens of MB).
BOARDS: list[tuple[str, dict[str, Any]]] = [
    *[("smallholder", {"board": "hex232323", "ruleset": r}) for r in SMALLHOLDER_RULESETS],
    *[
        ("faraday", {"grid": g, "order": 3, "surplus_charge": c})
        for g in FARADAY_GRIDS[:4]
        for c in (False, True)
    ],
    ("subsume", {"size": 3}),
    *[("faraday", {"grid": g, "order": 3, "min_offer_stones": 1}) for g in FARADAY_GRIDS],
    ("faraday", {"grid": "square_omni", "order": 4, "min_offer_stones": 1}),
    *[("smallholder", {"board": "hex3", "ruleset": r}) for r in SMALLHOLDER_RULESETS],
    *[("windflowers", {"grid": "trisquare", "size": 3, **v}) for v in WINDFLOWERS_VARIANTS],
    *[
        ("faraday", {"grid": g, "order": 3, "surplus_charge": c})
        for g in FARADAY_GRIDS[4:]
        for c in (False, True)
    ],
    *[("windflowers", {"grid": "square", "size": 3, **v}) for v in WINDFLOWERS_VARIANTS],
    ("faraday", {"grid": "hex_limping", "order": 4, "min_offer_stones": 1}),
    *[("windflowers", {"grid": "hex", "size": 3, **v}) for v in WINDFLOWERS_VARIANTS],
]


def label(game: str, options: dict[str, Any]) -> str:
    """``game key=value ...``, booleans in lower case (the CLI's spelling)."""
    parts = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items()]
    return " ".join([game, *parts])


def command(game: str, options: dict[str, Any], path: str) -> str:
    """The CLI command that writes and checks this board's proof."""
    opts = " ".join(
        f"--option {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items()
    )
    return f"stonefield solve {game} {opts} --proof {path} && stonefield verify-proof {path}"


def prove(game: str, options: dict[str, Any], seconds: float, keep: int, files: Path) -> dict:
    """One board's row: solved, its proof written (at most ``seconds``) and checked."""
    name = label(game, options)
    slug = name.replace(" ", "_").replace("=", "-")
    state = sf.make(game, **options).new_state()
    solved = sf.solve(state)
    row: dict[str, Any] = {
        "board": name,
        "game": game,
        "options": options,
        "value": solved.value,
        "solve_nodes": solved.nodes,
        "solve_seconds": round(solved.seconds, 3),
        "date": date.today().isoformat(),
        "command": command(game, options, f"{slug}.proof"),
        "format_version": sf.proofs.FORMAT_VERSION,
    }
    files.mkdir(parents=True, exist_ok=True)
    # Written and checked under another name, so that the folder of kept proofs never holds
    # one that is not kept (a large proof is there for many minutes).
    path = files / f"{slug}.proof.checking"
    started = time.perf_counter()
    try:
        lines = sf.proofs.write_proof(state, int(solved.value), path, time=seconds)
    except TimeoutError:
        row.update(stopped="time", write_seconds=seconds)
        return row
    row["write_seconds"] = round(time.perf_counter() - started, 3)
    check = sf.verify_proof(path)
    assert check.value == solved.value and check.moves == lines
    size = path.stat().st_size
    kept = files / f"{slug}.proof"
    row.update(
        stopped="",
        lines=lines,
        bytes=size,
        positions=check.positions,
        check_seconds=round(check.seconds, 3),
        kept=f"files/{kept.name}" if size <= keep else None,
    )
    if size <= keep:
        path.replace(kept)
    else:
        path.unlink()
    return row


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("filters", nargs="*", help="parts of a board's label, all of them present")
    p.add_argument("--time", type=float, default=600.0, help="seconds to write one proof")
    p.add_argument("--keep-bytes", type=int, default=1_000_000)
    p.add_argument("--out", default=str(HERE / "results" / "proofs.jsonl"))
    p.add_argument("--files", default=str(HERE / "files"))
    args = p.parse_args()
    if not args.time > 0:
        p.error(f"--time must be above 0, not {args.time}")
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {json.loads(line)["board"] for line in out.read_text().splitlines() if line}
    out.parent.mkdir(parents=True, exist_ok=True)
    for game, options in BOARDS:
        name = label(game, options)
        if name in done or not all(f in name for f in args.filters):
            continue
        row = prove(game, options, args.time, args.keep_bytes, Path(args.files))
        with open(out, "a") as f:
            f.write(json.dumps(row) + "\n")
            f.flush()
            os.fsync(f.fileno())
        what = "out of time" if row["stopped"] else f"{row['lines']:,} lines, checked"
        print(f"{name}: value {row['value']:+d}, {what} ({row['write_seconds']:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
