"""Ready-made studies: the designers' open questions as lab runs.

Each study is a grid, an agent and a number of games per variant; :func:`study` runs it (and
writes its report when given a directory). The defaults finish in a few minutes on two cores;
``games`` and ``iterations`` scale them.

* ``smallholder-rulesets``: the five named rulesets on hex4 and hex5.
* ``windflowers-scoring``: scoring × tie-break × ``last_placer_breaks_ties`` for 2, 3 and 4
  players (square grid, size 3), with king-making judged for 3–4 players.
* ``windflowers-cycles``: a hunt for repeated positions on the smallest boards of each grid,
  2–4 players, many random games (every repeated-position game is kept as a record).
* ``faraday-pie``: pie choices and seat balance on each grid (order 4), with and without the
  surplus-charge variant.
* ``subsume-sizes``: balance and length over sizes 4 to 8.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._core import MCTS, InvalidOptionError, RandomAgent


@dataclass(frozen=True)
class Study:
    """A named study: the arguments of :func:`stonefield.lab.evaluate` it runs."""

    name: str
    game: str
    vary: dict[str, list[Any]]
    fixed: dict[str, Any]
    games: int
    iterations: int  # 0: random agents
    kingmaking: int = 0
    description: str = ""


STUDIES: dict[str, Study] = {
    s.name: s
    for s in (
        Study(
            "smallholder-rulesets",
            "smallholder",
            {
                "ruleset": [
                    "nibbler",
                    "gaps_original",
                    "offshore_gaps",
                    "stymie",
                    "hull_setbacks",
                ],
                "board": ["hex4", "hex5"],
            },
            {},
            200,
            50,
            description="The five named rulesets on hex4 and hex5, MCTS self-play.",
        ),
        Study(
            "windflowers-scoring",
            "windflowers",
            {
                "players": [2, 3, 4],
                "scoring": ["stones", "largest_group"],
                "tiebreak": ["underdog", "cascade"],
                "last_placer_breaks_ties": [False, True],
            },
            {"grid": "square", "size": 3},
            200,
            50,
            kingmaking=5,
            description="Scoring × tie-break × last placer breaks ties, 2–4 players.",
        ),
        Study(
            "windflowers-cycles",
            "windflowers",
            {"grid": ["hex", "trisquare", "square"], "players": [2, 3, 4]},
            {"size": 3},
            50000,
            0,
            description="Random games on the smallest boards, hunting repeated positions.",
        ),
        Study(
            "faraday-pie",
            "faraday",
            {
                "grid": [
                    "trisquare_omni",
                    "trisquare",
                    "hex_limping",
                    "hex",
                    "hex_omni",
                    "square_omni",
                ],
                "surplus_charge": [False, True],
            },
            {"order": 4},
            300,
            50,
            description="Pie choices and seat balance per grid, with and without surplus charge.",
        ),
        Study(
            "subsume-sizes",
            "subsume",
            {"size": [4, 5, 6, 7, 8]},
            {},
            100,
            50,
            description="Balance and length over sizes 4 to 8.",
        ),
    )
}


def study(
    name: str,
    games: int | None = None,
    *,
    iterations: int | None = None,
    seed: int = 0,
    out: str | None = None,
    report: str | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: Any = False,
) -> Any:
    """Runs a named study and returns its :class:`~stonefield.lab.Lab`.

    Args:
        name: One of :data:`STUDIES`.
        games: Games per variant (default: the study's).
        iterations: MCTS iterations of the agents (default: the study's; 0 = random agents).
        seed: The run's seed.
        out: The results file (resumable).
        report: A directory to write the report into.
        backend: As for :func:`~stonefield.lab.evaluate`.
        address: As for :func:`~stonefield.lab.evaluate`.
        progress: As for :func:`~stonefield.lab.evaluate`.

    >>> lab = study("subsume-sizes", games=4, iterations=0)
    >>> len(lab.rows())
    5
    """
    from ._lab import evaluate

    if name not in STUDIES:
        raise InvalidOptionError(f"unknown study {name!r}; studies: {', '.join(STUDIES)}")
    s = STUDIES[name]
    iters = s.iterations if iterations is None else iterations
    agent = MCTS(iterations=iters, seed=seed) if iters > 0 else RandomAgent(seed=seed)
    lab = evaluate(
        s.game,
        vary=s.vary,
        fixed=s.fixed,
        agents=agent,
        games=s.games if games is None else games,
        seed=seed,
        backend=backend,
        address=address,
        out=out,
        kingmaking=s.kingmaking,
        progress=progress,
    )
    if report is not None:
        lab.report(report)
    return lab
