"""The strength ladder: round-robin matches between search configurations, rated by Elo.

Run: ``python experiments/strength/strength.py [--time S | --iterations N] [--games G]
[--agents A,B,...] [--board KEY ...] [--out DIR] [--threads T]``. Every pair of agents plays
``G`` games (seats alternating) on each configuration chosen by ``--board`` (``default`` is each
game's default options; ``large`` one larger board per game, listed in ``LARGE``). Agents search
one thread each; ``--threads`` games run at once (each agent thinks only on its own turn, so
with one game per core the side not to move is idle). The Elo ratings are one Bradley-Terry fit
over all games of a configuration (:func:`stonefield.lab.metrics.bradley_terry`: draws count
half, UCT = 0, 95 % intervals from the fit's curvature). The report goes to
``DIR/ladder-TAG.md`` (Markdown) and ``DIR/ladder-TAG.json``, TAG naming the budget
(``time-0.1``, ``iterations-1000``) unless ``--tag`` names it; the files are rewritten after
every board, so a stopped ladder keeps what it played. Without ``--out`` it is printed. The
committed ladders are in ``experiments/strength/`` (its README lists them).

Long ladders (hours at 1 s a move) can be played in chunks: ``--chunk C`` plays each pairing as
matches of ``C`` games and appends each finished one to the lab's resumable results file
``DIR/ladder-TAG.results.jsonl`` (:class:`stonefield.lab.results.ResultsFile`: locked while a
run writes it, repaired after an interrupted write, each game held once); the same command with
``--resume`` reads those back and plays only the rest, so a ladder can be stopped and taken up
again (even over several sessions) without losing more than the chunk it was playing. The
chunks are played in rounds (every pairing's chunk k before any pairing's chunk k + 1), so a
stopped ladder has about as many games of every pairing, and ``--played`` (with the same
arguments) reports it as it stands, playing nothing: the rounds every pairing has finished.

Chunk k of a pairing is the match seeded ``seat_seed(seed, k, 0)`` (``stonefield._seeds``, the
lab's derivation of a game's seed), each agent re-seeded per game and seat by the match, so a
ladder in one chunk is the ladder without chunks, and a chunk is the same match whatever
``--games`` is.

``--define NAME=SETTINGS`` (repeatable) adds an agent to the ones named in ``AGENTS`` for this
run: SETTINGS are the search settings of an ``mcts:`` agent string without the budget
(``--define strong-b3=selection=grave,c=0,playouts=knowledge,grave_bias=1e-3``); the results
file's header records them, so a file is never resumed with a name defined otherwise.

The agent ``expert`` is ``sf.expert``, the PUCT search guided by the network shipped for each
game (``expert:time=T`` at ``--time T``; at ``--iterations N`` it searches N simulations, so
compare it at equal time). It joins a run's agents only when ``--agents`` names it
(``NAMED_AGENTS``), so the results files of the ladders without it keep their pairings' numbers;
a ladder with it is a results file of its own.

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
from typing import Any, Callable, Union

import stonefield as sf
from stonefield._seeds import seat_seed
from stonefield.lab.metrics import bradley_terry
from stonefield.lab.results import FORMAT, ResultsFile
from stonefield.matches import wilson_interval

#: The settings of the ladder's expert (``sf.expert``: PUCT guided by the network shipped for
#: the game; at ``--iterations N`` it searches N simulations).
EXPERT = "expert"

#: The agents of the ladder, by name: MCTS settings (None: a uniformly random agent).
AGENTS: dict[str, dict[str, Any] | str | None] = {
    "random": None,
    "uct": {},
    "uct+mast": {"playouts": "mast"},
    "uct+knowledge": {"playouts": "knowledge"},
    "grave": {"selection": "grave", "c": 0.0},
    "grave+mast": {"selection": "grave", "c": 0.0, "playouts": "mast"},
    "strong": {"preset": "strong"},
}

#: The ladder's agents that join a run only when ``--agents`` names them (after ``AGENTS`` and
#: the defined ones): a results file numbers its pairings by the run's agents, so the files of
#: the ladders played before these existed keep their numbers.
NAMED_AGENTS: dict[str, dict[str, Any] | str | None] = {"expert": EXPERT}

#: One larger board per game.
LARGE: dict[str, dict[str, Any]] = {
    "smallholder": {"board": "hex5"},
    "windflowers": {"size": 6},
    "faraday": {"order": 8},
    "subsume": {"size": 8},
}


#: Agent-string settings that ``--define`` leaves to the ladder.
LADDER_SETTINGS = ("iterations", "time", "seed", "threads")

#: The most games a pairing of a results file holds (the lab's file checks every chunk's span
#: against a total; a ladder's is open-ended).
MAX_GAMES = 1_000_000

#: Settings of every agent a run knows: ``AGENTS``, the ones ``--define`` adds, and the
#: ``NAMED_AGENTS`` its ``--agents`` names.
Settings = dict[str, Union[dict[str, Any], str, None]]


def define(text: str) -> tuple[str, dict[str, Any]]:
    """The name and MCTS settings of a ``--define NAME=SETTINGS`` argument.

    Raises ValueError (with what is allowed) for a name already taken by ``AGENTS``, settings
    the ladder decides, or settings ``sf.parse_agent`` refuses.
    """
    name, eq, spec = text.partition("=")
    name = name.strip()
    if not eq or not name or "," in name:
        raise ValueError(f"--define takes NAME=SETTINGS, got {text!r}")
    if name in AGENTS or name in NAMED_AGENTS:
        taken = ", ".join([*AGENTS, *NAMED_AGENTS])
        raise ValueError(f"--define {name}: the name is taken; agents are {taken}")
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


def make_agent(settings: Settings, name: str, budget: dict[str, Any]) -> Any:
    """The agent ``name`` with ``budget`` (its seed is the match's to derive per game)."""
    found = settings[name]
    if found is None:
        return sf.RandomAgent()
    if found == EXPERT:
        return sf.parse_agent(expert_string(budget))
    assert isinstance(found, dict)
    return sf.MCTS(**budget, **found)


def expert_string(budget: dict[str, Any]) -> str:
    """The agent string of the expert at a ladder's budget (iterations are its simulations).

    >>> expert_string({"iterations": 200}), expert_string({"time": 0.1})
    ('expert:simulations=200', 'expert:time=0.1')
    """
    return "expert:" + ",".join(
        f"{'simulations' if k == 'iterations' else k}={v}" for k, v in budget.items()
    )


def speed(game: sf.Game, settings: Settings, name: str, iterations: int) -> float:
    found = settings[name]
    if found is None:
        return math.nan
    if found == EXPERT:
        # Simulations a second: a thousandth of the MCTS budget (each one runs the network).
        iterations = max(1, iterations // 1000)
        agent = sf.expert(game, simulations=iterations)
    else:
        assert isinstance(found, dict)
        agent = sf.MCTS(iterations=iterations, **found)
    state = game.new_state()
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        agent.analyse(state)
        best = min(best, time.perf_counter() - t)
    return iterations / best


def chunk_seed(seed: int, k: int) -> int:
    """The match seed of chunk ``k`` of every pairing of a ladder seeded ``seed``."""
    return seat_seed(seed, k, 0)


def boards() -> list[tuple[str, dict[str, Any]]]:
    """Every board a ladder can play: each game's default board, then its larger one."""
    return [(g, o) for g in sf.games() for o in ({}, LARGE[g])]


def header(budget: dict[str, Any], seed: int, chunk: int, settings: Settings) -> dict[str, Any]:
    """The results file's header: what makes its chunks the same matches. The agents and
    boards played are not in it (a file holds any of them; a chunk's variant says which), so a
    ladder can be taken up with more agents, boards or games."""
    defined = {a: v for a, v in settings.items() if a not in AGENTS and a not in NAMED_AGENTS}
    return {
        "format": FORMAT,
        "ladder": {
            "budget": budget,
            "seed": seed,
            "chunk": chunk,
            "seeds": "seat_seed(seed, k, 0)",
            "agents": list(settings),
            "defined": defined,
        },
    }


def variant(settings: Settings, game: str, options: dict[str, Any], a: str, b: str) -> int:
    """The results file's variant of pairing ``a`` – ``b`` (``a`` first) on a board: its index
    among every ordered pair of the header's agents on every board of :func:`boards`."""
    names = list(settings)
    n = len(names)
    return (boards().index((game, options)) * n + names.index(a)) * n + names.index(b)


def variants(settings: Settings) -> int:
    return len(boards()) * len(settings) ** 2


class Chunks:
    """The played chunks of a ladder: its results file open (or none, when nothing is kept).

    Each finished chunk is one ``games`` entry of the lab's results file: its variant (the
    pairing on its board), first game and count, the first agent's ``points``, the pairing in
    words, the seconds it took, and per game the length and the first agent's score. With
    ``resume`` the entries already in the file are read back instead of played again; without
    it the file is begun afresh.
    """

    def __init__(
        self, path: Path | None, resume: bool, head: dict[str, Any], settings: Settings
    ) -> None:
        self.file: ResultsFile | None = None
        self.done: dict[tuple[int, int, int], dict[str, Any]] = {}
        self.reused = 0
        self.settings = settings
        if path is None:
            return
        if not resume and path.exists():
            path.unlink()
        self.file = ResultsFile(
            str(path),
            head,
            variants=variants(settings),
            totals={"games": MAX_GAMES},
            columns=(),
        )
        for e in self.file.entries:
            self.done[(e["variant"], e["first"], e["count"])] = e

    def close(self) -> None:
        if self.file is not None:
            self.file.close()

    def holds(self, what: tuple[int, int, int]) -> bool:
        """Whether the chunk ``(variant, first, count)`` has been played."""
        return what in self.done

    def play(
        self, what: tuple[int, int, int], pairing: dict[str, Any], play: Callable[[], sf.Match]
    ) -> float:
        """The first agent's points in the chunk ``what``, from the file or from ``play()``."""
        if what in self.done:
            self.reused += 1
            return float(self.done[what]["points"])
        t = time.perf_counter()
        m = play()
        first = m.agent_returns[:, 0]
        entry = {
            "kind": "games",
            "variant": what[0],
            "first": what[1],
            "count": what[2],
            "pairing": pairing,
            "points": float(((first + 1.0) / 2.0).sum()),
            "seconds": round(time.perf_counter() - t, 1),
            "stats": {
                "length": [int(x) for x in m.lengths],
                "score": [float(x) for x in (first + 1.0) / 2.0],
            },
        }
        self.done[what] = entry
        if self.file is not None:
            self.file.append(entry)
        return float(entry["points"])


def _match(
    game: sf.Game,
    settings: Settings,
    pair: tuple[str, str],
    budget: dict[str, Any],
    seed: int,
    k: int,
    n: int,
    threads: int | None,
) -> sf.Match:
    """Chunk ``k`` (``n`` games) of a pairing."""
    a, b = pair
    return sf.match(
        game,
        [make_agent(settings, a, budget), make_agent(settings, b, budget)],
        games=n,
        seed=chunk_seed(seed, k),
        threads=threads,
    )


def ladder(
    game_name: str,
    options: dict[str, Any],
    agents: list[str],
    budget: dict[str, Any],
    games: int,
    threads: int | None,
    seed: int,
    chunks: Chunks,
    chunk: int | None = None,
    played: bool = False,
) -> dict[str, Any]:
    """Every pair of ``agents`` plays ``games`` games, in matches of ``chunk`` games (one match
    when ``chunk`` is None); chunk k is seeded by :func:`chunk_seed`.

    The chunks are played in rounds: every pairing plays its chunk k before any plays chunk
    k + 1, so a ladder stopped part-way has about as many games of every pairing. With
    ``played`` nothing is played: the fit takes the rounds that ``chunks`` holds for every
    pairing (the games a pairing then has are in its ``games``).
    """
    game = sf.make(game_name, **options)
    size = chunk or games
    pairings = list(itertools.combinations(enumerate(agents), 2))
    points = [0.0] * len(pairings)
    played_games = 0
    for k, first in enumerate(range(0, games, size)):
        n = min(size, games - first)
        round_: list[tuple[tuple[int, int, int], dict[str, Any], Callable[[], sf.Match]]] = []
        for (_, a), (_, b) in pairings:
            what = (variant(chunks.settings, game_name, options, a, b), first, n)
            pairing = {"game": game_name, "options": options, "agents": [a, b]}
            play = functools.partial(
                _match, game, chunks.settings, (a, b), budget, seed, k, n, threads
            )
            round_.append((what, pairing, play))
        if played and not all(chunks.holds(what) for what, _, _ in round_):
            break
        for p, (what, pairing, play) in enumerate(round_):
            points[p] += chunks.play(what, pairing, play)
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
        help="games a match (each kept in DIR/ladder-TAG.results.jsonl as it finishes)",
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
    settings: Settings = dict(AGENTS)
    for text in args.define:
        try:
            name, found = define(text)
        except ValueError as e:
            p.error(str(e))
        settings[name] = found
    agents = args.agents.split(",")
    settings.update({a: v for a, v in NAMED_AGENTS.items() if a in agents})
    unknown = [a for a in agents if a not in settings]
    if unknown:
        known = ", ".join([*settings, *(a for a in NAMED_AGENTS if a not in settings)])
        p.error(f"unknown agents {unknown}; agents are {known}")
    runs: list[dict[str, Any]] = []
    started = time.perf_counter()
    what = f"{args.time} s a move" if args.time else f"{args.iterations} iterations a move"
    tag = args.tag or (f"time-{args.time}" if args.time else f"iterations-{args.iterations}")

    path = Path(args.out) / f"ladder-{tag}.results.jsonl" if args.out and args.chunk else None
    if args.played and (path is None or not path.exists()):
        p.error(f"no results file {path}: nothing to report")
    try:
        chunks = Chunks(
            path,
            args.resume or args.played,
            header(budget, args.seed, args.chunk or args.games, settings),
            settings,
        )
    except sf.StonefieldError as e:
        p.error(str(e))

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
        title = (
            f"## Ladder at {what}, {games}\n\n"
            f"Command: `python experiments/strength/strength.py {' '.join(argv or sys.argv[1:])}`"
            f" ({how})."
        )
        text = report(runs, title)
        if args.out:
            # Written after every board, so a long ladder that is stopped keeps what it played.
            out = Path(args.out)
            out.mkdir(parents=True, exist_ok=True)
            (out / f"ladder-{tag}.md").write_text(text + "\n")
            (out / f"ladder-{tag}.json").write_text(json.dumps(runs, indent=1) + "\n")
        return text

    try:
        _play_all(args, agents, budget, chunks, runs, settings, write)
    finally:
        chunks.close()
    if args.played and not runs:
        p.error("no board has a round of chunks played by every pairing: nothing to report")
    print(write(final=True))


def _play_all(
    args: argparse.Namespace,
    agents: list[str],
    budget: dict[str, Any],
    chunks: Chunks,
    runs: list[dict[str, Any]],
    settings: Settings,
    write: Callable[[bool], str],
) -> None:
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
                    chunks,
                    args.chunk,
                    played=args.played,
                )
            except LookupError as e:
                print(f"  {e}: left out", file=sys.stderr)
                continue
            if args.speed:
                game = sf.make(name, **options)
                r["speed"] = {a: speed(game, settings, a, 20_000) for a in agents}
            runs.append(r)
            write(False)


if __name__ == "__main__":
    main()
