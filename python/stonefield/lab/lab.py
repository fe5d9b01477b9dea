"""``evaluate`` and the :class:`Lab` it returns: the lab's front door."""

from __future__ import annotations

import contextlib
import csv
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .. import _core
from .._core import Facts
from ..agents import agent_string
from ..records import to_record
from . import metrics as M
from .columns import columns_of, declared_columns
from .kingmaking import kingmaking_verdicts
from .plan import Plan, make_plan, seating, skill_agents
from .report import Brief, write_report
from .results import ResultsFile, gather, open_results, records
from .run import ProgressFn, execute, print_progress


class Lab:
    """The results of :func:`evaluate`: per-variant metrics, tables, files and a report.

    Attributes:
        plan: The resolved arguments, variants and agents.
        entries: Every entry of the results file (the source of truth), a chunk's per-game
            facts held in Rust (its ``facts``, a :class:`~stonefield._core.Facts`) rather than
            as the file's lists.
        brief: The question the report opens with and how its answer is read off the numbers
            (set by :func:`~stonefield.lab.study`; None for a plain run).
    """

    def __init__(self, plan: Plan, entries: list[dict[str, Any]]) -> None:
        self.plan = plan
        self.entries = entries
        self._facts = gather(plan, entries)
        self._skill = gather(plan, entries, "skill") if plan.skill else None
        self._views: dict[int, dict[str, Any]] = {}
        self._metrics: list[dict[str, M.Metric]] | None = None
        self.brief: Brief | None = None

    def agents_label(self) -> str:
        """Who played the games every metric rests on: the agent of each seat (one name when
        every seat has the same agent), with its budget.

        >>> import stonefield as sf
        >>> lab = sf.lab.evaluate("subsume", fixed={"size": 3}, agents=sf.MCTS(iterations=8),
        ...                       games=2)
        >>> lab.agents_label()
        'mcts:iterations=8,seed=0 in every seat'
        """
        names = list(self.plan.header()["agents"])
        if len(set(names)) == 1:
            return f"{names[0]} in every seat"
        return ", ".join(f"seat {p}: {n}" for p, n in enumerate(names))

    def skill_label(self) -> str:
        """Who played the skill games (the ``skill`` metric), or "" without them."""
        if not self.plan.skill:
            return ""
        strong, base = skill_agents(self.plan)
        return (
            f"{self.plan.skill} games a variant of {agent_string(strong)} against "
            f"{agent_string(base)}, the stronger agent rotating through the seats"
        )

    def default_variant(self) -> int | None:
        """The index of the variant whose varied options all take the game's defaults (the
        reference of the report's flags), or None when the grid has none."""
        spec = {o["name"]: o["default"] for o in _core.option_spec(self.plan.game)}
        for v in self.plan.variants:
            if all(spec.get(k) == value for k, value in v.varied.items()):
                return v.index
        return None

    @property
    def game(self) -> str:
        return self.plan.game

    @property
    def variants(self) -> list[dict[str, Any]]:
        """The varied options of each variant, in grid order."""
        return [dict(v.varied) for v in self.plan.variants]

    def columns(self, variant: int) -> dict[str, Any]:
        """A variant's per-game facts (numpy columns, one row per game, in game order; every
        column None for a variant without games), made on the first request."""
        if variant not in self._views:
            facts = self._facts[variant]
            if len(facts):
                self._views[variant] = dict(facts.columns())
            else:
                game = self.plan.variants[variant].game
                self._views[variant] = {c.name: None for c in columns_of(game)}
        return self._views[variant]

    def facts(self, variant: int) -> Facts:
        """A variant's per-game facts as the core holds them (see
        :class:`~stonefield._core.Facts`), in game order."""
        return self._facts[variant]

    def kingmaking_games(self, variant: int) -> list[dict[str, Any]]:
        """The king-making verdicts of a variant's sampled games."""
        out: list[dict[str, Any]] = []
        for e in self.entries:
            if e.get("kind") == "kingmaking" and e["variant"] == variant:
                out.extend(e["games"])
        return out

    def records(self, variant: int) -> list[dict[str, Any]]:
        """Game records (the JSON record format) of the games whose actions the results file
        keeps: those with a repeated position and the king-making sample."""
        game = self.plan.variants[variant].game
        out: list[dict[str, Any]] = []
        for index, r in sorted(records(self.entries, variant).items()):
            state = game.new_state()
            for a in r["actions"]:
                state.apply(int(a))
            rec = to_record(state)
            rec["lab_game_index"] = index
            out.append(rec)
        return out

    def metrics(self) -> list[dict[str, M.Metric]]:
        """Per variant, metric name → :class:`~stonefield.lab.metrics.Metric`."""
        if self._metrics is None:
            out: list[dict[str, M.Metric]] = []
            for v in self.plan.variants:
                facts = self._facts[v.index]
                if not len(facts):
                    out.append({})
                    continue
                m = M.variant_metrics(facts, v.game.num_players, declared_columns(v.game))
                if v.game.num_players >= 3 and self.plan.kingmaking:
                    judged = self.kingmaking_games(v.index)
                    flags = [bool(g["kingmade"]) for g in judged]
                    m["kingmaking"] = M.kingmaking_metric(flags)
                    if judged and all("null_kingmade" in g for g in judged):
                        null = [bool(g["null_kingmade"]) for g in judged]
                        m["kingmaking_null"] = M.kingmaking_metric(null)
                        m["kingmaking_excess"] = M.kingmaking_excess(flags, null)
                if self._skill is not None and len(self._skill[v.index]):
                    m["skill"] = M.skill_metric(self._strong_scores(v.index))
                out.append(m)
            self._metrics = out
        return self._metrics

    def _strong_scores(self, variant: int) -> np.ndarray:
        assert self._skill is not None
        n = self.plan.variants[variant].game.num_players
        returns = self._skill[variant].column("returns")
        assert returns is not None  # every game has returns
        returns = returns.reshape(-1, n)
        count = returns.shape[0]
        seats = seating(self.plan, self.plan.variants[variant], "skill", 0, count)
        strong = np.argmin(seats, axis=1)
        return M.seat_scores(returns[np.arange(count), strong])

    def rows(self) -> list[dict[str, Any]]:
        """One flat dict per variant: its options, games, and for every metric its value and
        95 % interval (``name``, ``name_low``, ``name_high``)."""
        out = []
        for v, m in zip(self.plan.variants, self.metrics()):
            row: dict[str, Any] = {"variant": v.label, **v.varied}
            row["games"] = len(self._facts[v.index])
            row["agents"] = self.agents_label()
            if self.plan.skill:
                row["skill_agents"] = self.skill_label()
            for name, metric in m.items():
                row[name] = metric.value
                row[f"{name}_low"] = metric.low
                row[f"{name}_high"] = metric.high
            out.append(row)
        return out

    def table(self, metrics: Sequence[str] | None = None) -> str:
        """A printable table: one row per variant, each metric with its 95 % interval.

        Args:
            metrics: The metric names to show (default: every metric).
        """
        all_metrics = self.metrics()
        names: list[str] = []
        for m in all_metrics:
            names.extend(k for k in m if k not in names)
        if metrics is not None:
            unknown = [k for k in metrics if k not in names]
            if unknown:
                raise _core.InvalidOptionError(
                    f"unknown metric {unknown[0]!r}; metrics: {', '.join(names)}"
                )
            names = list(metrics)
        labels = [v.label for v in self.plan.variants]
        width = max(len("metric"), *(len(n) for n in names))
        cols = [max(24, len(lab)) for lab in labels]
        head = f"{'metric':<{width}}  " + "  ".join(f"{lab:>{w}}" for lab, w in zip(labels, cols))
        games = [str(len(f)) for f in self._facts]
        lines = [
            f"{self.plan.game}: {', '.join(a for a in self.plan.header()['agents'])}, "
            f"seed {self.plan.seed}",
            head,
            f"{'games':<{width}}  " + "  ".join(f"{g:>{w}}" for g, w in zip(games, cols)),
        ]
        for name in names:
            cells = [str(m.get(name, M.NAN_METRIC)) for m in all_metrics]
            lines.append(f"{name:<{width}}  " + "  ".join(f"{c:>{w}}" for c, w in zip(cells, cols)))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def to_csv(self, path: str) -> None:
        """Writes :meth:`rows` as CSV (one row per variant)."""
        rows = self.rows()
        fields: list[str] = []
        for r in rows:
            fields.extend(k for k in r if k not in fields)
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            for r in rows:
                w.writerow(r)

    def to_json(self, path: str) -> None:
        """Writes the arguments and :meth:`rows` as JSON (NaN written as null)."""

        def clean(x: Any) -> Any:
            return None if isinstance(x, float) and math.isnan(x) else x

        data = {
            "arguments": self.plan.header(),
            "variants": [{k: clean(v) for k, v in r.items()} for r in self.rows()],
        }
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)

    def to_pandas(self) -> Any:
        """:meth:`rows` as a pandas DataFrame (pandas is imported only here)."""
        try:
            import pandas as pd  # type: ignore[import-untyped,unused-ignore]
        except ImportError:
            raise ImportError("to_pandas needs pandas: pip install pandas") from None
        return pd.DataFrame(self.rows())

    def report(self, directory: str) -> str:
        """Writes ``report.md``, a self-contained ``report.html`` and the plots (PNG) into
        ``directory``; returns the path of report.md. Needs matplotlib (``stonefield[lab]``)."""
        return write_report(self, directory)


def evaluate(
    game: str,
    vary: Mapping[str, Sequence[Any]] | None = None,
    fixed: dict[str, Any] | None = None,
    agents: Any = None,
    games: int = 100,
    seed: int = 0,
    backend: str = "local",
    out: str | None = None,
    *,
    address: str | None = None,
    chunk: int | None = None,
    threads: int | None = None,
    kingmaking: int | None = None,
    skill: int = 0,
    cpus_per_task: int = 1,
    progress: bool | ProgressFn = False,
) -> Lab:
    """Plays every variant of a grid and returns its metrics (see :mod:`stonefield.lab`).

    Args:
        game: A game id.
        vary: Option name → values; the variants are the cartesian product.
        fixed: Options shared by every variant.
        agents: One agent (or agent string) for every seat, or one per seat; default random.
        games: Games per variant (> 0).
        seed: Game i of every variant draws from the streams of (seed, i).
        backend: ``"local"`` (Rust over the local cores) or ``"ray"``.
        out: The results file (JSON lines). Each finished chunk is appended and flushed; a
            rerun with the same arguments resumes it; other arguments are refused.
        address: Ray cluster address (``"auto"``, ``host:port``); default: a local Ray.
        chunk: Games per chunk (default 100,000 with random agents, 32 with search).
        threads: Threads for the local backend (default all cores).
        kingmaking: For 3–4 players, how many games per variant to judge for king-making
            (default 10; 0 turns it off).
        skill: Games per variant of the agent at 4× its budget (every other setting kept)
            against itself.
        cpus_per_task: Ray: CPUs each chunk task asks for (and the threads it plays on).
        progress: True for the command line's progress bar, or a callable
            ``progress(done, total, seconds)``.

    Returns:
        A :class:`Lab`.

    >>> import stonefield as sf
    >>> lab = sf.lab.evaluate("subsume", vary={"size": [3, 4]}, games=20, seed=1)
    >>> [row["games"] for row in lab.rows()]
    [20, 20]
    >>> 0.0 <= lab.rows()[0]["balance"] <= 1.0
    True
    """
    plan = make_plan(
        game, vary, fixed, agents, games, seed, 10 if kingmaking is None else kingmaking, skill
    )
    report: ProgressFn | None
    if progress is True:
        report = _notebook_progress() or print_progress
    elif callable(progress):
        report = progress
    else:
        report = None
    # The file stays locked for the whole run, king-making verdicts included.
    with open_results(plan, out) if out is not None else contextlib.nullcontext() as results:
        entries = execute(plan, results, backend, address, chunk, threads, report, cpus_per_task)
        lab = Lab(plan, entries)
        if plan.kingmaking and any(v.game.num_players >= 3 for v in plan.variants):
            _add_kingmaking(lab, results)
    return lab


def _add_kingmaking(lab: Lab, out: ResultsFile | None) -> None:
    plan = lab.plan
    judged = {e["variant"] for e in lab.entries if e.get("kind") == "kingmaking"}
    for v in plan.variants:
        if v.index in judged or v.game.num_players < 3:
            continue
        ranks = lab.facts(v.index).column("ranks")
        assert ranks is not None  # every game has ranks
        ranks = ranks.reshape(-1, v.game.num_players)
        games = kingmaking_verdicts(plan, v.index, records(lab.entries, v.index), ranks)
        entry = {"kind": "kingmaking", "variant": v.index, "games": games}
        lab.entries.append(entry)
        if out is not None:
            out.append(entry)
    lab._metrics = None


def _notebook_progress() -> ProgressFn | None:
    """A tqdm.auto bar when running inside a notebook with tqdm installed, else None."""
    try:
        from IPython import get_ipython  # type: ignore[import-not-found, unused-ignore]

        if get_ipython() is None or "IPKernelApp" not in get_ipython().config:
            return None
        from tqdm.auto import tqdm  # type: ignore[import-untyped, unused-ignore]
    except Exception:
        return None
    bar: Any = None

    def update(done: int, total: int, seconds: float) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, unit="game")
        bar.n = done
        bar.refresh()
        if done >= total:
            bar.close()

    return update


__all__ = ["Lab", "evaluate", "skill_agents"]
