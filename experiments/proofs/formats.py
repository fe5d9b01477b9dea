"""Proofs of the same boards by two builds, taken in turn: the size of each format and the
seconds to write and check it, side by side on one machine.

    python experiments/proofs/formats.py --other DIR [--rounds N] [--out FILE] FILTER ...

``DIR`` holds another build's package (its ``stonefield`` directory, the compiled core in
it), for example a worktree of an older commit: ``git worktree add /tmp/old COMMIT``, its core
built (``cargo build --release --features python --lib``, the library copied to
``python/stonefield/_core.cpython-*.so``), then ``--other /tmp/old/python``. For each board of
``prove.py``'s list whose label contains every FILTER, each round writes and checks the
board's proof with the other build, then with this environment's (each in a process of its
own), and appends one JSON line a build: the board, the format version, lines, bytes, positions the
checker visited, and the seconds to write and to check. The proof file is deleted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from prove import BOARDS, label  # noqa: E402

#: What one process does: solve, write and check the board named on its command line.
ONE = """
import json, sys, time
from pathlib import Path
import stonefield as sf
game, options, path = sys.argv[1], json.loads(sys.argv[2]), Path(sys.argv[3])
state = sf.make(game, **options).new_state()
value = int(sf.solve(state).value)
t = time.perf_counter()
lines = sf.proofs.write_proof(state, value, path)
written = time.perf_counter() - t
check = sf.verify_proof(path)
print(json.dumps({
    "format_version": sf.proofs.FORMAT_VERSION, "value": value, "lines": lines,
    "bytes": path.stat().st_size, "positions": check.positions,
    "write_seconds": round(written, 3), "check_seconds": round(check.seconds, 3),
}))
"""


def run(pythonpath: str | None, game: str, options: dict[str, object]) -> dict[str, object]:
    """One build's row for one board (a process of its own): the package under
    ``pythonpath``, or with None the one this environment imports."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        if pythonpath is not None:
            env["PYTHONPATH"] = pythonpath
        out = subprocess.run(
            [sys.executable, "-c", ONE, game, json.dumps(options), str(Path(tmp) / "p.proof")],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    row: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return row


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("filters", nargs="+", help="parts of a board's label, all of them present")
    p.add_argument("--other", required=True, help="the other build's package directory")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--out", default=str(HERE / "results" / "formats.jsonl"))
    args = p.parse_args()
    if args.rounds < 1:
        p.error(f"--rounds must be at least 1, not {args.rounds}")
    if not (Path(args.other) / "stonefield").is_dir():
        p.error(f"--other {args.other}: no stonefield package there")
    boards = [(g, o) for g, o in BOARDS if all(f in label(g, o) for f in args.filters)]
    if not boards:
        p.error("no board of prove.py's list matches every filter")
    for round_ in range(args.rounds):
        for game, options in boards:
            for build, path in (("other", args.other), ("this", None)):
                row = {"board": label(game, options), "build": build, "round": round_}
                row.update(run(path, game, options))
                with open(args.out, "a") as f:
                    f.write(json.dumps(row) + "\n")
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
