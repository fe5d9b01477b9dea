"""The lab's metrics: aggregation of per-game facts into numbers with 95 % intervals.

:func:`variant_metrics` takes a variant's per-game facts: the :class:`~stonefield._core.Facts`
that :func:`stonefield._core.lab_play` (or ``lab_stats``) returns, joined over the variant's
chunks. The facts that need the positions are computed in Rust while games are played
(``src/lab/``), and so are the sums over games the metrics rest on (``Facts.summary``,
``src/lab/summary.rs``: each in a fixed order, so they depend on the rows alone); this module
turns them into values and intervals.
Formulas are in the package documentation (:mod:`stonefield.lab`).

Intervals:

* **shares** (seat scores, completion, …): Wilson score interval, z = 1.96, over the games;
* **means** of per-game values (length, coverage, lead change, …): Student t interval,
  mean ± t₀.₉₇₅,ₙ₋₁ · s / √n;
* **balance** 1 − (w̄_a − w̄_b), a and b the seats of highest and lowest score: from the
  Wilson intervals of those seats (two players: exactly, since w̄_1 = 1 − w̄_0; more players:
  Newcombe's hybrid score interval for the difference), so that a balance of 1 is never given a
  zero-width interval (every game a draw still leaves the seats' scores uncertain);
* **pooled ratios** Σ x / Σ y over games (branching factor, decision moves, repetition): the
  delta method, R ± t · sd(x − R y) / (√n · ȳ), games being the independent units.

Every interval of a metric that is a share (seat scores, coverage, decision moves, lead change,
…) is kept within [0, 1], and of a metric that cannot be negative (drama, stability) above 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from .._core import Facts
from ..matches import Z95, wilson_interval
from .columns import Column

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
    return _wilson(mean, int(x.size))


def _wilson(mean: float, n: int) -> Metric:
    """A share of ``n`` games with its Wilson interval (NaN without games)."""
    if n == 0 or math.isnan(mean):
        return NAN_METRIC
    p = min(max(mean, 0.0), 1.0)
    lo, hi = wilson_interval(p, n)
    return Metric(p, lo, hi, n, "wilson")


def mean(values: npt.ArrayLike) -> Metric:
    """The mean with its Student t interval (NaN values are left out).

    >>> m = mean([1.0, 2.0, 3.0, 4.0])
    >>> m.value, [round(x, 3) for x in (m.low, m.high)]
    (2.5, [0.446, 4.554])
    """
    x = np.asarray(values, dtype=np.float64)
    x = x[~np.isnan(x)]
    if x.size == 0:
        return NAN_METRIC
    m = float(x.mean())
    return _student(int(x.size), m, float(((x - m) ** 2).sum()))


def _student(n: int, m: float, squares: float) -> Metric:
    """The mean ``m`` of ``n`` values whose squared deviations from it sum to ``squares``,
    with its t interval m ± t₀.₉₇₅,ₙ₋₁ · s / √n."""
    if n == 0:
        return NAN_METRIC
    if n == 1:
        return Metric(m, m, m, 1, "t")
    half = t_quantile(n - 1) * math.sqrt(squares / (n - 1)) / math.sqrt(n)
    return Metric(m, m - half, m + half, n, "t")


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
    resid = a - r * b
    m = float(resid.mean())
    return _delta(float(a.sum()), float(b.sum()), (int(a.size), m, float(((resid - m) ** 2).sum())))


def _delta(num: float, den: float, residuals: tuple[int, float, float]) -> Metric:
    """The pooled ratio num / den over ``n`` games, with the moments (n, mean, Σ squared
    deviations) of its residuals x − R y, and its delta-method interval."""
    n, _, squares = residuals
    if n == 0 or den == 0:
        return NAN_METRIC
    r = num / den
    if n == 1:
        return Metric(r, r, r, 1, "delta")
    spread = math.sqrt(squares / (n - 1)) / (math.sqrt(n) * (den / n))
    half = t_quantile(n - 1) * spread
    return Metric(r, r - half, r + half, n, "delta")


def plain(value: float, n: int) -> Metric:
    """A value without an interval (quantiles, counts)."""
    return Metric(float(value), float(value), float(value), n, "none")


def seat_scores(returns: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """w = (u + 1) / 2 per game and seat: 1 a sole win, 0 a sole loss, ½ a two-player draw."""
    return (np.asarray(returns, dtype=np.float64) + 1.0) / 2.0


def summarize(cols: Facts | Columns, players: int, declared: Sequence[str] = ()) -> dict[str, Any]:
    """The sums behind a variant's metrics, taken in Rust in a fixed order (so they depend on
    the rows alone) over every column the core lists, and over the ``declared`` columns of the
    game that ``cols`` holds: :meth:`Facts.summary <stonefield._core.Facts.summary>` for facts
    (no copy), ``_core.lab_summary`` for numpy columns built by hand."""
    if isinstance(cols, Facts):
        return dict(cols.summary(list(declared)))
    return dict(_core.lab_summary(cols, players, list(declared)))


def variant_metrics(
    cols: Facts | Columns, players: int, declared: Sequence[Column] = ()
) -> dict[str, Metric]:
    """Every per-variant metric from a variant's per-game columns (see the package docs).

    Args:
        cols: The variant's facts (``lab_play``'s, joined over its chunks), or numpy columns
            of every column the core lists (built by hand).
        players: The number of players.
        declared: The columns the game declares
            (:func:`~stonefield.lab.columns.declared_columns`): each one ``cols`` holds gives
            the metric of its name, its mean with a Student t interval kept within the
            column's range; each series (width 10) gives ten, ``{name}_0`` … ``{name}_9``,
            the mean at the end of each tenth of the game (:func:`series_names`).

    Returns:
        Metric name → :class:`Metric`, in the order tables show them.
    """
    s = summarize(cols, players, [c.name for c in declared])
    n = int(s["games"])
    out: dict[str, Metric] = {}
    for p in range(players):
        out[f"seat_score_{p}"] = _wilson(s["seats"][p], n)
    out["advantage"] = out["seat_score_0"]
    out["balance"] = balance([out[f"seat_score_{p}"] for p in range(players)], n)

    def counted(key: str) -> Metric:
        """The share of the games that ``key`` counts."""
        return _wilson(s[key] / max(n, 1), n)

    out["completion"] = counted("single")
    out["drawishness"] = counted("draw")
    out["truncation"] = counted("truncated")
    if ("scores" in cols) if isinstance(cols, Facts) else cols.get("scores") is not None:
        out["tiebreak_reach"] = counted("top_tied")
        out["tiebreak_unresolved"] = counted("top_tied_draw")
    else:
        out["tiebreak_reach"] = out["tiebreak_unresolved"] = NAN_METRIC
    for name in ("length", "turns"):
        out[f"{name}_mean"] = _student(*s[name])
        for label, value in zip(("median", "p10", "p90"), s[f"{name}_percentiles"]):
            out[f"{name}_{label}"] = plain(value, n) if n else NAN_METRIC
    out["branching"] = _delta(*s["branching"])
    out["decision_moves"] = _delta(*s["decision_moves"])
    out["coverage"] = _student(*s["coverage"])
    out["repetition"] = _delta(*s["repetition"])
    out["repeated_games"] = counted("repeated_games")
    for name in ("lead_change", "drama", "decisiveness", "stability"):
        out[name] = _student(*s[name])
    for name in BOUNDED_SHARES:
        out[name] = _within(out[name], 0.0, 1.0)
    for name in ("drama", "stability"):
        out[name] = _within(out[name], 0.0, math.inf)
    ranges = {c.name: (c.low, c.high) for c in declared}
    for name, moments in s["game"]:
        out[name] = _within(_student(*moments), *ranges[name])
    for name, tenths in s.get("series", ()):
        for metric, moments in zip(series_names(name), tenths):
            out[metric] = _within(_student(*moments), *ranges[name])
    chose, swap = int(s["pie_chose"]), int(s["pie_swap"])
    if chose:
        out["pie_swap"] = _wilson(swap / chose, chose)
        for label, means, games in (
            ("swap", s["swap_seats"], swap),
            ("accept", s["accept_seats"], chose - swap),
        ):
            for p in range(players):
                out[f"seat_score_{p}_{label}"] = _wilson(means[p], games)
    return out


#: The tenths of a series (``src/lab/mod.rs``: tenth k ends at position ⌈(k + 1) L / 10⌉).
TENTHS = 10


def series_names(series: str) -> list[str]:
    """The metrics of a declared column's series, one per tenth of the game.

    >>> series_names("groups_final_series")[::9]
    ['groups_final_series_0', 'groups_final_series_9']
    """
    return [f"{series}_{k}" for k in range(TENTHS)]


def series_metrics(metrics: dict[str, Metric], series: str) -> list[Metric]:
    """A variant's metrics of one series, tenth by tenth (NaN where it has none)."""
    return [metrics.get(n, NAN_METRIC) for n in series_names(series)]


#: Metrics that are shares, averaged over games or pooled, whose intervals are kept in [0, 1].
BOUNDED_SHARES = ("coverage", "decision_moves", "repetition", "lead_change", "decisiveness")


def _within(m: Metric, low: float, high: float) -> Metric:
    """``m`` with its interval cut to [low, high]."""
    if math.isnan(m.value):
        return m
    return Metric(m.value, max(low, m.low), min(high, m.high), m.n, m.interval)


def balance(seats: list[Metric], n: int) -> Metric:
    """Balance 1 − (w̄_a − w̄_b) over the seats of highest (a) and lowest (b) score, with an
    interval from the seats' Wilson intervals: with two players exactly (w̄_1 = 1 − w̄_0, so
    the difference is 2 w̄_0 − 1), with more Newcombe's hybrid score interval for a difference.

    >>> m = balance([_wilson(0.5, 60), _wilson(0.5, 60)], 60)
    >>> m.value, round(m.low, 3), m.high
    (1.0, 0.755, 1.0)
    >>> m = balance([_wilson(0.7, 100), _wilson(0.3, 100)], 100)
    >>> round(m.value, 3), round(m.low, 3), round(m.high, 3)
    (0.6, 0.438, 0.792)
    """
    if n == 0 or not seats or any(math.isnan(m.value) for m in seats):
        return NAN_METRIC
    values = [m.value for m in seats]
    a, b = int(np.argmax(values)), int(np.argmin(values))
    d = values[a] - values[b]
    if len(seats) == 2:
        s0 = seats[0]
        lo, hi = 2 * s0.low - 1, 2 * s0.high - 1
        if a == 1:
            lo, hi = -hi, -lo
    else:
        ta, tb = seats[a], seats[b]
        lo = d - math.hypot(ta.value - ta.low, tb.high - tb.value)
        hi = d + math.hypot(ta.high - ta.value, tb.value - tb.low)
    far = max(abs(lo), abs(hi))
    near = 0.0 if lo <= 0.0 <= hi else min(abs(lo), abs(hi))
    return Metric(1.0 - d, max(0.0, 1.0 - far), min(1.0, 1.0 - near), n, "wilson")


def kingmaking_metric(flags: list[bool]) -> Metric:
    """The share of sampled games judged king-made (Wilson)."""
    return share(np.asarray(flags, dtype=np.float64)) if flags else NAN_METRIC


def kingmaking_excess(flags: list[bool], null: list[bool]) -> Metric:
    """King-making beyond noise: the share of games king-made less the share flagged by the
    null procedure on the same games, with a Student t interval of the paired per-game
    differences (each −1, 0 or 1), clipped to [−1, 1]. The half-width is at least that of
    Wilson's interval for a share of 0 over the same games, z² / (n + z²), so that the interval
    does not collapse to a point when every difference is the same.

    >>> m = kingmaking_excess([True, True, False, False], [True, False, False, False])
    >>> round(m.value, 2), m.n
    (0.25, 4)
    """
    if not flags or len(flags) != len(null):
        return NAN_METRIC
    d = np.asarray(flags, dtype=np.float64) - np.asarray(null, dtype=np.float64)
    n = d.size
    value = float(d.mean())
    if n < 2:
        return Metric(value, -1.0, 1.0, n, "t")
    half = float(t_quantile(n - 1) * d.std(ddof=1) / math.sqrt(n))
    half = max(half, Z95**2 / (n + Z95**2))
    return Metric(value, max(-1.0, value - half), min(1.0, value + half), n, "t")


def skill_metric(strong_scores: npt.ArrayLike) -> Metric:
    """The stronger agent's mean score w over the skill games (Wilson)."""
    return share(strong_scores)


def branching_profile(cols: Columns) -> npt.NDArray[np.float64]:
    """Mean legal actions per tenth of the game, averaged over the games whose tenth holds a
    decision (NaN for a tenth no game reaches).

    ``branching_bins`` holds each game's legal actions summed per tenth: tenth k of a game of
    L decisions holds decisions ⌈k L / 10⌉ to before ⌈(k + 1) L / 10⌉.

    >>> cols = {"branching_bins": [[3, 0, 0, 0, 0, 2, 0, 0, 0, 0]], "length": [2]}
    >>> branching_profile(cols)[[0, 1, 5]].tolist()
    [3.0, nan, 2.0]
    """
    sums = np.asarray(cols["branching_bins"], dtype=np.float64).reshape(-1, 10)
    if sums.shape[0] == 0:
        return np.full(10, np.nan)
    length = np.asarray(cols["length"], dtype=np.int64)
    edges = -((-np.arange(11)[None, :] * length[:, None]) // 10)
    sizes = np.diff(edges, axis=1)
    reached = sizes > 0
    means = np.where(reached, sums / np.maximum(sizes, 1), 0.0)
    counts = reached.sum(axis=0)
    with np.errstate(invalid="ignore"):
        return np.where(counts > 0, means.sum(axis=0) / np.maximum(counts, 1), np.nan)


#: What each metric is, in a line (the package documentation gives the exact formulas); the
#: reports print these beside their tables. Per-seat and declared metrics: :func:`definition`.
DEFINITIONS: dict[str, str] = {
    "seat_score": "mean score of a seat: 1 a sole win, 0 a sole loss, ½ a two-player draw",
    "advantage": "the first seat's score (½: no first-move advantage)",
    "balance": "1 − the largest gap between two seats' scores (1: every seat equal)",
    "completion": "share of games with a single winner",
    "drawishness": "share of games the rules end with first place shared",
    "truncation": "share of games ended by the move cap",
    "tiebreak_reach": "share of games whose raw scores tie for first (the tie-break decides)",
    "tiebreak_unresolved": "share of games still tied for first after every tie-break",
    "length": "game length in actions",
    "turns": "game length in turns (runs of actions by one player)",
    "branching": "mean number of legal actions at a decision",
    "decision_moves": "share of decisions with more than one legal action",
    "coverage": "share of the board's sites that held a stone during a game",
    "repetition": "share of positions that repeat an earlier position of the same game",
    "repeated_games": "share of games with a repeated position",
    "lead_change": "share of moves after which the leader changes (by the evaluation)",
    "drama": "how far behind the eventual winners were, on average over the game",
    "decisiveness": "how early (share of the game) a winner pulls ahead for good; 1: at the end",
    "stability": "variance of each player's evaluation over the game (low: steady)",
    "kingmaking": "share of judged games where the last player could change who wins",
    "kingmaking_null": "the same share when the last player's move is replayed unchanged (noise)",
    "kingmaking_excess": "king-making beyond noise: kingmaking − kingmaking_null",
    "pie_swap": "share of games where player 1 swaps at the pie offer",
    "skill": "score of the agent at 4× its budget against itself (above ½: skill pays)",
}


def definition(name: str, declared: Sequence[Column] = ()) -> str:
    """The one-line definition of metric ``name``; ``declared`` gives the descriptions of the
    game's own columns (their metrics and series).

    >>> definition("seat_score_1"), definition("length_p90")
    ('mean score of seat 1: 1 a sole win, 0 a sole loss, ½ a two-player draw', 'game length in actions: 90th percentile')
    """  # noqa: E501
    if name in DEFINITIONS:
        return DEFINITIONS[name]
    for c in declared:
        if name == c.name:
            return c.description
        if c.width > 1 and name.startswith(c.name + "_") and name[len(c.name) + 1 :].isdigit():
            k = int(name[len(c.name) + 1 :])
            return f"{c.description}, at the end of tenth {k + 1} of the game"
    base, _, rest = name.partition("_score_")
    if base == "seat" and rest:
        seat, _, choice = rest.partition("_")
        text = DEFINITIONS["seat_score"].replace("of a seat", f"of seat {seat}")
        return text + (f", in games where player 1 chose to {choice}" if choice else "")
    for stem in ("length", "turns"):
        for suffix, words in (
            ("mean", "mean"),
            ("median", "median"),
            ("p10", "10th percentile"),
            ("p90", "90th percentile"),
        ):
            if name == f"{stem}_{suffix}":
                return f"{DEFINITIONS[stem]}: {words}"
    return ""


def excludes(m: Metric, ref: float) -> int:
    """+1 when the 95 % interval lies above ``ref``, −1 below, 0 when it holds it (or is NaN)."""
    if math.isnan(m.value):
        return 0
    if m.low > ref:
        return 1
    if m.high < ref:
        return -1
    return 0


def fmt(m: Metric) -> str:
    """A metric as "0.53 (0.48–0.58)"."""
    if math.isnan(m.value):
        return "-"
    return f"{m.value:.2f} ({m.low:.2f}–{m.high:.2f})"


def short(m: Metric) -> str:
    """A metric's value alone, to two decimals (one from 10 on), "-" when undefined.

    >>> short(Metric(0.5312, 0.48, 0.58, 400, "wilson")), short(Metric(45.26, 45, 46, 9, "t"))
    ('0.53', '45.3')
    """
    if math.isnan(m.value):
        return "-"
    return f"{m.value:.2f}" if abs(m.value) < 10 else f"{m.value:.1f}"


#: The largest rating :func:`bradley_terry` gives an agent that won or lost every game (Elo).
BT_CAP = 800.0


def bradley_terry(
    agents: Sequence[str],
    results: Sequence[tuple[int, int, float, int]],
    anchor: str = "uct",
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Elo ratings and their 95 % half-widths from pairwise results (a Bradley–Terry fit).

    Each result ``(i, j, s, n)`` says that ``agents[i]`` scored ``s`` points in ``n`` games
    against ``agents[j]`` (a draw counts half). The fit maximises the Bradley–Terry likelihood
    with the scores as fractional wins, by Newton's method, with ``anchor`` (or the first agent
    when none is named so) fixed at 0; the half-widths are 1.96 standard errors from the
    inverse of the observed information. An agent that won or lost every game has an unbounded
    rating: its estimate is capped at ±:data:`BT_CAP` Elo from the anchor and its half-width is
    infinite. The strength ladder (``experiments/strength/``) rates its agents with it.

    Args:
        agents: The agents' names.
        results: ``(i, j, points of i, games)`` per pairing, ``i`` and ``j`` indices of
            ``agents``.
        anchor: The agent rated 0.

    Returns:
        float64 arrays ``(elo, half)``, one entry per agent (``half`` is 0 for the anchor).

    >>> elo, half = bradley_terry(["uct", "strong"], [(0, 1, 25.0, 100)])
    >>> round(float(elo[1])), round(float(half[1]))
    (191, 79)
    """
    k = len(agents)
    fixed = list(agents).index(anchor) if anchor in agents else 0
    free = [a for a in range(k) if a != fixed]
    theta = np.zeros(k)
    cap = BT_CAP * math.log(10) / 400
    hess = np.zeros((k, k))
    for _ in range(100):
        grad = np.zeros(k)
        hess = np.zeros((k, k))
        for i, j, s, n in results:
            p = 1 / (1 + math.exp(theta[j] - theta[i]))
            grad[i] += s - n * p
            grad[j] -= s - n * p
            w = n * p * (1 - p)
            hess[i, i] += w
            hess[j, j] += w
            hess[i, j] -= w
            hess[j, i] -= w
        h = hess[np.ix_(free, free)] + 1e-9 * np.eye(len(free))
        step = np.linalg.solve(h, grad[free])
        theta[free] = np.clip(theta[free] + step, -cap, cap)
        if np.max(np.abs(step)) < 1e-9:
            break
    cov = np.linalg.pinv(hess[np.ix_(free, free)])
    half = np.zeros(k)
    for f, a in enumerate(free):
        saturated = abs(theta[a]) >= cap - 1e-6
        half[a] = math.inf if saturated else 1.96 * math.sqrt(max(cov[f, f], 0.0))
    scale = 400 / math.log(10)
    return theta * scale, half * scale
