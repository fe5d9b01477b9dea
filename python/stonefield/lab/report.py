"""The lab's report: report.md, a self-contained report.html and PNG plots.

A report answers first: the question (a study's, or none for a plain lab run), the answer and a
recommendation where the numbers support one, then a compact table of the metrics that decide
it with every interval that excludes the reference flagged (½ for seat scores and shares of
swaps, the default variant's value for the rest), then the plots (a heat map when two options
vary, pie-swap rates, the skill gradient when measured), then the full table (one column per
variant, split so that it fits the page), the boards and the repeated positions.

matplotlib is imported here only, with figures built from :class:`matplotlib.figure.Figure`
and drawn by the Agg canvas (no pyplot, no global state).
"""

from __future__ import annotations

import base64
import html
import math
import os
from typing import Any

import numpy as np

from .. import _layout
from ..render import PLAYER_NAMES, to_svg
from . import metrics as M
from ._view import LabView
from .columns import Column, declared_series
from .run import records

#: Metrics shown in the report's summary table.
SUMMARY = (
    "seat_score_0",
    "balance",
    "completion",
    "drawishness",
    "truncation",
    "tiebreak_reach",
    "length_mean",
    "branching",
    "decision_moves",
    "coverage",
    "repeated_games",
    "lead_change",
    "drama",
    "decisiveness",
    "stability",
    "kingmaking",
    "pie_swap",
    "skill",
)


def new_figure(width: float, height: float) -> Any:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError('reports need matplotlib: pip install "stonefield[lab]"') from None
    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def save_figure(fig: Any, path: str) -> None:
    fig.tight_layout()
    fig.savefig(path, format="png")


def plot_seat_scores(lab: LabView, path: str) -> None:
    """Seat scores with their 95 % intervals, one group of bars per variant."""
    ms = lab.metrics()
    labels = [v.label for v in lab.plan.variants]
    seats = max(
        (sum(1 for k in m if k.startswith("seat_score_") and k[11:].isdigit()) for m in ms),
        default=0,
    )
    fig = new_figure(max(6.0, 0.9 * len(labels) + 2), 4.0)
    ax = fig.add_subplot()
    width = 0.8 / max(seats, 1)
    x = np.arange(len(labels))
    for p in range(seats):
        vals = np.array([m.get(f"seat_score_{p}", M.NAN_METRIC).value for m in ms])
        lo = np.array([m.get(f"seat_score_{p}", M.NAN_METRIC).low for m in ms])
        hi = np.array([m.get(f"seat_score_{p}", M.NAN_METRIC).high for m in ms])
        ax.bar(
            x + p * width,
            vals,
            width,
            label=f"seat {p}",
            yerr=np.nan_to_num(np.vstack([vals - lo, hi - vals])),
            capsize=2,
        )
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xticks(x + width * (seats - 1) / 2, labels, rotation=45, ha="right", fontsize=7)
    ax.set_ylabel("seat score w̄ (95 % Wilson)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7)
    save_figure(fig, path)


def plot_lengths(lab: LabView, path: str) -> None:
    """The distribution of game lengths per variant (box plots)."""
    data = [
        np.asarray(c["length"], dtype=float) if c["length"] is not None else np.zeros(0)
        for c in (lab.columns(v.index) for v in lab.plan.variants)
    ]
    fig = new_figure(max(6.0, 0.6 * len(data) + 2), 4.0)
    ax = fig.add_subplot()
    ax.boxplot(data, showfliers=False)
    ax.set_xticks(
        np.arange(1, len(data) + 1),
        [v.label for v in lab.plan.variants],
        rotation=45,
        ha="right",
        fontsize=7,
    )
    ax.set_ylabel("game length (actions)")
    save_figure(fig, path)


def plot_branching(lab: LabView, path: str) -> None:
    """Mean legal actions per tenth of the game, one line per variant."""
    fig = new_figure(6.5, 4.0)
    ax = fig.add_subplot()
    x = (np.arange(10) + 0.5) / 10
    for v in lab.plan.variants:
        cols = lab.columns(v.index)
        if cols["branching_bins"] is None:
            continue
        ax.plot(x, M.branching_profile(cols), marker=".", label=v.label)
    ax.set_xlabel("progress through the game")
    ax.set_ylabel("legal actions")
    if len(lab.plan.variants) <= 12:
        ax.legend(fontsize=6)
    save_figure(fig, path)


def plot_lead_drama(lab: LabView, path: str) -> None:
    """Lead change and drama per variant with their t intervals."""
    ms = lab.metrics()
    labels = [v.label for v in lab.plan.variants]
    fig = new_figure(max(6.0, 0.9 * len(labels) + 2), 4.0)
    axes = fig.subplots(1, 2)
    for ax, name in zip(axes, ("lead_change", "drama")):
        vals = np.array([m.get(name, M.NAN_METRIC).value for m in ms])
        lo = np.array([m.get(name, M.NAN_METRIC).low for m in ms])
        hi = np.array([m.get(name, M.NAN_METRIC).high for m in ms])
        ax.errorbar(
            np.arange(len(labels)),
            vals,
            yerr=np.nan_to_num(np.vstack([vals - lo, hi - vals])),
            fmt="o",
            capsize=3,
        )
        ax.set_xticks(np.arange(len(labels)), labels, rotation=45, ha="right", fontsize=7)
        ax.set_title(name.replace("_", " "))
    save_figure(fig, path)


#: One line of a series plot: its legend label, its metric at each tenth, its line style and
#: its colour (a variant keeps its colour across strengths).
SeriesLine = tuple[str, list[M.Metric], str, str]


def plot_series_panels(
    series: tuple[Column, ...], lines: dict[str, list[SeriesLine]], path: str
) -> None:
    """One panel per declared series (``lines[column name]``), each line a variant's means at
    the end of each tenth of the game with their 95 % intervals."""
    panels = len(series)
    across = min(panels, 3)
    down = -(-panels // across)
    fig = new_figure(4.2 * across, 3.3 * down + 0.6)
    axes = np.atleast_1d(fig.subplots(down, across, squeeze=False)).ravel()
    x = np.arange(1, M.TENTHS + 1) / M.TENTHS
    for ax, column in zip(axes, series):
        base = column.name.removesuffix("_series")
        count = len(lines[column.name])
        for k, (label, ms, style, color) in enumerate(lines[column.name]):
            vals = np.array([m.value for m in ms])
            err = np.nan_to_num(
                np.vstack([vals - [m.low for m in ms], [m.high for m in ms] - vals])
            )
            shift = (k - (count - 1) / 2) * 0.006
            ax.errorbar(
                x + shift,
                vals,
                yerr=err,
                marker=".",
                capsize=2,
                ls=style,
                lw=1,
                color=color,
                label=label,
            )
        ax.set_title(base.replace("_", " "), fontsize=9)
        ax.set_xlabel("end of tenth of the game", fontsize=8)
        ax.set_xticks(x[1::2], [f"{v:.1f}" for v in x[1::2]], fontsize=7)
        if math.isfinite(column.low) and math.isfinite(column.high):
            ax.set_ylim(column.low, column.high)
    for ax in axes[panels:]:
        ax.set_visible(False)
    handles, labels = axes[0].get_legend_handles_labels()
    if handles and len(labels) <= 16:
        fig.legend(handles, labels, fontsize=7, loc="lower center", ncol=min(len(labels), 4))
        fig.tight_layout(rect=(0, 0.04 + 0.035 * -(-len(labels) // 4), 1, 1))
        fig.savefig(path, format="png")
        return
    save_figure(fig, path)


def plot_series(lab: LabView, path: str) -> bool:
    """The series the game declares (its final-shape facts at the end of each tenth of the
    game), one panel each, one line per variant. False (no file) when the game declares none
    or no variant has them (an older results file)."""
    series = declared_series(lab.plan.variants[0].game)
    ms = lab.metrics()
    series = tuple(c for c in series if any(M.series_names(c.name)[0] in m for m in ms))
    if not series:
        return False
    lines = {
        c.name: [
            (v.label, M.series_metrics(m, c.name), "-", f"C{k % 10}")
            for k, (v, m) in enumerate(zip(lab.plan.variants, ms))
        ]
        for c in series
    }
    plot_series_panels(series, lines, path)
    return True


#: The compact table of a run without a study's own deciding metrics.
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

#: Metrics whose reference is ½ (a fair seat, an even pie choice); the others are compared with
#: the default variant.
HALF_REFERENCE = ("seat_score_0", "advantage", "pie_swap", "skill")

#: Full-table columns per block, so that the table fits the page.
VARIANTS_PER_BLOCK = 4


def _board_svg(lab: LabView, index: int) -> tuple[str, str]:
    """The final position of the variant's first game (or its empty board), without the
    picture's own caption, and a caption to print beside it at a readable size."""
    v = lab.plan.variants[index]
    kept = records(lab.entries, index)
    state = v.game.new_state()
    game_index = None
    if kept:
        game_index = min(kept)
        for a in kept[game_index]["actions"]:
            state.apply(int(a))
    if game_index is None:
        caption = f"{v.label}: the empty board"
    else:
        caption = (
            f"{v.label}: game {game_index}, {len(state.history)} actions, "
            f"{_layout.status(state, PLAYER_NAMES)}"
        )
    return to_svg(state, size=260, caption=False), caption


def reference(lab: LabView, name: str) -> float | None:
    """The value a metric's interval is compared with: ½ for seat scores and swap shares, the
    default variant's value for the others (None when the grid has no default variant)."""
    if name in HALF_REFERENCE or name.startswith("seat_score_"):
        return 0.5
    default = lab.default_variant()
    if default is None:
        return None
    m = lab.metrics()[default].get(name)
    return None if m is None or math.isnan(m.value) else m.value


def flag(metric: M.Metric, ref: float | None) -> str:
    """ "▲" when the 95 % interval lies above ``ref``, "▼" below, "" otherwise."""
    if ref is None or math.isnan(metric.value) or metric.interval == "none":
        return ""
    if metric.low > ref:
        return " ▲"
    if metric.high < ref:
        return " ▼"
    return ""


def md_table(lab: LabView, names: list[str] | None = None) -> list[str]:
    """The compact table: one row per variant, the deciding metrics, flags against the
    reference."""
    ms = lab.metrics()
    names = [n for n in (names or SUMMARY) if any(n in m for m in ms)]
    head = "| variant | games | " + " | ".join(names) + " |"
    lines = [head, "|" + "---|" * (len(names) + 2)]
    default = lab.default_variant()
    refs = {n: reference(lab, n) for n in names}
    for v, m in zip(lab.plan.variants, ms):
        games = len(lab.facts(v.index))
        cells = []
        for n in names:
            metric = m.get(n, M.NAN_METRIC)
            is_ref = v.index == default and refs[n] != 0.5
            cells.append(str(metric) + ("" if is_ref else flag(metric, refs[n])))
        label = v.label + (" (default)" if v.index == default else "")
        lines.append(f"| {label} | {games} | " + " | ".join(cells) + " |")
    return lines


def _full_tables(lab: LabView) -> list[list[str]]:
    """The full table for reference: metrics as rows, at most :data:`VARIANTS_PER_BLOCK`
    variants as columns per block."""
    ms = lab.metrics()
    names: list[str] = []
    for m in ms:
        names.extend(k for k in m if k not in names)
    blocks = []
    variants = lab.plan.variants
    for start in range(0, len(variants), VARIANTS_PER_BLOCK):
        part = variants[start : start + VARIANTS_PER_BLOCK]
        lines = ["| metric | " + " | ".join(v.label for v in part) + " |"]
        lines.append("|" + "---|" * (len(part) + 1))
        games = [lab.columns(v.index)["length"] for v in part]
        lines.append(
            "| games | " + " | ".join(str(0 if g is None else g.size) for g in games) + " |"
        )
        for n in names:
            cells = [str(ms[v.index].get(n, M.NAN_METRIC)) for v in part]
            lines.append(f"| {n} | " + " | ".join(cells) + " |")
        blocks.append(lines)
    return blocks


def plot_heatmap(lab: LabView, name: str, path: str) -> bool:
    """A heat map of metric ``name`` over the two varied options (rows the first option, columns
    the second), each cell with its value and flag. Returns False (no file) unless exactly two
    options vary."""
    keys = list(lab.plan.vary)
    if len(keys) != 2:
        return False
    rows, cols = (list(lab.plan.vary[k]) for k in keys)
    grid = np.full((len(rows), len(cols)), np.nan)
    text = [["" for _ in cols] for _ in rows]
    ms = lab.metrics()
    ref = reference(lab, name)
    for v in lab.plan.variants:
        i, j = rows.index(v.varied[keys[0]]), cols.index(v.varied[keys[1]])
        m = ms[v.index].get(name, M.NAN_METRIC)
        grid[i, j] = m.value
        text[i][j] = "-" if math.isnan(m.value) else f"{m.value:.2f}{flag(m, ref)}"
    fig = new_figure(max(4.0, 1.2 * len(cols) + 2.5), max(3.0, 0.5 * len(rows) + 1.8))
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="coolwarm", aspect="auto")
    for i in range(len(rows)):
        for j in range(len(cols)):
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=8)
    ax.set_xticks(np.arange(len(cols)), [str(c) for c in cols], fontsize=8)
    ax.set_yticks(np.arange(len(rows)), [str(r) for r in rows], fontsize=8)
    ax.set_xlabel(keys[1])
    ax.set_ylabel(keys[0])
    ax.set_title(name.replace("_", " "), fontsize=9)
    fig.colorbar(image, ax=ax)
    save_figure(fig, path)
    return True


def plot_metric_bars(lab: LabView, name: str, ylabel: str, path: str) -> bool:
    """One bar per variant of metric ``name`` with its interval and a dashed line at the
    reference. Returns False (no file) when no variant has the metric."""
    ms = lab.metrics()
    if not any(name in m for m in ms):
        return False
    labels = [v.label for v in lab.plan.variants]
    vals = np.array([m.get(name, M.NAN_METRIC).value for m in ms])
    lo = np.array([m.get(name, M.NAN_METRIC).low for m in ms])
    hi = np.array([m.get(name, M.NAN_METRIC).high for m in ms])
    fig = new_figure(max(6.0, 0.6 * len(labels) + 2), 4.0)
    ax = fig.add_subplot()
    x = np.arange(len(labels))
    ax.bar(x, vals, 0.6, yerr=np.nan_to_num(np.vstack([vals - lo, hi - vals])), capsize=3)
    ref = reference(lab, name)
    if ref is not None:
        ax.axhline(ref, color="grey", lw=0.8, ls="--")
    ax.set_xticks(x, labels, rotation=45, ha="right", fontsize=7)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 1)
    save_figure(fig, path)
    return True


def html_head(title: str, extra_css: str = "") -> str:
    """The head of a report's self-contained HTML page (the styles both reports share, then
    ``extra_css``), up to the opening body tag."""
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title>"
        "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}"
        "table{border-collapse:collapse;font-size:12px;margin-bottom:12px}"
        "td,th{border:1px solid #ccc;padding:2px 5px}"
        "blockquote{border-left:4px solid #ccc;margin-left:0;padding-left:12px;color:#333}"
        f"{extra_css}</style></head><body>"
    )


def write_report(lab: LabView, directory: str) -> str:
    """Writes the report files; returns the path of report.md."""
    os.makedirs(directory, exist_ok=True)
    brief = lab.brief
    decide = list(brief.decide) if brief is not None and brief.decide else list(DEFAULT_DECIDE)
    ms = lab.metrics()
    decide = [n for n in decide if any(n in m for m in ms)]
    plots: list[tuple[str, str]] = []
    if decide and plot_heatmap(lab, decide[0], os.path.join(directory, "heatmap.png")):
        plots.append(("heatmap.png", f"{decide[0].replace('_', ' ')} over the two options"))
    if plot_metric_bars(
        lab, "pie_swap", "share of swaps (95 % Wilson)", os.path.join(directory, "pie_swap.png")
    ):
        plots.append(("pie_swap.png", "Pie: how often player 1 swaps"))
    if plot_metric_bars(
        lab,
        "skill",
        "score of the 4× budget (95 % Wilson)",
        os.path.join(directory, "skill.png"),
    ):
        plots.append(("skill.png", "Skill gradient: the stronger agent's score"))
    if plot_series(lab, os.path.join(directory, "series.png")):
        plots.append(
            (
                "series.png",
                "Over the game: the game's own measures at the end of each tenth, as played by "
                + lab.agents_label(),
            )
        )
    for name, title, draw in (
        ("seat_scores.png", "Seat scores", plot_seat_scores),
        ("lengths.png", "Game lengths", plot_lengths),
        ("branching.png", "Branching factor over the game", plot_branching),
        ("lead_drama.png", "Lead change and drama", plot_lead_drama),
    ):
        draw(lab, os.path.join(directory, name))
        plots.append((name, title))
    boards = []
    for v in lab.plan.variants:
        svg, caption = _board_svg(lab, v.index)
        name = f"board_{v.index}.svg"
        with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
            f.write(svg)
        boards.append((caption, name, svg))

    title = f"Study: {brief.name}" if brief is not None else f"Variant lab: {lab.plan.game}"
    opening: list[str] = []
    if brief is not None:
        opening += ["> " + line for line in brief.question.splitlines()] + [""]
        answer, recommendation = brief.answer(lab) if brief.answer else ("", None)
        if answer:
            opening += [f"**Answer.** {answer}", ""]
        if recommendation:
            opening += [f"**Recommendation.** {recommendation}", ""]
    provenance = [
        f"Played by: {lab.agents_label()}; {lab.plan.games} games per variant; seed "
        f"{lab.plan.seed}; fixed options: {lab.plan.fixed or 'none'}."
    ]
    if lab.plan.skill:
        provenance.append(f"Skill games: {lab.skill_label()}.")
    intervals = (
        "Intervals are 95 %: Wilson for shares, Student t for means, the delta method for pooled "
        "ratios, and for balance the Wilson intervals of the seats that set it (see "
        "`stonefield.lab` for every formula). ▲ / ▼: the interval lies above / below the "
        "reference (½ for seat scores, pie swaps and the skill score; the default variant's "
        "value for the other metrics)."
    )
    md = [f"# {title}", ""] + opening + [" ".join(provenance), "", intervals, ""]
    md += ["## The deciding metrics", ""] + md_table(lab, decide) + [""]
    for name, caption in plots:
        md += [f"## {caption}", "", f"![{caption}]({name})", ""]
    md += ["## Every metric", ""]
    for block in _full_tables(lab):
        md += block + [""]
    md += ["## Boards", ""]
    for caption, name, _ in boards:
        md += [f"![{caption}]({name})", "", f"*{caption}*", ""]
    repeated = [
        (v.label, i)
        for v in lab.plan.variants
        for i in sorted(records(lab.entries, v.index))
        if int(lab.columns(v.index)["repeated"][i]) > 0
    ]
    md += ["## Repeated positions", ""]
    if repeated:
        md += [f"- {label}: game {i}" for label, i in repeated]
    else:
        md += ["No game repeated a position."]
    md_path = os.path.join(directory, "report.md")
    with open(md_path, "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")

    def img(name: str) -> str:
        with open(os.path.join(directory, name), "rb") as f:
            data = base64.b64encode(f.read()).decode("ascii")
        return f'<img alt="{html.escape(name)}" src="data:image/png;base64,{data}">'

    def html_table(rows: list[str]) -> str:
        out = ["<table>"]
        for k, line in enumerate(r for r in rows if not r.startswith("|---")):
            cells = [c.strip() for c in line.strip("|").split("|")]
            tag = "th" if k == 0 else "td"
            out.append(
                "<tr>" + "".join(f"<{tag}>{html.escape(c)}</{tag}>" for c in cells) + "</tr>"
            )
        out.append("</table>")
        return "\n".join(out)

    def para(text: str) -> str:
        # The markdown's one markup: **bold** at the start of a paragraph.
        if text.startswith("**") and "**" in text[2:]:
            head, rest = text[2:].split("**", 1)
            return f"<p><b>{html.escape(head)}</b>{html.escape(rest)}</p>"
        return f"<p>{html.escape(text)}</p>"

    parts = [
        html_head(
            title,
            "figcaption{font-size:14px;max-width:300px}"
            ".boards{display:flex;flex-wrap:wrap;gap:12px}",
        ),
        f"<h1>{html.escape(title)}</h1>",
    ]
    if brief is not None:
        parts.append(f"<blockquote>{html.escape(brief.question)}</blockquote>")
    parts += [para(x) for x in opening if x and not x.startswith(">")]
    parts += [para(" ".join(provenance)), para(intervals)]
    parts += ["<h2>The deciding metrics</h2>", html_table(md_table(lab, decide))]
    for name, caption in plots:
        parts += [f"<h2>{html.escape(caption)}</h2>", img(name)]
    parts.append("<h2>Every metric</h2>")
    parts += [html_table(block) for block in _full_tables(lab)]
    parts.append("<h2>Boards</h2><div class='boards'>")
    for caption, _, svg in boards:
        parts.append(f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>")
    parts.append("</div></body></html>")
    with open(os.path.join(directory, "report.html"), "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    return md_path
