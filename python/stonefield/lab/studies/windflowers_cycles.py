"""``windflowers-cycles``: can a game go on for ever? A hunt for repeated positions."""

from __future__ import annotations

from ..report import Answer, LabView
from ..study import Study


def answer(lab: LabView) -> Answer:
    """How many games repeated a position, how many the move cap ended, and the longest game
    against the game's own bound on its length."""
    ms = lab.metrics()
    games = sum(m["repeated_games"].n for m in ms if "repeated_games" in m)
    repeated = sum(
        round(m["repeated_games"].value * m["repeated_games"].n)
        for m in ms
        if "repeated_games" in m
    )
    truncated = sum(
        round(m["truncation"].value * m["truncation"].n) for m in ms if "truncation" in m
    )
    longest = max(
        (
            int(c.max())
            for c in (lab.columns(v.index)["length"] for v in lab.plan.variants)
            if c is not None and c.size
        ),
        default=0,
    )
    bound = max(v.game.max_game_length for v in lab.plan.variants)
    sentences = [
        f"{repeated} of {games} random games repeated a position; the move cap ended {truncated}.",
        f"The longest game took {longest} actions; the games' move caps allow up to {bound}.",
    ]
    if repeated:
        sentences.append("The games with a repeated position are kept as records, listed below.")
    caveats = (
        "Random games sample the positions: a cycle that no random game reached is not excluded "
        "by this run.",
    )
    return Answer(tuple(sentences), None, caveats)


STUDY = Study(
    "windflowers-cycles",
    "windflowers",
    {"grid": ["hex", "trisquare", "square"], "players": [2, 3, 4]},
    {"size": 3},
    50000,
    strengths=(),
    description="Random games on the smallest boards, hunting repeated positions.",
    question=(
        "The designer notes that no proof excludes cycles: stones can be replaced back "
        "and forth. Can a game of Windflowers go on for ever?"
    ),
    decide=("repeated_games", "repetition", "truncation", "length_mean", "length_p90"),
    answer=answer,
)
