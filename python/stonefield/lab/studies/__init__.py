"""The ready-made studies: the designers' open questions as lab runs, one file each.

Each file holds its :class:`~stonefield.lab.Study` (the grid, the question, the metrics that
decide it, its strengths and arms) and, where the general answer does not fit, the function
that writes its answer from the numbers. Importing this package fills
:data:`stonefield.lab.STUDIES`.

* ``smallholder-rulesets``: the five named rulesets on hex232323 (solved), hex4 and hex5.
* ``windflowers-scoring``: scoring × tie-break × ``last_placer_breaks_ties`` for 2, 3 and 4
  players (square grid, size 3).
* ``windflowers-cycles``: a hunt for repeated positions on the smallest boards of each grid,
  2–4 players, many random games (every repeated-position game is kept as a record).
* ``windflowers-kingmaking``: king-making with 3 and 4 players, judged on 300 games a
  variant, against the null procedure (the same replays where no choice differs).
* ``windflowers-mirror``: mirror play by the second player on the boards symmetric through
  their centre, against the strong agent in both seats.
* ``faraday-pie``: pie choices and seat balance on each grid (order 4), with and without the
  surplus-charge variant, with either offer rule (``min_offer_stones`` 0 or 1).
* ``subsume-sizes``: balance and length over sizes 4 to 7.
* ``subsume-asides``: the designer's two asides, ``anti_blob`` and ``remove_surrounded``, each
  off, against the default (size 5).
"""

from __future__ import annotations

from ..study import STUDIES, Arm, Study, get_study, run_study, study
from . import (
    faraday_pie,
    smallholder_rulesets,
    subsume_asides,
    subsume_sizes,
    windflowers_cycles,
    windflowers_kingmaking,
    windflowers_mirror,
    windflowers_scoring,
)

for _module in (
    smallholder_rulesets,
    windflowers_scoring,
    windflowers_cycles,
    windflowers_kingmaking,
    windflowers_mirror,
    faraday_pie,
    subsume_sizes,
    subsume_asides,
):
    STUDIES[_module.STUDY.name] = _module.STUDY

__all__ = ["STUDIES", "Arm", "Study", "get_study", "run_study", "study"]
