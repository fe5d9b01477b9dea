"""The reports' pictures, drawn from numbers and labels alone (no lab, no study): PNG files.

Variants are named by the values of their varied options (``largest_group · True``), the option
names once on the axis, so that labels stay short and read horizontally: bar charts lie on
their side, one row per variant, and grow in height with the grid instead of rotating their
labels.

matplotlib is imported here only, with figures built from :class:`matplotlib.figure.Figure`
and drawn by the Agg canvas (no pyplot, no global state).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import metrics as M
from .columns import Column

#: Characters per line of a variant's label before it wraps.
LABEL_WIDTH = 28

#: Inches per variant row of the horizontal charts.
ROW_INCHES = 0.32


def new_figure(width: float, height: float) -> Any:
    """A figure of ``width`` × ``height`` inches on the Agg canvas."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError('reports need matplotlib: pip install "stonefield[lab]"') from None
    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def save_figure(fig: Any, path: str) -> None:
    """Lays the figure out so that no label is cut, and writes it as a PNG."""
    fig.tight_layout()
    fig.savefig(path, format="png", bbox_inches="tight")


def short_labels(varied: Sequence[dict[str, Any]], fallback: str = "") -> tuple[list[str], str]:
    """Labels of the variants (the values of their varied options, joined by " · ") and the
    title that names the options once.

    >>> short_labels([{"scoring": "stones", "lp": False}, {"scoring": "largest_group", "lp": True}])
    (['stones · False', 'largest_group · True'], 'scoring · lp')
    """
    keys: list[str] = []
    for v in varied:
        keys.extend(k for k in v if k not in keys)
    if not keys:
        return [fallback] * len(varied), ""
    labels = [" · ".join(str(v.get(k, "-")) for k in keys) for v in varied]
    return [textwrap.fill(x, LABEL_WIDTH) for x in labels], " · ".join(keys)


def _errors(ms: Sequence[M.Metric]) -> Any:
    vals = np.array([m.value for m in ms])
    lo = np.array([m.low for m in ms])
    hi = np.array([m.high for m in ms])
    return vals, np.nan_to_num(np.vstack([vals - lo, hi - vals]))


def _rows_height(rows: float, extra: float = 1.4) -> float:
    return max(2.6, ROW_INCHES * rows + extra)


def plot_bars(
    labels: Sequence[str],
    groups: Sequence[tuple[str, Sequence[M.Metric]]],
    path: str,
    *,
    axis: str,
    options: str = "",
    ref: float | None = None,
    limits: tuple[float, float] | None = (0.0, 1.0),
) -> None:
    """Horizontal bars with their 95 % intervals: one row per variant (``labels``), one bar a
    row per group (a seat, a strength; named in the legend when there are several), a dashed
    line at ``ref``."""
    fig = new_figure(7.0, _rows_height(len(labels) * max(1, len(groups)) * 0.6 + 2))
    ax = fig.add_subplot()
    y = np.arange(len(labels))
    height = 0.8 / max(len(groups), 1)
    for k, (name, ms) in enumerate(groups):
        vals, err = _errors(ms)
        # The first group on top of each row.
        ax.barh(y - k * height, vals, height, xerr=err, capsize=2, label=name or None)
    ax.set_yticks(y - height * (len(groups) - 1) / 2, labels, fontsize=8)
    ax.invert_yaxis()
    if ref is not None:
        ax.axvline(ref, color="grey", lw=0.8, ls="--")
    if limits is not None:
        ax.set_xlim(*limits)
    ax.set_xlabel(axis, fontsize=9)
    if options:
        ax.set_ylabel(options, fontsize=8)
    if len(groups) > 1:
        ax.legend(fontsize=7, loc="best")
    save_figure(fig, path)


def plot_points(
    labels: Sequence[str],
    panels: Sequence[tuple[str, Sequence[M.Metric]]],
    path: str,
    *,
    options: str = "",
) -> None:
    """One panel per metric, a point with its interval per variant (one row each)."""
    fig = new_figure(3.4 * len(panels) + 1.6, _rows_height(len(labels)))
    axes = np.atleast_1d(fig.subplots(1, len(panels), sharey=True, squeeze=False)).ravel()
    y = np.arange(len(labels))
    for ax, (title, ms) in zip(axes, panels):
        vals, err = _errors(ms)
        ax.errorbar(vals, y, xerr=err, fmt="o", capsize=3)
        ax.set_title(title, fontsize=9)
        ax.grid(axis="x", lw=0.3)
    axes[0].set_yticks(y, labels, fontsize=8)
    axes[0].invert_yaxis()
    if options:
        axes[0].set_ylabel(options, fontsize=8)
    save_figure(fig, path)


def plot_boxes(
    labels: Sequence[str],
    data: Sequence[Any],
    path: str,
    *,
    axis: str,
    options: str = "",
) -> None:
    """Box plots lying on their side (whiskers at the 5th and 95th percentile), one a row."""
    fig = new_figure(7.0, _rows_height(len(labels)))
    ax = fig.add_subplot()
    # Matplotlib 3.10 named it orientation; vert is deprecated from 3.11.
    import matplotlib

    major, minor = (int(x) for x in matplotlib.__version__.split(".")[:2])
    side: dict[str, Any] = (
        {"orientation": "horizontal"} if (major, minor) >= (3, 10) else {"vert": False}
    )
    ax.boxplot([np.asarray(d, dtype=float) for d in data], showfliers=False, whis=(5, 95), **side)
    ax.set_yticks(np.arange(1, len(labels) + 1), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(axis, fontsize=9)
    if options:
        ax.set_ylabel(options, fontsize=8)
    save_figure(fig, path)


def plot_lines(
    x: Any,
    lines: Sequence[tuple[str, Any]],
    path: str,
    *,
    xlabel: str,
    ylabel: str,
    legend_title: str = "",
) -> None:
    """Lines over ``x``, the legend below the plot."""
    fig = new_figure(7.0, 4.2 + 0.18 * min(len(lines), 16) / 2)
    ax = fig.add_subplot()
    for label, values in lines:
        ax.plot(x, values, marker=".", label=label)
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_ylabel(ylabel, fontsize=9)
    _legend_below(fig, ax, len(lines), legend_title)
    save_figure(fig, path)


def _legend_below(fig: Any, ax: Any, count: int, title: str = "") -> None:
    if 0 < count <= 24:
        ax.legend(
            fontsize=7,
            title=title or None,
            title_fontsize=7,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.15),
            ncol=min(count, 3),
        )


def plot_heatmap(
    grid: Any,
    text: Sequence[Sequence[str]],
    rows: Sequence[Any],
    cols: Sequence[Any],
    path: str,
    *,
    row_title: str,
    col_title: str,
    title: str,
) -> None:
    """A heat map over two options (rows the first, columns the second), each cell with its
    text."""
    fig = new_figure(max(4.0, 1.3 * len(cols) + 2.5), max(3.0, 0.5 * len(rows) + 1.8))
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="coolwarm", aspect="auto")
    for i in range(len(rows)):
        for j in range(len(cols)):
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=8)
    ax.set_xticks(np.arange(len(cols)), [str(c) for c in cols], fontsize=8)
    ax.set_yticks(np.arange(len(rows)), [str(r) for r in rows], fontsize=8)
    ax.set_xlabel(col_title)
    ax.set_ylabel(row_title)
    ax.set_title(title, fontsize=9)
    fig.colorbar(image, ax=ax)
    save_figure(fig, path)


#: One line of a series plot: its legend label, its metric at each tenth, its line style and
#: its colour (a variant keeps its colour across strengths).
SeriesLine = tuple[str, list[M.Metric], str, str]


def plot_series_panels(
    series: tuple[Column, ...], lines: dict[str, list[SeriesLine]], path: str
) -> None:
    """One panel per declared series (``lines[column name]``), each line a variant's means at
    the end of each tenth of the game with their 95 % intervals; one legend below."""
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
            vals, err = _errors(ms)
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
    if handles and len(labels) <= 24:
        fig.legend(handles, labels, fontsize=7, loc="lower center", ncol=min(len(labels), 3))
        fig.tight_layout(rect=(0, 0.04 + 0.035 * -(-len(labels) // 3), 1, 1))
        fig.savefig(path, format="png", bbox_inches="tight")
        return
    save_figure(fig, path)


def plot_gradient(
    strengths: Sequence[str],
    lines: Sequence[tuple[str, Sequence[M.Metric]]],
    path: str,
    *,
    axis: str,
    ref: float | None = None,
    legend_title: str = "",
) -> None:
    """A metric at each strength (x), one line per variant with its intervals."""
    fig = new_figure(7.0, 4.4 + 0.18 * min(len(lines), 24) / 3)
    ax = fig.add_subplot()
    x = np.arange(len(strengths))
    for k, (label, ms) in enumerate(lines):
        vals, err = _errors(ms)
        ax.errorbar(x + 0.02 * k, vals, yerr=err, marker="o", capsize=2, label=label)
    if ref is not None:
        ax.axhline(ref, color="grey", lw=0.8, ls="--")
    ax.set_xticks(x, list(strengths))
    ax.set_ylabel(axis, fontsize=9)
    _legend_below(fig, ax, len(lines), legend_title)
    save_figure(fig, path)


__all__ = [
    "SeriesLine",
    "new_figure",
    "plot_bars",
    "plot_boxes",
    "plot_gradient",
    "plot_heatmap",
    "plot_lines",
    "plot_points",
    "plot_series_panels",
    "save_figure",
    "short_labels",
]
