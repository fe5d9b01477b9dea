"""``stonefield analyse``: one position searched, and what the search found."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from .. import _core
from ..agents import agent_string, parse_agent
from ._common import GAME_HELP, add_option_flag, fail, game_id, int_in, make_game
from .match import agent_arg

#: The agent ``analyse`` uses without ``--agent``.
DEFAULT_ANALYSE_AGENT = "mcts:iterations=10000"


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "analyse",
        help="search a position and show what the agent found",
        description="Searches the start position, or the position a game record reaches, and"
        " prints the best action, its value, the principal variation and the most visited"
        f" actions. The agent defaults to {DEFAULT_ANALYSE_AGENT}.",
    )
    p.add_argument("game", type=game_id, metavar="GAME", help=GAME_HELP)
    add_option_flag(p, "a game option (repeatable)")
    p.add_argument("--record", metavar="FILE", help="a game record (JSON); its last position")
    p.add_argument("--agent", type=agent_arg, default=None, metavar="AGENT", help="mcts:...")
    p.add_argument(
        "--top", type=int_in(1, None, "top"), default=10, help="actions to list (default 10)"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..records import load

    if args.record:
        try:
            state = load(args.record)
        except (OSError, _core.StonefieldError) as e:
            fail(str(e))
        game = state.game
        if game.name != args.game:
            fail(f"the record is a game of {game.name}, not {args.game}")
        for key, value in args.options:
            if game.options.get(key) != value:
                fail(f"the record's game has {key}={game.options.get(key)}, not {key}={value}")
    else:
        state = make_game(args.game, dict(args.options)).new_state()
        game = state.game
    if state.is_terminal():
        fail(f"the game is over after {state.move_count} actions; nothing to analyse")
    agent = args.agent or parse_agent(DEFAULT_ANALYSE_AGENT)
    if not hasattr(agent, "analyse"):
        fail(f"--agent: analyse needs a searching agent (mcts), got {agent_string(agent)}")
    res = agent.analyse(state)
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
        f"best action  {res.best} ({game.action_name(res.best)})",
        f"value        {res.value:+.3f} (mean return for player {state.current_player})",
        f"proven       {proven}",
        f"pv           {' '.join(game.action_name(int(a)) for a in res.pv)}",
        f"iterations   {res.iterations:,} in {res.seconds:.3f} s ({rate:,.0f}/s),"
        f" stopped by {res.stopped_by}",
        f"nodes        {res.nodes:,}",
        "",
        f"{'action':>7} {'name':>9} {'visits':>9} {'share':>7} {'value':>7}",
    ]
    total = max(int(res.visits.sum()), 1)
    order = sorted(range(len(res.actions)), key=lambda i: (-int(res.visits[i]), i))
    for i in order[: args.top]:
        lines.append(
            f"{int(res.actions[i]):>7} {game.action_name(int(res.actions[i])):>9}"
            f" {int(res.visits[i]):>9,} {res.visits[i] / total:>7.1%}"
            f" {res.values[i]:>+7.3f}"
        )
    if len(order) > args.top:
        lines.append(f"({len(order) - args.top} more actions)")
    print("\n".join(lines))
    return 0
