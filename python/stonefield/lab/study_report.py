"""The report of a whole study (:class:`~stonefield.lab.StudyRun`): every strength and arm.

It answers first, and states a conclusion only when it holds at both strengths:

1. the designer's question, quoted;
2. the answer: what holds at every strength, what changes with strength (and which way, the
   skill gradient), the perfect-play values where the solver settles a small board, and a
   recommendation only where the evidence at every strength supports the same one;
3. a compact table: per variant, each deciding metric at the weaker → the stronger strength,
   ▲ / ▼ where its interval excludes the reference, and ↑ / ↓ where the change between the
   strengths is larger than the two intervals allow (≈ otherwise);
4. plots: the skill gradient of the first deciding metric, the skill traces, a heat map at the
   stronger strength when two options vary, the pie-swap rates;
5. each strength's compact table with its intervals, and a link to each lab's full report
   (written beside it, one directory per strength and arm).
"""

from __future__ import annotations

import base64
import html
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import InvalidOptionError, option_spec
from . import metrics as M
from .brief import excludes, short
from .columns import declared_series
from .report import (
    HALF_REFERENCE,
    SeriesLine,
    html_head,
    md_table,
    new_figure,
    plot_heatmap,
    plot_series_panels,
    reference,
    save_figure,
)

if TYPE_CHECKING:
    from ._lab import Lab as FullLab
    from ._view import LabView as Lab
    from .skill import SkillTrace
    from .studies import Study

#: What a first-seat score's interval says, by :func:`~stonefield.lab.brief.excludes`.
SIDE_WORDS = {1: "first seat ahead", -1: "second seat ahead", 0: "fair"}

#: Arrows of the skill gradient: the change from the weaker to the stronger strength.
UP, DOWN, SAME = "↑", "↓", "≈"


@dataclass
class StudyRun:
    """A study's labs, one per (iterations, arm), weaker strength first.

    Attributes:
        study: The :class:`~stonefield.lab.studies.Study`.
        labs: (iterations, arm label) → :class:`~stonefield.lab.Lab`.
        perfect: The exact solver's results on the study's small boards (see
            :func:`perfect_play`), empty until asked for.
        traces: Skill traces of the study's variants (see :func:`~stonefield.lab.skill_trace`),
            empty until asked for.
    """

    study: Study
    labs: dict[tuple[int, str], FullLab]
    seed: int
    perfect: list[dict[str, Any]] = field(default_factory=list)
    traces: list[SkillTrace] = field(default_factory=list)

    @property
    def strengths(self) -> list[int]:
        """The iterations of each strength, weaker first."""
        return sorted({k for k, _ in self.labs})

    @property
    def arms(self) -> list[str]:
        """The arm labels, in the study's order."""
        return [a.label for a in self.study.arms if any(arm == a.label for _, arm in self.labs)]

    def lab(self, iterations: int, arm: str | None = None) -> FullLab:
        """The lab of one strength and arm (default: the study's first arm)."""
        key = (iterations, arm if arm is not None else self.study.arms[0].label)
        if key not in self.labs:
            raise InvalidOptionError(
                f"no lab at {key}; labs: {', '.join(str(k) for k in sorted(self.labs))}"
            )
        return self.labs[key]

    def report(self, directory: str) -> str:
        """Writes the study's report (report.md, report.html, plots) and each lab's own full
        report in a subdirectory; returns the path of report.md."""
        return write_study_report(self, directory)


def change(weak: M.Metric, strong: M.Metric) -> int:
    """+1 when a metric rises from the weaker to the stronger strength by more than its two
    95 % intervals allow (the half-widths added in quadrature), −1 when it falls, 0 otherwise.

    >>> change(M.Metric(0.5, 0.45, 0.55, 400, "wilson"), M.Metric(0.6, 0.55, 0.65, 400, "wilson"))
    1
    >>> change(M.Metric(0.5, 0.45, 0.55, 400, "wilson"), M.Metric(0.55, 0.5, 0.6, 400, "wilson"))
    0
    """
    if math.isnan(weak.value) or math.isnan(strong.value):
        return 0
    half = math.hypot((weak.high - weak.low) / 2, (strong.high - strong.low) / 2)
    d = strong.value - weak.value
    if d > half:
        return 1
    if d < -half:
        return -1
    return 0


def arrow(weak: M.Metric, strong: M.Metric) -> str:
    """The gradient's arrow (see :func:`change`)."""
    return {1: UP, -1: DOWN, 0: SAME}[change(weak, strong)]


def reference_variant(lab: Lab, index: int, key: str | None) -> int | None:
    """The variant a metric of variant ``index`` is compared with: the one whose varied options
    take the game's defaults, except ``key`` (the study's group), which stays ``index``'s own.
    None when the grid has no such variant."""
    if key is None or key not in lab.plan.vary:
        return lab.default_variant()
    spec = {o["name"]: o["default"] for o in option_spec(lab.plan.game)}
    own = lab.plan.variants[index].varied[key]
    for v in lab.plan.variants:
        if v.varied[key] == own and all(spec.get(k) == x for k, x in v.varied.items() if k != key):
            return v.index
    return None


def _flag(lab: Lab, name: str, m: M.Metric, variant: int, key: str | None = None) -> str:
    if m.interval == "none" or math.isnan(m.value):
        return ""
    if name in HALF_REFERENCE or name.startswith("seat_score_"):
        ref: float | None = 0.5
    else:
        base = reference_variant(lab, variant, key)
        if base is None or base == variant:
            return ""
        other = lab.metrics()[base].get(name)
        ref = None if other is None or math.isnan(other.value) else other.value
    if ref is None:
        return ""
    side = excludes(m, ref)
    return "▲" if side > 0 else "▼" if side < 0 else ""


def strength_label(iterations: int) -> str:
    """ "strong 2000": the strong preset at that many iterations (random agents at 0)."""
    return "random" if iterations == 0 else f"strong {iterations}"


def _groups(lab: Lab, key: str | None) -> list[tuple[str, list[int]]]:
    """Variants grouped by the values of option ``key`` (each group answered apart), or one
    group."""
    if key is None or key not in lab.plan.vary:
        return [("", [v.index for v in lab.plan.variants])]
    out: dict[str, list[int]] = {}
    for v in lab.plan.variants:
        out.setdefault(f"{key}={v.options[key]}", []).append(v.index)
    return list(out.items())


def _label(lab: Lab, index: int, key: str | None) -> str:
    v = lab.plan.variants[index]
    rest = {k: x for k, x in v.varied.items() if k != key}
    return ", ".join(f"{k}={x}" for k, x in rest.items()) or v.label


def seat_findings(run: StudyRun, arm: str | None = None) -> tuple[list[str], str | None]:
    """What the first-seat score says at every strength: the statements that hold at all of
    them, those that change, the gradient, and a recommendation (the variant fair at every
    strength with the highest lowest balance, only when some variant is unfair somewhere)."""
    levels = run.strengths
    labs = [run.lab(i, arm) for i in levels]
    first = labs[0]
    sentences: list[str] = []
    picks: list[str] = []
    key = run.study.group_by
    for group, indices in _groups(first, key):
        sides = {
            i: [excludes(lab.metrics()[i].get("seat_score_0", M.NAN_METRIC), 0.5) for lab in labs]
            for i in indices
        }
        above = [i for i in indices if all(s > 0 for s in sides[i])]
        below = [i for i in indices if all(s < 0 for s in sides[i])]
        fair = [i for i in indices if all(s == 0 for s in sides[i])]
        moving = [i for i in indices if i not in above + below + fair]
        prefix = f"{group}: " if group else ""

        def vals(i: int) -> str:
            return " → ".join(short(lab.metrics()[i]["seat_score_0"]) for lab in labs)

        parts = []
        if above:
            parts.append(
                "the first seat wins more often with "
                + "; ".join(f"{_label(first, i, key)} ({vals(i)})" for i in above)
            )
        if below:
            parts.append(
                "the second seat wins more often with "
                + "; ".join(f"{_label(first, i, key)} ({vals(i)})" for i in below)
            )
        if fair:
            names = "; ".join(_label(first, i, key) for i in fair)
            parts.append(
                f"{len(fair)} of {len(indices)} are fair at every strength"
                + (f" ({names})" if len(fair) <= 8 else "")
            )
        if parts:
            sentences.append(prefix + "; ".join(parts) + ".")
        if moving:
            sentences.append(
                prefix
                + "depends on strength: "
                + "; ".join(
                    f"{_label(first, i, key)} ("
                    + ", ".join(
                        f"{SIDE_WORDS[s]} at {strength_label(it)}"
                        for s, it in zip(sides[i], levels)
                    )
                    + f"; {vals(i)})"
                    for i in moving
                )
                + "."
            )
        unfair = len(fair) < len(indices)

        def low_balance(i: int) -> float:
            return min(lab.metrics()[i].get("balance", M.NAN_METRIC).value for lab in labs)

        prefer = run.study.prefer_low
        if fair and prefer is not None:

            def worst(i: int, name: str = prefer) -> float:
                return max(lab.metrics()[i].get(name, M.NAN_METRIC).value for lab in labs)

            best = min(fair, key=lambda i: (worst(i), -low_balance(i)))
            shares = " → ".join(short(lab.metrics()[best][prefer]) for lab in labs)
            picks.append(
                prefix
                + f"{_label(first, best, key)} (first seat {vals(best)}, {prefer} {shares}; fair "
                f"at every strength, and of those the lowest {prefer} at its worse strength)"
            )
        elif fair and unfair:
            best = max(fair, key=low_balance)
            picks.append(
                prefix
                + f"{_label(first, best, key)} (first seat {vals(best)}; fair at every strength, "
                "and of those the highest balance at its weaker strength)"
            )
    recommendation = ("; ".join(picks) + ".") if picks else None
    return sentences, recommendation


def gradient_findings(run: StudyRun, names: Sequence[str], arm: str | None = None) -> list[str]:
    """Which way each deciding metric moves from the weaker to the stronger strength: how many
    variants rise, fall, or stay within their intervals."""
    levels = run.strengths
    if len(levels) < 2:
        return []
    weak, strong = run.lab(levels[0], arm), run.lab(levels[-1], arm)
    out = []
    for name in names:
        pairs = [
            (v, weak.metrics()[v.index][name], strong.metrics()[v.index][name])
            for v in weak.plan.variants
            if name in weak.metrics()[v.index] and name in strong.metrics()[v.index]
        ]
        if not pairs:
            continue
        ups = [v.label for v, a, b in pairs if change(a, b) > 0]
        downs = [v.label for v, a, b in pairs if change(a, b) < 0]
        text = (
            f"{name.replace('_', ' ')} rises in {len(ups)} and falls in {len(downs)} of "
            f"{len(pairs)} variants"
        )
        few = [
            f"{lab}"
            for lab in (ups if 0 < len(ups) <= 3 else []) + (downs if 0 < len(downs) <= 3 else [])
        ]
        if few:
            text += f" ({'; '.join(few)})"
        out.append(text)
    if not out:
        return []
    return [
        f"As play gets stronger ({strength_label(levels[0])} → {strength_label(levels[-1])}): "
        + "; ".join(out)
        + "."
    ]


def perfect_findings(run: StudyRun) -> list[str]:
    """The solver's values on the study's small boards, grouped by value, with the agents'
    first-seat score beside each board the study also played."""
    if not run.perfect:
        return []
    words = {1: "the first player wins", 0: "a draw", -1: "the second player wins"}
    by_value: dict[str, list[str]] = {}
    for r in run.perfect:
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
        agents = []
        for it in run.strengths:
            lab = run.lab(it)
            for v, m in zip(lab.plan.variants, lab.metrics()):
                same = all(v.options.get(k) == x for k, x in r["options"].items())
                if same and "seat_score_0" in m:
                    agents.append(f"{short(m['seat_score_0'])} at {strength_label(it)}")
        if agents:
            opts += " (the agents' first seat: " + ", ".join(agents) + ")"
        value = "not proven in the budget" if r["value"] is None else words[r["value"]]
        by_value.setdefault(value, []).append(opts)
    parts = [f"{value} on {'; '.join(boards)}" for value, boards in by_value.items()]
    return ["Perfect play (the exact solver on the small boards): " + "; ".join(parts) + "."]


def compact_table(run: StudyRun, names: Sequence[str]) -> list[str]:
    """Markdown rows: per arm and variant, each metric weaker → stronger with flags and the
    gradient's arrow."""
    levels = run.strengths
    labs0 = run.lab(levels[0], run.arms[0])
    names = [n for n in names if any(n in m for m in labs0.metrics())]
    multi = len(run.arms) > 1
    key = run.study.group_by
    head = "| " + ("arm | " if multi else "") + "variant | games | " + " | ".join(names) + " |"
    lines = [head, "|" + "---|" * (len(names) + 2 + multi)]
    for arm in run.arms:
        labs = [run.lab(i, arm) for i in levels]
        for v in labs[0].plan.variants:
            games = "/".join(
                str(lab.metrics()[v.index].get("completion", M.NAN_METRIC).n) for lab in labs
            )
            cells = []
            for n in names:
                ms = [lab.metrics()[v.index].get(n, M.NAN_METRIC) for lab in labs]
                text = " → ".join(
                    short(m) + _flag(lab, n, m, v.index, key) for m, lab in zip(ms, labs)
                )
                if len(ms) > 1:
                    text += " " + arrow(ms[0], ms[-1])
                cells.append(text)
            is_ref = v.index == reference_variant(labs[0], v.index, key)
            label = v.label + (" (reference)" if is_ref else "")
            lines.append(
                "| "
                + (f"{arm} | " if multi else "")
                + f"{label} | {games} | "
                + " | ".join(cells)
                + " |"
            )
    return lines


def plot_gradient(run: StudyRun, name: str, path: str) -> bool:
    """The skill gradient: metric ``name`` with its interval at each strength, one line per
    variant (and arm). Returns False when there is only one strength."""
    levels = run.strengths
    if len(levels) < 2:
        return False
    fig = new_figure(7.0, 4.2)
    ax = fig.add_subplot()
    x = np.arange(len(levels))
    for arm in run.arms:
        labs = [run.lab(i, arm) for i in levels]
        for k, v in enumerate(labs[0].plan.variants):
            ms = [lab.metrics()[v.index].get(name, M.NAN_METRIC) for lab in labs]
            vals = np.array([m.value for m in ms])
            err = np.nan_to_num(
                np.vstack([vals - [m.low for m in ms], [m.high for m in ms] - vals])
            )
            label = v.label if len(run.arms) == 1 else f"{arm}: {v.label}"
            ax.errorbar(x + 0.02 * k, vals, yerr=err, marker="o", capsize=2, label=label)
    ref = reference(run.lab(levels[0]), name)
    if ref == 0.5:
        ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xticks(x, [strength_label(i) for i in levels])
    ax.set_ylabel(name.replace("_", " ") + " (95 %)")
    count = sum(len(run.lab(levels[0], a).plan.variants) for a in run.arms)
    if count <= 16:
        ax.legend(fontsize=6, ncol=2 if count > 8 else 1)
    save_figure(fig, path)
    return True


def plot_pie(run: StudyRun, path: str) -> bool:
    """Pie-swap rates at each strength, one bar group per variant. False without pie metrics."""
    levels = run.strengths
    labs = [run.lab(i) for i in levels]
    if not any("pie_swap" in m for m in labs[0].metrics()):
        return False
    labels = [v.label for v in labs[0].plan.variants]
    fig = new_figure(max(6.0, 0.5 * len(labels) + 2), 4.0)
    ax = fig.add_subplot()
    width = 0.8 / len(levels)
    x = np.arange(len(labels))
    for k, (it, lab) in enumerate(zip(levels, labs)):
        ms = [m.get("pie_swap", M.NAN_METRIC) for m in lab.metrics()]
        vals = np.array([m.value for m in ms])
        err = np.nan_to_num(np.vstack([vals - [m.low for m in ms], [m.high for m in ms] - vals]))
        ax.bar(x + k * width, vals, width, yerr=err, capsize=2, label=strength_label(it))
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xticks(x + width * (len(levels) - 1) / 2, labels, rotation=60, ha="right", fontsize=6)
    ax.set_ylabel("share of games where player 1 swaps (95 %)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7)
    save_figure(fig, path)
    return True


def plot_series_strengths(run: StudyRun, path: str) -> bool:
    """The series the game declares (its final-shape facts at the end of each tenth of the
    game), one panel each: one colour per variant (and arm), one line style per strength
    (dashed the weaker, solid the strongest). False when the game declares none."""
    levels = run.strengths
    first = run.lab(levels[0])
    series = declared_series(first.plan.variants[0].game)
    series = tuple(
        c
        for c in series
        if any(M.series_names(c.name)[0] in m for m in run.lab(levels[-1]).metrics())
    )
    if not series:
        return False
    styles = [("--", ":", "-.")[k % 3] for k in range(len(levels) - 1)] + ["-"]
    lines: dict[str, list[SeriesLine]] = {c.name: [] for c in series}
    colour = 0
    for arm in run.arms:
        for v in run.lab(levels[0], arm).plan.variants:
            label = v.label if len(run.arms) == 1 else f"{arm}: {v.label}"
            for it, style in zip(levels, styles):
                m = run.lab(it, arm).metrics()[v.index]
                for c in series:
                    lines[c.name].append(
                        (
                            f"{label}, {strength_label(it)}",
                            M.series_metrics(m, c.name),
                            style,
                            f"C{colour % 10}",
                        )
                    )
            colour += 1
    plot_series_panels(series, lines, path)
    return True


def _slug(iterations: int, arm: str) -> str:
    return (
        f"{strength_label(iterations).replace(' ', '-')}-{re.sub(r'[^a-z0-9]+', '-', arm.lower())}"
    )


def write_study_report(run: StudyRun, directory: str) -> str:
    """Writes the study's report.md and report.html, its plots, and each lab's full report in
    a subdirectory; returns the path of report.md."""
    from .skill import plot_skill_traces

    os.makedirs(directory, exist_ok=True)
    s = run.study
    levels = run.strengths
    strongest = run.lab(levels[-1])
    decide = [n for n in s.decide if any(n in m for m in strongest.metrics())]
    subs = []
    for it in levels:
        for arm in run.arms:
            sub = _slug(it, arm)
            run.lab(it, arm).report(os.path.join(directory, sub))
            subs.append((it, arm, sub))

    sentences: list[str] = []
    recommendation: str | None = None
    if s.combined is not None:
        text, recommendation = s.combined(run)
        sentences.append(text)
    elif "seat_score_0" in decide and len(levels) > 1:
        found, recommendation = seat_findings(run)
        sentences += found
    else:
        text, recommendation = s.answer(strongest) if s.answer else ("", None)
        sentences.append(text)
    sentences += gradient_findings(run, decide)
    sentences += perfect_findings(run)

    plots: list[tuple[str, str]] = []
    if decide and plot_gradient(run, decide[0], os.path.join(directory, "gradient.png")):
        plots.append(
            ("gradient.png", f"Skill gradient: {decide[0].replace('_', ' ')} at each strength")
        )
    if run.traces:
        plot_skill_traces(run.traces, os.path.join(directory, "skill_traces.png"))
        plots.append(("skill_traces.png", "Skill traces: does twice the budget keep winning?"))
    if decide and plot_heatmap(strongest, decide[0], os.path.join(directory, "heatmap.png")):
        plots.append(
            (
                "heatmap.png",
                f"{decide[0].replace('_', ' ')} over the two options at "
                f"{strength_label(levels[-1])}",
            )
        )
    if plot_pie(run, os.path.join(directory, "pie_swap.png")):
        plots.append(("pie_swap.png", "Pie: how often player 1 swaps, at each strength"))
    if plot_series_strengths(run, os.path.join(directory, "series.png")):
        plots.append(
            (
                "series.png",
                "Over the game: the game's own measures at the end of each tenth, at each strength",
            )
        )

    plan = strongest.plan
    played = [
        f"- {strength_label(it)}, {arm}: {run.lab(it, arm).agents_label()}" for it, arm, _ in subs
    ]
    md = [f"# Study: {s.name}", ""]
    md += ["> " + line for line in s.question.splitlines()] + [""]
    md += [f"**Answer.** {' '.join(x for x in sentences if x)}", ""]
    if recommendation:
        md += [f"**Recommendation.** {recommendation}", ""]
    elif len(levels) > 1 and s.combined is None:
        md += ["**Recommendation.** None: no choice is supported at every strength.", ""]
    reference_words = (
        "▲ / ▼: the 95 % interval lies above / below the reference (½ for seat scores and pie "
        "swaps; for the other metrics the value of the reference variant, whose options are the "
        "game's defaults" + (f" on the same {s.group_by}" if s.group_by else "") + ")"
    )
    if len(levels) > 1:
        who = (
            f'at {len(levels)} strengths of the strong preset (`MCTS(preset="strong")`: GRAVE, '
            "MAST and the other settings chosen for strength):"
        )
        legend = (
            f"In the table, each cell is the weaker → the stronger strength; {reference_words}; "
            "↑ / ↓: the change between the strengths is larger than the two intervals allow, ≈ "
            "otherwise. The intervals are in the tables of each strength below."
        )
    else:
        who = "by:"
        legend = f"In the table, {reference_words}. The intervals are in the table below."
    md += [
        f"Played with {plan.games} games per variant, seed {plan.seed}, fixed options "
        f"{plan.fixed or 'none'}, {who}",
        "",
        *played,
        "",
        legend,
        "",
        "## The deciding metrics",
        "",
    ]
    md += compact_table(run, decide) + [""]
    if run.perfect:
        md += ["## Perfect play on the small boards", ""]
        md += [
            "| board | value for the first player | first actions keeping it | proven | nodes "
            "| seconds |",
            "|---|---|---|---|---|---|",
        ]
        words = {1: "win", 0: "draw", -1: "loss"}
        for r in run.perfect:
            opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
            value = "not proven" if r["value"] is None else words[r["value"]]
            best = ", ".join(r["best"]) if r["best"] else "–"
            md.append(
                f"| {opts} | {value} | {best} | {r['proven']} of {r['actions']} | {r['nodes']} "
                f"| {r['seconds']} |"
            )
        md.append("")
    for name, caption in plots:
        md += [f"## {caption}", "", f"![{caption}]({name})", ""]
    md += ["## Each strength", ""]
    for it, arm, sub in subs:
        lab = run.lab(it, arm)
        md += [f"### {strength_label(it)}, {arm}", ""]
        answer, _ = s.answer(lab) if s.answer else ("", None)
        if answer:
            md += [answer, ""]
        md += md_table(lab, decide) + [
            "",
            f"Every metric, the plots and the boards: [{sub}/report.md]({sub}/report.md).",
            "",
        ]
    md_path = os.path.join(directory, "report.md")
    with open(md_path, "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(directory, "report.html"), "w", encoding="utf-8") as f:
        f.write(markdown_html(md, directory, f"Study: {s.name}"))
    return md_path


def markdown_html(md: list[str], directory: str, title: str) -> str:
    """A self-contained HTML page from the report's markdown lines (headings, quotes, tables,
    images inlined, links, **bold** openings, list items, paragraphs)."""

    def inline(text: str) -> str:
        out = html.escape(text)
        out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
        out = re.sub(r"`(.+?)`", r"<code>\1</code>", out)
        return re.sub(
            r"\[([^\]]+)\]\(([^)]+)\.md\)",
            lambda m: f'<a href="{m.group(2)}.html">{m.group(1)}</a>',
            out,
        )

    parts = [html_head(title, "img{max-width:100%}")]
    table: list[str] = []
    for line in md + [""]:
        if line.startswith("|"):
            if not line.startswith("|---"):
                table.append(line)
            continue
        if table:
            rows = []
            for k, row in enumerate(table):
                tag = "th" if k == 0 else "td"
                cells = [c.strip() for c in row.strip().strip("|").split("|")]
                rows.append(
                    "<tr>" + "".join(f"<{tag}>{inline(c)}</{tag}>" for c in cells) + "</tr>"
                )
            parts.append("<table>" + "".join(rows) + "</table>")
            table = []
        if not line:
            continue
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            parts.append(f"<h{level}>{inline(line[level:].strip())}</h{level}>")
        elif line.startswith("> "):
            parts.append(f"<blockquote>{inline(line[2:])}</blockquote>")
        elif line.startswith("!["):
            m = re.match(r"!\[(.*)\]\((.+)\)", line)
            if m:
                with open(os.path.join(directory, m.group(2)), "rb") as f:
                    data = base64.b64encode(f.read()).decode("ascii")
                parts.append(
                    f'<img alt="{html.escape(m.group(1))}" src="data:image/png;base64,{data}">'
                )
        elif line.startswith("- "):
            parts.append(f"<ul><li>{inline(line[2:])}</li></ul>")
        else:
            parts.append(f"<p>{inline(line)}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


__all__ = [
    "StudyRun",
    "arrow",
    "change",
    "compact_table",
    "markdown_html",
    "seat_findings",
    "write_study_report",
]
