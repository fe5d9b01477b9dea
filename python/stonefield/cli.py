"""The ``stonefield`` command line: ``stonefield simulate``, ``stonefield bench``,
``stonefield render`` and ``stonefield play``."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from . import _core
from .batch import simulate


class _UsageError(Exception):
    """A bad argument found after parsing; reported like argparse's own errors (exit 2)."""


#: Largest seed: seeds are unsigned 64-bit integers.
_MAX_SEED = 2**64 - 1
#: Largest thread count (as the extension allows).
_MAX_THREADS = 256
#: Largest picture size of ``render`` (as :data:`stonefield.render.MAX_SIZE`).
_MAX_SIZE = 100_000


def _int_in(low: int, high: int | None, what: str) -> Callable[[str], int]:
    """argparse type: an integer from ``low`` to ``high`` (no upper bound when None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be an integer, got {text!r}") from None
        if high is None and value < low:
            raise argparse.ArgumentTypeError(f"{what} must be at least {low}, got {text}")
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be from {low} to {high}, got {text}")
        return value

    parse.__name__ = what
    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds must be a number, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"seconds must be a positive number, got {text}")
    return value


def _parse_options(items: Sequence[str]) -> dict[str, Any]:
    """``key=value`` pairs, read by the same rule as the Rust core (``_core.parse_option``):
    ``-`` in keys read as ``_``; values ``true``/``false`` in any case, integers, else strings."""
    out: dict[str, Any] = {}
    for item in items:
        try:
            key, value = _core.parse_option(item)
        except _core.StonefieldError as e:
            raise _UsageError(str(e)) from None
        out[key] = value
    return out


def _option_arg(text: str) -> tuple[str, Any]:
    """argparse type: one ``KEY=VALUE`` game option, read as :func:`_parse_options` reads it."""
    key, eq, _ = text.partition("=")
    if not eq or not key:
        raise argparse.ArgumentTypeError(f"expected a game option as KEY=VALUE, got {text!r}")
    try:
        return _core.parse_option(text)
    except _core.StonefieldError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


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
    game = _make(args.game, args.options)
    progress = _Progress(not args.quiet)
    try:
        result = simulate(game, args.games, seed=args.seed, threads=args.threads, progress=progress)
    except (MemoryError, _core.StonefieldError) as e:
        raise _UsageError(str(e)) from e
    finally:
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


def _make(name: str, options: Sequence[str]) -> _core.Game:
    try:
        return _core.make(name, **_parse_options(options))
    except _core.StonefieldError as e:
        raise _UsageError(str(e)) from e


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
        "playouts_per_second": total_games / elapsed if elapsed > 0 else math.inf,
        "moves_per_second": total_moves / elapsed if elapsed > 0 else math.inf,
        "average_length": total_moves / max(total_games, 1),
    }


def _bench_lab_one(game: _core.Game, seconds: float, threads: int) -> dict[str, Any]:
    """The variant lab's random games (every per-game fact its metrics need, gathered in Rust
    while each game is played), timed as :func:`_bench_one` times ``simulate``."""
    import numpy as np

    agents = [_core.RandomAgent()]
    players = game.num_players

    def run(n: int, first: int) -> tuple[int, int, float]:
        seats = np.zeros((n, players), dtype=np.int64)
        start = time.perf_counter()
        cols = _core.lab_play(game, agents, seats, 1, first, threads)
        return n, int(cols["length"].sum()), time.perf_counter() - start

    run(16, 0)  # warm-up
    n, first, total_games, total_moves, elapsed = 64, 0, 0, 0, 0.0
    while elapsed < seconds:
        games, moves, took = run(n, first)
        total_games += games
        total_moves += moves
        elapsed += took
        first += n
        if took < seconds / 10:
            n *= 2
    return {
        "game": game.name,
        "options": game.options,
        "threads": threads,
        "kind": "lab",
        "games": total_games,
        "seconds": elapsed,
        "playouts_per_second": total_games / elapsed if elapsed > 0 else math.inf,
        "moves_per_second": total_moves / elapsed if elapsed > 0 else math.inf,
        "average_length": total_moves / max(total_games, 1),
    }


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.game:
        targets = [_make(args.game, args.options)]
    elif args.options:
        raise _UsageError("options need a game id before them")
    else:
        targets = [_core.make(name) for name in _core.games()]
    all_threads = args.threads or os.cpu_count() or 1
    thread_counts = [1] if all_threads == 1 else [1, all_threads]
    rows = []
    for g in targets:
        for t in thread_counts:
            rows.append({**_bench_one(g, args.seconds, t), "kind": "simulate"})
            if args.lab:
                lab = _bench_lab_one(g, args.seconds, t)
                lab["slowdown"] = rows[-1]["playouts_per_second"] / lab["playouts_per_second"]
                rows.append(lab)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    kind = f" {'kind':<8}" if args.lab else ""
    print(
        f"{'game':<14}{kind} {'threads':>7} {'playouts/s':>12} {'moves/s':>14} {'avg length':>10}"
    )
    for r in rows:
        kind = f" {r['kind']:<8}" if args.lab else ""
        slower = f"  ({r['slowdown']:.2f}× simulate's time)" if "slowdown" in r else ""
        print(
            f"{r['game']:<14}{kind} {r['threads']:>7} {r['playouts_per_second']:>12,.0f}"
            f" {r['moves_per_second']:>14,.0f} {r['average_length']:>10.1f}{slower}"
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
        raise _UsageError(str(e)) from e
    if args.output == "-":
        sys.stdout.write(svg)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(svg)
    except OSError as e:
        raise _UsageError(str(e)) from e
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    try:
        from .play import serve
        from .play._agents import Seat, SeatError
    except ImportError as e:
        print(
            f"stonefield: the play page needs the play extra ({e.name} is missing): "
            'pip install "stonefield[play]"',
            file=sys.stderr,
        )
        return 2
    options = _parse_options(args.options)
    seats: list[str] | None = None
    if args.game is not None:
        try:
            game = _core.make(args.game, **options)
        except _core.StonefieldError as e:
            print(f"stonefield: {e}", file=sys.stderr)
            return 2
        opponent = args.opponent or "mcts"
        try:
            Seat.parse(opponent)
        except SeatError as e:
            print(f"stonefield: --opponent: {e}", file=sys.stderr)
            return 2
        if not 0 <= args.seat < game.num_players:
            print(
                f"stonefield: --seat is 0..{game.num_players - 1} for this game, got {args.seat}",
                file=sys.stderr,
            )
            return 2
        seats = [opponent] * game.num_players
        seats[args.seat] = "human"
    elif options or args.opponent:
        print("stonefield: --option and --opponent need a GAME", file=sys.stderr)
        return 2
    try:
        serve(
            args.game,
            options,
            seats,
            host=args.host,
            port=args.port,
            open_browser=not args.no_browser,
        )
    except OSError as e:
        print(f"stonefield: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
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
    sim.add_argument(
        "-n", "--games", type=_int_in(0, 2**63 - 1, "games"), default=10_000, help="games"
    )
    sim.add_argument("--seed", type=_int_in(0, _MAX_SEED, "seed"), default=0, help="batch seed")
    sim.add_argument(
        "--threads",
        type=_int_in(1, _MAX_THREADS, "threads"),
        default=None,
        help=f"worker threads, 1 to {_MAX_THREADS} (default: every core)",
    )
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
    bench.add_argument("--seconds", type=_seconds, default=2.0, help="time per measurement")
    bench.add_argument(
        "--threads",
        type=_int_in(1, _MAX_THREADS, "threads"),
        default=None,
        help="the multithreaded count",
    )
    bench.add_argument(
        "--lab",
        action="store_true",
        help="also time the variant lab's random games (every per-game fact measured)",
    )
    bench.add_argument("--json", action="store_true", help="machine-readable output")
    bench.set_defaults(func=_cmd_bench)

    render = sub.add_parser("render", help="draw the final position of a game record as SVG")
    render.add_argument("record", help="a game record (JSON, see stonefield.records)")
    render.add_argument("-o", "--output", default="-", help="the SVG file (default: stdout)")
    render.add_argument("--numbers", action="store_true", help="write the site numbers")
    render.add_argument("--legal", action="store_true", help="mark the legal placements")
    render.add_argument(
        "--size",
        type=_int_in(1, _MAX_SIZE, "size"),
        default=480,
        help="longer side of the board in pixels",
    )
    render.set_defaults(func=_cmd_render, threads=None)

    play = sub.add_parser("play", help="play and replay games in the browser")
    play.add_argument("game", nargs="?", choices=_core.games(), help="game id (default: a form)")
    play.add_argument(
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (repeatable)",
    )
    play.add_argument(
        "--opponent",
        default=None,
        metavar="AGENT",
        help="the other seats: random, mcts or mcts:iterations=N (default: mcts, 10,000)",
    )
    play.add_argument("--seat", type=int, default=0, help="your seat, 0 moves first")
    play.add_argument("--port", type=int, default=0, help="the port (default: a free one)")
    play.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    play.add_argument("--no-browser", action="store_true", help="do not open a browser")
    play.set_defaults(func=_cmd_play, threads=None)

    from ._cli_search import add_search_commands
    from ._cli_solve import add_solve_command
    from .lab.cli import add_lab_command

    add_search_commands(sub)
    add_solve_command(sub)
    add_lab_command(sub)

    commands: dict[str, argparse.ArgumentParser] = dict(sub.choices)
    argv = list(sys.argv[1:] if argv is None else argv)
    # Each command parses its own arguments "intermixed", so options may come before or after
    # the flags (`simulate windflowers -n 3 size=5`); argparse cannot do that through
    # subparsers, so the top-level parser only handles what comes before a command.
    if argv and argv[0] in commands:
        command = commands[argv[0]]
        try:
            args = command.parse_intermixed_args(argv[1:])
        except TypeError:
            # argparse refuses intermixed parsing for commands with sub-commands of their own.
            args = command.parse_args(argv[1:])
    else:
        parser.parse_args(argv)  # --help, --version, or an argparse error (exit 2)
        return 2
    try:
        return int(args.func(args))
    except _UsageError as e:
        # As argparse reports its own errors, but returned rather than raised (SystemExit).
        command.print_usage(sys.stderr)
        print(f"{command.prog}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("stonefield: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`stonefield simulate ... | head -1`): not an error of ours.
        # Point stdout at /dev/null so that the interpreter's final flush stays quiet too.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # as a program stopped by SIGPIPE reports


if __name__ == "__main__":
    sys.exit(main())
