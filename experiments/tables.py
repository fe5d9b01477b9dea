"""The tables the docs and the README show, rendered from the experiments' data.

Each figure of a results page is read from the file its run wrote (``experiments/*/``), never
typed: the docs' hook (``docs/hooks.py``) replaces ``<!-- table: NAME -->`` with
``TABLES[NAME]()`` and ``<!-- include: PATH -->`` with the text of a generated Markdown table,
and ``tests/core/test_readme_figures.py`` holds every table the README quotes to the same functions.
A table names the run that answers its question; a new run that supersedes one changes the
name here, and every page that shows the table follows.

Run ``python experiments/tables.py [NAME ...]`` to print tables.
"""

from __future__ import annotations

import functools
import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: The repository's root.
ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = ROOT / "experiments"

#: The agents of the ladder as the pages name them.
AGENT_LABELS = {
    "strong": "strong",
    "grave": "GRAVE",
    "uct+mast": "UCT+MAST",
    "uct+knowledge": "UCT+knowledge",
    "uct": "UCT",
    "random": "random",
}

#: Each game's larger board of the ladder (``--board large``), as the pages name it.
LARGE_LABELS = {
    "smallholder": "smallholder hex5",
    "windflowers": "windflowers size 6",
    "faraday": "faraday order 8",
    "subsume": "subsume size 8",
}

GAMES = ("smallholder", "windflowers", "faraday", "subsume")


# -- reading ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)  # noqa: UP033 (Python 3.9 has no functools.cache)
def ladder(tag: str) -> list[dict[str, Any]]:
    """The boards of the ladder report ``experiments/strength/ladder-TAG.json``."""
    runs: list[dict[str, Any]] = json.loads(
        (EXPERIMENTS / "strength" / f"ladder-{tag}.json").read_text()
    )
    return runs


def board(tag: str, game: str, large: bool = False) -> dict[str, Any]:
    """One board of a ladder: ``game`` on its default board, or on its larger one."""
    for r in ladder(tag):
        if r["game"] == game and bool(r["options"]) == large:
            return r
    raise LookupError(f"ladder-{tag}.json has no {'larger' if large else 'default'} {game} board")


def elo(tag: str, game: str, agent: str, large: bool = False) -> str:
    """An agent's rating in a ladder as the pages print it: ``+225 ± 39``, ``0`` for the
    anchor, ``−800 (unbounded)`` for an agent that won or lost every game."""
    e, h = board(tag, game, large)["elo"][agent]
    if h == 0.0 and e == 0.0:
        return "0"
    sign = "+" if round(e) >= 0 else "−"
    if math.isinf(h):
        return f"{sign}{abs(e):.0f} (unbounded)"
    return f"{sign}{abs(e):.0f} ± {h:.0f}"


def pairing(tag: str, game: str, a: str, b: str, large: bool = False) -> dict[str, Any]:
    """The pairing of ``a`` (the first) and ``b`` in a ladder's board."""
    for p in board(tag, game, large)["pairs"]:
        if (p["a"], p["b"]) == (a, b):
            return dict(p)
        if (p["a"], p["b"]) == (b, a):
            return {
                **p,
                "a": a,
                "b": b,
                "score": 1 - p["score"],
                "ci": [1 - p["ci"][1], 1 - p["ci"][0]],
            }
    raise LookupError(f"ladder-{tag}.json: no pairing {a} – {b} in {game}")


def score(tag: str, game: str, a: str, b: str, large: bool = False) -> str:
    """``a``'s score against ``b`` with its 95 % interval: ``0.617 (0.527–0.699)``."""
    p = pairing(tag, game, a, b, large)
    return f"{p['score']:.3f} ({p['ci'][0]:.3f}–{p['ci'][1]:.3f})"


def games(tag: str, game: str, large: bool = False) -> int:
    """Games a pairing in a ladder's board."""
    return int(board(tag, game, large)["pairs"][0]["games"])


def markdown_rows(path: str) -> dict[str, list[str]]:
    """The rows of a generated Markdown table (``experiments/solved/results.md``, say) by the
    first cell, each as its cells."""
    rows: dict[str, list[str]] = {}
    for line in (ROOT / path).read_text().splitlines()[2:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[cells[0]] = cells
    return rows


# -- rendering ----------------------------------------------------------------------------


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def elo_table(
    rows: Sequence[tuple[str, str, str, bool]], agents: Sequence[str], first: str = "game"
) -> str:
    """One row a (label, ladder tag, game, larger board), one column an agent's rating; an
    agent that did not play in a ladder gets a dash."""

    def cell(tag: str, game: str, large: bool, agent: str) -> str:
        return elo(tag, game, agent, large) if agent in board(tag, game, large)["elo"] else "–"

    return table(
        [first, *(AGENT_LABELS[a] for a in agents)],
        [[label, *(cell(tag, g, large, a) for a in agents)] for label, tag, g, large in rows],
    )


def pairing_table(rows: Sequence[tuple[str, str, str, str, str, bool]]) -> str:
    """One row a (label, budget, ladder tag, game, first agent, second agent, larger board)."""
    return table(
        ["pairing", "budget", "games", "score of the first (95 %)"],
        [
            [f"{a} – {b}", budget, str(games(tag, g, large)), score(tag, g, a, b, large)]
            for budget, tag, g, a, b, large in rows
        ],
    )


# -- the tables ---------------------------------------------------------------------------

#: The round robins of every agent on each default board, to about ±50 Elo.
ROUND_ROBIN_01 = {g: f"time-0.1-{g}-round-robin-200" for g in GAMES}
ROUND_ROBIN_1 = {
    "smallholder": "time-1-smallholder-round-robin-160",
    "windflowers": "time-1-windflowers-round-robin-120",
    "faraday": "time-1-faraday-round-robin-120",
    "subsume": "time-1-subsume-round-robin-120",
}


def strong_over_uct() -> str:
    """The headline: the strong preset over UCT on each default board at 0.1 s and 1 s a move
    (the round robins of every agent)."""
    return table(
        ["game", "strong over UCT, 0.1 s a move", "1 s a move", "games a pairing (0.1 s / 1 s)"],
        [
            [
                g,
                elo(ROUND_ROBIN_01[g], g, "strong"),
                elo(ROUND_ROBIN_1[g], g, "strong"),
                f"{games(ROUND_ROBIN_01[g], g)} / {games(ROUND_ROBIN_1[g], g)}",
            ]
            for g in GAMES
        ],
    )


def round_robin_01() -> str:
    return elo_table(
        [(g, ROUND_ROBIN_01[g], g, False) for g in GAMES], ["strong", "grave", "uct+mast", "uct"]
    )


def round_robin_1() -> str:
    return elo_table(
        [(g, ROUND_ROBIN_1[g], g, False) for g in GAMES], ["strong", "grave", "uct+mast", "uct"]
    )


def iterations_1000() -> str:
    return elo_table(
        [(g, "iterations-1000", g, False) for g in GAMES], ["strong", "grave", "uct+mast", "uct"]
    )


def first_looks() -> str:
    """The short round robins that came first: 20 games at 0.1 s, 16 at 1 s."""
    rows = [(f"{g}, 0.1 s, 20 games", "time-0.1", g, False) for g in GAMES]
    rows += [
        ("smallholder, 1 s, 16 games", "time-1-smallholder-round-robin", "smallholder", False),
        ("windflowers, 1 s, 16 games", "time-1-windflowers-round-robin", "windflowers", False),
        ("subsume, 0.1 s, 60 games", "time-0.1-subsume-round-robin-60", "subsume", False),
    ]
    return elo_table(rows, ["strong", "grave", "uct+mast", "uct", "random"], first="run")


#: The machine of the first duels: one game at a time beside other jobs, about half a core each.
SHARED = "about half a core each"
#: Windflowers' preset before it took knowledge playouts.
WF_BEFORE = "windflowers (preset before knowledge playouts)"
#: Subsume's preset before it took knowledge playouts.
SU_BEFORE = "subsume (preset before knowledge playouts)"


def duels() -> str:
    """The strong preset against UCT alone: the two-agent runs."""
    rows = [
        ("smallholder", "0.1 s", "time-0.1-uct-strong", "smallholder", SHARED),
        ("smallholder", "1 s", "time-1-uct-strong", "smallholder", SHARED),
        (WF_BEFORE, "0.1 s", "time-0.1-uct-strong", "windflowers", SHARED),
        (WF_BEFORE, "1 s", "time-1-uct-strong", "windflowers", SHARED),
        (
            "windflowers",
            "0.1 s",
            "time-0.1-uct-strong-windflowers-knowledge",
            "windflowers",
            "a core each",
        ),
        (
            "windflowers",
            "1 s",
            "time-1-uct-strong-windflowers-knowledge",
            "windflowers",
            "a core each",
        ),
        ("faraday", "0.1 s", "time-0.1-uct-strong", "faraday", SHARED),
        ("faraday", "0.1 s", "time-0.1-uct-strong-faraday-quiet", "faraday", "a core each"),
        ("faraday", "1 s", "time-1-uct-strong", "faraday", SHARED),
        (SU_BEFORE, "0.1 s", "time-0.1-uct-strong", "subsume", SHARED),
        ("subsume", "0.1 s", "time-0.1-uct-strong-subsume-knowledge", "subsume", SHARED),
        ("subsume", "1 s", "time-1-uct-strong-subsume-knowledge", "subsume", "about a core each"),
    ]
    return table(
        ["game", "a move", "strong over UCT", "games", "machine"],
        [[label, t, elo(tag, g, "strong"), str(games(tag, g)), m] for label, t, tag, g, m in rows],
    )


def large_duels() -> str:
    """The strong preset against UCT on each larger board, at 0.1 s and 1 s a move."""
    return table(
        ["board", "strong over UCT, 0.1 s a move", "1 s a move", "games"],
        [
            [
                LARGE_LABELS[g],
                elo("time-0.1-large-uct-strong", g, "strong", True),
                elo("time-1-large-uct-strong", g, "strong", True),
                str(games("time-1-large-uct-strong", g, True)),
            ]
            for g in GAMES
        ],
    )


def large_round_robin() -> str:
    return elo_table(
        [(LARGE_LABELS[g], "time-0.1-large-round-robin", g, True) for g in GAMES],
        ["strong", "grave", "uct+mast", "uct"],
        first="board (0.1 s a move, 120 games a pairing)",
    )


def windflowers_duels() -> str:
    """The Windflowers duels that decided its preset."""
    return pairing_table(
        [
            (
                "1 s",
                "time-1-windflowers-round-robin-120",
                "windflowers",
                "uct+mast",
                "strong",
                False,
            ),
            (
                "1 s",
                "time-1-windflowers-knowledge",
                "windflowers",
                "uct+mast",
                "uct+knowledge",
                False,
            ),
            (
                "1 s",
                "time-1-windflowers-knowledge",
                "windflowers",
                "strong",
                "uct+knowledge",
                False,
            ),
            ("1 s", "time-1-windflowers-grave-bias", "windflowers", "uct+mast", "strong-b3", False),
            ("1 s", "time-1-windflowers-grave-bias", "windflowers", "strong", "strong-b3", False),
            ("0.1 s", "time-0.1-windflowers-knowledge", "windflowers", "uct", "strong", False),
            (
                "0.1 s",
                "time-0.1-windflowers-knowledge",
                "windflowers",
                "uct",
                "uct+knowledge",
                False,
            ),
            (
                "0.1 s",
                "time-0.1-windflowers-knowledge",
                "windflowers",
                "strong",
                "uct+knowledge",
                False,
            ),
        ]
    )


def results_entries(tag: str) -> list[dict[str, Any]]:
    """The chunks of ``experiments/strength/ladder-TAG.results.jsonl`` (read, never locked)."""
    path = EXPERIMENTS / "strength" / f"ladder-{tag}.results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def windflowers_joint_fit() -> str:
    """One Bradley–Terry fit over every Windflowers game at 1 s a move: the round robin's, the
    knowledge duels' and the ``grave_bias`` duels' first 120 games a pairing. Their
    uct+mast – strong games were copied into the two duels' files, so they count from the
    round robin only."""
    from stonefield.lab.metrics import bradley_terry

    games: dict[tuple[str, str], list[float]] = {}
    for tag in ["round-robin-120", "knowledge", "grave-bias"]:
        for e in results_entries(f"time-1-windflowers-{tag}"):
            pair = (e["pairing"]["agents"][0], e["pairing"]["agents"][1])
            if e["first"] < 120 and (tag == "round-robin-120" or pair != ("uct+mast", "strong")):
                total = games.setdefault(pair, [0.0, 0.0])
                total[0] += e["points"]
                total[1] += e["count"]
    agents = ["uct", "grave", "uct+mast", "strong", "uct+knowledge", "strong-b3"]
    fit = [(agents.index(a), agents.index(b), s, int(n)) for (a, b), (s, n) in games.items()]
    elo, half = bradley_terry(agents, fit)
    ranked = sorted(zip(agents, elo, half), key=lambda r: -r[1])
    return table(
        ["agent (Windflowers, 1 s a move, one fit)", "Elo (95 %)"],
        [[a, "0" if a == "uct" else f"{e:+.0f} ± {h:.0f}"] for a, e, h in ranked],
    )


def training() -> str:
    """PUCT with the committed Subsume size-4 network against UCT (400 games each)."""
    data = json.loads((EXPERIMENTS / "training" / "subsume4-30min" / "evaluation.json").read_text())
    return table(
        ["against", "PUCT's score", "95 % interval", "games"],
        [
            [
                r["against"],
                f"{r['score']:.3f}",
                f"[{r['ci'][0]:.3f}, {r['ci'][1]:.3f}]",
                str(r["games"]),
            ]
            for r in data["rows"]
        ],
    )


#: Each game's default board as the shipped networks' table names it.
DEFAULT_BOARDS = {
    "smallholder": "hex4, nibbler",
    "windflowers": "trisquare 4, two players",
    "faraday": "hex, order 6",
    "subsume": "size 6",
}

#: Each game's name as the pages print it.
GAME_LABELS = {
    "smallholder": "The Smallholder",
    "windflowers": "Windflowers",
    "faraday": "Faraday",
    "subsume": "Subsume",
}


def expert_runs(game: str) -> list[Path]:
    """The training runs behind the game's shipped network, oldest first: ``runs/GAME``, then
    ``runs/GAME-2``, ``runs/GAME-3``... (each started from the one before with ``--init``) up
    to the run whose ``latest.npz`` is the shipped file."""
    shipped = (ROOT / "python" / "stonefield" / "networks" / f"{game}.npz").read_bytes()
    runs, n = [], 1
    while True:
        run = EXPERIMENTS / "experts" / "runs" / (game if n == 1 else f"{game}-{n}")
        if not (run / "results.json").exists():
            raise SystemExit(f"no training run in experiments/experts/runs made {game}.npz")
        runs.append(run)
        if (run / "latest.npz").read_bytes() == shipped:
            return runs
        n += 1


def experts() -> str:
    """The shipped networks: each game's training runs (``experiments/experts/runs/GAME``
    and the runs that went on from it, :func:`expert_runs`) and the expert's score against
    the strong preset at 0.1 s a move (``experiments/experts/results/GAME.json``)."""
    rows = []
    for g in GAMES:
        done = [
            row
            for run in expert_runs(g)
            for row in json.loads((run / "results.json").read_text())["rows"]
        ]
        last = done[-1]["board"]
        on_default = [r for r in done if r["board"] == last]
        path = EXPERIMENTS / "experts" / "results" / f"{g}.json"
        if path.exists():
            ev = json.loads(path.read_text())
            n = len(ev["games"])
            low, high = ev["interval"]
            measured = [f"{ev['score']:.3f}", f"[{low:.3f}, {high:.3f}]", str(n)]
        else:
            measured = ["not yet measured", "–", "0"]
        rows.append(
            [
                GAME_LABELS[g],
                DEFAULT_BOARDS[g],
                f"{sum(r['seconds'] for r in done) / 60:.0f} min",
                f"{len(done)} ({len(on_default)} on the default board)",
                f"{sum(r['positions'] for r in done):,}",
                *measured,
            ]
        )
    return table(
        [
            "game",
            "default board",
            "training (wall)",
            "rounds",
            "self-play positions",
            "score vs strong, 0.1 s a move",
            "95 % interval",
            "games",
        ],
        rows,
    )


#: Networks that went on from a shipped one (``stonefield train --init``), measured against the
#: strong preset as the shipped ones are: (run folder, rounds of it or "best", evaluation file,
#: a note on the evaluation or ""). A number is the network of that round (the run's
#: ``latest.npz`` at its last); "best" is a gated run's ``best.npz``, the network that last
#: passed its gate, after every round of the run.
CONTINUED: dict[str, list[tuple[str, int | str | None, str, str]]] = {
    "faraday": [
        ("faraday", None, "faraday.json", ""),
        ("faraday", None, "faraday-avx2.json", "measured again with the AVX2 forward pass"),
        ("faraday-2", 200, "faraday-2-round-200.json", ""),
        ("faraday-2", 350, "faraday-2-round-350.json", ""),
        ("faraday-2", 472, "faraday-2.json", ""),
        ("faraday-3", "best", "faraday-3.json", ""),
        ("faraday-4", "best", "faraday-4.json", ""),
    ],
}


def run_rows(run: str) -> list[dict[str, Any]]:
    """The rows of a run of ``experiments/experts/runs``, one per round."""
    path = EXPERIMENTS / "experts" / "runs" / run / "results.json"
    return list(json.loads(path.read_text())["rows"])


def lineage(run: str) -> list[str]:
    """The runs behind ``run``, oldest first, ``run`` last: each run's ``--init`` names the run
    whose network it started from (``runs/NAME/latest.npz`` or ``best.npz``)."""
    chain = [run]
    while True:
        path = EXPERIMENTS / "experts" / "runs" / chain[0] / "results.json"
        init = json.loads(path.read_text())["config"].get("init")
        if not init:
            return chain
        chain.insert(0, Path(init).parent.name)


def continued(game: str) -> str:
    """A shipped network's runs trained on (:data:`CONTINUED`): rounds, time and positions up
    to each measured network (the runs it went on from included), and its score against the
    strong preset at 0.1 s a move."""
    rows = []
    for run, rounds, result, note in CONTINUED[game]:
        done = [r for earlier in lineage(run)[:-1] for r in run_rows(earlier)]
        own = run_rows(run)
        if rounds == "best":
            done += own
            label = f"{run}, best (round {own[-1]['best_round']} of {len(own)})"
        else:
            done += own[: rounds if isinstance(rounds, int) else None]
            label = f"{run}, round {rounds}" if rounds else f"{run} (shipped)"
        if note:
            label += f", {note}"
        ev = json.loads((EXPERIMENTS / "experts" / "results" / result).read_text())
        low, high = ev["interval"]
        last = done[-1]["board"]
        rows.append(
            [
                label,
                str(sum(r["board"] == last for r in done)),
                f"{sum(r['seconds'] for r in done) / 60:.0f} min",
                f"{sum(r['positions'] for r in done):,}",
                f"{ev['score']:.3f}",
                f"[{low:.3f}, {high:.3f}]",
                str(len(ev["games"])),
            ]
        )
    return table(
        [
            "network",
            "rounds on the default board",
            "training (wall)",
            "self-play positions",
            "score vs strong, 0.1 s a move",
            "95 % interval",
            "games",
        ],
        rows,
    )


#: The boards the README's solver table shows, by their label in experiments/solved/results.md.
SOLVED_README = (
    "smallholder board=hex232323 ruleset=nibbler",
    "smallholder board=hex232323 ruleset=stymie",
    "smallholder board=hex3 ruleset=hull_setbacks",
    "subsume size=3",
    "windflowers grid=trisquare size=3 scoring=stones tiebreak=underdog"
    " last_placer_breaks_ties=true",
    "windflowers grid=hex size=3 scoring=stones tiebreak=underdog last_placer_breaks_ties=false",
    "faraday grid=hex order=3 surplus_charge=false",
    "faraday grid=hex order=4 min_offer_stones=1",
)


def solved_values() -> str:
    """A few boards' perfect-play values (player 0's) and best first moves."""
    rows = markdown_rows("experiments/solved/results.md")
    words = {"+1": "win", "-1": "loss", "+0": "draw"}
    return table(
        ["board (empty)", "first player", "best first moves"],
        [
            [label, words[rows[label][1]], "–" if rows[label][1] == "-1" else rows[label][2]]
            for label in SOLVED_README
        ],
    )


#: The state graphs the README's table shows, by their label in experiments/solved/graphs.md.
GRAPHS_README = (
    "windflowers grid=trisquare size=3 players=2",
    "windflowers grid=hex size=3 players=2",
    "windflowers grid=trisquare size=3 players=3",
    "smallholder board=hex3 ruleset=stymie",
)


def state_graphs() -> str:
    """Whole state graphs: positions, longest game, cycle."""
    rows = markdown_rows("experiments/solved/graphs.md")
    return table(
        ["board", "positions", "longest game", "cycle"],
        [
            [label, f"{int(rows[label][1]):,}", rows[label][3], rows[label][4]]
            for label in GRAPHS_README
        ],
    )


def solver_speed(run: str, first: str = "before", second: str = "after") -> str:
    """The solver's speed before and after a change: ``experiments/solver-speed/results/RUN.jsonl``
    (``compare.sh``'s lines, the two builds taken in turn), per board and build the nodes, the
    fastest and the median solve, and the speed-up in time (before over after). ``first`` and
    ``second`` name the two kinds of run when they are not builds (``threads.sh``'s lines)."""
    path = EXPERIMENTS / "solver-speed" / "results" / f"{run}.jsonl"
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    boards: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        runs.setdefault((row["board"], row["build"]), []).append(row)
        if row["board"] not in boards:
            boards.append(row["board"])
    rows = []
    for b in boards:
        before, after = runs[(b, first)], runs[(b, second)]
        cells = [b]
        for rs in (before, after):
            secs = sorted(r["seconds"] for r in rs)
            cells += [
                f"{rs[0]['nodes']:,}",
                f"{secs[0]:.3f}–{secs[len(secs) // 2]:.3f}",
                f"{rs[0]['nodes'] / secs[0] / 1e6:.2f} M",
            ]
        fast = min(r["seconds"] for r in before) / min(r["seconds"] for r in after)
        cells.append(f"{fast:.2f}×")
        rows.append(cells)
    return table(
        [
            "board",
            f"nodes, {first}",
            f"seconds, {first} (fastest–median)",
            f"nodes/s, {first}",
            f"nodes, {second}",
            f"seconds, {second} (fastest–median)",
            f"nodes/s, {second}",
            "speed-up",
        ],
        rows,
    )


def solve_guided() -> str:
    """The solver guided by the shipped networks against the solver alone:
    ``experiments/solve-guided/results/guided.jsonl`` (``guided.py``'s lines, one thread, 256
    MiB), nodes per board and setting, with each one's ratio to the solver alone on the same
    question (the whole solve, or the value only). Proof-number rows that hit their 60 s cap
    say how many first moves they proved. "MCTS root order" solves the first moves in the order
    of a strong search's visits first (``try_first``)."""
    path = EXPERIMENTS / "solve-guided" / "results" / "guided.jsonl"
    rows_by: dict[str, dict[str, dict[str, Any]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        rows_by.setdefault(row["board"], {})[row["setting"]] = row
    columns = [
        ("alone", "alone", "whole solve, alone"),
        ("guide=expert,guide_depth=2", "alone", "guided, depth 2"),
        ("guide=expert,guide_depth=4", "alone", "guided, depth 4"),
        ("guide=expert,guide_depth=6", "alone", "guided, depth 6"),
        ("value_only=True", "value_only=True", "value only, alone"),
        ("guide=expert,guide_depth=0,value_only=True", "value_only=True", "value only, root order"),
        ("guide=expert,guide_depth=4,value_only=True", "value_only=True", "value only, guided"),
        ("value_only=True,rank=mcts", "value_only=True", "value only, MCTS root order"),
        (
            "guide=expert,guide_depth=4,value_only=True,rank=mcts",
            "value_only=True",
            "value only, guided, MCTS root order",
        ),
        ("method=pns,value_only=True,time=60", None, "pns value only, alone"),
        (
            "method=pns,guide=expert,guide_depth=0,value_only=True,time=60",
            "method=pns,value_only=True,time=60",
            "pns value only, root order",
        ),
    ]

    def cell(board: dict[str, dict[str, Any]], setting: str, base: str | None) -> str:
        r = board.get(setting)
        if r is None:
            return "–"
        if r["stopped_by"] not in ("solved", "value"):
            return f"{r['proven']} of {r['first_moves']} proven in 60 s"
        text = f"{r['nodes'] / 1e6:.2f} M"
        b = board.get(base) if base else None
        if b is not None and b["stopped_by"] in ("solved", "value") and setting != base:
            text += f" ({r['nodes'] / b['nodes']:.2f}×)"
        return text

    rows = [
        [name] + [cell(board, s, base) for s, base, _ in columns] for name, board in rows_by.items()
    ]
    return table(["board"] + [title for _, _, title in columns], rows)


def size_text(n: int) -> str:
    """Bytes as kB or MB (decimal)."""
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.1f} kB"


def proof_formats() -> str:
    """The same boards' proofs as trees (format 1, the older build) and as graphs (format 2),
    the two builds taken in turn (``experiments/proofs/formats.py``, ``results/formats.jsonl``):
    lines and size of each, and the fastest write and check of each over the rounds."""
    path = EXPERIMENTS / "proofs" / "results" / "formats.jsonl"
    got: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        got.setdefault(r["board"], {}).setdefault(r["format_version"], []).append(r)
    rows = []
    for board, by in got.items():
        if set(by) != {1, 2}:
            continue
        tree, graph = by[1][0], by[2][0]
        rows.append(
            [
                board,
                f"{tree['lines']:,} ({size_text(tree['bytes'])})",
                f"{graph['lines']:,} ({size_text(graph['bytes'])})",
                f"{tree['lines'] / graph['lines']:.1f}×",
                " / ".join(f"{min(r['write_seconds'] for r in by[v]):.1f}" for v in (1, 2)),
                " / ".join(f"{min(r['check_seconds'] for r in by[v]):.1f}" for v in (1, 2)),
            ]
        )
    return table(
        [
            "board (empty)",
            "tree: lines (file)",
            "graph: lines (file)",
            "smaller by",
            "write (s), tree / graph",
            "check (s), tree / graph",
        ],
        rows,
    )


def proofs() -> str:
    """A verified proof of each solved board's value (``experiments/proofs/prove.py``'s rows
    in ``results/proofs.jsonl``): the format (a tree, version 1, or a graph, version 2),
    lines, size, positions the checker visited, the seconds to write and to check, and whether
    the file is committed; a board whose writing ran out of time says so."""
    path = EXPERIMENTS / "proofs" / "results" / "proofs.jsonl"
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        value = {1: "win", 0: "draw", -1: "loss"}[r["value"]]
        # Rows before the format's version 2 (a graph) are trees, version 1.
        form = {1: "tree", 2: "graph"}[r.get("format_version", 1)]
        if r["stopped"]:
            rows.append(
                [r["board"], value, form, "–", "–", "–", f"> {r['write_seconds']:.0f}", "–", "no"]
            )
            continue
        rows.append(
            [
                r["board"],
                value,
                form,
                f"{r['lines']:,}",
                size_text(r["bytes"]),
                f"{r['positions']:,}",
                f"{r['write_seconds']:.1f}",
                f"{r['check_seconds']:.1f}",
                "yes" if r["kept"] else "no (regenerate)",
            ]
        )
    return table(
        [
            "board (empty)",
            "value",
            "proof",
            "lines",
            "file",
            "positions checked",
            "write (s)",
            "check (s)",
            "committed",
        ],
        rows,
    )


def solve_split(log: str) -> str:
    """A split solve's log, ``experiments/solve-split/results/LOG.jsonl`` (``split.py``'s
    lines, a leaf a line), by the depth of the leaves: leaves solved and settled, their
    nodes and hours, and the nodes of the settled ones."""
    path = EXPERIMENTS / "solve-split" / "results" / f"{log}.jsonl"
    leaves = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    rows = []
    for depth in sorted({len(r["moves"]) for r in leaves}):
        at = [r for r in leaves if len(r["moves"]) == depth]
        settled = [r["nodes"] for r in at if r["value"] is not None]
        rows.append(
            [
                str(depth),
                str(len(at)),
                str(len(settled)),
                f"{sum(r['nodes'] for r in at) / 1e9:.1f} G",
                f"{sum(r['seconds'] for r in at) / 3600:.2f}",
                f"{min(settled) / 1e9:.2f}–{max(settled) / 1e9:.2f} G" if settled else "",
            ]
        )
    rows.append(
        [
            "all",
            str(len(leaves)),
            str(sum(r["value"] is not None for r in leaves)),
            f"{sum(r['nodes'] for r in leaves) / 1e9:.1f} G",
            f"{sum(r['seconds'] for r in leaves) / 3600:.2f}",
            "",
        ]
    )
    return table(
        [
            "moves in",
            "leaves solved",
            "settled",
            "nodes",
            "hours of leaves",
            "nodes of a settled leaf",
        ],
        rows,
    )


def solve_growth() -> str:
    """How a solve grows as positions come nearer the empty board:
    ``experiments/solve-growth/results/growth.jsonl`` (``growth.py``'s lines), per series and
    plies the positions solved, the smallest, median and largest node count, and the growth
    of the median per move back towards the empty board. A solve stopped by its time cap
    counts as a lower bound (marked ≥)."""
    path = EXPERIMENTS / "solve-growth" / "results" / "growth.jsonl"
    series: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        series.setdefault(row["series"], {}).setdefault(row["plies"], []).append(row)
    rows = []
    for name, by_plies in series.items():
        previous: tuple[int, float] | None = None
        for plies in sorted(by_plies, reverse=True):
            rs = by_plies[plies]
            nodes = sorted(r["nodes"] for r in rs)
            capped = any(r["stopped_by"] != "solved" for r in rs)
            median = (
                float(nodes[len(nodes) // 2])
                if len(nodes) % 2
                else ((nodes[len(nodes) // 2 - 1] + nodes[len(nodes) // 2]) / 2)
            )
            mark = "≥ " if capped else ""
            growth = "–"
            if previous is not None:
                step = (median / previous[1]) ** (1 / (previous[0] - plies))
                growth = f"{mark}×{step:.1f}"
            rows.append(
                [
                    name,
                    str(plies),
                    str(len(rs)),
                    f"{nodes[0]:,}",
                    f"{mark}{median:,.0f}",
                    f"{mark}{nodes[-1]:,}",
                    growth,
                ]
            )
            previous = (plies, median)
    return table(
        [
            "board",
            "random moves in",
            "positions",
            "fewest nodes",
            "median",
            "most",
            "median's growth a move back",
        ],
        rows,
    )


#: Every table by the name the markers use.
TABLES: dict[str, Callable[[], str]] = {
    "strength/strong-over-uct": strong_over_uct,
    "strength/round-robin-0.1": round_robin_01,
    "strength/round-robin-1": round_robin_1,
    "strength/iterations-1000": iterations_1000,
    "strength/first-looks": first_looks,
    "strength/duels": duels,
    "strength/large-duels": large_duels,
    "strength/large-round-robin": large_round_robin,
    "strength/windflowers-duels": windflowers_duels,
    "strength/windflowers-joint-fit": windflowers_joint_fit,
    "training/subsume4": training,
    "training/experts": experts,
    "training/faraday-continued": lambda: continued("faraday"),
    "solved/values": solved_values,
    "solved/graphs": state_graphs,
    "solved/speed-table-64": lambda: solver_speed("table-64"),
    "solved/speed-table-1024": lambda: solver_speed("table-1024"),
    "solved/speed-growth-1024": lambda: solver_speed("growth-1024"),
    "solved/speed-threads": lambda: solver_speed("threads-1024", "1 thread", "2 threads"),
    "solved/speed-cutoffs-1024": lambda: solver_speed("cutoffs-1024"),
    "solved/speed-cutoffs-value-only-1024": lambda: solver_speed("cutoffs-value-only-1024"),
    "solved/guided": solve_guided,
    "solved/growth": solve_growth,
    "solved/split-27": lambda: solve_split("smallholder-hex343434-nibbler"),
    "solved/proofs": proofs,
    "solved/proof-formats": proof_formats,
}


def render(name: str) -> str:
    """The table ``name`` (a key of :data:`TABLES`) as Markdown."""
    try:
        make = TABLES[name]
    except KeyError:
        raise KeyError(f"no table {name!r}; tables are {', '.join(TABLES)}") from None
    return make()


if __name__ == "__main__":
    for name in sys.argv[1:] or TABLES:
        print(f"{name}:\n\n{render(name)}\n")
