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
* ``subsume-asides``: the designer's two asides, ``anti_blob`` and ``remove_surrounded``, each
  off, against the default (size 5).

Each study carries its question (the designer's words where there are some), the metrics that
decide it, and a function that writes the answer from the run's numbers (:class:`Brief`): the
report opens with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._core import MCTS, InvalidOptionError, RandomAgent
from . import metrics as M
from .brief import Answer, Brief, excludes, fmt, seat_balance_answer

if TYPE_CHECKING:
    from ._view import LabView as Lab


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
    question: str = ""
    decide: tuple[str, ...] = ()
    answer: Answer | None = None

    def brief(self) -> Brief:
        """The report's opening for this study."""
        return Brief(self.name, self.question, self.decide, self.answer)


def _span(lab: Lab, name: str) -> tuple[float, float]:
    """The smallest and largest value of a metric over the variants."""
    vals = [m[name].value for m in lab.metrics() if name in m]
    return (min(vals), max(vals)) if vals else (float("nan"), float("nan"))


def _rulesets_answer(lab: Lab) -> tuple[str, str | None]:
    answer, recommendation = seat_balance_answer(lab)
    lo, hi = _span(lab, "drawishness")
    t_lo, t_hi = _span(lab, "truncation")
    answer += (
        f" Draws: {lo:.0%}–{hi:.0%} of games; truncated by the move cap: {t_lo:.0%}–{t_hi:.0%}."
    )
    return answer, recommendation


def _scoring_answer(lab: Lab) -> tuple[str, str | None]:
    ms = lab.metrics()
    parts, picks = [], []
    for players in sorted({v.options["players"] for v in lab.plan.variants}):
        rows = [(v, ms[v.index]) for v in lab.plan.variants if v.options["players"] == players]
        fair = [(v, m) for v, m in rows if excludes(m.get("seat_score_0", M.NAN_METRIC), 0.5) == 0]
        pool = fair or rows
        best = min(pool, key=lambda r: r[1].get("drawishness", M.NAN_METRIC).value)
        d_lo = min(m["drawishness"].value for _, m in rows)
        d_hi = max(m["drawishness"].value for _, m in rows)
        label = ", ".join(f"{k}={v}" for k, v in best[0].varied.items() if k != "players")
        parts.append(
            f"{players} players: draws range {d_lo:.0%}–{d_hi:.0%} over the combinations; "
            f"{len(fair)} of {len(rows)} give the first seat a fair score (½ within its "
            f"interval); the fewest draws {'among them' if fair else 'overall'}: {label} "
            f"({fmt(best[1]['drawishness'])} drawn, first seat {fmt(best[1]['seat_score_0'])})"
        )
        if fair:
            picks.append(f"{players} players: {label}")
    answer = f"At {lab.agents_label()}: " + "; ".join(parts) + "."
    recommendation = (
        "The fair combination with the fewest draws, per player count: " + "; ".join(picks) + "."
        if picks
        else None
    )
    return answer, recommendation


def _cycles_answer(lab: Lab) -> tuple[str, str | None]:
    ms = lab.metrics()
    games = sum(m["repeated_games"].n for m in ms if "repeated_games" in m)
    repeated = sum(
        int(round(m["repeated_games"].value * m["repeated_games"].n))
        for m in ms
        if "repeated_games" in m
    )
    truncated = sum(
        int(round(m["truncation"].value * m["truncation"].n)) for m in ms if "truncation" in m
    )
    answer = (
        "No game can cycle: every replacement lowers the number of same-owner neighbour pairs "
        "and every placement adds a stone that is never removed, so a game has at most "
        "players × (sites + capture pairs + 1) actions (the proof is in docs/games/"
        f"windflowers.md). This run: {games} games, {repeated} with a repeated position, "
        f"{truncated} cut short by the move cap."
    )
    if repeated:
        answer += " A repeated position contradicts the proof: its records are listed below."
    return answer, None


def _pie_answer(lab: Lab) -> tuple[str, str | None]:
    answer, recommendation = seat_balance_answer(lab)
    lo, hi = _span(lab, "pie_swap")
    ms = lab.metrics()
    even = [
        v.label
        for v, m in zip(lab.plan.variants, ms)
        if excludes(m.get("pie_swap", M.NAN_METRIC), 0.5) == 0
    ]
    answer += (
        f" Player 1 swaps in {lo:.0%}–{hi:.0%} of games; the swap share holds ½ for "
        f"{len(even)} of {len(ms)} variants (an offer that leaves the choice even is what the "
        "pie aims at)."
    )
    return answer, recommendation


def _sizes_answer(lab: Lab) -> tuple[str, str | None]:
    answer, recommendation = seat_balance_answer(lab)
    lo, hi = _span(lab, "length_mean")
    answer += f" Games last {lo:.0f}–{hi:.0f} actions on average."
    return answer, recommendation


def _asides_answer(lab: Lab) -> tuple[str, str | None]:
    ms = lab.metrics()
    default = lab.default_variant()
    if default is None:
        return seat_balance_answer(lab)
    ref = ms[default]
    parts = []
    for v in lab.plan.variants:
        if v.index == default:
            continue
        m = ms[v.index]
        changes = []
        for name in ("seat_score_0", "length_mean", "decisiveness", "drawishness"):
            a, b = m.get(name, M.NAN_METRIC), ref.get(name, M.NAN_METRIC)
            if excludes(a, b.value) != 0 and excludes(b, a.value) != 0:
                changes.append(f"{name} {fmt(a)} against {fmt(b)}")
        parts.append(
            f"with {v.label}: "
            + ("; ".join(changes) if changes else "no deciding metric differs from the default")
        )
    answer = (
        f"At {lab.agents_label()}, against the default: "
        + "; ".join(parts)
        + ". By stonefield's reading, remove_surrounded=false changes no legal move and no result"
        " (the kept stones take no part; a test plays both side by side), so its rows can differ"
        " from those with removal only by chance: the kept stones change the board that MCTS "
        "mixes into its random seeds, so the same agents play other games."
    )
    return answer, None


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
            question=(
                'The designer keeps the rule options "so that players can assess on their own '
                'the value of these changes". Which named ruleset gives the fairest game on '
                "hex4 and hex5?"
            ),
            decide=("seat_score_0", "balance", "drawishness", "truncation", "length_mean"),
            answer=_rulesets_answer,
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
            question=(
                '"The best scoring and tiebreaker combination needs to be resolved." Which '
                "combination of scoring, tie-break and last_placer_breaks_ties gives fair, "
                "decisive games with 2, 3 and 4 players (and how much king-making is there)?"
            ),
            decide=(
                "seat_score_0",
                "drawishness",
                "tiebreak_unresolved",
                "balance",
                "kingmaking",
            ),
            answer=_scoring_answer,
        ),
        Study(
            "windflowers-cycles",
            "windflowers",
            {"grid": ["hex", "trisquare", "square"], "players": [2, 3, 4]},
            {"size": 3},
            50000,
            0,
            description="Random games on the smallest boards, hunting repeated positions.",
            question=(
                "The designer notes that no proof excludes cycles: stones can be replaced back "
                "and forth. Can a game of Windflowers go on for ever?"
            ),
            decide=("repeated_games", "repetition", "truncation", "length_mean", "length_p90"),
            answer=_cycles_answer,
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
            question=(
                "Does Faraday's pie offer keep the game fair on every grid, with and without "
                "the designer's surplus-charge variant, and how often does player 1 swap?"
            ),
            decide=("seat_score_0", "pie_swap", "balance", "length_mean"),
            answer=_pie_answer,
        ),
        Study(
            "subsume-sizes",
            "subsume",
            {"size": [4, 5, 6, 7, 8]},
            {},
            100,
            50,
            description="Balance and length over sizes 4 to 8.",
            question="Does the size of the Subsume board change who wins, and how long games last?",
            decide=("seat_score_0", "balance", "length_mean", "drawishness"),
            answer=_sizes_answer,
        ),
        Study(
            "subsume-asides",
            "subsume",
            {"anti_blob": [True, False], "remove_surrounded": [True, False]},
            {"size": 5},
            100,
            50,
            description="The designer's two asides, each off, against the default (size 5).",
            question=(
                "The designer: \"the removal of surrounded stones doesn't really affect the "
                'game", and the game "is playable without [the anti-blob] rule, strictly '
                'speaking, but ends up being two big blobs growing and eventually facing off". '
                "What changes when either rule is dropped?"
            ),
            decide=("seat_score_0", "length_mean", "decisiveness", "drawishness", "balance"),
            answer=_asides_answer,
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
    lab.brief = s.brief()
    if report is not None:
        lab.report(report)
    return lab
