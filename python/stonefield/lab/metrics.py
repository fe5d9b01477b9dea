"""The lab's metrics: aggregation of per-game facts into numbers with 95 % intervals.

Every function here takes the per-game columns that :func:`stonefield._core.lab_play` (or
``lab_stats``) returns, concatenated over a variant's games, and only aggregates; the facts that
need the positions are computed in Rust (``src/sim/stats.rs``). Formulas are in the package
documentation (:mod:`stonefield.lab`).

Intervals:

* **shares** (seat scores, completion, …): Wilson score interval, z = 1.96, over the games;
* **means** of per-game values (length, coverage, lead change, …): Student t interval,
  mean ± t₀.₉₇₅,ₙ₋₁ · s / √n;
* **balance**: a t interval of the per-game difference between the seats of highest and
  lowest mean;
* **pooled ratios** Σ x / Σ y over games (branching factor, decision moves, repetition): the
  delta method, R ± t · sd(x − R y) / (√n · ȳ), games being the independent units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..matches import Z95, wilson_interval

Columns = dict[str, Any]


@dataclass(frozen=True)
class Metric:
    """One metric of one variant: its value and 95 % interval (NaN when undefined).

    Attributes:
        value: The point estimate.
        low: Lower end of the 95 % interval (equal to ``value`` when none is given).
        high: Upper end.
        n: How many games (or decisions) it rests on.
        interval: ``"wilson"``, ``"t"``, ``"delta"`` or ``"none"``.
    """

    value: float
    low: float
    high: float
    n: int
    interval: str

    def __str__(self) -> str:
        if math.isnan(self.value):
            return "-"
        if self.interval == "none":
            return f"{self.value:.4g}"
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


NAN_METRIC = Metric(math.nan, math.nan, math.nan, 0, "none")


_T975 = (
    12.7062,
    4.3027,
    3.1824,
    2.7764,
    2.5706,
    2.4469,
    2.3646,
    2.3060,
    2.2622,
    2.2281,
    2.2010,
    2.1788,
    2.1604,
    2.1448,
    2.1314,
    2.1199,
    2.1098,
    2.1009,
    2.0930,
    2.0860,
    2.0796,
    2.0739,
    2.0687,
    2.0639,
    2.0595,
    2.0555,
    2.0518,
    2.0484,
    2.0452,
    2.0423,
)


def t_quantile(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom.

    Tabled (4 decimals) up to 30 degrees of freedom; beyond, a Cornish–Fisher expansion around
    the normal quantile (error below 1e-5 there).

    >>> round(t_quantile(1), 3), round(t_quantile(9), 3), round(t_quantile(10**6), 3)
    (12.706, 2.262, 1.96)
    """
    if df < 1:
        return math.nan
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    v = float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


def share(hits: npt.ArrayLike) -> Metric:
    """The mean of values in [0, 1] (a share; draws may count ½) with its Wilson interval.

    >>> m = share([1, 0, 0.5, 1])
    >>> m.value, [round(x, 3) for x in (m.low, m.high)]
    (0.625, [0.219, 0.908])
    """
    x = np.asarray(hits)
    if x.size == 0:
        return NAN_METRIC
    # Booleans are counted (no float copy); other values averaged.
    mean = np.count_nonzero(x) / x.size if x.dtype == np.bool_ else float(x.mean(dtype=np.float64))
    p = float(np.clip(mean, 0.0, 1.0))
    lo, hi = wilson_interval(p, int(x.size))
    return Metric(p, lo, hi, int(x.size), "wilson")


def mean(values: npt.ArrayLike) -> Metric:
    """The mean with its Student t interval (NaN values are left out).

    >>> m = mean([1.0, 2.0, 3.0, 4.0])
    >>> m.value, [round(x, 3) for x in (m.low, m.high)]
    (2.5, [0.446, 4.554])
    """
    x = np.asarray(values)
    if x.dtype.kind in "iub":
        # Whole numbers: summed in float64 as they are (exact below 2⁵³), with no copy.
        total = float(x.sum(dtype=np.float64))
    else:
        x = np.asarray(x, dtype=np.float64)
        total = float(x.sum())
        if math.isnan(total):
            x = x[~np.isnan(x)]
            total = float(x.sum())
    if x.size == 0:
        return NAN_METRIC
    m = total / x.size
    if x.size == 1:
        return Metric(m, m, m, 1, "t")
    half = t_quantile(x.size - 1) * _sd(x, m) / math.sqrt(x.size)
    return Metric(m, m - half, m + half, int(x.size), "t")


def _sd(x: npt.NDArray[Any], m: float) -> float:
    """The sample standard deviation of ``x`` about its mean ``m`` (one temporary array; no
    BLAS call, whose spinning threads would take the cores from the next games)."""
    d = x - m
    np.multiply(d, d, out=d)
    return math.sqrt(float(d.sum()) / (x.size - 1))


def ratio(num: npt.ArrayLike, den: npt.ArrayLike) -> Metric:
    """R = Σ num / Σ den over games (a pooled ratio) with its delta-method interval:
    R ± t · sd(num − R · den) / (√n · mean(den)), games being the independent units.

    >>> m = ratio([3, 1, 2], [2, 2, 2])
    >>> m.value, [round(x, 3) for x in (m.low, m.high)]
    (1.0, [-0.242, 2.242])
    """
    a = np.asarray(num, dtype=np.float64)
    b = np.asarray(den, dtype=np.float64)
    if a.size == 0 or b.sum() == 0:
        return NAN_METRIC
    r = float(a.sum() / b.sum())
    if a.size == 1:
        return Metric(r, r, r, 1, "delta")
    resid = a - r * b
    spread = _sd(resid, float(resid.mean())) / (math.sqrt(a.size) * float(b.mean()))
    half = t_quantile(a.size - 1) * spread
    return Metric(r, r - half, r + half, int(a.size), "delta")


def balance_metric(w: npt.NDArray[np.float64]) -> Metric:
    """:func:`balance_of` with a t interval: with a and b the seats of highest and lowest mean,
    balance = 1 − mean over games of (w_a − w_b), a mean of per-game differences."""
    return _balance(_seat_columns(w))


def _seat_columns(w: npt.NDArray[np.float64]) -> list[npt.NDArray[np.float64]]:
    """Each seat's column of ``w``, contiguous (numpy reduces those fastest)."""
    return [np.ascontiguousarray(w[:, p]) for p in range(w.shape[1])]


def _balance(seats: list[npt.NDArray[np.float64]]) -> Metric:
    means = np.array([c.mean() for c in seats])
    a, b = int(np.argmax(means)), int(np.argmin(means))
    m = mean(1.0 - (seats[a] - seats[b]))
    # Balance lies in [0, 1]; the t interval is cut to it.
    value = float(1.0 - (means.max() - means.min()))
    return Metric(value, max(0.0, m.low), min(1.0, m.high), m.n, "t")


def plain(value: float, n: int) -> Metric:
    """A value without an interval (quantiles, counts)."""
    return Metric(float(value), float(value), float(value), n, "none")


def seat_scores(returns: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """w = (u + 1) / 2 per game and seat: 1 a sole win, 0 a sole loss, ½ a two-player draw."""
    return (np.asarray(returns, dtype=np.float64) + 1.0) / 2.0


def balance_of(w: npt.NDArray[np.float64]) -> float:
    """1 − max over seat pairs of |w̄_a − w̄_b| (the spread of the seat means), without any
    integer truncation.

    >>> balance_of(np.array([[1.0, 0.0], [0.5, 0.5]]))
    0.5
    """
    means = np.array([c.mean() for c in _seat_columns(w)])
    return float(1.0 - (means.max() - means.min()))


def outcome_kinds(
    ranks: npt.NDArray[np.float64], truncated: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per game: a single winner (not truncated, one player alone on the best rank), and a draw
    by the rules (not truncated, first place shared)."""
    # Column by column: reductions along a short last axis are slow in numpy.
    columns = [ranks[:, p] for p in range(ranks.shape[1])]
    best = columns[0].copy()
    for c in columns[1:]:
        np.minimum(best, c, out=best)
    firsts = np.zeros(ranks.shape[0], dtype=np.int64)
    for c in columns:
        firsts += c == best
    single = ~truncated & (firsts == 1)
    draw = ~truncated & (firsts > 1)
    return single, draw


def _percentiles(x: npt.NDArray[Any], qs: tuple[int, ...]) -> list[float]:
    """``np.percentile(x, qs)`` (linear interpolation between order statistics); for the
    small whole numbers of lengths and turns, from their counts rather than a sort.

    >>> _percentiles(np.array([4.0, 1.0, 3.0, 2.0]), (50, 10, 90))
    [2.5, 1.3, 3.7]
    """
    whole = x.dtype.kind in "iub" or np.array_equal(x, np.floor(x))
    if not whole or float(x.min()) < 0 or float(x.max()) > 1e6:
        return [float(v) for v in np.percentile(x, list(qs))]
    cumulative = np.cumsum(np.bincount(x.astype(np.intp, copy=False)))
    out = []
    for q in qs:
        pos = q / 100 * (x.size - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, x.size - 1)
        a, b = np.searchsorted(cumulative, [lo + 1, hi + 1])
        t = pos - lo
        out.append(float(np.percentile([float(a), float(b)], 100 * t)))
    return out


def variant_metrics(cols: Columns, players: int) -> dict[str, Metric]:
    """Every per-variant metric from a variant's per-game columns (see the package docs).

    Args:
        cols: Columns as ``lab_play`` returns them, concatenated over the variant's games.
        players: The number of players.

    Returns:
        Metric name → :class:`Metric`, in the order tables show them.
    """
    out: dict[str, Metric] = {}
    returns = np.asarray(cols["returns"], dtype=np.float64).reshape(-1, players)
    ranks = np.asarray(cols["ranks"], dtype=np.float64).reshape(-1, players)
    truncated = np.asarray(cols["truncated"], dtype=np.bool_)
    n = int(returns.shape[0])
    # w per seat, each contiguous: (u + 1) / 2 as seat_scores computes it.
    seats = [(returns[:, p] + 1.0) / 2.0 for p in range(players)]
    for p in range(players):
        out[f"seat_score_{p}"] = share(seats[p])
    out["advantage"] = out["seat_score_0"] if n else NAN_METRIC
    out["balance"] = _balance(seats) if n else NAN_METRIC
    single, draw = outcome_kinds(ranks, truncated) if n else (np.zeros(0, bool),) * 2
    out["completion"] = share(single)
    out["drawishness"] = share(draw)
    out["truncation"] = share(truncated)
    scores = cols.get("scores")
    if scores is not None:
        top_tied = np.asarray(cols["top_tied"], dtype=np.bool_)
        out["tiebreak_reach"] = share(top_tied)
        out["tiebreak_unresolved"] = share(top_tied & draw)
    else:
        out["tiebreak_reach"] = out["tiebreak_unresolved"] = NAN_METRIC
    for name in ("length", "turns"):
        x = np.asarray(cols[name])
        out[f"{name}_mean"] = mean(x)
        quantiles = _percentiles(x, (50, 10, 90)) if n else [math.nan] * 3
        for label, value in zip(("median", "p10", "p90"), quantiles):
            out[f"{name}_{label}"] = plain(value, n) if n else NAN_METRIC
    length = np.asarray(cols["length"], dtype=np.float64)
    out["branching"] = ratio(cols["branching_sum"], length)
    out["decision_moves"] = ratio(cols["multi_choice"], length)
    out["coverage"] = mean(cols["coverage"])
    repeated = np.asarray(cols["repeated"], dtype=np.float64)
    out["repetition"] = ratio(repeated, length)
    out["repeated_games"] = share(repeated > 0)
    for name in ("lead_change", "drama", "decisiveness", "stability"):
        out[name] = mean(cols[name])
    pie = np.asarray(cols["pie"], dtype=np.int8)
    chose = pie >= 0
    if chose.any():
        out["pie_swap"] = share(pie[chose] == 1)
        for label, mask in (("swap", pie == 1), ("accept", pie == 0)):
            for p in range(players):
                out[f"seat_score_{p}_{label}"] = share(seats[p][mask])
    return out


def kingmaking_metric(flags: list[bool]) -> Metric:
    """The share of sampled games judged king-made (Wilson)."""
    return share(np.asarray(flags, dtype=np.float64)) if flags else NAN_METRIC


def skill_metric(strong_scores: npt.ArrayLike) -> Metric:
    """The stronger agent's mean score w over the skill games (Wilson)."""
    return share(strong_scores)


def branching_profile(cols: Columns) -> npt.NDArray[np.float64]:
    """Mean legal actions per tenth of the game, averaged over the games that reach it."""
    bins = np.asarray(cols["branching_bins"], dtype=np.float64).reshape(-1, 10)
    if bins.shape[0] == 0:
        return np.full(10, np.nan)
    with np.errstate(invalid="ignore"):
        counts = (~np.isnan(bins)).sum(axis=0)
        sums = np.nansum(bins, axis=0)
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
