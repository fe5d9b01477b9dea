"""The search commands of the ``stonefield`` command line: ``match``, ``analyse`` and
``bench --search``.

They live apart from :mod:`stonefield.cli`, which registers them with
:func:`add_search_commands`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from typing import Any, NoReturn

from . import _core
from .agents import NativeAgent, agent_string, parse_agent
from .cli import _MAX_SEED, _MAX_THREADS, _int_in, _option_arg, _parse_options, _Progress
from .matches import Match, MatchInterrupted, match

#: The agent ``analyse`` uses without ``--agent``.
DEFAULT_ANALYSE_AGENT = "mcts:iterations=10000"


def _agent_arg(text: str) -> NativeAgent:
    """argparse type: an agent string."""
    try:
        return parse_agent(text)
    except _core.InvalidOptionError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _fail(args: argparse.Namespace, message: str) -> NoReturn:
    """An argparse-style error of the subcommand: usage, the message, exit status 2."""
    parser: argparse.ArgumentParser = args.parser
    parser.error(message)


def _game(args: argparse.Namespace) -> _core.Game:
    try:
        return _core.make(args.game, **dict(args.options))
    except _core.StonefieldError as e:
        _fail(args, str(e))


def _write_jsonl(path: str, records: list[dict[str, Any]]) -> None:
    """Writes one record per line; the file is replaced only once the text is complete."""
    text = "".join(json.dumps(r) + "\n" for r in records)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".stonefield-", suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _cmd_match(args: argparse.Namespace) -> int:
    game = _game(args)
    if args.records:
        folder = os.path.dirname(os.path.abspath(args.records))
        if not os.path.isdir(folder) or os.path.isdir(args.records):
            _fail(args, f"--records: cannot write {args.records} (no such folder, or a folder)")
    progress = _Progress(not args.quiet)
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
        print(f"stonefield: interrupted; {e}", file=sys.stderr)
        if e.match is not None:
            status = _report_match(args, e.match)
            return status or 130
        return 130
    except KeyboardInterrupt:
        progress.close()
        print("stonefield: interrupted", file=sys.stderr)
        return 130
    except _core.StonefieldError as e:
        progress.close()
        _fail(args, str(e))
    progress.close()
    return _report_match(args, m)


def _report_match(args: argparse.Namespace, m: Match) -> int:
    """Prints a match's summary and writes its records; 1 when they cannot be written."""
    print(m.summary())
    if args.records:
        try:
            _write_jsonl(args.records, m.records())
        except OSError as e:
            print(f"stonefield: {e}", file=sys.stderr)
            return 1
        print(f"{m.n_games} records written to {args.records}")
    return 0


def _cmd_analyse(args: argparse.Namespace) -> int:
    from .records import load

    if args.record:
        try:
            state = load(args.record)
        except (OSError, _core.StonefieldError) as e:
            _fail(args, str(e))
        game = state.game
        if game.name != args.game:
            _fail(args, f"the record is a game of {game.name}, not {args.game}")
        for key, value in args.options:
            if game.options.get(key) != value:
                _fail(
                    args, f"the record's game has {key}={game.options.get(key)}, not {key}={value}"
                )
    else:
        state = _game(args).new_state()
        game = state.game
    if state.is_terminal():
        _fail(args, f"the game is over after {state.move_count} actions; nothing to analyse")
    agent = args.agent or parse_agent(DEFAULT_ANALYSE_AGENT)
    if not hasattr(agent, "analyse"):
        _fail(args, f"--agent: analyse needs a searching agent (mcts), got {agent_string(agent)}")
    try:
        res = agent.analyse(state)
    except KeyboardInterrupt:
        print("stonefield: interrupted", file=sys.stderr)
        return 130
    if args.json:
        print(
            json.dumps(
                {
                    "game": game.name,
                    "options": game.options,
                    "move": state.move_count,
                    "player": state.current_player,
                    "agent": agent_string(agent),
                    "best": res.best,
                    "value": res.value,
                    "proven": res.proven,
                    "actions": res.actions.tolist(),
                    "visits": res.visits.tolist(),
                    "values": res.values.tolist(),
                    "pv": res.pv,
                    "iterations": res.iterations,
                    "seconds": res.seconds,
                    "nodes": res.nodes,
                    "stopped_by": res.stopped_by,
                }
            )
        )
        return 0
    opts = ", ".join(f"{k}={v}" for k, v in game.options.items())
    proven = {None: "no", 1: "won", -1: "lost", 0: "drawn"}[res.proven]
    rate = res.iterations / res.seconds if res.seconds > 0 else math.inf
    lines = [
        f"{game.name} ({opts})",
        f"after {state.move_count} actions, player {state.current_player} to move;"
        f" agent {agent_string(agent)}",
        "",
        f"best action  {res.best}",
        f"value        {res.value:+.3f} (mean return for player {state.current_player})",
        f"proven       {proven}",
        f"pv           {' '.join(str(a) for a in res.pv)}",
        f"iterations   {res.iterations:,} in {res.seconds:.3f} s ({rate:,.0f}/s),"
        f" stopped by {res.stopped_by}",
        f"nodes        {res.nodes:,}",
        "",
        f"{'action':>7} {'visits':>9} {'share':>7} {'value':>7}",
    ]
    total = max(int(res.visits.sum()), 1)
    order = sorted(range(len(res.actions)), key=lambda i: (-int(res.visits[i]), i))
    for i in order[: args.top]:
        lines.append(
            f"{int(res.actions[i]):>7} {int(res.visits[i]):>9,} {res.visits[i] / total:>7.1%}"
            f" {res.values[i]:>+7.3f}"
        )
    if len(order) > args.top:
        lines.append(f"({len(order) - args.top} more actions)")
    print("\n".join(lines))
    return 0


def _mid_game(game: _core.Game) -> _core.State:
    """A position halfway through a typical random game (fixed seeds, so always the same)."""
    from .batch import simulate

    half = int(simulate(game, 64, seed=0, threads=1).lengths.mean()) // 2
    state = game.new_state()
    for i in range(half):
        action = state.random_action(seed=i)
        if action is None:
            break
        state.apply(action)
        if state.is_terminal():
            state.undo()
            break
    return state


def _cmd_bench_search(args: argparse.Namespace) -> int:
    if args.game:
        try:
            targets = [_core.make(args.game, **_parse_options(args.options))]
        except _core.StonefieldError as e:
            print(f"stonefield: {e}", file=sys.stderr)
            return 2
    else:
        targets = [_core.make(name) for name in _core.games()]
    many = args.threads or min(os.cpu_count() or 1, 2)
    thread_counts = sorted({1, many})
    rows = []
    try:
        for game in targets:
            for where, state in (("start", game.new_state()), ("mid-game", _mid_game(game))):
                one = None
                for threads in thread_counts:
                    agent = _core.MCTS(iterations=None, time=args.seconds, threads=threads)
                    cpu = time.process_time()
                    res = agent.analyse(state)
                    # CPU time of every thread: on a busy machine iterations per CPU second
                    # still say what the search costs, where wall-clock rates do not.
                    cpu = time.process_time() - cpu
                    rate = res.iterations / res.seconds
                    one = one or rate
                    rows.append(
                        {
                            "game": game.name,
                            "options": game.options,
                            "position": where,
                            "move": state.move_count,
                            "threads": threads,
                            "iterations": res.iterations,
                            "seconds": res.seconds,
                            "nodes": res.nodes,
                            "iterations_per_second": rate,
                            "iterations_per_cpu_second": res.iterations / cpu if cpu else None,
                            "speedup": rate / one,
                        }
                    )
    except KeyboardInterrupt:
        print("stonefield: interrupted", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(
        f"{'game':<14} {'position':<9} {'move':>5} {'threads':>7} {'iterations/s':>13}"
        f" {'speed-up':>8} {'per CPU s':>10} {'nodes':>11}"
    )
    for r in rows:
        per_cpu = r["iterations_per_cpu_second"]
        print(
            f"{r['game']:<14} {r['position']:<9} {r['move']:>5} {r['threads']:>7}"
            f" {r['iterations_per_second']:>13,.0f} {r['speedup']:>8.2f}"
            f" {'-' if per_cpu is None else f'{per_cpu:,.0f}':>10} {r['nodes']:>11,}"
        )
    return 0


def _add_option_flag(parser: argparse.ArgumentParser, help: str) -> None:
    """``--option KEY=VALUE`` (repeatable), collected as ``(key, value)`` pairs in ``options``."""
    parser.add_argument(
        "--option",
        dest="options",
        type=_option_arg,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=help,
    )


def add_search_commands(sub: Any) -> None:
    """Adds ``match`` and ``analyse``, and ``--search`` to ``bench``, to the subcommands."""
    m = sub.add_parser(
        "match",
        help="play agents against each other and rate them",
        description="Plays games between agents with rotating seats and prints each agent's"
        " score with its 95%% Wilson interval, wins, draws, losses, score by seat and (two"
        " agents) the Elo difference. AGENT is random[:seed=S] or mcts[:key=value,...] with"
        " the settings iterations, time, c, threads, solver, seed, max_nodes, reuse"
        " (e.g. mcts:iterations=2000,c=1.0).",
    )
    m.add_argument("game", choices=_core.games(), help="game id")
    m.add_argument("agents", nargs="+", type=_agent_arg, metavar="AGENT", help="one per player")
    m.add_argument(
        "--games", "-n", type=_int_in(1, None, "games"), default=100, help="number of games"
    )
    m.add_argument("--seed", type=_int_in(0, _MAX_SEED, "seed"), default=0, help="match seed")
    m.add_argument(
        "--threads",
        type=_int_in(1, _MAX_THREADS, "threads"),
        default=None,
        help="threads (default: all)",
    )
    _add_option_flag(m, "a game option (repeatable), e.g. --option players=3")
    m.add_argument("--records", metavar="FILE.jsonl", help="write every game's record, one a line")
    m.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    m.set_defaults(func=_cmd_match, parser=m)

    a = sub.add_parser(
        "analyse",
        help="search a position and show what the agent found",
        description="Searches the start position, or the position a game record reaches, and"
        " prints the best action, its value, the principal variation and the most visited"
        f" actions. The agent defaults to {DEFAULT_ANALYSE_AGENT}.",
    )
    a.add_argument("game", choices=_core.games(), help="game id")
    _add_option_flag(a, "a game option (repeatable)")
    a.add_argument("--record", metavar="FILE", help="a game record (JSON); its last position")
    a.add_argument("--agent", type=_agent_arg, default=None, metavar="AGENT", help="mcts:...")
    a.add_argument(
        "--top", type=_int_in(1, None, "top"), default=10, help="actions to list (default 10)"
    )
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(func=_cmd_analyse, parser=a, threads=None)

    bench = sub.choices["bench"]
    bench.add_argument(
        "--search",
        action="store_true",
        help="measure MCTS iterations/s (start and mid-game, 1 thread and --threads)",
    )
    plain = bench.get_default("func")

    def dispatch(args: argparse.Namespace) -> int:
        if args.search:
            if not (math.isfinite(args.seconds) and args.seconds > 0):
                bench.error(f"--seconds must be a finite number > 0, got {args.seconds}")
            return _cmd_bench_search(args)
        return int(plain(args))

    bench.set_defaults(func=dispatch)
