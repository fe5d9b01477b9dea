"""``subsume-sizes``: does the board's size change who wins, and how long games last?"""

from __future__ import annotations

from ..report import Answer, LabView, default_answer
from ..study import Study
from ._answers import span


def answer(lab: LabView) -> Answer:
    """The seats as for any run, then the span of mean lengths."""
    base = default_answer(lab)
    lo, hi = span(lab, "length_mean")
    length = f"Games last {lo:.0f}–{hi:.0f} actions on average."
    return Answer((*base.sentences[:2], length), base.recommendation, base.caveats)


STUDY = Study(
    "subsume-sizes",
    "subsume",
    {"size": [4, 5, 6, 7]},
    {},
    400,
    strengths=(100, 1000),
    description="Balance and length over sizes 4 to 7.",
    question="Does the size of the Subsume board change who wins, and how long games last?",
    decide=("seat_score_0", "balance", "length_mean", "drawishness"),
    answer=answer,
)
