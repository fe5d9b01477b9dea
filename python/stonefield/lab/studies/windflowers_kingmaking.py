"""``windflowers-kingmaking``: with 3 or 4 players, does the last player decide who wins?"""

from __future__ import annotations

from collections.abc import Sequence

from .. import metrics as M
from ..report import Answer, LabView, default_answer, names_list
from ..study import Study, StudyRun


def _beyond_noise(labs: Sequence[LabView]) -> tuple[list[str], list[str]]:
    real: list[str] = []
    noise: list[str] = []
    for v in labs[0].plan.variants:
        exs = [lab.metrics()[v.index].get("kingmaking_excess", M.NAN_METRIC) for lab in labs]
        (real if all(M.excludes(m, 0.0) > 0 for m in exs) else noise).append(v.label)
    return real, noise


def _sentences(labs: Sequence[LabView]) -> tuple[str, ...]:
    real, noise = _beyond_noise(labs)
    every = " at every strength" if len(labs) > 1 else ""
    judged = min(labs[0].plan.kingmaking, labs[0].plan.games)
    out = [
        f"King-making beyond the agents' own noise{every}: {len(real)} of "
        f"{len(real) + len(noise)} variants" + (f" ({names_list(real)})" if real else "") + ".",
        f"Judged on {judged} games a variant, against the null procedure (the same replays "
        "with the last player's move unchanged).",
    ]
    return tuple(out)


def answer(lab: LabView) -> Answer:
    """Which variants show king-making beyond noise at this strength."""
    return Answer(_sentences([lab]), None, default_answer(lab).caveats)


def combined(run: StudyRun) -> Answer:
    """Which variants show king-making beyond noise at every strength."""
    return Answer(_sentences([run.lab(i) for i in run.strengths]))


STUDY = Study(
    "windflowers-kingmaking",
    "windflowers",
    {"players": [3, 4], "last_placer_breaks_ties": [False, True]},
    {"grid": "square", "size": 3},
    300,
    kingmaking=300,
    description="King-making with 3 and 4 players, against the same procedure where "
    "no choice differs (the null).",
    question=(
        "With three or four players, how often can the player who finishes last "
        "decide which of the others wins, beyond what the agents' own randomness "
        "already changes?"
    ),
    decide=("kingmaking", "kingmaking_null", "kingmaking_excess", "seat_score_0"),
    answer=answer,
    combined=combined,
)
