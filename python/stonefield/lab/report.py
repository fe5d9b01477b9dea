"""The lab's report: report.md, a self-contained report.html and PNG plots.

matplotlib is imported here only, with figures built from :class:`matplotlib.figure.Figure`
and drawn by the Agg canvas (no pyplot, no global state).
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from ..render import to_svg
from . import metrics as M
from .run import Plan, records


class LabView(Protocol):
    """What the report reads of a :class:`~stonefield.lab.Lab` (named by its shape, so that the
    report does not import the module that imports it)."""

    plan: Plan
    entries: list[dict[str, Any]]

    def columns(self, variant: int) -> dict[str, Any]: ...

    def metrics(self) -> list[dict[str, M.Metric]]: ...

    def table(self, metrics: Sequence[str] | None = None) -> str: ...


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


def _figure(width: float, height: float) -> Any:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError('reports need matplotlib: pip install "stonefield[lab]"') from None
    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _save(fig: Any, path: str) -> None:
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
    fig = _figure(max(6.0, 0.9 * len(labels) + 2), 4.0)
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
    _save(fig, path)


def plot_lengths(lab: LabView, path: str) -> None:
    """The distribution of game lengths per variant (box plots)."""
    data = [
        np.asarray(c["length"], dtype=float) if c["length"] is not None else np.zeros(0)
        for c in (lab.columns(v.index) for v in lab.plan.variants)
    ]
    fig = _figure(max(6.0, 0.6 * len(data) + 2), 4.0)
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
    _save(fig, path)


def plot_branching(lab: LabView, path: str) -> None:
    """Mean legal actions per tenth of the game, one line per variant."""
    fig = _figure(6.5, 4.0)
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
    _save(fig, path)


def plot_lead_drama(lab: LabView, path: str) -> None:
    """Lead change and drama per variant with their t intervals."""
    ms = lab.metrics()
    labels = [v.label for v in lab.plan.variants]
    fig = _figure(max(6.0, 0.9 * len(labels) + 2), 4.0)
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
    _save(fig, path)


def _board_svg(lab: LabView, index: int) -> str:
    """The final position of the variant's first game (or its empty board)."""
    v = lab.plan.variants[index]
    kept = records(lab.entries, index)
    state = v.game.new_state()
    if kept:
        for a in kept[min(kept)]["actions"]:
            state.apply(int(a))
    return to_svg(state, size=240)


def _md_table(lab: LabView) -> list[str]:
    ms = lab.metrics()
    names = [n for n in SUMMARY if any(n in m for m in ms)]
    head = "| variant | games | " + " | ".join(names) + " |"
    lines = [head, "|" + "---|" * (len(names) + 2)]
    for v, m in zip(lab.plan.variants, ms):
        c = lab.columns(v.index)
        games = 0 if c["length"] is None else c["length"].size
        cells = [str(m.get(n, M.NAN_METRIC)) for n in names]
        lines.append(f"| {v.label} | {games} | " + " | ".join(cells) + " |")
    return lines


def write_report(lab: LabView, directory: str) -> str:
    """Writes the report files; returns the path of report.md."""
    os.makedirs(directory, exist_ok=True)
    plots = {
        "seat_scores.png": ("Seat scores", plot_seat_scores),
        "lengths.png": ("Game lengths", plot_lengths),
        "branching.png": ("Branching factor over the game", plot_branching),
        "lead_drama.png": ("Lead change and drama", plot_lead_drama),
    }
    for name, (_, draw) in plots.items():
        draw(lab, os.path.join(directory, name))
    boards = []
    for v in lab.plan.variants:
        svg = _board_svg(lab, v.index)
        name = f"board_{v.index}.svg"
        with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
            f.write(svg)
        boards.append((v.label, name, svg))

    args = lab.plan.header()
    intro = [
        f"# Variant lab: {lab.plan.game}",
        "",
        f"Agents: {', '.join(args['agents'])}; {lab.plan.games} games per variant; "
        f"seed {lab.plan.seed}; fixed options: {lab.plan.fixed or 'none'}.",
        "",
        "Intervals are 95 %: Wilson for shares, Student t for means and balance, the delta "
        "method for pooled ratios (see `stonefield.lab` for every formula).",
        "",
    ]
    md = intro + ["## Summary", ""] + _md_table(lab) + [""]
    md += ["## All metrics", "", "```", lab.table(), "```", ""]
    for name, (title, _) in plots.items():
        md += [f"## {title}", "", f"![{title}]({name})", ""]
    md += ["## Boards", ""]
    for label, name, _ in boards:
        md += [f"**{label}**", "", f"![{label}]({name})", ""]
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

    rows = _md_table(lab)
    table_html = ["<table>"]
    for k, line in enumerate(r for r in rows if not r.startswith("|---")):
        cells = [c.strip() for c in line.strip("|").split("|")]
        tag = "th" if k == 0 else "td"
        table_html.append(
            "<tr>" + "".join(f"<{tag}>{html.escape(c)}</{tag}>" for c in cells) + "</tr>"
        )
    table_html.append("</table>")
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>Variant lab: {html.escape(lab.plan.game)}</title>",
        "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}"
        "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;"
        "padding:2px 5px}pre{font-size:11px;overflow-x:auto}"
        ".boards{display:flex;flex-wrap:wrap;gap:12px}</style></head><body>",
        f"<h1>Variant lab: {html.escape(lab.plan.game)}</h1>",
        "".join(f"<p>{html.escape(x)}</p>" for x in intro[2:] if x),
        "<h2>Summary</h2>",
        "\n".join(table_html),
        "<h2>All metrics</h2>",
        f"<pre>{html.escape(lab.table())}</pre>",
    ]
    for name, (title, _) in plots.items():
        parts += [f"<h2>{html.escape(title)}</h2>", img(name)]
    parts.append("<h2>Boards</h2><div class='boards'>")
    for label, _, svg in boards:
        parts.append(f"<figure>{svg}<figcaption>{html.escape(label)}</figcaption></figure>")
    parts.append("</div></body></html>")
    with open(os.path.join(directory, "report.html"), "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    return md_path
