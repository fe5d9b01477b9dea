"""``faraday-pie``: does the pie offer keep the game fair on every grid?"""

from __future__ import annotations

from .. import metrics as M
from ..report import Answer, LabView, default_answer
from ..study import Study
from ._answers import pct, span


def answer(lab: LabView) -> Answer:
    """The seats as for any run, then how often player 1 swaps and where the choice is even."""
    base = default_answer(lab)
    ms = lab.metrics()
    even = sum(
        1 for m in ms if M.excludes(m.get("pie_swap", M.NAN_METRIC), 0.5) == 0 and "pie_swap" in m
    )
    swap = (
        f"Player 1 swaps in {pct(*span(lab, 'pie_swap'))} of games; the swap share holds ½ "
        f"in {even} of {len(ms)} variants."
    )
    return Answer((*base.sentences[:2], swap), base.recommendation, base.caveats)


STUDY = Study(
    "faraday-pie",
    "faraday",
    {
        "grid": ["trisquare_omni", "trisquare", "hex_limping", "hex", "hex_omni", "square_omni"],
        "surplus_charge": [False, True],
        "min_offer_stones": [0, 1],
    },
    {"order": 4},
    400,
    description="Pie choices and seat balance per grid, with and without surplus "
    "charge, with Ludii's offer rule (0) and the designer's (at least 1 stone).",
    question=(
        "Does Faraday's pie offer keep the game fair on every grid, with and without "
        "the designer's surplus-charge variant and whichever offer rule, and how often "
        "does player 1 swap?"
    ),
    decide=("seat_score_0", "pie_swap", "balance", "length_mean"),
    answer=answer,
    group_by="grid",
    solved=tuple(
        {"order": 3, "grid": g, "surplus_charge": sc, "min_offer_stones": mo}
        for g in ("trisquare_omni", "trisquare", "hex_limping", "hex", "square_omni")
        for sc in (False, True)
        for mo in (0, 1, 2, 3)
    ),
)
