"""The ``stonefield`` command line: ``stonefield simulate``, ``stonefield bench`` and
``stonefield render``."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from . import _core
from .batch import simulate


def _parse_options(items: Sequence[str]) -> dict[str, Any]:
    """``key=value`` pairs, read by the same rule as the Rust core (``_core.parse_option``):
    ``-`` in keys read as ``_``; values ``true``/``false`` in any case, integers, else strings."""
    out: dict[str, Any] = {}
    for item in items:
        try:
            key, value = _core.parse_option(item)
        except _core.StonefieldError as e:
            raise SystemExit(f"stonefield: {e}") from None
        out[key] = value
    return out


def _options_help() -> str:
    """Every game's options with their allowed values and defaults, from the declarations."""
    from .options import option_spec

    lines = ["game options (key=value, default in brackets):"]
    for game in _core.games():
        lines.append(f"  {game}:")
        for o in option_spec(game):
            if o["kind"] == "choice":
                allowed = "|".join(v["name"] for v in o["values"] or [])
            elif o["kind"] == "int":
                allowed = f"{o['min']}..{o['max']}"
            else:
                allowed = "true|false"
            default = "by board" if o["default"] is None else str(o["default"]).lower()
            lines.append(f"    {o['name']}={allowed} [{default}]")
    return "\n".join(lines)


class _Progress:
    """A progress bar on stderr for runs longer than a second."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.perf_counter()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.perf_counter() - self.start
        if not self.enabled or (elapsed < 1.0 and not self.shown):
            return
        self.shown = True
        width = 30
        filled = int(width * done / max(total, 1))
        rate = done / elapsed if elapsed > 0 else 0.0
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games  {rate:,.0f}/s "
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")


def _cmd_simulate(args: argparse.Namespace) -> int:
    options = _parse_options(args.options)
    try:
        game = _core.make(args.game, **options)
    except _core.StonefieldError as e:
        print(f"stonefield: {e}", file=sys.stderr)
        return 2
    progress = _Progress(not args.quiet)
    try:
        result = simulate(game, args.games, seed=args.seed, threads=args.threads, progress=progress)
    except KeyboardInterrupt:
        progress.close()
        print("stonefield: interrupted", file=sys.stderr)
        return 130
    progress.close()
    if args.json:
        print(
            json.dumps(
                {
                    "game": game.name,
                    "options": game.options,
                    "games": result.n_games,
                    "seed": args.seed,
                    "threads": args.threads or os.cpu_count(),
                    "win_rates": result.win_rates.tolist(),
                    "draw_rates": result.draw_rates.tolist(),
                    "average_length": float(result.lengths.mean()) if result.n_games else 0.0,
                    "truncated": float(result.truncated.mean()) if result.n_games else 0.0,
                    "seconds": result.seconds,
                    "playouts_per_second": result.playouts_per_second,
                    "moves_per_second": result.moves_per_second,
                }
            )
        )
    else:
        print(result.summary())
    return 0


def _bench_one(game: _core.Game, seconds: float, threads: int) -> dict[str, Any]:
    """Runs batches until `seconds` have passed; returns playouts/s and moves/s."""
    n, total_games, total_moves, elapsed = 64, 0, 0, 0.0
    simulate(game, 16, seed=0, threads=threads)  # warm-up
    seed = 1
    while elapsed < seconds:
        r = simulate(game, n, seed=seed, threads=threads)
        total_games += r.n_games
        total_moves += int(r.lengths.sum())
        elapsed += r.seconds
        seed += 1
        if r.seconds < seconds / 10:
            n *= 2
    return {
        "game": game.name,
        "options": game.options,
        "threads": threads,
        "games": total_games,
        "seconds": elapsed,
        "playouts_per_second": total_games / elapsed,
        "moves_per_second": total_moves / elapsed,
        "average_length": total_moves / max(total_games, 1),
    }


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.game:
        try:
            targets = [_core.make(args.game, **_parse_options(args.options))]
        except _core.StonefieldError as e:
            print(f"stonefield: {e}", file=sys.stderr)
            return 2
    else:
        targets = [_core.make(name) for name in _core.games()]
    all_threads = args.threads or os.cpu_count() or 1
    thread_counts = [1] if all_threads == 1 else [1, all_threads]
    rows = [_bench_one(g, args.seconds, t) for g in targets for t in thread_counts]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'game':<14} {'threads':>7} {'playouts/s':>12} {'moves/s':>14} {'avg length':>10}")
    for r in rows:
        print(
            f"{r['game']:<14} {r['threads']:>7} {r['playouts_per_second']:>12,.0f}"
            f" {r['moves_per_second']:>14,.0f} {r['average_length']:>10.1f}"
        )
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    from .records import load
    from .render import to_svg

    try:
        state = load(args.record)
        svg = to_svg(
            state,
            size=args.size,
            numbers=args.numbers,
            highlight="legal" if args.legal else None,
        )
    except (OSError, _core.StonefieldError) as e:
        print(f"stonefield: {e}", file=sys.stderr)
        return 2
    if args.output == "-":
        sys.stdout.write(svg)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(svg)
    except OSError as e:
        print(f"stonefield: {e}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="stonefield",
        description="Fast engines for The Smallholder, Windflowers, Faraday and Subsume.",
    )
    parser.add_argument("--version", action="version", version=f"stonefield {_core.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser(
        "simulate",
        help="play random games and summarise the results",
        epilog=_options_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sim.add_argument("game", choices=_core.games(), help="game id")
    sim.add_argument("options", nargs="*", help="game options as key=value (e.g. grid=hex)")
    sim.add_argument("-n", "--games", type=int, default=10_000, help="number of games")
    sim.add_argument("--seed", type=int, default=0, help="batch seed")
    sim.add_argument("--threads", type=int, default=None, help="worker threads (default: all)")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=_cmd_simulate)

    bench = sub.add_parser(
        "bench",
        help="measure random playouts per second",
        epilog=_options_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_argument("game", nargs="?", help="one game id (default: every game's defaults)")
    bench.add_argument("options", nargs="*", help="game options as key=value")
    bench.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    bench.add_argument("--threads", type=int, default=None, help="the multithreaded count")
    bench.add_argument("--json", action="store_true", help="machine-readable output")
    bench.set_defaults(func=_cmd_bench)

    render = sub.add_parser("render", help="draw the final position of a game record as SVG")
    render.add_argument("record", help="a game record (JSON, see stonefield.records)")
    render.add_argument("-o", "--output", default="-", help="the SVG file (default: stdout)")
    render.add_argument("--numbers", action="store_true", help="write the site numbers")
    render.add_argument("--legal", action="store_true", help="mark the legal placements")
    render.add_argument("--size", type=int, default=480, help="longer side of the board in pixels")
    render.set_defaults(func=_cmd_render, threads=None)

    args = parser.parse_args(argv)
    if getattr(args, "games", 1) < 0:
        parser.error("--games must be non-negative")
    if getattr(args, "size", 1) < 1:
        parser.error("--size must be at least 1")
    if args.threads is not None and args.threads < 1:
        parser.error("--threads must be at least 1")
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
