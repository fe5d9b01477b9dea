"""The ``stonefield verify-proof`` command: checks a proof written by ``solve --proof``.

Registered by :mod:`stonefield.cli` through :func:`add_parser`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .. import _core
from ..proofs import verify_proof


def add_parser(sub: Any) -> None:
    """Adds ``verify-proof`` to the subcommands."""
    p = sub.add_parser(
        "verify-proof",
        help="check a proof of a solved position with the rules alone",
        description="Checks a proof file written by `stonefield solve --proof PATH` (or "
        "sf.solve(..., certificate=PATH)) with a simple checker that uses only the game's "
        "rules: no table, no move ordering, no solver. Prints the game, the position, the "
        "value and how many positions were checked; a proof that does not hold is rejected "
        "(exit status 1) with the line and the position where it first fails.",
    )
    p.add_argument("path", help="the proof file")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_verify_proof, parser=p)


def _cmd_verify_proof(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    if not Path(args.path).is_file():
        parser.error(f"{args.path}: no such file")
    try:
        check = verify_proof(args.path)
    except _core.RecordError as e:
        print(f"stonefield verify-proof: rejected: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(
            json.dumps(
                {
                    "valid": True,
                    "game": check.game,
                    "options": check.options,
                    "actions": check.actions,
                    "value": check.value,
                    "positions": check.positions,
                    "moves": check.moves,
                    "seconds": check.seconds,
                }
            )
        )
    else:
        words = {1: "win", 0: "draw", -1: "loss"}
        opts = " ".join(f"{k}={v}" for k, v in check.options.items())
        print(f"game        {check.game} {opts}")
        print(f"position    after actions {check.actions}")
        print(f"value       {words[check.value]} for the player to move: proven")
        print(
            f"checked     {check.positions} positions, {check.moves} moves in {check.seconds:.2f} s"
        )
    return 0
