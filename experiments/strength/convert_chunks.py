"""Converts a ladder's chunk file of the former format (``ladder-TAG.chunks.jsonl``, one line
per chunk: its key and the first agent's points) into the lab's results file that
``strength.py`` now keeps (``ladder-TAG.results.jsonl``), once; the converted files are the
ones committed.

Run: ``python experiments/strength/convert_chunks.py experiments/strength/ladder-TAG.chunks.jsonl
...``. The ``--define`` arguments of the command in ``ladder-TAG.md`` (the report beside it)
give the header its defined agents, so that the same command with ``--resume`` takes the ladder
up from the converted file. Each chunk keeps its points and seconds; the former format kept no
per-game figures, so a converted chunk's game lengths are unknown (``null``), and it says
which seeds it was played with (the former ``seed + 7919 k`` for the match and ``seed + 2 k``,
``seed + 2 k + 1`` for the agents).
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import strength  # noqa: E402

from stonefield.lab.results import ResultsFile  # noqa: E402

#: What a converted chunk says of its seeds.
FORMER_SEEDS = "former: match seed + 7919 k, agents seed + 2 k and seed + 2 k + 1"


def defines(report: Path) -> list[str]:
    """The ``--define`` arguments of the command a ladder report records."""
    found = re.search(r"Command: `python \S+ ([^`]*)`", report.read_text())
    if found is None:
        raise ValueError(f"{report} records no command")
    words = shlex.split(found.group(1))
    return [words[i + 1] for i, w in enumerate(words) if w == "--define"]


def convert(old: Path, new: Path) -> int:
    """Writes the chunks of ``old`` to the results file ``new``; returns how many."""
    settings: strength.Settings = dict(strength.AGENTS)
    for text in defines(old.with_name(old.name.replace(".chunks.jsonl", ".md"))):
        name, found = strength.define(text)
        settings[name] = found
    rows = [json.loads(line) for line in old.read_text().splitlines() if line.strip()]
    keys = [json.loads(r["key"]) for r in rows]
    (head,) = {
        json.dumps(strength.header(k["budget"], k["seed"], k["chunk"], settings), sort_keys=True)
        for k in keys
    }
    if new.exists():
        new.unlink()
    with ResultsFile(
        str(new),
        json.loads(head),
        variants=strength.variants(settings),
        totals={"games": strength.MAX_GAMES},
        columns=(),
    ) as f:
        for row, k in zip(rows, keys):
            a, b = k["agents"]
            entry: dict[str, Any] = {
                "kind": "games",
                "variant": strength.variant(settings, k["game"], k["options"], a, b),
                "first": k["index"] * k["chunk"],
                "count": k["games"],
                "pairing": {"game": k["game"], "options": k["options"], "agents": [a, b]},
                "points": row["points"],
                "seconds": row["seconds"],
                "stats": {"length": [None] * k["games"]},
                "seeds": FORMER_SEEDS,
            }
            f.append(entry)
    return len(rows)


if __name__ == "__main__":
    for name in sys.argv[1:]:
        old = Path(name)
        new = old.with_name(old.name.replace(".chunks.jsonl", ".results.jsonl"))
        print(f"{old} -> {new}: {convert(old, new)} chunks")
