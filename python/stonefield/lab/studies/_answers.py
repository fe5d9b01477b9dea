"""Sentences the studies share: spans, verdicts that hold at every strength, the shape of the
game over its tenths. Every sentence is written from the numbers and the names of options and
metrics; what a study knows of its game comes from the game (its option descriptions, its
declared columns), never from prose written here."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .. import metrics as M
from ..columns import declared_series
from ..report import LabView, names_list, pct
from ..study import StudyRun


def span(lab: LabView, name: str) -> tuple[float, float]:
    """The smallest and largest value of a metric over the variants (NaN when none has it)."""
    vals = [m[name].value for m in lab.metrics() if name in m and not math.isnan(m[name].value)]
    return (min(vals), max(vals)) if vals else (math.nan, math.nan)


def sides_at_every_strength(
    run: StudyRun, name: str, ref: float, arm: str | None = None
) -> dict[int, list[int]]:
    """Per variant, where ``name``'s interval lies against ``ref`` at each strength (+1 above,
    −1 below, 0 holding it)."""
    labs = [run.lab(i, arm) for i in run.strengths]
    return {
        v.index: [M.excludes(lab.metrics()[v.index].get(name, M.NAN_METRIC), ref) for lab in labs]
        for v in labs[0].plan.variants
    }


def apart(a: M.Metric, b: M.Metric) -> int:
    """+1 when ``a`` and ``b`` lie apart with ``a`` higher (each interval excludes the other's
    value), −1 when apart with ``a`` lower, 0 otherwise."""
    if M.excludes(a, b.value) != 0 and M.excludes(b, a.value) != 0:
        return 1 if a.value > b.value else -1
    return 0


def held_differences(
    labs: Sequence[LabView], names: Sequence[str], default: int
) -> list[tuple[str, list[str], list[str]]]:
    """Per variant other than ``default``: the metrics of ``names`` higher and lower than the
    default's at every one of ``labs`` (the strengths)."""
    out = []
    for v in labs[0].plan.variants:
        if v.index == default:
            continue
        higher, lower = [], []
        for name in names:
            sides = [
                apart(
                    lab.metrics()[v.index].get(name, M.NAN_METRIC),
                    lab.metrics()[default].get(name, M.NAN_METRIC),
                )
                for lab in labs
            ]
            if sides and all(x == sides[0] == 1 for x in sides):
                higher.append(name)
            elif sides and all(x == sides[0] == -1 for x in sides):
                lower.append(name)
        out.append((v.label, higher, lower))
    return out


def difference_sentences(labs: Sequence[LabView], names: Sequence[str], default: int) -> list[str]:
    """One sentence per variant: what is higher and lower than the default at every strength."""
    out = []
    every = " at every strength" if len(labs) > 1 else ""
    for label, higher, lower in held_differences(labs, names, default):
        if not higher and not lower:
            out.append(f"With {label}, no deciding metric differs from the default{every}.")
            continue
        words = [f"higher {', '.join(higher)}"] if higher else []
        words += [f"lower {', '.join(lower)}"] if lower else []
        out.append(f"With {label}: {' and '.join(words)} than the default{every}.")
    return out


def progress(tenths: list[int]) -> str:
    """Tenths as the points of the game where they end, runs joined: [1, 2, 3, 7] gives
    "20–40 % and 80 %".

    >>> progress([1, 2, 3, 7]), progress([9])
    ('20–40 % and 80 %', '100 %')
    """
    runs: list[list[int]] = []
    for k in tenths:
        if runs and runs[-1][-1] == k - 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    words = [
        f"{10 * (r[0] + 1)}–{10 * (r[-1] + 1)} %" if len(r) > 1 else f"{10 * (r[0] + 1)} %"
        for r in runs
    ]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]


def series_sentences(labs: Sequence[LabView], default: int) -> list[str]:
    """Over the game: per variant, the game's declared series (its own measures at the end of
    each tenth of the game) that lie apart from the default's in the same direction at every
    strength, and from which point of the game."""
    game = labs[0].plan.variants[0].game
    out = []
    for v in labs[0].plan.variants:
        if v.index == default:
            continue
        found = []
        for column in declared_series(game):
            names = M.series_names(column.name)
            if not all(names[0] in lab.metrics()[v.index] for lab in labs):
                continue
            sides = []
            for name in names:
                per = [
                    apart(lab.metrics()[v.index][name], lab.metrics()[default][name])
                    for lab in labs
                ]
                sides.append(per[0] if all(x == per[0] for x in per) else 0)
            base = column.name.removesuffix("_series")
            for sign, word in ((1, "higher"), (-1, "lower")):
                tenths = [k for k, x in enumerate(sides) if x == sign]
                if tenths:
                    found.append(f"{base} {word} at {progress(tenths)} of the game")
        if found:
            out.append(f"Over the game with {v.label}: {'; '.join(found)}.")
    return out


__all__ = [
    "apart",
    "difference_sentences",
    "held_differences",
    "names_list",
    "pct",
    "progress",
    "series_sentences",
    "sides_at_every_strength",
    "span",
]
