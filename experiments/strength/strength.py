"""The strength ladder: round-robin matches between search configurations, rated by Elo.

Run: ``python benches/strength.py [--time S | --iterations N] [--games G] [--agents A,B,...]
[--board KEY ...] [--out DIR] [--threads T]``. Every pair of agents plays ``G`` games (seats
alternating) on each configuration chosen by ``--board`` (``default`` is each game's default
options; ``large`` one larger board per game, listed in ``LARGE``). Agents search one thread each;
``--threads`` games run at once (each agent thinks only on its own turn, so with one game per
core the side not to move is idle). The Elo ratings are one Bradley-Terry fit over all games of a
configuration (draws count half), anchored at UCT = 0, with 95 % intervals from the fit's
curvature. The report goes to ``DIR/ladder-TAG.md`` (Markdown) and ``DIR/ladder-TAG.json``, TAG
naming the budget (``time-0.1``, ``iterations-1000``) unless ``--tag`` names it; the files are
rewritten after every board, so a stopped ladder keeps what it played. Without ``--out`` it is
printed. The published ladders are in ``docs/strength/``.

Long ladders (hours at 1 s a move) can be played in chunks: ``--chunk C`` plays each pairing as
matches of ``C`` games and appends each finished one to ``DIR/ladder-TAG.chunks.jsonl``; the
same command with ``--resume`` reads those back and plays only the rest, so a ladder can be
stopped and taken up again (even over several sessions) without losing more than the chunk it
was playing. The chunks are played in rounds (every pairing's chunk k before any pairing's chunk
k + 1), so a stopped ladder has about as many games of every pairing, and ``--played`` (with the
same arguments) reports it as it stands, playing nothing: the rounds every pairing has finished.

``--define NAME=SETTINGS`` (repeatable) adds an agent to the ones named in ``AGENTS`` for this
run: SETTINGS are the search settings of an ``mcts:`` agent string without the budget
(``--define strong-b3=selection=grave,c=0,playouts=knowledge,grave_bias=1e-3``); its chunks
record the settings, so a name defined otherwise in another run is never read back for it.

Equal time per move is what users get; equal iterations (``--iterations``) shows the gain per
iteration apart from the cost per iteration, which ``--speed`` measures (iterations per second of
each agent on each configuration's opening position).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

import stonefield as sf
from stonefield.matches import wilson_interval

#: The agents of the ladder, by name: MCTS settings (None: a uniformly random agent).
AGENTS: dict[str, dict[str, Any] | None] = {
    "random": None,
    "uct": {},
    "uct+mast": {"playouts": "mast"},
    "uct+knowledge": {"playouts": "knowledge"},
    "grave": {"selection": "grave", "c": 0.0},
    "grave+mast": {"selection": "grave", "c": 0.0, "playouts": "mast"},
    "strong": {"preset": "strong"},
}

#: One larger board per game.
LARGE: dict[str, dict[str, Any]] = {
    "smallholder": {"board": "hex5"},
    "windflowers": {"size": 6},
    "faraday": {"order": 8},
    "subsume": {"size": 8},
}


#: Agent-string settings that ``--define`` leaves to the ladder.
LADDER_SETTINGS = ("iterations", "time", "seed", "threads")

#: The agents ``--define`` added in this run, by name: their settings.
DEFINED: dict[str, dict[str, Any]] = {}


def define(text: str) -> tuple[str, dict[str, Any]]:
    """The name and MCTS settings of a ``--define NAME=SETTINGS`` argument.

    Raises ValueError (with what is allowed) for a name already taken by ``AGENTS``, settings
    the ladder decides, or settings ``sf.parse_agent`` refuses.
    """
    name, eq, spec = text.partition("=")
    name = name.strip()
    if not eq or not name or "," in name:
        raise ValueError(f"--define takes NAME=SETTINGS, got {text!r}")
    if name in AGENTS:
        raise ValueError(f"--define {name}: the name is taken; agents are {', '.join(AGENTS)}")
    keys = [item.partition("=")[0].strip().lower() for item in spec.split(",") if item.strip()]
    # A bare number first is an agent string's iteration count.
    taken = [k for k in keys if k in LADDER_SETTINGS or k.isdigit()]
    if taken:
        raise ValueError(f"--define {name}: {', '.join(taken)} are the ladder's to set")
    try:
        agent = sf.parse_agent(f"mcts:{spec}")
    except sf.InvalidOptionError as e:
        raise ValueError(f"--define {name}: {e}") from None
    return name, {k: getattr(agent, k) for k in keys}


def make_agent(name: str, budget: dict[str, Any], seed: int) -> Any:
    settings = DEFINED[name] if name in DEFINED else AGENTS[name]
    if settings is None:
        return sf.RandomAgent(seed=seed)
    return sf.MCTS(**budget, **settings, seed=seed)


def bradley_terry(
    agents: list[str], results: list[tuple[int, int, float, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """Elo ratings and their 95 % half-widths from ``(i, j, score of i, games)`` results.

    Maximises the Bradley-Terry likelihood (scores as fractional wins) by Newton's method with
    agent ``uct`` (or the first agent) fixed at 0; the half-widths come from the inverse of the
    observed information. An agent that won or lost every game has an unbounded rating: its
    estimate is capped at ±800 Elo from the anchor and its half-width is infinite.
    """
    k = len(agents)
    anchor = agents.index("uct") if "uct" in agents else 0
    free = [a for a in range(k) if a != anchor]
    theta = np.zeros(k)
    cap = 800 * math.log(10) / 400
    for _ in range(100):
        grad = np.zeros(k)
        hess = np.zeros((k, k))
        for i, j, s, n in results:
            p = 1 / (1 + math.exp(theta[j] - theta[i]))
            grad[i] += s - n * p
            grad[j] -= s - n * p
            w = n * p * (1 - p)
            hess[i, i] += w
            hess[j, j] += w
            hess[i, j] -= w
            hess[j, i] -= w
        h = hess[np.ix_(free, free)] + 1e-9 * np.eye(len(free))
        step = np.linalg.solve(h, grad[free])
        theta[free] = np.clip(theta[free] + step, -cap, cap)
        if np.max(np.abs(step)) < 1e-9:
            break
    cov = np.linalg.pinv(hess[np.ix_(free, free)])
    half = np.zeros(k)
    for f, a in enumerate(free):
        saturated = abs(theta[a]) >= cap - 1e-6
        half[a] = math.inf if saturated else 1.96 * math.sqrt(max(cov[f, f], 0.0))
    scale = 400 / math.log(10)
    return theta * scale, half * scale


def speed(game: sf.Game, name: str, iterations: int) -> float:
    settings = DEFINED[name] if name in DEFINED else AGENTS[name]
    if settings is None:
        return math.nan
    agent = sf.MCTS(iterations=iterations, **settings)
    state = game.new_state()
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        agent.analyse(state)
        best = min(best, time.perf_counter() - t)
    return iterations / best


class Chunks:
    """The games of a ladder in chunks, kept in ``DIR/ladder-TAG.chunks.jsonl`` as they finish.

    A chunk is one ``sf.match`` of a pairing (``--chunk`` games, seats alternating); a line of
    the file records what was asked (game, options, agents, budget, seed, chunk size and index)
    and the first agent's points. With ``resume`` the chunks already in the file are read back
    instead of played again, so a ladder stopped part-way (a session's end, Ctrl-C) goes on
    where it stopped; without it the file is started afresh. A chunk is the same match
    whatever ``--games`` is, so a ladder resumed with more games keeps the chunks it played.
    """

    def __init__(self, path: Path | None, resume: bool) -> None:
        self.path = path
        self.done: dict[str, dict[str, Any]] = {}
        self.reused = 0
        if path is None:
            return
        if resume and path.exists():
            text = path.read_text()
            if text and not text.endswith("\n"):
                # Chunks found from here on go on a line of their own.
                with path.open("a") as f:
                    f.write("\n")
            for line in text.splitlines():
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    # A line cut short by a stop in mid-write: that chunk is played again.
                    continue
                self.done[row["key"]] = row
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("")

    @staticmethod
    def key(what: dict[str, Any]) -> str:
        """The line key of the chunk ``what``: its fields as canonical JSON."""
        return json.dumps(what, sort_keys=True)

    def holds(self, what: dict[str, Any]) -> bool:
        """Whether the chunk ``what`` has been played (and can be read back)."""
        return self.key(what) in self.done

    def play(self, what: dict[str, Any], play: Callable[[], float]) -> float:
        """The first agent's points for the chunk ``what``, from the file or from ``play()``."""
        key = self.key(what)
        if key in self.done:
            self.reused += 1
            return float(self.done[key]["points"])
        t = time.perf_counter()
        points = float(play())
        row = {"key": key, "points": points, "seconds": round(time.perf_counter() - t, 1)}
        self.done[key] = row
        if self.path is not None:
            with self.path.open("a") as f:
                f.write(json.dumps(row) + "\n")
        return points


def _points(
    game: sf.Game,
    pair: tuple[str, str],
    budget: dict[str, Any],
    seed: int,
    k: int,
    n: int,
    threads: int | None,
) -> float:
    """The first agent's points in chunk ``k`` (``n`` games) of a pairing."""
    a, b = pair
    m = sf.match(
        game,
        [make_agent(a, budget, seed + 2 * k), make_agent(b, budget, seed + 2 * k + 1)],
        games=n,
        seed=seed + 7919 * k,
        threads=threads,
    )
    return float(m.score[0]) * n


def ladder(
    game_name: str,
    options: dict[str, Any],
    agents: list[str],
    budget: dict[str, Any],
    games: int,
    threads: int | None,
    seed: int,
    chunk: int | None = None,
    chunks: Chunks | None = None,
    played: bool = False,
) -> dict[str, Any]:
    """Every pair of ``agents`` plays ``games`` games, in matches of ``chunk`` games (one match
    when ``chunk`` is None). Chunk k seeds its match with ``seed + 7919 k`` and its agents with
    ``seed + 2 k`` and ``seed + 2 k + 1``, so a ladder in one chunk is the ladder without chunks.

    The chunks are played in rounds: every pairing plays its chunk k before any plays chunk
    k + 1, so a ladder stopped part-way has about as many games of every pairing. With
    ``played`` nothing is played: the fit takes the rounds that ``chunks`` holds for every
    pairing (the games a pairing then has are in its ``games``).
    """
    game = sf.make(game_name, **options)
    chunks = chunks or Chunks(None, resume=False)
    size = chunk or games
    pairings = list(itertools.combinations(enumerate(agents), 2))
    points = [0.0] * len(pairings)
    played_games = 0
    for k, first in enumerate(range(0, games, size)):
        n = min(size, games - first)
        round_: list[tuple[dict[str, Any], Callable[[], float]]] = []
        for (_, a), (_, b) in pairings:
            what = {
                "game": game_name,
                "options": options,
                "agents": [a, b],
                "budget": budget,
                "seed": seed,
                "chunk": size,
                "index": k,
                "games": n,
            }
            defined = {x: DEFINED[x] for x in (a, b) if x in DEFINED}
            if defined:
                what["defined"] = defined
            round_.append(
                (what, functools.partial(_points, game, (a, b), budget, seed, k, n, threads))
            )
        if played and not all(chunks.holds(what) for what, _ in round_):
            break
        for p, (what, play) in enumerate(round_):
            points[p] += chunks.play(what, play)
        played_games += n
    if played_games == 0:
        raise LookupError(f"{game_name} {options}: no round of chunks played by every pairing")
    results: list[tuple[int, int, float, int]] = []
    pairs: list[dict[str, Any]] = []
    for ((i, a), (j, b)), pts in zip(pairings, points):
        results.append((i, j, pts, played_games))
        score = pts / played_games
        pairs.append(
            {
                "a": a,
                "b": b,
                "games": played_games,
                "score": score,
                "ci": [float(x) for x in wilson_interval(score, played_games)],
            }
        )
        print(f"  {game_name} {options}: {a} vs {b}: {score:.3f}", file=sys.stderr)
    elo, half = bradley_terry(agents, results)
    return {
        "game": game_name,
        "options": options,
        "pairs": pairs,
        "elo": {a: [float(e), float(h)] for a, e, h in zip(agents, elo, half)},
    }


def _fmt_elo(e: float, h: float) -> str:
    if math.isinf(h):
        return f"{e:+.0f} (unbounded)"
    return f"{e:+.0f} ± {h:.0f}"


def report(runs: list[dict[str, Any]], header: str) -> str:
    lines = [header, ""]
    for r in runs:
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items()) or "default options"
        lines += [f"### {r['game']} ({opts})", "", "| agent | Elo (95 %) |", "|---|---|"]
        ranked = sorted(r["elo"].items(), key=lambda kv: -kv[1][0])
        lines += [f"| {a} | {_fmt_elo(e, h)} |" for a, (e, h) in ranked]
        lines += [
            "",
            "| pairing | games | score of the first | 95 % interval |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {p['a']} – {p['b']} | {p['games']} | {p['score']:.3f} | "
            f"{p['ci'][0]:.3f} – {p['ci'][1]:.3f} |"
            for p in r["pairs"]
        ]
        if "speed" in r:
            lines += ["", "| agent | iterations/s (opening, best of 3) |", "|---|---|"]
            lines += [f"| {a} | {v:,.0f} |" for a, v in r["speed"].items() if not math.isnan(v)]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--time", type=float, default=None, help="seconds per move")
    p.add_argument("--iterations", type=int, default=None, help="iterations per move")
    p.add_argument("--games", type=int, default=20, help="games per pairing")
    p.add_argument("--agents", default="random,uct,grave,uct+mast,strong")
    p.add_argument(
        "--define",
        action="append",
        default=[],
        metavar="NAME=SETTINGS",
        help="an agent of this run: NAME=key=value,... (settings of an mcts: agent string)",
    )
    p.add_argument("--board", action="append", choices=["default", "large"], default=None)
    p.add_argument("--game", action="append", default=None, help="games (default: all)")
    p.add_argument("--threads", type=int, default=None, help="games played at once")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--speed", action="store_true", help="also measure iterations per second")
    p.add_argument("--out", default=None, help="directory for ladder-TAG.md and ladder-TAG.json")
    p.add_argument(
        "--tag", default=None, help="TAG of the report's files (default: the budget, time-0.1)"
    )
    p.add_argument(
        "--chunk",
        type=int,
        default=None,
        help="games a match (each kept in DIR/ladder-TAG.chunks.jsonl as it finishes)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="read back the chunks an earlier run with these arguments played",
    )
    p.add_argument(
        "--played",
        action="store_true",
        help="play nothing: report the rounds of chunks every pairing has played so far",
    )
    args = p.parse_args(argv)
    if args.games < 1:
        p.error(f"--games must be at least 1, not {args.games}")
    if args.chunk is not None and args.chunk < 1:
        p.error(f"--chunk must be at least 1, not {args.chunk}")
    if args.resume and (args.out is None or args.chunk is None):
        p.error("--resume needs --out and --chunk (the chunks are kept beside the report)")
    if args.played and (args.out is None or args.chunk is None):
        p.error("--played needs --out and --chunk (the chunks are kept beside the report)")
    if (args.time is None) == (args.iterations is None):
        p.error("give exactly one of --time and --iterations")
    budget = {"time": args.time} if args.time else {"iterations": args.iterations}
    DEFINED.clear()
    for text in args.define:
        try:
            name, settings = define(text)
        except ValueError as e:
            p.error(str(e))
        DEFINED[name] = settings
    agents = args.agents.split(",")
    unknown = [a for a in agents if a not in AGENTS and a not in DEFINED]
    if unknown:
        p.error(f"unknown agents {unknown}; agents are {', '.join([*AGENTS, *DEFINED])}")
    runs: list[dict[str, Any]] = []
    started = time.perf_counter()
    what = f"{args.time} s a move" if args.time else f"{args.iterations} iterations a move"
    tag = args.tag or (f"time-{args.time}" if args.time else f"iterations-{args.iterations}")

    chunks = Chunks(
        Path(args.out) / f"ladder-{tag}.chunks.jsonl" if args.out and args.chunk else None,
        args.resume or args.played,
    )

    def write(final: bool) -> str:
        wall = time.perf_counter() - started
        earlier = (
            f"; {chunks.reused} chunks of {args.chunk} games read back from earlier runs"
            if chunks.reused
            else ""
        )
        games = (
            f"{args.games} games per pairing"
            if not args.played
            else f"the games played so far of {args.games} per pairing"
        )
        if args.played:
            how = f"no game played; {chunks.reused} chunks of {args.chunk} games read back,"
            how += " the rounds every pairing has finished"
        else:
            how = f"{wall / 60:.0f} min of wall time{'' if final else ', still running'}{earlier}"
        header = (
            f"## Ladder at {what}, {games}\n\n"
            f"Command: `python benches/strength.py {' '.join(argv or sys.argv[1:])}` ({how})."
        )
        text = report(runs, header)
        if args.out:
            # Written after every board, so a long ladder that is stopped keeps what it played.
            out = Path(args.out)
            out.mkdir(parents=True, exist_ok=True)
            (out / f"ladder-{tag}.md").write_text(text + "\n")
            (out / f"ladder-{tag}.json").write_text(json.dumps(runs, indent=1) + "\n")
        return text

    for name in args.game or sf.games():
        for board in args.board or ["default"]:
            options = {} if board == "default" else LARGE[name]
            try:
                r = ladder(
                    name,
                    options,
                    agents,
                    budget,
                    args.games,
                    args.threads,
                    args.seed,
                    args.chunk,
                    chunks,
                    played=args.played,
                )
            except LookupError as e:
                print(f"  {e}: left out", file=sys.stderr)
                continue
            if args.speed:
                game = sf.make(name, **options)
                r["speed"] = {a: speed(game, a, 20_000) for a in agents}
            runs.append(r)
            write(final=False)
    if args.played and not runs:
        p.error("no board has a round of chunks played by every pairing: nothing to report")
    print(write(final=True))


if __name__ == "__main__":
    main()
