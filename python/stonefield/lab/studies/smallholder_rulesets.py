"""``smallholder-rulesets``: which named ruleset gives the fairest game?"""

from __future__ import annotations

from ..study import Study

RULESETS = ("nibbler", "gaps_original", "offshore_gaps", "stymie", "hull_setbacks")

STUDY = Study(
    "smallholder-rulesets",
    "smallholder",
    {"ruleset": list(RULESETS), "board": ["hex232323", "hex4", "hex5"]},
    {},
    400,
    description="The five named rulesets on hex232323 (solved), hex4 and hex5.",
    question=(
        'The designer keeps the rule options "so that players can assess on their own '
        'the value of these changes". Which named ruleset gives the fairest game on '
        "hex4 and hex5?"
    ),
    decide=("seat_score_0", "balance", "drawishness", "truncation", "length_mean"),
    group_by="board",
    solved=tuple({"board": "hex232323", "ruleset": r} for r in RULESETS),
)
