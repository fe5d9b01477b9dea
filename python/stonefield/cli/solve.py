"""The ``stonefield solve`` command: perfect-play values of positions and whole state graphs.

Registered by :mod:`stonefield.cli` through :func:`add_parser`.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from types import FrameType
from typing import Any

from .. import _core
from ..proofs import guide_network, write_proof
from ._common import int_in, option_arg, seconds


def add_parser(sub: Any) -> None:
    """Adds ``solve`` to the subcommands."""
    p = sub.add_parser(
        "solve",
        help="perfect-play value of a position, or the whole state graph of a small board",
        description="Solves the start (or a record's last position) exactly: the value, every "
        "first action's outcome, one perfect line, nodes and time. With --graph, enumerates "
        "every reachable position instead: positions, edges, longest game, a cycle or none, "
        "and the value where known. Ctrl-C stops either with what it has.",
    )
    p.add_argument("game", choices=_core.games(), help="game id")
    p.add_argument(
        "--option",
        dest="options",
        type=option_arg,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (repeatable), e.g. --option size=3",
    )
    p.add_argument("--record", metavar="FILE", help="a game record (JSON); its last position")
    p.add_argument("--nodes", type=int_in(1, None, "nodes"), default=None, help="node budget")
    p.add_argument("--time", type=seconds, default=None, help="time budget in seconds")
    p.add_argument(
        "--threads", type=int_in(1, None, "threads"), default=None, help="search threads"
    )
    p.add_argument("--margin", action="store_true", help="also the best final score difference")
    p.add_argument(
        "--method",
        choices=["alphabeta", "pns"],
        default=None,
        help="alpha-beta (default) or proof-number search",
    )
    p.add_argument(
        "--table-mb",
        type=int_in(1, None, "table-mb"),
        default=None,
        help="the solver's table in MiB, at most (it starts at 8 and doubles as it fills; "
        "default an eighth of the memory available, 16 to 1024)",
    )
    p.add_argument(
        "--proof",
        metavar="PATH",
        default=None,
        help="once the value is proven, write a proof of it there (small boards; check it with "
        "stonefield verify-proof PATH)",
    )
    p.add_argument(
        "--checkpoint",
        metavar="DIR",
        default=None,
        help="save the run in DIR as it goes and when it stops (Ctrl-C, a budget); the same "
        "command with the same DIR resumes it (alpha-beta only)",
    )
    p.add_argument(
        "--save-every",
        type=seconds,
        default=None,
        help="--checkpoint: seconds between saves (> 0, default 300)",
    )
    p.add_argument(
        "--guide",
        metavar="NETWORK",
        default=None,
        help="order the search by a trained graph network: 'expert' (the game's shipped "
        "network) or a checkpoint path; the root's actions most promising first (values are "
        "the same with any guide)",
    )
    p.add_argument(
        "--guide-depth",
        type=int_in(0, 64, "guide-depth"),
        default=None,
        help="--guide: moves below the root ordered by the network (default 4)",
    )
    p.add_argument(
        "--value-only",
        action="store_true",
        help="stop at the first root action proven to win (the value is then known; the "
        "other actions stay unproven)",
    )
    p.add_argument(
        "--try-first",
        type=_actions_arg,
        default=None,
        metavar="A,B,...",
        help="root actions to solve before the others, in this order (e.g. a search's ranking)",
    )
    p.add_argument("--graph", action="store_true", help="the whole state graph instead")
    p.add_argument(
        "--max-positions",
        type=int_in(1, None, "max-positions"),
        default=None,
        help="--graph: stop after these",
    )
    p.add_argument(
        "--max-mb",
        type=int_in(1, None, "max-mb"),
        default=None,
        help="--graph: the most memory the position table may take, in MiB (default half the "
        "memory available); reaching it stops the graph",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_solve, parser=p, threads_default=None)


def _actions_arg(text: str) -> list[int]:
    """`--try-first`: action ids separated by commas."""
    try:
        return [int(a) for a in text.split(",") if a.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"action ids separated by commas (e.g. 4,0,7), not {text!r}"
        ) from None


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _stop_on_sigterm() -> Any:
    """Makes SIGTERM raise KeyboardInterrupt (the main thread only, where signals are
    handled); returns the handler to put back, or None where none was set."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _raise_interrupt)


def _cmd_solve(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    try:
        game = _core.make(args.game, **dict(args.options))
    except _core.StonefieldError as e:
        parser.error(str(e))
    interrupted = False
    # Flags of the other mode are refused, not silently ignored.
    solve_only = {
        "--record": args.record is not None,
        "--nodes": args.nodes is not None,
        "--time": args.time is not None,
        "--threads": args.threads is not None,
        "--margin": args.margin,
        "--method": args.method is not None,
        "--table-mb": args.table_mb is not None,
        "--proof": args.proof is not None,
        "--checkpoint": args.checkpoint is not None,
        "--save-every": args.save_every is not None,
        "--guide": args.guide is not None,
        "--guide-depth": args.guide_depth is not None,
        "--value-only": args.value_only,
        "--try-first": args.try_first is not None,
    }
    graph_only = {
        "--max-positions": args.max_positions is not None,
        "--max-mb": args.max_mb is not None,
    }
    if args.graph:
        given = [flag for flag, on in solve_only.items() if on]
        if given:
            parser.error(f"{', '.join(given)}: not used with --graph (they set the solver)")
    else:
        given = [flag for flag, on in graph_only.items() if on]
        if given:
            parser.error(f"{', '.join(given)}: only used with --graph")
        if args.save_every is not None and args.checkpoint is None:
            parser.error("--save-every: only used with --checkpoint DIR")
        if args.guide_depth is not None and args.guide is None:
            parser.error("--guide-depth: only used with --guide NETWORK")
    if args.graph:
        try:
            g = _core.state_graph(game, max_positions=args.max_positions, max_mb=args.max_mb)
        except _core.SolveInterrupted as e:
            assert isinstance(e.result, _core.StateGraph)
            g, interrupted = e.result, True  # printed below, then exit 130
        except _core.StonefieldError as e:
            parser.error(str(e))
        out: dict[str, Any] = {
            "positions": g.positions,
            "edges": g.edges,
            "longest": g.longest,
            "cycle": g.cycle,
            "value": g.values,
            "complete": g.complete,
            "stopped_by": g.stopped_by,
            "seconds": g.seconds,
        }
        if args.json:
            print(json.dumps(out))
        else:
            for k, v in out.items():
                print(f"{k:11} {'none' if v is None else v}")
        if interrupted:
            print("stonefield: interrupted", file=sys.stderr)
            return 130
        return 0
    if args.record:
        from ..records import load

        try:
            state = load(args.record)
        except (OSError, _core.StonefieldError) as e:
            parser.error(str(e))
        if state.game.name != args.game:
            parser.error(f"the record is a game of {state.game.name}, not {args.game}")
    else:
        state = game.new_state()
    try:
        guide = guide_network(state, args.guide)
    except _core.StonefieldError as e:
        parser.error(f"--guide: {e}")
    # SIGTERM (`kill PID`) stops a solve as Ctrl-C does: saved, printed, exit 130. A solve
    # started in the background by a script has SIGINT ignored, so this is how to stop one of
    # many hours without losing its work since the last save.
    previous = _stop_on_sigterm()
    try:
        res = _core.solve(
            state,
            max_nodes=args.nodes,
            time=args.time,
            threads=args.threads,
            margin=args.margin,
            table_mb=args.table_mb,
            method=args.method,
            checkpoint=args.checkpoint,
            save_every=args.save_every,
            guide=guide,
            guide_depth=args.guide_depth,
            value_only=args.value_only or None,
            try_first=args.try_first,
        )
    except _core.SolveInterrupted as e:
        assert isinstance(e.result, _core.SolveResult)
        res, interrupted = e.result, True  # printed below, then exit 130
    except _core.StonefieldError as e:
        parser.error(str(e))
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    proof_moves = None
    if args.proof is not None and res.value is not None and not interrupted:
        try:
            proof_moves = write_proof(state, int(res.value), args.proof)
        except OSError as e:
            parser.error(f"--proof: cannot write {args.proof} ({e})")
        except _core.StonefieldError as e:
            parser.error(f"--proof: {e}")
    elif args.proof is not None:
        print("stonefield: no proof written: the value is not proven", file=sys.stderr)
    outcomes = [None if o == _core.SolveResult.NOT_PROVEN else int(o) for o in res.outcomes]
    if args.json:
        print(
            json.dumps(
                {
                    "value": res.value,
                    "margin": res.margin,
                    "actions": [int(a) for a in res.actions],
                    "outcomes": outcomes,
                    "best": res.best,
                    "pv": res.pv,
                    "nodes": res.nodes,
                    "seconds": res.seconds,
                    "stopped_by": res.stopped_by,
                    "proof": None if proof_moves is None else args.proof,
                    "proof_moves": proof_moves,
                    "checkpoint": args.checkpoint,
                }
            )
        )
    else:
        words = {1: "win", 0: "draw", -1: "loss", None: "not proven"}
        print(f"value       {words[res.value]} for player {state.current_player} to move")
        if res.margin is not None:
            print(f"margin      {res.margin:+d}")
        print(f"best        {res.best}")
        print("outcomes    " + ", ".join(f"{a}:{words[o]}" for a, o in zip(res.actions, outcomes)))
        print(f"line        {res.pv}")
        rate = res.nodes / max(res.seconds, 1e-9)
        print(f"nodes       {res.nodes} in {res.seconds:.2f} s ({rate / 1e6:.2f} M/s)")
        print(f"stopped by  {res.stopped_by}")
        if args.checkpoint is not None:
            print(f"checkpoint  {args.checkpoint} (the same command resumes it)")
        if proof_moves is not None:
            print(f"proof       {args.proof} ({proof_moves} moves)")
    if interrupted:
        print("stonefield: interrupted", file=sys.stderr)
        return 130
    return 0
