"""Instruction counts of fixed workloads, for comparing two builds side by side on a busy machine.

Run: ``python benches/instructions.py [--python A/bin/python --python B/bin/python ...]
[--kind sim,lab,vec,mcts] [--game NAME ...]``. Each workload (``sim``: ``sf.simulate`` of N
random games; ``lab``: ``sf.lab.evaluate`` of N random games with its metrics; ``vec``: N steps
of a 64-environment ``VectorEnv`` with random actions; ``mcts``: one ``sf.MCTS`` search of N
iterations from the empty board) runs under ``valgrind --tool=callgrind`` at two sizes, N and 2N,
with each interpreter given (a virtual environment's ``python`` with stonefield installed;
default: this one). The difference between the two sizes is the cost of N units of work with the
interpreter's start-up taken away. Instructions are summed per object file: the extension
(``_core``), libpython, libc (mostly the allocator) and numpy; OpenBLAS's idle threads and the
loader are left out, because they vary from run to run. What remains repeats to a few parts in
a hundred thousand whatever else the machine is doing, which timings on a shared 2-core machine
do not. The workloads run one thread each (``threads=1``), interleaved across interpreters.

Instructions are not seconds (a cache miss costs nothing here), so a change that moves memory
traffic needs timings too; for a change of code paths they are the sharpest measure there is.

``--work KIND GAME N`` runs one workload without valgrind (what each measured process does).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

#: Units of work per workload and game (the smaller of the two sizes).
SIZES: dict[str, dict[str, int]] = {
    "sim": {"smallholder": 10_000, "windflowers": 20_000, "faraday": 5_000, "subsume": 4_000},
    "lab": {"smallholder": 10_000, "windflowers": 20_000, "faraday": 5_000, "subsume": 4_000},
    "vec": {"smallholder": 200, "windflowers": 200, "faraday": 200, "subsume": 100},
    "mcts": {"smallholder": 5_000, "windflowers": 5_000, "faraday": 5_000, "subsume": 2_000},
}

#: What a unit is, per workload.
UNITS = {"sim": "game", "lab": "game", "vec": "step of 64", "mcts": "iteration"}

#: The object files counted, by a pattern of their path.
OBJECTS = {"core": r"_core", "python": r"libpython", "libc": r"libc\.so", "numpy": r"numpy"}


def work(kind: str, game: str, n: int) -> None:
    import stonefield as sf

    if kind == "sim":
        sf.simulate(game, n, seed=1, threads=1)
    elif kind == "lab":
        sf.lab.evaluate(game, games=n, seed=1, threads=1).metrics()
    elif kind == "vec":
        env = sf.VectorEnv(game, 64, seed=1, threads=1)
        env.reset()
        for _ in range(n):
            env.step(env.random_actions())
    elif kind == "mcts":
        sf.MCTS(iterations=n, seed=1).analyse(sf.make(game).new_state())
    else:
        raise SystemExit(f"unknown workload {kind!r}; workloads: {', '.join(SIZES)}")


def count(python: str, kind: str, game: str, n: int) -> dict[str, int]:
    """Instructions per counted object file of one run of a workload."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python]
        cmd += [os.path.abspath(__file__), "--work", kind, game, str(n)]
        subprocess.run(cmd, check=True, env=env, capture_output=True)
        text = subprocess.run(
            ["callgrind_annotate", "--threshold=100", out],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    totals = dict.fromkeys(OBJECTS, 0)
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) .*\[(.*)\]\s*$", line)
        if not m:
            continue
        for name, pattern in OBJECTS.items():
            if re.search(pattern, m.group(2)):
                totals[name] += int(m.group(1).replace(",", ""))
                break
    return totals


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--python", action="append", default=None, help="an interpreter to measure")
    p.add_argument("--kind", default="sim,lab,vec,mcts", help="workloads, comma separated")
    p.add_argument("--game", action="append", default=None, help="games (default: all)")
    p.add_argument("--work", nargs=3, metavar=("KIND", "GAME", "N"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.work:
        work(args.work[0], args.work[1], int(args.work[2]))
        return
    pythons = args.python or [sys.executable]
    kinds = args.kind.split(",")
    games = args.game or ["smallholder", "windflowers", "faraday", "subsume"]
    head = " | ".join(f"build {i + 1}: extension, all" for i in range(len(pythons)))
    print(f"| workload | game | unit | {head} | ratio (all) |")
    print("|---" * (4 + len(pythons)) + "|")
    for kind in kinds:
        for game in games:
            n = SIZES[kind][game]
            per: list[tuple[float, float]] = []
            for python in pythons:
                small, large = count(python, kind, game, n), count(python, kind, game, 2 * n)
                core = (large["core"] - small["core"]) / n
                every = (sum(large.values()) - sum(small.values())) / n
                per.append((core, every))
            cells = " | ".join(f"{c:,.0f}, {a:,.0f}" for c, a in per)
            ratios = ", ".join(f"{a / per[0][1]:.4f}" for _, a in per[1:]) or "-"
            print(f"| {kind} | {game} | {UNITS[kind]} | {cells} | {ratios} |", flush=True)


if __name__ == "__main__":
    main()
