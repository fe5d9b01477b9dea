"""``windflowers-mirror``: can the second player hold its own by mirroring every move?"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...strategies import MirrorAgent
from .. import metrics as M
from ..report import Answer, LabView, default_answer, names_list
from ..study import SELF_PLAY, Arm, Study, StudyRun


def mirror_seats(agent: Any) -> Any:
    """The first seat the strength's agent, the second a mirror of it (its fallback)."""
    return [agent, MirrorAgent(agent)]


def _verdicts(labs: Sequence[LabView]) -> list[str]:
    wins, holds, loses, moving = [], [], [], []
    for v in labs[0].plan.variants:
        sides = [
            M.excludes(lab.metrics()[v.index].get("seat_score_1", M.NAN_METRIC), 0.5)
            for lab in labs
        ]
        if all(x > 0 for x in sides):
            wins.append(v.label)
        elif all(x == 0 for x in sides):
            holds.append(v.label)
        elif all(x < 0 for x in sides):
            loses.append(v.label)
        else:
            moving.append(v.label)
    every = " at every strength" if len(labs) > 1 else ""
    total = len(labs[0].plan.variants)
    out = [
        f"The mirroring second player wins on {len(wins)}, holds ½ on {len(holds)} and loses on "
        f"{len(loses)} of {total} boards{every}."
    ]
    if wins:
        out.append(f"It wins with {names_list(wins)}.")
    if moving:
        out.append(f"Its verdict changes with strength with {names_list(moving)}.")
    return out


def answer(lab: LabView) -> Answer:
    """Where the mirror's second seat scores above, at or below ½ at this strength."""
    return Answer(tuple(_verdicts([lab])), None, default_answer(lab).caveats)


def combined(run: StudyRun) -> Answer:
    """The mirror's verdict at every strength, and where it beats the strong second player."""
    levels = run.strengths
    mirror = [run.lab(i, "mirror") for i in levels]
    base = [run.lab(i, "self-play") for i in levels]
    sentences = _verdicts(mirror)
    gains = [
        v.label
        for v in mirror[0].plan.variants
        if all(
            m.metrics()[v.index]["seat_score_1"].low > b.metrics()[v.index]["seat_score_1"].high
            for m, b in zip(mirror, base)
        )
    ]
    if gains:
        sentences.append(
            f"Mirroring scores more than the strong second player at every strength with "
            f"{names_list(gains)}."
        )
    held = [
        v.label
        for v in mirror[0].plan.variants
        if all(M.excludes(m.metrics()[v.index]["seat_score_1"], 0.5) >= 0 for m in mirror)
    ]
    recommendation = None
    if held:
        recommendation = (
            f"Where the mirror holds or wins at every strength ({names_list(held)}), the first "
            "player needs a way to break the symmetry; the strong search did not find one."
        )
    return Answer(tuple(sentences), recommendation)


STUDY = Study(
    "windflowers-mirror",
    "windflowers",
    {
        "grid": ["square", "trisquare"],
        "size": [3, 4],
        "last_placer_breaks_ties": [False, True],
    },
    {},
    400,
    description="Mirror play by the second player on the boards symmetric through "
    "their centre, against the strong agent in both seats.",
    question=(
        'The designer: "the first player is obligated to break mirror play". Does a '
        "second player who answers every move with its image through the centre hold "
        "its own against strong first-player play?"
    ),
    decide=("seat_score_1", "drawishness", "tiebreak_unresolved", "length_mean"),
    answer=answer,
    combined=combined,
    arms=(SELF_PLAY, Arm("mirror", mirror_seats)),
    solved=tuple(
        {"grid": "trisquare", "size": 3, "last_placer_breaks_ties": lp} for lp in (False, True)
    ),
    solve_seconds=60.0,
)
