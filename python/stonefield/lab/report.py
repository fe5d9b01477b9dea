"""The lab's one report writer: from a lab's numbers to Markdown, and from the Markdown to one
self-contained HTML page.

Every report, a single run's (:func:`write_report`) and a study's
(:meth:`~stonefield.lab.StudyRun.report`), is built as Markdown lines and written by
:func:`write_page`: ``report.md`` as it is, and ``report.html`` converted by the ``markdown``
package with its pictures inlined, so that the page is one file to send.

A report answers first: the question, the answer in a few short sentences and a recommendation
where the numbers support one, then the deciding metrics with every interval that excludes its
reference flagged (½ for seat scores, swap shares and the skill score; the default variant's
value for the rest), the caveats and the definitions of the metrics it shows; then the plots,
every metric, the boards and the repeated positions.
"""

from __future__ import annotations

import base64
import html
import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from .. import _core, _layout
from .._core import Facts
from ..render import PLAYER_NAMES, to_svg
from . import metrics as M
from . import plots
from .columns import Column, declared_columns, declared_series
from .plan import Plan
from .results import records


class LabView(Protocol):
    """What a report reads of a :class:`~stonefield.lab.Lab` (named by its shape: the lab
    imports the report, not the other way round)."""

    plan: Plan
    entries: list[dict[str, Any]]
    brief: Brief | None

    def agents_label(self) -> str: ...

    def skill_label(self) -> str: ...

    def default_variant(self) -> int | None: ...

    def columns(self, variant: int) -> dict[str, Any]: ...

    def facts(self, variant: int) -> Facts: ...

    def metrics(self) -> list[dict[str, M.Metric]]: ...


@dataclass(frozen=True)
class Answer:
    """What a report says before its tables: a few short sentences, a recommendation where the
    numbers support one, and the caveats a reader should weigh."""

    sentences: tuple[str, ...] = ()
    recommendation: str | None = None
    caveats: tuple[str, ...] = ()


@dataclass(frozen=True)
class Brief:
    """A report's opening: ``question`` quoted, ``answer(lab)`` written from the run's numbers,
    the ``decide`` metrics in the deciding table (default: :data:`DEFAULT_DECIDE`)."""

    name: str
    question: str
    decide: tuple[str, ...] = ()
    answer: Callable[[LabView], Answer] | None = None
    notes: tuple[str, ...] = field(default=())


#: The deciding table of a run without a study's own deciding metrics.
DEFAULT_DECIDE = (
    "seat_score_0",
    "balance",
    "drawishness",
    "truncation",
    "length_mean",
    "decisiveness",
    "pie_swap",
    "kingmaking",
    "skill",
)

#: Metrics whose reference is ½ (a fair seat, an even pie choice, no gain from skill); the
#: others are compared with the default variant.
HALF_REFERENCE = ("seat_score_0", "advantage", "pie_swap", "skill")

#: Full-table columns per block, so that the table fits the page.
VARIANTS_PER_BLOCK = 4

#: The legend of the flags.
FLAGS = (
    "▲ / ▼: the 95 % interval lies above / below the reference: ½ for seat scores, pie swaps "
    "and the skill score; for the other metrics the value of the default variant (the one "
    "whose varied options take the game's defaults)."
)

#: How the intervals are made.
INTERVALS = (
    "Intervals are 95 %: Wilson for shares, Student t for means, the delta method for pooled "
    "ratios, and for balance the Wilson intervals of the seats that set it (`help(sf.lab)` "
    "gives every formula)."
)


def names_list(items: Sequence[str], most: int = 4) -> str:
    """Up to ``most`` names joined ("a, b and c"), else their count ("7 variants").

    >>> names_list(["a", "b", "c"]), names_list(["a"] * 9)
    ('a, b and c', '9 variants')
    """
    if len(items) > most:
        return f"{len(items)} variants"
    if len(items) <= 1:
        return "".join(items)
    # Labels that hold commas themselves are set apart by semicolons.
    sep = "; " if any("," in x for x in items) else ", "
    return sep.join(items[:-1]) + " and " + items[-1]


def _span(lab: LabView, name: str) -> tuple[float, float]:
    vals = [m[name].value for m in lab.metrics() if name in m and not math.isnan(m[name].value)]
    return (min(vals), max(vals)) if vals else (math.nan, math.nan)


def seat_sentences(
    lab: LabView, labels: Sequence[str] | None = None
) -> tuple[list[str], str | None]:
    """The first seat's verdict at this strength (which variants it is fair in, ahead in,
    behind in), and a recommendation (the fair variant of highest balance) only when some
    variant is unfair."""
    ms = lab.metrics()
    names = list(labels) if labels is not None else [v.label for v in lab.plan.variants]
    sides = [M.excludes(m.get("seat_score_0", M.NAN_METRIC), 0.5) for m in ms]
    fair = [n for n, s in zip(names, sides) if s == 0]
    ahead = [n for n, s in zip(names, sides) if s > 0]
    behind = [n for n, s in zip(names, sides) if s < 0]
    parts = [f"{len(fair)} of {len(names)} variants are fair to the first seat"]
    if ahead:
        parts.append(f"the first seat is ahead with {names_list(ahead)}")
    if behind:
        parts.append(f"the second seat is ahead with {names_list(behind)}")
    sentences = ["; ".join(parts) + "."]
    recommendation = None
    if fair and (ahead or behind):
        scored = [(n, m) for n, m, s in zip(names, ms, sides) if s == 0]
        best = max(scored, key=lambda x: x[1].get("balance", M.NAN_METRIC).value)
        recommendation = (
            f"{best[0]}: fair to the first seat ({M.fmt(best[1]['seat_score_0'])}) with the "
            "highest balance of the fair variants."
        )
    return sentences, recommendation


def default_answer(lab: LabView) -> Answer:
    """The answer of a run without a study's own: the seats, draws and the move cap, what
    differs from the default variant, and whether skill pays."""
    sentences, recommendation = seat_sentences(lab)
    d_lo, d_hi = _span(lab, "drawishness")
    t_lo, t_hi = _span(lab, "truncation")
    if not math.isnan(d_lo):
        sentences.append(
            f"Draws: {pct(d_lo, d_hi)} of games; ended by the move cap: {pct(t_lo, t_hi)}."
        )
    sentences += differences(lab, ("length_mean", "decisiveness", "drawishness", "balance"))
    skill = [
        (v.label, m["skill"]) for v, m in zip(lab.plan.variants, lab.metrics()) if "skill" in m
    ]
    if skill:
        pays = [n for n, m in skill if M.excludes(m, 0.5) > 0]
        loses = [n for n, m in skill if M.excludes(m, 0.5) < 0]
        text = (
            f"Skill pays (the agent at 4× its budget wins more than half) in {len(pays)} of"
            f" {len(skill)} variants"
        )
        if loses:
            text += f"; the stronger agent loses more often with {names_list(loses)}"
        sentences.append(text + ".")
    return Answer(tuple(sentences), recommendation, one_strength_caveats(lab))


def pct(lo: float, hi: float) -> str:
    """A span of shares as "12–30 %" ("12 %" when both ends agree).

    >>> pct(0.12, 0.3), pct(0.5, 0.5)
    ('12–30 %', '50 %')
    """
    if math.isnan(lo):
        return "-"
    a, b = round(100 * lo), round(100 * hi)
    return f"{a} %" if a == b else f"{a}–{b} %"


def differences(lab: LabView, names: Sequence[str]) -> list[str]:
    """One sentence per metric of ``names`` whose interval excludes the default variant's value
    in some variant: which variants lie above and which below (none without a default)."""
    default = lab.default_variant()
    if default is None:
        return []
    ms = lab.metrics()
    out = []
    for name in names:
        ref = ms[default].get(name)
        if ref is None or math.isnan(ref.value):
            continue
        sides = [
            (v.label, M.excludes(m.get(name, M.NAN_METRIC), ref.value))
            for v, m in zip(lab.plan.variants, ms)
            if v.index != default
        ]
        up = [n for n, s in sides if s > 0]
        down = [n for n, s in sides if s < 0]
        if up or down:
            words = [f"higher with {names_list(up)}"] if up else []
            words += [f"lower with {names_list(down)}"] if down else []
            out.append(
                f"Against the default ({M.short(ref)}), {name.replace('_', ' ')} is "
                + " and ".join(words)
                + "."
            )
    return out


def one_strength_caveats(lab: LabView) -> tuple[str, ...]:
    """What a reader of one run should weigh: its one strength, its sample, and what the
    agents' randomness does to variants that differ in no legal move."""
    games = min((len(lab.facts(v.index)) for v in lab.plan.variants), default=0)
    return (
        f"One strength only ({lab.agents_label()}): a verdict can change with stronger play. "
        "Check it at two (`--strengths N1,N2`, or `sf.lab.run_study`).",
        f"{games} games a variant: a difference inside the intervals is not a finding.",
        "The agents' random streams depend on the position, so variants that change no legal "
        "move still play other games; they differ by chance alone.",
    )


def reference(lab: LabView, name: str) -> float | None:
    """The value a metric's interval is compared with: ½ for seat scores, swap shares and the
    skill score, the default variant's value for the others (None when the grid has no
    default variant)."""
    if name in HALF_REFERENCE or name.startswith("seat_score_"):
        return 0.5
    default = lab.default_variant()
    if default is None:
        return None
    m = lab.metrics()[default].get(name)
    return None if m is None or math.isnan(m.value) else m.value


def flag(metric: M.Metric, ref: float | None) -> str:
    """ "▲" when the 95 % interval lies above ``ref``, "▼" below, "" otherwise."""
    if ref is None or metric.interval == "none":
        return ""
    return {1: " ▲", -1: " ▼", 0: ""}[M.excludes(metric, ref)]


def md_table(lab: LabView, names: Sequence[str]) -> list[str]:
    """The deciding table: one row per variant, each metric with its interval and flag."""
    ms = lab.metrics()
    names = [n for n in names if any(n in m for m in ms)]
    lines = ["| variant | games | " + " | ".join(names) + " |", "|" + "---|" * (len(names) + 2)]
    default = lab.default_variant()
    refs = {n: reference(lab, n) for n in names}
    for v, m in zip(lab.plan.variants, ms):
        cells = []
        for n in names:
            metric = m.get(n, M.NAN_METRIC)
            is_ref = v.index == default and refs[n] != 0.5
            cells.append(str(metric) + ("" if is_ref else flag(metric, refs[n])))
        label = v.label + (" (default)" if v.index == default else "")
        lines.append(f"| {label} | {len(lab.facts(v.index))} | " + " | ".join(cells) + " |")
    return lines


def full_tables(lab: LabView) -> list[list[str]]:
    """Every metric: metrics as rows, at most :data:`VARIANTS_PER_BLOCK` variants a block."""
    ms = lab.metrics()
    names = metric_names(ms)
    variants = lab.plan.variants
    blocks = []
    for start in range(0, len(variants), VARIANTS_PER_BLOCK):
        part = variants[start : start + VARIANTS_PER_BLOCK]
        lines = ["| metric | " + " | ".join(v.label for v in part) + " |"]
        lines.append("|" + "---|" * (len(part) + 1))
        lines.append("| games | " + " | ".join(str(len(lab.facts(v.index))) for v in part) + " |")
        for n in names:
            cells = [str(ms[v.index].get(n, M.NAN_METRIC)) for v in part]
            lines.append(f"| {n} | " + " | ".join(cells) + " |")
        blocks.append(lines)
    return blocks


def metric_names(ms: Sequence[dict[str, M.Metric]]) -> list[str]:
    """Every metric name of the variants, in table order."""
    names: list[str] = []
    for m in ms:
        names.extend(k for k in m if k not in names)
    return names


def definitions(names: Sequence[str], declared: Sequence[Column]) -> list[str]:
    """A table of what each metric of ``names`` is (:func:`stonefield.lab.metrics.definition`),
    a series' ten tenths in one row."""
    rows = ["| metric | what it is |", "|---|---|"]
    seen = set()
    for name in names:
        series = re.fullmatch(r"(.+_series)_\d", name)
        key = f"{series.group(1)}_0 … _9" if series else name
        if key in seen:
            continue
        seen.add(key)
        text = M.definition(series.group(1) if series else name, declared)
        if series:
            text += ", at the end of each tenth of the game"
        rows.append(f"| {key} | {text or '-'} |")
    return rows


def write_page(md: Sequence[str], directory: str, title: str) -> str:
    """Writes ``report.md`` and ``report.html`` (converted by the ``markdown`` package, with
    every picture inlined and links to other reports' ``.md`` turned to their ``.html``) into
    ``directory``; returns the path of report.md."""
    try:
        import markdown  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise ImportError('reports need markdown: pip install "stonefield[lab]"') from None
    text = "\n".join(md) + "\n"
    md_path = os.path.join(directory, "report.md")
    with open(md_path, "w", encoding="utf-8") as f:
        f.write(text)
    body = markdown.markdown(text, extensions=["tables"], output_format="html")

    def inline(m: re.Match[str]) -> str:
        name = html.unescape(m.group(1))
        path = os.path.join(directory, name)
        if "/" in name or not os.path.exists(path):
            return m.group(0)
        kind = "image/svg+xml" if name.endswith(".svg") else "image/png"
        with open(path, "rb") as f:
            data = base64.b64encode(f.read()).decode("ascii")
        return f'src="data:{kind};base64,{data}"'

    body = re.sub(r'src="([^"]+)"', inline, body)
    body = re.sub(r'href="([^":]+)\.md"', r'href="\1.html"', body)
    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>"
        "body{font-family:sans-serif;max-width:1100px;margin:auto;padding:0 12px;"
        "line-height:1.4}"
        "table{border-collapse:collapse;font-size:12px;margin-bottom:12px;display:block;"
        "overflow-x:auto}"
        "td,th{border:1px solid #ccc;padding:2px 5px;vertical-align:top}"
        "blockquote{border-left:4px solid #ccc;margin-left:0;padding-left:12px;color:#333}"
        "img{max-width:100%}"
        "</style></head><body>\n" + body + "\n</body></html>\n"
    )
    with open(os.path.join(directory, "report.html"), "w", encoding="utf-8") as f:
        f.write(page)
    return md_path


def answer_lines(question: str, answer: Answer, *, none_supported: bool = False) -> list[str]:
    """The opening of a report: the question quoted, the answer's sentences as a list, the
    recommendation."""
    md = ["> " + line for line in question.splitlines()] + [""] if question else []
    md += ["## Answer", ""]
    md += [f"- {s}" for s in answer.sentences if s] + [""]
    if answer.recommendation:
        md += [f"**Recommendation.** {answer.recommendation}", ""]
    elif none_supported:
        md += ["**Recommendation.** None: no choice is supported at every strength.", ""]
    return md


def caveat_lines(caveats: Sequence[str]) -> list[str]:
    """The caveats section."""
    if not caveats:
        return []
    return ["## Caveats", ""] + [f"- {c}" for c in caveats] + [""]


# ---------------------------------------------------------------------------------------------
# A single run's report


def _labels(lab: LabView) -> tuple[list[str], str]:
    return plots.short_labels([v.varied for v in lab.plan.variants], lab.plan.game)


def _metric_of(lab: LabView, name: str) -> list[M.Metric]:
    return [m.get(name, M.NAN_METRIC) for m in lab.metrics()]


def heatmap(lab: LabView, name: str, path: str) -> bool:
    """A heat map of ``name`` over the two varied options (False unless exactly two vary)."""
    keys = list(lab.plan.vary)
    if len(keys) != 2:
        return False
    rows, cols = (list(lab.plan.vary[k]) for k in keys)
    grid = np.full((len(rows), len(cols)), np.nan)
    text = [["" for _ in cols] for _ in rows]
    ref = reference(lab, name)
    for v, m in zip(lab.plan.variants, _metric_of(lab, name)):
        i, j = rows.index(v.varied[keys[0]]), cols.index(v.varied[keys[1]])
        grid[i, j] = m.value
        text[i][j] = "-" if math.isnan(m.value) else f"{m.value:.2f}{flag(m, ref)}"
    plots.plot_heatmap(
        grid,
        text,
        rows,
        cols,
        path,
        row_title=keys[0],
        col_title=keys[1],
        title=name.replace("_", " "),
    )
    return True


def _series_lines(lab: LabView) -> tuple[tuple[Column, ...], dict[str, list[plots.SeriesLine]]]:
    series = declared_series(lab.plan.variants[0].game)
    ms = lab.metrics()
    series = tuple(c for c in series if any(M.series_names(c.name)[0] in m for m in ms))
    labels, _ = _labels(lab)
    lines = {
        c.name: [
            (label, M.series_metrics(m, c.name), "-", f"C{k % 10}")
            for k, (label, m) in enumerate(zip(labels, ms))
        ]
        for c in series
    }
    return series, lines


def lab_plots(lab: LabView, directory: str, decide: Sequence[str]) -> list[tuple[str, str]]:
    """Draws a run's plots into ``directory``: (file, caption) of each."""
    labels, options = _labels(lab)
    out: list[tuple[str, str]] = []

    def path(name: str) -> str:
        return os.path.join(directory, name)

    if decide and heatmap(lab, decide[0], path("heatmap.png")):
        out.append(("heatmap.png", f"{decide[0].replace('_', ' ')} over the two options"))
    for name, axis, caption in (
        ("pie_swap", "share of games where player 1 swaps", "Pie: how often player 1 swaps"),
        ("skill", "score of the agent at 4× its budget", "Skill: does a 4× budget win?"),
    ):
        if any(name in m for m in lab.metrics()):
            plots.plot_bars(
                labels,
                [("", _metric_of(lab, name))],
                path(f"{name}.png"),
                axis=axis + " (95 %)",
                options=options,
                ref=0.5,
            )
            out.append((f"{name}.png", caption))
    series, lines = _series_lines(lab)
    if series:
        plots.plot_series_panels(series, lines, path("series.png"))
        out.append(("series.png", "Over the game: the game's own measures at each tenth"))
    seats = lab.plan.players
    plots.plot_bars(
        labels,
        [(f"seat {p}", _metric_of(lab, f"seat_score_{p}")) for p in range(seats)],
        path("seat_scores.png"),
        axis="seat score (95 % Wilson)",
        options=options,
        ref=0.5,
    )
    out.append(("seat_scores.png", "Seat scores"))
    lengths = [lab.columns(v.index)["length"] for v in lab.plan.variants]
    plots.plot_boxes(
        labels,
        [np.zeros(0) if x is None else x for x in lengths],
        path("lengths.png"),
        axis="game length (actions; box: quartiles, whiskers: 5–95 %)",
        options=options,
    )
    out.append(("lengths.png", "Game lengths"))
    profiles = []
    for label, v in zip(labels, lab.plan.variants):
        cols = lab.columns(v.index)
        if cols["branching_bins"] is not None:
            profiles.append((label, M.branching_profile(cols)))
    plots.plot_lines(
        (np.arange(10) + 0.5) / 10,
        profiles,
        path("branching.png"),
        xlabel="progress through the game",
        ylabel="legal actions",
        legend_title=options,
    )
    out.append(("branching.png", "Branching factor over the game"))
    plots.plot_points(
        labels,
        [(n.replace("_", " "), _metric_of(lab, n)) for n in ("lead_change", "drama")],
        path("lead_drama.png"),
        options=options,
    )
    out.append(("lead_drama.png", "Lead change and drama"))
    return out


def _board(lab: LabView, index: int, directory: str) -> tuple[str, str]:
    """Writes the final position of the variant's first kept game (or its empty board) as
    SVG; its file name and caption."""
    v = lab.plan.variants[index]
    kept = records(lab.entries, index)
    state = v.game.new_state()
    if kept:
        first = min(kept)
        for a in kept[first]["actions"]:
            state.apply(int(a))
        caption = (
            f"{v.label}: game {first}, {len(state.history)} actions, "
            f"{_layout.status(state, PLAYER_NAMES)}"
        )
    else:
        caption = f"{v.label}: the empty board"
    name = f"board_{index}.svg"
    with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
        f.write(to_svg(state, size=260, caption=False))
    return name, caption


def played_line(lab: LabView) -> str:
    """Who played, how many games, the seed and the fixed options."""
    text = (
        f"Played by {lab.agents_label()}; {lab.plan.games} games a variant; seed "
        f"{lab.plan.seed}; fixed options: {lab.plan.fixed or 'none'}."
    )
    if lab.plan.skill:
        text += f" Skill games: {lab.skill_label()}."
    return text


def options_table(game: str, keys: Sequence[str]) -> list[str]:
    """What each varied option does, in the game's own words (its option descriptions)."""
    spec = {o["name"]: o for o in _core.option_spec(game)}
    rows = ["## What the options do", "", "| option | what it does | default |", "|---|---|---|"]
    for k in keys:
        o = spec.get(k)
        if o is not None:
            rows.append(f"| {k} | {o['help']} | {o['default']} |")
    return rows + [""] if len(rows) > 4 else []


def write_report(lab: LabView, directory: str) -> str:
    """Writes a run's report (report.md, report.html, the plots and boards) into ``directory``;
    returns the path of report.md. Without a brief, the run is answered by
    :func:`default_answer`."""
    os.makedirs(directory, exist_ok=True)
    brief = lab.brief
    ms = lab.metrics()
    decide = [
        n
        for n in (brief.decide if brief and brief.decide else DEFAULT_DECIDE)
        if any(n in m for m in ms)
    ]
    answer = (brief.answer if brief and brief.answer else default_answer)(lab)
    title = f"Study: {brief.name}" if brief is not None else f"Variant lab: {lab.plan.game}"
    question = brief.question if brief is not None else ""
    md = [f"# {title}", ""] + answer_lines(question, answer)
    md += ["## The deciding metrics", "", played_line(lab), "", FLAGS, ""]
    md += md_table(lab, decide) + [""]
    md += caveat_lines([*answer.caveats, *(brief.notes if brief else ())])
    md += options_table(lab.plan.game, list(lab.plan.vary))
    declared = declared_columns(lab.plan.variants[0].game)
    md += ["## What the metrics are", "", INTERVALS, ""]
    md += definitions(metric_names(ms), declared) + [""]
    for name, caption in lab_plots(lab, directory, decide):
        md += [f"## {caption}", "", f"![{caption}]({name})", ""]
    md += ["## Every metric", ""]
    for block in full_tables(lab):
        md += block + [""]
    md += ["## Boards", ""]
    for v in lab.plan.variants:
        name, caption = _board(lab, v.index, directory)
        md += [f"![{caption}]({name})", "", f"*{caption}*", ""]
    repeated = [
        (v.label, i)
        for v in lab.plan.variants
        for i in sorted(records(lab.entries, v.index))
        if int(lab.columns(v.index)["repeated"][i]) > 0
    ]
    md += ["## Repeated positions", ""]
    md += [f"- {label}: game {i}" for label, i in repeated] or ["No game repeated a position."]
    return write_page(md, directory, title)


__all__ = [
    "DEFAULT_DECIDE",
    "Answer",
    "Brief",
    "LabView",
    "default_answer",
    "flag",
    "heatmap",
    "md_table",
    "names_list",
    "pct",
    "reference",
    "write_page",
    "write_report",
]
