"""What a report opens with: the question, and how its answer is read off the numbers.

A :class:`Brief` carries a study's question (the designer's words where there are some), the
metrics that decide it, and a function that writes the answer and a recommendation from a
:class:`~stonefield.lab.Lab`'s metrics. Answers are always computed from the numbers of the run
at hand, never written in advance: the same study at another strength or size may answer
differently, and its report says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import metrics as M

if TYPE_CHECKING:
    from ._view import LabView as Lab

#: (answer paragraph, recommendation or None), from a lab's numbers.
Answer = Callable[["Lab"], "tuple[str, str | None]"]


@dataclass(frozen=True)
class Brief:
    """A report's opening: ``question`` quoted, ``answer(lab)`` in a paragraph, the ``decide``
    metrics in the compact table."""

    name: str
    question: str
    decide: tuple[str, ...]
    answer: Answer | None = None


def fmt(m: M.Metric) -> str:
    """A metric as "0.53 (0.48–0.58)"."""
    if math.isnan(m.value):
        return "-"
    return f"{m.value:.2f} ({m.low:.2f}–{m.high:.2f})"


def short(m: M.Metric) -> str:
    """A metric's value alone, to two decimals (one from 10 on), "-" when undefined.

    >>> short(M.Metric(0.5312, 0.48, 0.58, 400, "wilson")), short(M.Metric(45.26, 45, 46, 9, "t"))
    ('0.53', '45.3')
    """
    if math.isnan(m.value):
        return "-"
    return f"{m.value:.2f}" if abs(m.value) < 10 else f"{m.value:.1f}"


def excludes(m: M.Metric, ref: float) -> int:
    """+1 when the 95 % interval lies above ``ref``, −1 below, 0 when it holds it (or is NaN)."""
    if math.isnan(m.value):
        return 0
    if m.low > ref:
        return 1
    if m.high < ref:
        return -1
    return 0


def seat_balance_answer(lab: Lab, labels: Sequence[str] | None = None) -> tuple[str, str | None]:
    """Which variants give the first seat an edge (seat_score_0's interval above ½), which a
    handicap (below ½), and which are fair at this strength; the fair variant with the highest
    balance is recommended, and only when some variant is unfair (otherwise the choice does not
    matter for balance)."""
    ms = lab.metrics()
    names = list(labels) if labels is not None else [v.label for v in lab.plan.variants]
    Row = tuple[str, M.Metric, dict[str, M.Metric]]
    above: list[Row] = []
    below: list[Row] = []
    fair: list[Row] = []
    for name, m in zip(names, ms):
        s0 = m.get("seat_score_0", M.NAN_METRIC)
        side = excludes(s0, 0.5)
        (above if side > 0 else below if side < 0 else fair).append((name, s0, m))
    parts = []
    if above:
        parts.append(
            "the first seat wins more often with "
            + "; ".join(f"{n} ({fmt(s)})" for n, s, _ in above)
        )
    if below:
        parts.append(
            "the second seat wins more often with "
            + "; ".join(f"{n} ({fmt(s)})" for n, s, _ in below)
        )
    if fair:
        parts.append(
            f"{len(fair)} of {len(names)} variants are fair within their intervals"
            + (" (" + ", ".join(n for n, _, _ in fair) + ")" if len(fair) <= 6 else "")
        )
    games = min((m["seat_score_0"].n for m in ms if "seat_score_0" in m), default=0)
    answer = (
        f"At {lab.agents_label()}, over {games} or more games a variant: " + "; ".join(parts) + "."
    )
    recommendation = None
    if fair and (above or below):
        best = max(fair, key=lambda x: x[2].get("balance", M.NAN_METRIC).value)
        recommendation = (
            f"{best[0]}: its first-seat score {fmt(best[1])} holds ½, and its balance "
            f"{fmt(best[2]['balance'])} is the highest among the fair variants. Confirm at a "
            "higher strength before adopting it."
        )
    return answer, recommendation


__all__ = ["Answer", "Brief", "excludes", "fmt", "seat_balance_answer", "short"]
