"""``windflowers-scoring``: which scoring, tie-break and last-placer rule, per player count?"""

from __future__ import annotations

from .. import metrics as M
from ..report import Answer, LabView, default_answer
from ..study import Study

#: The option answered apart (a recommendation per value).
GROUP = "players"


def answer(lab: LabView) -> Answer:
    """Per player count: how many combinations are fair to the first seat, and of those the
    one with the fewest draws."""
    ms = lab.metrics()
    sentences, picks = [], []
    for value in sorted({v.options[GROUP] for v in lab.plan.variants}):
        rows = [(v, ms[v.index]) for v in lab.plan.variants if v.options[GROUP] == value]
        fair = [
            (v, m) for v, m in rows if M.excludes(m.get("seat_score_0", M.NAN_METRIC), 0.5) == 0
        ]
        best = min(fair or rows, key=lambda r: r[1].get("drawishness", M.NAN_METRIC).value)
        label = ", ".join(f"{k}={x}" for k, x in best[0].varied.items() if k != GROUP)
        sentences.append(
            f"{GROUP}={value}: {len(fair)} of {len(rows)} combinations are fair to the first "
            f"seat; the fewest draws {'among them' if fair else 'overall'}: {label} "
            f"({M.short(best[1]['drawishness'])} drawn)."
        )
        if fair:
            picks.append(f"{GROUP}={value}: {label}")
    recommendation = (
        "The fair combination with the fewest draws: " + "; ".join(picks) + "." if picks else None
    )
    return Answer(tuple(sentences), recommendation, default_answer(lab).caveats)


STUDY = Study(
    "windflowers-scoring",
    "windflowers",
    {
        "players": [2, 3, 4],
        "scoring": ["stones", "largest_group"],
        "tiebreak": ["underdog", "cascade"],
        "last_placer_breaks_ties": [False, True],
    },
    {"grid": "square", "size": 3},
    400,
    description="Scoring × tie-break × last placer breaks ties, 2–4 players.",
    question=(
        '"The best scoring and tiebreaker combination needs to be resolved." Which '
        "combination of scoring, tie-break and last_placer_breaks_ties gives fair, "
        "decisive games with 2, 3 and 4 players?"
    ),
    decide=("seat_score_0", "drawishness", "tiebreak_unresolved", "balance"),
    answer=answer,
    group_by=GROUP,
    prefer_low="drawishness",
    solved=tuple(
        {
            "grid": "trisquare",
            "size": 3,
            "scoring": sc,
            "tiebreak": tb,
            "last_placer_breaks_ties": lp,
        }
        for sc in ("stones", "largest_group")
        for tb in ("underdog", "cascade")
        for lp in (False, True)
    ),
    solve_seconds=60.0,
)
