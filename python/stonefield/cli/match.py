"""``stonefield match``: agents against each other, rated."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any

from .. import _core
from .._files import atomic_write
from ..agents import parse_agent
from ..matches import MAX_GAMES, Match, MatchInterrupted, match
from ._common import (
    GAME_HELP,
    MAX_SEED,
    MAX_THREADS,
    Progress,
    add_option_flag,
    did_you_mean,
    fail,
    game_id,
    int_in,
    make_game,
)

#: What agent strings look like, for the help texts.
AGENT_HELP = (
    "AGENT is random[:seed=S] or mcts[:key=value,...] with the settings iterations, time, c,"
    " threads, solver, seed, max_nodes, reuse, selection, grave_ref, grave_bias, playouts, preset"
    " (e.g. mcts:iterations=2000,c=1.0 or mcts:preset=strong,time=0.5), or puct[:key=value,...]"
    " with simulations, c, dirichlet_alpha, dirichlet_fraction, batch_size, seed, max_nodes and"
    " checkpoint=PATH (a network from stonefield train), or expert[:key=value,...] (PUCT guided"
    " by the network shipped for the game) with time, simulations, threads, seed"
)

# The two "unknown ..." messages of parse_agent, with the names they allow.
_UNKNOWN = re.compile(r'unknown (?:agent|setting) "([^"]+)"; (?:agents:|\w+ takes) ([\w, ]+)')


def agent_arg(text: str) -> Any:
    """argparse type: an agent string, a near-miss name answered with a suggestion."""
    try:
        return parse_agent(text)
    except _core.InvalidOptionError as e:
        message = str(e)
        found = _UNKNOWN.search(message)
        if found:
            names = [n.strip() for n in found.group(2).split(",")]
            message += did_you_mean(found.group(1), names)
        raise argparse.ArgumentTypeError(message) from None


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "match",
        help="play agents against each other and rate them",
        description="Plays games between agents with rotating seats and prints each agent's"
        " score with its 95% Wilson interval, wins, draws, losses, score by seat and (two"
        f" agents) the Elo difference. {AGENT_HELP}.",
    )
    p.add_argument("game", type=game_id, metavar="GAME", help=GAME_HELP)
    p.add_argument("agents", nargs="+", type=agent_arg, metavar="AGENT", help="one per player")
    p.add_argument(
        "--games",
        "-n",
        type=int_in(1, None, "games"),
        default=100,
        help=f"number of games (at most {MAX_GAMES:,})",
    )
    p.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), default=0, help="match seed")
    p.add_argument(
        "--threads",
        type=int_in(1, MAX_THREADS, "threads"),
        default=None,
        help="threads (default: all)",
    )
    add_option_flag(p, "a game option (repeatable), e.g. --option players=3")
    p.add_argument("--records", metavar="FILE.jsonl", help="write every game's record, one a line")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def write_jsonl(path: str, records: list[dict[str, Any]]) -> None:
    """Writes one record per line; the file is replaced only once the text is complete."""
    text = "".join(json.dumps(r) + "\n" for r in records)
    with atomic_write(path) as f:
        f.write(text)


def check_writable(flag: str, path: str | None) -> None:
    """A usage error unless ``path`` names a file in an existing folder."""
    if path:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder) or os.path.isdir(path):
            fail(f"{flag}: cannot write {path} (no such folder, or a folder)")


def run(args: argparse.Namespace) -> int:
    game = make_game(args.game, dict(args.options))
    check_writable("--records", args.records)
    progress = Progress(not args.quiet)
    try:
        m = match(
            game,
            args.agents,
            games=args.games,
            seed=args.seed,
            threads=args.threads,
            progress=progress,
        )
    except MatchInterrupted as e:
        # The finished games are kept: their summary and records, then the usual 130.
        progress.close()
        print(f"stonefield match: interrupted; {e}", file=sys.stderr)
        if e.match is not None:
            report(args, e.match)
        return 130
    except _core.StonefieldError as e:
        fail(str(e))
    finally:
        progress.close()
    report(args, m)
    return 0


def report(args: argparse.Namespace, m: Match) -> None:
    """Prints a match's summary and writes its records."""
    print(m.summary())
    if args.records:
        try:
            write_jsonl(args.records, m.records())
        except OSError as e:
            fail(str(e))
        print(f"{m.n_games} records written to {args.records}")
