"""``subsume-asides``: what changes when either of the designer's two asides is dropped?"""

from __future__ import annotations

from ..columns import declared_columns
from ..report import Answer, LabView, default_answer
from ..study import Study, StudyRun
from ._answers import difference_sentences, series_sentences

#: What the answer compares with the default (the game's declared measures are added).
COMPARED = ("seat_score_0", "length_mean", "decisiveness", "drawishness")


def _answer(labs: list[LabView]) -> Answer:
    default = labs[0].default_variant()
    if default is None:
        return default_answer(labs[-1])
    game = labs[0].plan.variants[0].game
    names = [*COMPARED, *(c.name for c in declared_columns(game) if c.width == 1)]
    sentences = difference_sentences(labs, names, default) + series_sentences(labs, default)
    return Answer(tuple(sentences))


def answer(lab: LabView) -> Answer:
    """What differs from the default at this strength, the shape over the game included."""
    return Answer(_answer([lab]).sentences, None, default_answer(lab).caveats)


def combined(run: StudyRun) -> Answer:
    """What differs from the default at every strength."""
    return _answer([run.lab(i) for i in run.strengths])


STUDY = Study(
    "subsume-asides",
    "subsume",
    {"anti_blob": [True, False], "remove_surrounded": [True, False]},
    {"size": 5},
    400,
    description="The designer's two asides, each off, against the default (size 5).",
    question=(
        "The designer: \"the removal of surrounded stones doesn't really affect the "
        'game", and the game "is playable without [the anti-blob] rule, strictly '
        'speaking, but ends up being two big blobs growing and eventually facing off". '
        "What changes when either rule is dropped?"
    ),
    decide=(
        "seat_score_0",
        "length_mean",
        "decisiveness",
        "groups_final",
        "largest_group_share_0",
        "largest_group_share_1",
    ),
    answer=answer,
    combined=combined,
)
