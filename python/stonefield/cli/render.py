"""``stonefield render``: a game record's final position as SVG."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import _core
from ._common import MAX_SIZE, UsageError, int_in


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "render",
        help="draw the final position of a game record as SVG",
        description="Draws the position a game record (JSON, see stonefield.records) reaches.",
    )
    p.add_argument("record", help="a game record (JSON, see stonefield.records)")
    p.add_argument("-o", "--output", default="-", help="the SVG file (default: stdout)")
    p.add_argument("--numbers", action="store_true", help="write the site numbers")
    p.add_argument("--legal", action="store_true", help="mark the legal placements")
    p.add_argument(
        "--coordinates",
        action="store_true",
        help="write the file letters and rank numbers of the sites' names (c4) beside the board",
    )
    p.add_argument(
        "--size",
        type=int_in(1, MAX_SIZE, "size"),
        default=480,
        help="longer side of the board in pixels",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..records import load
    from ..render import to_svg

    try:
        state = load(args.record)
        svg = to_svg(
            state,
            size=args.size,
            numbers=args.numbers,
            highlight="legal" if args.legal else None,
            coordinates=args.coordinates,
        )
    except (OSError, _core.StonefieldError) as e:
        raise UsageError(str(e)) from e
    if args.output == "-":
        sys.stdout.write(svg)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(svg)
    except OSError as e:
        raise UsageError(str(e)) from e
    return 0
